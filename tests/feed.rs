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
    assert!(e.contains("unknown name `nope`"), "{e}");
    assert!(e.contains("/no/such.npy: cannot open"), "{e}");
    assert!(!e.contains("failed"), "the thens held: {e}");
}

/// conformance/npy's numpy-made files, by name.
fn made_by_numpy(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("conformance/npy")
        .join(name)
        .to_str()
        .expect("utf-8")
        .to_string()
}

#[test]
fn save_npy_writes_when_run_and_never_when_checked() {
    let dir = scratch("save");
    let f = dir.join("y.npy");
    let fs = f.to_str().expect("utf-8");
    let prog = format!(
        "let x = f32[3] {{1, 2, 3}}\nlet y = SaveNpy(x * 2.0, \"{fs}\")\nthen LoadNpy(\"{fs}\") == f32[3] {{2, 4, 6}}\n"
    );
    let out = xlet(&["check", "-"], &prog);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(!f.exists(), "xlet check wrote the file");
    // A program that fails to check writes nothing either.
    let bad = format!("{prog}let z = Add(x, s32 1)\n");
    let out = xlet(&["run", "-"], &bad);
    assert_eq!(out.status.code(), Some(2));
    assert!(!f.exists(), "a program that failed to check wrote the file");
    let out = xlet(&["run", "-"], &prog);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let bytes = std::fs::read(&f).expect("y.npy");
    assert!(text(&bytes).contains("'descr': '<f4'"));
    // A write error names the file, exit 1, after the statements before it ran.
    let nowhere = dir.join("no/such/dir/y.npy");
    let prog = format!(
        "s32 1\nlet y = SaveNpy(f32[2] {{1, 2}}, \"{}\")\ns32 2\n",
        nowhere.display()
    );
    let out = xlet(&["run", "-"], &prog);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "s32 1\n");
    let err = text(&out.stderr);
    assert!(err.contains("no/such/dir/y.npy: cannot create"), "{err}");
}

#[test]
fn repl_npz_types_save_expressions_precision_and_summary() {
    let dir = scratch("repl-more");
    let f = dir.join("e.npy");
    let fs = f.to_str().expect("utf-8");
    let npz = made_by_numpy("arrays_deflate.npz");
    let e4 = made_by_numpy("f8e4m3fn.npy");
    let input = format!(
        ":npy a {npz} a\nthen a == f32[2x3] {{{{1.5, -2, 3}}, {{4, 5, 6.25}}}}\n\
         :npy b \"{npz}\" b.npy\n:npy w {npz} w\n:npy e {e4} as f8e4m3fn\n\
         then e == f8e4m3fn[4] {{1.5, -2, 448, 0.015625}}\n:npy f {e4}\n\
         :save e * e \"{fs}\"\n:npy g {fs} as f8e4m3fn\nthen g == e * e\n\
         :save (a, a) {fs}\n\
         :precision 3\nf64 1 / f64 3\n:precision\n:precision full\nf64 1 / f64 3\n:precision 0\n\
         :summary a\n:stats (b, s32 1)\n"
    );
    let out = xlet(&[], &input);
    let (o, e) = (text(&out.stdout), text(&out.stderr));
    assert!(
        o.contains("a: f32[2x3] (from") && o.contains("array 'a')"),
        "{o}{e}"
    );
    assert!(o.contains("b: s64[3]"), "{o}{e}");
    assert!(
        e.contains("has no array 'w'; its arrays are 'a', 'b', 'c', 'h'"),
        "{e}"
    );
    assert!(o.contains("e: f8e4m3fn[4]"), "{o}{e}");
    assert!(
        e.contains("type=f8e4m3fn"),
        "a V1 file without a type says how: {e}"
    );
    assert!(o.contains("e * e: f8e4m3fn[4] written to"), "{o}{e}");
    assert!(e.contains("is a tuple"), "{e}");
    assert!(o.contains("f64 0.333\n"), "{o}");
    assert!(o.contains("precision: 3 significant digits"), "{o}");
    assert!(o.contains("f64 0.3333333333333333\n"), "{o}");
    assert!(e.contains("1 to 17"), "{e}");
    assert!(
        o.contains("f32[2x3] summary: min -2, max 6.25, mean 2.9583333333333335, nan 0"),
        "{o}"
    );
    assert!(
        o.contains("[0] s64[3] summary: min -8, max 9, mean 2.6666666666666665"),
        "{o}"
    );
    assert!(o.contains("[1] s32 summary: min 1, max 1, mean 1"), "{o}");
    assert!(!e.contains("failed"), "the thens held: {e}");
}

#[test]
fn run_precision_and_summary_flags() {
    let prog = "f32 1 / f32 3\nc64 (0.123456, 2)\nIota(f32[2000], 0)\nbf16 3.140625\n";
    let out = xlet(&["run", "--precision", "2", "--summary", "-"], prog);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "f32 0.33\nc64 (0.12, 2)\nf32[2000] summary: min 0, max 2000, mean 1000, nan 0\nbf16 3.1\n"
    );
    let out = xlet(&["run", "--precision", "18", "-"], prog);
    assert_eq!(out.status.code(), Some(3));
}
