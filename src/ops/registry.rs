//! The one table of operations. Each op module exports `OPS: &[OpDef]`; adding
//! a module means adding it to `MODULES` below, and nothing else.

use crate::check::call::CallCtx;
use crate::diag::Diag;
use crate::ir::Kernel;
use crate::types::Type;
use std::sync::{Arc, LazyLock};

/// What an op's shape rule returns: the result type and the kernel, with the
/// static attributes it validated baked in.
pub struct Checked {
    pub ty: Type,
    pub kernel: Arc<dyn Kernel>,
}

/// A shape rule: reads its arguments from the call, applies the op's numbered
/// constraints (spec/ops/*.md), and builds the kernel.
pub type ShapeRule = fn(&mut CallCtx) -> Result<Checked, Diag>;

pub struct OpDef {
    /// The canonical name, as in the docs and in spec/ops/.
    pub name: &'static str,
    /// Other names it answers to (matched case-insensitively, like `name`).
    pub aliases: &'static [&'static str],
    /// The call form(s), for `:help` and error messages.
    pub signature: &'static str,
    /// The spec file that documents it; `:help` shows its section for this op.
    pub spec: &'static str,
    pub rule: ShapeRule,
}

const MODULES: &[&[OpDef]] = &[
    super::binary::OPS,
    super::compare::OPS,
    super::unary::OPS,
    super::reshape::OPS,
    super::broadcast::OPS,
    super::broadcast_in_dim::OPS,
    super::clamp::OPS,
    super::collapse::OPS,
    super::convert_element_type::OPS,
    super::get_tuple_element::OPS,
    super::iota::OPS,
    super::select::OPS,
    super::transpose::OPS,
    super::tuple::OPS,
    super::call::OPS,
    super::grad::OPS,
    super::vjp::OPS,
    super::map::OPS,
    super::while_loop::OPS,
    super::conditional::OPS,
    super::sort::OPS,
    super::reduce::OPS,
    super::reduce_window::OPS,
    super::select_and_scatter::OPS,
    super::slice::OPS,
    super::dynamic_slice::OPS,
    super::dynamic_update_slice::OPS,
    super::rev::OPS,
    super::concatenate::OPS,
    super::pad::OPS,
    super::bitcast_convert_type::OPS,
    super::reduce_precision::OPS,
    super::gather::OPS,
    super::scatter::OPS,
    super::dot::OPS,
    super::dot_general::OPS,
    super::conv::OPS,
    super::conv_with_general_padding::OPS,
    super::conv_general_dilated::OPS,
    super::batch_norm_training::OPS,
    super::batch_norm_inference::OPS,
    super::batch_norm_grad::OPS,
    super::rng_uniform::OPS,
    super::rng_normal::OPS,
    super::rng_bit_generator::OPS,
    super::infeed::OPS,
    super::outfeed::OPS,
    super::load_npy::OPS,
    super::replica_id::OPS,
    super::cross_replica_sum::OPS,
    super::all_reduce::OPS,
    super::all_gather::OPS,
    super::all_to_all::OPS,
    super::reduce_scatter::OPS,
    super::collective_permute::OPS,
    super::send::OPS,
    super::recv::OPS,
    super::custom_call::OPS,
];

static TABLE: LazyLock<Vec<&'static OpDef>> =
    LazyLock::new(|| MODULES.iter().flat_map(|m| m.iter()).collect());

pub fn all() -> &'static [&'static OpDef] {
    &TABLE
}

/// Finds an op by name or alias, ignoring case.
pub fn lookup(name: &str) -> Option<&'static OpDef> {
    all().iter().copied().find(|op| {
        op.name.eq_ignore_ascii_case(name)
            || op.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
    })
}

/// XLA operations (from the operation semantics reference) that xlet does not
/// have yet. An op that lands is deleted from this table (a test checks that no
/// name here is also in the registry).
pub const NOT_YET: &[&str] = &[
    "AfterAll",
    "Cholesky",
    "Complex",
    "CompositeCall",
    "Erf",
    "Fft",
    "GetDimensionSize",
    "Imag",
    "OptimizationBarrier",
    "Real",
    "SetDimensionSize",
    "TopK",
    "TriangularSolve",
];

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
    (
        "composite",
        "CompositeCall",
        "CompositeCall (not in xlet yet); Call(f, x) calls a comp",
    ),
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
        "GetDimensionSize (not in xlet yet); sizes are in the type",
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
        "OptimizationBarrier (not in xlet yet)",
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
        "TriangularSolve (not in xlet yet)",
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
        "TopK is an XLA operation not in xlet yet; Sort and then Slice",
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

/// The prelude computation (`add`, `mul`, `max`, `min`, `and`, `or`) that an op
/// name or a foreign name stands for, passed where a computation goes:
/// `maximum` → `max`, `Add` → `add`, `sum` → `add`.
pub fn prelude_name_for(name: &str) -> Option<String> {
    let op = lookup(name)
        .map(|o| o.name)
        .or_else(|| stablehlo(name).map(|(_, xla, _)| xla))
        .or_else(|| match name.to_ascii_lowercase().as_str() {
            "sum" | "plus" => Some("Add"),
            "prod" | "product" | "times" => Some("Mul"),
            "amax" => Some("Max"),
            "amin" => Some("Min"),
            "logical_and" | "all" => Some("And"),
            "logical_or" | "any" => Some("Or"),
            _ => None,
        })?;
    Some(op.to_ascii_lowercase())
}

/// The op an infix or prefix operator stands for (`+` → Add), for `:help +`.
pub fn by_operator(symbol: &str) -> Option<&'static OpDef> {
    let name = match symbol {
        "+" => "Add",
        "-" => "Sub",
        "*" => "Mul",
        "/" => "Div",
        "%" => "Rem",
        "==" => "Eq",
        "!=" => "Ne",
        "<" => "Lt",
        "<=" => "Le",
        ">" => "Gt",
        ">=" => "Ge",
        "&&" => "And",
        "||" => "Or",
        "!" => "Not",
        _ => return None,
    };
    lookup(name)
}

/// The names an op's arguments go by, read from its signature: the lowercase
/// identifiers that are not attribute values (`Compare`'s `type=FLOAT|...`).
/// These are what keyword arguments may be called, and what Tab completes.
pub fn params(op: &OpDef) -> Vec<&'static str> {
    let sig = op.signature;
    let args = sig.find('(').map_or("", |i| &sig[i + 1..]);
    let mut out: Vec<&'static str> = vec![];
    let mut after_eq = false;
    let mut start = None;
    for (i, c) in args
        .char_indices()
        .chain(std::iter::once((args.len(), ' ')))
    {
        if c.is_ascii_alphanumeric() || c == '_' {
            start.get_or_insert(i);
            continue;
        }
        if let Some(s) = start.take() {
            let word = &args[s..i];
            let is_name = word.starts_with(|c: char| c.is_ascii_lowercase());
            if is_name && !after_eq && !out.contains(&word) {
                out.push(word);
            }
        }
        match c {
            '=' => after_eq = true,
            ',' | '[' | ']' | ')' => after_eq = false,
            _ => {}
        }
    }
    out
}

/// The section of an op's spec file about it: from its heading to the next heading
/// of the same or higher level.
pub fn spec_section(op: &OpDef) -> String {
    let lines: Vec<&str> = op.spec.lines().collect();
    let is_heading = |l: &str| l.starts_with('#');
    let level = |l: &str| l.chars().take_while(|&c| c == '#').count();
    let start = lines.iter().position(|l| {
        is_heading(l)
            && l.trim_start_matches('#')
                .trim()
                .eq_ignore_ascii_case(op.name)
    });
    let Some(start) = start else {
        return op.spec.to_string();
    };
    let lvl = level(lines[start]);
    let end = lines[start + 1..]
        .iter()
        .position(|l| is_heading(l) && level(l) <= lvl)
        .map(|i| start + 1 + i)
        .unwrap_or(lines.len());
    lines[start..end].join("\n")
}

/// The first paragraph of an op's spec section: what `:help OP` prints under the signature.
pub fn summary(op: &OpDef) -> String {
    let section = spec_section(op);
    section
        .split("\n\n")
        .map(str::trim)
        .find(|p| {
            !p.is_empty() && !p.starts_with('#') && !p.starts_with('`') && !p.starts_with('|')
        })
        .unwrap_or("")
        .to_string()
}

/// Names close to `name` (for "did you mean"): case-insensitive edit distance at most 2.
pub fn similar(name: &str) -> Vec<&'static str> {
    let lower = name.to_ascii_lowercase();
    let mut out: Vec<(usize, &'static str)> = all()
        .iter()
        .flat_map(|op| std::iter::once(op.name).chain(op.aliases.iter().copied()))
        .map(|n| (edit_distance(&lower, &n.to_ascii_lowercase()), n))
        .filter(|(d, _)| *d <= 2)
        .collect();
    out.sort();
    out.into_iter().map(|(_, n)| n).take(3).collect()
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

#[cfg(test)]
mod tests {
    use super::*;

    fn params_of(name: &str) -> Vec<&'static str> {
        lookup(name).map(params).unwrap_or_default()
    }

    #[test]
    fn params_come_from_signatures() {
        assert_eq!(params_of("Transpose"), ["operand", "permutation"]);
        assert_eq!(params_of("Reshape"), ["operand", "dimensions", "new_sizes"]);
        assert_eq!(params_of("Add"), ["lhs", "rhs", "broadcast_dimensions"]);
        assert_eq!(
            params_of("Eq"),
            ["lhs", "rhs", "broadcast_dimensions", "type"]
        );
        assert_eq!(params_of("Clamp"), ["min", "operand", "max"]);
        assert_eq!(params_of("Iota"), ["shape", "iota_dimension"]);
        // ReplicaId() is the one op without arguments.
        for op in all().iter().filter(|op| op.name != "ReplicaId") {
            assert!(!params(op).is_empty(), "{} has no parameters", op.name);
        }
    }

    #[test]
    fn not_yet_table_holds_only_missing_ops() {
        for n in NOT_YET {
            assert!(
                lookup(n).is_none(),
                "{n} is implemented: remove it from NOT_YET"
            );
        }
        assert_eq!(not_yet("cholesky"), Some("Cholesky"));
        let names = FOREIGN
            .iter()
            .chain(JAX)
            .map(|(n, _)| *n)
            .chain(STABLEHLO.iter().map(|(n, _, _)| *n));
        let mut seen: Vec<String> = vec![];
        for n in names {
            assert!(
                lookup(n).is_none(),
                "{n} is an op: remove it from the foreign tables"
            );
            assert!(not_yet(n).is_none(), "{n} is an XLA op: not foreign");
            let lower = n.to_ascii_lowercase();
            assert!(!seen.contains(&lower), "{n} is in the foreign tables twice");
            seen.push(lower);
        }
        assert!(foreign("sum").is_some_and(|h| h.contains("Reduce")));
        assert_eq!(not_yet("Add"), None);
    }

    /// Every op of the StableHLO spec's op list (its `### name` headings) is
    /// either an op xlet knows by that name (ignoring case), one XLA lacks yet,
    /// or in `STABLEHLO` with an XLA op that exists.
    #[test]
    fn every_stablehlo_name_is_answered() {
        const SPEC_OPS: &str = "abs add after_all all_gather all_reduce all_to_all and \
            async_done async_start batch_norm_grad batch_norm_inference batch_norm_training \
            bitcast_convert broadcast_in_dim case cbrt ceil cholesky clamp collective_broadcast \
            collective_permute collective_reduce compare complex composite concatenate constant \
            convert convolution cosine count_leading_zeros custom_call divide dot_general \
            dynamic_broadcast_in_dim dynamic_conv dynamic_gather dynamic_iota dynamic_pad \
            dynamic_reshape dynamic_slice dynamic_update_slice exponential exponential_minus_one \
            fft floor gather get_dimension_size get_tuple_element if imag infeed iota is_finite \
            log log_plus_one logistic map maximum minimum multiply negate not optimization_barrier \
            or outfeed pad partition_id popcnt power real recv reduce reduce_precision \
            reduce_scatter reduce_window remainder replica_id reshape reverse rng \
            rng_bit_generator round_nearest_afz round_nearest_even rsqrt scatter select \
            select_and_scatter send shift_left shift_right_arithmetic shift_right_logical sign \
            sine slice sort sqrt subtract tan tanh transpose triangular_solve tuple \
            uniform_dequantize uniform_quantize while xor";
        let mut missing = vec![];
        for n in SPEC_OPS.split_whitespace() {
            if lookup(n).is_none() && not_yet(n).is_none() && stablehlo(n).is_none() {
                missing.push(n);
            }
        }
        assert!(
            missing.is_empty(),
            "StableHLO names with no answer: {missing:?}"
        );
        // The XLA names the table gives are real: an op of the registry or one
        // XLA has that xlet lacks (or a phrase for the few with no one op).
        for (n, xla, _) in STABLEHLO {
            let phrase = xla.contains(' ') || xla.starts_with(char::is_lowercase);
            let known = lookup(xla).is_some() || not_yet(xla).is_some();
            let missing_ok = ["PartitionId"].contains(xla);
            assert!(phrase || known || missing_ok, "{n}: {xla} is not an op");
        }
        assert_eq!(
            foreign("maximum").as_deref(),
            Some("it is StableHLO's name, and XLA calls it Max: Max(x, y)")
        );
        assert!(foreign("Exponential").is_some_and(|h| h.contains("Exp(x)")));
        assert!(foreign("argsort").is_some_and(|h| h.contains("Sort({x, Iota")));
        assert!(foreign("scan").is_some_and(|h| h.contains("While")));
        // The names that are XLA's too stay ops (and the prelude's comps).
        for n in ["add", "reshape", "select", "sort", "while", "max"] {
            assert!(lookup(n).is_some() && foreign(n).is_none(), "{n}");
        }
        assert_eq!(prelude_name_for("maximum").as_deref(), Some("max"));
        assert_eq!(prelude_name_for("Add").as_deref(), Some("add"));
        assert_eq!(prelude_name_for("sum").as_deref(), Some("add"));
        assert_eq!(prelude_name_for("x"), None);
    }

    #[test]
    fn operators_name_ops() {
        assert_eq!(by_operator("+").map(|o| o.name), Some("Add"));
        assert_eq!(by_operator("&&").map(|o| o.name), Some("And"));
        assert!(by_operator("@").is_none());
    }

    #[test]
    fn nearest_names() {
        let names = ["operand", "permutation"];
        assert_eq!(nearest("perm", &names), Some("permutation"));
        assert_eq!(nearest("permutaton", &names), Some("permutation"));
        assert_eq!(nearest("zzz", &names), None);
        let names = ["lhs", "rhs", "broadcast_dimensions"];
        assert_eq!(
            nearest("broadcast_dims", &names),
            Some("broadcast_dimensions")
        );
        assert_eq!(nearest("lsh", &names), Some("lhs"));
    }
}
