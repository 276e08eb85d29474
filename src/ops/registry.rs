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

/// How XLA says what `name` (a numpy, jax or PyTorch name) does, if it is one.
pub fn foreign(name: &str) -> Option<&'static str> {
    FOREIGN
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|&(_, how)| how)
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
        for (n, _) in FOREIGN {
            assert!(lookup(n).is_none(), "{n} is an op: remove it from FOREIGN");
            assert!(not_yet(n).is_none(), "{n} is an XLA op: not foreign");
        }
        assert!(foreign("sum").is_some_and(|h| h.contains("Reduce")));
        assert_eq!(not_yet("Add"), None);
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
