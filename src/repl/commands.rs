//! The `:` commands: parsing (pure) and running them against the REPL.

use super::sources::Origin;
use super::{Outcome, Repl, complain, say};
use crate::exit::Exit;
use std::time::{Duration, Instant};
use xlet_ir as ir;
use xlet_ops::registry;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Command<'a> {
    Help(Option<&'a str>),
    Type(&'a str),
    Load(&'a str),
    Time(&'a str),
    Quit,
    Vars,
    Unbind(&'a str),
    Grad(&'a str),
    /// `:infeed FILE`: queue a file's values for Infeed.
    Infeed(&'a str),
    /// `:npy NAME FILE [KEY] [as TYPE]`: bind an .npy file's array (or an
    /// .npz archive's array KEY) to NAME, read as TYPE if given.
    Npy(NpyArgs<'a>),
    /// `:save EXPR FILE`: write EXPR's array to an .npy file.
    Save(&'a str, &'a str),
    /// `:precision [N|full]`: show or set how many significant digits floats print with.
    Precision(Option<&'a str>),
    /// `:summary EXPR`: EXPR's summary line (spec/printing.md §6).
    Summary(&'a str),
    /// `:lib PATH` loads a custom-call library; `:lib` lists the loaded ones.
    Lib(Option<&'a str>),
    /// `:import FILE [as NAME]`: a StableHLO or HLO module's functions as comps.
    Import(&'a str, Option<&'a str>),
}

/// `:npy`'s arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NpyArgs<'a> {
    pub name: &'a str,
    pub file: &'a str,
    pub key: Option<&'a str>,
    pub as_type: Option<&'a str>,
}

impl<'a> Command<'a> {
    /// The expression argument, for commands that take one.
    pub(crate) fn expr(&self) -> Option<&'a str> {
        match *self {
            Command::Type(e) | Command::Time(e) | Command::Summary(e) | Command::Save(e, _) => {
                Some(e)
            }
            _ => None,
        }
    }
}

/// Every command with its argument and a line of help (also the completion list).
pub(crate) const COMMANDS: &[(&str, &str, &str)] = &[
    (
        ":help",
        "[OP]",
        "list commands and operations, or show OP's signature and summary",
    ),
    (":type", "EXPR", "show EXPR's type without running it"),
    (":load", "FILE", "run FILE's contents in this session"),
    (
        ":time",
        "EXPR",
        "run EXPR repeatedly; print min, median and max wall time, the run count and its type",
    ),
    (":quit", "", "leave (also :q, or Ctrl-D)"),
    (
        ":vars",
        "",
        "list bindings with types and sizes, and memory in use",
    ),
    (
        ":unbind",
        "NAME...",
        "remove bindings and free their memory (also :del)",
    ),
    (
        ":grad",
        "COMP",
        "print COMP's backward program as xlet source (what Grad and Vjp run)",
    ),
    (
        ":infeed",
        "FILE",
        "queue FILE's values (.npy or typed literals) for Infeed",
    ),
    (
        ":npy",
        "NAME FILE",
        "bind the array in the .npy FILE to NAME; `:npy NAME F.npz KEY` binds an archive's array KEY; `... as TYPE` reads the elements as TYPE (f8e4m3fn ...)",
    ),
    (":save", "EXPR FILE", "write EXPR's array to FILE as .npy"),
    (
        ":precision",
        "[N]",
        "print floats with at most N significant digits; `full` prints them exactly (the default); alone: show it",
    ),
    (
        ":summary",
        "EXPR",
        "print EXPR's type, min, max, mean and NaN count in one line",
    ),
    (
        ":import",
        "FILE",
        "make a StableHLO/HLO module's functions comps; `:import FILE as N`: N(args) runs its entry function",
    ),
    (
        ":lib",
        "[PATH]",
        "load a shared library whose C functions CustomCall may call, or list the loaded ones",
    ),
];

/// `None` if `input` is not a command (does not start with `:`); else the
/// command, or a message saying what is wrong with it.
pub(crate) fn parse(input: &str) -> Option<Result<Command<'_>, String>> {
    let s = input.trim();
    let body = s.strip_prefix(':')?;
    let name_end = body.find(char::is_whitespace).unwrap_or(body.len());
    let (name, arg) = (&body[..name_end], body[name_end..].trim());
    let need = |what: &str| -> Result<&str, String> {
        if arg.is_empty() {
            Err(format!("usage: :{name} {what}"))
        } else {
            Ok(arg)
        }
    };
    let cmd = match name {
        "help" | "h" | "?" => Ok(Command::Help((!arg.is_empty()).then_some(arg))),
        "type" | "t" => need("EXPR").map(Command::Type),
        "load" | "l" => need("FILE").map(|f| Command::Load(unquote(f))),
        "time" => need("EXPR").map(Command::Time),
        "quit" | "q" if arg.is_empty() => Ok(Command::Quit),
        "quit" | "q" => Err(format!(":{name} takes no argument")),
        "vars" if arg.is_empty() => Ok(Command::Vars),
        "vars" => Err(format!(":{name} takes no argument")),
        "unbind" | "del" => need("NAME...").map(Command::Unbind),
        "grad" => need("COMP").map(Command::Grad),
        "infeed" => need("FILE").map(|f| Command::Infeed(unquote(f))),
        "npy" => npy_args(arg).map(Command::Npy),
        "save" => expr_and_file(arg).map(|(e, f)| Command::Save(e, f)),
        "precision" => Ok(Command::Precision((!arg.is_empty()).then_some(arg))),
        "summary" | "stats" => need("EXPR").map(Command::Summary),
        "lib" => Ok(Command::Lib((!arg.is_empty()).then(|| unquote(arg)))),
        "import" => need("FILE [as NAME]").map(|a| match a.rsplit_once(" as ") {
            Some((f, n)) => Command::Import(unquote(f.trim()), Some(n.trim())),
            None => Command::Import(unquote(a), None),
        }),
        _ => Err(format!(
            "unknown command `:{name}`; the commands are {}",
            command_names()
        )),
    };
    Some(cmd)
}

/// `NAME FILE [KEY] [as TYPE]` (the file may be quoted and hold spaces).
fn npy_args(arg: &str) -> Result<NpyArgs<'_>, String> {
    let usage =
        || "usage: :npy NAME FILE.npy [as TYPE], or :npy NAME FILE.npz KEY [as TYPE]".to_string();
    let (rest, as_type) = match arg.rsplit_once(" as ") {
        Some((r, t)) if !t.trim().is_empty() && !t.trim().contains(char::is_whitespace) => {
            (r.trim(), Some(t.trim()))
        }
        _ => (arg, None),
    };
    let (name, rest) = rest.split_once(char::is_whitespace).ok_or_else(usage)?;
    let (file, rest) = first_token(rest.trim());
    if file.is_empty() {
        return Err(usage());
    }
    let (key, rest) = first_token(rest);
    if !rest.is_empty() {
        return Err(usage());
    }
    Ok(NpyArgs {
        name,
        file,
        key: (!key.is_empty()).then_some(key),
        as_type,
    })
}

/// The first word of `s`, or its first quoted string, unquoted; and the rest.
fn first_token(s: &str) -> (&str, &str) {
    for q in ['"', '\''] {
        if let Some(inner) = s.strip_prefix(q)
            && let Some(end) = inner.find(q)
        {
            return (&inner[..end], inner[end + 1..].trim());
        }
    }
    match s.split_once(char::is_whitespace) {
        Some((a, b)) => (a, b.trim()),
        None => (s, ""),
    }
}

/// `EXPR FILE`: the file is the last word, or the last quoted string.
fn expr_and_file(arg: &str) -> Result<(&str, &str), String> {
    let usage = || "usage: :save EXPR FILE.npy".to_string();
    for q in ['"', '\''] {
        if let Some(inner) = arg.strip_suffix(q)
            && let Some(start) = inner.rfind(q)
        {
            let expr = inner[..start].trim();
            let file = &inner[start + 1..];
            if expr.is_empty() || file.is_empty() {
                return Err(usage());
            }
            return Ok((expr, file));
        }
    }
    let (expr, file) = arg.rsplit_once(char::is_whitespace).ok_or_else(usage)?;
    if expr.trim().is_empty() {
        return Err(usage());
    }
    Ok((expr.trim(), file))
}

fn command_names() -> String {
    COMMANDS.iter().map(|c| c.0).collect::<Vec<_>>().join(" ")
}

/// `"a b.xlet"` or `'a b.xlet'` → `a b.xlet`.
fn unquote(s: &str) -> &str {
    for q in ['"', '\''] {
        if let Some(inner) = s.strip_prefix(q).and_then(|r| r.strip_suffix(q)) {
            return inner;
        }
    }
    s
}

pub(crate) fn execute(repl: &mut Repl, cmd: Command<'_>) -> Outcome {
    match cmd {
        Command::Help(None) => {
            say(&general_help(help_width(repl)));
            Outcome::Done
        }
        Command::Help(Some(topic)) => help_topic(topic, help_width(repl)),
        Command::Type(src) => show_type(repl, src),
        Command::Load(path) => load(repl, path),
        Command::Time(src) => time(repl, src),
        Command::Quit => Outcome::Quit,
        Command::Vars => super::vars::show(repl),
        Command::Unbind(names) => super::vars::unbind(repl, names),
        Command::Grad(name) => match repl.session.gradient_source(name) {
            Ok(text) => {
                say(text.trim_end());
                Outcome::Done
            }
            Err(msg) => {
                complain(&format!("error: {msg}"));
                Outcome::Failed(Exit::Check)
            }
        },
        Command::Infeed(path) => super::npy::infeed(repl, &expand_home(path)),
        Command::Npy(a) => super::npy::bind(repl, a, &expand_home(a.file)),
        Command::Save(expr, path) => super::npy::save(repl, expr, &expand_home(path)),
        Command::Precision(arg) => super::npy::precision(repl, arg),
        Command::Summary(src) => match checked(repl, src) {
            Ok(e) => super::npy::summary(repl, &e, src),
            Err(o) => o,
        },
        Command::Lib(path) => lib(repl, path),
        Command::Import(path, name) => import(repl, path, name),
    }
}

/// `:import FILE [as NAME]` (spec/import.md §1): the module's entry function
/// becomes the comp NAME (by default the file's stem), its other functions and
/// regions `NAME_...`; its large constants are bound as values.
fn import(repl: &mut Repl, path: &str, name: Option<&str>) -> Outcome {
    let full = expand_home(path);
    let src = match crate::source::read_file(&full) {
        Ok(s) => s,
        Err(e) => {
            complain(&format!(
                "error: cannot read {path}: {} (nothing was imported)",
                e.why
            ));
            return Outcome::Failed(Exit::Usage);
        }
    };
    let stem = full.file_stem().and_then(|s| s.to_str()).unwrap_or("m");
    let name = name.unwrap_or(stem);
    let is_name = !name.is_empty()
        && name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !is_name {
        complain(&format!(
            "error: `{name}` is not a name for the module's comp (usage: :import FILE as NAME)"
        ));
        return Outcome::Failed(Exit::Usage);
    }
    let origin = Origin::new(path, 1);
    let part = match crate::import::import_comps(&src, name) {
        Ok(p) => p,
        Err(d) => {
            repl.report_at(&[d], &origin, &src);
            return Outcome::Failed(Exit::Check);
        }
    };
    let t = &part.translation;
    for (n, v, _) in &t.consts {
        repl.session.types.globals.insert(n.clone(), v.ty());
        repl.session.env.values.insert(n.clone(), v.clone());
    }
    let translated = Origin::new(format!("{path} (translated)"), 1);
    match repl.run_quiet(&translated, &part.text) {
        Ok(()) => {}
        Err(f) => {
            let f = crate::import::locate_failure(&part, f);
            repl.report_at(&f.diags, &origin, &src);
            return Outcome::Failed(f.exit_code());
        }
    }
    let others = part
        .translation
        .stmts
        .iter()
        .filter_map(|s| s.text.strip_prefix("comp "))
        .filter_map(|s| s.split('(').next())
        .filter(|c| *c != name)
        .count();
    let sig = repl
        .session
        .types
        .comps
        .get(name)
        .map(|c| c.signature())
        .unwrap_or_default();
    say(&format!(
        "comp {name}{sig}  (@{} of {path}; {others} more comps named {name}_...: `xlet translate {path}` prints them)",
        part.translation.entry
    ));
    Outcome::Done
}

/// `:lib PATH`: loads a custom-call library for the rest of the session
/// (searched after the ones loaded before); `:lib` lists them.
fn lib(repl: &mut Repl, path: Option<&str>) -> Outcome {
    let Some(path) = path else {
        let libs = repl.session.custom_call_libs();
        if libs.is_empty() {
            say("no custom-call library loaded (`:lib PATH` loads one)");
        } else {
            for l in &libs {
                say(&l.display().to_string());
            }
        }
        return Outcome::Done;
    };
    match repl.session.add_custom_call_lib(std::path::Path::new(path)) {
        Ok(()) => Outcome::Done,
        Err(e) => {
            complain(&format!("error: {e}"));
            Outcome::Failed(Exit::Usage)
        }
    }
}

/// What a newcomer may type before knowing the commands; `None` for anything else.
/// A name the session binds is left alone (it is a value to print).
pub(crate) fn hint(input: &str, repl: &Repl) -> Option<String> {
    let s = input.trim();
    if repl.session.types.globals.contains_key(s) {
        return None;
    }
    match s {
        "help" | "?" => Some("for help type `:help` (commands start with `:`)".into()),
        "exit" | "quit" | "exit()" | "quit()" => {
            Some("to leave type `:quit` or press Ctrl-D".into())
        }
        _ => {
            let topic = s
                .strip_prefix('?')
                .or_else(|| s.strip_suffix('?'))
                .map(str::trim)
                .filter(|t| !t.is_empty() && !t.contains(char::is_whitespace))?;
            Some(format!("for help on `{topic}` type `:help {topic}`"))
        }
    }
}

/// The width to wrap help to: the terminal's, within reason; 80 if unknown.
fn help_width(repl: &Repl) -> usize {
    repl.width.unwrap_or(80).clamp(30, 120)
}

fn general_help(width: usize) -> String {
    let mut s = wrap_text(
        "Enter statements (let, comp, then) or an expression to print its value; `_` is the last value printed.",
        width,
        "",
    );
    s.push_str("\nCommands:\n");
    for (name, arg, what) in COMMANDS {
        let head = format!("  {:<12} ", format!("{name} {arg}"));
        let body = wrap_text(what, width.saturating_sub(head.len()).max(20), "");
        let pad = " ".repeat(head.len());
        s.push_str(&head);
        s.push_str(&body.replace('\n', &format!("\n{pad}")));
        s.push('\n');
    }
    s.push_str("Operations (`:help OP` for one):\n");
    s.push_str(&wrap(&op_names(), width.saturating_sub(4), "  "));
    s
}

/// Prose re-flowed to `width` columns; blank lines between paragraphs stay.
fn wrap_text(text: &str, width: usize, indent: &str) -> String {
    text.split("\n\n")
        .map(|para| {
            let words: Vec<&str> = para.split_whitespace().collect();
            wrap(&words, width.saturating_sub(indent.len()), indent)
        })
        .collect::<Vec<_>>()
        .join("\n\n")
}

fn op_names() -> Vec<&'static str> {
    let mut names: Vec<&str> = registry::all().iter().map(|op| op.name()).collect();
    names.sort_unstable_by_key(|n| n.to_ascii_lowercase());
    names
}

/// Words joined by spaces, broken into lines of at most `width` characters
/// (a word longer than that gets a line of its own).
fn wrap(words: &[&str], width: usize, indent: &str) -> String {
    let mut out = String::new();
    let mut line = String::new();
    let len = |s: &str| s.chars().count();
    for w in words {
        if !line.is_empty() && len(&line) + 1 + len(w) > width {
            out.push_str(&format!("{indent}{line}\n"));
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(w);
    }
    if !line.is_empty() {
        out.push_str(&format!("{indent}{line}"));
    }
    out
}

fn help_topic(topic: &str, width: usize) -> Outcome {
    let as_cmd = format!(":{}", topic.trim_start_matches(':'));
    if let Some((name, arg, what)) = COMMANDS.iter().find(|c| c.0 == as_cmd) {
        say(&format!("{name} {arg}\n{}", wrap_text(what, width, "  ")));
        return Outcome::Done;
    }
    // `:help +` is about the op the operator stands for.
    let Some(op) = registry::lookup(topic).or_else(|| registry::by_operator(topic)) else {
        if let Some(xla) = registry::not_yet(topic) {
            complain(&format!(
                "error: `{xla}` is an XLA operation that is not implemented in xlet yet; `:help` lists the ones it has"
            ));
            return Outcome::Failed(Exit::Usage);
        }
        if let Some(how) = registry::foreign(topic) {
            complain(&format!("error: `{topic}` is not an XLA operation; {how}"));
            return Outcome::Failed(Exit::Usage);
        }
        let near = registry::similar(topic);
        let hint = if near.is_empty() {
            "; `:help` lists them".to_string()
        } else {
            format!("; did you mean {}?", near.join(", "))
        };
        complain(&format!(
            "error: no operation or command named `{topic}`{hint}"
        ));
        return Outcome::Failed(Exit::Usage);
    };
    let mut s = op.signature.to_string();
    if !op.aliases.is_empty() {
        s.push_str(&format!("\n  also: {}", op.aliases.join(", ")));
    }
    let summary = registry::summary(op);
    if !summary.is_empty() {
        s.push_str("\n\n");
        s.push_str(&wrap_text(&summary, width, ""));
    }
    say(&s);
    Outcome::Done
}

/// Parses and checks an expression against the session; reports and fails otherwise.
fn checked(repl: &Repl, src: &str) -> Result<ir::Expr, Outcome> {
    repl.session.check_expr(src).map_err(|f| {
        repl.report(&f.diags, src);
        Outcome::Failed(f.exit_code())
    })
}

fn show_type(repl: &Repl, src: &str) -> Outcome {
    // A computation's name is not an expression, but its type is worth showing.
    if let Some(c) = repl.session.types.comps.get(src) {
        say(&format!("comp {}{}", c.name, c.signature()));
        return Outcome::Done;
    }
    match checked(repl, src) {
        Ok(e) => {
            say(&e.ty.to_string());
            Outcome::Done
        }
        Err(o) => o,
    }
}

/// `~` or `~/…` at the start of a path is the home directory, as in a shell.
fn expand_home(path: &str) -> std::path::PathBuf {
    let home = || std::env::home_dir().filter(|h| !h.as_os_str().is_empty());
    if path == "~"
        && let Some(h) = home()
    {
        return h;
    }
    if let Some(rest) = path.strip_prefix("~/")
        && let Some(h) = home()
    {
        return h.join(rest);
    }
    std::path::PathBuf::from(path)
}

fn load(repl: &mut Repl, path: &str) -> Outcome {
    let full = expand_home(path);
    // Capped and UTF-8-checked like `xlet run` (spec/commands.md §1.1).
    match crate::source::read_file(&full) {
        Ok(src) => {
            // LoadNpy's hint about a path relative to the loaded file, not the
            // current directory: for this input only.
            let dir = full
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
                .map(|d| d.to_path_buf());
            let before = std::mem::replace(&mut repl.session.limits.script_dir, dir);
            let outcome = repl.run_source(&Origin::new(path, 1), &src);
            repl.session.limits.script_dir = before;
            outcome
        }
        Err(e) => {
            let shown = if full.as_os_str() == path {
                path.to_string()
            } else {
                format!("{path} ({})", full.display())
            };
            complain(&format!(
                "error: cannot read {shown}: {} (nothing was run)",
                e.why
            ));
            Outcome::Failed(Exit::Usage)
        }
    }
}

/// Stop timing after this long in total, or this many runs; but run at least `MIN_RUNS`.
const TIME_BUDGET: Duration = Duration::from_millis(500);
const MAX_RUNS: usize = 100;
const MIN_RUNS: usize = 3;

/// Like IPython's `%timeit`: each run computes a fresh result and frees it
/// inside the timed region (nothing is reused between runs), and the spread
/// of the runs is shown, not one number.
fn time(repl: &Repl, src: &str) -> Outcome {
    let e = match checked(repl, src) {
        Ok(e) => e,
        Err(o) => return o,
    };
    let mut times = vec![];
    let started = Instant::now();
    while times.len() < MIN_RUNS || (times.len() < MAX_RUNS && started.elapsed() < TIME_BUDGET) {
        if xlet_core::config::interrupted() {
            complain("\ninterrupted");
            return Outcome::Failed(Exit::Runtime);
        }
        let t = Instant::now();
        let result = repl.session.eval_expr(&e);
        let failed = result.err();
        times.push(t.elapsed());
        if let Some(d) = failed {
            repl.report(&[d], src);
            return Outcome::Failed(Exit::Runtime);
        }
    }
    if xlet_core::config::interrupted() {
        complain("\ninterrupted");
        return Outcome::Failed(Exit::Runtime);
    }
    say(&format!("{} : {}", spread(&mut times), e.ty));
    Outcome::Done
}

/// `min 1.2ms, median 1.3ms, max 2.0ms (25 runs)`.
fn spread(times: &mut [Duration]) -> String {
    let mid = median(times);
    let (lo, hi) = (
        times.first().copied().unwrap_or_default(),
        times.last().copied().unwrap_or_default(),
    );
    format!(
        "min {}, median {}, max {} ({} runs)",
        fmt_duration(lo),
        fmt_duration(mid),
        fmt_duration(hi),
        times.len()
    )
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort_unstable();
    match times.len() {
        0 => Duration::ZERO,
        n if n % 2 == 1 => times[n / 2],
        n => (times[n / 2 - 1] + times[n / 2]) / 2,
    }
}

fn fmt_duration(d: Duration) -> String {
    let ns = d.as_nanos() as f64;
    match ns {
        x if x < 1e3 => format!("{x:.0}ns"),
        x if x < 1e6 => format!("{:.3}µs", x / 1e3),
        x if x < 1e9 => format!("{:.3}ms", x / 1e6),
        x => format!("{:.3}s", x / 1e9),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_commands() {
        assert_eq!(parse("let x = 1"), None);
        assert_eq!(parse("x == :y"), None);
        assert_eq!(parse(":help"), Some(Ok(Command::Help(None))));
        assert_eq!(parse("  :help  Add "), Some(Ok(Command::Help(Some("Add")))));
        assert_eq!(
            parse(":type Add(x,\n x)"),
            Some(Ok(Command::Type("Add(x,\n x)")))
        );
        assert_eq!(parse(":t x"), Some(Ok(Command::Type("x"))));
        assert_eq!(
            parse(":load 'my file.xlet'"),
            Some(Ok(Command::Load("my file.xlet")))
        );
        assert_eq!(parse(":load a.xlet"), Some(Ok(Command::Load("a.xlet"))));
        assert_eq!(parse(":time x + 1"), Some(Ok(Command::Time("x + 1"))));
        assert_eq!(parse(":quit"), Some(Ok(Command::Quit)));
        assert_eq!(parse(":q"), Some(Ok(Command::Quit)));
        assert_eq!(parse(":lib"), Some(Ok(Command::Lib(None))));
        assert_eq!(
            parse(":lib 'my lib.so'"),
            Some(Ok(Command::Lib(Some("my lib.so"))))
        );
    }

    #[test]
    fn rejects_bad_commands() {
        let err = |s| match parse(s) {
            Some(Err(m)) => m,
            other => panic!("{s}: {other:?}"),
        };
        assert!(err(":frob").contains(":help :type :load :time :quit"));
        assert_eq!(err(":type"), "usage: :type EXPR");
        assert_eq!(err(":load  "), "usage: :load FILE");
        assert_eq!(err(":q now"), ":q takes no argument");
        assert!(err(":").starts_with("unknown command"));
    }

    #[test]
    fn expr_argument() {
        assert_eq!(Command::Time("x").expr(), Some("x"));
        assert_eq!(Command::Load("x").expr(), None);
    }

    #[test]
    fn helpers() {
        assert_eq!(wrap(&["ab", "cd", "ef"], 5, "-"), "-ab cd\n-ef");
        let mut t = [3, 1, 2].map(Duration::from_millis);
        assert_eq!(median(&mut t), Duration::from_millis(2));
        let mut t = [4, 1, 2, 3].map(Duration::from_millis);
        assert_eq!(median(&mut t), Duration::from_micros(2500));
        assert_eq!(fmt_duration(Duration::from_micros(1500)), "1.500ms");
        assert!(general_help(80).contains("Add"));
        let mut t = [3, 1, 2].map(Duration::from_millis);
        assert_eq!(
            spread(&mut t),
            "min 1.000ms, median 2.000ms, max 3.000ms (3 runs)"
        );
    }

    #[test]
    fn help_fits_the_width() {
        for width in [40, 60, 100] {
            let text = general_help(width);
            for line in text.lines() {
                assert!(line.chars().count() <= width, "{width}: {line:?}");
            }
        }
        assert!(wrap_text("a b c\n\nd", 3, "").contains("\n\nd"));
    }

    #[test]
    fn tilde_is_home() {
        let Some(home) = std::env::home_dir() else {
            return;
        };
        assert_eq!(expand_home("~/a.xlet"), home.join("a.xlet"));
        assert_eq!(expand_home("~"), home);
        assert_eq!(expand_home("a/~/b"), std::path::PathBuf::from("a/~/b"));
        assert_eq!(expand_home("~x"), std::path::PathBuf::from("~x"));
    }
}
