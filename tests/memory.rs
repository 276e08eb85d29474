//! Hostile inputs against the memory limits (spec/language.md §8.3–8.5): each
//! runs the built binary with a small budget and must end quickly with a clear
//! message and exit code 0–3, never a panic, an abort or a blow-up.

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Runs `xlet ARGS...` with `stdin` piped in; returns the output and wall time.
fn xlet(args: &[&str], stdin: &str) -> (Output, Duration) {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_xlet"))
        .args(args)
        .arg("--no-color")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("xlet starts");
    let mut input = child.stdin.take().expect("stdin");
    input.write_all(stdin.as_bytes()).expect("write stdin");
    drop(input);
    let out = child.wait_with_output().expect("xlet runs");
    (out, start.elapsed())
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A script given on stdin to `xlet run -`.
fn run(args: &[&str], src: &str) -> (i32, String, String, Duration) {
    let mut all = vec!["run"];
    all.extend_from_slice(args);
    all.push("-");
    let (o, t) = xlet(&all, src);
    (
        o.status.code().unwrap_or(-1),
        text(&o.stdout),
        text(&o.stderr),
        t,
    )
}

#[test]
fn iota_with_a_zero_dimension_allocates_nothing_for_the_huge_one() {
    // Used to panic (capacity overflow), abort, or take 4 GB for an empty result.
    for src in [
        "let x = Iota(f32[0x1000000000000], 1)",
        "let x = Iota(s8[0x3000000000], 1)",
        "let x = Iota(f32[100000000000x0], 0)",
        "let x = Iota(s64[7x0x100000000000], 2)",
    ] {
        let (code, _, err, t) = run(&["--max-bytes", "0", "--max-memory", "64M"], src);
        assert_eq!(code, 0, "{src}: {err}");
        assert!(t < Duration::from_secs(10), "{src}: {t:?}");
    }
}

#[test]
fn a_value_over_the_memory_budget_is_an_error_before_it_is_made() {
    // 512 MiB asked for under a 64 MiB budget: refused up front, exit 1.
    let (code, _, err, t) = run(&["--max-memory", "64M"], "let x = Iota(f32[134217728], 0)");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("out of memory budget"), "{err}");
    assert!(
        err.contains("f32[134217728]") && err.contains("--max-memory"),
        "{err}"
    );
    assert!(t < Duration::from_secs(10));
}

#[test]
fn live_values_together_are_bounded_by_the_budget() {
    // Each value (40 MB) fits alone, the third does not fit beside the first two.
    let src = "let a = Iota(f32[10000000], 0)\nlet b = a + 1\nlet c = b * 2\nlet d = c - a";
    let (code, _, err, _) = run(&["--max-memory", "100M"], src);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("out of memory budget") && err.contains(":3:"),
        "{err}"
    );
}

#[test]
fn the_repl_refuses_a_binding_over_the_budget_and_unbind_makes_room() {
    let src = "let a = Iota(f32[10000000], 0)\nlet b = a + 1\nlet c = b * 2\n:unbind a, b\nlet c = Iota(f32[10000000], 0) * 2\n:vars\n";
    let (o, _) = xlet(&["--max-memory", "100M"], src);
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    // The third binding failed; after :unbind the same size fits.
    assert_eq!(o.status.code(), Some(1), "{out}\n{err}");
    assert_eq!(err.matches("[memory]").count(), 1, "{err}");
    assert!(
        out.contains("c     f32[10000000]  38.1 MiB (40000000 bytes)"),
        "{out}"
    );
    assert!(!out.contains("\na ") && !out.contains("\nb "), "{out}");
}

/// The process-heap total that `:vars` prints, in bytes.
fn live_bytes(vars_output: &str) -> usize {
    // `bound values N; process heap H (EXACT bytes) ...`: the heap is what
    // rebinding must free (the values alone would hide a leaked capture).
    let line = vars_output
        .lines()
        .rfind(|l| l.starts_with("bound values "))
        .unwrap_or_else(|| panic!("no totals in {vars_output}"));
    let heap = line.find("process heap").expect("the heap total");
    let line = &line[heap..];
    let open = line.find('(').expect("exact count");
    line[open + 1..]
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a number")
}

#[test]
fn rebinding_a_name_frees_its_old_value_even_after_a_comp_was_defined() {
    // A comp used to capture every binding, keeping `a`'s 40 MB alive forever.
    let src = "let a = Iota(f32[10000000], 0)\ncomp f(x: f32) -> f32 { x + 1 }\nlet a = 0\n:vars\n";
    let (o, _) = xlet(&[], src);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}{}", text(&o.stderr));
    assert!(live_bytes(&out) < 10_000_000, "{out}");
    // What a comp reads it keeps (and :vars says so); unbinding the comp frees it.
    let src = "let a = Iota(f32[10000000], 0)\ncomp f(x: f32[10000000]) -> f32[10000000] { x + a }\nlet a = 0\n:vars\n:unbind f\n:vars\n";
    let (o, _) = xlet(&[], src);
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}{}", text(&o.stderr));
    assert!(out.contains("captures 38.1 MiB (40000000 bytes)"), "{out}");
    let (before, after) = out.split_at(
        out.find(":unbind")
            .unwrap_or(out.len() / 2)
            .min(out.rfind("name").unwrap_or(0)),
    );
    let _ = after;
    assert!(live_bytes(before) > 40_000_000, "{out}");
    assert!(live_bytes(&out) < 10_000_000, "{out}");
}

#[test]
fn unbind_of_an_unknown_name_removes_nothing() {
    let (o, _) = xlet(&[], "let a = 1\n:unbind a zz\n:vars\n:del\n");
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(3), "{out}{err}");
    assert!(err.contains("not bound: `zz`"), "{err}");
    assert!(err.contains("usage: :del NAME..."), "{err}");
    assert!(out.contains("a     s32"), "{out}");
}

/// `comp g0(x: f32) -> f32 { x }` and n - 1 more, each calling the one before.
fn comp_chain(n: usize) -> String {
    let mut s = String::from("comp g0(x: f32) -> f32 { x }\n");
    for i in 1..n {
        s.push_str(&format!("comp g{i}(x: f32) -> f32 {{ g{}(x) }}\n", i - 1));
    }
    s.push_str(&format!("then g{}(f32 1) == f32 1\n", n - 1));
    s
}

#[test]
fn a_chain_of_comps_calling_each_other_is_bounded_like_expression_nesting() {
    // 100,000 links used to overflow the stack when run (800,000 after 20 s).
    let (code, _, err, t) = run(&[], &comp_chain(100_000));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("more than 10000"), "{err}");
    // One error, not one per later link.
    assert!(
        err.contains("1 type/shape error"),
        "{}",
        &err[err.len().saturating_sub(300)..]
    );
    assert!(t < Duration::from_secs(30), "{t:?}");
    // Just under the bound it runs (and does not overflow the stack).
    let (code, _, err, _) = run(&[], &comp_chain(9_999));
    assert_eq!(code, 0, "{err}");
}

#[test]
fn calls_count_with_the_nesting_around_them() {
    // A comp whose body nests 6000 levels, called from 6000 levels deep: 12000.
    // (`a + 1 + 1 ...` nests to the left: its first term is the deepest.)
    let chain = |first: &str| format!("{first}{}", " + f32 1".repeat(6000));
    let src = format!(
        "comp f(x: f32) -> f32 {{ {} }}\nlet y = {}\n",
        chain("x"),
        chain("f(f32 1)")
    );
    let (code, _, err, _) = run(&[], &src);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("calling `f` here nests evaluation"), "{err}");
}

#[test]
fn byte_counts_take_units() {
    let (code, _, err, _) = run(&["--max-memory", "lots"], "1");
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("not a byte count"), "{err}");
    let (code, _, err, _) = run(&["--max-bytes", "1K"], "let x = Iota(u8[2000], 0)");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("limit of 1024 bytes"), "{err}");
}

#[test]
fn a_planned_loop_admits_its_copy_of_the_state_both_ways() {
    // The state (40 MB) is a binding, so the loop must copy it before
    // updating it in place; beside two live 40 MB values the copy does not fit
    // under 100 MB, with execution plans (spec/plan.md) and without.
    let src = "let a = Iota(f32[10000000], 0)\n\
               let b = a + 1\n\
               comp c(s: (s32, f32[10000000])) -> pred { GetTupleElement(s, 0) < 3 }\n\
               comp u(s: (s32, f32[10000000])) -> (s32, f32[10000000]) {\n\
                 let i = GetTupleElement(s, 0)\n\
                 (i + 1, DynamicUpdateSlice(GetTupleElement(s, 1), f32[1] {7}, i))\n\
               }\n\
               let s = (s32 0, a)\n\
               let r = While(c, u, s)\n";
    for flags in [&[][..], &["--no-plan"][..]] {
        let mut args = vec!["--max-memory", "100M"];
        args.extend_from_slice(flags);
        let (code, _, err, _) = run(&args, src);
        assert_eq!(code, 1, "{flags:?}: {err}");
        assert!(
            err.contains("out of memory budget") && err.contains(":9:"),
            "{flags:?}: {err}"
        );
    }
}
