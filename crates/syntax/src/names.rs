//! Names users bring from elsewhere: XLA operations xlet does not have yet,
//! and what numpy, jax.numpy, PyTorch and StableHLO call things, with how XLA
//! says the same. The parser's errors and the checker's "not an operation"
//! both answer from here; neither needs the op table for it. Also the
//! edit distance behind every "did you mean".

/// XLA operations (from the operation semantics reference) that xlet does not
/// have yet. An op that lands is deleted from this table (a test checks that no
/// name here is also in the registry).
pub const NOT_YET: &[&str] = &["AfterAll", "SetDimensionSize"];

/// The XLA spelling of `name` if it is an XLA operation xlet does not have yet.
pub fn not_yet(name: &str) -> Option<&'static str> {
    NOT_YET
        .iter()
        .copied()
        .find(|n| n.eq_ignore_ascii_case(name))
}

/// Names users bring from numpy, jax.numpy and PyTorch that are not XLA
/// operations, with how XLA says the same thing. Checked before the nearest-name
/// guess, which would offer `Sub` for `Sum`. (A test keeps every name here out
/// of the registry.)
pub const FOREIGN: &[(&str, &str)] = &[
    (
        "Sum",
        "XLA sums with Reduce and the `add` computation: Reduce(x, 0, add, {0})",
    ),
    (
        "ReduceSum",
        "XLA sums with Reduce and the `add` computation: Reduce(x, 0, add, {0})",
    ),
    (
        "Cumsum",
        "a running sum is ReduceWindow with `add` over a window as long as the axis, padded at the front",
    ),
    (
        "Mean",
        "XLA has no mean: Reduce(x, 0, add, {0}) and then Div by the number of elements",
    ),
    (
        "Prod",
        "XLA multiplies with Reduce and the `mul` computation: Reduce(x, 1, mul, {0})",
    ),
    (
        "ReduceMax",
        "XLA takes a maximum with Reduce and the `max` computation: Reduce(x, -inf, max, {0})",
    ),
    (
        "Amax",
        "XLA takes a maximum with Reduce and the `max` computation: Reduce(x, -inf, max, {0})",
    ),
    (
        "Argmax",
        "XLA has no argmax: Reduce a (value, Iota index) pair with a comp that keeps the larger value's index",
    ),
    (
        "MatMul",
        "XLA multiplies matrices with Dot (or DotGeneral for batches)",
    ),
    (
        "Einsum",
        "XLA contracts with DotGeneral: name the contracting and batch dimensions",
    ),
    ("Relu", "XLA has no relu: Max(x, 0)"),
    ("Sigmoid", "XLA calls it Logistic"),
    (
        "Softmax",
        "XLA has no softmax: Exp(x - max) divided by its Reduce with `add`",
    ),
    ("Where", "XLA calls it Select(pred, on_true, on_false)"),
    ("Cast", "XLA calls it ConvertElementType(x, f32)"),
    ("Astype", "XLA calls it ConvertElementType(x, f32)"),
    (
        "Squeeze",
        "XLA drops or adds size-1 dimensions with Reshape",
    ),
    (
        "ExpandDims",
        "XLA drops or adds size-1 dimensions with Reshape",
    ),
    (
        "Unsqueeze",
        "XLA drops or adds size-1 dimensions with Reshape",
    ),
    ("Flatten", "XLA flattens with Reshape(x, {n})"),
    ("View", "XLA reshapes with Reshape(x, {sizes})"),
    ("Permute", "XLA calls it Transpose(x, {permutation})"),
    (
        "Swapaxes",
        "XLA swaps dimensions with Transpose(x, {permutation})",
    ),
    (
        "Stack",
        "XLA stacks with Reshape (add a size-1 dimension) and Concatenate",
    ),
    (
        "Zeros",
        "XLA fills with Broadcast: Broadcast(f32 0, {2, 3})",
    ),
    ("Ones", "XLA fills with Broadcast: Broadcast(f32 1, {2, 3})"),
    ("Full", "XLA fills with Broadcast: Broadcast(f32 7, {2, 3})"),
    ("Arange", "XLA counts with Iota(s32[5], 0)"),
    (
        "Expand",
        "XLA broadcasts explicitly with BroadcastInDim or Broadcast",
    ),
    (
        "Repeat",
        "XLA repeats with BroadcastInDim to a new dimension and then Reshape",
    ),
    (
        "Tile",
        "XLA tiles with BroadcastInDim to a new dimension and then Reshape",
    ),
];

/// StableHLO's op names (from the StableHLO spec) that are not xlet's names
/// for the same operation, with the XLA operation and how it is called. The
/// StableHLO names that match an XLA name but for case (`add`, `reshape`,
/// `select`, `sort`, `while`, ...) are the ops themselves and are not here.
/// (A test keeps every name here out of the registry and checks that the
/// whole StableHLO op list is covered.)
pub const STABLEHLO: &[(&str, &str, &str)] = &[
    ("after_all", "AfterAll", "AfterAll (not in xlet yet)"),
    (
        "all_gather",
        "AllGather",
        "AllGather(x, all_gather_dimension=0)",
    ),
    ("all_reduce", "AllReduce", "AllReduce(x, add)"),
    (
        "all_to_all",
        "AllToAll",
        "AllToAll(x, split_dimension=0, concat_dimension=0, split_count=2)",
    ),
    (
        "async_done",
        "the op itself",
        "XLA's builder has no async pair: call the op directly",
    ),
    (
        "async_start",
        "the op itself",
        "XLA's builder has no async pair: call the op directly",
    ),
    (
        "batch_norm_grad",
        "BatchNormGrad",
        "BatchNormGrad(x, scale, mean, variance, grad_output, epsilon, feature_index)",
    ),
    (
        "batch_norm_inference",
        "BatchNormInference",
        "BatchNormInference(x, scale, offset, mean, variance, epsilon, feature_index)",
    ),
    (
        "batch_norm_training",
        "BatchNormTraining",
        "BatchNormTraining(x, scale, offset, epsilon, feature_index)",
    ),
    (
        "bitcast_convert",
        "BitcastConvertType",
        "BitcastConvertType(x, s32)",
    ),
    (
        "broadcast_in_dim",
        "BroadcastInDim",
        "BroadcastInDim(x, {2, 3}, {1})",
    ),
    (
        "case",
        "Conditional",
        "Conditional(index, {operands}, {branches})",
    ),
    (
        "collective_broadcast",
        "CollectivePermute",
        "CollectivePermute(x, {{0, 1}}) sends from one replica to another",
    ),
    (
        "collective_reduce",
        "AllReduce",
        "AllReduce(x, add) (every replica gets the result)",
    ),
    (
        "collective_permute",
        "CollectivePermute",
        "CollectivePermute(x, {{0, 1}, {1, 0}})",
    ),
    ("compare", "Eq, Ne, Lt, Le, Gt or Ge", "Gt(x, y), or x > y"),
    ("constant", "a literal", "write the value: f32[2] {1, 2}"),
    (
        "convolution",
        "ConvGeneralDilated",
        "ConvGeneralDilated(lhs, rhs, {1, 1}, VALID)",
    ),
    ("cosine", "Cos", "Cos(x)"),
    ("count_leading_zeros", "Clz", "Clz(x)"),
    (
        "custom_call",
        "CustomCall",
        "CustomCall(\"name\", x, shape=f32[2])",
    ),
    ("divide", "Div", "Div(x, y), or x / y"),
    (
        "dot_general",
        "DotGeneral",
        "DotGeneral(x, y, lhs_contracting_dimensions={1}, rhs_contracting_dimensions={0})",
    ),
    (
        "dynamic_broadcast_in_dim",
        "BroadcastInDim",
        "BroadcastInDim(x, {2, 3}, {1}) (XLA's shapes are static)",
    ),
    (
        "dynamic_conv",
        "ConvGeneralDilated",
        "ConvGeneralDilated(lhs, rhs, {1, 1}, {{1, 1}, {1, 1}}) (XLA's padding is static)",
    ),
    (
        "dynamic_gather",
        "Gather",
        "Gather(x, indices, ...) (XLA's slice sizes are static)",
    ),
    (
        "dynamic_iota",
        "Iota",
        "Iota(s32[5], 0) (XLA's shapes are static)",
    ),
    (
        "dynamic_pad",
        "Pad",
        "Pad(x, 0.0, {{1, 1, 0}}) (XLA's padding is static)",
    ),
    (
        "dynamic_reshape",
        "Reshape",
        "Reshape(x, {6}) (XLA's shapes are static)",
    ),
    ("dynamic_slice", "DynamicSlice", "DynamicSlice(x, {i}, {2})"),
    (
        "dynamic_update_slice",
        "DynamicUpdateSlice",
        "DynamicUpdateSlice(x, update, {i})",
    ),
    ("exponential", "Exp", "Exp(x)"),
    ("exponential_minus_one", "Expm1", "Expm1(x)"),
    (
        "get_dimension_size",
        "GetDimensionSize",
        "GetDimensionSize(x, 0)",
    ),
    (
        "get_tuple_element",
        "GetTupleElement",
        "GetTupleElement(t, 0)",
    ),
    (
        "if",
        "Conditional",
        "Conditional(pred, true_operand, true_comp, false_operand, false_comp)",
    ),
    ("is_finite", "IsFinite", "IsFinite(x)"),
    ("log_plus_one", "Log1p", "Log1p(x)"),
    ("maximum", "Max", "Max(x, y)"),
    ("minimum", "Min", "Min(x, y)"),
    ("multiply", "Mul", "Mul(x, y), or x * y"),
    ("negate", "Neg", "Neg(x), or -x"),
    (
        "optimization_barrier",
        "OptimizationBarrier",
        "OptimizationBarrier(x)",
    ),
    (
        "partition_id",
        "PartitionId",
        "PartitionId (not in xlet); ReplicaId() numbers the replicas",
    ),
    ("power", "Pow", "Pow(x, y)"),
    (
        "reduce_precision",
        "ReducePrecision",
        "ReducePrecision(x, exponent_bits=5, mantissa_bits=10)",
    ),
    (
        "reduce_scatter",
        "ReduceScatter",
        "ReduceScatter(x, add, scatter_dimension=0, shard_count=2)",
    ),
    (
        "reduce_window",
        "ReduceWindow",
        "ReduceWindow(x, 0.0, add, {2}, {1}, VALID)",
    ),
    ("remainder", "Rem", "Rem(x, y), or x % y"),
    ("replica_id", "ReplicaId", "ReplicaId()"),
    (
        "rng",
        "RngUniform or RngNormal",
        "RngUniform(0.0, 1.0, f32[3])",
    ),
    (
        "rng_bit_generator",
        "RngBitGenerator",
        "RngBitGenerator(state, u32[4])",
    ),
    ("round_nearest_afz", "RoundNearestAfz", "RoundNearestAfz(x)"),
    (
        "round_nearest_even",
        "RoundNearestEven",
        "RoundNearestEven(x)",
    ),
    (
        "select_and_scatter",
        "SelectAndScatter",
        "SelectAndScatter(x, ge, {2}, {2}, VALID, source, 0.0, add)",
    ),
    ("shift_left", "ShiftLeft", "ShiftLeft(x, y)"),
    (
        "shift_right_arithmetic",
        "ShiftRightArithmetic",
        "ShiftRightArithmetic(x, y)",
    ),
    (
        "shift_right_logical",
        "ShiftRightLogical",
        "ShiftRightLogical(x, y)",
    ),
    ("sine", "Sin", "Sin(x)"),
    ("subtract", "Sub", "Sub(x, y), or x - y"),
    (
        "triangular_solve",
        "TriangularSolve",
        "TriangularSolve(a, b, left_side=true, lower=true, unit_diagonal=false, transpose_a=NO_TRANSPOSE)",
    ),
    (
        "uniform_dequantize",
        "no op",
        "XLA's builder has no quantized types: ConvertElementType and Mul by the scale",
    ),
    (
        "uniform_quantize",
        "no op",
        "XLA's builder has no quantized types: Div by the scale, RoundNearestEven and ConvertElementType",
    ),
];

/// Names from jax.numpy and jax.lax that are not XLA operations (beyond
/// `FOREIGN`'s), with how XLA says the same thing.
pub const JAX: &[(&str, &str)] = &[
    ("negative", "XLA calls it Neg: Neg(x), or -x"),
    ("absolute", "XLA calls it Abs: Abs(x)"),
    ("square", "XLA squares with Mul(x, x)"),
    ("reciprocal", "XLA has no reciprocal: Div(1.0, x)"),
    ("true_divide", "XLA calls it Div: Div(x, y)"),
    (
        "floor_divide",
        "XLA divides integers with Div (which rounds toward zero); on floats Floor(Div(x, y))",
    ),
    (
        "mod",
        "XLA calls it Rem: Rem(x, y) (the sign follows x, as C's fmod)",
    ),
    ("arctan2", "XLA calls it Atan2: Atan2(y, x)"),
    ("greater", "XLA calls it Gt: Gt(x, y), or x > y"),
    ("greater_equal", "XLA calls it Ge: Ge(x, y), or x >= y"),
    ("less", "XLA calls it Lt: Lt(x, y), or x < y"),
    ("less_equal", "XLA calls it Le: Le(x, y), or x <= y"),
    ("equal", "XLA calls it Eq: Eq(x, y), or x == y"),
    ("not_equal", "XLA calls it Ne: Ne(x, y), or x != y"),
    (
        "clip",
        "XLA calls it Clamp, with the operand in the middle: Clamp(min, x, max)",
    ),
    (
        "argsort",
        "XLA sorts an Iota along with the keys: GetTupleElement(Sort({x, Iota(s32[5], 0)}, comparator=lt), 1) with `comp lt(a: f32, b: f32, i: s32, j: s32) -> pred { a < b }`",
    ),
    (
        "scan",
        "XLA loops with While(cond, body, init): the carry is a tuple, and a running result is written with DynamicUpdateSlice",
    ),
    (
        "fori_loop",
        "XLA loops with While(cond, body, init), the counter in the carried tuple",
    ),
    ("while_loop", "XLA calls it While(cond, body, init)"),
    (
        "cond",
        "XLA calls it Conditional(pred, true_operand, true_comp, false_operand, false_comp)",
    ),
    (
        "switch",
        "XLA calls it Conditional(index, {operands}, {branches})",
    ),
    ("flip", "XLA calls it Rev(x, {0})"),
    (
        "take",
        "XLA picks elements by index with Gather (or DynamicSlice for one)",
    ),
    ("take_along_axis", "XLA picks elements by index with Gather"),
    (
        "broadcast_to",
        "XLA broadcasts with BroadcastInDim(x, {sizes}, {dims})",
    ),
    (
        "zeros_like",
        "XLA fills with Broadcast: Broadcast(f32 0, {2, 3})",
    ),
    (
        "ones_like",
        "XLA fills with Broadcast: Broadcast(f32 1, {2, 3})",
    ),
    (
        "full_like",
        "XLA fills with Broadcast: Broadcast(f32 7, {2, 3})",
    ),
    (
        "amin",
        "XLA takes a minimum with Reduce and the `min` computation: Reduce(x, inf, min, {0})",
    ),
    (
        "argmin",
        "XLA has no argmin: Reduce a (value, Iota index) pair with a comp that keeps the smaller value's index",
    ),
    (
        "cumprod",
        "a running product is ReduceWindow with `mul` over a window as long as the axis, padded at the front",
    ),
    (
        "all",
        "XLA tests all with Reduce and the `and` computation: Reduce(p, true, and, {0})",
    ),
    (
        "any",
        "XLA tests any with Reduce and the `or` computation: Reduce(p, false, or, {0})",
    ),
    ("split", "XLA cuts an array with Slice, once per piece"),
    (
        "eye",
        "XLA builds an identity from two Iotas: ConvertElementType(Eq(Iota(s32[3x3], 0), Iota(s32[3x3], 1)), f32)",
    ),
    (
        "linspace",
        "XLA counts with Iota and scales: Iota(f32[5], 0) * step + start",
    ),
    (
        "top_k",
        "XLA's TopK: TopK(x, k) gives (values, indices) along the last dimension",
    ),
];

/// How XLA says what `name` (a numpy, jax, PyTorch or StableHLO name) does,
/// if it is one: the text after "`name` is not an XLA operation; ".
pub fn foreign(name: &str) -> Option<String> {
    if let Some(&(_, how)) = FOREIGN
        .iter()
        .chain(JAX)
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
    {
        return Some(how.to_string());
    }
    let (_, xla, call) = stablehlo(name)?;
    Some(format!(
        "it is StableHLO's name, and XLA calls it {xla}: {call}"
    ))
}

/// The StableHLO table's entry for `name`, ignoring case.
pub fn stablehlo(name: &str) -> Option<(&'static str, &'static str, &'static str)> {
    STABLEHLO
        .iter()
        .copied()
        .find(|(n, _, _)| n.eq_ignore_ascii_case(name))
}

/// The name in `names` nearest to `name`, for "did you mean": one it starts
/// (`perm` → `permutation`), else the closest by edit distance if that is at most
/// 2 or a third of the longer name (`broadcast_dims` → `broadcast_dimensions`).
pub fn nearest<'n>(name: &str, names: &[&'n str]) -> Option<&'n str> {
    let lower = name.to_ascii_lowercase();
    names
        .iter()
        .filter_map(|n| {
            let nl = n.to_ascii_lowercase();
            if lower.len() >= 2 && nl.starts_with(&lower) {
                return Some((0, *n));
            }
            let d = edit_distance(&lower, &nl);
            let allowed = 2.max(lower.len().max(nl.len()) / 3);
            (d <= allowed).then_some((d, *n))
        })
        .min()
        .map(|(_, n)| n)
}

/// Names longer than this (in bytes) are not compared for "did you mean": the
/// distance costs the product of the lengths (two 100,000-character names took
/// a minute), and no one mistypes a name that long into another.
pub const MAX_SUGGEST_LEN: usize = 64;

/// Edit distance (Levenshtein, by characters); `usize::MAX` when either name is
/// longer than `MAX_SUGGEST_LEN` and they differ, so the cost is bounded.
pub fn edit_distance(a: &str, b: &str) -> usize {
    if a.len() > MAX_SUGGEST_LEN || b.len() > MAX_SUGGEST_LEN {
        return if a == b { 0 } else { usize::MAX };
    }
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, &cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}
