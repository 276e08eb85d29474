//! DynamicSlice (spec/ops/dynamic_slice.md):
//! `DynamicSlice(operand, start_indices, size_indices)`, the start indices a
//! rank-1 integer array (computed or literal) or one integer scalar per
//! dimension, as current XLA writes them. Starts are clamped so that the slice
//! lies inside the operand. The result is a view of the operand's storage.
//!
//! The start-index forms and their clamping are shared with DynamicUpdateSlice.

use super::common::internal;
use super::registry::{Checked, OpDef, OpId};
use super::slice::{Range, slice_view};
use std::sync::Arc;
use xlet_check::call::{CallCtx, Operand};
use xlet_check::literal::{has_float_text, is_weak};
use xlet_core::diag::Diag;
use xlet_core::types::{ElemType, Type};
use xlet_core::value::{Array, Elem, Value};
use xlet_core::with_array;
use xlet_ir::{EvalCx, Kernel, KernelError};
use xlet_syntax::ast::{Expr, ExprKind};

const SPEC: &str = include_str!("../../../spec/ops/dynamic_slice.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::DynamicSlice,
    aliases: &[],
    signature: "DynamicSlice(operand, start_indices, size_indices | slice_sizes)",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let o = cx.operand(0, "operand")?;
    let t = cx.array(&o, "C1", "operand")?.clone();
    let shape = format!("{}", Type::Array(t.clone()));
    // The sizes are the last positional argument unless given by name.
    let by_name = match cx.take(None, "slice_sizes")? {
        Some(e) => Some(("slice_sizes", e)),
        None => cx.take(None, "size_indices")?.map(|e| ("size_indices", e)),
    };
    let n = cx.positional_count();
    // Starts fill the positions between the operand and the sizes.
    let start_count = match by_name {
        Some(_) => n.saturating_sub(1),
        None => n.saturating_sub(2),
    }
    .max(1);
    start_operands(cx, 1, start_count, t.rank(), "C2", "C3", &shape)?;
    let sizes = match by_name {
        Some((name, e)) => cx.ints_of(e, name)?,
        None => cx.require_int_list(Some(1 + start_count), "size_indices")?,
    };
    if sizes.value.len() != t.rank() {
        return Err(cx
            .err(
                "C4",
                format!(
                    "the slice sizes have {} entries but the operand {shape} has rank {}: one size per dimension",
                    sizes.value.len(),
                    t.rank()
                ),
                sizes.span.clone(),
            )
            .with_secondary(o.span.clone(), shape.clone()));
    }
    let mut dims = Vec::with_capacity(t.rank());
    for (d, (&s, &n)) in sizes.value.iter().zip(&t.dims).enumerate() {
        if s < 0 || s as u64 > n as u64 {
            return Err(cx
                .err(
                    "C4",
                    format!(
                        "slice size {s} of dimension {d} is not in 0..={n}: the operand {shape} has {n} there"
                    ),
                    sizes.span.clone(),
                )
                .with_secondary(o.span.clone(), shape.clone())
                .with_help("a slice is never larger than the operand; starts are clamped to fit it"));
        }
        dims.push(s as usize);
    }
    Ok(Checked {
        ty: Type::array(t.elem, dims.clone()),
        kernel: Arc::new(DynamicSliceKernel { sizes: dims }),
    })
}

/// Reads the start indices written at positions `first..first + count` (the
/// name `start_indices` stands for position `first`): one rank-1 integer array with
/// an entry per dimension, a brace list `{i, 0}` of integer scalars, or one
/// scalar per dimension. Untyped literals among scalars take the type of the
/// typed ones (s32 when all are untyped). Constraint `c_count` is the one-per-
/// dimension rule, `c_type` the integer-and-one-type rule. Returns the
/// operands in dimension order (one operand for the array form).
pub(super) fn start_operands(
    cx: &mut CallCtx,
    first: usize,
    count: usize,
    rank: usize,
    c_count: &str,
    c_type: &str,
    shape: &str,
) -> Result<Vec<Operand>, Diag> {
    let exprs: Vec<&Expr> = (first..first + count.max(1))
        .map(|p| cx.require(Some(p), "start_indices"))
        .collect::<Result<_, _>>()?;
    let scalar_items: Vec<&Expr> = match exprs.as_slice() {
        [e] => match &e.kind {
            // `{i, 0}`: scalars; a brace of plain numbers is one literal array.
            ExprKind::Brace(items) if !is_weak(e) => items.iter().collect(),
            _ => vec![],
        },
        many => many.to_vec(),
    };
    let span = exprs
        .first()
        .map(|f| f.span.clone())
        .unwrap_or(cx.span.clone());
    if scalar_items.is_empty() {
        let e = exprs[0];
        let op = cx.push_operand(e, Some(ElemType::S32))?;
        let a = cx.array(&op, c_type, "start_indices")?.clone();
        if !a.elem.is_int() {
            return Err(not_integer(cx, c_type, &op));
        }
        let ok = match a.rank() {
            0 => rank == 1,
            1 => a.dims[0] == rank,
            _ => false,
        };
        if !ok {
            return Err(cx
                .err(
                    c_count,
                    format!(
                        "the start indices are {} but the operand {shape} has rank {rank}: they must be one integer per dimension, as s32[{rank}] or as {rank} scalars",
                        op.ty
                    ),
                    op.span.clone(),
                )
                .with_label(format!("{}", op.ty)));
        }
        return Ok(vec![op]);
    }
    if scalar_items.len() != rank {
        return Err(cx
            .err(
                c_count,
                format!(
                    "{} start indices are given but the operand {shape} has rank {rank}: one per dimension",
                    scalar_items.len()
                ),
                span,
            )
            .with_label(format!("{} start indices", scalar_items.len())));
    }
    // Typed scalars first, so that untyped ones can take their type.
    let mut slots: Vec<Option<Operand>> = vec![None; rank];
    let mut elem = None;
    for (i, e) in scalar_items.iter().enumerate() {
        if !is_weak(e) {
            let op = cx.push_operand(e, None)?;
            elem = elem.or(op.ty.as_array().map(|a| a.elem));
            slots[i] = Some(op);
        }
    }
    for (i, e) in scalar_items.iter().enumerate() {
        if slots[i].is_none() {
            // `0.5` stays a float, to be rejected as one below.
            let hint = (!has_float_text(e)).then(|| elem.unwrap_or(ElemType::S32));
            slots[i] = Some(cx.push_operand(e, hint)?);
        }
    }
    let ops: Vec<Operand> = slots.into_iter().flatten().collect();
    let mut first_type: Option<&Operand> = None;
    for op in &ops {
        let a = cx.array(op, c_count, "a start index")?;
        if a.rank() != 0 {
            return Err(cx
                .err(
                    c_count,
                    format!(
                        "a start index given per dimension must be a scalar, found {}",
                        op.ty
                    ),
                    op.span.clone(),
                )
                .with_help("give one rank-1 array of starts, or one scalar per dimension"));
        }
        if !a.elem.is_int() {
            return Err(not_integer(cx, c_type, op));
        }
        match first_type {
            Some(f) if f.ty != op.ty => {
                return Err(cx
                    .err(
                        c_type,
                        format!(
                            "the start indices must all have one type, found {} and {}",
                            f.ty, op.ty
                        ),
                        op.span.clone(),
                    )
                    .with_secondary(f.span.clone(), format!("{}", f.ty))
                    .with_help("convert them to one integer type with ConvertElementType"));
            }
            Some(_) => {}
            None => first_type = Some(op),
        }
    }
    Ok(ops)
}

fn not_integer(cx: &CallCtx, c: &str, op: &Operand) -> Diag {
    cx.err(
        c,
        format!("start indices must be integers, found {}", op.ty),
        op.span.clone(),
    )
    .with_label(format!("{}", op.ty))
    .with_help("convert them with ConvertElementType(..., s32)")
}

/// The start of each dimension, clamped so that `sizes` fit:
/// `clamp(start, 0, dim - size)`. `starts` holds one rank-1 array or one
/// scalar per dimension. The clamp is exact: indices are read as i64 (a u64
/// above i64::MAX saturates, which clamps alike) and compared with the
/// dimension's bound as i64 (every dimension fits, however large an empty
/// array's other dimensions are).
pub(super) fn clamped_starts(
    starts: &[Value],
    dims: &[usize],
    sizes: &[usize],
) -> Result<Vec<usize>, KernelError> {
    let mut raw: Vec<i64> = Vec::with_capacity(dims.len());
    for v in starts {
        let a = v
            .as_array()
            .ok_or_else(|| internal("start index is a tuple"))?;
        raw.extend(super::index_dims::index_values(a)?);
    }
    if raw.len() != dims.len() || sizes.len() != dims.len() {
        return Err(internal("start indices do not match the operand's rank"));
    }
    raw.iter()
        .zip(dims.iter().zip(sizes))
        .map(|(&s, (&n, &size))| {
            let hi = i64::try_from(n.saturating_sub(size))
                .map_err(|_| internal("dimension beyond i64"))?;
            Ok(s.clamp(0, hi) as usize)
        })
        .collect()
}

struct DynamicSliceKernel {
    sizes: Vec<usize>,
}

impl Kernel for DynamicSliceKernel {
    fn vjp(&self, cx: &mut xlet_ir::rule::RuleCx) -> Result<(), xlet_ir::rule::NoRule> {
        xlet_grad::structural::dynamic_slice(cx)
    }
    fn allocates(&self) -> bool {
        false // a view of the operand
    }
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let (Some(Value::Array(a)), Some(starts)) = (args.first(), args.get(1..)) else {
            return Err(internal("DynamicSlice expects an array and its starts"));
        };
        let starts = clamped_starts(starts, a.dims(), &self.sizes)?;
        let ranges: Vec<Range> = starts
            .iter()
            .zip(&self.sizes)
            .map(|(&start, &size)| Range {
                start,
                limit: start + size,
                stride: 1,
            })
            .collect();
        let out: Array = with_array!(a, x => slice_view(x, &ranges).map(Elem::wrap)?);
        Ok(Value::Array(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{ArrayD, IxDyn};

    fn scalar(v: i64) -> Value {
        Value::Array(Array::S64(ArrayD::from_elem(IxDyn(&[]), v).into_shared()))
    }

    #[test]
    fn starts_clamp_into_the_operand() {
        let dims = [5, 4];
        let sizes = [2, 4];
        let got = clamped_starts(&[scalar(-3), scalar(2)], &dims, &sizes).unwrap();
        assert_eq!(got, [0, 0]);
        let got = clamped_starts(&[scalar(4), scalar(0)], &dims, &sizes).unwrap();
        assert_eq!(got, [3, 0]);
        let big = Value::Array(Array::U64(
            ArrayD::from_shape_vec(IxDyn(&[2]), vec![u64::MAX, 1])
                .unwrap()
                .into_shared(),
        ));
        let got = clamped_starts(&[big], &dims, &[1, 1]).unwrap();
        assert_eq!(got, [4, 1]);
        // Dimensions past 2^53 (an empty array's other dimension), where an
        // index through f64 rounds (to 2^60): 2^60 - 3 is below the bound
        // dim - size = 2^60 - 2 and is kept; i64::MAX clamps to 2^60 - 1 (size 1),
        // i64::MIN to 0; 2^60 - 5 is kept.
        let n = 1usize << 60;
        let got = clamped_starts(&[scalar((1 << 60) - 3), scalar(0)], &[n, 0], &[2, 0]).unwrap();
        assert_eq!(got, [n - 3, 0]);
        let got = clamped_starts(&[scalar(i64::MAX), scalar(i64::MIN)], &[n, 0], &[1, 0]).unwrap();
        assert_eq!(got, [n - 1, 0]);
        let got = clamped_starts(&[scalar((1 << 60) - 5), scalar(0)], &[n, 0], &[1, 0]).unwrap();
        assert_eq!(got, [n - 5, 0]);
    }
}
