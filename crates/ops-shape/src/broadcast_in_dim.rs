//! BroadcastInDim (spec/ops/broadcast_in_dim.md):
//! `BroadcastInDim(operand, out_dim_size, broadcast_dimensions)`. Operand
//! dimension `i` becomes output dimension `broadcast_dimensions[i]`; every other
//! output dimension, and every operand dimension of size 1, repeats the data.
//! The kernel lays a stride-0 view over the output and copies it once.
//! `BroadcastKernel` is shared with Broadcast (spec/ops/broadcast.md).

use super::common::internal;
use super::registry::{Checked, OpDef, OpId};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::{Type, fmt_dims};
use xlet_core::value::{Array, Elem, Nd, Value};
use xlet_core::with_array;
use xlet_ir::{EvalCx, Kernel, KernelError};
use xlet_kernels::{Src, try_materialize};

const SPEC: &str = include_str!("../../../spec/ops/broadcast_in_dim.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::BroadcastInDim,
    aliases: &[],
    signature: "BroadcastInDim(operand, out_dim_size, broadcast_dimensions)",
    spec: SPEC,
    rule,
}];

/// Writes a static list as the user would: `{0, 2}`.
pub fn fmt_list(v: &[i64]) -> String {
    format!(
        "{{{}}}",
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// Reads a list of sizes, each >= 0 (constraint `c`).
pub fn sizes(
    cx: &CallCtx,
    c: &str,
    what: &str,
    list: &xlet_check::call::Attr<Vec<i64>>,
) -> Result<Vec<usize>, Diag> {
    list.value
        .iter()
        .map(|&s| {
            usize::try_from(s).map_err(|_| {
                cx.err(
                    c,
                    format!(
                        "{what} {} holds the negative size {s}",
                        fmt_list(&list.value)
                    ),
                    list.span.clone(),
                )
                .with_label("sizes must be >= 0")
            })
        })
        .collect()
}

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let o = cx.operand(0, "operand")?;
    let t = cx.array(&o, "C1", "operand")?.clone();
    let out_attr = cx.require_int_list(Some(1), "out_dim_size")?;
    let bd = cx.require_int_list(Some(2), "broadcast_dimensions")?;
    let checked = check_lists(cx, &o, &t, &out_attr, &bd);
    // `BroadcastInDim(v, {1}, {2, 3})`: the lists in each other's places.
    checked.map_err(|d| {
        if cx.positional_count() >= 3 && fits(&t.dims, &bd.value, &out_attr.value) {
            d.with_help(format!(
                "out_dim_size and broadcast_dimensions are swapped: did you mean {}? BroadcastInDim is called as {}",
                cx.text_reordered(&[0, 2, 1]),
                cx.op.signature
            ))
        } else {
            d
        }
    })
}

/// Whether `sizes` and `dims` would be a valid out_dim_size and
/// broadcast_dimensions for an operand of dimensions `operand` (C2 to C6).
fn fits(operand: &[usize], sizes: &[i64], dims: &[i64]) -> bool {
    if sizes.iter().any(|&s| s < 0) || dims.len() != operand.len() {
        return false;
    }
    let mut seen = vec![];
    for (&size, &d) in operand.iter().zip(dims) {
        let Some(&out) = usize::try_from(d).ok().and_then(|d| sizes.get(d)) else {
            return false;
        };
        if seen.contains(&d) || (size != 1 && size as i64 != out) {
            return false;
        }
        seen.push(d);
    }
    true
}

/// C2 to C6 on the two lists, and the result.
fn check_lists(
    cx: &CallCtx,
    o: &xlet_check::call::Operand,
    t: &xlet_core::types::ArrayType,
    out_attr: &xlet_check::call::Attr<Vec<i64>>,
    bd: &xlet_check::call::Attr<Vec<i64>>,
) -> Result<Checked, Diag> {
    let out = sizes(cx, "C2", "out_dim_size", out_attr)?;
    if bd.value.len() != t.rank() {
        return Err(cx
            .err(
                "C3",
                format!(
                    "broadcast_dimensions {} has {} but the operand {t} has {}",
                    fmt_list(&bd.value),
                    xlet_core::english::count(bd.value.len(), "entry"),
                    xlet_core::english::count(t.rank(), "dimension")
                ),
                bd.span.clone(),
            )
            .with_label(format!(
                "needs one entry per operand dimension ({})",
                t.rank()
            ))
            .with_secondary(o.span.clone(), format!("{t}")));
    }
    let mut map = Vec::with_capacity(bd.value.len());
    for (i, &d) in bd.value.iter().enumerate() {
        let Some(od) = usize::try_from(d).ok().filter(|&od| od < out.len()) else {
            return Err(cx
                .err(
                    "C4",
                    format!(
                        "broadcast_dimensions[{i}] = {d} is not a dimension of the {}-dimensional output [{}]",
                        out.len(),
                        fmt_dims(&out)
                    ),
                    bd.span.clone(),
                )
                .with_label(format!("entries must be in 0..{}", out.len())));
        };
        if let Some(j) = map.iter().position(|&m| m == od) {
            return Err(cx
                .err(
                    "C5",
                    format!("broadcast_dimensions {} maps operand dimensions {j} and {i} both to output dimension {od}", fmt_list(&bd.value)),
                    bd.span.clone(),
                )
                .with_label("entries must be distinct"));
        }
        map.push(od);
    }
    for (i, (&size, &od)) in t.dims.iter().zip(&map).enumerate() {
        let want = out.get(od).copied().unwrap_or(0);
        if size != 1 && size != want {
            return Err(cx
                .err(
                    "C6",
                    format!(
                        "operand dimension {i} has size {size}, but it maps to output dimension {od} of size {want}"
                    ),
                    o.span.clone(),
                )
                .with_label(format!("{t}"))
                .with_secondary(out_attr.span.clone(), format!("output dimension {od} is {want}"))
                .with_note("an operand dimension must have size 1 or the size of the output dimension it maps to"));
        }
    }
    Ok(Checked {
        ty: Type::array(t.elem, out.clone()),
        kernel: Arc::new(BroadcastKernel { out, map }),
    })
}

/// Copies the operand into `out` dims: operand dimension `i` is output dimension `map[i]`.
pub struct BroadcastKernel {
    pub out: Vec<usize>,
    pub map: Vec<usize>,
}

fn broadcast<T: Elem>(a: &Nd<T>, out: &[usize], map: &[usize]) -> Result<Array, KernelError> {
    // The view reads memory by the checked shapes: make sure the value has them.
    let fits = a.ndim() == map.len()
        && a.shape()
            .iter()
            .zip(map)
            .all(|(&s, &d)| out.get(d).is_some_and(|&o| s == 1 || s == o));
    if !fits {
        return Err(internal(
            "broadcast operand does not have the checked shape",
        ));
    }
    let src = Src::broadcast_in_dim(a, out.len(), map);
    // A copy like any kernel: Ctrl-C stops it.
    Ok(Array::from_nd(try_materialize(out, &src)?))
}

impl Kernel for BroadcastKernel {
    fn movement(&self) -> Option<xlet_ir::movement::Movement> {
        Some(xlet_ir::movement::Movement::BroadcastInDim {
            map: self.map.clone(),
        })
    }
    /// Seed 003's backward of broadcasting: the cotangent summed back to the
    /// operand's shape (`sum_to`).
    fn vjp(&self, cx: &mut xlet_ir::rule::RuleCx) -> Result<(), xlet_ir::rule::NoRule> {
        if !cx.is_active(0) {
            return Ok(());
        }
        let out = cx.out_array()?.clone();
        let to = cx.arg_array(0)?.clone();
        let ct = cx.ct.name.clone();
        let g = xlet_ir::rule::sum_to(cx.w, &ct, &out, &to, &self.map);
        cx.grads[0] = Some(g);
        Ok(())
    }
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let [Value::Array(a)] = args else {
            return Err(internal("broadcast expects one array"));
        };
        with_array!(a, x => broadcast(x, &self.out, &self.map)).map(Value::Array)
    }
}
