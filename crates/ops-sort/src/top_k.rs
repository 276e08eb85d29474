//! TopK (spec/ops/top_k.md): `TopK(operand, k)` and
//! `TopK(operand, k, largest=false)`, the `k` largest (or smallest) elements
//! along the last dimension and their positions, as the tuple
//! `(values, indices)` with s32 indices. The kernel selects rather than sorts
//! (kernels::sort::top_k), rows in parallel.

use super::common::internal;
use super::index_dims;
use super::registry::{Checked, OpDef, OpId};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::{ElemType, Type};
use xlet_core::value::{Array, Elem, Nd, Value};
use xlet_core::with_real_array;
use xlet_ir::{EvalCx, Kernel, KernelError};
use xlet_kernels::sort::keys::SortElem;
use xlet_kernels::sort::{self, top_k::top_k_rows};

const SPEC: &str = include_str!("../../../spec/ops/top_k.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::TopK,
    aliases: &[],
    signature: "TopK(operand, k[, largest=true|false])",
    spec: SPEC,
    rule,
}];

/// The largest row length whose positions fit the s32 indices.
const MAX_ROW: usize = i32::MAX as usize;

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let o = cx.operand(0, "operand")?;
    let Some(k) = cx.int(Some(1), "k")? else {
        return Err(Diag::check(
            cx.code("arity"),
            format!("{}: missing argument `k`", cx.name()),
            cx.span.clone(),
        )
        .with_label("`k` is missing")
        .with_help(format!("{} is called as {}", cx.name(), cx.op.signature)));
    };
    let largest = index_dims::flag_at(cx, Some(2), "largest", true)?;
    // C1: an array of rank >= 1.
    let t = cx.array(&o, "C1", "the operand")?.clone();
    let Some(&n) = t.dims.last() else {
        return Err(cx
            .err(
                "C1",
                format!("the operand must have at least one dimension, found the scalar {t}"),
                o.span.clone(),
            )
            .with_label(format!("{t}"))
            .with_help(format!(
                "TopK works along the last dimension: reshape the scalar to one element first, Reshape({}, {{1}})",
                cx.text(&o.span)
            )));
    };
    // C2: a real numeric element type (complex numbers have no order TopK uses).
    if t.elem.is_complex() {
        return Err(cx
            .err(
                "C2",
                format!("the operand must be an array of real numbers, found {t}"),
                o.span.clone(),
            )
            .with_label(format!("{t}"))
            .with_help(format!(
                "rank by a real key instead, e.g. TopK(Abs({}), {})",
                cx.text(&o.span),
                k.value
            )));
    }
    if t.elem == ElemType::Pred {
        return Err(cx
            .err(
                "C2",
                format!("the operand must be an array of numbers, found {t}"),
                o.span.clone(),
            )
            .with_label(format!("{t}"))
            .with_help(format!(
                "convert it first: TopK(ConvertElementType({}, s32), {})",
                cx.text(&o.span),
                k.value
            )));
    }
    // C3: 0 <= k <= n.
    let Some(kk) = usize::try_from(k.value).ok().filter(|&kk| kk <= n) else {
        let last = t.rank() - 1;
        return Err(cx
            .err(
                "C3",
                format!(
                    "k = {} must be between 0 and the size of the last dimension of {t}, which is {n}",
                    k.value
                ),
                k.span.clone(),
            )
            .with_label(format!("must be in 0..={n}"))
            .with_secondary(
                o.span.clone(),
                format!("{t}: dimension {last} has {n} elements"),
            )
            .with_help(if k.value < 0 {
                "k counts elements: use 0 or more".to_string()
            } else {
                format!("use k <= {n}, or pick from a longer last dimension")
            }));
    };
    // C4: positions fit the s32 indices.
    if n > MAX_ROW {
        return Err(cx
            .err(
                "C4",
                format!(
                    "the last dimension of {t} has {n} elements; their positions do not fit the s32 indices"
                ),
                o.span.clone(),
            )
            .with_label(format!("{t}"))
            .with_help("split the rows: the last dimension may have at most 2147483647 elements"));
    }
    let mut out_dims = t.dims.clone();
    if let Some(d) = out_dims.last_mut() {
        *d = kk;
    }
    let ty = Type::Tuple(vec![
        Type::array(t.elem, out_dims.clone()),
        Type::array(ElemType::S32, out_dims),
    ]);
    Ok(Checked {
        // A small type ranks by value in its compute type (spec/small_types.md §6.2).
        kernel: super::small::widened_tuple(
            Arc::new(TopKKernel { k: kk, largest }),
            &[t.elem],
            &ty,
        ),
        ty,
    })
}

struct TopKKernel {
    k: usize,
    largest: bool,
}

impl Kernel for TopKKernel {
    /// The values' cotangent goes back to the positions they came from: padded
    /// with zeros to the row's length, it is put in the order of the whole
    /// row's stable total-order sort (whose first k positions are TopK's
    /// indices), and sorting by that permutation undoes it (as Sort's rule
    /// does, spec/grad.md §4.3). The indices have no cotangent.
    fn vjp(&self, cx: &mut xlet_ir::rule::RuleCx) -> Result<(), xlet_ir::rule::NoRule> {
        use xlet_ir::rule::{NoRule, scalar};
        if !cx.is_active(0) {
            return Ok(());
        }
        let x = cx.arg_array(0)?.clone();
        let last = x
            .dims
            .len()
            .checked_sub(1)
            .ok_or_else(|| NoRule("internal: TopK of a scalar".into()))?;
        let q = x.dims[last];
        let e = x.elem;
        let dims = xlet_core::types::fmt_dims(&x.dims);
        let (cmp, word) = if self.largest {
            ("Gt", "gt")
        } else {
            ("Lt", "lt")
        };
        let order = cx.env.helper(
            &format!("top_k {word} {e}"),
            &format!("top_k_{word}_{e}"),
            &|name| {
                format!(
                    "comp {name}(a: {e}, b: {e}, i: s32, j: s32) -> pred {{\n  {cmp}(a, b, type=TOTALORDER)\n}}\n"
                )
            },
        );
        let iota = cx.bind(format!("Iota(s32[{dims}], {last})"));
        let x_name = cx.args[0].name.clone();
        let sorted = cx.bind(format!(
            "Sort({{{x_name}, {iota}}}, comparator={order}, dimension={last}, is_stable=true)"
        ));
        let perm = cx.bind(format!("GetTupleElement({sorted}, 1)"));
        let config: Vec<String> = (0..x.dims.len())
            .map(|d| {
                if d == last {
                    format!("{{0, {}, 0}}", q.saturating_sub(self.k))
                } else {
                    "{0, 0, 0}".to_string()
                }
            })
            .collect();
        let padded = cx.bind(format!(
            "Pad(GetTupleElement({}, 0), {}, {{{}}})",
            cx.ct.name,
            scalar(e, 0.0),
            config.join(", ")
        ));
        let back = cx.bind(format!("Sort({{{perm}, {padded}}}, dimension={last})"));
        cx.send(0, format!("GetTupleElement({back}, 1)"));
        Ok(())
    }
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let [Value::Array(a)] = args else {
            return Err(internal("TopK expects one array"));
        };
        let (values, indices) = with_real_array!(a, x => top_k(x, self.k, self.largest), complex => Err(internal("TopK of complex")))?;
        Ok(Value::tuple(vec![
            Value::Array(values),
            Value::Array(indices),
        ]))
    }
}

fn top_k<T: SortElem + Elem>(
    a: &Nd<T>,
    k: usize,
    largest: bool,
) -> Result<(Array, Array), KernelError> {
    let rank = a.ndim();
    let last = rank
        .checked_sub(1)
        .ok_or_else(|| internal("TopK of a scalar"))?;
    let n = a.shape()[last];
    let mut dims = a.shape().to_vec();
    dims[last] = k;
    let (values, indices) = match a.as_slice() {
        // Row-major already: the rows are read where they are.
        Some(src) => top_k_rows(src, n, k, largest)?,
        None => top_k_rows(&sort::rows_of(a, last)?, n, k, largest)?,
    };
    let shape = ndarray::IxDyn(&dims);
    let v = ndarray::ArrayD::from_shape_vec(shape.clone(), values)
        .map_err(|_| internal("TopK values do not fill the shape"))?;
    let i = ndarray::ArrayD::from_shape_vec(shape, indices)
        .map_err(|_| internal("TopK indices do not fill the shape"))?;
    Ok((T::wrap(v.into_shared()), i32::wrap(i.into_shared())))
}
