//! Ctrl-C inside one long kernel (spec/performance.md §2): the kernel itself sees
//! `eval::INTERRUPTED` and stops with an "interrupted" error, instead of the
//! evaluator noticing only once the op has finished.
//!
//! A test binary of its own, with one test: the flag is process-wide, and any
//! other test evaluating at the same time would see it.

use ndarray::{ArrayD, IxDyn};
use std::time::{Duration, Instant};
use xlet::check::Limits;
use xlet::eval::eval_top;
use xlet::ir::StmtKind;
use xlet::kernels::{Src, map1, map2, try_materialize};
use xlet::session::Session;
use xlet::value::{Array, Value};

fn big(dims: &[usize]) -> xlet::value::Nd<f32> {
    let n: usize = dims.iter().product();
    ArrayD::from_shape_vec(IxDyn(dims), (0..n).map(|i| i as f32).collect())
        .unwrap()
        .into_shared()
}

#[test]
fn a_long_kernel_stops_when_interrupted() {
    // 1. The flag already set when a kernel starts: every engine path refuses.
    let x = big(&[1024, 1024]);
    let t = x.clone().permuted_axes(IxDyn(&[1, 0]));
    let dims = [1024, 1024];
    xlet::config::raise_interrupt();
    let flat = map1(&dims, &Src::of(&x), |v| -v);
    let tiled = map2(&dims, &Src::of(&t), &Src::of(&x), |a, b| a + b);
    let copy = try_materialize(&dims, &Src::of(&t));
    xlet::config::clear_interrupt();
    for (what, r) in [
        ("flat", flat.map(|_| ())),
        ("tiled", tiled.map(|_| ())),
        ("copy", copy.map(|_| ())),
    ] {
        let e = r.err().unwrap_or_else(|| panic!("{what}: ran to the end"));
        assert_eq!(e.code.to_string(), "interrupted", "{what}");
    }
    // And with the flag clear they run.
    assert!(map1(&dims, &Src::of(&x), |v| -v).is_ok());

    // 2. Set from another thread while one fused op runs: a chain of 100 Tanh over
    // 16M elements is one kernel call taking seconds; it must stop within a fraction.
    let mut s = Session::new(Limits::default());
    let v = Value::Array(Array::F32(big(&[4096, 4096])));
    s.types.globals.insert("X".into(), v.ty());
    s.env.values.insert("X".into(), v);
    let expr = (0..100).fold("X * 0.001".to_string(), |e, _| format!("Tanh({e})"));
    interrupted_in_time(&s, &expr, 50, 2);

    // 3. One output whose window is 2^32 positions long, nearly all of them
    // holes of the base dilation (each reduced with the init value): a single
    // fold runs for minutes, and must check the flag inside, not only between
    // outputs. (Padding around the operand is skipped, see 4; holes between
    // its elements are visited.)
    let window = "ReduceWindow(f32[3] {1, 2, 3}, 0, add, {4294967296}, {1}, {{1, 0}}, base_dilations={2147483647})";
    interrupted_in_time(&s, window, 200, 3);

    // 4. The same huge window with SAME padding around three elements: only
    // the blocks of positions that reach an element are visited; the runs of
    // padding enter the reduction tree whole (issue 21: 10^12 positions were
    // visited one by one).
    for w in ["4294967296", "1000000000000"] {
        let src = format!("ReduceWindow(f32[3] {{1, 2, 3}}, 0, add, {{{w}}}, {{1}}, SAME)");
        let (prog, _) = s.check(&src).unwrap_or_else(|f| panic!("{:?}", f.diags));
        let StmtKind::Print(e) = &prog.stmts[0].kind else {
            panic!("not an expression")
        };
        let start = Instant::now();
        let v = eval_top(e, &s.env).unwrap_or_else(|d| panic!("{src}: {}", d.message));
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{src}: {:?}",
            start.elapsed()
        );
        assert_eq!(
            xlet::print::format_value(&v, &Default::default()),
            "f32[3] {6, 6, 6}",
            "{src}"
        );
    }

    // 5. While loops that run through their execution plans (spec/plan.md):
    // the scalar tier and the register machine poll the flag every iteration.
    struct Quiet;
    impl xlet::eval::Output for Quiet {
        fn print(&mut self, _: &Value, _: &xlet::ir::Expr) {}
    }
    let loops = "comp forever(i: s64) -> pred { i >= 0 }\n\
                 comp count(i: s64) -> s64 { i + 1 }\n\
                 comp forever2(x: (s64, f32[4])) -> pred { GetTupleElement(x, 0) >= 0 }\n\
                 comp step2(x: (s64, f32[4])) -> (s64, f32[4]) {\n\
                   (GetTupleElement(x, 0) + 1, GetTupleElement(x, 1) * 0.5)\n\
                 }\n";
    s.run(loops, &mut Quiet)
        .unwrap_or_else(|f| panic!("{:?}", f.diags));
    let before = xlet_plan::runs_on_this_thread();
    interrupted_in_time(&s, "While(forever, count, s64 0)", 50, 2);
    interrupted_in_time(
        &s,
        "While(forever2, step2, (s64 0, f32[4] {1, 2, 3, 4}))",
        50,
        2,
    );
    assert_eq!(
        xlet_plan::runs_on_this_thread(),
        before + 2,
        "a loop took no plan"
    );
}

/// Evaluates `expr` while another thread sets the flag after `after_ms`: the
/// evaluation must fail as interrupted within `within_s` seconds.
fn interrupted_in_time(s: &Session, expr: &str, after_ms: u64, within_s: u64) {
    let (prog, _) = s.check(expr).unwrap_or_else(|f| panic!("{:?}", f.diags));
    let StmtKind::Print(e) = &prog.stmts[0].kind else {
        panic!("not an expression")
    };
    let setter = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(after_ms));
        xlet::config::raise_interrupt();
    });
    let start = Instant::now();
    let r = eval_top(e, &s.env);
    let took = start.elapsed();
    setter.join().unwrap();
    xlet::config::clear_interrupt();
    let d = r
        .err()
        .unwrap_or_else(|| panic!("{expr}: ran to the end despite Ctrl-C"));
    assert_eq!(d.code.to_string(), "interrupted");
    assert!(
        took < Duration::from_secs(within_s),
        "{expr}: stopped only after {took:?}"
    );
}
