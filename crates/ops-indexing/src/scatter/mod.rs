//! Scatter (spec/ops/scatter.md): `Scatter(operand, scatter_indices, updates,
//! update_computation, update_window_dims=, inserted_window_dims=,
//! scatter_dims_to_operand_dims=, index_vector_dim=, input_batching_dims=,
//! scatter_indices_batching_dims=, indices_are_sorted=, unique_indices=)`, with
//! `{a, b}` lists of operands and updates for the variadic form.
//!
//! The shape rule checks the dimension numbers in the spec's order and picks
//! the kernel's path from the computation (kernel.rs).

pub mod grad;
pub mod kernel;
pub mod plan;

use super::index_dims::{
    self as idims, Dims, IndexSpace, disjoint, in_range, show, sorted, unique,
};
use super::registry::{Checked, OpDef, OpId};
pub use kernel::{Path, Plan, ScatterKernel};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::span::Span;
use xlet_core::types::{ArrayType, ElemType, Type};

const SPEC: &str = include_str!("../../../../spec/ops/scatter.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::Scatter,
    aliases: &[],
    signature: "Scatter(operand, scatter_indices, updates, update_computation, update_window_dims={..}, inserted_window_dims={..}, scatter_dims_to_operand_dims={..}, index_vector_dim=N[, input_batching_dims={..}, scatter_indices_batching_dims={..}, indices_are_sorted=false, unique_indices=false])",
    spec: SPEC,
    rule,
}];

/// Operands (or updates) as array types, all of one shape.
fn arrays_alike(
    cx: &mut CallCtx,
    pos: usize,
    name: &str,
    count: Option<usize>,
    hints: &[Option<ElemType>],
    same_shape: &str,
) -> Result<(Vec<ArrayType>, Vec<Span>, Span), Diag> {
    let list = cx.operand_list(pos, name, count, hints)?;
    let mut types = vec![];
    for o in &list.items {
        types.push(cx.array(o, "C27", &format!("each of `{name}`"))?.clone());
    }
    let spans: Vec<Span> = list.items.iter().map(|o| o.span.clone()).collect();
    for (t, s) in types.iter().zip(&spans).skip(1) {
        if t.dims != types[0].dims {
            return Err(cx
                .err(
                    same_shape,
                    format!("all of `{name}` must have one shape: {} and {t}", types[0]),
                    s.clone(),
                )
                .with_label(format!("{t}")));
        }
    }
    Ok((types, spans, list.span))
}

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    // `Scatter(x, idx, add, updates, ...)`: the computation where the updates go.
    cx.check_comp_not_swapped(2, 3)?;
    idims::no_positional_attrs(cx, 4)?;
    let (ops, _, ops_span) = arrays_alike(cx, 0, "operand", None, &[], "C1")?;
    let i = cx.operand(1, "scatter_indices")?;
    let it = cx.array(&i, "C27", "scatter_indices")?.clone();
    let n = ops.len();
    let hints: Vec<Option<ElemType>> = ops.iter().map(|t| Some(t.elem)).collect();
    let count = (n > 1).then_some(n);
    let (ups, up_spans, up_span) = arrays_alike(cx, 2, "updates", count, &hints, "C3")?;
    if ups.len() != n {
        return Err(cx
            .err(
                "C5",
                format!(
                    "there must be one updates array per operand: {n} operands, {} updates",
                    ups.len()
                ),
                up_span,
            )
            .with_label(format!("expected {n}"))
            .with_secondary(ops_span, "the operands"));
    }
    for (k, (u, o)) in ups.iter().zip(&ops).enumerate() {
        if u.elem != o.elem {
            return Err(cx
                .err(
                    "C6",
                    format!(
                        "updates must have their operand's element type: operand {k} is {o}, its updates {u}"
                    ),
                    up_spans[k].clone(),
                )
                .with_label(format!("{u}")));
        }
    }
    let elems: Vec<ElemType> = ops.iter().map(|t| t.elem).collect();
    let scalars: Vec<Type> = elems.iter().map(|&e| Type::scalar(e)).collect();
    let params: Vec<Type> = scalars.iter().chain(&scalars).cloned().collect();
    let ret = match scalars.as_slice() {
        [one] => one.clone(),
        _ => Type::Tuple(scalars.clone()),
    };
    let comp = cx
        .computation(Some(3), "update_computation", &params, Some(&ret), "C23")?
        .value;
    let shapes = format!(
        "operand is {}, scatter_indices is {it}, updates is {}",
        ops[0], ups[0]
    );
    let plan = check(cx, &ops[0], &it, &ups[0], &[&i.span, &up_spans[0]])
        .map_err(|d| d.with_note(shapes))?;
    let path = kernel::choose_path(&comp, &elems);
    Ok(Checked {
        ty: super::reduction::results_type(&elems, &ops[0].dims),
        kernel: Arc::new(ScatterKernel {
            plan,
            comp,
            path,
            elems,
        }),
    })
}

fn check(
    cx: &mut CallCtx,
    t: &ArrayType,
    it: &ArrayType,
    ut: &ArrayType,
    &[ispan, uspan]: &[&Span; 2],
) -> Result<Plan, Diag> {
    if !it.elem.is_int() {
        return Err(cx
            .err(
                "C26",
                format!("scatter_indices must have an integer element type, found {it}"),
                (*ispan).clone(),
            )
            .with_label(format!("{it}"))
            .with_help("convert it: ConvertElementType(indices, s32)"));
    }
    let uwd = idims::dims(cx, &["update_window_dims"], true)?;
    let iwd = idims::dims(cx, &["inserted_window_dims"], false)?;
    let sdod = idims::dims(cx, &["scatter_dims_to_operand_dims"], true)?;
    let (ivd, ivd_span) = idims::int(cx, &["index_vector_dim"])?;
    let ibd = idims::dims(cx, &["input_batching_dims"], false)?;
    let sibd = idims::dims(cx, &["scatter_indices_batching_dims"], false)?;
    // Accepted and not needed: xlet's result never depends on them.
    idims::flag(cx, "indices_are_sorted")?;
    idims::flag(cx, "unique_indices")?;
    let (rank, irank, urank) = (t.rank(), it.rank(), ut.rank());
    if ivd < 0 || ivd as usize > irank {
        return Err(cx
            .err(
                "C22",
                format!(
                    "index_vector_dim = {ivd} must be a dimension of scatter_indices (rank {irank}) or {irank}, meaning each start index is one number"
                ),
                ivd_span,
            )
            .with_label(format!("must be in 0..={irank}")));
    }
    let ivd = ivd as usize;
    in_range(cx, "C8", &uwd, urank, "the updates")?;
    unique(cx, "C7", &uwd)?;
    sorted(cx, "C7", &uwd)?;
    in_range(cx, "C11", &iwd, rank, "the operand")?;
    in_range(cx, "C13", &ibd, rank, "the operand")?;
    unique(cx, "C9", &iwd)?;
    unique(cx, "C9", &ibd)?;
    disjoint(
        cx,
        "C9",
        &iwd,
        &ibd,
        "a dimension is either inserted or batching",
    )?;
    sorted(cx, "C10", &iwd)?;
    sorted(cx, "C12", &ibd)?;
    in_range(cx, "C21", &sdod, rank, "the operand")?;
    unique(cx, "C20", &sdod)?;
    disjoint(
        cx,
        "C20",
        &ibd,
        &sdod,
        "a batching dimension takes its start from the batch position, not from an index",
    )?;
    let vec_len = if ivd < irank { it.dims[ivd] } else { 1 };
    if sdod.v.len() != vec_len {
        return Err(cx
            .err(
                "C19",
                format!(
                    "`scatter_dims_to_operand_dims` = {} maps {} but each start index has {} (index_vector_dim = {ivd} of scatter_indices {it})",
                    show(&sdod.v),
                    xlet_core::english::count(sdod.v.len(), "component"),
                    xlet_core::english::count(vec_len, "component"),
                ),
                sdod.span.clone(),
            )
            .with_label(format!("expected {vec_len} entries")));
    }
    in_range(cx, "C15", &sibd, irank, "scatter_indices")?;
    unique(cx, "C14", &sibd)?;
    if sibd.contains(ivd) {
        return Err(cx
            .err(
                "C16",
                format!(
                    "`scatter_indices_batching_dims` = {} holds index_vector_dim {ivd}, which holds the start indices, not a batch",
                    show(&sibd.v)
                ),
                sibd.span.clone(),
            )
            .with_label(format!("{ivd} is index_vector_dim")));
    }
    if sibd.v.len() != ibd.v.len() {
        return Err(cx
            .err(
                "C17",
                format!(
                    "`input_batching_dims` = {} and `scatter_indices_batching_dims` = {} must pair up one to one, but have {} and {} entries",
                    show(&ibd.v),
                    show(&sibd.v),
                    ibd.v.len(),
                    sibd.v.len()
                ),
                sibd.span.clone(),
            )
            .with_label("not the same length"));
    }
    let pairs: Vec<(usize, usize)> = ibd.idx().into_iter().zip(sibd.idx()).collect();
    if let Some(&(od, id)) = pairs.iter().find(|&&(od, id)| t.dims[od] != it.dims[id]) {
        return Err(cx
            .err(
                "C18",
                format!(
                    "batching dimension {od} of the operand (size {}) is paired with dimension {id} of scatter_indices (size {}); paired batching dimensions must have one size",
                    t.dims[od], it.dims[id]
                ),
                sibd.span.clone(),
            )
            .with_label(format!("{} vs {}", t.dims[od], it.dims[id])));
    }
    let kept: Vec<usize> = (0..rank)
        .filter(|&d| !iwd.contains(d) && !ibd.contains(d))
        .collect();
    if uwd.v.len() != kept.len() {
        return Err(cx
            .err(
                "C2",
                format!(
                    "the operand has rank {rank}: {} of its dimensions inserted or batching, so each update window covers the other {} and `update_window_dims` = {} must name one updates dimension for each, but it has {}",
                    rank - kept.len(),
                    kept.len(),
                    show(&uwd.v),
                    uwd.v.len()
                ),
                uwd.span.clone(),
            )
            .with_label(format!("expected {} entries", kept.len()))
            .with_help("each operand dimension is either a window dimension (in update_window_dims), inserted (inserted_window_dims) or batching (input_batching_dims)"));
    }
    let space = IndexSpace {
        idx_dims: it.dims.clone(),
        ivd,
        start_map: sdod.idx(),
        batching: pairs,
        operand_rank: rank,
    };
    updates_shape(cx, (t, ut, uspan), &uwd, &kept, &space)?;
    Ok(Plan::new(
        space,
        t.dims.clone(),
        ut.dims.clone(),
        uwd.idx(),
        kept,
    ))
}

/// C4: the updates are the batch dimensions of scatter_indices (in order, at
/// the dimensions not in update_window_dims) and windows that fit the operand.
fn updates_shape(
    cx: &CallCtx,
    (t, ut, span): (&ArrayType, &ArrayType, &Span),
    uwd: &Dims,
    kept: &[usize],
    space: &IndexSpace,
) -> Result<(), Diag> {
    let batch = space.batch_dims();
    let want_rank = uwd.v.len() + batch.len();
    let span = span.clone();
    if ut.rank() != want_rank {
        return Err(cx
            .err(
                "C4",
                format!(
                    "updates must have rank {want_rank} ({} window dimensions + {} scatter dimensions of scatter_indices), found {ut}",
                    uwd.v.len(),
                    batch.len()
                ),
                span.clone(),
            )
            .with_label(format!("{ut}")));
    }
    let scatter_dims: Vec<usize> = (0..want_rank).filter(|&d| !uwd.contains(d)).collect();
    for (j, (&ud, &b)) in scatter_dims.iter().zip(&batch).enumerate() {
        if ut.dims[ud] != b {
            let id = if j < space.ivd { j } else { j + 1 };
            return Err(cx
                .err(
                    "C4",
                    format!(
                        "updates dimension {ud} is a scatter dimension (not in update_window_dims), so it must have the size of scatter_indices dimension {id}, {b}; found {}",
                        ut.dims[ud]
                    ),
                    span.clone(),
                )
                .with_label(format!("{ut}")));
        }
    }
    for (&ud, &od) in uwd.idx().iter().zip(kept) {
        if ut.dims[ud] > t.dims[od] {
            return Err(cx
                .err(
                    "C4",
                    format!(
                        "updates dimension {ud} is a window dimension of size {}, larger than operand dimension {od} (size {}) it updates",
                        ut.dims[ud], t.dims[od]
                    ),
                    span.clone(),
                )
                .with_label(format!("{ut}")));
        }
    }
    Ok(())
}
