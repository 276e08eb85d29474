//! The StableHLO ops with structured attributes or regions beyond the
//! elementwise ones (spec/import.md §7): gather and scatter, convolution,
//! windows, control flow, and the rest of the op table's long tail.

use super::Cx;
use super::attrs::{bad, brace, need};
use crate::error::{ImportError, Result};
use crate::mlir::attr::Attr;
use crate::mlir::op::Op;
use xlet_core::types::Type;

/// The element type of each of `op`'s operands from `from`, as scalars (the
/// block-argument types of a region that combines elements).
pub(crate) fn scalar_types(cx: &Cx, op: &Op, range: std::ops::Range<usize>) -> Vec<Type> {
    op.operands
        .get(range)
        .unwrap_or_default()
        .iter()
        .filter_map(|u| cx.value_type(u))
        .map(|t| match t {
            Type::Array(a) => Type::scalar(a.elem),
            other => other,
        })
        .collect()
}

/// One integer list of a dimension-numbers dictionary; absent is `{}`.
fn dims_of(op: &Op, d: &Attr, key: &str) -> Result<String> {
    match d.get(key) {
        Some(a) => a
            .ints()
            .map(|v| brace(&v))
            .ok_or_else(|| bad(op, key, "a list of integers")),
        None => Ok("{}".into()),
    }
}

fn int_of(op: &Op, d: &Attr, key: &str) -> Result<i128> {
    d.get(key)
        .and_then(Attr::int)
        .ok_or_else(|| bad(op, key, "an integer"))
}

fn flag(op: &Op, key: &str) -> bool {
    op.attr(key).and_then(Attr::bool).unwrap_or(false)
}

fn ints_attr(op: &Op, key: &str) -> Result<Vec<i128>> {
    need(op, key)?
        .ints()
        .ok_or_else(|| bad(op, key, "a list of integers"))
}

pub(crate) fn gather(op: &Op, v: &[String]) -> Result<String> {
    if v.len() != 2 {
        return Err(ImportError::at(
            op.span.clone(),
            "a gather takes an operand and the start indices".into(),
        ));
    }
    let d = need(op, "dimension_numbers")?;
    Ok(format!(
        "Gather({}, {}, offset_dims={}, collapsed_slice_dims={}, start_index_map={}, \
         index_vector_dim={}, slice_sizes={}, operand_batching_dims={}, \
         start_indices_batching_dims={}, indices_are_sorted={})",
        v[0],
        v[1],
        dims_of(op, d, "offset_dims")?,
        dims_of(op, d, "collapsed_slice_dims")?,
        dims_of(op, d, "start_index_map")?,
        int_of(op, d, "index_vector_dim")?,
        brace(&ints_attr(op, "slice_sizes")?),
        dims_of(op, d, "operand_batching_dims")?,
        dims_of(op, d, "start_indices_batching_dims")?,
        flag(op, "indices_are_sorted"),
    ))
}

/// `scatter(operands..., indices, updates...)`: N operands and N updates.
pub(crate) fn scatter(cx: &mut Cx, op: &Op, v: &[String]) -> Result<String> {
    if v.len() < 3 || v.len() % 2 == 0 {
        return Err(ImportError::at(
            op.span.clone(),
            "a scatter takes N operands, the indices and N updates".into(),
        ));
    }
    let n = (v.len() - 1) / 2;
    let d = need(op, "scatter_dimension_numbers")?;
    let region = op.regions.first().ok_or_else(|| {
        ImportError::at(op.span.clone(), "a scatter needs its update region".into())
    })?;
    // The region takes every operand's current element, then every update.
    let mut args = scalar_types(cx, op, 0..n);
    args.extend(scalar_types(cx, op, n + 1..2 * n + 1));
    let comp = cx.region_comp("update", region, &args, false)?;
    let group = |xs: &[String]| {
        if n == 1 {
            xs[0].clone()
        } else {
            format!("{{{}}}", xs.join(", "))
        }
    };
    Ok(format!(
        "Scatter({}, {}, {}, {comp}, update_window_dims={}, inserted_window_dims={}, \
         scatter_dims_to_operand_dims={}, index_vector_dim={}, input_batching_dims={}, \
         scatter_indices_batching_dims={}, indices_are_sorted={}, unique_indices={})",
        group(&v[..n]),
        v[n],
        group(&v[n + 1..]),
        dims_of(op, d, "update_window_dims")?,
        dims_of(op, d, "inserted_window_dims")?,
        dims_of(op, d, "scatter_dims_to_operand_dims")?,
        int_of(op, d, "index_vector_dim")?,
        dims_of(op, d, "input_batching_dims")?,
        dims_of(op, d, "scatter_indices_batching_dims")?,
        flag(op, "indices_are_sorted"),
        flag(op, "unique_indices"),
    ))
}
