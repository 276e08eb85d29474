//! Infeed, Outfeed and .npy files through the binary: the flags, exit codes,
//! files in a directory, and the REPL's `:infeed`, `:npy`, `:save`.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

const XLET: &str = env!("CARGO_BIN_EXE_xlet");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xlet-feed-it-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn xlet(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(XLET)
        .args(args)
        .env("XLET_HISTORY", "")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start xlet");
    // xlet may end before reading its input (a usage error): a closed pipe is
    // then no failure, the exit code tells.
    if let Some(mut input) = child.stdin.take() {
        let _ = input.write_all(stdin.as_bytes());
    }
    child.wait_with_output().expect("xlet output")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn outfeed_to_stdout_and_to_a_directory() {
    let prog = "let a = Outfeed(s32[2] {1, 2}, s32[2])\nf32 2.5\nlet b = Outfeed(f32 7, f32)\n";
    let out = xlet(&["run", "-"], prog);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "outfeed 0: s32[2] {1, 2}\nf32 2.5\noutfeed 1: f32 7\n"
    );

    let dir = scratch("outdir").join("made/by/xlet");
    let d = dir.to_str().expect("utf-8 path");
    let out = xlet(&["run", "--outfeed", d, "-"], prog);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "f32 2.5\n");
    let a = std::fs::read(dir.join("0.npy")).expect("0.npy");
    assert!(a.starts_with(b"\x93NUMPY"));
    assert!(text(&a).contains("'descr': '<i4'"));
    assert!(dir.join("1.npy").is_file());
}

#[test]
fn a_missing_infeed_file_exits_3_before_running() {
    let out = xlet(&["run", "--infeed", "/no/such/values.npy", "-"], "s32 1\n");
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(text(&out.stdout), "", "nothing ran");
    assert!(text(&out.stderr).contains("--infeed /no/such/values.npy: cannot open"));
}

#[test]
fn a_bad_infeed_file_is_a_runtime_error_at_the_infeed() {
    let dir = scratch("bad");
    let f = dir.join("v.txt");
    std::fs::write(&f, "f32[2] {1, 2}\n").expect("write");
    let out = xlet(
        &["run", "--infeed", f.to_str().expect("utf-8"), "-"],
        "s32 0\nlet x = Infeed(s32[2])\n",
    );
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("Infeed wants s32[2]") && err.contains("is f32[2]"),
        "{err}"
    );
    assert!(err.contains(":2:"), "the Infeed's line: {err}");
}

#[test]
fn repl_save_npy_and_infeed() {
    let dir = scratch("repl");
    let f = dir.join("m.npy");
    let fs = f.to_str().expect("utf-8");
    let input = format!(
        "let m = s32[2x2] {{{{1, 2}}, {{3, 4}}}}\n:save m {fs}\n:npy w {fs}\nthen w == m\n\
         :infeed {fs}\nthen Infeed(s32[2x2]) == m\n:npy 2x {fs}\n:save nope {fs}\n:npy v /no/such.npy\n"
    );
    let out = xlet(&[], &input);
    let (o, e) = (text(&out.stdout), text(&out.stderr));
    assert!(o.contains("m: s32[2x2] written to"), "{o}{e}");
    assert!(o.contains("w: s32[2x2] (from"), "{o}{e}");
    assert!(o.contains("infeed: ") && o.contains("queued"), "{o}{e}");
    assert!(e.contains("`2x` is not a name to bind"), "{e}");
    assert!(e.contains("`nope` is not bound"), "{e}");
    assert!(e.contains("/no/such.npy: cannot open"), "{e}");
    assert!(!e.contains("failed"), "the thens held: {e}");
}
