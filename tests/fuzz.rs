//! A mutation fuzzer on stable Rust: programs made by mutating the conformance
//! corpus go through parse → check → run → print → render in-process, under
//! xlet's own memory limits and a time limit per input (spec/fuzzing.md).
//!
//! The campaign runs in a child process (this same test binary, re-executed
//! with `XLET_FUZZ_CHILD=1`): the child executes inputs in a loop, and the
//! parent supervises it, so even an abort or a stack overflow (which no
//! `catch_unwind` can catch) is reported with the input that caused it.
//!
//! - `cargo test --release --test fuzz`: the short fixed-seed campaign (the same
//!   inputs on every run) plus every saved regression input.
//! - Longer, deliberate runs: `XLET_FUZZ_EXECS=1000000 XLET_FUZZ_SEED=7
//!   cargo test --release --test fuzz -- --nocapture`, or `XLET_FUZZ_SECONDS=600`.
//!
//! - `generated`: programs written by generators for the ops of issue 21
//!   (extreme attributes, huge and empty shapes, deep nesting on replicas,
//!   gradients, loops), run through the xlet binary (spec/fuzzing.md §4);
//!   `XLET_FUZZ_GEN_EXECS=N` for more.
//!
//! Every failure (panic, abort, hang) is saved under `target/fuzz/crashes/` and
//! replayed by later runs (`saved_crash/...` trials) until it is fixed and moved
//! into `conformance/fuzz/` as a case (the corpus the fuzzer mutates includes it).

use libtest_mimic::{Arguments, Failed, Trial};
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use xlet::check::Limits;
use xlet::diag::render;
use xlet::eval::Output;
use xlet::ir;
use xlet::print::{PrintOptions, format_value};
use xlet::session::Session;
use xlet::value::Value;

/// Inputs of the short campaign in `cargo test`: fixed, so every run sees the same ones.
const SHORT_EXECS: u64 = 4000;
const SHORT_SEED: u64 = 0x5eed_2026;
/// One input may run this long before it is interrupted (Ctrl-C's flag), and
/// this much longer again before it counts as hung.
const INPUT_TIME: Duration = Duration::from_secs(2);
const HANG_GRACE: Duration = Duration::from_secs(5);
/// The largest value one fuzz input may create: small, so a campaign stays fast
/// and a 2-core CI machine is never short of memory.
const FUZZ_MAX_VALUE: usize = 16 << 20;

fn main() {
    if std::env::var_os("XLET_FUZZ_CHILD").is_some() {
        std::process::exit(child_main());
    }
    let args = Arguments::from_args();
    let mut trials = vec![
        Trial::test("campaign", campaign),
        Trial::test("harness_reports_an_abort", harness_reports_an_abort),
        Trial::test("generated", generated),
    ];
    for path in saved_crashes() {
        let name = format!("saved_crash/{}", file_stem(&path));
        trials.push(Trial::test(name, move || replay(&path)));
    }
    libtest_mimic::run(&args, trials).exit();
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn work_dir() -> PathBuf {
    root().join("target").join("fuzz")
}

fn file_stem(p: &Path) -> String {
    p.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|s| s.trim().parse().ok())
}

// ---------------------------------------------------------------- the parent

/// The campaign `cargo test` runs (or the one the environment asks for).
fn campaign() -> Result<(), Failed> {
    let execs = env_u64("XLET_FUZZ_EXECS");
    let seconds = env_u64("XLET_FUZZ_SECONDS");
    let seed = env_u64("XLET_FUZZ_SEED").unwrap_or(SHORT_SEED);
    let execs = match (execs, seconds) {
        (None, None) => SHORT_EXECS,
        (Some(n), _) => n,
        (None, Some(_)) => u64::MAX,
    };
    let report = supervise(seed, execs, seconds.unwrap_or(0), None)?;
    println!("{}", report.summary);
    if report.problems.is_empty() {
        Ok(())
    } else {
        Err(report.problems.join("\n").into())
    }
}

/// The supervision itself is tested: a child made to abort on input 3 must be
/// reported, with input 3 made again and saved.
fn harness_reports_an_abort() -> Result<(), Failed> {
    let report = supervise(SHORT_SEED, 10, 0, Some(3))?;
    let corpus = Corpus::load(&root().join("conformance"));
    let want = corpus.mutant(&mut Rng::for_input(SHORT_SEED, 3));
    match &report.saved {
        Some(p) if std::fs::read_to_string(p).ok().as_deref() == Some(want.as_str()) => {
            // Keep the injected abort out of the saved crashes that later runs replay.
            let _ = std::fs::remove_file(p);
            Ok(())
        }
        other => Err(format!(
            "expected input 3 to be saved, got {other:?}; {:?}",
            report.problems
        )
        .into()),
    }
}

struct Report {
    summary: String,
    /// One line per finding; empty when the campaign was clean.
    problems: Vec<String>,
    /// The input the child died on, saved.
    saved: Option<PathBuf>,
}

/// Runs a campaign in a child process and collects what it found.
fn supervise(seed: u64, execs: u64, seconds: u64, abort_at: Option<u64>) -> Result<Report, String> {
    let dir = work_dir();
    std::fs::create_dir_all(dir.join("crashes")).map_err(|e| format!("{}: {e}", dir.display()))?;
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    // Each child records its progress in its own file: trials run side by side.
    static CHILDREN: AtomicU64 = AtomicU64::new(0);
    let index_file = dir.join(format!(
        "current-index-{}-{}",
        std::process::id(),
        CHILDREN.fetch_add(1, Ordering::SeqCst)
    ));
    let mut cmd = Command::new(exe);
    cmd.env("XLET_FUZZ_CHILD", "1")
        .env("XLET_FUZZ_INDEX_FILE", &index_file)
        .env("XLET_FUZZ_SEED", seed.to_string())
        .env("XLET_FUZZ_EXECS", execs.to_string())
        .env("XLET_FUZZ_SECONDS", seconds.to_string())
        .env_remove("XLET_FUZZ_ABORT_AT")
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    if let Some(n) = abort_at {
        cmd.env("XLET_FUZZ_ABORT_AT", n.to_string());
    }
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot start the fuzz child: {e}"))?;
    let mut lines = vec![];
    if let Some(out) = child.stdout.take() {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            if std::env::var_os("XLET_FUZZ_VERBOSE").is_some() {
                eprintln!("{line}");
            }
            lines.push(line);
        }
    }
    let status = child.wait().map_err(|e| e.to_string())?;
    let summary = lines
        .iter()
        .filter(|l| l.starts_with("fuzz:") || l.starts_with("time by"))
        .cloned()
        .collect::<Vec<_>>()
        .join("\n");
    let mut problems: Vec<String> = lines
        .into_iter()
        .filter(|l| l.starts_with("FOUND"))
        .collect();
    let mut saved = None;
    let index = std::fs::read(&index_file);
    let _ = std::fs::remove_file(&index_file);
    if !status.success() && problems.is_empty() {
        // The child died in the middle of an input (an abort, a stack overflow,
        // the OOM killer): make that input again from the seed and its index.
        let index = index
            .ok()
            .and_then(|b| b.try_into().ok())
            .map(u64::from_le_bytes)
            .unwrap_or(0);
        let corpus = Corpus::load(&root().join("conformance"));
        let src = corpus.mutant(&mut Rng::for_input(seed, index));
        let path = save_crash(&src);
        problems.push(format!(
            "the fuzz child died ({status}) on input {index}, saved as {}",
            path.display()
        ));
        saved = Some(path);
    }
    Ok(Report {
        summary,
        problems,
        saved,
    })
}

/// Saves a failing input under target/fuzz/crashes/, named by its hash.
fn save_crash(src: &str) -> PathBuf {
    let path = work_dir()
        .join("crashes")
        .join(format!("crash-{:016x}.xlet", fnv(src.as_bytes())));
    let _ = std::fs::write(&path, src);
    path
}

fn saved_crashes() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(work_dir().join("crashes"))
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    v.retain(|p| p.extension().is_some_and(|e| e == "xlet"));
    v.sort();
    v
}

/// Replays one saved input in-process (a child is not needed: once fixed it
/// neither panics nor aborts).
fn replay(path: &Path) -> Result<(), Failed> {
    let src = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let runner = Runner::start();
    match runner.exec(&src) {
        Verdict::Fine(_) => Ok(()),
        Verdict::Panicked(m) => Err(format!("panic: {m}").into()),
        Verdict::Hung => Err("hung".into()),
    }
}

// ---------------------------------------------------------------- the child

fn child_main() -> i32 {
    limit_address_space();
    let seed = env_u64("XLET_FUZZ_SEED").unwrap_or(SHORT_SEED);
    let execs = env_u64("XLET_FUZZ_EXECS").unwrap_or(SHORT_EXECS);
    let seconds = env_u64("XLET_FUZZ_SECONDS").unwrap_or(0);
    let abort_at = env_u64("XLET_FUZZ_ABORT_AT");
    let deadline = (seconds > 0).then(|| Instant::now() + Duration::from_secs(seconds));
    let corpus = Corpus::load(&root().join("conformance"));
    if corpus.files.is_empty() {
        println!("FOUND no corpus under conformance/");
        return 1;
    }
    let index_file = std::env::var_os("XLET_FUZZ_INDEX_FILE")
        .map(PathBuf::from)
        .unwrap_or_else(|| work_dir().join("current-index"));
    let progress = match std::fs::File::create(&index_file) {
        Ok(f) => f,
        Err(e) => {
            println!("FOUND cannot write {}: {e}", index_file.display());
            return 1;
        }
    };
    let runner = Runner::start();
    let started = Instant::now();
    let mut stats = [0u64; 4];
    let mut found = 0u64;
    let mut n = 0u64;
    let mut slowest = (Duration::ZERO, 0usize);
    let mut time_by = [Duration::ZERO; 4];
    while n < execs && deadline.is_none_or(|d| Instant::now() < d) {
        let src = corpus.mutant(&mut Rng::for_input(seed, n));
        // Recorded before running: if this input kills the process, the parent
        // regenerates it from the seed and this index.
        let _ = progress.write_all_at(&n.to_le_bytes(), 0);
        if abort_at == Some(n) {
            std::process::abort();
        }
        let t0 = Instant::now();
        let verdict = runner.exec(&src);
        let took = t0.elapsed();
        if took > slowest.0 {
            slowest = (took, src.len());
        }
        match verdict {
            Verdict::Fine(outcome) => {
                stats[outcome as usize] += 1;
                time_by[outcome as usize] += took;
            }
            Verdict::Panicked(msg) => {
                found += 1;
                let p = save_crash(&src);
                println!("FOUND panic `{}` on {}", one_line(&msg), p.display());
            }
            Verdict::Hung => {
                let p = save_crash(&src);
                println!(
                    "FOUND hang on {} (not interrupted within the grace time)",
                    p.display()
                );
                return 1;
            }
        }
        n += 1;
        if n.is_multiple_of(1000) {
            println!("progress: {n} inputs");
        }
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "fuzz: seed {seed}: {n} inputs in {secs:.1} s ({:.0}/s): {} ran, {} runtime failures, {} check errors, {} syntax errors; {found} findings; slowest input {:.0?} ({} bytes)",
        n as f64 / secs.max(1e-9),
        stats[0],
        stats[1],
        stats[2],
        stats[3],
        slowest.0,
        slowest.1,
    );
    println!("time by outcome (ran, runtime failure, check error, syntax error): {time_by:?}");
    if found > 0 { 1 } else { 0 }
}

/// However an input misbehaves, the child may not take the machine's memory:
/// past this much address space an allocation fails (and the parent reports
/// the input) instead of the OOM killer choosing a victim.
const CHILD_ADDRESS_SPACE: u64 = 12 << 30;

#[cfg(target_os = "linux")]
fn limit_address_space() {
    let lim = libc::rlimit {
        rlim_cur: CHILD_ADDRESS_SPACE,
        rlim_max: CHILD_ADDRESS_SPACE,
    };
    // SAFETY: setrlimit only reads the struct passed to it.
    unsafe {
        libc::setrlimit(libc::RLIMIT_AS, &lim);
    }
}

#[cfg(not(target_os = "linux"))]
fn limit_address_space() {}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// FNV-1a, to name saved inputs by their content.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

/// SplitMix64: small, seedable, good enough to pick mutations.
struct Rng(u64);

impl Rng {
    /// The generator of input number `n` of the campaign with `seed`: any input
    /// can be made again on its own.
    fn for_input(seed: u64, n: u64) -> Rng {
        let mut r = Rng(seed ^ n.wrapping_mul(0xd134_2543_de82_ef95));
        r.next();
        r
    }
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> Option<&'a T> {
        xs.get(self.below(xs.len()))
    }
}

// ---------------------------------------------------------------- mutation

/// Numbers that sit on edges: sizes, type ranges, float specials.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "3",
    "7",
    "127",
    "128",
    "255",
    "256",
    "65535",
    "65536",
    "70000",
    "2147483647",
    "-2147483648",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "18446744073709551615",
    "99999999999999999999",
    "100000000",
    "1000000000",
    "0.5",
    "-0",
    "1e39",
    "1e400",
    "1e-46",
    "nan",
    "-nan",
    "inf",
    "-inf",
    "3.4028235e38",
];

/// Fragments that shape programs: brackets, types with edge sizes, separators.
const FRAGMENTS: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    "[",
    "]",
    ",",
    ";",
    "\n",
    "=",
    "==",
    "~=",
    "x",
    "_",
    ".",
    ":",
    "->",
    "{}",
    "{{}}",
    "()",
    "(,)",
    "f32[0]",
    "f32[0x100000000]",
    "f32[100000000x0]",
    "s32[2x0x3]",
    "f32[]",
    "pred[3]",
    "u8[4294967296]",
    "f16",
    "bf16",
    "f64[1x1x1x1x1x1]",
    "then ",
    "let y = ",
    "comp g(a: f32) -> f32 { a }\n",
    "broadcast_dimensions={1}",
    "broadcast_dimensions={}",
    "{0, 0}",
    "{1, 0}",
    "{4294967296}",
    "/*",
    "*/",
    "//",
    "\"",
    "'",
    "\u{0}",
    "é",
    "within ",
    "type=TOTALORDER",
];

/// A source cut into tokens (identifiers, numbers, single characters, whitespace runs).
fn tokens(src: &str) -> Vec<&str> {
    let mut out = vec![];
    let mut rest = src;
    while let Some(c) = rest.chars().next() {
        let len = if c.is_alphanumeric() || c == '_' || c == '.' {
            rest.find(|ch: char| !(ch.is_alphanumeric() || ch == '_' || ch == '.'))
                .unwrap_or(rest.len())
        } else if c.is_whitespace() {
            rest.find(|ch: char| !ch.is_whitespace())
                .unwrap_or(rest.len())
        } else {
            c.len_utf8()
        };
        out.push(&rest[..len]);
        rest = &rest[len..];
    }
    out
}

struct Corpus {
    files: Vec<String>,
    /// Every identifier in the corpus (op names, attributes, types, variables).
    words: Vec<String>,
}

impl Corpus {
    fn load(dir: &Path) -> Corpus {
        let mut paths = vec![];
        walk(dir, &mut paths);
        paths.sort();
        let files: Vec<String> = paths
            .iter()
            .filter_map(|p| std::fs::read_to_string(p).ok())
            .collect();
        let mut words = BTreeSet::new();
        for f in &files {
            for t in tokens(f) {
                if t.starts_with(|c: char| c.is_alphabetic()) {
                    words.insert(t.to_string());
                }
            }
        }
        Corpus {
            files,
            words: words.into_iter().collect(),
        }
    }

    /// A corpus file with one to four mutations.
    fn mutant(&self, rng: &mut Rng) -> String {
        let base = rng.pick(&self.files).map(String::as_str).unwrap_or("");
        let mut toks: Vec<String> = tokens(base).into_iter().map(str::to_string).collect();
        for _ in 0..1 + rng.below(4) {
            self.mutate(&mut toks, rng);
        }
        toks.concat()
    }

    fn mutate(&self, toks: &mut Vec<String>, rng: &mut Rng) {
        let n = toks.len();
        let at = rng.below(n + 1);
        match rng.below(8) {
            // An edge number in place of a number (or anywhere).
            0 | 1 => {
                let num = rng.pick(NUMBERS).copied().unwrap_or("0").to_string();
                let numeric: Vec<usize> = (0..n)
                    .filter(|&i| toks[i].starts_with(|c: char| c.is_ascii_digit()))
                    .collect();
                match rng.pick(&numeric) {
                    Some(&i) => toks[i] = num,
                    None => toks.insert(at, num),
                }
            }
            // Another identifier in place of one.
            2 => {
                let idents: Vec<usize> = (0..n)
                    .filter(|&i| toks[i].starts_with(|c: char| c.is_alphabetic()))
                    .collect();
                if let (Some(&i), Some(w)) = (rng.pick(&idents), rng.pick(&self.words)) {
                    toks[i] = w.clone();
                }
            }
            // Delete a few tokens.
            3 => {
                let len = (1 + rng.below(8)).min(n.saturating_sub(at));
                toks.drain(at..at + len);
            }
            // Repeat a run of tokens, sometimes many times (deep or long inputs).
            4 => {
                let len = (1 + rng.below(12)).min(n.saturating_sub(at));
                let run: Vec<String> = toks[at..at + len].to_vec();
                let times = if rng.below(8) == 0 {
                    1 + rng.below(2000)
                } else {
                    1
                };
                let copies = std::iter::repeat_n(run, times).flatten();
                toks.splice(at + len..at + len, copies);
            }
            // A structural fragment.
            5 | 6 => {
                let f = rng.pick(FRAGMENTS).copied().unwrap_or(",");
                toks.insert(at, f.to_string());
            }
            // Splice in a run of another file.
            _ => {
                let other = rng.pick(&self.files).map(String::as_str).unwrap_or("");
                let ot = tokens(other);
                let from = rng.below(ot.len());
                let len = (1 + rng.below(40)).min(ot.len().saturating_sub(from));
                toks.splice(at..at, ot[from..from + len].iter().map(|t| t.to_string()));
            }
        }
    }
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "xlet") {
            out.push(p);
        }
    }
}

// ---------------------------------------------------------------- execution

/// How an input ended, when it ended well.
#[derive(Clone, Copy)]
enum Outcome {
    Ran = 0,
    RuntimeFailure = 1,
    CheckError = 2,
    SyntaxError = 3,
}

enum Verdict {
    Fine(Outcome),
    Panicked(String),
    Hung,
}

/// Prints every value the way `xlet run` does, into a string that is dropped.
struct Sink(String);

impl Output for Sink {
    fn print(&mut self, value: &Value, _expr: &ir::Expr) {
        self.0 = format_value(value, &PrintOptions::default());
    }
}

/// One long-lived thread with xlet's large stack that executes inputs.
struct Runner {
    jobs: mpsc::Sender<String>,
    done: mpsc::Receiver<Result<Outcome, String>>,
}

impl Runner {
    fn start() -> Runner {
        // Panics are expected findings; keep their default report off the output.
        std::panic::set_hook(Box::new(|_| {}));
        let (jobs, rx) = mpsc::channel::<String>();
        let (tx, done) = mpsc::channel();
        let spawned = std::thread::Builder::new()
            .name("fuzz-exec".into())
            .stack_size(1 << 30)
            .spawn(move || {
                for src in rx {
                    let r = std::panic::catch_unwind(|| execute(&src))
                        .map_err(|p| panic_text(p.as_ref()));
                    if tx.send(r).is_err() {
                        break;
                    }
                }
            });
        if let Err(e) = spawned {
            println!("FOUND cannot start the execution thread: {e}");
        }
        Runner { jobs, done }
    }

    fn exec(&self, src: &str) -> Verdict {
        xlet::config::clear_interrupt();
        if self.jobs.send(src.to_string()).is_err() {
            return Verdict::Panicked("the execution thread is gone".into());
        }
        let first = self.done.recv_timeout(INPUT_TIME);
        let r = match first {
            Ok(r) => r,
            Err(_) => {
                // Too slow: interrupt it the way Ctrl-C would, and give it time to stop.
                xlet::config::raise_interrupt();
                match self.done.recv_timeout(HANG_GRACE) {
                    Ok(r) => r,
                    Err(_) => return Verdict::Hung,
                }
            }
        };
        xlet::config::clear_interrupt();
        match r {
            Ok(o) => Verdict::Fine(o),
            Err(m) => Verdict::Panicked(m),
        }
    }
}

fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}

/// Parse, check, run and print one input, then render its diagnostics.
/// An input that calls SaveNpy (any case) is only checked: run, a mutated
/// path could overwrite any file, the corpus's own `.npy` files included.
fn execute(src: &str) -> Outcome {
    let (outcome, planned) = execute_with(src, true);
    // A program with a While runs again through the evaluator alone
    // (spec/plan.md): the two must agree bit for bit. A difference panics,
    // which the harness reports as a finding with the input.
    if src.contains("While") && matches!(outcome, Outcome::Ran | Outcome::RuntimeFailure) {
        let (_, reference) = execute_with(src, false);
        // Ctrl-C (the time limit) and the memory budget depend on timing and
        // on when each path admits its buffers, not on the program alone.
        let unsteady = |r: &str| r.contains("interrupted") || r.contains("memory");
        if planned != reference && !unsteady(&planned) && !unsteady(&reference) {
            panic!("the plan and the evaluator differ:\n{planned}\n--- evaluator ---\n{reference}");
        }
    }
    outcome
}

/// Runs `src` with execution plans on or off: its outcome, and what it left
/// (the diagnostics' codes and messages, each binding's type and bits).
fn execute_with(src: &str, plan: bool) -> (Outcome, String) {
    let mut session = Session::new(Limits {
        max_value_bytes: FUZZ_MAX_VALUE,
        ..Default::default()
    });
    session.env.config.plan = plan;
    let mut sink = Sink(String::new());
    // A mutant that calls SaveNpy is only checked: a mutated path must not
    // overwrite the corpus's .npy files.
    let result = if src.to_ascii_lowercase().contains("savenpy") {
        session.check(src).map(|_| ())
    } else {
        session.run(src, &mut sink)
    };
    let (outcome, mut seen) = match result {
        Ok(()) => (Outcome::Ran, String::new()),
        Err(f) => {
            let mut rendered = 0usize;
            let mut seen = String::new();
            for d in &f.diags {
                rendered += render(d, "fuzz.xlet", src, false).len();
                seen.push_str(&format!("{}: {}\n", d.code, d.message));
            }
            std::hint::black_box(rendered);
            let o = match f.stage {
                xlet::diag::Stage::Syntax => Outcome::SyntaxError,
                xlet::diag::Stage::Check => Outcome::CheckError,
                xlet::diag::Stage::Runtime => Outcome::RuntimeFailure,
            };
            (o, seen)
        }
    };
    if src.contains("While") {
        let mut names: Vec<&String> = session.env.values.keys().collect();
        names.sort();
        for n in names {
            if let Some(v) = session.env.values.get(n) {
                seen.push_str(&format!("{n}: {} {:?}\n", v.ty(), leaf_bits(v)));
            }
        }
    }
    (outcome, seen)
}

/// A value's elements as bits (floats by `to_bits`, so -0.0 and NaNs count).
fn leaf_bits(v: &Value) -> Vec<u64> {
    use xlet::value::Array;
    match v {
        Value::Tuple(items) => items.iter().flat_map(leaf_bits).collect(),
        Value::Array(Array::F32(x)) => x.iter().map(|e| e.to_bits() as u64).collect(),
        Value::Array(Array::F64(x)) => x.iter().map(|e| e.to_bits()).collect(),
        Value::Array(Array::F16(x)) => x.iter().map(|e| e.to_bits() as u64).collect(),
        Value::Array(Array::BF16(x)) => x.iter().map(|e| e.to_bits() as u64).collect(),
        Value::Array(Array::C64(x)) => x
            .iter()
            .flat_map(|e| [e.re.to_bits() as u64, e.im.to_bits() as u64])
            .collect(),
        Value::Array(Array::C128(x)) => x
            .iter()
            .flat_map(|e| [e.re.to_bits(), e.im.to_bits()])
            .collect(),
        Value::Array(a) => a.to_vec::<i64>().into_iter().map(|e| e as u64).collect(),
    }
}

// ---------------------------------------------------------------- generated programs

/// Programs of the generators (below) in `cargo test`: fixed, as the campaign's.
const GEN_EXECS: u64 = 120;
/// Salt of the generators' seed, so they do not share the campaign's streams.
const GEN_SALT: u64 = 0x6e6e_2121;
/// One generated program may run this long (the binary, with its own memory
/// budget) before it is sent SIGINT; not ending `HANG_GRACE` after that is a hang.
const GEN_TIME: Duration = Duration::from_secs(10);
/// The outcome slot of a program that was slow and stopped at Ctrl-C (exit 130).
const INTERRUPTED_CODE: i32 = 4;
/// The budget each generated program runs under (`--max-memory`), and the
/// address space of the process (an unaccounted blow-up aborts instead of
/// swapping; the trials used `ulimit -v 8000000`).
const GEN_MAX_MEMORY: &str = "256M";
const GEN_ADDRESS_SPACE: u64 = 8 << 30;

/// A generated program and the command-line options it runs with.
struct Gen {
    kind: &'static str,
    src: String,
    args: Vec<String>,
}

/// Integers on the edges of i64 and of sizes (attribute values, indices).
const EXTREMES: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "3",
    "-3",
    "1000000000000",
    "-1000000000000",
    "4294967296",
    "2147483647",
    "4611686018427387904",
    "-4611686018427387904",
    "9223372036854775806",
    "-9223372036854775806",
    "9223372036854775807",
    "-9223372036854775807",
    "-9223372036854775808",
    "18446744073709551615",
];

/// Sizes: small, zero, huge (windows, strides, dilations, slice sizes, dims).
const SIZES: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "5",
    "1000000",
    "1000000000000",
    "4294967296",
    "4611686018427387904",
    "9223372036854775807",
];

/// Operands (expression, rank): small, empty, large, huge-by-zero.
const OPERANDS: &[(&str, usize)] = &[
    ("f32[4] {1, 2, 3, 4}", 1),
    ("f32[0] {}", 1),
    ("Iota(f32[100000], 0)", 1),
    ("Broadcast(f32 1, {3000000})", 1),
    ("f32 7", 0),
    ("Iota(f32[2x3], 1)", 2),
    ("Broadcast(f32 2, {0, 9223372036854775807})", 2),
    ("Iota(f32[1000x1000], 0)", 2),
    ("Iota(f32[3x0x5], 2)", 3),
    ("Iota(f32[2x2x2], 2)", 3),
];

impl Rng {
    fn of<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        self.pick(xs).copied().unwrap_or("0")
    }
    /// An extreme integer half the time, a small size otherwise.
    fn int(&mut self) -> &'static str {
        if self.below(2) == 0 {
            self.of(EXTREMES)
        } else {
            self.of(SIZES)
        }
    }
    fn list(&mut self, n: usize, mut item: impl FnMut(&mut Rng) -> String) -> String {
        let v: Vec<String> = (0..n).map(|_| item(self)).collect();
        format!("{{{}}}", v.join(", "))
    }
    fn operand(&mut self) -> (&'static str, usize) {
        self.pick(OPERANDS).copied().unwrap_or(("f32 0", 0))
    }
    /// Usually the operand's rank, sometimes one off (a constraint error).
    fn rank_for(&mut self, r: usize) -> usize {
        match self.below(10) {
            0 => r + 1,
            1 => r.saturating_sub(1),
            _ => r,
        }
    }
}

/// Comps every generated program may call: native (`add`, `max`),
/// whole-array (`addv`) and per-call (`addg`) reductions, a comparator.
const PRELUDE: &str = "comp plus(a: f32, b: f32) -> f32 { a + b }\n\
comp addv(a: f32, b: f32) -> f32 { a + b * 1 }\n\
comp addg(a: f32, b: f32) -> f32 { plus(a, b) }\n\
comp less(a: f32, b: f32) -> pred { a < b }\n";

/// One program of generator number `n` of the campaign with `seed`.
fn generate(rng: &mut Rng) -> Gen {
    let mut args: Vec<String> = vec![];
    let (kind, body): (&'static str, String) = match rng.below(12) {
        0 => {
            let (x, r) = rng.operand();
            let r = rng.rank_for(r);
            let cfg = rng.list(r, |g| format!("{{{}, {}, {}}}", g.int(), g.int(), g.int()));
            ("pad", format!("Pad({x}, f32 0, {cfg})"))
        }
        1 => {
            let (x, r) = rng.operand();
            let r = rng.rank_for(r);
            let comp = rng.of(&["add", "max", "addv", "addg"]);
            let win = rng.list(r, |g| g.of(SIZES).to_string());
            let strides = rng.list(r, |g| g.of(SIZES).to_string());
            let pad = match rng.below(3) {
                0 => "SAME".to_string(),
                1 => "VALID".to_string(),
                _ => rng.list(r, |g| format!("{{{}, {}}}", g.int(), g.int())),
            };
            let mut s = format!("ReduceWindow({x}, f32 0, {comp}, {win}, {strides}, {pad}");
            if rng.below(2) == 0 {
                let b = rng.list(r, |g| g.of(SIZES).to_string());
                let w = rng.list(r, |g| g.of(SIZES).to_string());
                s += &format!(", base_dilations={b}, window_dilations={w}");
            }
            ("reduce_window", s + ")")
        }
        2 => {
            let idx = match rng.below(3) {
                0 => format!(
                    "s64[2x1] {{{{{}}}, {{{}}}}}",
                    rng.of(EXTREMES),
                    rng.of(EXTREMES)
                ),
                1 => format!("Broadcast(s8 0, {{{}, 1}})", rng.of(SIZES)),
                _ => "s32[0x1] {}".to_string(),
            };
            let x = rng.of(&["f32[4] {1, 2, 3, 4}", "f32[0] {}", "Iota(f32[100000], 0)"]);
            (
                "gather",
                format!(
                    "Gather({x}, {idx}, offset_dims={{1}}, collapsed_slice_dims={{}}, \
                     start_index_map={{0}}, index_vector_dim=1, slice_sizes={{{}}})",
                    rng.int()
                ),
            )
        }
        3 => {
            let n = rng.of(&["0", "2", "1000000", "100000000", "9223372036854775807"]);
            let x = rng.of(&["f32[4] {1, 2, 3, 4}", "f32[0] {}", "Iota(f32[100000], 0)"]);
            let e = rng.of(EXTREMES);
            let comp = rng.of(&["add", "addg"]);
            (
                "scatter",
                format!(
                    "Scatter({x}, Broadcast(s64 {e}, {{{n}, 1}}), Broadcast(f32 1, {{{n}}}), {comp}, \
                     update_window_dims={{}}, inserted_window_dims={{0}}, \
                     scatter_dims_to_operand_dims={{0}}, index_vector_dim=1)"
                ),
            )
        }
        4 => {
            let (x, _) = rng.operand();
            let d = rng.of(EXTREMES);
            match rng.below(3) {
                0 => ("sort", format!("Sort({x}, dimension={d})")),
                1 => ("sort", format!("Sort({x}, dimension={d}, comparator=less)")),
                _ => ("sort", format!("Sort({{{x}, {x}}}, comparator=less)")),
            }
        }
        5 => {
            let (x, r) = rng.operand();
            let r = rng.rank_for(r);
            let starts = rng.list(r, |g| g.of(EXTREMES).to_string());
            let sizes = rng.list(r, |g| g.int().to_string());
            (
                "dynamic_slice",
                format!("DynamicSlice({x}, {starts}, {sizes})"),
            )
        }
        6 => {
            let n = rng.of(&["0", "4", "100000"]);
            let k = rng.of(&["1", "2", "3"]);
            let s = rng.of(SIZES);
            let pad = match rng.below(3) {
                0 => "SAME".to_string(),
                1 => "VALID".to_string(),
                _ => format!("{{{{{}, {}}}}}", rng.int(), rng.int()),
            };
            let mut c = format!(
                "ConvGeneralDilated(Iota(f32[1x1x{n}], 2), Broadcast(f32 1, {{1, 1, {k}}}), {{{s}}}, {pad}"
            );
            if rng.below(2) == 0 {
                c += &format!(
                    ", lhs_dilation={{{}}}, rhs_dilation={{{}}}",
                    rng.of(SIZES),
                    rng.of(SIZES)
                );
            }
            ("conv", c + ")")
        }
        7 => {
            let e = rng.of(SIZES);
            let f = rng.of(SIZES);
            let s = match rng.below(6) {
                0 => format!("Iota(f32[0x{e}], 0)"),
                1 => format!("Reshape(f32[0] {{}}, {{0, {e}}})"),
                2 => format!("Broadcast(f32 1, {{{e}, {f}, 0}})"),
                3 => format!("f32[{e}x{f}] {{}}"),
                4 => format!("Iota(f32[{e}x{f}], 1)"),
                _ => format!("Reshape(Iota(f32[{e}], 0), {{{f}, {e}}})"),
            };
            ("shapes", s)
        }
        8 => {
            // A chain of comps calling comps, evaluated on every replica.
            let depth: usize = *rng.pick(&[10, 100, 1000, 3000, 6000]).unwrap_or(&10);
            let mut s = String::from("comp c0(a: f32) -> f32 { a + 1 }\n");
            for i in 1..=depth {
                s += &format!("comp c{i}(a: f32) -> f32 {{ c{}(a) * 1 }}\n", i - 1);
            }
            args = replicas(rng);
            ("comp_chain", s + &format!("c{depth}(f32 1)"))
        }
        9 => {
            // Deep nesting: parentheses, Tuple(...) and calls, on replicas.
            let depth: usize = *rng.pick(&[100, 1000, 4000, 5000, 20000]).unwrap_or(&100);
            let s = match rng.below(3) {
                0 => format!("{}f32 1{}", "(".repeat(depth), " + 1)".repeat(depth)),
                1 => format!("{}f32 1{}", "Tuple(".repeat(depth), ")".repeat(depth)),
                _ => format!("{}f32 1{}", "Add(f32 1, ".repeat(depth), ")".repeat(depth)),
            };
            args = replicas(rng);
            ("nesting", s)
        }
        10 => {
            // Gradients of gradients.
            let k = 1 + rng.below(10);
            let f0 = rng.of(&["Sin(x) * x", "Tanh(x) * Exp(x)", "x * x * x"]);
            let mut s = format!("comp f0(x: f32) -> f32 {{ {f0} }}\n");
            for i in 1..=k {
                s += &format!("comp f{i}(x: f32) -> f32 {{ Grad(f{}, x) }}\n", i - 1);
            }
            ("grad", s + &format!("f{k}(f32 0.5)"))
        }
        _ => {
            // Loops, alone and under a gradient, with extreme bounds.
            let bound = rng.of(&["0", "10", "10000", "100000", "-2147483648", "2147483647"]);
            let step = if bound == "2147483647" { "0" } else { "1" };
            let loops = 1 + rng.below(12);
            let mut s = format!(
                "comp more(s: (s32, f32)) -> pred {{ GetTupleElement(s, 0) < s32 {bound} }}\n\
                 comp body(s: (s32, f32)) -> (s32, f32) {{ (GetTupleElement(s, 0) + {step}, GetTupleElement(s, 1) * 1.0001) }}\n\
                 comp f(x: f32) -> f32 {{\n  let a0 = x\n"
            );
            if step == "0" {
                // An endless loop: stopped by --max-steps.
                args = vec!["--max-steps".into(), "1000".into()];
            }
            for i in 1..=loops {
                s += &format!(
                    "  let a{i} = GetTupleElement(While(more, body, (s32 0, a{})), 1)\n",
                    i - 1
                );
            }
            s += &format!("  a{loops}\n}}\n");
            if rng.below(2) == 0 {
                ("while", s + "f(f32 1)")
            } else {
                // A loop of 10^5 trips is recorded and replayed, not written out:
                // about 10 s per loop in the dev profile, too slow to bound here.
                let s = s.replace("s32 100000 }", "s32 10000 }");
                ("grad_while", s + "Grad(f, f32 1)")
            }
        }
    };
    // Definitions (if any) come before the last line, the expression.
    let (defs, expr) = body.rsplit_once('\n').unwrap_or(("", &body));
    Gen {
        kind,
        src: format!("{PRELUDE}{defs}\nlet r = {expr}\nr\n"),
        args,
    }
}

/// `--replicas N` now and then (deep evaluation on every replica's thread).
fn replicas(rng: &mut Rng) -> Vec<String> {
    match rng.below(4) {
        0 => vec![],
        n => vec!["--replicas".into(), ["2", "16", "64"][n - 1].into()],
    }
}

/// How a generated program ended: the exit code, or why it is a finding.
fn run_generated(g: &Gen) -> Result<i32, String> {
    use std::io::{Read, Write};
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_xlet"));
    cmd.args(["--no-color", "run", "-", "--max-memory", GEN_MAX_MEMORY])
        .args(&g.args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    // SAFETY: the closure only calls setrlimit, async-signal-safe, before exec.
    unsafe {
        cmd.pre_exec(|| {
            let lim = libc::rlimit {
                rlim_cur: GEN_ADDRESS_SPACE,
                rlim_max: GEN_ADDRESS_SPACE,
            };
            libc::setrlimit(libc::RLIMIT_AS, &lim);
            Ok(())
        });
    }
    let mut child = cmd.spawn().map_err(|e| format!("cannot start xlet: {e}"))?;
    let mut input = child.stdin.take().ok_or("no stdin")?;
    let src = g.src.clone();
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(src.as_bytes());
    });
    let mut stderr = child.stderr.take().ok_or("no stderr")?;
    // Only the head of stderr is kept (a diagnostic may quote a long program).
    let reader = std::thread::spawn(move || {
        let mut head = Vec::new();
        let _ = (&mut stderr).take(1 << 20).read_to_end(&mut head);
        let _ = std::io::copy(&mut stderr, &mut std::io::sink());
        String::from_utf8_lossy(&head).into_owned()
    });
    let started = Instant::now();
    let mut interrupted = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if !interrupted && started.elapsed() > GEN_TIME => {
                // Too slow (a legitimately large computation, or a hang):
                // Ctrl-C it, as the in-process campaign does.
                // SAFETY: kill only sends a signal to the child we started.
                unsafe {
                    libc::kill(child.id() as libc::pid_t, libc::SIGINT);
                }
                interrupted = true;
            }
            Ok(None) if started.elapsed() > GEN_TIME + HANG_GRACE => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(format!("cannot wait for xlet: {e}")),
        }
    };
    let _ = feeder.join();
    let err = reader.join().unwrap_or_default();
    let Some(status) = status else {
        return Err(format!(
            "no end within {GEN_TIME:?}, nor {HANG_GRACE:?} after Ctrl-C"
        ));
    };
    let code = match status.code() {
        Some(c) => c,
        None => {
            use std::os::unix::process::ExitStatusExt;
            return Err(format!("killed by signal {:?}", status.signal()));
        }
    };
    if interrupted && code == 130 {
        return Ok(INTERRUPTED_CODE);
    }
    if !(0..=3).contains(&code) {
        return Err(format!("exit code {code}: {}", head(&err)));
    }
    if err.contains("panicked") || err.contains("internal") {
        return Err(format!("exit code {code}, but stderr says: {}", head(&err)));
    }
    Ok(code)
}

/// The start of a diagnostic, on one line.
fn head(err: &str) -> String {
    one_line(err).chars().take(400).collect()
}

/// Programs from the generators run through the binary: extreme attributes,
/// huge and empty shapes, deep nesting on replicas, gradients and loops.
fn generated() -> Result<(), Failed> {
    let seed = env_u64("XLET_FUZZ_SEED").unwrap_or(SHORT_SEED);
    let execs = env_u64("XLET_FUZZ_GEN_EXECS").unwrap_or(GEN_EXECS);
    let dir = work_dir().join("generated");
    let _ = std::fs::create_dir_all(&dir);
    let started = Instant::now();
    let mut codes = [0u64; 5];
    let mut problems = vec![];
    let mut slowest = (Duration::ZERO, "");
    for n in 0..execs {
        let g = generate(&mut Rng::for_input(seed ^ GEN_SALT, n));
        let t0 = Instant::now();
        let r = run_generated(&g);
        let took = t0.elapsed();
        if took > slowest.0 {
            slowest = (took, g.kind);
        }
        if std::env::var_os("XLET_FUZZ_VERBOSE").is_some() {
            eprintln!("generated {n} ({}, {took:.1?}): {r:?}", g.kind);
        }
        match r {
            Ok(c) => codes[c as usize] += 1,
            Err(why) => {
                let path = dir.join(format!("gen-{:016x}.xlet", fnv(g.src.as_bytes())));
                let text = format!(
                    "// xlet run - --max-memory {GEN_MAX_MEMORY} {}\n{}",
                    g.args.join(" "),
                    g.src
                );
                let _ = std::fs::write(&path, text);
                problems.push(format!(
                    "FOUND generated input {n} ({}): {why}; saved as {}",
                    g.kind,
                    path.display()
                ));
            }
        }
    }
    println!(
        "fuzz: generated, seed {seed}: {execs} programs in {:.1} s; exit codes 0/1/2/3 and slow programs stopped by Ctrl-C: {codes:?}; {} findings; slowest {:.1?} ({})",
        started.elapsed().as_secs_f64(),
        problems.len(),
        slowest.0,
        slowest.1
    );
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n").into())
    }
}
