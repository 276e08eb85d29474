//! `xlet run` and `xlet check`.

use super::Options;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::time::Duration;
use xlet::ast::Span;
use xlet::diag::{LineIndex, MAX_SHOWN, Renderer, not_shown};
use xlet::eval::Output;
use xlet::exit::Exit;
use xlet::ir;
use xlet::print::{PrintError, PrintOptions, format_value, write_value};
use xlet::session::Failure;
use xlet::value::Value;

/// Writes to stderr; a closed stream is not worth a panic.
macro_rules! err {
    ($($t:tt)*) => {{ let _ = writeln!(std::io::stderr().lock(), $($t)*); }};
}

/// Reads a script: a path, or stdin for `-` or no path (capped and UTF-8-checked
/// by `xlet::source`, spec/commands.md §1.1).
pub(super) fn read_source(file: Option<&Path>) -> Result<(String, String), Exit> {
    xlet::source::read(file).map_err(|e| {
        err!("error: {e}");
        Exit::Usage
    })
}

pub(super) fn report(f: &Failure, name: &str, src: &str, opts: &Options) -> Exit {
    let color = !opts.no_color && std::io::stderr().is_terminal();
    let renderer = Renderer::new(name, src, color);
    let mut stderr = std::io::BufWriter::new(std::io::stderr().lock());
    for d in f.diags.iter().take(MAX_SHOWN) {
        let _ = write!(stderr, "{}", renderer.render(d));
    }
    if let Some(rest) = not_shown(f.diags.len()) {
        let _ = write!(stderr, "{rest}");
    }
    drop(stderr);
    let n = f.diags.len();
    let what = match f.stage {
        xlet::diag::Stage::Syntax => "syntax error",
        xlet::diag::Stage::Check => "type/shape error",
        xlet::diag::Stage::Runtime => "failure",
    };
    err!("{name}: {n} {what}{}", if n == 1 { "" } else { "s" });
    f.exit_code()
}

pub(super) struct Printer {
    pub(super) opts: PrintOptions,
    pub(super) profile: Option<Vec<(Span, Duration)>>,
}

impl Output for Printer {
    /// Streams the value (bounded memory even with `--full`); Ctrl-C stops it.
    fn print(&mut self, value: &Value, _expr: &ir::Expr) {
        let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
        let written = write_value(&mut stdout, value, &self.opts);
        let _ = writeln!(stdout);
        let _ = stdout.flush();
        if let Err(PrintError::Interrupted) = written {
            err!("^C (printing interrupted)");
        }
    }
    fn timed(&mut self, span: &Span, elapsed: Duration) {
        if let Some(p) = &mut self.profile {
            p.push((span.clone(), elapsed));
        }
    }
}

pub fn run_file(
    file: Option<&Path>,
    opts: &Options,
    profile: bool,
    m: super::module::ModuleRun,
) -> Exit {
    let (name, src) = match read_source(file) {
        Ok(x) => x,
        Err(code) => return code,
    };
    if xlet::import::is_module(file, &src) {
        return super::module::run_module(&name, &src, opts, &m);
    }
    if !m.args.is_empty() || m.out.is_some() || m.trace {
        err!("error: --arg, --out and --trace are for modules (.mlir); {name} is an xlet script");
        return Exit::Usage;
    }
    if let Err(e) = opts.check_files() {
        err!("error: {e}");
        return Exit::Usage;
    }
    // Ctrl-C stops the run at the next op boundary (and after the last op), with
    // exit code 130 as a shell expects; without a handler it would kill the process.
    let _ = ctrlc::set_handler(xlet_core::config::raise_interrupt);
    let mut session = match opts.session() {
        Ok(s) => s,
        Err(e) => {
            err!("error: {e}");
            return Exit::Usage;
        }
    };
    if opts.replicas > 1 {
        return run_replicas(&name, &src, opts);
    }
    session.feeds().set_print(opts.print_options());
    let mut out = Printer {
        opts: opts.print_options(),
        profile: profile.then(Vec::new),
    };
    let result = session.run(&src, &mut out);
    if let Some(times) = &out.profile {
        print_profile(times, &name, &src);
    }
    match result {
        Ok(()) => Exit::Ok,
        Err(f) => {
            let code = report(&f, &name, &src, opts);
            let interrupted = f
                .diags
                .iter()
                .any(|d| d.code.is(&xlet_core::diag::Rule::Interrupted));
            if interrupted { Exit::Interrupted } else { code }
        }
    }
}

/// Prints a value into a replica's buffer, as `xlet run` prints it.
struct Buffered {
    opts: PrintOptions,
    text: String,
}

impl Output for Buffered {
    fn print(&mut self, value: &Value, _expr: &ir::Expr) {
        self.text.push_str(&format_value(value, &self.opts));
        self.text.push('\n');
    }
}

/// `--replicas N` (spec/distributed.md §1): every replica's output, in
/// replica order, each line labelled; then every replica's diagnostics.
pub(super) fn run_replicas(name: &str, src: &str, opts: &Options) -> Exit {
    let print = opts.print_options();
    let (outs, result) = xlet::replica::run_replicated(src, opts, |_| Buffered {
        opts: print.clone(),
        text: String::new(),
    });
    {
        let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
        for (id, out) in outs.iter().enumerate() {
            let _ = stdout.write_all(xlet::replica::label(id, &out.text).as_bytes());
        }
        let _ = stdout.flush();
    }
    match result {
        Ok(()) => Exit::Ok,
        Err(f) => {
            let code = report(&f, name, src, opts);
            let interrupted = f
                .diags
                .iter()
                .any(|d| d.code.is(&xlet_core::diag::Rule::Interrupted));
            if interrupted { Exit::Interrupted } else { code }
        }
    }
}

pub fn check_file(file: Option<&Path>, opts: &Options) -> Exit {
    let (name, src) = match read_source(file) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let session = match opts.session() {
        Ok(s) => s,
        Err(e) => {
            err!("error: {e}");
            return Exit::Usage;
        }
    };
    match session.check(&src) {
        Ok(_) => Exit::Ok,
        Err(f) => report(&f, &name, &src, opts),
    }
}

/// `xlet grad FILE COMP`: checks FILE and prints COMP's backward program.
pub fn grad_source(file: Option<&Path>, comp: &str, opts: &Options) -> Exit {
    let (name, src) = match read_source(file) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let mut session = match opts.session() {
        Ok(s) => s,
        Err(e) => {
            err!("error: {e}");
            return Exit::Usage;
        }
    };
    match session.check(&src) {
        Ok((_, types)) => session.types = types,
        Err(f) => return report(&f, &name, &src, opts),
    }
    match session.gradient_source(comp) {
        Ok(text) => {
            let _ = write!(std::io::stdout().lock(), "{text}");
            Exit::Ok
        }
        Err(msg) => {
            err!("error: {msg}");
            Exit::Check
        }
    }
}

/// A table of wall time per statement, slowest marked, on stderr.
fn print_profile(times: &[(Span, Duration)], name: &str, src: &str) {
    let total: Duration = times.iter().map(|(_, d)| *d).sum();
    let lines = LineIndex::new(src);
    let mut stderr = std::io::BufWriter::new(std::io::stderr().lock());
    let _ = writeln!(stderr, "{:>12}  {:>6}  statement", "time", "share");
    for (span, d) in times {
        let (line, _) = lines.line_col(src, span.start);
        // Only the statement's head is shown: don't collapse a pasted megabyte to show 60 characters.
        let stmt = src.get(span.clone()).unwrap_or("");
        let head = stmt
            .char_indices()
            .nth(400)
            .map_or(stmt, |(i, _)| &stmt[..i]);
        let text: String = head.split_whitespace().collect::<Vec<_>>().join(" ");
        let text = if text.chars().count() > 60 {
            format!("{}…", text.chars().take(59).collect::<String>())
        } else {
            text
        };
        let share = if total.as_nanos() > 0 {
            d.as_secs_f64() / total.as_secs_f64() * 100.0
        } else {
            0.0
        };
        let _ = writeln!(
            stderr,
            "{:>12}  {:>5.1}%  {name}:{line}: {text}",
            format!("{:.3?}", d),
            share
        );
    }
    let _ = writeln!(
        stderr,
        "{:>12}  {:>5.1}%  total",
        format!("{:.3?}", total),
        100.0
    );
}
