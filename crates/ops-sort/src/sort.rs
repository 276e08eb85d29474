//! Sort (spec/ops/sort.md): `Sort(x)` (the seed's form, ascending along the
//! last dimension) and current XLA's `Sort({x0, x1, ...}, comparator=comp,
//! dimension=d, is_stable=b)` (a tuple of the operands sorted together).
//!
//! The kernel sorts rows (the 1-D slices along `dimension`) in one of two ways
//! that give the same result (the merge sort spec/ops/sort.md defines):
//! - natively (kernels::sort), when there is no comparator or it is recognised
//!   as one `Lt`/`Gt` of one operand's two parameters (`recognise` below);
//! - otherwise by the reference merge sort calling the comparator comp once per
//!   comparison through the evaluator.

use super::common::internal;
use super::index_dims;
use super::registry::{Checked, OpDef, OpId};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::{ArrayType, ElemType, Type};
use xlet_core::value::{Array, CastFrom, Elem, Nd, Value};
use xlet_core::{with_array, with_real_array, with_real_elem_type};
use xlet_ir::{Comp, EvalCx, ExprKind, Kernel, KernelError};
use xlet_kernels::sort::keys::SortElem;
use xlet_kernels::sort::{self, Order};

const SPEC: &str = include_str!("../../../spec/ops/sort.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::Sort,
    aliases: &[],
    signature: "Sort(operands[, comparator=comp][, dimension=d][, is_stable=true|false])",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    // `Sort(v, idx)`: arrays to sort together go in braces; the second
    // position is the comparator.
    if let (Some(first), Some(second)) = (cx.peek(0), cx.peek(1))
        && cx.names_value(second)
    {
        let strip = |e: &xlet_syntax::ast::Expr| {
            let t = cx.text(&e.span);
            match &e.kind {
                xlet_syntax::ast::ExprKind::Brace(items)
                    if !items.is_empty() && !xlet_check::literal::is_weak(e) =>
                {
                    let t = t.trim();
                    t.strip_prefix('{')
                        .and_then(|x| x.strip_suffix('}'))
                        .unwrap_or(t)
                        .trim()
                        .to_string()
                }
                _ => t.to_string(),
            }
        };
        let mut args = vec![format!("{{{}, {}}}", strip(first), cx.text(&second.span))];
        for k in 2..cx.positional_count() {
            if let Some(e) = cx.peek(k) {
                args.push(cx.text(&e.span).to_string());
            }
        }
        for name in ["comparator", "dimension", "is_stable"] {
            if let Some(e) = cx.peek_named(name) {
                args.push(format!("{name}={}", cx.text(&e.span)));
            }
        }
        return Err(cx
                .err(
                    "C5",
                    format!(
                        "the comparator must be a computation, but `{}` is a value",
                        cx.text(&second.span)
                    ),
                    second.span.clone(),
                )
                .with_label("not a computation")
                .with_help(format!(
                    "to sort arrays together, put them in braces: did you mean Sort({})? The first one is the key unless a comparator says otherwise",
                    args.join(", ")
                )));
    }
    // `{}` is the empty list of operands here, not an empty array literal.
    if let Some(e) = cx.take(Some(0), "operands")?
        && matches!(&e.kind, xlet_syntax::ast::ExprKind::Brace(items) if items.is_empty())
    {
        return Err(cx
            .err(
                "C1",
                "there must be at least one operand to sort",
                e.span.clone(),
            )
            .with_label("no operands")
            .with_help("write Sort(x) or Sort({keys, values}, comparator=...)"));
    }
    let list = cx.operand_list(0, "operands", None, &[])?;
    let Some(first) = list.items.first() else {
        return Err(cx
            .err(
                "C1",
                "there must be at least one operand to sort",
                list.span.clone(),
            )
            .with_label("no operands")
            .with_help("write Sort(x) or Sort({keys, values}, comparator=...)"));
    };
    // C2: arrays only.
    let mut types: Vec<ArrayType> = vec![];
    for op in &list.items {
        types.push(cx.array(op, "C2", "each operand of Sort")?.clone());
    }
    // C3: one shape for all (element types may differ).
    for (op, t) in list.items.iter().zip(&types).skip(1) {
        if t.dims != types[0].dims {
            return Err(cx
                .err(
                    "C3",
                    format!(
                        "operands sorted together must have the same dimensions, found {} and {t}",
                        types[0]
                    ),
                    op.span.clone(),
                )
                .with_label(format!("{t}"))
                .with_secondary(first.span.clone(), format!("{}", types[0])));
        }
    }
    let rank = types[0].rank();
    // C4: the dimension, -R <= d < R (negative counts from the end, as StableHLO).
    let dim_attr = cx.int(Some(2), "dimension")?;
    let dim = match &dim_attr {
        None if rank > 0 => rank - 1,
        None => {
            return Err(cx
                .err(
                    "C4",
                    format!(
                        "{} is a scalar: it has no dimension to sort along",
                        types[0]
                    ),
                    first.span.clone(),
                )
                .with_label(format!("{}", types[0])));
        }
        Some(a) => {
            let r = rank as i64;
            if a.value < -r || a.value >= r {
                let range = if rank == 0 {
                    "a scalar has no dimension".to_string()
                } else {
                    format!("must be in -{rank}..{rank}")
                };
                return Err(cx
                    .err(
                        "C4",
                        format!("dimension {} is not a dimension of {}", a.value, types[0]),
                        a.span.clone(),
                    )
                    .with_label(range)
                    .with_secondary(
                        first.span.clone(),
                        format!(
                            "{} has {}",
                            types[0],
                            xlet_core::english::count(rank, "dimension")
                        ),
                    ));
            }
            (if a.value < 0 { a.value + r } else { a.value }) as usize
        }
    };
    // is_stable is read and accepted: xlet always sorts stably (spec/ops/sort.md).
    index_dims::flag_at(cx, Some(3), "is_stable", false)?;
    // C5: the comparator's signature, 2N scalars (Ti, Ti) -> pred[].
    let mut comparator = None;
    let how = match cx.take(Some(1), "comparator")? {
        // C6: the default order is for real keys; complex ones need a comparator.
        None if types[0].elem.is_complex() => {
            let t = &types[0];
            return Err(cx
                .err(
                    "C6",
                    format!("Sort without a comparator orders real numbers, but the key is {t}"),
                    cx.span.clone(),
                )
                .with_label(format!("the key is {t}"))
                .with_help(format!(
                    "pass a comparator, e.g. comp lt(a: {e}, b: {e}) -> pred {{ a < b }} (lexicographic on (re, im)) and Sort(x, lt)",
                    e = t.elem
                )));
        }
        None => How::Native {
            key: 0,
            order: Order::Natural,
        },
        Some(e) => {
            let params: Vec<Type> = types
                .iter()
                .flat_map(|t| [Type::array(t.elem, vec![]), Type::array(t.elem, vec![])])
                .collect();
            let pred = Type::array(ElemType::Pred, vec![]);
            let c = cx.computation_of(e, "comparator", &params, Some(&pred), "C5")?;
            let elems: Vec<ElemType> = types.iter().map(|t| t.elem).collect();
            comparator = Some(c.value.clone());
            match recognise(&c.value, &elems) {
                Some((key, order)) => How::Native { key, order },
                None => How::Comp(c.value),
            }
        }
    };
    let ty = match types.len() {
        1 => Type::Array(types[0].clone()),
        _ => Type::Tuple(types.iter().cloned().map(Type::Array).collect()),
    };
    // A native sort of small types orders their values, in the compute types
    // (spec/small_types.md §6.2); with a comparator it moves their bytes.
    let native = matches!(how, How::Native { .. });
    let kernel: Arc<dyn Kernel> = Arc::new(SortKernel {
        dim,
        how,
        comparator,
        tuple: types.len() > 1,
    });
    let elems: Vec<ElemType> = types.iter().map(|t| t.elem).collect();
    Ok(Checked {
        kernel: if native {
            super::small::widened_tuple(kernel, &elems, &ty)
        } else {
            kernel
        },
        ty,
    })
}

/// How the kernel orders rows.
enum How {
    /// Natively, by operand `key`'s elements in `order`.
    Native { key: usize, order: Order },
    /// By calling the comparator for each comparison of the reference merge sort.
    Comp(Arc<Comp>),
}

/// A comparator the native sort can stand in for: a body that is exactly one
/// `Lt` or `Gt` applied to the two parameters of one operand `k` (slots `2k`
/// and `2k + 1`, in either order: `Lt(b, a)` is `Gt(a, b)`), and no bindings.
/// Whether it compares with `type=TOTALORDER` is not visible in the checked
/// expression (the attribute is baked into the kernel), so the comparison
/// kernel itself is asked: it is run on probe pairs whose answers tell IEEE
/// from total order (`Lt(-0, +0)` and `Lt(1, NaN)` differ), and recognised only
/// if every answer matches one of them.
fn recognise(c: &Comp, elems: &[ElemType]) -> Option<(usize, Order)> {
    if !c.body.is_empty() {
        return None;
    }
    let ExprKind::Op { id, kernel, args } = &c.result.kind else {
        return None;
    };
    let less = match id {
        OpId::Lt => true,
        OpId::Gt => false,
        _ => return None,
    };
    let [a, b] = args.as_slice() else {
        return None;
    };
    let (ExprKind::Local(p), ExprKind::Local(q)) = (&a.kind, &b.kind) else {
        return None;
    };
    let (p, q) = (*p, *q);
    if p / 2 != q / 2 || p == q {
        return None;
    }
    let key = p / 2;
    let elem = *elems.get(key)?;
    // Small types compare through their comparator (spec/small_types.md §5).
    if elem.small().is_some() {
        return None;
    }
    // Complex keys (lexicographic on XLA) sort through the comparator.
    let total =
        with_real_elem_type!(elem, T => probe::<T>(kernel.as_ref(), less), complex => None)?;
    // Swapped parameters (`Lt(b, a)`) flip the direction.
    let ascending = less == (p < q);
    let order = match (ascending, total) {
        (true, false) => Order::Lt,
        (false, false) => Order::Gt,
        (true, true) => Order::TotalLt,
        (false, true) => Order::TotalGt,
    };
    Some((key, order))
}

/// Runs the comparison kernel (`Lt` if `less`, else `Gt`) on probe pairs: Some(false)
/// if it answers as the IEEE comparison does, Some(true) as the total order, None otherwise.
fn probe<T: SortElem + Elem + CastFrom<f64>>(kernel: &dyn Kernel, less: bool) -> Option<bool> {
    let pairs: [(f64, f64); 7] = [
        (-0.0, 0.0),
        (0.0, -0.0),
        (1.0, 2.0),
        (2.0, 1.0),
        (f64::NAN, 1.0),
        (1.0, f64::NAN),
        (f64::NAN, f64::NAN),
    ];
    let (ieee, total) = if less {
        (Order::Lt, Order::TotalLt)
    } else {
        (Order::Gt, Order::TotalGt)
    };
    let (mut is_ieee, mut is_total) = (true, true);
    for (x, y) in pairs {
        let (x, y) = (T::cast_from(x), T::cast_from(y));
        let args = [scalar(x), scalar(y)];
        let got = match kernel.run(&args, &NoCalls).ok()? {
            Value::Array(Array::Pred(p)) => *p.iter().next()?,
            _ => return None,
        };
        is_ieee &= got == ieee.less(x, y);
        is_total &= got == total.less(x, y);
    }
    // For integers and pred both orders agree: call it IEEE (no TOTALORDER there).
    match (is_ieee, is_total) {
        (true, _) => Some(false),
        (false, true) => Some(true),
        (false, false) => None,
    }
}

fn scalar<T: Elem>(x: T) -> Value {
    Value::Array(T::wrap(ndarray::arr0(x).into_dyn().into_shared()))
}

/// The probe runs a comparison kernel, which never calls a computation.
struct NoCalls;

impl EvalCx for NoCalls {
    fn call_comp(&self, _: &Comp, _: &[Value]) -> Result<Value, KernelError> {
        Err(internal("a comparison kernel called a computation"))
    }
}

struct SortKernel {
    dim: usize,
    how: How,
    /// The user's comparator, if any (a gradient sorts with it again).
    comparator: Option<Arc<Comp>>,
    tuple: bool,
}

impl Kernel for SortKernel {
    /// The cotangents put back by the sort's permutation (spec/grad.md §4.3).
    fn vjp(&self, cx: &mut xlet_ir::rule::RuleCx) -> Result<(), xlet_ir::rule::NoRule> {
        xlet_grad::control::sort(cx, self.dim, self.comparator.as_ref())
    }
    fn computations(&self) -> Vec<Arc<Comp>> {
        self.comparator.iter().cloned().collect()
    }
    fn run(&self, args: &[Value], cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let arrays: Vec<&Array> = args
            .iter()
            .map(|v| {
                v.as_array()
                    .ok_or_else(|| internal("Sort operand is a tuple"))
            })
            .collect::<Result<_, _>>()?;
        let first = arrays
            .first()
            .ok_or_else(|| internal("Sort without operands"))?;
        let dims = first.dims().to_vec();
        let n = *dims
            .get(self.dim)
            .ok_or_else(|| internal("Sort dimension out of range"))?;
        let outs: Vec<Array> = match &self.how {
            How::Native { order, .. } if arrays.len() == 1 => {
                vec![
                    with_real_array!(first, a => sort_alone(a, self.dim, *order), complex => Err(internal("native sort of complex")))?,
                ]
            }
            How::Native { key, order } => {
                let k = arrays
                    .get(*key)
                    .ok_or_else(|| internal("Sort key operand"))?;
                let perm = with_real_array!(k, a => native_perm(a, self.dim, n, *order), complex => Err(internal("native sort of complex")))?;
                arrays
                    .iter()
                    .map(|a| with_array!(a, x => permuted(x, &perm, self.dim, n)))
                    .collect::<Result<_, _>>()?
            }
            How::Comp(comp) => {
                let rows: Vec<Array> = arrays
                    .iter()
                    .map(|a| with_array!(a, x => flat_rows(x, self.dim)))
                    .collect::<Result<_, _>>()?;
                let count = if n == 0 { 0 } else { first.len() / n };
                let perm = sort::perm_rows_by(count, n, |r, i, j| {
                    let mut vals = Vec::with_capacity(2 * rows.len());
                    for rs in &rows {
                        vals.push(element(rs, r * n + i)?);
                        vals.push(element(rs, r * n + j)?);
                    }
                    match cx.call_comp(comp, &vals)? {
                        Value::Array(Array::Pred(p)) => p
                            .iter()
                            .next()
                            .copied()
                            .ok_or_else(|| internal("comparator result is empty")),
                        _ => Err(internal("comparator result is not pred")),
                    }
                })?;
                rows.iter()
                    .map(|a| with_array!(a, x => gathered(x, &perm, &dims, self.dim, n)))
                    .collect::<Result<_, _>>()?
            }
        };
        Ok(if self.tuple {
            Value::tuple(outs.into_iter().map(Value::Array).collect())
        } else {
            Value::Array(
                outs.into_iter()
                    .next()
                    .ok_or_else(|| internal("Sort made no result"))?,
            )
        })
    }
}

/// One operand sorted by its own elements: its rows sorted in place.
fn sort_alone<T: SortElem + Elem>(
    a: &Nd<T>,
    dim: usize,
    order: Order,
) -> Result<Array, KernelError> {
    let n = a.shape()[dim];
    // One row in row-major layout (a 1-D array, say): sorted straight from the operand.
    if a.len() == n
        && let Some(src) = a.as_slice()
    {
        let out = sort::sorted_row(src, order)?;
        return Ok(T::wrap(sort::from_rows(out, a.shape(), dim)?));
    }
    let mut rows = sort::rows_of(a, dim)?;
    sort::sort_rows(&mut rows, n, order)?;
    Ok(T::wrap(sort::from_rows(rows, a.shape(), dim)?))
}

fn native_perm<T: SortElem>(
    a: &Nd<T>,
    dim: usize,
    n: usize,
    order: Order,
) -> Result<Vec<usize>, KernelError> {
    let rows = sort::rows_of(a, dim)?;
    sort::perm_rows(&rows, n, order)
}

/// An operand reordered by the rows' permutation.
fn permuted<T: Elem + Send + Sync>(
    a: &Nd<T>,
    perm: &[usize],
    dim: usize,
    n: usize,
) -> Result<Array, KernelError> {
    let rows = sort::rows_of(a, dim)?;
    let out = sort::gather_rows(&rows, perm, n)?;
    Ok(T::wrap(sort::from_rows(out, a.shape(), dim)?))
}

/// An operand's rows as one flat 1-D array (for reading single elements).
fn flat_rows<T: Elem + Send + Sync>(a: &Nd<T>, dim: usize) -> Result<Array, KernelError> {
    let rows = sort::rows_of(a, dim)?;
    let n = rows.len();
    ndarray::ArrayD::from_shape_vec(ndarray::IxDyn(&[n]), rows)
        .map(Array::from_nd)
        .map_err(|_| internal("Sort rows"))
}

/// Flat rows (from `flat_rows`) reordered by the permutation, as an array of `dims`.
fn gathered<T: Elem + Send + Sync>(
    flat: &Nd<T>,
    perm: &[usize],
    dims: &[usize],
    dim: usize,
    n: usize,
) -> Result<Array, KernelError> {
    let src = flat
        .as_slice()
        .ok_or_else(|| internal("Sort rows are not contiguous"))?;
    let out = sort::gather_rows(src, perm, n)?;
    Ok(T::wrap(sort::from_rows(out, dims, dim)?))
}

/// Element `i` of a flat 1-D array, as a scalar value for the comparator.
fn element(a: &Array, i: usize) -> Result<Value, KernelError> {
    with_array!(a, x => x
        .as_slice()
        .and_then(|s| s.get(i))
        .map(|&v| scalar(v))
        .ok_or_else(|| internal("Sort element out of range")))
}
