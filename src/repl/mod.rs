//! The REPL: one `Session` for the whole sitting. Each input is parsed, checked
//! and run with `Session::run`, so a failing input (syntax, types, a failed
//! `then`, a runtime error, Ctrl-C) prints its diagnostics and changes nothing.
//!
//! Layout: this file holds the shared core (one input → one `Outcome`) and the
//! multi-line accumulator; `interactive` is the rustyline loop, `piped` the loop
//! for a non-terminal stdin, `commands` the `:` commands, `complete` Tab
//! completion, `guard` the panic fence around each evaluation.

mod commands;
mod complete;
mod guard;
mod interactive;
mod piped;
mod vars;

use crate::check::Limits;
use crate::diag::{Diag, render};
use crate::eval::{INTERRUPTED, Output};
use crate::ir;
use crate::print::{PrintOptions, format_value};
use crate::session::Session;
use crate::syntax;
use crate::value::Value;
use std::io::{IsTerminal, Write};
use std::sync::atomic::Ordering;

pub struct ReplOptions {
    pub full: bool,
    pub max_bytes: usize,
    pub color: bool,
}

/// Runs the REPL until Ctrl-D, `:quit` or the end of piped input; returns the exit code.
pub fn main(o: &ReplOptions) -> i32 {
    guard::install();
    let mut repl = Repl::new(o);
    if std::io::stdin().is_terminal() {
        interactive::run(&mut repl)
    } else {
        piped::run(&mut repl)
    }
}

/// The file name diagnostics of typed input carry.
const REPL_FILE: &str = "<repl>";

/// What handling one input came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    Done,
    /// The input failed; the code is what a script would exit with
    /// (1 runtime/assertion/interrupt/internal error, 2 syntax or check, 3 command or file error).
    Failed(i32),
    Quit,
}

pub(crate) struct Repl {
    pub(crate) session: Session,
    pub(crate) print: PrintOptions,
    /// Color diagnostics (asked for, and stderr is a terminal).
    pub(crate) color: bool,
}

impl Repl {
    pub(crate) fn new(o: &ReplOptions) -> Self {
        Repl {
            session: Session::new(Limits {
                max_value_bytes: o.max_bytes,
            }),
            print: PrintOptions {
                full: o.full,
                ..Default::default()
            },
            color: o.color && std::io::stderr().is_terminal(),
        }
    }

    /// Handles one complete input (a program fragment or a `:` command).
    /// A panic inside is reported as an internal error; the session stays as it was.
    pub(crate) fn handle(&mut self, input: &str) -> Outcome {
        INTERRUPTED.store(false, Ordering::SeqCst);
        let result = guard::guarded(|| self.dispatch(input));
        INTERRUPTED.store(false, Ordering::SeqCst);
        match result {
            Ok(o) => o,
            Err(msg) => {
                complain(&format!(
                    "internal error: {msg}\n(this is a bug in xlet; the session is unchanged)"
                ));
                Outcome::Failed(1)
            }
        }
    }

    fn dispatch(&mut self, input: &str) -> Outcome {
        match commands::parse(input) {
            Some(Ok(cmd)) => commands::execute(self, cmd),
            Some(Err(msg)) => {
                complain(&format!("error: {msg}"));
                Outcome::Failed(3)
            }
            None => self.run_source(REPL_FILE, input),
        }
    }

    /// Runs program text in the session, printing bare expressions' values.
    pub(crate) fn run_source(&mut self, file: &str, src: &str) -> Outcome {
        let mut out = Printer { opts: &self.print };
        match self.session.run(src, &mut out) {
            Ok(()) => Outcome::Done,
            Err(f) => {
                self.report(&f.diags, file, src);
                Outcome::Failed(f.exit_code())
            }
        }
    }

    pub(crate) fn report(&self, diags: &[Diag], file: &str, src: &str) {
        let mut text = String::new();
        // The terminal echoed `^C` without a line break; start the report on a fresh line.
        if diags.iter().any(|d| d.code == "interrupted") && std::io::stderr().is_terminal() {
            text.push('\n');
        }
        for d in diags {
            text.push_str(&render(d, file, src, self.color));
        }
        write_err(&text);
    }

    /// Everything Tab may complete to from the session: bound names and comps.
    pub(crate) fn bound_names(&self) -> Vec<String> {
        let t = &self.session.types;
        let mut names: Vec<String> = t.globals.keys().chain(t.comps.keys()).cloned().collect();
        names.sort();
        names.dedup();
        names
    }
}

/// Prints values as statements run (a later failure in the same input does not unprint them).
struct Printer<'a> {
    opts: &'a PrintOptions,
}

impl Output for Printer<'_> {
    fn print(&mut self, value: &Value, _expr: &ir::Expr) {
        say(&format_value(value, self.opts));
    }
}

/// A line on stdout; a closed stdout is not an error worth dying for.
pub(crate) fn say(s: &str) {
    if cfg!(test) {
        println!("{s}"); // captured by the test harness
    } else {
        let _ = writeln!(std::io::stdout().lock(), "{s}");
    }
}

/// A line on stderr.
pub(crate) fn complain(s: &str) {
    write_err(&format!("{s}\n"));
}

fn write_err(s: &str) {
    let _ = std::io::stdout().flush();
    if cfg!(test) {
        eprint!("{s}");
    } else {
        let _ = write!(std::io::stderr().lock(), "{s}");
    }
}

/// Whether a buffered input is unfinished and the next line continues it:
/// an open bracket or comment, a pending `comp` body, a trailing operator.
/// A `:type`/`:time` command continues the same way over its expression.
pub(crate) fn wants_more(buffer: &str) -> bool {
    match commands::parse(buffer) {
        Some(Ok(cmd)) => cmd.expr().is_some_and(syntax::needs_more_input),
        Some(Err(_)) => false,
        None => syntax::needs_more_input(buffer),
    }
}

/// Collects lines into one input until it is complete.
#[derive(Default)]
pub(crate) struct Pending {
    buf: String,
}

impl Pending {
    pub(crate) fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    pub(crate) fn clear(&mut self) {
        self.buf.clear();
    }

    /// Adds a line; returns the whole input once it is complete. Blank lines
    /// outside an input are skipped.
    pub(crate) fn push(&mut self, line: &str) -> Option<String> {
        if self.buf.is_empty() && line.trim().is_empty() {
            return None;
        }
        if !self.buf.is_empty() {
            self.buf.push('\n');
        }
        self.buf.push_str(line);
        if wants_more(&self.buf) {
            None
        } else {
            Some(std::mem::take(&mut self.buf))
        }
    }

    /// What is left at end of input (it gets run, so its error is reported).
    pub(crate) fn finish(&mut self) -> Option<String> {
        let rest = std::mem::take(&mut self.buf);
        (!rest.trim().is_empty()).then_some(rest)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pending_joins_continuation_lines() {
        let mut p = Pending::default();
        assert_eq!(p.push(""), None);
        assert_eq!(p.push("let x = {1,"), None);
        assert!(!p.is_empty());
        assert_eq!(p.push("  2}").as_deref(), Some("let x = {1,\n  2}"));
        assert!(p.is_empty());
        assert_eq!(p.push("x +"), None);
        assert_eq!(p.push(""), None);
        assert_eq!(p.push("1").as_deref(), Some("x +\n\n1"));
        assert_eq!(p.push(":type Add(x,"), None);
        assert_eq!(p.push("x)").as_deref(), Some(":type Add(x,\nx)"));
        assert_eq!(p.push(":help").as_deref(), Some(":help"));
        assert_eq!(p.push("let y = ("), None);
        assert_eq!(p.finish().as_deref(), Some("let y = ("));
        assert_eq!(p.finish(), None);
    }

    fn repl() -> Repl {
        Repl::new(&ReplOptions {
            full: false,
            max_bytes: 1 << 20,
            color: false,
        })
    }

    #[test]
    fn failures_keep_earlier_bindings() {
        let mut r = repl();
        assert_eq!(r.handle("let x = {1, 2}"), Outcome::Done);
        assert_eq!(r.handle("let y = x +"), Outcome::Failed(2));
        assert_eq!(r.handle("let x = 1\nthen x == 2"), Outcome::Failed(1));
        assert_eq!(r.handle("x + 1"), Outcome::Done);
        assert_eq!(
            r.session
                .types
                .globals
                .get("x")
                .map(|t| t.to_string())
                .as_deref(),
            Some("s32[2]")
        );
        assert_eq!(r.bound_names(), vec!["x".to_string()]);
        assert_eq!(r.handle(":nope"), Outcome::Failed(3));
        assert_eq!(r.handle(":load /nonexistent/file.xlet"), Outcome::Failed(3));
        assert_eq!(r.handle(":type x + 1"), Outcome::Done);
        assert_eq!(r.handle(":q"), Outcome::Quit);
    }
}
