//! The conformance runner: one trial per `conformance/**/*.xlet`, named by its
//! path relative to `conformance/` without the extension (`reshape/seed_reshape`).
//!
//! What a case is, is decided by the file:
//!
//! - **Negative**: its leading comment lines hold one or more
//!   `// error: TEXT @ LINE` headers. It passes iff `Session::run` fails (at any
//!   stage) and, for every header, some diagnostic has `TEXT` in its code or its
//!   message and its primary span starts on `LINE` (1-based). A header
//!   `// help: TEXT @ LINE` further requires a diagnostic on `LINE` whose help
//!   contains `TEXT` (for cases about what an error suggests).
//! - **Printing**: a sibling `CASE.stdout` exists. It passes iff the run succeeds
//!   and the printed values (one per line, default print options, as `xlet run`
//!   prints them) equal that file exactly.
//! - **Positive**: anything else. It passes iff the run succeeds, and it must
//!   contain at least one assertion (`then`, `produces:`, `>>>`, `==>`): a case
//!   that cannot fail is itself a failure.
//!
//! A header `// flags: --seed 7` runs the case as `xlet --seed 7 run` would:
//! the words are parsed by the command line's own option parser
//! (`xlet::options::Options`), and paths in them are relative to the case's folder.
//! With `--replicas N` the case runs replicated (`xlet::replica::run_replicated`):
//! it holds only if every replica's assertions hold, and a `.stdout` golden
//! holds every replica's lines labelled `[replica K] `, in replica order.
//!
//! Every trial runs on its own thread with a time limit, so a hang or a panic in
//! the interpreter fails that one trial instead of the whole suite.
//! A case that runs a While has a second trial, `NAME@plan-vs-reference`,
//! which runs it with execution plans on and off (spec/plan.md) and requires
//! the same printed text, the same diagnostics and every binding the same bit
//! for bit.
//!
//! Run with `cargo test --test conformance [FILTER]`.

use libtest_mimic::{Arguments, Failed, Trial};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;
use xlet::ast::StmtKind;
use xlet::diag::{Diag, line_col, render};
use xlet::eval::Output;
use xlet::feed::OutfeedSink;
use xlet::ir;
use xlet::options::Options;
use xlet::print::{PrintOptions, format_value};
use xlet::value::Value;

/// How long one case may run before it counts as hung.
const TIMEOUT: Duration = Duration::from_secs(60);

fn main() {
    let args = Arguments::from_args();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance");
    let trials = collect(&root);
    libtest_mimic::run(&args, trials).exit();
}

/// `// error: TEXT @ LINE` or `// help: TEXT @ LINE`: a diagnostic the case must produce.
#[derive(Clone, Debug)]
struct Expected {
    /// True for `help:` (TEXT is looked for in the help), false for `error:` (code or message).
    help: bool,
    text: String,
    line: usize,
}

impl Expected {
    fn matches(&self, d: &Diag, src: &str) -> bool {
        let found = if self.help {
            d.help.as_deref().is_some_and(|h| h.contains(&self.text))
        } else {
            d.code.to_string().contains(&self.text) || d.message.contains(&self.text)
        };
        found && line_col(src, d.span.start).0 == self.line
    }

    fn describe(&self) -> String {
        if self.help {
            format!(
                "a diagnostic on line {} whose help contains `{}`",
                self.line, self.text
            )
        } else {
            format!(
                "a diagnostic on line {} with `{}` in its code or message",
                self.line, self.text
            )
        }
    }
}

#[derive(Clone, Debug)]
enum Kind {
    Negative(Vec<Expected>),
    Printing(PathBuf),
    Positive,
}

/// Every case under `root`, plus a failing trial for each problem with the tree
/// itself (an unreadable file, a golden file with no case beside it).
fn collect(root: &Path) -> Vec<Trial> {
    let mut files = vec![];
    let mut problems = vec![];
    walk(root, &mut files, &mut problems);
    files.sort();
    let mut trials = vec![];
    for path in &files {
        let name = case_name(root, path);
        match path.extension().and_then(|e| e.to_str()) {
            Some("xlet") => {
                trials.extend(plan_trial(name.clone(), path.clone()));
                trials.push(case_trial(name, path.clone()));
            }
            Some("stdout") if !path.with_extension("xlet").is_file() => {
                let p = path.clone();
                trials.push(Trial::test(format!("{name}.stdout"), move || {
                    Err(format!(
                        "golden file {} has no case {} beside it",
                        p.display(),
                        p.with_extension("xlet").display()
                    )
                    .into())
                }));
            }
            _ => {}
        }
    }
    for (name, why) in problems {
        trials.push(Trial::test(name, move || Err(why.clone().into())));
    }
    trials
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>, problems: &mut Vec<(String, String)>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => {
            problems.push((
                format!("<{}>", dir.display()),
                format!("cannot read directory {}: {e}", dir.display()),
            ));
            return;
        }
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, files, problems);
        } else {
            files.push(path);
        }
    }
}

/// `conformance/reshape/seed_reshape.xlet` → `reshape/seed_reshape`.
fn case_name(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path).with_extension("");
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

fn case_trial(name: String, path: PathBuf) -> Trial {
    // The kind is decided now so that the listing shows it; a file that cannot be
    // read or has a malformed header becomes a trial that fails with the reason.
    let src = std::fs::read_to_string(&path);
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let options = match &src {
        Ok(s) => flags(s, &dir),
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    };
    let kind = match &src {
        Ok(s) => headers(s).map(|h| {
            let golden = path.with_extension("stdout");
            if !h.is_empty() {
                Kind::Negative(h)
            } else if golden.is_file() {
                Kind::Printing(golden)
            } else {
                Kind::Positive
            }
        }),
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    };
    let label = match &kind {
        Ok(Kind::Negative(_)) => "negative",
        Ok(Kind::Printing(_)) => "printing",
        Ok(Kind::Positive) => "positive",
        Err(_) => "broken",
    };
    let display = format!("conformance/{name}.xlet");
    Trial::test(name, move || {
        let src = src.map_err(|e| Failed::from(format!("cannot read {}: {e}", path.display())))?;
        let kind = kind.map_err(Failed::from)?;
        let options = options.map_err(Failed::from)?;
        with_timeout(move || run_case(&display, &src, &kind, &options))
    })
    .with_kind(label)
}

/// A case that runs a While also runs with execution plans off
/// (`RunConfig::plan`, spec/plan.md): what it prints, the diagnostics it
/// gives and every value it binds must be the same bit for bit both ways.
fn plan_trial(name: String, path: PathBuf) -> Option<Trial> {
    let src = std::fs::read_to_string(&path).ok()?;
    if !src.contains("While") {
        return None;
    }
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let options = flags(&src, &dir).ok()?;
    if options.replicas > 1 {
        return None;
    }
    let display = format!("conformance/{name}.xlet");
    Some(
        Trial::test(format!("{name}@plan-vs-reference"), move || {
            with_timeout(move || {
                let planned = observe(&display, &src, &options, true)?;
                let reference = observe(&display, &src, &options, false)?;
                if planned == reference {
                    return Ok(());
                }
                Err(format!(
                    "the run differs with plans on and off:\n--- plan ---\n{planned:#?}\n--- reference ---\n{reference:#?}"
                ))
            })
        })
        .with_kind("plan"),
    )
}

/// One array leaf of a value: its type, and its elements' bits.
type Leaf = (String, Vec<u64>);

/// What one run shows: printed text, rendered diagnostics, and each binding's
/// leaves, by name.
#[derive(Debug, PartialEq)]
struct Observed {
    printed: String,
    diags: String,
    values: Vec<(String, Vec<Leaf>)>,
}

fn observe(file: &str, src: &str, options: &Options, plan: bool) -> Result<Observed, String> {
    options.check_files()?;
    let mut session = options.session()?;
    session.env.config.plan = plan;
    let mut out = Capture::default();
    if options.outfeed.is_none() {
        session
            .feeds()
            .set_sink(OutfeedSink::Buffer(out.text.clone()));
    }
    let result = session.run(src, &mut out);
    let diags = match result {
        Ok(()) => String::new(),
        Err(f) => rendered(&f.diags, file, src),
    };
    let mut values: Vec<(String, Vec<Leaf>)> = session
        .env
        .values
        .iter()
        .map(|(n, v)| {
            let mut leaves = vec![];
            bits(v, &mut leaves);
            (n.clone(), leaves)
        })
        .collect();
    values.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(Observed {
        printed: out.text(),
        diags,
        values,
    })
}

/// Each leaf of `v`: its type, and its elements' bits (complex: real then
/// imaginary part).
fn bits(v: &Value, out: &mut Vec<Leaf>) {
    use xlet::value::Array;
    let a = match v {
        Value::Tuple(items) => return items.iter().for_each(|i| bits(i, out)),
        Value::Array(a) => a,
    };
    let b: Vec<u64> = match a {
        Array::Pred(x) => x.iter().map(|&e| e as u64).collect(),
        Array::S8(x) => x.iter().map(|&e| e as u64).collect(),
        Array::S16(x) => x.iter().map(|&e| e as u64).collect(),
        Array::S32(x) => x.iter().map(|&e| e as u64).collect(),
        Array::S64(x) => x.iter().map(|&e| e as u64).collect(),
        Array::U8(x) | Array::Small(_, x) => x.iter().map(|&e| e as u64).collect(),
        Array::U16(x) => x.iter().map(|&e| e as u64).collect(),
        Array::U32(x) => x.iter().map(|&e| e as u64).collect(),
        Array::U64(x) => x.iter().copied().collect(),
        Array::F16(x) => x.iter().map(|e| e.to_bits() as u64).collect(),
        Array::BF16(x) => x.iter().map(|e| e.to_bits() as u64).collect(),
        Array::F32(x) => x.iter().map(|e| e.to_bits() as u64).collect(),
        Array::F64(x) => x.iter().map(|e| e.to_bits()).collect(),
        Array::C64(x) => x
            .iter()
            .flat_map(|e| [e.re.to_bits() as u64, e.im.to_bits() as u64])
            .collect(),
        Array::C128(x) => x
            .iter()
            .flat_map(|e| [e.re.to_bits(), e.im.to_bits()])
            .collect(),
    };
    out.push((format!("{}", v.ty()), b));
}

/// The `// error: TEXT @ LINE` and `// help: TEXT @ LINE` headers among the
/// file's leading comment lines (blank lines may sit between them; the first
/// other line ends the header). A file with only `help:` headers is a mistake.
fn headers(src: &str) -> Result<Vec<Expected>, String> {
    let mut out = vec![];
    for (i, line) in src.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        let Some(comment) = t.strip_prefix("//") else {
            break;
        };
        let comment = comment.trim_start();
        let (help, rest) = if let Some(r) = comment.strip_prefix("error:") {
            (false, r)
        } else if let Some(r) = comment.strip_prefix("help:") {
            (true, r)
        } else {
            continue;
        };
        let malformed = || {
            format!(
                "line {}: malformed header {t:?}: write `// error: TEXT @ LINE`",
                i + 1
            )
        };
        let (text, at) = rest.rsplit_once('@').ok_or_else(malformed)?;
        let text = text.trim();
        let line: usize = at.trim().parse().map_err(|_| malformed())?;
        if text.is_empty() || line == 0 {
            return Err(malformed());
        }
        out.push(Expected {
            help,
            text: text.to_string(),
            line,
        });
    }
    if !out.is_empty() && out.iter().all(|e| e.help) {
        return Err("a `// help:` header needs at least one `// error:` header beside it".into());
    }
    Ok(out)
}

/// The options of a `// flags: WORDS` header among the leading comment lines
/// (at most one), parsed as `xlet` parses its command line. A word that names
/// an existing file or folder beside the case is made absolute, so that
/// `--infeed values.npy` means the file in the case's folder.
fn flags(src: &str, dir: &Path) -> Result<Options, String> {
    let mut words: Option<Vec<String>> = None;
    for line in src.lines() {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        let Some(comment) = t.strip_prefix("//") else {
            break;
        };
        let Some(rest) = comment.trim_start().strip_prefix("flags:") else {
            continue;
        };
        if words.is_some() {
            return Err("a case has at most one `// flags:` header".into());
        }
        words = Some(
            rest.split_whitespace()
                .map(|w| {
                    let beside = dir.join(w);
                    if !w.starts_with('-') && beside.exists() {
                        beside.to_string_lossy().into_owned()
                    } else {
                        w.to_string()
                    }
                })
                .collect(),
        );
    }
    Options::from_flags(words.unwrap_or_default())
        .map_err(|e| format!("the `// flags:` header does not parse: {e}"))
}

/// Runs `f` on its own thread; a panic or a run past `TIMEOUT` fails the trial.
fn with_timeout(f: impl FnOnce() -> Result<(), String> + Send + 'static) -> Result<(), Failed> {
    let (tx, rx) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("conformance-case".into())
        .stack_size(1 << 30)
        .spawn(move || {
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
            let _ = tx.send(r);
        });
    if let Err(e) = spawned {
        return Err(format!("cannot start the case's thread: {e}").into());
    }
    match rx.recv_timeout(TIMEOUT) {
        Ok(Ok(Ok(()))) => Ok(()),
        Ok(Ok(Err(msg))) => Err(msg.into()),
        Ok(Err(panic)) => {
            let what = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "(no message)".into());
            Err(format!("the interpreter panicked: {what}").into())
        }
        Err(mpsc::RecvTimeoutError::Timeout) => {
            Err(format!("timed out after {} s", TIMEOUT.as_secs()).into())
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            Err("the case's thread ended without a result".into())
        }
    }
}

/// Collects printed values the way `xlet run` prints them. Outfeed's stdout
/// lines go to the same buffer, so their order among printed values is kept.
#[derive(Default)]
struct Capture {
    text: Arc<Mutex<String>>,
}

impl Capture {
    fn text(&self) -> String {
        self.text.lock().map(|t| t.clone()).unwrap_or_default()
    }
}

impl Output for Capture {
    fn print(&mut self, value: &Value, _expr: &ir::Expr) {
        if let Ok(mut t) = self.text.lock() {
            t.push_str(&format_value(value, &PrintOptions::default()));
            t.push('\n');
        }
    }
}

fn rendered(diags: &[Diag], file: &str, src: &str) -> String {
    diags
        .iter()
        .map(|d| render(d, file, src, false))
        .collect::<Vec<_>>()
        .concat()
}

fn run_case(file: &str, src: &str, kind: &Kind, options: &Options) -> Result<(), String> {
    options.check_files()?;
    let (printed, result) = if options.replicas > 1 {
        // `--replicas N`: as `xlet run` prints, each replica's lines labelled, in replica order.
        let (outs, result) = xlet::replica::run_replicated(src, options, |_| Capture::default());
        let text: String = outs
            .iter()
            .enumerate()
            .map(|(id, o)| xlet::replica::label(id, &o.text()))
            .collect();
        (text, result)
    } else {
        let mut session = options.session()?;
        let mut out = Capture::default();
        if options.outfeed.is_none() {
            session
                .feeds()
                .set_sink(OutfeedSink::Buffer(out.text.clone()));
        }
        let result = session.run(src, &mut out);
        (out.text(), result)
    };
    match kind {
        Kind::Negative(expected) => {
            let failure = match result {
                Ok(()) => {
                    let want: Vec<String> = expected.iter().map(Expected::describe).collect();
                    return Err(format!(
                        "expected the run to fail with {}, but it succeeded",
                        want.join("; and ")
                    ));
                }
                Err(f) => f,
            };
            let missing: Vec<&Expected> = expected
                .iter()
                .filter(|e| !failure.diags.iter().any(|d| e.matches(d, src)))
                .collect();
            if missing.is_empty() {
                return Ok(());
            }
            let mut msg = String::new();
            for m in &missing {
                let _ = writeln!(msg, "expected {}", m.describe());
            }
            let _ = writeln!(
                msg,
                "the run failed at the {:?} stage with these diagnostics instead:",
                failure.stage
            );
            for d in &failure.diags {
                let _ = writeln!(
                    msg,
                    "  line {}: {}",
                    line_col(src, d.span.start).0,
                    d.headline()
                );
                if let Some(h) = &d.help {
                    let _ = writeln!(msg, "          help: {h}");
                }
            }
            msg.push('\n');
            msg.push_str(&rendered(&failure.diags, file, src));
            Err(msg)
        }
        Kind::Printing(golden) => {
            if let Err(f) = result {
                return Err(format!(
                    "expected the run to succeed, but it failed:\n{}",
                    rendered(&f.diags, file, src)
                ));
            }
            let want = std::fs::read_to_string(golden)
                .map_err(|e| format!("cannot read {}: {e}", golden.display()))?;
            if printed == want {
                return Ok(());
            }
            Err(format!(
                "printed output differs from {}\n{}\n--- expected ---\n{want}--- printed ---\n{}",
                golden.display(),
                first_difference(&want, &printed),
                printed
            ))
        }
        Kind::Positive => {
            if let Err(f) = result {
                return Err(format!(
                    "expected the run to succeed, but it failed:\n{}",
                    rendered(&f.diags, file, src)
                ));
            }
            let asserts = match xlet::syntax::parse(src) {
                Ok(p) => p
                    .stmts
                    .iter()
                    .filter(|s| matches!(s.kind, StmtKind::Assert(_)))
                    .count(),
                Err(d) => {
                    return Err(format!(
                        "the case ran but does not parse on its own:\n{}",
                        rendered(&d, file, src)
                    ));
                }
            };
            if asserts == 0 {
                return Err(
                    "a positive case must assert something (`then`, `produces:`, `>>>` or `==>`); \
                            a case that cannot fail tests nothing"
                        .into(),
                );
            }
            Ok(())
        }
    }
}

/// Says on which line two texts first differ.
fn first_difference(want: &str, got: &str) -> String {
    let (w, g): (Vec<&str>, Vec<&str>) = (want.split('\n').collect(), got.split('\n').collect());
    for i in 0..w.len().max(g.len()) {
        let (a, b) = (w.get(i), g.get(i));
        if a != b {
            return format!(
                "first difference at line {}:\n  expected: {}\n  printed:  {}",
                i + 1,
                a.map(|s| format!("{s:?}"))
                    .unwrap_or_else(|| "(nothing)".into()),
                b.map(|s| format!("{s:?}"))
                    .unwrap_or_else(|| "(nothing)".into())
            );
        }
    }
    "the texts differ".into()
}
