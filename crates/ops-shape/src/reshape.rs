//! Reshape (spec/ops/reshape.md): `Reshape(operand, new_sizes)` and
//! `Reshape(operand, dimensions, new_sizes)`. Row-major order is kept; with
//! `dimensions` the operand is first read in that dimension order.
//! A reshape of a row-major operand is a view (no copy).

use super::common::{contiguous, internal};
use super::registry::{Checked, OpDef, OpId};
use ndarray::IxDyn;
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::{Type, fmt_dims};
use xlet_core::value::{Array, Elem, Nd, Value};
use xlet_core::with_array;
use xlet_ir::{EvalCx, Kernel, KernelError};

const SPEC: &str = include_str!("../../../spec/ops/reshape.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::Reshape,
    aliases: &[],
    signature: "Reshape(operand, [dimensions,] new_sizes)",
    spec: SPEC,
    rule,
}];

/// Reads `perm` as a permutation of `0..rank`, or says which constraint it breaks.
pub fn permutation(
    cx: &CallCtx,
    c: &str,
    what: &str,
    perm: &[i64],
    rank: usize,
    span: &xlet_core::span::Span,
) -> Result<Vec<usize>, Diag> {
    let mut seen = vec![false; rank];
    let mut out = Vec::with_capacity(rank);
    for &d in perm {
        if d < 0 || d as usize >= rank || seen[d as usize] {
            break;
        }
        seen[d as usize] = true;
        out.push(d as usize);
    }
    if out.len() != rank || perm.len() != rank {
        let list = perm
            .iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", ");
        return Err(cx
            .err(
                c,
                format!(
                    "{what} {{{list}}} is not a permutation of the operand's {}",
                    xlet_core::english::count(rank, "dimension")
                ),
                span.clone(),
            )
            .with_label(format!("must hold each of 0..{rank} exactly once")));
    }
    Ok(out)
}

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let o = cx.operand(0, "operand")?;
    let t = cx.array(&o, "C1", "operand")?.clone();
    let (dims, sizes) = if cx.positional_count() >= 3 {
        (
            cx.int_list(Some(1), "dimensions")?,
            cx.require_int_list(Some(2), "new_sizes")?,
        )
    } else {
        (
            cx.int_list(None, "dimensions")?,
            cx.require_int_list(Some(1), "new_sizes")?,
        )
    };
    let perm = match &dims {
        Some(d) => permutation(cx, "C2", "dimensions", &d.value, t.rank(), &d.span)?,
        None => (0..t.rank()).collect(),
    };
    let mut new = Vec::with_capacity(sizes.value.len());
    for &s in &sizes.value {
        if s < 0 {
            return Err(cx
                .err(
                    "C3",
                    format!("new size {s} is negative"),
                    sizes.span.clone(),
                )
                .with_label("sizes must be >= 0"));
        }
        new.push(s as usize);
    }
    let count = new.iter().try_fold(1usize, |acc, &d| acc.checked_mul(d));
    let have = t.num_elements().unwrap_or(usize::MAX);
    if count != Some(have) {
        let want = count
            .map(|c| c.to_string())
            .unwrap_or_else(|| "too many".into());
        return Err(cx
            .err(
                "C4",
                format!(
                    "new_sizes {{{}}} hold {want} elements but the operand {t} has {have}",
                    new.iter()
                        .map(|x| x.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                sizes.span.clone(),
            )
            .with_label(format!("[{}] is {want} elements", fmt_dims(&new)))
            .with_secondary(o.span.clone(), format!("{t} is {have} elements")));
    }
    Ok(Checked {
        ty: Type::array(t.elem, new.clone()),
        kernel: Arc::new(ReshapeKernel { perm, new }),
    })
}

struct ReshapeKernel {
    perm: Vec<usize>,
    new: Vec<usize>,
}

fn reshape<T: Elem>(a: &Nd<T>, perm: &[usize], new: &[usize]) -> Result<Array, KernelError> {
    let v = contiguous(a.clone().permuted_axes(IxDyn(perm)))?;
    v.into_shape_with_order(IxDyn(new))
        .map(T::wrap)
        .map_err(|_| internal("reshape of a row-major array failed"))
}

impl Kernel for ReshapeKernel {
    fn movement(&self) -> Option<xlet_ir::movement::Movement> {
        Some(xlet_ir::movement::Movement::Reshape {
            perm: self.perm.clone(),
        })
    }
    /// Reshape is a transpose by `perm` then a row-major reshape: undo both.
    fn vjp(&self, cx: &mut xlet_ir::rule::RuleCx) -> Result<(), xlet_ir::rule::NoRule> {
        use xlet_ir::rule::brace;
        let a = cx.arg_array(0)?.clone();
        let permuted: Vec<usize> = self.perm.iter().map(|&p| a.dims[p]).collect();
        let mut t = format!("Reshape({}, {})", cx.ct.name, brace(&permuted));
        if self.perm.iter().enumerate().any(|(i, &p)| i != p) {
            let mut inv = vec![0; self.perm.len()];
            for (i, &p) in self.perm.iter().enumerate() {
                inv[p] = i;
            }
            let r = cx.bind(t);
            t = format!("Transpose({r}, {})", brace(&inv));
        }
        cx.send(0, t);
        Ok(())
    }
    fn allocates(&self) -> bool {
        false // a view, or a copy that `contiguous` admits itself
    }
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let [Value::Array(a)] = args else {
            return Err(internal("Reshape expects one array"));
        };
        with_array!(a, x => reshape(x, &self.perm, &self.new)).map(Value::Array)
    }
}
