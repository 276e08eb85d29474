//! Execution plans (spec/plan.md) against the evaluator: each program runs
//! with plans on and off, and every binding must be the same bit for bit (the
//! conformance suite does the same for every case with a While).

use crate::session::Session;
use xlet_check::Limits;
use xlet_core::value::{Array, Value};
use xlet_eval::Output;
use xlet_ir as ir;

struct Quiet;
impl Output for Quiet {
    fn print(&mut self, _: &Value, _: &ir::Expr) {}
}

/// Each binding's name, type and element bits after running `src`, or the
/// first diagnostic's code and message.
fn run(src: &str, plan: bool, max_steps: u64) -> Result<Vec<(String, String, Vec<u64>)>, String> {
    let mut s = Session::new(Limits::default());
    s.env.config.plan = plan;
    s.env.config.max_steps = max_steps;
    s.run(src, &mut Quiet).map_err(|f| {
        f.diags
            .first()
            .map(|d| format!("{}: {}", d.code, d.message))
            .unwrap_or_default()
    })?;
    let mut out: Vec<_> = s
        .env
        .values
        .iter()
        .map(|(n, v)| (n.clone(), v.ty().to_string(), bits(v)))
        .collect();
    out.sort();
    Ok(out)
}

fn bits(v: &Value) -> Vec<u64> {
    match v {
        Value::Tuple(items) => items.iter().flat_map(bits).collect(),
        Value::Array(Array::F32(x)) => x.iter().map(|e| e.to_bits() as u64).collect(),
        Value::Array(Array::F64(x)) => x.iter().map(|e| e.to_bits()).collect(),
        Value::Array(a) => a.to_vec::<i64>().into_iter().map(|e| e as u64).collect(),
    }
}

fn same(src: &str) {
    same_with(src, u64::MAX)
}

fn same_with(src: &str, max_steps: u64) {
    let before = xlet_plan::runs_on_this_thread();
    let planned = run(src, true, max_steps);
    if max_steps == u64::MAX {
        assert!(planned.is_ok(), "{planned:?}");
    }
    let ran = xlet_plan::runs_on_this_thread();
    assert!(ran > before, "no loop took its plan: {src}");
    let reference = run(src, false, max_steps);
    assert_eq!(
        xlet_plan::runs_on_this_thread(),
        ran,
        "a plan ran with plans off"
    );
    assert_eq!(planned, reference, "{src}");
}

#[test]
fn loops_match_the_evaluator_bit_for_bit() {
    // The seed's loop, a plain counter, small-array floats with NaN and
    // rounding, and a float compare (its function, not a native compare).
    same(
        "let c = f32[10] {0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5}\n\
         comp cond(r: (s32, f32[10])) -> pred { GetTupleElement(r, 0) < 1000 }\n\
         comp body(r: (s32, f32[10])) -> (s32, f32[10]) {\n\
           (GetTupleElement(r, 0) + 1, GetTupleElement(r, 1) * 1.0001 + c)\n\
         }\n\
         let r = While(cond, body, (s32 0, Broadcast(f32 0, {10})))\n",
    );
    same(
        "comp cond(x: (f32, f64, u32)) -> pred { GetTupleElement(x, 0) < 1e6 }\n\
         comp body(x: (f32, f64, u32)) -> (f32, f64, u32) {\n\
           let a = GetTupleElement(x, 0)\n\
           (a * 1.5 + 0.1, GetTupleElement(x, 1) - 0.3, GetTupleElement(x, 2) * 3)\n\
         }\n\
         let r = While(cond, body, (f32 1, f64 2, u32 7))\n",
    );
    // Selects, compares of floats with NaN, converts, Max and a scalar
    // operand broadcast into an array op.
    same(
        "comp cond(x: (s64, f32[3])) -> pred { GetTupleElement(x, 0) < 50 }\n\
         comp body(x: (s64, f32[3])) -> (s64, f32[3]) {\n\
           let i = GetTupleElement(x, 0)\n\
           let v = GetTupleElement(x, 1)\n\
           let w = Select(v > f32[3] {1, 2, 3}, v / 3, Sqrt(v - 2) + ConvertElementType(i, f32))\n\
           (i + 1, Max(w, 0.5 * w))\n\
         }\n\
         let r = While(cond, body, (s64 0, f32[3] {0, 5, -1}))\n",
    );
}

#[test]
fn tuple_leaves_swap_pass_through_and_repeat() {
    // Leaves trade places, one passes through, a constant becomes a leaf,
    // one value fills two leaves: the copying end of an iteration.
    same(
        "comp cond(x: (s32, s32, s32, s32)) -> pred { GetTupleElement(x, 3) < 7 }\n\
         comp body(x: (s32, s32, s32, s32)) -> (s32, s32, s32, s32) {\n\
           let a = GetTupleElement(x, 0)\n\
           (GetTupleElement(x, 1), a, s32 5, GetTupleElement(x, 3) + 1)\n\
         }\n\
         let r = While(cond, body, (s32 1, s32 2, s32 3, s32 0))\n",
    );
    same(
        "comp cond2(x: (s32, s32)) -> pred { GetTupleElement(x, 0) < 9 }\n\
         comp body2(x: (s32, s32)) -> (s32, s32) {\n\
           let n = GetTupleElement(x, 0) + GetTupleElement(x, 1)\n\
           (n, n)\n\
         }\n\
         let q = While(cond2, body2, (s32 0, s32 1))\n",
    );
}

#[test]
fn results_computed_into_the_state_leave_later_reads_intact() {
    // `i + 1` may be written into i's buffer only when nothing reads i after
    // it; `m2 * 2` reads m's buffer, which DynamicUpdateSlice updated in place.
    same(
        "comp cond(x: (s32, s32, f32[3x2])) -> pred { GetTupleElement(x, 0) < 6 }\n\
         comp body(x: (s32, s32, f32[3x2])) -> (s32, s32, f32[3x2]) {\n\
           let i = GetTupleElement(x, 0)\n\
           let n = i + 1\n\
           let m2 = DynamicUpdateSlice(GetTupleElement(x, 2), Broadcast(f32 1, {1, 2}), i, s32 0)\n\
           (n, i * 2 + GetTupleElement(x, 1), m2 * 2)\n\
         }\n\
         let r = While(cond, body, (s32 0, s32 1, Broadcast(f32 0.5, {3, 2})))\n",
    );
}

#[test]
fn slices_and_updates_clamp_as_the_ops_do() {
    // Starts below 0 and past the end (clamped), unsigned and vector starts,
    // an update that is not in place (the operand is read again), and a
    // DynamicSlice of the state.
    same(
        "comp cond(x: (s32, f32[6x4], f32[2x2])) -> pred { GetTupleElement(x, 0) < 12 }\n\
         comp body(x: (s32, f32[6x4], f32[2x2])) -> (s32, f32[6x4], f32[2x2]) {\n\
           let i = GetTupleElement(x, 0)\n\
           let m = GetTupleElement(x, 1)\n\
           let row = Broadcast(ConvertElementType(i, f32), {1, 4})\n\
           let m2 = DynamicUpdateSlice(m, row, i - 3, s32 0)\n\
           let blk = DynamicSlice(m2, ConvertElementType(i, u32), ConvertElementType(i * 2, u32), {2, 2})\n\
           (i + 1, m2, blk + GetTupleElement(x, 2))\n\
         }\n\
         let r = While(cond, body, (s32 0, Broadcast(f32 0, {6, 4}), Broadcast(f32 1, {2, 2})))\n",
    );
    same(
        "comp cond2(x: (s32, s32[5])) -> pred { GetTupleElement(x, 0) < 8 }\n\
         comp body2(x: (s32, s32[5])) -> (s32, s32[5]) {\n\
           let i = GetTupleElement(x, 0)\n\
           let v = GetTupleElement(x, 1)\n\
           let keep = v * 2\n\
           (i + 1, DynamicUpdateSlice(v, Broadcast(i, {2}), i) + keep)\n\
         }\n\
         let q = While(cond2, body2, (s32 0, s32[5] {1, 2, 3, 4, 5}))\n",
    );
}

#[test]
fn calls_globals_and_nested_loops() {
    same(
        "let k = s32 3\n\
         comp step(a: s32) -> s32 { a * k + 1 }\n\
         comp cond(x: s32) -> pred { x < 100000 }\n\
         comp body(x: s32) -> s32 { step(x) }\n\
         let r = While(cond, body, s32 1)\n",
    );
    same(
        "comp icond(x: (s32, s32)) -> pred { GetTupleElement(x, 0) < GetTupleElement(x, 1) }\n\
         comp ibody(x: (s32, s32)) -> (s32, s32) { (GetTupleElement(x, 0) + 1, GetTupleElement(x, 1)) }\n\
         comp ocond(x: s32) -> pred { x < 20 }\n\
         comp obody(x: s32) -> s32 { GetTupleElement(While(icond, ibody, (s32 0, x)), 0) + 2 }\n\
         let n = While(ocond, obody, s32 0)\n",
    );
}

#[test]
fn the_step_limit_stops_a_planned_loop_with_the_same_error() {
    let src = "comp cond(i: s32) -> pred { i < 100000 }\n\
               comp body(i: s32) -> s32 { i + 1 }\n\
               let r = While(cond, body, s32 0)\n";
    same_with(src, 10);
    let e = run(src, true, 10).unwrap_err();
    assert!(e.contains("While ran more than 10 iterations"), "{e}");
    // Exactly at the limit is fine.
    same_with(
        "comp cond(i: s32) -> pred { i < 10 }\n\
         comp body(i: s32) -> s32 { i + 1 }\n\
         let r = While(cond, body, s32 0)\n",
        10,
    );
}
