//! DotGeneral (spec/ops/dot_general.md): `DotGeneral(lhs, rhs,
//! lhs_contracting_dimensions={..}, rhs_contracting_dimensions={..},
//! lhs_batch_dimensions={..}, rhs_batch_dimensions={..}[, preferred_element_type=T])`.
//!
//! The shape rule checks the dimension numbers in the spec's order and builds
//! a `Plan`; the kernel (kernel.rs) runs one matrix product per batch position
//! on strided views. Dot (ops/dot.rs) checks its own simpler rules and then
//! builds the same kernel through `checked`.

pub mod grad;
pub(crate) mod kernel;
pub mod plan;
#[cfg(test)]
mod tests;

use super::index_dims::{self as idims, Dims, show};
use super::registry::{Checked, OpDef, OpId};
use crate::small::widened;
pub use kernel::{DotKernel, Plan, compute_type};
use std::sync::Arc;
use xlet_check::call::{Attr, CallCtx, Operand};
use xlet_core::diag::Diag;
use xlet_core::types::{ArrayType, ElemType, Type};

const SPEC: &str = include_str!("../../../../spec/ops/dot_general.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::DotGeneral,
    aliases: &[],
    signature: "DotGeneral(lhs, rhs, lhs_contracting_dimensions={..}, rhs_contracting_dimensions={..}, lhs_batch_dimensions|lhs_batching_dimensions={..}, rhs_batch_dimensions|rhs_batching_dimensions={..}[, preferred_element_type=T])",
    spec: SPEC,
    rule,
}];

/// Which dimensions are contracted and which are batch, as checked indices.
#[derive(Clone, Debug, Default)]
pub struct DotDims {
    pub lhs_batch: Vec<usize>,
    pub rhs_batch: Vec<usize>,
    pub lhs_contracting: Vec<usize>,
    pub rhs_contracting: Vec<usize>,
}

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    idims::no_positional_attrs(cx, 2)?;
    let ops = cx.operands_alike(&[(0, "lhs"), (1, "rhs")], None)?;
    let (l, r) = (&ops[0], &ops[1]);
    let lt = cx.array(l, "C14", "lhs")?.clone();
    let rt = cx.array(r, "C14", "rhs")?.clone();
    let shapes = format!("lhs is {lt}, rhs is {rt}");
    let note = |d: Diag| d.with_note(shapes.clone());
    same_elem(cx, "C13", (l, &lt), (r, &rt)).map_err(note)?;
    let lc = idims::dims(cx, &["lhs_contracting_dimensions"], false)?;
    let rc = idims::dims(cx, &["rhs_contracting_dimensions"], false)?;
    let lb = idims::dims(
        cx,
        &["lhs_batch_dimensions", "lhs_batching_dimensions"],
        false,
    )?;
    let rb = idims::dims(
        cx,
        &["rhs_batch_dimensions", "rhs_batching_dimensions"],
        false,
    )?;
    let preferred = preferred_type(cx, lt.elem, "C15").map_err(note)?;
    let dims = check_dims(cx, &lt, &rt, [&lb, &rb, &lc, &rc]).map_err(note)?;
    Ok(checked(&lt, &rt, &dims, preferred.unwrap_or(lt.elem)))
}

/// C1–C10 in the spec's order; the dimension numbers as indices.
fn check_dims(
    cx: &CallCtx,
    lt: &ArrayType,
    rt: &ArrayType,
    [lb, rb, lc, rc]: [&Dims; 4],
) -> Result<DotDims, Diag> {
    same_length(cx, "C1", lb, rb, "batch dimensions pair up one to one")?;
    same_length(
        cx,
        "C2",
        lc,
        rc,
        "contracting dimensions pair up one to one",
    )?;
    idims::in_range(cx, "C5", lb, lt.rank(), "lhs")?;
    idims::in_range(cx, "C6", lc, lt.rank(), "lhs")?;
    idims::in_range(cx, "C7", rb, rt.rank(), "rhs")?;
    idims::in_range(cx, "C8", rc, rt.rank(), "rhs")?;
    for (c, b, k) in [("C3", lb, lc), ("C4", rb, rc)] {
        idims::unique(cx, c, b)?;
        idims::unique(cx, c, k)?;
        idims::disjoint(cx, c, b, k, "a dimension is either batch or contracting")?;
    }
    let d = DotDims {
        lhs_batch: lb.idx(),
        rhs_batch: rb.idx(),
        lhs_contracting: lc.idx(),
        rhs_contracting: rc.idx(),
    };
    same_sizes(
        cx,
        "C9",
        "batch",
        (lt, &d.lhs_batch, lb),
        (rt, &d.rhs_batch, rb),
    )?;
    same_sizes(
        cx,
        "C10",
        "contracting",
        (lt, &d.lhs_contracting, lc),
        (rt, &d.rhs_contracting, rc),
    )?;
    Ok(d)
}

/// The result type and kernel for checked dimension numbers (Dot uses this too).
pub fn checked(lt: &ArrayType, rt: &ArrayType, d: &DotDims, result_elem: ElemType) -> Checked {
    let free = |rank: usize, a: &[usize], b: &[usize]| -> Vec<usize> {
        (0..rank)
            .filter(|x| !a.contains(x) && !b.contains(x))
            .collect()
    };
    let lf = free(lt.rank(), &d.lhs_batch, &d.lhs_contracting);
    let rf = free(rt.rank(), &d.rhs_batch, &d.rhs_contracting);
    let dims: Vec<usize> = (d.lhs_batch.iter().map(|&x| lt.dims[x]))
        .chain(lf.iter().map(|&x| lt.dims[x]))
        .chain(rf.iter().map(|&x| rt.dims[x]))
        .collect();
    let result = ArrayType::new(result_elem, dims);
    // Small types multiply in their compute types (spec/small_types.md §5).
    let wide = result.with_elem(result_elem.compute());
    let plan = Plan {
        lhs_order: [&d.lhs_batch[..], &lf, &d.lhs_contracting].concat(),
        rhs_order: [&d.rhs_batch[..], &d.rhs_contracting, &rf].concat(),
        batch_dims: d.lhs_batch.len(),
        lhs_free: lf.len(),
        rhs_free: rf.len(),
        contracting: d.lhs_contracting.len(),
        compute: compute_type(lt.elem.compute(), wide.elem),
        result: wide,
    };
    Checked {
        kernel: widened(
            Arc::new(DotKernel { plan }),
            &[lt.elem, rt.elem],
            result.elem,
        ),
        ty: Type::Array(result),
    }
}

/// lhs and rhs have one element type, and it is one a product is defined on.
pub fn same_elem(
    cx: &CallCtx,
    c: &str,
    (l, lt): (&Operand, &ArrayType),
    (r, rt): (&Operand, &ArrayType),
) -> Result<(), Diag> {
    if lt.elem != rt.elem {
        return Err(cx
            .err(
                c,
                format!(
                    "lhs and rhs must have one element type, found {} and {}",
                    lt.elem, rt.elem
                ),
                r.span.clone(),
            )
            .with_label(format!("{rt}"))
            .with_secondary(l.span.clone(), format!("{lt}"))
            .with_help(format!(
                "convert one first: ConvertElementType({}, {})",
                cx.text(&r.span),
                lt.elem
            )));
    }
    Ok(())
}

/// `preferred_element_type=T`: the result's element type, for Dot, DotGeneral
/// and the convolutions alike. Of the operands' kind (float for floats,
/// integer for integers, pred for pred), and for integers no narrower than the
/// operands (XLA's shape inference refuses a narrowing integer type; it lets
/// the signedness change, and so do we). A float result may be narrower: the
/// f32 sum is then rounded once.
pub fn preferred_type(
    cx: &mut CallCtx,
    operand: ElemType,
    c: &str,
) -> Result<Option<ElemType>, Diag> {
    let Some(Attr { value: t, span }) = cx.opt_elem_type(None, "preferred_element_type")? else {
        return Ok(None);
    };
    let kind = |e: ElemType| {
        let e = e.compute();
        if e.is_float() {
            "a float"
        } else if e.is_int() {
            "an integer"
        } else {
            "pred"
        }
    };
    if kind(t) != kind(operand) {
        return Err(cx
            .err(
                c,
                format!(
                    "preferred_element_type must be of the operands' kind: they are {operand}, {}, and {t} is {}",
                    kind(operand),
                    kind(t)
                ),
                span,
            )
            .with_label(format!("{} type", kind(operand)))
            .with_help(format!(
                "to change kind, convert the result: ConvertElementType(..., {t})"
            )));
    }
    if t.is_int() && t.bit_width() < operand.bit_width() {
        return Err(cx
            .err(
                c,
                format!(
                    "preferred_element_type {t} is narrower than the {operand} operands: an integer result must be at least as wide"
                ),
                span,
            )
            .with_label(format!("narrower than {operand}"))
            .with_help(format!(
                "to narrow, convert the result: ConvertElementType(..., {t})"
            )));
    }
    Ok(Some(t))
}

fn same_length(cx: &CallCtx, c: &str, l: &Dims, r: &Dims, why: &str) -> Result<(), Diag> {
    if l.v.len() == r.v.len() {
        return Ok(());
    }
    Err(cx
        .err(
            c,
            format!(
                "`{}` = {} and `{}` = {} must have one length ({why}), found {} and {}",
                l.name,
                show(&l.v),
                r.name,
                show(&r.v),
                l.v.len(),
                r.v.len()
            ),
            r.span.clone(),
        )
        .with_label(format!("{} dimensions", r.v.len()))
        .with_secondary(l.span.clone(), format!("{} dimensions", l.v.len())))
}

/// Paired dimensions have one size: lhs dimension `ld[i]` and rhs dimension `rd[i]`.
fn same_sizes(
    cx: &CallCtx,
    c: &str,
    what: &str,
    (lt, ld, lspan): (&ArrayType, &[usize], &Dims),
    (rt, rd, rspan): (&ArrayType, &[usize], &Dims),
) -> Result<(), Diag> {
    for (&a, &b) in ld.iter().zip(rd) {
        if lt.dims[a] != rt.dims[b] {
            let mut d = cx
                .err(
                    c,
                    format!(
                        "{what} dimensions pair up with one size, but lhs dimension {a} has size {} and rhs dimension {b} has size {}",
                        lt.dims[a], rt.dims[b]
                    ),
                    rspan.span.clone(),
                )
                .with_label(format!("rhs dimension {b}: size {}", rt.dims[b]))
                .with_secondary(lspan.span.clone(), format!("lhs dimension {a}: size {}", lt.dims[a]));
            let fits: Vec<usize> = (0..rt.rank())
                .filter(|&j| rt.dims[j] == lt.dims[a])
                .collect();
            if !fits.is_empty() && !rd.iter().any(|x| fits.contains(x)) {
                d = d.with_help(format!(
                    "rhs dimension {} has size {}: did you mean {}={{{}}}?",
                    fits[0], lt.dims[a], rspan.name, fits[0]
                ));
            }
            return Err(d);
        }
    }
    Ok(())
}
