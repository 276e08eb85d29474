//! DynamicUpdateSlice (spec/ops/dynamic_update_slice.md):
//! `DynamicUpdateSlice(operand, update, start_indices)`: the operand with the
//! block at the (clamped) starts replaced by `update`.
//!
//! When the operand arrives uniquely owned (the evaluator moves a value at its
//! last read, and While hands its state over), the update is written into the
//! operand's own storage: a loop that writes one row per iteration costs a row,
//! not a copy of the whole array. Otherwise the operand is copied first.

use super::common::internal;
use super::dynamic_slice::{clamped_starts, start_operands};
use super::registry::{Checked, OpDef, OpId};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::alloc;
use xlet_core::diag::Diag;
use xlet_core::types::{ArrayType, Type};
use xlet_core::value::{Array, Elem, Nd, Value};
use xlet_ir::{EvalCx, Kernel, KernelError};
use xlet_kernels::{Src, try_materialize};

const SPEC: &str = include_str!("../../../spec/ops/dynamic_update_slice.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::DynamicUpdateSlice,
    aliases: &[],
    signature: "DynamicUpdateSlice(operand, update, start_indices)",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let ops = cx.operands_alike(&[(0, "operand"), (1, "update")], None)?;
    let (o, u) = (&ops[0], &ops[1]);
    let t = cx.array(o, "C1", "operand")?.clone();
    let ut = cx.array(u, "C1", "update")?.clone();
    let shape = format!("{}", o.ty);
    if ut.elem != t.elem {
        return Err(cx
            .err(
                "C2",
                format!(
                    "the update is {} but the operand is {shape}: they must have one element type",
                    u.ty
                ),
                u.span.clone(),
            )
            .with_secondary(o.span.clone(), shape.clone())
            .with_help(format!(
                "convert the update with ConvertElementType(..., {})",
                t.elem
            )));
    }
    if ut.rank() != t.rank() {
        return Err(cx
            .err(
                "C3",
                format!(
                    "the update {} has rank {} but the operand {shape} has rank {}",
                    u.ty,
                    ut.rank(),
                    t.rank()
                ),
                u.span.clone(),
            )
            .with_secondary(o.span.clone(), shape.clone())
            .with_help(
                "Reshape the update to the operand's rank (size-1 dimensions where it is thinner)",
            ));
    }
    for (d, (&un, &n)) in ut.dims.iter().zip(&t.dims).enumerate() {
        if un > n {
            return Err(cx
                .err(
                    "C4",
                    format!(
                        "the update {} is larger than the operand {shape} in dimension {d} ({un} > {n})",
                        u.ty
                    ),
                    u.span.clone(),
                )
                .with_secondary(o.span.clone(), shape.clone()));
        }
    }
    let count = cx.positional_count().saturating_sub(2);
    start_operands(cx, 2, count, t.rank(), "C5", "C6", &shape)?;
    Ok(Checked {
        ty: Type::Array(t.clone()),
        kernel: Arc::new(DynamicUpdateSliceKernel {
            ty: t,
            update: ut.dims,
        }),
    })
}

struct DynamicUpdateSliceKernel {
    ty: ArrayType,
    update: Vec<usize>,
}

/// The reference form: a fresh copy of the operand with the update written in.
pub fn updated_copy<T: Elem>(a: &Nd<T>, u: &Nd<T>, starts: &[usize]) -> Nd<T> {
    let mut out = a.to_owned();
    write_block(&mut out.view_mut(), u, starts);
    out.into_shared()
}

fn write_block<T: Elem>(out: &mut ndarray::ArrayViewMutD<T>, u: &Nd<T>, starts: &[usize]) {
    out.slice_each_axis_mut(|ax| {
        let s = starts[ax.axis.index()];
        ndarray::Slice::from(s..s + u.shape()[ax.axis.index()])
    })
    .assign(u);
}

/// The operand with the update written in, in the operand's own storage when
/// nothing else holds it.
fn update_in_place<T: Elem>(
    mut a: Nd<T>,
    u: &Nd<T>,
    starts: &[usize],
    ty: &ArrayType,
) -> Result<Nd<T>, KernelError> {
    let fits = a.ndim() == u.ndim()
        && a.ndim() == starts.len()
        && (0..a.ndim()).all(|d| starts[d] + u.shape()[d] <= a.shape()[d]);
    if !fits {
        return Err(internal("update does not fit the operand"));
    }
    // A stride-0 dimension (one element seen at several indices) cannot take
    // different values; no op makes such a value today, but writing into one
    // would be silently wrong.
    let overlapping = a
        .shape()
        .iter()
        .zip(a.strides())
        .any(|(&n, &s)| s == 0 && n > 1);
    if !a.is_unique() || overlapping {
        // Shared (a `let` read again later, or the update is a view of it):
        // copy, under the memory budget, and write into the copy.
        alloc::admit(a.len().saturating_mul(std::mem::size_of::<T>()), ty)?;
        a = try_materialize(a.shape(), &Src::of(&a))?.into_shared();
    }
    // `a` is unique now, so `view_mut` writes into its storage without copying.
    write_block(&mut a.view_mut(), u, starts);
    Ok(a)
}

impl Kernel for DynamicUpdateSliceKernel {
    fn vjp(&self, cx: &mut xlet_ir::rule::RuleCx) -> Result<(), xlet_ir::rule::NoRule> {
        xlet_grad::structural::dynamic_update_slice(cx)
    }
    fn allocates(&self) -> bool {
        false // in place when it can be; a copy admits itself
    }
    fn run(&self, args: &[Value], cx: &dyn EvalCx) -> Result<Value, KernelError> {
        self.run_owned(args.to_vec(), cx)
    }
    fn run_owned(&self, args: Vec<Value>, _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let mut it = args.into_iter();
        let (Some(Value::Array(a)), Some(Value::Array(u))) = (it.next(), it.next()) else {
            return Err(internal("DynamicUpdateSlice expects two arrays and starts"));
        };
        let starts: Vec<Value> = it.collect();
        let starts = clamped_starts(&starts, a.dims(), &self.update)?;
        macro_rules! go {
            ($($v:ident),*) => {
                match (a, u) {
                    $((Array::$v(a), Array::$v(u)) => {
                        Array::$v(update_in_place(a, &u, &starts, &self.ty)?)
                    })*
                    // A small type's bytes (the update may arrive as the
                    // bytes an element-moving op returned).
                    (Array::Small(t, a), Array::Small(_, u) | Array::U8(u)) => {
                        Array::Small(t, update_in_place(a, &u, &starts, &self.ty)?)
                    }
                    _ => return Err(internal("operand and update differ in element type")),
                }
            };
        }
        let out = go!(
            Pred, S8, S16, S32, S64, U8, U16, U32, U64, F16, BF16, F32, F64, C64, C128
        );
        Ok(Value::Array(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{ArrayD, IxDyn};

    fn arr(dims: &[usize], f: impl Fn(&[usize]) -> f32) -> Nd<f32> {
        use ndarray::Dimension;
        ArrayD::from_shape_fn(IxDyn(dims), |i| f(i.slice())).into_shared()
    }

    #[test]
    fn in_place_matches_the_copy_and_reuses_storage() {
        let ty = ArrayType::new(xlet_core::types::ElemType::F32, vec![6, 5]);
        let a = arr(&[6, 5], |i| (i[0] * 10 + i[1]) as f32);
        let u = arr(&[2, 3], |i| -((i[0] * 3 + i[1]) as f32) - 1.0);
        let expected = updated_copy(&a, &u, &[3, 1]);
        // Unique: written in its own storage.
        let unique = a.to_owned().into_shared();
        let ptr = unique.as_ptr();
        let got = update_in_place(unique, &u, &[3, 1], &ty).unwrap();
        assert_eq!(got, expected);
        assert_eq!(got.as_ptr(), ptr, "a unique operand is updated in place");
        // Shared: the other holder keeps the old value.
        let shared = a.clone();
        let got = update_in_place(shared, &u, &[3, 1], &ty).unwrap();
        assert_eq!(got, expected);
        assert_eq!(a[[3, 1]], 31.0);
        // Transposed and reversed unique operands.
        let mut t = a.to_owned().reversed_axes().into_shared();
        let ut = u.to_owned().reversed_axes().into_shared();
        t.invert_axis(ndarray::Axis(0));
        let expected = updated_copy(&t, &ut, &[1, 2]);
        let got = update_in_place(t, &ut, &[1, 2], &ty).unwrap();
        assert_eq!(got, expected);
    }
}
