//! The one table of operations. Each op module exports `OPS: &[OpDef]`; adding
//! a module means adding it to `MODULES` below, and nothing else. The session
//! hands `table()` to the checker.

use std::sync::LazyLock;
pub use xlet_check::table::{Checked, OpDef, OpTable, ShapeRule, params, spec_section, summary};
pub use xlet_ops_common::registry::OpId;
pub use xlet_syntax::names::*;

const MODULES: &[&[OpDef]] = &[
    super::binary::OPS,
    super::compare::OPS,
    super::unary::OPS,
    super::complex::OPS,
    super::reshape::OPS,
    super::broadcast::OPS,
    super::broadcast_in_dim::OPS,
    super::clamp::OPS,
    super::collapse::OPS,
    super::convert_element_type::OPS,
    super::get_tuple_element::OPS,
    super::get_dimension_size::OPS,
    super::optimization_barrier::OPS,
    super::iota::OPS,
    super::select::OPS,
    super::transpose::OPS,
    super::tuple::OPS,
    super::call::OPS,
    super::composite_call::OPS,
    super::grad::OPS,
    super::vjp::OPS,
    super::map::OPS,
    super::while_loop::OPS,
    super::conditional::OPS,
    super::sort::OPS,
    super::top_k::OPS,
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
    super::fft::OPS,
    super::conv::OPS,
    super::conv_with_general_padding::OPS,
    super::conv_general_dilated::OPS,
    super::batch_norm_training::OPS,
    super::batch_norm_inference::OPS,
    super::batch_norm_grad::OPS,
    super::cholesky::OPS,
    super::triangular_solve::OPS,
    super::rng_uniform::OPS,
    super::rng_normal::OPS,
    super::rng_bit_generator::OPS,
    super::infeed::OPS,
    super::outfeed::OPS,
    super::load_npy::OPS,
    super::save_npy::OPS,
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

static TABLE: LazyLock<OpTable> =
    LazyLock::new(|| OpTable::new(MODULES.iter().flat_map(|m| m.iter()).collect()));

/// Every op xlet has.
pub fn table() -> &'static OpTable {
    &TABLE
}

pub fn all() -> &'static [&'static OpDef] {
    table().all()
}

/// Finds an op by name or alias, ignoring case.
pub fn lookup(name: &str) -> Option<&'static OpDef> {
    table().lookup(name)
}

pub fn prelude_name_for(name: &str) -> Option<String> {
    table().prelude_name_for(name)
}

pub fn by_operator(symbol: &str) -> Option<&'static OpDef> {
    table().by_operator(symbol)
}

pub fn similar(name: &str) -> Vec<&'static str> {
    table().similar(name)
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
        for op in all().iter().filter(|op| op.name() != "ReplicaId") {
            assert!(!params(op).is_empty(), "{} has no parameters", op.name());
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
        assert_eq!(not_yet("setdimensionsize"), Some("SetDimensionSize"));
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
    fn every_op_id_has_exactly_one_op() {
        for &id in OpId::ALL {
            let n = all().iter().filter(|o| o.id == id).count();
            assert_eq!(n, 1, "{id} is in the table {n} times");
            assert_eq!(table().get(id).map(|o| o.name()), Some(id.name()));
        }
        assert_eq!(all().len(), OpId::ALL.len());
    }

    #[test]
    fn operators_name_ops() {
        assert_eq!(by_operator("+").map(|o| o.name()), Some("Add"));
        assert_eq!(by_operator("&&").map(|o| o.name()), Some("And"));
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
