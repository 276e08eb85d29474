//! The REPL and the CLI as a user meets them: the binary driven through a pipe
//! (the interactive loop shares everything but the line editor), and Ctrl-C.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const XLET: &str = env!("CARGO_BIN_EXE_xlet");

/// Runs the REPL with `input` piped in (and `home` as HOME, if given).
fn repl(input: &str, home: Option<&PathBuf>) -> Output {
    let mut cmd = Command::new(XLET);
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("XLET_HISTORY", "");
    if let Some(h) = home {
        cmd.env("HOME", h);
    }
    let mut child = cmd.spawn().expect("start xlet");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("xlet output")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xlet-repl-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

#[test]
fn piped_errors_name_their_stdin_line_and_the_defining_input() {
    let out = repl(
        "comp twice(x: f32) -> f32 {\n  x + x\n}\n\nlet a = f32 1\ntwice(a, a)\n",
        None,
    );
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    // The call is on stdin line 6; "defined here" shows line 1, from the earlier input.
    assert!(err.contains("(<stdin>:6:1)"), "{err}");
    assert!(err.contains(" 6 │ twice(a, a)"), "{err}");
    assert!(err.contains("<stdin>:1:6"), "{err}");
    assert!(err.contains(" 1 │ comp twice(x: f32) -> f32 {"), "{err}");
    assert!(err.contains("defined here"), "{err}");
}

#[test]
fn typed_inputs_are_numbered() {
    let out = repl("comp one() -> f32 { f32 1 }\nlet b = 2\none(b)\n", None);
    let err = text(&out.stderr);
    assert!(err.contains("<stdin>:3:1"), "{err}");
    assert!(err.contains(" 1 │ comp one() -> f32 { f32 1 }"), "{err}");
}

#[test]
fn underscore_is_the_last_result() {
    let out = repl("{1, 2}\n_ + 1\nlet c = _\nc\n", None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "s32[2] {1, 2}\ns32[2] {2, 3}\ns32[2] {2, 3}\n"
    );
}

#[test]
fn newcomer_words_get_hints() {
    let out = repl("help\nexit\nquit\n?Add\n", None);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{err}");
    assert!(err.contains("type `:help`"), "{err}");
    assert!(err.contains("type `:quit` or press Ctrl-D"), "{err}");
    assert!(err.contains("type `:help Add`"), "{err}");
}

#[test]
fn help_finds_ops_by_operator() {
    let out = repl(":help +\n:help &&\n", None);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(stdout.starts_with("Add(lhs, rhs"), "{stdout}");
    assert!(stdout.contains("And(lhs, rhs"), "{stdout}");
}

#[test]
fn load_expands_tilde() {
    let home = scratch("home");
    std::fs::write(home.join("w.xlet"), "let w = f32[2] {1, 2}\n").expect("write");
    let out = repl(":load ~/w.xlet\nw\n", Some(&home));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "f32[2] {1, 2}\n");
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn time_shows_the_spread() {
    let out = repl("let v = f32[3] {1, 2, 3}\n:time v + v\n", None);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    for part in ["min ", "median ", "max ", " runs) : f32[3]"] {
        assert!(stdout.contains(part), "{part}: {stdout}");
    }
}

#[test]
fn unknown_keywords_and_missing_ops_are_named() {
    let out = repl(
        "let x = f32[2x2] {{1, 2}, {3, 4}}\nTranspose(x, perm={1, 0})\nFft(x)\n:help Sum\n",
        None,
    );
    let err = text(&out.stderr);
    // A numpy name is answered with XLA's way of saying it, not `Sub`.
    assert!(err.contains("`Sum` is not an XLA operation"), "{err}");
    assert!(!err.contains("did you mean Sub"), "{err}");
    assert!(err.contains("unknown argument `perm`"), "{err}");
    assert!(err.contains("did you mean `permutation`?"), "{err}");
    assert!(err.contains("not implemented in xlet yet"), "{err}");
    assert!(!err.contains("Not, Cos"), "{err}");
}

#[test]
fn vars_totals_the_bound_values_not_the_process_heap() {
    let out = repl(
        "let a = f32[3] {1, 2, 3}\nlet b = (s32 7, pred true)\n:vars\n",
        None,
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    // 12 bytes of a, 4 + 1 of b: what the rows say, summed. The allocator's
    // count (the line editor, the types, the inputs) is labelled as the heap's.
    assert!(stdout.contains("a     f32[3]       12 bytes\n"), "{stdout}");
    assert!(
        stdout.contains("bound values 17 bytes; process heap "),
        "{stdout}"
    );
}

/// A LoadNpy path relative to the script, not to the current directory: the
/// error says where the file is and the path that works from here, for `xlet
/// run` and for the REPL's `:load`.
#[test]
fn load_npy_next_to_the_script_is_pointed_out() {
    let dir = scratch("npy-beside");
    let sub = dir.join("model");
    std::fs::create_dir_all(&sub).expect("mkdir");
    let npy = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("conformance/npy/f32.npy");
    std::fs::copy(&npy, sub.join("w.npy")).expect("copy npy");
    std::fs::write(sub.join("prog.xlet"), "let w = LoadNpy(\"w.npy\")\nw\n").expect("write");
    let out = Command::new(XLET)
        .args(["run", "model/prog.xlet"])
        .current_dir(&dir)
        .output()
        .expect("run xlet");
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("LoadNpy: C2"), "{err}");
    assert!(err.contains("the file is next to the script"), "{err}");
    assert!(
        err.contains("LoadNpy(\"model/w.npy\") reads it from here"),
        "{err}"
    );
    // The path it gives works.
    std::fs::write(
        sub.join("fixed.xlet"),
        "let w = LoadNpy(\"model/w.npy\")\nthen w == w\n",
    )
    .expect("write");
    let ok = Command::new(XLET)
        .args(["run", "model/fixed.xlet"])
        .current_dir(&dir)
        .output()
        .expect("run xlet");
    assert_eq!(ok.status.code(), Some(0), "{}", text(&ok.stderr));
    // `:load model/prog.xlet` from the REPL says the same.
    let mut cmd = Command::new(XLET);
    cmd.current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("XLET_HISTORY", "");
    let mut child = cmd.spawn().expect("start xlet");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b":load model/prog.xlet\n")
        .expect("write stdin");
    let out = child.wait_with_output().expect("xlet output");
    let err = text(&out.stderr);
    assert!(
        err.contains("LoadNpy(\"model/w.npy\") reads it from here"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `xlet run` stops on SIGINT at the next op boundary and exits 130.
#[test]
fn run_exits_130_on_ctrl_c() {
    let dir = scratch("sigint");
    let script = dir.join("long.xlet");
    // The first value printed says the run (and so the handler) has started.
    let mut src = String::from("f32 1\nlet x = Iota(f32[1000000], 0)\n");
    for _ in 0..20000 {
        src.push_str("let y = Tanh(x)\n");
    }
    std::fs::write(&script, src).expect("write script");
    let mut child = Command::new(XLET)
        .arg("run")
        .arg(&script)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start xlet run");
    let mut first = String::new();
    let stdout = child.stdout.take().expect("stdout");
    std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut first)
        .expect("read the first value");
    assert_eq!(first, "f32 1\n");
    std::thread::sleep(Duration::from_millis(200));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(killed.success());
    let started = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if started.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("xlet run did not stop after SIGINT");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = std::io::Read::read_to_string(&mut e, &mut err);
    }
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ctrl-C that lands in the last op of an input finds no later op boundary:
/// the session checks the flag once more and commits nothing. (This is the only
/// test in this binary that touches the process-wide flag.)
#[test]
fn an_interrupt_after_the_last_op_commits_nothing() {
    use xlet::eval::Output;

    struct Quiet;
    impl Output for Quiet {
        fn print(&mut self, _: &xlet::value::Value, _: &xlet::ir::Expr) {}
    }
    let mut s = xlet::session::Session::default();
    xlet::config::raise_interrupt();
    let r = s.run("let x = 1", &mut Quiet);
    xlet::config::clear_interrupt();
    let f = r.expect_err("an interrupted input fails");
    assert!(
        f.diags
            .iter()
            .any(|d| d.code.is(&xlet::diag::Rule::Interrupted)),
        "{f:?}"
    );
    assert!(!s.types.globals.contains_key("x"));
    assert!(!s.env.values.contains_key("x"));
}
