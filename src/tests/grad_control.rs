//! Finite-difference checks (tests.rs's `check`, its tolerance justified
//! there) of the rules of Collapse, Gather, Scatter, Sort, Map, Conditional,
//! While and BatchNormTraining; and the errors where no rule applies.

use crate::session::Session;
use crate::tests::grad::{Quiet, check};
use xlet_check::Limits;

/// The diagnostic of `Grad(f, ...)` on `src` (which must define `f` and the call).
fn grad_error(src: &str) -> String {
    let mut s = Session::new(Limits::default());
    match s.run(src, &mut Quiet) {
        Ok(_) => panic!("expected an error: {src}"),
        Err(f) => f
            .diags
            .iter()
            .map(|d| format!("[{}] {}", d.code, d.message))
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

#[test]
fn collapse_rule() {
    check(
        "comp f(x: f64[2x3x2]) -> f64 { Reduce(Tanh(Collapse(x, {0, 1})) * Iota(f64[6x2], 0), 0.0, add, {0, 1}) }",
    );
}

/// Gather: one-number starts with an index past the end (clamped to the last
/// row), repeated rows (their cotangents add), index vectors with slices of 2
/// (one start clamped in both dimensions), and batching dimensions.
#[test]
fn gather_rules() {
    check(
        "comp f(x: f64[5x3]) -> f64 { Reduce(Tanh(Gather(x, s32[5] {0, 4, 2, 7, 0}, offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1, 3})) * Iota(f64[5x3], 0), 0.0, add, {0, 1}) }",
    );
    check(
        "comp f(x: f64[4x5]) -> f64 { Reduce(Tanh(Gather(x, s32[3x2] {{0, 0}, {3, 4}, {1, -2}}, offset_dims={1, 2}, start_index_map={0, 1}, index_vector_dim=1, slice_sizes={2, 2})) * Iota(f64[3x2x2], 1), 0.0, add, {0, 1, 2}) }",
    );
    check(
        "comp f(x: f64[2x4x3]) -> f64 { Reduce(Tanh(Gather(x, s32[2x1] {{1}, {3}}, offset_dims={1}, collapsed_slice_dims={1}, start_index_map={1}, index_vector_dim=1, slice_sizes={1, 1, 3}, operand_batching_dims={0}, start_indices_batching_dims={0})) * Iota(f64[2x3], 1), 0.0, add, {0, 1}) }",
    );
}

/// Scatter with add: a repeated index (both updates land), a window that does
/// not fit (skipped: its update's gradient is zero), and index vectors.
#[test]
fn scatter_rules() {
    check(
        "comp f(x: f64[5x3], u: f64[4x3]) -> f64 { Reduce(Tanh(Scatter(x, s32[4] {0, 4, 0, 7}, u, add, update_window_dims={1}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1)) * Iota(f64[5x3], 0), 0.0, add, {0, 1}) }",
    );
    check(
        "comp f(x: f64[4x5], u: f64[3x2x2]) -> f64 { Reduce(Tanh(Scatter(x, s32[3x2] {{0, 0}, {2, 3}, {3, 1}}, u, add, update_window_dims={1, 2}, scatter_dims_to_operand_dims={0, 1}, index_vector_dim=1)) * Iota(f64[4x5], 1), 0.0, add, {0, 1}) }",
    );
}

/// The update of a skipped window gets exactly zero.
#[test]
fn scatter_skipped_window_gets_zero() {
    let mut s = Session::new(Limits::default());
    s.run(
        "comp f(u: f32[2]) -> f32 { Reduce(Scatter(f32[3] {0, 0, 0}, s32[2] {1, 5}, u, add, update_window_dims={}, inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1), 0.0, add, {0}) }
         then Grad(f, f32[2] {1, 1}) == f32[2] {1, 0}",
        &mut Quiet,
    )
    .unwrap_or_else(|f| panic!("{:?}", f.diags));
}

#[test]
fn sort_rules() {
    // Ascending along the last dimension; the weights make each sorted
    // position count differently.
    check(
        "comp f(x: f64[2x5]) -> f64 { Reduce(Tanh(Sort(x)) * Iota(f64[2x5], 1), 0.0, add, {0, 1}) }",
    );
    // Two operands sorted together by the first, descending, along dimension 0.
    check(
        "comp gt(a: f64, b: f64, c: f64, d: f64) -> pred { Gt(a, b) }
         comp f(x: f64[4x2], y: f64[4x2]) -> f64 {
           let s = Sort({x, y}, comparator=gt, dimension=0)
           Reduce(Tanh(GetTupleElement(s, 0) * Iota(f64[4x2], 0)) + GetTupleElement(s, 1) * Iota(f64[4x2], 0), 0.0, add, {0, 1})
         }",
    );
    // A comparator the native sort cannot stand in for, and an integer operand.
    check(
        "comp by_sum(a: f64, b: f64, c: s32, d: s32, e: f64, g: f64) -> pred { Lt(a + e, b + g) }
         comp f(x: f64[5], y: f64[5]) -> f64 {
           let s = Sort({x, Iota(s32[5], 0), y}, comparator=by_sum)
           Reduce(Tanh(GetTupleElement(s, 0) * Iota(f64[5], 0)) * GetTupleElement(s, 2), 0.0, add, {0})
         }",
    );
}

#[test]
fn map_rules() {
    check(
        "comp h(a: f64, b: f64) -> f64 { Sin(a) * b + Exp(b) }
         comp f(x: f64[2x3], y: f64[2x3]) -> f64 { Reduce(Tanh(Map({x, y}, h)), 0.0, add, {0, 1}) }",
    );
    // An integer operand, and a computation that calls another.
    check(
        "comp sq(a: f64) -> f64 { a * a }
         comp h(a: f64, k: s32) -> f64 { sq(a) * ConvertElementType(k, f64) }
         comp f(x: f64[4]) -> f64 { Reduce(Tanh(Map({x, Iota(s32[4], 0)}, h)), 0.0, add, {0}) }",
    );
}

/// The Map of a gradient compiles into the fused engine (the vjp comp it
/// calls is compiled in place), rather than calling a comp per element.
#[test]
fn map_gradient_is_vectorised() {
    let mut s = Session::new(Limits::default());
    s.run(
        "comp h(a: f64, b: f64) -> f64 { Sin(a) * b }
         comp f(x: f64[3], y: f64[3]) -> f64 { Reduce(Map({x, y}, h), 0.0, add, {0}) }",
        &mut Quiet,
    )
    .unwrap_or_else(|f| panic!("{:?}", f.diags));
    let text = s.gradient_source("f").expect("source");
    s.run(&text, &mut Quiet)
        .unwrap_or_else(|f| panic!("{text}\n{:?}", f.diags));
    let helper = s.types.comps.get("h_d0").expect("the helper comp h_d0");
    assert!(
        xlet_eval::comp::Vectorized::compile(helper).is_some(),
        "{text}"
    );
}

#[test]
fn conditional_rules() {
    let branches = "comp t(x: f64[3]) -> f64[3] { Tanh(x) * 2.0 }
         comp e(y: (f64[3], f64[3])) -> f64[3] { Sin(GetTupleElement(y, 0)) * GetTupleElement(y, 1) }";
    // Inputs are in [0.5, 1.5]: the sum is above 1 (true branch) and below 10.
    for bound in ["1.0", "10.0"] {
        check(&format!(
            "{branches}
             comp f(p: f64[3], q: f64[3]) -> f64 {{
               let c = Gt(Reduce(p, 0.0, add, {{0}}), {bound})
               Reduce(Conditional(c, p, t, (q, p), e), 0.0, add, {{0}})
             }}"
        ));
    }
    // The index form, each branch taken (and an index out of range: the last).
    for k in [0, 1, 2, 7] {
        check(&format!(
            "{branches}
             comp u(z: f64[3]) -> f64[3] {{ Exp(z) }}
             comp f(p: f64[3], q: f64[3]) -> f64 {{
               Reduce(Conditional({k}, {{t, e, u}}, {{p, (q, p), q}}), 0.0, add, {{0}})
             }}"
        ));
    }
}

#[test]
fn while_rules() {
    let loop_ = "comp more(s: (s32, f64[3])) -> pred { Lt(GetTupleElement(s, 0), 4) }
         comp step(s: (s32, f64[3])) -> (s32, f64[3]) {
           let x = GetTupleElement(s, 1)
           (GetTupleElement(s, 0) + 1, Sin(x) * 1.5 + x * x * 0.25)
         }";
    check(&format!(
        "{loop_}
         comp f(x: f64[3]) -> f64 {{ Reduce(GetTupleElement(While(more, step, (0, x)), 1), 0.0, add, {{0}}) }}"
    ));
    // A counter that starts through a binding and counts down with `>`; a body
    // that reads a top-level value (called, not written in place).
    check(
        "let k = f64[3] {0.5, 1.0, 1.5}
         comp more(s: (s32, f64[3])) -> pred { GetTupleElement(s, 0) > 0 }
         comp step(s: (s32, f64[3])) -> (s32, f64[3]) {
           (GetTupleElement(s, 0) - 1, Tanh(GetTupleElement(s, 1) * k))
         }
         comp f(x: f64[3]) -> f64 { let n = 3; let s = While(more, step, (n, x)); Reduce(GetTupleElement(s, 1), 0.0, add, {0}) }",
    );
}

/// The generated source of `f`'s gradient (`src` defines `f`).
fn gradient_text(src: &str) -> String {
    let mut s = Session::new(Limits::default());
    s.run(src, &mut Quiet)
        .unwrap_or_else(|f| panic!("{src}\n{:?}", f.diags));
    s.gradient_source("f")
        .unwrap_or_else(|m| panic!("{src}\n{m}"))
}

/// `check`s `src` and that its While was written out in exactly `trips`
/// iterations (not left to the data-dependent rule, which would give the same
/// values: this is what tells the two apart).
fn written_out(src: &str, trips: usize) {
    check(src);
    let text = gradient_text(src);
    assert!(
        text.contains(&format!("iteration {trips} of {trips}:"))
            && !text.contains("_record")
            && !text.contains(&format!("iteration {} of", trips + 1)),
        "{src}\nexpected {trips} iterations written out:\n{text}"
    );
}

/// The trip count is found on the checked program, by what the counter
/// computes: issue 20's program (explicit `Tuple`, `Add` and typed literals),
/// a counter in another position compared with the literal on the left, the
/// lower-case `add` alias, bounds and steps through `let`s and folded
/// arithmetic, decrements with `Ge`, `Ne` and `Le`, and a counter that doubles.
#[test]
fn while_trip_count_by_meaning() {
    let sum = "Reduce(GetTupleElement(w, 1), 0.0, add, {0})";
    // Issue 20, exactly as reported (f32): 3 doublings of x, so d/dx sum(8x) = 8.
    let issue = "comp cond(t: (s32, f32[3])) -> pred { Lt(GetTupleElement(t, 0), s32 3) }
         comp body(t: (s32, f32[3])) -> (s32, f32[3]) {
           let i = GetTupleElement(t, 0)
           Tuple(Add(i, s32 1), Mul(GetTupleElement(t, 1), f32 2))
         }
         comp f(x: f32[3]) -> f32 { Reduce(GetTupleElement(While(cond, body, Tuple(s32 0, x)), 1), f32 0, add, {0}) }";
    let mut s = Session::new(Limits::default());
    s.run(
        &format!("{issue}\nthen Grad(f, f32[3] {{1, 2, 3}}) == f32[3] {{8, 8, 8}}"),
        &mut Quiet,
    )
    .unwrap_or_else(|f| panic!("{:?}", f.diags));
    assert!(gradient_text(issue).contains("iteration 3 of 3:"));

    let step = "Sin(x) * 1.5 + x * x * 0.25";
    // The counter second, the literal on the left, `add` in lower case.
    written_out(
        &format!(
            "comp more(t: (f64[3], s32)) -> pred {{ Gt(s32 4, GetTupleElement(t, 1)) }}
             comp step(t: (f64[3], s32)) -> (f64[3], s32) {{
               let x = GetTupleElement(t, 0)
               Tuple({step}, add(s32 1, GetTupleElement(t, 1)))
             }}
             comp f(x: f64[3]) -> f64 {{ let w = While(more, step, Tuple(x, s32 0)); Reduce(GetTupleElement(w, 0), 0.0, add, {{0}}) }}"
        ),
        4,
    );
    // Start, bound and step folded from `let`s and arithmetic; counting down.
    for (cond, trips) in [
        ("Ge(i, lo)", 3), // 5, 4, 3
        ("Ne(i, lo)", 2), // 5, 4
        ("Le(lo, i)", 3),
        ("Gt(i, Sub(lo, s32 1))", 3),
    ] {
        written_out(
            &format!(
                "comp more(t: (s32, f64[3])) -> pred {{ let i = GetTupleElement(t, 0); let lo = s32 6 - s32 3; {cond} }}
                 comp step(t: (s32, f64[3])) -> (s32, f64[3]) {{
                   let x = GetTupleElement(t, 1)
                   let one = s32 2 - s32 1
                   (Sub(GetTupleElement(t, 0), one), {step})
                 }}
                 comp f(x: f64[3]) -> f64 {{ let n = s32 2 + s32 3; let s = Tuple(n, x); let w = While(more, step, s); {sum} }}"
            ),
            trips,
        );
    }
    // A counter that doubles: 1, 2, 4, ..., 64 (7 iterations below 100).
    written_out(
        &format!(
            "comp more(t: (s32, f64[3])) -> pred {{ GetTupleElement(t, 0) < 100 }}
             comp step(t: (s32, f64[3])) -> (s32, f64[3]) {{
               let x = GetTupleElement(t, 1)
               (Mul(GetTupleElement(t, 0), s32 2), Tanh(x) + x * 0.5)
             }}
             comp f(x: f64[3]) -> f64 {{ let w = While(more, step, (1, x)); {sum} }}"
        ),
        7,
    );
}

/// A While whose trip count depends on data: recorded and replayed. Doubling
/// x until it reaches 100 (a state of one array, no counter); a tuple state
/// whose condition reads the float data; one that also carries an integer the
/// body reads; and one that never runs (its gradient is the identity).
#[test]
fn while_data_dependent() {
    check(
        "comp more(x: f64) -> pred { Lt(x, 100.0) }
         comp step(x: f64) -> f64 { x * 2.0 }
         comp f(x: f64) -> f64 { While(more, step, x) * x }",
    );
    check(
        "comp more(s: (s32, f64[3])) -> pred { Lt(Reduce(GetTupleElement(s, 1), 0.0, add, {0}), 40.0) }
         comp step(s: (s32, f64[3])) -> (s32, f64[3]) {
           let x = GetTupleElement(s, 1)
           let k = ConvertElementType(GetTupleElement(s, 0), f64)
           (GetTupleElement(s, 0) + 1, x * 1.25 + Sin(x) * k + 0.5)
         }
         comp f(x: f64[3], y: f64[3]) -> f64 { Reduce(GetTupleElement(While(more, step, (0, x * y)), 1) * y, 0.0, add, {0}) }",
    );
    let text = gradient_text(
        "comp more(x: f64) -> pred { Lt(x, 100.0) }
         comp step(x: f64) -> f64 { x * 2.0 }
         comp f(x: f64) -> f64 { While(more, step, x) }",
    );
    for part in [
        "comp more_record(",
        "comp step_record(",
        "comp step_back(",
        "comp step_again(",
    ] {
        assert!(text.contains(part), "{part}\n{text}");
    }
    let mut s = Session::new(Limits::default());
    s.run(
        "comp more(x: f32) -> pred { Lt(x, 100.0) }
         comp step(x: f32) -> f32 { x * 2.0 }
         comp f(x: f32) -> f32 { While(more, step, x) }
         then Grad(f, f32 3.0) == f32 64.0
         then Grad(f, f32 1.5) == f32 128.0
         then Grad(f, f32 200.0) == f32 1.0",
        &mut Quiet,
    )
    .unwrap_or_else(|f| panic!("{:?}", f.diags));
}

/// spec/grad.md §4.5 shows what `xlet grad` prints for a loop whose trip
/// count depends on data; it is exactly what is generated.
#[test]
fn while_data_dependent_source() {
    let spec = include_str!("../../spec/grad.md");
    let at = spec
        .find("double `x` until it\nreaches 100")
        .expect("the example in spec/grad.md §4.5");
    let start = spec[at..]
        .find("```\n")
        .map(|i| at + i + 4)
        .expect("its code block");
    let end = spec[start..]
        .find("```")
        .map(|i| start + i)
        .expect("its end");
    let text = gradient_text(
        "comp more(x: f32) -> pred { Lt(x, 100.0) }
         comp double(x: f32) -> f32 { x * 2.0 }
         comp f(x: f32) -> f32 { While(more, double, x) }",
    );
    assert_eq!(text.trim_end(), spec[start..end].trim_end());
}

/// The stack's slots: as many states as fit in `STACK_BYTES`, at least one.
#[test]
fn while_stack_slots() {
    use xlet_grad::while_loop::{MAX_SLOTS, STACK_BYTES, slots};
    assert_eq!(slots(12), MAX_SLOTS);
    assert_eq!(slots(0), MAX_SLOTS);
    assert_eq!(slots(STACK_BYTES / 10), 10);
    assert_eq!(slots(STACK_BYTES + 1), 1);
}

/// A state too large to stack every iteration of: an inactive f32[1024x1024]
/// (4 MiB, so 15 slots) carried along, and 17 to 19 iterations (the sum grows
/// by about 2.2 a step from 1..3 to 40), the last of whose states are replayed
/// from the 15th. The step is well conditioned (derivative 1 + 0.1 cos x), so
/// that central differences stay accurate over the whole loop (a step that
/// doubles x amplifies h = 1e-5 to O(10) after 20 steps, where they are not).
#[test]
fn while_data_dependent_past_the_stack() {
    let src = "comp more(s: (f64[2], f32[1024x1024])) -> pred { Lt(Reduce(GetTupleElement(s, 0), 0.0, add, {0}), 40.0) }
         comp step(s: (f64[2], f32[1024x1024])) -> (f64[2], f32[1024x1024]) {
           let x = GetTupleElement(s, 0)
           (x + 1.0 + Sin(x) * 0.1, GetTupleElement(s, 1))
         }
         comp f(x: f64[2]) -> f64 {
           let w = While(more, step, (x, Broadcast(f32 0, {1024, 1024})))
           Reduce(Sin(GetTupleElement(w, 0)), 0.0, add, {0})
         }";
    check(src);
    let text = gradient_text(src);
    assert!(text.contains("f32[16x1024x1024]"), "{text}");
}

/// A loop too long to write out (40000 iterations of a 3-binding body) is
/// recorded and replayed instead.
#[test]
fn while_too_long_to_write_out_is_recorded() {
    let src = "comp more(s: (s32, f64)) -> pred { Lt(GetTupleElement(s, 0), 40000) }
         comp step(s: (s32, f64)) -> (s32, f64) {
           let x = GetTupleElement(s, 1)
           let a = Sin(x)
           let b = a * 0.0001
           (GetTupleElement(s, 0) + 1, x + b)
         }
         comp f(x: f64) -> f64 { GetTupleElement(While(more, step, (0, x)), 1) }";
    check(src);
    let text = gradient_text(src);
    assert!(
        text.contains("step_record") && !text.contains("iteration 1 of"),
        "{text}"
    );
}

/// Where a stacked gradient cannot be written: a data-dependent loop whose
/// state has a tuple inside.
#[test]
fn while_data_dependent_nested_state() {
    let msg = grad_error(
        "comp more(s: (s32, (f64, f64))) -> pred { Lt(GetTupleElement(GetTupleElement(s, 1), 0), 10.0) }
         comp step(s: (s32, (f64, f64))) -> (s32, (f64, f64)) {
           let p = GetTupleElement(s, 1)
           (GetTupleElement(s, 0) + 1, (GetTupleElement(p, 0) * 2.0, GetTupleElement(p, 1)))
         }
         comp f(x: f64) -> f64 { GetTupleElement(GetTupleElement(While(more, step, (0, (x, x))), 1), 0) }
         let g = Grad(f, f64 1.5)",
    );
    assert!(
        msg.contains("C5") && msg.contains("While") && msg.contains("tuple inside"),
        "{msg}"
    );
    // An inactive While (it does not depend on x) needs no rule at all.
    let mut s = Session::new(Limits::default());
    s.run(
        "comp more(s: (s32, f64)) -> pred { Lt(GetTupleElement(s, 1), 10.0) }
         comp step(s: (s32, f64)) -> (s32, f64) { (GetTupleElement(s, 0) + 1, GetTupleElement(s, 1) * 2.0) }
         comp f(x: f64) -> f64 { x * GetTupleElement(While(more, step, (0, f64 1.0)), 1) }
         then Grad(f, f64 3.0) == f64 16.0",
        &mut Quiet,
    )
    .unwrap_or_else(|f| panic!("{:?}", f.diags));
}

/// Select with a scalar pred picks a whole operand (an array, or a tuple):
/// each branch taken.
#[test]
fn select_scalar_pred_rule() {
    for bound in ["1.0", "10.0"] {
        check(&format!(
            "comp f(x: f64[3], y: f64[3]) -> f64 {{
               let p = Gt(Reduce(x, 0.0, add, {{0}}), {bound})
               Reduce(Tanh(Select(p, x * y, y)), 0.0, add, {{0}})
             }}"
        ));
        check(&format!(
            "comp f(x: f64[3], y: f64) -> f64 {{
               let p = Lt(y, {bound})
               let t = Select(p, (x, y * y), (Sin(x), y))
               Reduce(GetTupleElement(t, 0), 0.0, add, {{0}}) * GetTupleElement(t, 1)
             }}"
        ));
    }
}

/// BatchNormTraining with all three results used (so the statistics'
/// cotangents count too).
#[test]
fn batch_norm_training_rule() {
    check(
        "comp f(x: f64[2x3x2], s: f64[3], o: f64[3]) -> f64 {
           let r = BatchNormTraining(x, s, o, 0.001, 1)
           let y = Reduce(Tanh(GetTupleElement(r, 0)) * Iota(f64[2x3x2], 2), 0.0, add, {0, 1, 2})
           let m = Reduce(GetTupleElement(r, 1) * Iota(f64[3], 0), 0.0, add, {0})
           y + m + Reduce(Sqrt(GetTupleElement(r, 2)), 0.0, add, {0})
         }",
    );
}

/// The gradient of `sum(y * gy)` for `y` BatchNormTraining's output is what the
/// BatchNormGrad op computes from the batch statistics.
#[test]
fn batch_norm_training_agrees_with_batch_norm_grad() {
    let mut s = Session::new(Limits::default());
    s.run(
        "let x = f32[2x2x3] {{{1, 2, 4}, {0, -1, 3}}, {{5, 2, 2}, {7, 1, -2}}}
         let gy = f32[2x2x3] {{{0.5, 1, -1}, {2, 0, 1}}, {{1, 1, 3}, {-2, 0.25, 1}}}
         let sc = f32[2] {1.5, -0.5}
         let of = f32[2] {0.1, 0.2}
         comp f(x: f32[2x2x3], s: f32[2], o: f32[2]) -> f32 {
           Reduce(GetTupleElement(BatchNormTraining(x, s, o, 0.01, 1), 0) * gy, 0.0, add, {0, 1, 2})
         }
         let t = BatchNormTraining(x, sc, of, 0.01, 1)
         let want = BatchNormGrad(x, sc, GetTupleElement(t, 1), GetTupleElement(t, 2), gy, 0.01, 1)
         let got = Grad(f, x, sc, of)
         then GetTupleElement(got, 0) ~= GetTupleElement(want, 0)
         then GetTupleElement(got, 1) == GetTupleElement(want, 1)
         then GetTupleElement(got, 2) == GetTupleElement(want, 2)",
        &mut Quiet,
    )
    .unwrap_or_else(|f| panic!("{:?}", f.diags));
}

/// Second order where every op of the backward program has a rule: the
/// derivative of d/dx sum(x^3) = 3x^2 is 6x.
#[test]
fn second_order() {
    let mut s = Session::new(Limits::default());
    s.run(
        "comp f(x: f64[3]) -> f64 { Reduce(x * x * x, 0.0, add, {0}) }
         comp df(x: f64[3]) -> f64 { Reduce(Grad(f, x), 0.0, add, {0}) }
         then Grad(df, f64[3] {1, 2, -3}) == f64[3] {6, 12, -18}",
        &mut Quiet,
    )
    .unwrap_or_else(|f| panic!("{:?}", f.diags));
}
