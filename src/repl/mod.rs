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
mod npy;
mod piped;
mod sources;
mod vars;

use crate::exit::Exit;
use crate::session::Session;
use sources::{Origin, Sources};
use std::io::{IsTerminal, Write};
use std::sync::Arc;
use xlet_check::Limits;
use xlet_core::diag::{Diag, MAX_SHOWN, not_shown};
use xlet_core::print::{INTERRUPTED_MARK, PrintError, PrintOptions, format_value, write_value};
use xlet_core::types::Type;
use xlet_core::value::Value;
use xlet_eval::Output;
use xlet_ir::{self as ir, Comp};
use xlet_syntax as syntax;

pub struct ReplOptions {
    pub full: bool,
    /// `--precision N`: floats with at most N significant digits (`:precision` changes it).
    pub precision: Option<u32>,
    /// `--summary`: arrays that would be elided print as summary lines.
    pub summary: bool,
    pub max_bytes: usize,
    pub color: bool,
    /// `--seed`: the Rng ops' seed for the whole session.
    pub seed: u64,
    /// `--infeed FILE...`: the infeed queue's first files (`:infeed` adds more).
    pub infeed: Vec<std::path::PathBuf>,
    /// `--outfeed DIR`: where Outfeed writes `.npy` files (default: stdout).
    pub outfeed: Option<std::path::PathBuf>,
    /// `--custom-call-lib`: libraries CustomCall may call into (`:lib` adds more).
    pub custom_call_libs: Vec<std::path::PathBuf>,
    /// `--no-plan` turns execution plans off (spec/plan.md).
    pub plan: bool,
}

/// Runs the REPL until Ctrl-D, `:quit` or the end of piped input; returns the exit code.
pub fn main(o: &ReplOptions) -> Exit {
    guard::install();
    let mut repl = Repl::new(o);
    match xlet_custom_call::Libraries::load_all(&o.custom_call_libs) {
        Ok(libs) => repl.session.limits.custom_call = libs,
        Err(e) => {
            complain(&format!("error: {e}"));
            return Exit::Usage;
        }
    }
    if std::io::stdin().is_terminal() {
        interactive::run(&mut repl)
    } else {
        piped::run(&mut repl)
    }
}

/// The name `_` is bound to the last value a bare expression printed.
const LAST_RESULT: &str = "_";

/// What handling one input came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    Done,
    /// The input failed; the code is what a script would exit with
    /// (1 runtime/assertion/interrupt/internal error, 2 syntax or check, 3 command or file error).
    Failed(Exit),
    Quit,
}

pub(crate) struct Repl {
    pub(crate) session: Session,
    pub(crate) print: PrintOptions,
    /// Color diagnostics (asked for, and stderr is a terminal).
    pub(crate) color: bool,
    /// Earlier inputs that diagnostics may still point into.
    sources: Sources,
    /// How many inputs were handled, for the names `<repl:N>`.
    inputs: usize,
    /// Set by the piped loop: the stdin line the next input starts on.
    pub(crate) stdin_line: Option<usize>,
    /// The terminal's width, if known, for `:help`.
    pub(crate) width: Option<usize>,
    /// The input being handled, as diagnostics name it.
    origin: Origin,
}

impl Repl {
    pub(crate) fn new(o: &ReplOptions) -> Self {
        let mut session = Session::new(Limits {
            max_value_bytes: o.max_bytes,
            replicas: Some(1),
            ..Default::default()
        });
        session.env.rng = xlet_kernels::rng::RngState::new(o.seed);
        session.env.config.plan = o.plan;
        for f in &o.infeed {
            session.feeds().add_infeed(f.clone());
        }
        if let Some(dir) = &o.outfeed {
            session
                .feeds()
                .set_sink(crate::feed::OutfeedSink::Dir(dir.clone()));
        }
        let print = PrintOptions {
            full: o.full,
            precision: o.precision,
            summary: o.summary,
            ..Default::default()
        };
        session.feeds().set_print(print.clone());
        Repl {
            session,
            print,
            color: o.color && std::io::stderr().is_terminal(),
            sources: Sources::default(),
            inputs: 0,
            stdin_line: None,
            width: None,
            origin: Origin::new("<repl:0>", 1),
        }
    }

    /// Handles one complete input (a program fragment or a `:` command).
    /// A panic inside is reported as an internal error; the session stays as it was.
    pub(crate) fn handle(&mut self, input: &str) -> Outcome {
        self.inputs += 1;
        self.origin = match self.stdin_line {
            Some(line) => Origin::new("<stdin>", line),
            None => Origin::new(format!("<repl:{}>", self.inputs), 1),
        };
        xlet_core::config::clear_interrupt();
        let result = guard::guarded(|| self.dispatch(input));
        xlet_core::config::clear_interrupt();
        match result {
            Ok(o) => o,
            Err(msg) => {
                complain(&format!(
                    "internal error: {msg}\n(this is a bug in xlet; the session is unchanged)"
                ));
                Outcome::Failed(Exit::Runtime)
            }
        }
    }

    fn dispatch(&mut self, input: &str) -> Outcome {
        match commands::parse(input) {
            Some(Ok(cmd)) => commands::execute(self, cmd),
            Some(Err(msg)) => {
                complain(&format!("error: {msg}"));
                Outcome::Failed(Exit::Usage)
            }
            None => match commands::hint(input, self) {
                Some(h) => {
                    complain(&h);
                    Outcome::Failed(Exit::Usage)
                }
                None => {
                    let origin = self.origin.clone();
                    self.run_source(&origin, input)
                }
            },
        }
    }

    /// Runs program text in the session, printing bare expressions' values.
    /// On success `_` is the last value printed, and comps defined here keep
    /// this input's text for later diagnostics.
    /// Runs `src` (comps and bindings, printing nothing of its own), keeping
    /// its comps' sources; the failure is the caller's to report.
    pub(crate) fn run_quiet(
        &mut self,
        origin: &Origin,
        src: &str,
    ) -> Result<(), crate::session::Failure> {
        let mut out = Printer {
            opts: &self.print,
            last: None,
        };
        self.session.run(src, &mut out)?;
        self.keep_comp_sources(origin, src);
        Ok(())
    }

    pub(crate) fn run_source(&mut self, origin: &Origin, src: &str) -> Outcome {
        let mut out = Printer {
            opts: &self.print,
            last: None,
        };
        let result = self.session.run(src, &mut out);
        let last = out.last.take();
        match result {
            Ok(()) => {
                if let Some((value, ty)) = last {
                    self.session.types.globals.insert(LAST_RESULT.into(), ty);
                    self.session.env.values.insert(LAST_RESULT.into(), value);
                }
                self.keep_comp_sources(origin, src);
                Outcome::Done
            }
            Err(f) => {
                self.report_at(&f.diags, origin, src);
                Outcome::Failed(f.exit_code())
            }
        }
    }

    /// Moves the spans of the comps the input defined into the kept copy of
    /// `src` (only those: a pass over every comp would cost the session's size
    /// per input).
    fn keep_comp_sources(&mut self, origin: &Origin, src: &str) {
        let new = std::mem::take(&mut self.session.last_comps);
        let comps = &mut self.session.types.comps;
        if new.is_empty() {
            return;
        }
        let base = self.sources.keep(origin, src);
        for name in new {
            if let Some(c) = comps.get_mut(&name) {
                let mut moved = Comp::clone(c);
                moved.span = c.span.start + base..c.span.end + base;
                *c = Arc::new(moved);
            }
        }
    }

    /// Reports diagnostics about the input being handled.
    pub(crate) fn report(&self, diags: &[Diag], src: &str) {
        self.report_at(diags, &self.origin, src);
    }

    pub(crate) fn report_at(&self, diags: &[Diag], origin: &Origin, src: &str) {
        let mut text = String::new();
        // The terminal echoed `^C` without a line break; start the report on a fresh line.
        if diags
            .iter()
            .any(|d| d.code.is(&xlet_core::diag::Rule::Interrupted))
            && std::io::stderr().is_terminal()
        {
            text.push('\n');
        }
        for d in diags.iter().take(MAX_SHOWN) {
            text.push_str(&sources::render(d, origin, src, &self.sources, self.color));
        }
        if let Some(rest) = not_shown(diags.len()) {
            text.push_str(&rest);
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

/// Prints values as statements run (a later failure in the same input does not
/// unprint them), and remembers the last one for `_`.
struct Printer<'a> {
    opts: &'a PrintOptions,
    last: Option<(Value, Type)>,
}

impl Output for Printer<'_> {
    fn print(&mut self, value: &Value, expr: &ir::Expr) {
        // Ctrl-C during the op that made this value: the input is dropped, unprinted.
        if xlet_core::config::interrupted() {
            return;
        }
        if cfg!(test) {
            say(&format_value(value, self.opts));
        } else {
            // Streamed, so even `--full` on a huge value needs no text of its size.
            let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
            if let Err(PrintError::Interrupted) = write_value(&mut stdout, value, self.opts) {
                let _ = write!(stdout, "{INTERRUPTED_MARK}");
            }
            let _ = writeln!(stdout);
        }
        self.last = Some((value.clone(), expr.ty.clone()));
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
            precision: None,
            summary: false,
            max_bytes: 1 << 20,
            color: false,
            seed: 0,
            infeed: vec![],
            outfeed: None,
            custom_call_libs: vec![],
            plan: true,
        })
    }

    #[test]
    fn failures_keep_earlier_bindings() {
        let mut r = repl();
        assert_eq!(r.handle("let x = {1, 2}"), Outcome::Done);
        assert_eq!(r.handle("let y = x +"), Outcome::Failed(Exit::Check));
        assert_eq!(
            r.handle("let x = 1\nthen x == 2"),
            Outcome::Failed(Exit::Runtime)
        );
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
        assert_eq!(r.bound_names(), ["_", "x"]);
        assert_eq!(r.handle(":nope"), Outcome::Failed(Exit::Usage));
        assert_eq!(
            r.handle(":load /nonexistent/file.xlet"),
            Outcome::Failed(Exit::Usage)
        );
        assert_eq!(r.handle(":type x + 1"), Outcome::Done);
        assert_eq!(r.handle(":q"), Outcome::Quit);
    }

    fn type_of(r: &Repl, name: &str) -> Option<String> {
        r.session.types.globals.get(name).map(|t| t.to_string())
    }

    #[test]
    fn underscore_is_the_last_value_printed() {
        let mut r = repl();
        assert_eq!(r.handle("_"), Outcome::Failed(Exit::Check));
        assert_eq!(r.handle("let a = 1"), Outcome::Done);
        assert_eq!(type_of(&r, "_"), None);
        assert_eq!(r.handle("{1, 2}\nf32 3"), Outcome::Done);
        assert_eq!(type_of(&r, "_").as_deref(), Some("f32"));
        assert_eq!(r.handle("_ * 2"), Outcome::Done);
        assert_eq!(r.handle("let b = _ + 1"), Outcome::Done);
        assert_eq!(type_of(&r, "b").as_deref(), Some("f32"));
        // A failed input leaves `_` as it was.
        assert_eq!(
            r.handle("{1, 2}\nthen 1 == 2"),
            Outcome::Failed(Exit::Runtime)
        );
        assert_eq!(type_of(&r, "_").as_deref(), Some("f32"));
    }

    #[test]
    fn newcomer_words_get_hints() {
        let mut r = repl();
        for w in ["help", "exit", "quit", "?Add", "Add?", "quit()"] {
            assert_eq!(r.handle(w), Outcome::Failed(Exit::Usage), "{w}");
            assert!(commands::hint(w, &r).is_some(), "{w}");
        }
        assert!(
            commands::hint("?Add", &r).is_some_and(|h| h.contains(":help Add")),
            "?Add"
        );
        assert!(commands::hint("exit", &r).is_some_and(|h| h.contains(":quit")));
        // A bound name is a value, not a hint.
        assert_eq!(r.handle("let help = 1"), Outcome::Done);
        assert_eq!(r.handle("help"), Outcome::Done);
        assert!(commands::hint("x + 1", &r).is_none());
    }

    #[test]
    fn comps_keep_the_input_that_defined_them() {
        let mut r = repl();
        assert_eq!(
            r.handle("comp twice(x: f32) -> f32 { x + x }"),
            Outcome::Done
        );
        let span = r.session.types.comps.get("twice").map(|c| c.span.clone());
        assert!(
            span.as_ref().is_some_and(|s| s.start >= sources::KEPT_BASE),
            "{span:?}"
        );
        // Calls still check and run; a bad call is an error, not a panic.
        assert_eq!(r.handle("twice(f32 1)"), Outcome::Done);
        assert_eq!(r.handle("twice(1, 2)"), Outcome::Failed(Exit::Check));
        assert_eq!(r.handle("twice(s32 1)"), Outcome::Failed(Exit::Check));
    }
}
