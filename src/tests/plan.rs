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

#[test]
fn a_jax_scan_body_takes_its_plan() {
    // What `lax.scan` lowers to (conformance/import/scan): a row sliced out,
    // reshaped to a vector, the carry updated, the row broadcast back to 1x4
    // and written into the stacked outputs. The reshapes and the broadcast
    // that only adds a unit dimension are aliases of their operands.
    same(
        "let xs0 = f32[5x4] {{1, 2, 3, 4}, {0.5, -1, 1e30, -0}, {3, 3, 3, 3}, {0.1, 0.2, 0.3, 0.4}, {-2, 7, 1, 9}}\n\
         comp row(xs: f32[5x4], i: s32) -> f32[4] { Reshape(DynamicSlice(xs, i, s32 0, {1, 4}), {4}) }\n\
         comp put(ys: f32[5x4], y: f32[4], i: s32) -> f32[5x4] {\n\
           DynamicUpdateSlice(ys, BroadcastInDim(y, {1, 4}, {1}), i, s32 0)\n\
         }\n\
         comp cond(s: (f32[5x4], s32, f32[4], f32[5x4])) -> pred { GetTupleElement(s, 1) < 5 }\n\
         comp body(s: (f32[5x4], s32, f32[4], f32[5x4])) -> (f32[5x4], s32, f32[4], f32[5x4]) {\n\
           let xs = GetTupleElement(s, 0)\n\
           let i = GetTupleElement(s, 1)\n\
           let c = GetTupleElement(s, 2) * 0.5 + row(xs, i)\n\
           (xs, i + 1, c, put(GetTupleElement(s, 3), c, i))\n\
         }\n\
         let r = While(cond, body, (xs0, s32 0, f32[4] {0, 0, 0, 0}, Broadcast(f32 0, {5, 4})))\n",
    );
}

#[test]
fn reshapes_alias_without_breaking_in_place_updates() {
    // `flat` is m's buffer under other dimensions and is read after the
    // DynamicUpdateSlice of m: the update must not be in place. The second
    // loop trades two leaves through reshapes (the copying end), and a
    // reshape with `dimensions` reorders (a strided copy).
    same(
        "comp cond(x: (s32, f32[2x3])) -> pred { GetTupleElement(x, 0) < 4 }\n\
         comp body(x: (s32, f32[2x3])) -> (s32, f32[2x3]) {\n\
           let i = GetTupleElement(x, 0)\n\
           let m = GetTupleElement(x, 1)\n\
           let flat = Reshape(m, {6})\n\
           let m2 = DynamicUpdateSlice(m, Broadcast(f32 9, {1, 3}), i, s32 0)\n\
           (i + 1, m2 + Reshape(flat * 2, {2, 3}))\n\
         }\n\
         let r = While(cond, body, (s32 0, f32[2x3] {{1, 2, 3}, {4, 5, 6}}))\n",
    );
    same(
        "comp cond(x: (s32, s32[6], s32[2x3])) -> pred { GetTupleElement(x, 0) < 5 }\n\
         comp body(x: (s32, s32[6], s32[2x3])) -> (s32, s32[6], s32[2x3]) {\n\
           let i = GetTupleElement(x, 0)\n\
           let b = GetTupleElement(x, 2)\n\
           (i + 1, Reshape(b, {1, 0}, {6}), Reshape(GetTupleElement(x, 1), {2, 3}) + i)\n\
         }\n\
         let r = While(cond, body, (s32 0, s32[6] {1, 2, 3, 4, 5, 6}, s32[2x3] {{7, 8, 9}, {10, 11, 12}}))\n",
    );
}

#[test]
fn broadcasts_in_any_dimensions() {
    // A vector into rows and into columns, a size-1 dimension repeated, a
    // broadcast that also transposes, and one of rank 3.
    same(
        "comp cond(x: (s32, f32[3], f32[2x3], f32[3x2], f32[1x3])) -> pred { GetTupleElement(x, 0) < 6 }\n\
         comp body(x: (s32, f32[3], f32[2x3], f32[3x2], f32[1x3])) -> (s32, f32[3], f32[2x3], f32[3x2], f32[1x3]) {\n\
           let i = GetTupleElement(x, 0)\n\
           let v = GetTupleElement(x, 1)\n\
           let u = GetTupleElement(x, 4)\n\
           let rows = BroadcastInDim(v, {2, 3}, {1}) + BroadcastInDim(u, {2, 3}, {0, 1})\n\
           let cols = BroadcastInDim(v, {3, 2}, {0}) * BroadcastInDim(GetTupleElement(x, 2), {3, 2}, {1, 0})\n\
           let cube = BroadcastInDim(GetTupleElement(x, 3), {2, 3, 2}, {1, 2})\n\
           let back = DynamicSlice(cube, i, s32 0, s32 0, {1, 3, 2})\n\
           (i + 1, v * 1.25 - 0.5, rows, cols + Reshape(back, {3, 2}), u + 1)\n\
         }\n\
         let r = While(cond, body, (s32 0, f32[3] {1, -2, 0.1}, Broadcast(f32 0, {2, 3}), Broadcast(f32 1, {3, 2}), f32[1x3] {{4, 5, 6}}))\n",
    );
}

#[test]
fn slices_transposes_concatenations_and_iotas() {
    // Strided slices, a rank-3 transpose, concatenations along each
    // dimension and Iota of ints and floats.
    same(
        "comp cond(x: (s32, f32[4x6], s64[3x2x4])) -> pred { GetTupleElement(x, 0) < 7 }\n\
         comp body(x: (s32, f32[4x6], s64[3x2x4])) -> (s32, f32[4x6], s64[3x2x4]) {\n\
           let i = GetTupleElement(x, 0)\n\
           let m = GetTupleElement(x, 1)\n\
           let t = GetTupleElement(x, 2)\n\
           let odd = Slice(m, {1, 0}, {4, 6}, {2, 3})\n\
           let top = Slice(m, {0, 1}, {2, 5})\n\
           let left = Concatenate({odd, Slice(m, {0, 2}, {2, 4})}, 1)\n\
           let b = Transpose(Slice(m, {0, 0}, {4, 2}), {1, 0})\n\
           let m2 = Concatenate({Concatenate({left * top, odd}, 1), Concatenate({b, odd}, 1)}, 0)\n\
           let step = Iota(f32[4x6], 1) * 0.1 + ConvertElementType(Iota(s32[4x6], 0), f32)\n\
           let t2 = Transpose(Transpose(t, {2, 0, 1}) + Iota(s64[4x3x2], 2), {1, 2, 0})\n\
           (i + 1, m2 + step, Concatenate({Slice(t2, {1, 0, 0}, {3, 2, 4}), Slice(t2, {0, 0, 0}, {1, 2, 4})}, 0) * 3)\n\
         }\n\
         let r = While(cond, body, (s32 0, Iota(f32[4x6], 0) - 1.5, Iota(s64[3x2x4], 2)))\n",
    );
}

#[test]
fn reductions_by_a_monoid_give_the_evaluators_bits() {
    // Float sums whose order shows in the bits (rows of 400 elements: a full
    // block of 256 and a short one), over the rows, the columns (a strided
    // copy into rows first) and mixed dimensions; Max and Min with NaN and
    // infinities; a product of f64; integer and pred monoids.
    same(
        "comp cond(x: (s32, f32[3x400], f32[400], f32[3], f32)) -> pred { GetTupleElement(x, 0) < 4 }\n\
         comp body(x: (s32, f32[3x400], f32[400], f32[3], f32)) -> (s32, f32[3x400], f32[400], f32[3], f32) {\n\
           let i = GetTupleElement(x, 0)\n\
           let m = GetTupleElement(x, 1)\n\
           let cols = Reduce(m, f32 0.1, add, {0})\n\
           let rows = Reduce(m, f32 -0, add, {1})\n\
           let both = Reduce(Reshape(m, {3, 20, 20}), f32 0, add, {0, 2})\n\
           let top = Reduce(m, -inf, max, {0, 1})\n\
           let m2 = m * 1.37 + BroadcastInDim(cols, {3, 400}, {1}) * 0.001 - top * 0.0001\n\
           (i + 1, m2, GetTupleElement(x, 2) + cols, rows + Reduce(m, inf, min, {1}), GetTupleElement(x, 4) + Reduce(both, f32 0, add, {0}))\n\
         }\n\
         let m0 = Sin(Iota(f32[3x400], 1) * 0.37 + ConvertElementType(Iota(s32[3x400], 0), f32)) * 1000\n\
         let r = While(cond, body, (s32 0, m0, Broadcast(f32 0, {400}), f32[3] {0, 0, 0}, f32 0))\n",
    );
    same(
        "comp cond(x: (s32, f32[2x5], f64[6], s32[4x3], pred[4x3])) -> pred { GetTupleElement(x, 0) < 5 }\n\
         comp body(x: (s32, f32[2x5], f64[6], s32[4x3], pred[4x3])) -> (s32, f32[2x5], f64[6], s32[4x3], pred[4x3]) {\n\
           let i = GetTupleElement(x, 0)\n\
           let v = GetTupleElement(x, 1)\n\
           let hi = Reduce(v, -inf, max, {1})\n\
           let lo = Reduce(v, f32 nan, min, {0})\n\
           let p = Reduce(Reshape(GetTupleElement(x, 2), {2, 3}), f64 1.5, mul, {1})\n\
           let s = GetTupleElement(x, 3)\n\
           let b = GetTupleElement(x, 4)\n\
           let any = Reduce(b, false, or, {0})\n\
           let all = Reduce(b, true, and, {1})\n\
           let v2 = v - BroadcastInDim(hi, {2, 5}, {0}) + BroadcastInDim(Slice(lo, {0}, {5}), {2, 5}, {1}) * 0\n\
           let s2 = s * 3 + BroadcastInDim(Reduce(s, s32 7, add, {0}), {4, 3}, {1}) + BroadcastInDim(Reduce(s, s32 0, max, {1}), {4, 3}, {0})\n\
           let b2 = Xor(b, BroadcastInDim(any, {4, 3}, {1})) == BroadcastInDim(all, {4, 3}, {0})\n\
           (i + 1, v2, Concatenate({p, p, p}, 0) * 1.1, s2, b2)\n\
         }\n\
         let r = While(cond, body, (s32 0, f32[2x5] {{1, nan, 3, -inf, 2}, {0.5, 7, -1, 4, inf}}, f64[6] {1, 2, 3, 4, 5, 6}, s32[4x3] {{1, -2, 3}, {4, 5, -6}, {7, 8, 9}, {-10, 11, 12}}, pred[4x3] {{true, false, true}, {false, false, true}, {true, true, true}, {false, true, false}}))\n",
    );
}
