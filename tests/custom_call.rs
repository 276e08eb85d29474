//! CustomCall through a real shared library: tests/c/myfunc.c is compiled with
//! the system C compiler ($CC, else `cc`) into a library once per test run, and
//! the xlet binary calls it as a user would, with `--custom-call-lib` (and
//! `:lib` in the REPL). Also the bad inputs: no library named, a missing
//! symbol, a path that does not exist, a file that is not a library.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

/// The compiled library (built once; every test uses it).
fn lib() -> &'static Path {
    static LIB: OnceLock<PathBuf> = OnceLock::new();
    LIB.get_or_init(|| compile("myfunc"))
}

/// tests/c/crash.c compiled (built once).
fn crash_lib() -> &'static Path {
    static LIB: OnceLock<PathBuf> = OnceLock::new();
    LIB.get_or_init(|| compile("crash"))
}

/// tests/c/NAME.c compiled into libNAME.so in the test's temporary directory.
fn compile(name: &str) -> PathBuf {
    {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/c/{name}.c"));
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("custom_call");
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let out = dir.join(format!("lib{name}.so"));
        let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
        let status = Command::new(&cc)
            .args(["-shared", "-fPIC", "-O2", "-o"])
            .arg(&out)
            .arg(&src)
            .status()
            .unwrap_or_else(|e| panic!("running the C compiler `{cc}`: {e}"));
        assert!(
            status.success(),
            "`{cc}` failed to compile {}",
            src.display()
        );
        out
    }
}

/// `xlet FLAGS run -` on `script`.
fn run(flags: &[&str], script: &str) -> Output {
    xlet(flags, &["run", "-"], script)
}

fn xlet(flags: &[&str], cmd: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_xlet"))
        .args(flags)
        .args(cmd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("xlet starts");
    // xlet may end before reading its input (a usage error): a closed pipe is
    // then no failure, the exit code tells.
    if let Some(mut input) = child.stdin.take() {
        let _ = input.write_all(stdin.as_bytes());
    }
    child.wait_with_output().expect("xlet ends")
}

fn with_lib() -> Vec<&'static str> {
    vec!["--custom-call-lib", lib().to_str().expect("a UTF-8 path")]
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn assert_ok(o: &Output) {
    assert_eq!(o.status.code(), Some(0), "stderr:\n{}", stderr(o));
}

const SEED: &str = "let x = f32[2] {1,2}
let y = f32[2x3] {{10, 20, 30}, {40, 50, 60}}
let z = CustomCall(\"myfunc\", {x, y}, f32[3x3])
";

#[test]
fn seed_example_myfunc() {
    // Seed 002: z[0][0] = x[1] + y[1][0] = 2 + 40 = 42. myfunc.c writes 1 to
    // z[2][2] when the seed's EXPECT_EQ checks of its inputs all hold; the
    // rest is the zero xlet fills the result with.
    let o = run(
        &with_lib(),
        &format!("{SEED}then z == f32[3x3] {{{{42, 0, 0}}, {{0, 0, 0}}, {{0, 0, 1}}}}\n"),
    );
    assert_ok(&o);
}

#[test]
fn views_are_passed_row_major() {
    // The same call with y made by a transpose (a strided view): myfunc must
    // still see y's elements in row-major order.
    let o = run(
        &with_lib(),
        "let x = f32[2] {1,2}
let yt = f32[3x2] {{10, 40}, {20, 50}, {30, 60}}
let z = CustomCall(\"myfunc\", {x, Transpose(yt, {1, 0})}, f32[3x3])
then z == f32[3x3] {{42, 0, 0}, {0, 0, 0}, {0, 0, 1}}
",
    );
    assert_ok(&o);
}

#[test]
fn tuple_result() {
    // sum_and_trunc: (sum of x, x truncated toward zero).
    let o = run(
        &with_lib(),
        "let p = CustomCall(\"sum_and_trunc\", {f32[4] {1.5, -2.75, 3, 0.25}}, (f32[], s32[4]))
then GetTupleElement(p, 0) == f32 2
then GetTupleElement(p, 1) == s32[4] {1, -2, 3, 0}
",
    );
    assert_ok(&o);
}

#[test]
fn large_result() {
    // fill_large writes 2^24 f32 (64 MiB): z[i] = i mod 1000.
    let o = run(
        &with_lib(),
        "let z = CustomCall(\"fill_large\", {s64 16777216}, f32[16777216])
then Slice(z, {0}, {3}) == f32[3] {0, 1, 2}
then Slice(z, {16777215}, {16777216}) == f32[1] {215}
then Reduce(z, 0.0, max, {0}) == f32 999
then Slice(z, {999000}, {999003}) == f32[3] {0, 1, 2}
",
    );
    assert_ok(&o);
}

#[test]
fn result_is_admitted_under_the_memory_budget() {
    // 64 MiB does not fit a 16 MiB budget: a runtime error before the
    // function runs, not a crash.
    let mut flags = with_lib();
    flags.extend(["--max-memory", "16M"]);
    let o = run(
        &flags,
        "let z = CustomCall(\"fill_large\", {s64 16777216}, f32[16777216])\n",
    );
    assert_eq!(o.status.code(), Some(1), "stderr:\n{}", stderr(&o));
    assert!(stderr(&o).contains("memory budget"), "{}", stderr(&o));
}

#[test]
fn no_library_is_a_check_error_saying_how_to_enable_it() {
    let o = run(&[], SEED);
    assert_eq!(o.status.code(), Some(2), "stderr:\n{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("CustomCall: C2"), "{e}");
    assert!(e.contains("--custom-call-lib"), "{e}");
}

#[test]
fn missing_symbol_is_a_check_error_naming_the_library() {
    for cmd in [&["run", "-"][..], &["check", "-"][..]] {
        let o = xlet(
            &with_lib(),
            cmd,
            "let z = CustomCall(\"no_such_function\", {f32 1}, f32[])\nthen z == 0.0\n",
        );
        assert_eq!(o.status.code(), Some(2), "stderr:\n{}", stderr(&o));
        let e = stderr(&o);
        assert!(e.contains("CustomCall: C2"), "{e}");
        assert!(e.contains("no_such_function"), "{e}");
        assert!(e.contains("libmyfunc.so"), "{e}");
    }
}

#[test]
fn missing_path_is_a_usage_error() {
    let o = run(&["--custom-call-lib", "/nonexistent/libnothing.so"], SEED);
    assert_eq!(o.status.code(), Some(3), "stderr:\n{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains("/nonexistent/libnothing.so") && e.contains("no such file"),
        "{e}"
    );
}

#[test]
fn non_library_file_is_a_usage_error() {
    let c = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/c/myfunc.c");
    let o = run(&["--custom-call-lib", c], SEED);
    assert_eq!(o.status.code(), Some(3), "stderr:\n{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains("myfunc.c") && e.contains("could not be loaded"),
        "{e}"
    );
}

#[test]
fn repl_lib_command() {
    // `:lib` with a bad path says why and changes nothing; `:lib PATH` makes
    // the library's functions callable for the rest of the session.
    let lib = lib().to_str().expect("a UTF-8 path");
    let o = xlet(
        &[],
        &["repl"],
        &format!(
            ":lib /nonexistent/libnothing.so\n{SEED}:lib {lib}\n{SEED}GetTupleElement(CustomCall(\"sum_and_trunc\", {{f32[4] {{1, 2, 3, 4}}}}, (f32[], s32[4])), 0)\n:lib\n"
        ),
    );
    let (out, e) = (String::from_utf8_lossy(&o.stdout), stderr(&o));
    assert!(e.contains("no such file"), "{e}");
    assert!(e.contains("--custom-call-lib") && e.contains(":lib"), "{e}");
    assert!(out.contains("10"), "stdout:\n{out}\nstderr:\n{e}");
    assert!(out.contains("libmyfunc.so"), "stdout:\n{out}");
}

#[test]
fn a_crash_in_native_code_names_the_target() {
    // crash_null stores through the address it is given, here 0: SIGSEGV in
    // native code. Nothing can protect the process from that (spec "Safety"),
    // but before it ends by the signal, stderr names the target.
    let lib = crash_lib().to_str().expect("a UTF-8 path");
    for replicas in ["1", "3"] {
        let o = run(
            &["--custom-call-lib", lib, "--replicas", replicas],
            "let ok = f32[2] {1, 2} + 1\nlet z = CustomCall(\"crash_null\", {s64 0}, f32[])\n",
        );
        let e = stderr(&o);
        assert!(
            e.contains("CustomCall `crash_null` crashed in native code (SIGSEGV)"),
            "stderr:\n{e}"
        );
        assert!(!o.status.success(), "{:?}", o.status);
        #[cfg(unix)]
        {
            use std::os::unix::process::ExitStatusExt;
            assert_eq!(o.status.signal(), Some(libc_sigsegv()), "{:?}", o.status);
        }
    }
}

#[cfg(unix)]
fn libc_sigsegv() -> i32 {
    11 // SIGSEGV on every Unix xlet runs on (Linux, macOS, the BSDs)
}

#[test]
fn a_fault_outside_native_code_is_not_blamed_on_it() {
    // With the handler installed by an earlier call (the target ran and
    // returned), a deep program's own limits still hold and nothing is
    // reported about CustomCall: the run succeeds.
    let o = run(
        &with_lib(),
        &format!(
            "{SEED}then z == f32[3x3] {{{{42, 0, 0}}, {{0, 0, 0}}, {{0, 0, 1}}}}\nlet w = 1{}\n",
            " + 1".repeat(3000)
        ),
    );
    assert_ok(&o);
    assert!(!stderr(&o).contains("crashed"), "{}", stderr(&o));
}
