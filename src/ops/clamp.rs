//! Clamp (spec/ops/clamp.md): `Clamp(min, operand, max)` =
//! `Min(Max(operand, min), max)` per element, with Max and Min as in
//! spec/ops/binary.md (NaN-propagating on floats). `min` and `max` are each a
//! scalar (read with stride 0) or an array of the operand's shape. Clamp is an
//! elementwise kernel, so it fuses with the elementwise ops around it.
//!
//! This file also holds `ternary`, the three-operand elementwise function that
//! Clamp and Select share (the three-operand sibling of `kernels::fused::unary`
//! and `binary`).

use super::common::internal;
use super::registry::{Checked, OpDef};
use crate::check::call::CallCtx;
use crate::diag::Diag;
use crate::for_class;
use crate::ir::KernelError;
use crate::kernels::fused::{Chunk, ChunkElem, ElementwiseFn, ElementwiseKernel};
use crate::kernels::{Src, map3};
use crate::types::Type;
use crate::value::{Array, Nd};
use num_traits::Float;
use std::marker::PhantomData;
use std::sync::Arc;

const SPEC: &str = include_str!("../../spec/ops/clamp.md");

pub const OPS: &[OpDef] = &[OpDef {
    name: "Clamp",
    aliases: &[],
    signature: "Clamp(min, operand, max)",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let ops = cx.operands_alike(&[(0, "min"), (1, "operand"), (2, "max")], None)?;
    let lo = cx.array(&ops[0], "C1", "min")?.clone();
    let x = cx.array(&ops[1], "C1", "operand")?.clone();
    let hi = cx.array(&ops[2], "C1", "max")?.clone();
    for (b, o) in [(&lo, &ops[0]), (&hi, &ops[2])] {
        if b.elem != x.elem {
            return Err(cx
                .err("C2", format!("min, operand and max must have one element type, found {lo}, {x} and {hi}"), o.span.clone())
                .with_label(format!("{b}"))
                .with_secondary(ops[1].span.clone(), format!("the operand is {x}"))
                .with_help(format!("XLA does not promote types: convert with ConvertElementType(..., {})", x.elem)));
        }
    }
    for (c, name, b, o) in [("C3", "min", &lo, &ops[0]), ("C4", "max", &hi, &ops[2])] {
        if !b.is_scalar() && b.dims != x.dims {
            return Err(cx
                .err(c, format!("{name} {b} must be a scalar or have the operand's shape {x}"), o.span.clone())
                .with_label(format!("{b}"))
                .with_secondary(ops[1].span.clone(), format!("the operand is {x}")));
        }
    }
    let f = for_class!(x.elem, T, [int, pred] => ternary::<T, T, T, T, _>(|lo: T, x: T, hi: T| x.max(lo).min(hi)))
        .or_else(|| for_class!(x.elem, T, [float] => ternary::<T, T, T, T, _>(|lo: T, x: T, hi: T| fmin(fmax(x, lo), hi))))
        .ok_or_else(|| internal_diag(cx))?;
    let rank = x.rank();
    let place = |b: &crate::types::ArrayType| if b.is_scalar() { vec![] } else { (0..rank).collect() };
    Ok(Checked {
        ty: Type::Array(x.clone()),
        kernel: Arc::new(ElementwiseKernel {
            f,
            maps: vec![place(&lo), (0..rank).collect(), place(&hi)],
            out_dims: x.dims.clone(),
            out_elem: x.elem,
        }),
    })
}

fn internal_diag(cx: &CallCtx) -> Diag {
    Diag::check(cx.code("internal"), "Clamp: no kernel for this element type", cx.span.clone())
}

/// NaN-propagating maximum; +0 is above -0 (as Max in spec/ops/binary.md).
fn fmax<T: Float>(x: T, y: T) -> T {
    if x.is_nan() || y.is_nan() {
        T::nan()
    } else if x > y || (x == y && y.is_sign_negative()) {
        x
    } else {
        y
    }
}

/// NaN-propagating minimum; -0 is below +0 (as Min in spec/ops/binary.md).
fn fmin<T: Float>(x: T, y: T) -> T {
    if x.is_nan() || y.is_nan() {
        T::nan()
    } else if x < y || (x == y && x.is_sign_negative()) {
        x
    } else {
        y
    }
}

fn mismatch() -> KernelError {
    internal("elementwise operand of unexpected type or shape")
}

/// Operand `a` read over `out_dims`, placed by `map`; checks the placement first
/// (the view reads memory by it).
fn placed<'a, T>(a: &'a Nd<T>, map: &[usize], out_dims: &[usize]) -> Result<Src<'a, T>, KernelError> {
    let fits = a.ndim() == map.len()
        && a.shape().iter().zip(map).all(|(&s, &d)| out_dims.get(d).is_some_and(|&o| s == 1 || s == o));
    if fits { Ok(Src::broadcast_in_dim(a, out_dims.len(), map)) } else { Err(mismatch()) }
}

struct Tern<A, B, C, O, F>(F, PhantomData<fn(A, B, C) -> O>);

/// The elementwise function `f` of three operands (types fixed at check time).
pub fn ternary<A: ChunkElem, B: ChunkElem, C: ChunkElem, O: ChunkElem, F>(f: F) -> Arc<dyn ElementwiseFn>
where
    F: Fn(A, B, C) -> O + Send + Sync + Copy + 'static,
{
    Arc::new(Tern(f, PhantomData))
}

impl<A, B, C, O, F> ElementwiseFn for Tern<A, B, C, O, F>
where
    A: ChunkElem,
    B: ChunkElem,
    C: ChunkElem,
    O: ChunkElem,
    F: Fn(A, B, C) -> O + Send + Sync + Copy,
{
    fn run(&self, args: &[&Array], maps: &[Vec<usize>], out_dims: &[usize]) -> Result<Array, KernelError> {
        let ([a, b, c], [ma, mb, mc]) = (args, maps) else {
            return Err(mismatch());
        };
        let a = A::unwrap(a).ok_or_else(mismatch)?;
        let b = B::unwrap(b).ok_or_else(mismatch)?;
        let c = C::unwrap(c).ok_or_else(mismatch)?;
        let (sa, sb, sc) = (placed(a, ma, out_dims)?, placed(b, mb, out_dims)?, placed(c, mc, out_dims)?);
        Ok(Array::from_nd(map3(out_dims, &sa, &sb, &sc, self.0)))
    }

    fn run_chunk(&self, ins: &[&Chunk], out: &mut Chunk) -> Result<(), KernelError> {
        let [a, b, c] = ins else {
            return Err(mismatch());
        };
        let a = A::chunk(a).ok_or_else(mismatch)?;
        let b = B::chunk(b).ok_or_else(mismatch)?;
        let c = C::chunk(c).ok_or_else(mismatch)?;
        if a.len() != b.len() || b.len() != c.len() {
            return Err(mismatch());
        }
        let o = O::chunk_mut(out).ok_or_else(mismatch)?;
        o.clear();
        o.extend(a.iter().zip(b).zip(c).map(|((&x, &y), &z)| (self.0)(x, y, z)));
        Ok(())
    }
}
