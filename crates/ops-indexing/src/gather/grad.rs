//! The rules of Gather and Scatter (add): each is the other's transpose
//! (spec/grad.md §4.2).
//!
//! Gather clamps every start index so that its slice fits, while Scatter skips
//! a window that does not fit. So Gather's cotangent scatters into zeros at the
//! *clamped* indices (written out with `Clamp`), and Scatter's update cotangent
//! gathers only the windows the forward pass applied (a mask of the indices
//! that fit, written out with `Ge`, `Le` and an `and` reduction).

use crate::index_dims::IndexSpace;
use xlet_core::types::ArrayType;
use xlet_ir::rule::{NoRule, RuleCx, brace, filled, scalar};

/// The last index at which a slice of `size` still fits in each component's
/// operand dimension, as an array of the index array's shape (or a scalar when
/// each start index is one number).
pub(crate) fn upper_bounds(
    cx: &mut RuleCx,
    space: &IndexSpace,
    idx: &ArrayType,
    operand: &[usize],
    size: &[usize],
) -> String {
    let bounds: Vec<i64> = space
        .start_map
        .iter()
        .map(|&d| operand[d] as i64 - size[d] as i64)
        .collect();
    let e = idx.elem;
    if space.ivd >= idx.rank() {
        return scalar(e, bounds.first().copied().unwrap_or(0) as f64);
    }
    let items: Vec<String> = bounds.iter().map(|b| b.to_string()).collect();
    let lit = format!("{}[{}] {{{}}}", e.name(), items.len(), items.join(", "));
    cx.bind(format!(
        "BroadcastInDim({lit}, {}, {{{}}})",
        brace(&idx.dims),
        space.ivd
    ))
}

/// The dimension numbers shared by the two ops: the operand's batching
/// dimensions and the index array's, as `name={..}` pairs.
pub(crate) fn batching(space: &IndexSpace, operand_name: &str, idx_name: &str) -> String {
    if space.batching.is_empty() {
        return String::new();
    }
    let ops: Vec<usize> = space.batching.iter().map(|&(o, _)| o).collect();
    let ixs: Vec<usize> = space.batching.iter().map(|&(_, i)| i).collect();
    format!(
        ", {operand_name}={}, {idx_name}={}",
        brace(&ops),
        brace(&ixs)
    )
}

/// Operand dimensions that are neither kept (windowed) nor batching: Gather's
/// collapsed slice dimensions, Scatter's inserted window dimensions.
pub(crate) fn dropped(space: &IndexSpace, kept: &[usize]) -> Vec<usize> {
    (0..space.operand_rank)
        .filter(|d| !kept.contains(d) && !space.batching.iter().any(|&(o, _)| o == *d))
        .collect()
}

/// `Gather(x, idx, ...)`: the cotangent added into zeros of x's shape at the
/// clamped start indices.
pub fn gather(cx: &mut RuleCx, p: &super::plan::Plan) -> Result<(), NoRule> {
    if !cx.is_active(0) {
        return Ok(());
    }
    let x = cx.arg_array(0)?.clone();
    let idx = cx.arg_array(1)?.clone();
    let idx_name = cx.arg(1)?.name.clone();
    let s = &p.space;
    let clamped = if s.start_map.is_empty() {
        idx_name
    } else {
        let hi = upper_bounds(cx, s, &idx, &p.operand_dims, &p.slice_sizes);
        cx.bind(format!(
            "Clamp({}, {idx_name}, {hi})",
            scalar(idx.elem, 0.0)
        ))
    };
    let text = format!(
        "Scatter({}, {clamped}, {}, add, update_window_dims={}, inserted_window_dims={}, scatter_dims_to_operand_dims={}, index_vector_dim={}{})",
        filled(&x, 0.0),
        cx.ct.name,
        brace(&p.offset_dims),
        brace(&dropped(s, &p.kept)),
        brace(&s.start_map),
        s.ivd,
        batching(s, "input_batching_dims", "scatter_indices_batching_dims"),
    );
    cx.send(0, text);
    Ok(())
}
