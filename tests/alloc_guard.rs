//! The structural guard of issue 21: every buffer whose size comes from the
//! user's data (results, temporaries, index tables, permutations) is made by
//! the accounting allocator's fallible constructors, `core's alloc::
//! try_output_vec`, `try_filled` and `try_collect`: they admit the bytes under
//! `--max-memory` with everything live and turn a refusal into a located error.
//! The infallible ways to make a sized buffer (`Vec::with_capacity`,
//! `vec![x; n]`, `reserve`, `resize`, `str::repeat`) abort the process when the
//! system refuses, and bypass the budget.
//!
//! This test scans src/ and crates/ (not their test modules) for those forms and fails on any
//! site not in the audited allow-list below, and on allow-list entries that no
//! longer match (so the list stays the list of real sites). A new data-sized
//! buffer must use the `try_` constructors; a new bounded one (one entry per
//! dimension, a constant-size tile) is added here with the reason it is bounded.
//!
//! Not covered by the scan: `collect` (hundreds of sites, nearly all over
//! dimensions or arguments); data-sized collects use `alloc::try_collect`.

use std::path::Path;

/// Why a site is bounded.
const RANK: &str = "one entry per dimension, argument, field or statement: proportional to the program text, not to array data";
const TILE: &str = "a fixed-size tile, chunk or lane buffer (a constant bound)";
const FILLED: &str = "grows a vector made by alloc::try_output_vec (the bytes are admitted and the allocation fallible)";
const ADMITTED: &str =
    "a scratch buffer whose bytes alloc::admit counted just before (with the per-thread factor)";
const SOURCE: &str = "proportional to the program text or a line of it, which is at most 64 MiB (source::MAX_SOURCE_BYTES)";
const TESTONLY: &str = "only in #[cfg(test)] code";
const REFERENCE: &str = "the scalar reference path (one comp call per element), bounded by the output it is about to fill";

/// (file from the workspace root, the site's line trimmed, why it is bounded).
const ALLOWED: &[(&str, &str, &str)] = &[
    // --- the importer: one entry per dimension, operand or branch of a module's text ---
    ("crates/import/src/hlo/attrs.rs", "size: vec![1; n],", RANK),
    (
        "crates/import/src/translate/mod.rs",
        "spans: vec![None; lines.len()],",
        RANK,
    ),
    (
        "crates/import/src/hlo/attrs.rs",
        "stride: vec![1; n],",
        RANK,
    ),
    (
        "crates/import/src/hlo/attrs.rs",
        "pad: vec![(0, 0); n],",
        RANK,
    ),
    (
        "crates/import/src/hlo/attrs.rs",
        "lhs_dilate: vec![1; n],",
        RANK,
    ),
    (
        "crates/import/src/hlo/attrs.rs",
        "rhs_dilate: vec![1; n],",
        RANK,
    ),
    (
        "crates/import/src/hlo/attrs.rs",
        "reversal: vec![false; n],",
        RANK,
    ),
    (
        "crates/import/src/hlo/attrs.rs",
        "[] => return Ok(vec![(0, 0, 0); rank]),",
        RANK,
    ),
    (
        "crates/import/src/mlir/op.rs",
        "let mut out = Vec::with_capacity(items.len());",
        RANK,
    ),
    (
        "crates/import/src/translate/captures.rs",
        "let ops = vec![t; comps.len()];",
        RANK,
    ),
    (
        "crates/import/src/translate/ops.rs",
        "None => vec![1; s.len()],",
        RANK,
    ),
    (
        "crates/import/src/translate/ops_more.rs",
        "return Ok(vec![(0, 0); n]);",
        RANK,
    ),
    (
        "crates/import/src/translate/ops_more.rs",
        "flat = vec![flat[0]; 2 * n];",
        RANK,
    ),
    (
        "crates/import/src/translate/ops_more.rs",
        "None => Ok(vec![fill; n]),",
        RANK,
    ),
    (
        "crates/import/src/translate/ops_more.rs",
        "vec![v[0]; n]",
        RANK,
    ),
    (
        "crates/import/src/translate/ops_more.rs",
        "sp.resize(k + 1, -1);",
        RANK,
    ),
    // --- filled after an accounted allocation ---
    ("crates/core/src/alloc.rs", "v.resize(n, fill);", FILLED),
    (
        "crates/ops-reduce/src/reduce_window/mod.rs",
        "out.resize(m, init);",
        FILLED,
    ),
    (
        "crates/ops-reduce/src/select_and_scatter.rs",
        "out.resize(x.len(), init);",
        FILLED,
    ),
    (
        "crates/ops-linalg/src/conv_general_dilated/reference.rs",
        "out.resize(total, A::ZERO);",
        FILLED,
    ),
    (
        "crates/ops-linalg/src/conv_general_dilated/fast.rs",
        "out.resize(total, A::ZERO);",
        FILLED,
    ),
    (
        "crates/ops-linalg/src/conv_general_dilated/fast.rs",
        "tmp.resize(self.og * self.tile, A::ZERO);",
        FILLED,
    ),
    (
        "crates/ops-linalg/src/conv_general_dilated/fast.rs",
        "buf.resize(total, A::ZERO);",
        FILLED,
    ),
    (
        "crates/ops-linalg/src/dot_general/kernel.rs",
        "out.resize(total, C::ZERO);",
        FILLED,
    ),
    (
        "crates/kernels/src/sort/mod.rs",
        "perm.resize(keys.len(), 0);",
        FILLED,
    ),
    (
        "crates/kernels/src/reduce/monoid.rs",
        "out.resize(m, init);",
        FILLED,
    ),
    // --- scratch admitted just before ---
    (
        "crates/kernels/src/sort/radix.rs",
        "dst.reserve_exact(n);",
        ADMITTED,
    ),
    (
        "crates/kernels/src/sort/radix_par.rs",
        "dst.reserve_exact(n);",
        FILLED,
    ),
    (
        "crates/kernels/src/sort/buckets.rs",
        "scratch.resize(n, v[0]);",
        ADMITTED,
    ),
    (
        "crates/kernels/src/batch_norm/passes.rs",
        "let mut table = vec![[0.0f64; 2]; cells];",
        ADMITTED,
    ),
    // --- constant-size tiles and chunks ---
    (
        "crates/kernels/src/fused.rs",
        "fn empty_chunk() -> Chunk { Chunk::$v(Vec::with_capacity(CHUNK)) }",
        TILE,
    ),
    ("crates/kernels/src/fused.rs", "o.reserve(n);", TILE),
    ("crates/kernels/src/fused.rs", "v.reserve(len);", TILE),
    (
        "crates/kernels/src/matmul/int.rs",
        "let mut strip: Vec<[T; COLS]> = Vec::with_capacity(KC.min(k));",
        TILE,
    ),
    (
        "crates/kernels/src/reduce/order.rs",
        "let mut lanes: Vec<Option<A>> = Vec::with_capacity(LANES.min(len));",
        TILE,
    ),
    (
        "crates/kernels/src/strided/drive.rs",
        "vec![0u64; words]",
        TILE,
    ),
    (
        "crates/kernels/src/strided/drive.rs",
        "(bufs, vec![0u64; row_words])",
        TILE,
    ),
    (
        "crates/kernels/src/sort/radix.rs",
        "let mut hist = vec![[0usize; 256]; K::BYTES];",
        TILE,
    ),
    (
        "crates/kernels/src/sort/radix_par.rs",
        "let mut hist = vec![[0usize; 256]; K::BYTES];",
        TILE,
    ),
    (
        "crates/kernels/src/sort/radix_par.rs",
        "let mut starts = vec![vec![0usize; values]; counts.len()];",
        "one table per stretch of the row (one stretch per thread) of 256 digit values or 2^12 buckets",
    ),
    (
        "crates/kernels/src/sort/buckets.rs",
        "let mut counts = vec![0usize; digits.passes * RADIX_MAX];",
        "one count per digit value of each pass of a bucket's sort: at most 6 passes (64 bits) of 2^DIGIT_BITS (2048), once per task",
    ),
    (
        "crates/kernels/src/sort/buckets.rs",
        "let mut h = vec![0usize; buckets];",
        "one count per bucket: at most 2^BUCKET_BITS (4096), once per stretch",
    ),
    (
        "crates/kernels/src/reduce/window_small.rs",
        "|| vec![init; n * ow],",
        "the lane rows of one output row, at most MAX_LANE_ELEMS (window_small::plan)",
    ),
    (
        "crates/kernels/src/reduce/native.rs",
        "acc: vec![fill; LANES * w],",
        TILE,
    ),
    (
        "crates/kernels/src/reduce/native.rs",
        "row: vec![fill; w],",
        TILE,
    ),
    (
        "crates/kernels/src/reduce/native.rs",
        "never(tree.push(1 << j, vec![v; w], g));",
        TILE,
    ),
    (
        "crates/kernels/src/reduce/native.rs",
        "never(tree.push(1, vec![v; w], g));",
        TILE,
    ),
    (
        "crates/kernels/src/reduce/native.rs",
        "let mut part = vec![init; w.min(m - c0)];",
        TILE,
    ),
    (
        "crates/syntax/src/lexer/fast_path.rs",
        "let mut batch = Vec::with_capacity(BATCH);",
        TILE,
    ),
    // --- the scalar reference paths ---
    (
        "crates/ops-sort/src/sort.rs",
        "let mut vals = Vec::with_capacity(2 * rows.len());",
        RANK,
    ),
    (
        "crates/ops-indexing/src/scatter/kernel.rs",
        "let mut args: Vec<Value> = Vec::with_capacity(2 * n);",
        RANK,
    ),
    (
        "crates/kernels/src/reduce/generic.rs",
        "let mut out = Vec::with_capacity(m);",
        REFERENCE,
    ),
    (
        "crates/kernels/src/reduce/generic.rs",
        "let mut data = Vec::with_capacity(vals.len());",
        REFERENCE,
    ),
    // --- per dimension, argument, slot or statement ---
    (
        "crates/ir/src/lib.rs",
        "let mut reads = vec![0; slots];",
        RANK,
    ),
    ("crates/core/src/print.rs", "idx: vec![0; x.ndim()],", RANK),
    // A wrapped tuple's continuation indent: its column is the depth of
    // tuple and array nesting before it, which the type (program text) fixes.
    (
        "crates/core/src/print.rs",
        "format!(\",\\n{}\", \" \".repeat(open + 1))",
        RANK,
    ),
    (
        "crates/ops-shape/src/dynamic_slice.rs",
        "let mut raw: Vec<i64> = Vec::with_capacity(dims.len());",
        RANK,
    ),
    // One slot per let, parameter and op of the loop's comps (program text).
    (
        "crates/grad/src/trip_count.rs",
        "let mut slots = vec![Partial::Unknown; c.slots.max(args.len())];",
        RANK,
    ),
    // The signal handler's alternate stack, a constant size.
    (
        "crates/custom-call/src/crash.rs",
        "let mem: &'static mut [u8] = Box::leak(vec![0u8; ALT_STACK_BYTES].into_boxed_slice());",
        TILE,
    ),
    (
        "crates/ops-shape/src/tuple.rs",
        "let mut tys = Vec::with_capacity(n);",
        RANK,
    ),
    (
        "crates/ops-shape/src/dynamic_slice.rs",
        "let mut dims = Vec::with_capacity(t.rank());",
        RANK,
    ),
    (
        "crates/ops-shape/src/dynamic_slice.rs",
        "let mut slots: Vec<Option<Operand>> = vec![None; rank];",
        RANK,
    ),
    (
        "crates/ops-shape/src/broadcast_in_dim.rs",
        "let mut map = Vec::with_capacity(bd.value.len());",
        RANK,
    ),
    (
        "crates/ops-shape/src/slice.rs",
        "let mut ranges = Vec::with_capacity(t.rank());",
        RANK,
    ),
    (
        "crates/ops-shape/src/reshape.rs",
        "let mut out = Vec::with_capacity(rank);",
        RANK,
    ),
    (
        "crates/ops-shape/src/reshape.rs",
        "let mut new = Vec::with_capacity(sizes.value.len());",
        RANK,
    ),
    (
        "crates/ops-shape/src/reshape.rs",
        "let mut seen = vec![false; rank];",
        RANK,
    ),
    (
        "crates/ops-shape/src/reshape.rs",
        "let mut inv = vec![0; self.perm.len()];",
        RANK,
    ),
    (
        "crates/ops-shape/src/transpose.rs",
        "let mut inv = vec![0; self.perm.len()];",
        RANK,
    ),
    (
        "crates/ops-linalg/src/batch_norm_args.rs",
        "let mut out = Vec::with_capacity(K);",
        RANK,
    ),
    (
        "crates/ops-common/src/index_dims.rs",
        "let mut s = vec![1usize; dims.len()];",
        RANK,
    ),
    (
        "crates/ops-reduce/src/reduce_window/mod.rs",
        "None => (vec![1; rank], vec![1; rank]),",
        RANK,
    ),
    (
        "crates/ops-reduce/src/reduce_window/mod.rs",
        "Padding::Valid => vec![(0, 0); rank],",
        RANK,
    ),
    (
        "crates/ops-reduce/src/reduce_window/mod.rs",
        "let mut outer = vec![0usize; outer_dims.len()];",
        RANK,
    ),
    (
        "crates/ops-reduce/src/reduce_window/mod.rs",
        "let mut idx = vec![0usize; r];",
        RANK,
    ),
    (
        "crates/ops-reduce/src/reduce_window/mod.rs",
        "let mut scratch = vec![0usize; r];",
        RANK,
    ),
    (
        "crates/ops-shape/src/pad.rs",
        "r => format!(\"{{{}}}\", vec![\"{0, 0, 0}\"; r].join(\", \")),",
        RANK,
    ),
    (
        "crates/ops-indexing/src/scatter/plan.rs",
        "let mut extent = vec![1; operand_dims.len()];",
        RANK,
    ),
    (
        "crates/ops-indexing/src/scatter/plan.rs",
        "let mut pos = vec![0usize; wdims.len()];",
        RANK,
    ),
    (
        "crates/ops-indexing/src/scatter/plan.rs",
        "let mut bpos = vec![0usize; bdims.len()];",
        RANK,
    ),
    (
        "crates/ops-indexing/src/scatter/plan.rs",
        "let mut start = vec![0i64; self.operand_dims.len()];",
        RANK,
    ),
    (
        "crates/ops-linalg/src/conv_general_dilated/dims.rs",
        "let mut spatial: Vec<Option<usize>> = vec![None; spatial_n];",
        RANK,
    ),
    (
        "crates/ops-linalg/src/conv_general_dilated/reference.rs",
        "let mut oi = vec![0usize; n];",
        RANK,
    ),
    (
        "crates/ops-linalg/src/conv_general_dilated/reference.rs",
        "let mut ki = vec![0usize; n];",
        RANK,
    ),
    (
        "crates/ops-linalg/src/conv_general_dilated/fast.rs",
        "let mut s = vec![1; dims.len()];",
        RANK,
    ),
    (
        "crates/ops-linalg/src/conv_general_dilated/fast.rs",
        "let mut idx = vec![0usize; outer_dims.len()];",
        RANK,
    ),
    (
        "crates/ops-linalg/src/conv_general_dilated/fast.rs",
        "let mut o = vec![0usize; sr];",
        RANK,
    ),
    (
        "crates/ops-linalg/src/conv_general_dilated/fast.rs",
        "let mut kidx = vec![0usize; sr];",
        RANK,
    ),
    (
        "crates/ops-linalg/src/conv_general_dilated/geometry.rs",
        "let mut d = vec![0; rank];",
        RANK,
    ),
    (
        "crates/ops-linalg/src/conv_general_dilated/check.rs",
        "(vec![1; n], vec![1; n])",
        RANK,
    ),
    (
        "crates/ops-linalg/src/conv_general_dilated/check.rs",
        "let mut s = vec!['?'; l.spatial.len() + 2];",
        RANK,
    ),
    (
        "crates/ops-linalg/src/conv_general_dilated/check.rs",
        "Pad::Valid => vec![(0, 0); n],",
        RANK,
    ),
    (
        "crates/ops-indexing/src/gather/plan.rs",
        "let mut result_dims = vec![0; rank];",
        RANK,
    ),
    (
        "crates/ops-indexing/src/gather/kernel.rs",
        "let mut pos = vec![0usize; outer_dims.len()];",
        RANK,
    ),
    (
        "crates/ops-indexing/src/gather/kernel.rs",
        "let mut bpos = vec![0usize; bdims.len()];",
        RANK,
    ),
    (
        "crates/ops-indexing/src/gather/kernel.rs",
        "let mut start = vec![0i64; p.operand_dims.len()];",
        RANK,
    ),
    (
        "crates/custom-call/src/marshal.rs",
        "let mut inputs: Vec<Array> = Vec::with_capacity(args.len());",
        RANK,
    ),
    (
        "crates/custom-call/src/marshal.rs",
        "let mut values = Vec::with_capacity(ts.len());",
        RANK,
    ),
    (
        "crates/custom-call/src/marshal.rs",
        "let mut ptrs = Vec::with_capacity(ts.len());",
        RANK,
    ),
    (
        "crates/kernels/src/strided/plan.rs",
        "let mut st: Vec<Vec<isize>> = vec![Vec::new(); n];",
        RANK,
    ),
    (
        "crates/kernels/src/strided/plan.rs",
        "let mut idx = vec![0usize; outer];",
        RANK,
    ),
    (
        "crates/kernels/src/strided/tiling.rs",
        "let mut out_strides = vec![1usize; k];",
        RANK,
    ),
    (
        "crates/kernels/src/batch_norm/passes.rs",
        "return Ok(vec![[0.0; 2]; nf]);",
        RANK,
    ),
    (
        "crates/kernels/src/batch_norm/passes.rs",
        "let mut sums = vec![[0.0f64; 2]; nf];",
        RANK,
    ),
    (
        "crates/kernels/src/batch_norm/passes.rs",
        "let mut a = vec![[T::W::default(); 2]; nf];",
        RANK,
    ),
    (
        "crates/kernels/src/sort/mod.rs",
        "let mut back = vec![0; dims.len()];",
        RANK,
    ),
    (
        "crates/kernels/src/reduce/scatter.rs",
        "let mut stride = vec![1usize; r];",
        RANK,
    ),
    (
        "crates/kernels/src/reduce/scatter.rs",
        "let mut first = vec![0i128; r];",
        RANK,
    ),
    (
        "crates/kernels/src/reduce/scatter.rs",
        "let mut k_lo = vec![0usize; r];",
        RANK,
    ),
    (
        "crates/kernels/src/reduce/scatter.rs",
        "let mut k_hi = vec![0usize; r];",
        RANK,
    ),
    (
        "crates/kernels/src/reduce/scatter.rs",
        "let mut kidx = vec![0usize; r];",
        RANK,
    ),
    (
        "crates/kernels/src/reduce/scatter.rs",
        "let mut oidx = vec![0usize; r];",
        RANK,
    ),
    (
        "crates/kernels/src/reduce/window.rs",
        "big = vec![0; r];",
        RANK,
    ),
    (
        "crates/kernels/src/reduce/window.rs",
        "|| (Scratch::new(ow, init), vec![0usize; outer_dims.len()]),",
        RANK,
    ),
    (
        "crates/kernels/src/reduce/window.rs",
        "|| (Scratch::new(w, init), vec![0usize; outer_dims.len()]),",
        RANK,
    ),
    (
        "crates/grad/src/lib.rs",
        "let mut needed = vec![false; n];",
        RANK,
    ),
    (
        "crates/grad/src/lib.rs",
        "let mut ct: Vec<Option<String>> = vec![None; n];",
        RANK,
    ),
    (
        "crates/grad/src/lib.rs",
        "let mut grads = vec![None; args.len()];",
        RANK,
    ),
    (
        "crates/ir/src/rule.rs",
        "grads: vec![None; args.len()],",
        RANK,
    ),
    (
        "crates/ops-linalg/src/conv_general_dilated/grad.rs",
        "let mut s = vec!['?'; rank];",
        RANK,
    ),
    (
        "crates/ops-linalg/src/conv_general_dilated/grad.rs",
        "let mut perm = vec![0; n + 2];",
        RANK,
    ),
    (
        "crates/grad/src/structural.rs",
        "brace(&vec![0; limits.len()]),",
        RANK,
    ),
    (
        "crates/grad/src/structural.rs",
        "let mut start = vec![0; out.rank()];",
        RANK,
    ),
    (
        "crates/eval/src/comp/vectorized.rs",
        "let mut slots = vec![None; c.slots.max(c.params.len())];",
        RANK,
    ),
    (
        "crates/eval/src/comp/vectorized.rs",
        "slots: vec![None; c.slots.max(c.params.len())],",
        RANK,
    ),
    (
        "crates/eval/src/lib.rs",
        "slots.resize(comp.slots, (None, 0));",
        RANK,
    ),
    (
        "crates/eval/src/assert.rs",
        "let mut idx = vec![0; dims.len()];",
        RANK,
    ),
    (
        "crates/eval/src/fuse.rs",
        "let mut offs = vec![0isize; leaves.len()];",
        RANK,
    ),
    (
        "crates/eval/src/fuse.rs",
        "let mut inputs = Vec::with_capacity(args.len());",
        RANK,
    ),
    (
        "crates/ir/src/replica/hub.rs",
        "status: vec![Status::Running; count],",
        RANK,
    ),
    (
        "crates/ir/src/replica/hub.rs",
        "next_round: vec![0; count],",
        RANK,
    ),
    (
        "crates/check/src/broadcast.rs",
        "let mut placed = vec![1usize; hi.ty.rank()];",
        RANK,
    ),
    (
        "crates/check/src/broadcast.rs",
        "let mut out = Vec::with_capacity(hi.ty.rank());",
        RANK,
    ),
    (
        "crates/check/src/broadcast.rs",
        "let mut map = Vec::with_capacity(b.dims.len());",
        RANK,
    ),
    (
        "crates/check/src/call.rs",
        "used_pos: vec![false; positional.len()],",
        RANK,
    ),
    (
        "crates/check/src/call.rs",
        "used_named: vec![false; named.len()],",
        RANK,
    ),
    (
        "crates/check/src/call.rs",
        "let mut typed: Vec<Option<ir::Expr>> = vec![None; exprs.len()];",
        RANK,
    ),
    ("crates/check/src/call.rs", "return Ok(vec![1; n]);", RANK),
    (
        "crates/check/src/lib.rs",
        "let mut stmts = Vec::with_capacity(count);",
        RANK,
    ),
    // --- text: diagnostics and help ---
    ("crates/core/src/diag.rs", "\" \".repeat(caret_at),", SOURCE),
    ("crates/core/src/diag.rs", "\"^\".repeat(caret_len)", SOURCE),
    (
        "src/repl/commands.rs",
        "let pad = \" \".repeat(head.len());",
        SOURCE,
    ),
    (
        "src/repl/sources.rs",
        "let padded = \"\\n\".repeat(o.first_line - 1) + text;",
        SOURCE,
    ),
    // --- tests inside library files ---
    (
        "crates/ops-convert/src/bitcast_convert_type.rs",
        "let mut bits = vec![false; xs.len() * ws];",
        TESTONLY,
    ),
    // --- execution plans: registers and instructions come from the program text ---
    (
        "crates/plan/src/assign.rs",
        "map: vec![None; vregs.len()],",
        RANK,
    ),
    (
        "crates/plan/src/assign.rs",
        "let mut last = vec![None; vregs.len()];",
        RANK,
    ),
    (
        "crates/plan/src/assign.rs",
        "let mut out = Vec::with_capacity(code.len());",
        RANK,
    ),
    (
        "crates/plan/src/compile.rs",
        "slots.resize(comp.slots.max(slots.len()), None);",
        RANK,
    ),
    (
        "crates/plan/src/compile.rs",
        "let mut placed = Vec::with_capacity(ins.len());",
        RANK,
    ),
    (
        "crates/plan/src/exec.rs",
        "o.resize(n, Default::default());",
        "a DynamicSlice result in its register, at most compile::SMALL elements, whose capacity the plan admitted when the loop started",
    ),
];

/// Whether a line makes a sized buffer the infallible way.
fn flagged(line: &str) -> bool {
    line.contains("Vec::with_capacity(")
        || line.contains(".reserve(")
        || line.contains(".reserve_exact(")
        || line.contains(".resize(")
        || line.contains(".repeat(")
        || sized_vec_macro(line)
}

/// `vec![x; n]`: a `;` at the macro's own bracket depth.
fn sized_vec_macro(line: &str) -> bool {
    let mut rest = line;
    while let Some(i) = rest.find("vec![") {
        let body = &rest[i + 5..];
        let mut depth = 0i32;
        for c in body.chars() {
            match c {
                '[' | '(' | '{' => depth += 1,
                ']' | ')' | '}' if depth == 0 => break,
                ']' | ')' | '}' => depth -= 1,
                ';' if depth == 0 => return true,
                _ => {}
            }
        }
        rest = body;
    }
    false
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n != "tests") {
                rust_files(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "rs") {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name != "tests.rs" && !name.ends_with("_tests.rs") && !name.starts_with("tests_") {
                out.push(p);
            }
        }
    }
}

/// Every flagged site: (file from the workspace root, trimmed line, line number).
fn sites() -> Vec<(String, String, usize)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![];
    rust_files(&root.join("src"), &mut files);
    rust_files(&root.join("crates"), &mut files);
    let src = root;
    files.sort();
    let mut found = vec![];
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        let rel = f
            .strip_prefix(src)
            .map(|p| p.to_string_lossy().replace('\\', "/"))
            .unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        for (i, l) in lines.iter().enumerate() {
            let t = l.trim();
            // The file's test module ends the library code.
            if t == "#[cfg(test)]"
                && lines
                    .get(i + 1)
                    .is_some_and(|n| n.trim().starts_with("mod tests"))
            {
                break;
            }
            if t.starts_with("//") {
                continue;
            }
            if flagged(t) {
                found.push((rel.clone(), t.to_string(), i + 1));
            }
        }
    }
    found
}

#[test]
fn data_sized_buffers_go_through_the_accounting_allocator() {
    let found = sites();
    let mut unknown = vec![];
    for (file, line, no) in &found {
        if !ALLOWED.iter().any(|(f, l, _)| f == file && l == line) {
            unknown.push(format!("  {file}:{no}: {line}"));
        }
    }
    let stale: Vec<String> = ALLOWED
        .iter()
        .filter(|(f, l, _)| !found.iter().any(|(ff, ll, _)| ff == f && ll == l))
        .map(|(f, l, _)| format!("  {f}: {l}"))
        .collect();
    assert!(
        unknown.is_empty(),
        "buffers made outside the accounting allocator (use core's alloc::try_output_vec, \
         try_filled or try_collect; or, if the size is bounded by the program text or a \
         constant, add the site to tests/alloc_guard.rs with the reason):\n{}",
        unknown.join("\n")
    );
    assert!(
        stale.is_empty(),
        "allow-list entries of tests/alloc_guard.rs that match no site any more (remove them):\n{}",
        stale.join("\n")
    );
}

#[test]
fn the_scan_sees_the_forms_it_guards() {
    assert!(flagged("let v: Vec<u8> = Vec::with_capacity(n);"));
    assert!(flagged("let v = vec![0u8; n];"));
    assert!(flagged("let v = vec![[0.0; 2]; n];"));
    assert!(!flagged("let v = vec![[0.0; 2], [1.0; 2]];"));
    assert!(!flagged("let v = vec![a, b];"));
    assert!(flagged("v.reserve(n);"));
    assert!(flagged("s.resize(n, 0);"));
    assert!(!flagged("let v = alloc::try_filled(n, 0, &\"x\")?;"));
}

/// Every `unsafe` block says why it is sound: a `// SAFETY:` comment in the
/// comment block directly above the statement that holds it (or on its line),
/// as `clippy::undocumented_unsafe_blocks` (the workspace lints) asks. The scan
/// runs in `cargo test`, so the rule holds without running clippy; test code
/// included.
#[test]
fn every_unsafe_block_has_a_safety_comment() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![];
    let mut dirs = vec![root.join("src")];
    if let Ok(crates) = std::fs::read_dir(root.join("crates")) {
        dirs.extend(crates.flatten().map(|e| e.path().join("src")));
    }
    while let Some(d) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    let (mut blocks, mut missing) = (0, vec![]);
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            let Some(at) = code.find("unsafe") else {
                continue;
            };
            if !code[at + "unsafe".len()..].trim_start().starts_with('{') {
                continue;
            }
            blocks += 1;
            // The statement's first line: up over lines that continue it.
            let mut start = i;
            while start > 0 {
                let above = lines[start - 1].trim();
                let ends = above.is_empty()
                    || above.starts_with("//")
                    || above.ends_with([';', '{', '}', ',']);
                if ends {
                    break;
                }
                start -= 1;
            }
            // The comment block directly above it says SAFETY (or the line does).
            let said = line.contains("SAFETY:")
                || lines[..start]
                    .iter()
                    .rev()
                    .take_while(|l| l.trim().starts_with("//"))
                    .any(|l| l.contains("SAFETY:"));
            if !said {
                let at = f.strip_prefix(root).unwrap_or(f);
                missing.push(format!("{}:{}: {}", at.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(blocks > 50, "the scan found only {blocks} unsafe blocks");
    assert!(
        missing.is_empty(),
        "unsafe blocks without a `// SAFETY:` comment just above:\n{}",
        missing.join("\n")
    );
}

/// A crate whose Cargo.toml says `test = false` (no unit tests, so `cargo
/// test` does not compile it a second time as an empty harness: spec/build.md)
/// must have no `#[test]` in its src/: one added there would never run.
#[test]
fn crates_built_without_a_test_harness_have_no_unit_tests() {
    fn all_rs(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                all_rs(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut checked = 0;
    let mut bad = Vec::new();
    for e in std::fs::read_dir(root.join("crates"))
        .expect("crates/")
        .flatten()
    {
        let toml = std::fs::read_to_string(e.path().join("Cargo.toml")).unwrap_or_default();
        if !toml.lines().any(|l| l.trim() == "test = false") {
            continue;
        }
        checked += 1;
        let mut files = Vec::new();
        all_rs(&e.path().join("src"), &mut files);
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap_or_default();
            if text.contains("#[test]") {
                bad.push(f.display().to_string());
            }
        }
    }
    assert!(checked >= 10, "only {checked} crates say `test = false`");
    assert!(
        bad.is_empty(),
        "unit tests in a crate with `test = false` (they would never run; remove the line from its Cargo.toml): {bad:?}"
    );
}
