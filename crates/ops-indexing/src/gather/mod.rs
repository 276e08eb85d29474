//! Gather (spec/ops/gather.md): `Gather(operand, start_indices, offset_dims=,
//! collapsed_slice_dims=, start_index_map=, index_vector_dim=, slice_sizes=,
//! operand_batching_dims=, start_indices_batching_dims=, indices_are_sorted=)`,
//! with the seed's older attribute names as aliases.
//!
//! The shape rule checks the dimension numbers in the order the spec lists
//! them and builds a `Plan`; the kernel (kernel.rs) copies one slice per batch
//! position, a row memcpy when slices are whole rows.

pub mod grad;
pub mod kernel;
pub mod plan;
#[cfg(test)]
mod tests;

use super::index_dims::{
    self as idims, Dims, IndexSpace, disjoint, in_range, show, show_usize, sorted, unique,
};
use super::registry::{Checked, OpDef, OpId};
pub use kernel::{GatherKernel, Plan};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::{ArrayType, Type};

const SPEC: &str = include_str!("../../../../spec/ops/gather.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::Gather,
    aliases: &[],
    signature: "Gather(operand, start_indices|gather_indices, offset_dims|output_window_dims={..}, collapsed_slice_dims|elided_window_dims={..}, start_index_map|gather_dims_to_operand_dims={..}, index_vector_dim=N, slice_sizes|window_bounds={..}[, operand_batching_dims={..}, start_indices_batching_dims={..}, indices_are_sorted=false])",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    idims::no_positional_attrs(cx, 2)?;
    let o = cx.operand(0, "operand")?;
    let t = cx.array(&o, "C25", "operand")?.clone();
    let ie = match cx.take(Some(1), "start_indices")? {
        Some(e) => e,
        None => cx.require(None, "gather_indices").map_err(|_| {
            Diag::check(
                cx.code("arity"),
                "Gather: missing argument `start_indices`",
                cx.span.clone(),
            )
            .with_label("`start_indices` is missing")
            .with_help(format!("Gather is called as {}", cx.op.signature))
        })?,
    };
    let i = cx.push_operand(ie, None)?;
    let it = cx.array(&i, "C25", "start_indices")?.clone();
    let shapes = format!("operand is {t}, start_indices is {it}");
    check(cx, &t, &it, &i.span).map_err(|d| d.with_note(shapes))
}

/// The attributes, read by name (current name first, then the seed's).
struct Attrs {
    offset: Dims,
    collapsed: Dims,
    start_map: Dims,
    ivd: (i64, xlet_core::span::Span),
    sizes: Dims,
    op_batch: Dims,
    idx_batch: Dims,
}

fn read(cx: &mut CallCtx) -> Result<Attrs, Diag> {
    let a = Attrs {
        offset: idims::dims(cx, &["offset_dims", "output_window_dims"], true)?,
        collapsed: idims::dims(cx, &["collapsed_slice_dims", "elided_window_dims"], false)?,
        start_map: idims::dims(
            cx,
            &["start_index_map", "gather_dims_to_operand_dims"],
            true,
        )?,
        ivd: idims::int(cx, &["index_vector_dim"])?,
        sizes: idims::dims(cx, &["slice_sizes", "window_bounds"], true)?,
        op_batch: idims::dims(cx, &["operand_batching_dims"], false)?,
        idx_batch: idims::dims(cx, &["start_indices_batching_dims"], false)?,
    };
    // Accepted and not needed: xlet's result does not depend on it.
    idims::flag(cx, "indices_are_sorted")?;
    Ok(a)
}

fn check(
    cx: &mut CallCtx,
    t: &ArrayType,
    it: &ArrayType,
    ispan: &xlet_core::span::Span,
) -> Result<Checked, Diag> {
    if !it.elem.is_int() {
        return Err(cx
            .err(
                "C24",
                format!("start_indices must have an integer element type, found {it}"),
                ispan.clone(),
            )
            .with_label(format!("{it}"))
            .with_help("convert it: ConvertElementType(indices, s32)"));
    }
    let a = read(cx)?;
    let (rank, irank) = (t.rank(), it.rank());
    let (ivd, ivd_span) = a.ivd.clone();
    if ivd < 0 || ivd as usize > irank {
        return Err(cx
            .err(
                "C2",
                format!(
                    "index_vector_dim = {ivd} must be a dimension of start_indices (rank {irank}) or {irank}, meaning each start index is one number"
                ),
                ivd_span,
            )
            .with_label(format!("must be in 0..={irank}")));
    }
    let ivd = ivd as usize;
    // C20, C21: one slice size per operand dimension, within it.
    if a.sizes.v.len() != rank {
        return Err(cx
            .err(
                "C20",
                format!(
                    "`{}` = {} must have one entry per operand dimension ({rank}), found {}",
                    a.sizes.name,
                    show(&a.sizes.v),
                    a.sizes.v.len()
                ),
                a.sizes.span.clone(),
            )
            .with_label(format!("expected {rank} entries")));
    }
    for (d, (&s, &n)) in a.sizes.v.iter().zip(&t.dims).enumerate() {
        if s < 0 || s as u64 > n as u64 {
            return Err(cx
                .err(
                    "C21",
                    format!(
                        "`{}` = {}: the slice size {s} in dimension {d} must be between 0 and the operand's size there, {n}",
                        a.sizes.name,
                        show(&a.sizes.v)
                    ),
                    a.sizes.span.clone(),
                )
                .with_label(format!("{s} does not fit in {n}")));
        }
    }
    let sizes: Vec<usize> = a.sizes.idx();
    // Collapsed and batching dimensions of the operand.
    in_range(cx, "C8", &a.collapsed, rank, "the operand")?;
    in_range(cx, "C11", &a.op_batch, rank, "the operand")?;
    unique(cx, "C6", &a.collapsed)?;
    unique(cx, "C6", &a.op_batch)?;
    disjoint(
        cx,
        "C6",
        &a.collapsed,
        &a.op_batch,
        "a dimension is either collapsed or batching",
    )?;
    sorted(cx, "C7", &a.collapsed)?;
    sorted(cx, "C10", &a.op_batch)?;
    for (dl, c) in [(&a.collapsed, "C9"), (&a.op_batch, "C12")] {
        if let Some(d) = dl.idx().into_iter().find(|&d| sizes[d] != 1) {
            return Err(cx
                .err(
                    c,
                    format!(
                        "operand dimension {d} is in `{}` = {}, so its slice size must be 1, but `{}` = {} gives it {}",
                        dl.name,
                        show(&dl.v),
                        a.sizes.name,
                        show(&a.sizes.v),
                        sizes[d]
                    ),
                    a.sizes.span.clone(),
                )
                .with_label(format!("slice size {} in dimension {d}", sizes[d]))
                .with_secondary(dl.span.clone(), format!("{d} is listed here"))
                .with_help(format!(
                    "set slice size 1 in dimension {d}, or remove {d} from `{}` to keep that dimension in the result",
                    dl.name
                )));
        }
    }
    // start_index_map.
    in_range(cx, "C19", &a.start_map, rank, "the operand")?;
    unique(cx, "C18", &a.start_map)?;
    disjoint(
        cx,
        "C18",
        &a.op_batch,
        &a.start_map,
        "a batching dimension takes its start from the batch position, not from an index",
    )?;
    let vec_len = if ivd < irank { it.dims[ivd] } else { 1 };
    if a.start_map.v.len() != vec_len {
        let why = if ivd < irank {
            format!("dimension {ivd} (index_vector_dim) of start_indices has size {vec_len}")
        } else {
            "index_vector_dim = rank(start_indices), so each start index is one number".to_string()
        };
        return Err(cx
            .err(
                "C3",
                format!(
                    "`{}` = {} maps {} but each start index has {}: {why}",
                    a.start_map.name,
                    show(&a.start_map.v),
                    xlet_core::english::count(a.start_map.v.len(), "component"),
                    xlet_core::english::count(vec_len, "component"),
                ),
                a.start_map.span.clone(),
            )
            .with_label(format!("expected {vec_len} entries"))
            .with_help(
                "list, for each component of a start index, the operand dimension it starts",
            ));
    }
    // Batching dimensions of start_indices.
    in_range(cx, "C14", &a.idx_batch, irank, "start_indices")?;
    unique(cx, "C13", &a.idx_batch)?;
    if a.idx_batch.contains(ivd) {
        return Err(cx
            .err(
                "C15",
                format!(
                    "`start_indices_batching_dims` = {} holds index_vector_dim {ivd}, which holds the start indices, not a batch",
                    show(&a.idx_batch.v)
                ),
                a.idx_batch.span.clone(),
            )
            .with_label(format!("{ivd} is index_vector_dim")));
    }
    if a.idx_batch.v.len() != a.op_batch.v.len() {
        return Err(cx
            .err(
                "C16",
                format!(
                    "`operand_batching_dims` = {} and `start_indices_batching_dims` = {} must pair up one to one, but have {} and {} entries",
                    show(&a.op_batch.v),
                    show(&a.idx_batch.v),
                    a.op_batch.v.len(),
                    a.idx_batch.v.len()
                ),
                a.idx_batch.span.clone(),
            )
            .with_label("not the same length"));
    }
    let pairs: Vec<(usize, usize)> = a
        .op_batch
        .idx()
        .into_iter()
        .zip(a.idx_batch.idx())
        .collect();
    if let Some(&(od, id)) = pairs.iter().find(|&&(od, id)| t.dims[od] != it.dims[id]) {
        return Err(cx
            .err(
                "C17",
                format!(
                    "batching dimension {od} of the operand (size {}) is paired with dimension {id} of start_indices (size {}); paired batching dimensions must have one size",
                    t.dims[od], it.dims[id]
                ),
                a.idx_batch.span.clone(),
            )
            .with_label(format!("{} vs {}", t.dims[od], it.dims[id])));
    }
    // C1: every operand dimension is kept (an offset dim), collapsed or batching.
    let kept: Vec<usize> = (0..rank)
        .filter(|&d| !a.collapsed.contains(d) && !a.op_batch.contains(d))
        .collect();
    if a.offset.v.len() != kept.len() {
        let n = a.offset.v.len();
        let help = if n < kept.len() {
            "add one output dimension to offset_dims per kept operand dimension, or list the operand dimensions you do not want in collapsed_slice_dims (slice size 1)"
        } else {
            "remove entries from offset_dims, or keep more operand dimensions (take them out of collapsed_slice_dims)"
        };
        return Err(cx
            .err(
                "C1",
                format!(
                    "the operand has rank {rank}: dimensions {} are collapsed or batching, so {} kept in each slice, and `{}` = {} must name one result dimension for each, but it has {n}",
                    show_usize(&(0..rank).filter(|d| !kept.contains(d)).collect::<Vec<_>>()),
                    if kept.len() == 1 { format!("dimension {} is", show_usize(&kept)) } else { format!("dimensions {} are", show_usize(&kept)) },
                    a.offset.name,
                    show(&a.offset.v)
                ),
                a.offset.span.clone(),
            )
            .with_label(format!("expected {} entries", kept.len()))
            .with_help(help));
    }
    let batch_rank = irank - usize::from(ivd < irank);
    let out_rank = kept.len() + batch_rank;
    in_range(cx, "C5", &a.offset, out_rank, "the result")?;
    unique(cx, "C4", &a.offset)?;
    sorted(cx, "C4", &a.offset)?;
    let space = IndexSpace {
        idx_dims: it.dims.clone(),
        ivd,
        start_map: a.start_map.idx(),
        batching: pairs,
        operand_rank: rank,
    };
    let plan = Plan::new(space, t.dims.clone(), sizes, a.offset.idx(), kept);
    Ok(Checked {
        ty: Type::array(t.elem, plan.result_dims.clone()),
        kernel: Arc::new(GatherKernel { plan }),
    })
}
