//! Scatter's gradient rule (add): Gather's transpose (spec/grad.md §4.2; the
//! shared pieces are in `gather::grad`).

use crate::gather::grad::{batching, dropped, upper_bounds};
use xlet_eval::comp::{Monoid, monoid};
use xlet_ir::Comp;
use xlet_ir::rule::{NoRule, RuleCx, brace, filled, scalar};

/// `Scatter(x, idx, u, add, ...)`: x gets the cotangent; u gets the cotangent
/// gathered at the windows that fit (zeros for the skipped ones).
pub fn scatter(cx: &mut RuleCx, p: &super::plan::Plan, comp: &Comp) -> Result<(), NoRule> {
    if cx.args.len() != 3 {
        return Err(NoRule(
            "Scatter of several operands has no gradient rule in xlet yet".into(),
        ));
    }
    if monoid(comp) != Some(Monoid::Add) {
        return Err(NoRule(format!(
            "Scatter with the update computation `{}` has no gradient rule (Scatter with add has)",
            comp.name
        )));
    }
    let c = cx.ct.name.clone();
    cx.send(0, c.clone());
    if !cx.is_active(2) {
        return Ok(());
    }
    let u = cx.arg_array(2)?.clone();
    let idx = cx.arg_array(1)?.clone();
    let idx_name = cx.arg(1)?.name.clone();
    let s = &p.space;
    let gathered = format!(
        "Gather({c}, {idx_name}, offset_dims={}, collapsed_slice_dims={}, start_index_map={}, index_vector_dim={}, slice_sizes={}{})",
        brace(&p.window_dims),
        brace(&dropped(s, &p.kept)),
        brace(&s.start_map),
        s.ivd,
        brace(&p.extent),
        batching(s, "operand_batching_dims", "start_indices_batching_dims"),
    );
    if s.start_map.is_empty() {
        cx.send(2, gathered);
        return Ok(());
    }
    let g = cx.bind(gathered);
    // Which windows the forward pass applied: every start in [0, n - extent].
    let hi = upper_bounds(cx, s, &idx, &p.operand_dims, &p.extent);
    let lo = cx.bind(format!("Ge({idx_name}, {})", scalar(idx.elem, 0.0)));
    let up = cx.bind(format!("Le({idx_name}, {hi})"));
    let mut fits = cx.bind(format!("And({lo}, {up})"));
    if s.ivd < idx.rank() {
        fits = cx.bind(format!("Reduce({fits}, pred true, and, {{{}}})", s.ivd));
    }
    let mask = cx.bind(format!(
        "BroadcastInDim({fits}, {}, {})",
        brace(&u.dims),
        brace(&p.scatter_dims)
    ));
    cx.send(2, format!("Select({mask}, {g}, {})", filled(&u, 0.0)));
    Ok(())
}
