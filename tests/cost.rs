//! Time and memory grow with what is shown or read (issue 5): printing, parsing,
//! profiling, diagnostics, and reading sources, run through the real binary.
//! Bounds are generous (CI has 2 loaded cores); the quadratic or unbounded
//! behaviour these guard against took tens of seconds or gigabytes.

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn xlet(args: &[&str], stdin: &[u8]) -> (Output, Duration) {
    let t = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_xlet"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("xlet starts");
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().expect("xlet runs");
    let _ = feeder.join();
    (out, t.elapsed())
}

fn run(src: &str, extra: &[&str]) -> (Output, Duration) {
    let mut args = vec!["run"];
    args.extend_from_slice(extra);
    args.push("-");
    xlet(&args, src.as_bytes())
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn eliding_a_big_array_is_fast() {
    // f32[8192x8192] (256 MiB): formatting every element took 20 s and 3.9 GB.
    let (out, t) = run("Iota(f32[8192x8192], 1)\n", &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(
        s.starts_with("f32[8192x8192] {{0, 1, 2, ..., 8189, 8190, 8191},\n"),
        "{s}"
    );
    assert_eq!(s.lines().count(), 7);
    assert!(t < Duration::from_secs(15), "took {t:?}");
}

#[test]
fn a_rank_8000_array_prints_in_linear_time() {
    let ones = vec!["1"; 8000].join(", ");
    let (out, t) = run(&format!("Reshape(f32[1] {{7}}, {{{ones}}})\n"), &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(
        s.trim_end()
            .ends_with(&format!("{}7{}", "{".repeat(8000), "}".repeat(8000)))
    );
    assert!(t < Duration::from_secs(15), "took {t:?}");
}

#[test]
fn empty_arrays_with_a_huge_dimension_print_elided() {
    let (out, t) = run(
        "Broadcast(f32[0] {}, {100000000})\nReshape(s32[0] {}, {100000000, 0, 5})\n",
        &[],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "f32[100000000x0] {{}, {}, {}, ..., {}, {}, {}}\ns32[100000000x0x5] {{}, {}, {}, ..., {}, {}, {}}\n"
    );
    assert!(t < Duration::from_secs(15), "took {t:?}");
}

#[test]
fn a_failed_assertion_on_a_big_array_shows_counts_not_everything() {
    // 16 MiB per side: formatting both whole values used to take ~10x the array in memory.
    let (out, t) = run(
        "let a = Iota(f32[2048x2048], 1)\nthen a == Iota(f32[2048x2048], 0)\n",
        &[],
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let e = text(&out.stderr);
    assert!(
        e.contains("values differ at index [0, 1]: actual 1, expected 0"),
        "{e}"
    );
    assert!(e.contains("of 4194304 elements differ"), "{e}");
    assert!(e.len() < 20_000, "the report is {} bytes", e.len());
    assert!(t < Duration::from_secs(20), "took {t:?}");
}

#[test]
fn a_failed_approx_shows_the_tolerance_and_suggests_within() {
    let (out, _) = run("then f32 1.1 ~= f32 1\n", &[]);
    assert_eq!(out.status.code(), Some(1));
    let e = text(&out.stderr);
    assert!(
        e.contains("1e-5 being the default tolerance for f32"),
        "{e}"
    );
    assert!(e.contains("within"), "{e}");
}

#[test]
fn profile_is_linear_in_statements() {
    // 40,000 lets: quadratic line numbering took 20-40 s.
    let src: String = (0..40_000)
        .map(|i| format!("let a{i} = s32 {i}\n"))
        .collect();
    let (out, t) = run(&src, &["--profile"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let e = text(&out.stderr);
    assert!(
        e.contains("<stdin>:40000: let a39999 = s32 39999"),
        "{}",
        &e[e.len().saturating_sub(500)..]
    );
    assert!(t < Duration::from_secs(20), "took {t:?}");
}

#[test]
fn many_diagnostics_render_in_linear_time() {
    // 20,000 errors: one ariadne Source per diagnostic took 10-30 s.
    let src: String = (0..20_000)
        .map(|i| format!("let b{i} = Neg(nope{i})\n"))
        .collect();
    let (out, t) = xlet(&["check", "-"], src.as_bytes());
    assert_eq!(out.status.code(), Some(2));
    let e = text(&out.stderr);
    // Only the first 50 are rendered (spec/commands.md); all are counted.
    assert!(
        e.contains("<stdin>:50:") && e.contains("<stdin>: 20000 type/shape errors"),
        "{}",
        &e[e.len().saturating_sub(500)..]
    );
    assert!(t < Duration::from_secs(20), "took {t:?}");
}

#[test]
fn a_large_literal_parses_fast() {
    // 1,000,000 numbers, ~10 MB: the general lexer and parser alone needed ~15 s.
    let body: Vec<String> = (0..1_000_000)
        .map(|i| format!("{:.6}", (i as f64 * 0.37).sin()))
        .collect();
    let src = format!("let w = f32[1000000] {{{}}}\n", body.join(", "));
    let (out, t) = xlet(&["check", "-"], src.as_bytes());
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(t < Duration::from_secs(20), "took {t:?}");
}

#[test]
fn an_endless_source_is_refused() {
    // A device is not read at all (the cap on what is read is tested in
    // source::tests::reading_stops_at_the_cap).
    let (out, t) = xlet(&["run", "/dev/zero"], b"");
    assert_eq!(out.status.code(), Some(3));
    let e = text(&out.stderr);
    assert!(
        e.contains("cannot read /dev/zero: it is a character device, not a regular file"),
        "{e}"
    );
    assert!(t < Duration::from_secs(20), "took {t:?}");
}

#[test]
fn invalid_utf8_is_reported_with_line_and_column() {
    let (out, _) = xlet(&["run", "-"], b"let a = 1\nlet b\xff = 2\n");
    assert_eq!(out.status.code(), Some(3));
    let e = text(&out.stderr);
    assert!(
        e.contains("<stdin>: invalid UTF-8 at line 2, column 6"),
        "{e}"
    );
}

#[test]
fn errors_on_one_long_line_cost_what_they_show() {
    // Found by the fuzzer (spec/fuzzing.md): ~2000 syntax errors on one 40 KB
    // line printed that whole line under every one of them (70 MB of stderr,
    // seconds). Now: the first 50, each with an excerpt of the line.
    let line = "then Broadcast(Transpose(m,".repeat(1500);
    let src = format!("let m = f32[2] {{1, 2}}\n{line}\nthen m == m\n");
    let (out, t) = xlet(&["check", "-"], src.as_bytes());
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.len() < 100_000, "{} bytes of diagnostics", err.len());
    assert!(
        err.contains("more (only the first 50 are shown)"),
        "{err:.2000}"
    );
    assert!(err.contains('…'), "{err:.2000}");
    assert!(t < Duration::from_secs(10), "took {t:?}");
}

#[test]
fn many_syntax_errors_cost_linear_time() {
    // Found while timing hostile inputs: each syntax error was compared with every
    // earlier one to drop repeats, so 100,000 of them took about 13 s (800,000:
    // minutes). Now a set: about a second.
    let src: String = (0..100_000)
        .map(|i| format!("comp c{i}(x: g32) -> g32 {{ x }}\n"))
        .collect();
    let (out, t) = xlet(&["check", "-"], src.as_bytes());
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("more (only the first 50 are shown)"));
    assert!(t < Duration::from_secs(8), "took {t:?}");
}

/// A While that never ends stops at `--max-steps` with a `steps` error (exit 1),
/// on both the compiled scalar loop and the evaluator's loop (issue 6).
#[test]
fn max_steps_stops_endless_loops() {
    for src in [
        "comp t(x: s32) -> pred { true }\ncomp b(x: s32) -> s32 { x + 1 }\nWhile(t, b, s32 0)\n",
        "comp t(x: (s32, f32[2])) -> pred { true }\n\
         comp b(x: (s32, f32[2])) -> (s32, f32[2]) { (GetTupleElement(x, 0) + 1, GetTupleElement(x, 1)) }\n\
         While(t, b, (s32 0, f32[2] {1, 2}))\n",
    ] {
        let (out, took) = run(src, &["--max-steps", "5000"]);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(err.contains("more than 5000 iterations"), "{err}");
        assert!(took < Duration::from_secs(20), "{took:?}");
    }
    // Under the limit the loop runs to its end.
    let src = "comp c(x: s32) -> pred { x < 5000 }\ncomp b(x: s32) -> s32 { x + 1 }\nthen While(c, b, s32 0) == s32 5000\n";
    let (out, _) = run(src, &["--max-steps", "5000"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn dynamic_update_slice_in_a_while_writes_in_place() {
    // 2000 row writes into a 40 MB While state. In place each costs a row; a
    // copy of the state per write would move 160 GB (minutes). The operand is
    // the state the loop hands over, read last through GetTupleElement.
    let src = "comp c(s: (s32, f32[10000x1000])) -> pred { GetTupleElement(s, 0) < 2000 }
comp b(s: (s32, f32[10000x1000])) -> (s32, f32[10000x1000]) {
  let i = GetTupleElement(s, 0)
  (i + 1, DynamicUpdateSlice(GetTupleElement(s, 1), Broadcast(f32 1, {1, 1000}), i, 0))
}
let r = While(c, b, (s32 0, Broadcast(f32 0, {10000, 1000})))
then Reduce(GetTupleElement(r, 1), f32 0, add, {0, 1}) == f32 2000000
";
    let (out, t) = run(src, &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(t < Duration::from_secs(10), "took {t:?}");
}
