//! What Cholesky and TriangularSolve share: the element types they compute in
//! (f16 and bf16 through f32, rounded once at the end), the operands as
//! row-major buffers in that type, and the checks of a batch of square
//! matrices.

use super::common::{contiguous, internal};
use crate::for_class;
use ndarray::{ArrayD, IxDyn};
use xlet_check::call::{CallCtx, Operand};
use xlet_core::alloc;
use xlet_core::diag::Diag;
use xlet_core::types::{ArrayType, ElemType};
use xlet_core::value::{Array, CastFrom, Elem, Nd};
use xlet_core::with_array;
use xlet_ir::KernelError;
use xlet_kernels::strided::{Src, map1};

/// The operand's array type when its elements are floats or complex; else the error of
/// constraint C1 (`what` names the operand, `fix` is the call with it
/// converted).
pub fn float_matrix(cx: &CallCtx, o: &Operand, what: &str, fix: String) -> Result<ArrayType, Diag> {
    let t = cx.array(o, "C1", what)?.clone();
    if t.elem.is_float() || t.elem.is_complex() {
        return Ok(t);
    }
    Err(cx
        .err(
            "C1",
            format!("{what} must be an array of floats (f16, bf16, f32, f64) or complex numbers (c64, c128), found {t}"),
            o.span.clone(),
        )
        .with_label(format!("{t}"))
        .with_help(format!("convert it first: {fix}")))
}

/// C2 of both ops: at least two dimensions (the matrices are the last two).
pub fn at_least_a_matrix(cx: &CallCtx, o: &Operand, t: &ArrayType, what: &str) -> Result<(), Diag> {
    if t.rank() >= 2 {
        return Ok(());
    }
    let text = cx.text(&o.span);
    let n = t.dims.first().copied().unwrap_or(1);
    Err(cx
        .err(
            "C2",
            format!("{what} must have at least two dimensions (a matrix, or a batch of them), found {t}"),
            o.span.clone(),
        )
        .with_label(format!("{t}"))
        .with_help(format!(
            "the matrices are the last two dimensions: reshape to one, e.g. Reshape({text}, {{1, {n}}})"
        )))
}

/// The compute type of an element type: f64, c64 and c128 themselves, f32 for
/// the other floats.
pub fn compute_type(e: ElemType) -> ElemType {
    match e {
        ElemType::F64 | ElemType::C64 | ElemType::C128 => e,
        _ => ElemType::F32,
    }
}

/// The operand in row-major layout in the compute type `C` (a converted copy,
/// admitted, for f16 and bf16).
pub fn row_major<C: Elem>(a: &Array) -> Result<Nd<C>, KernelError> {
    if let Some(x) = C::unwrap(a) {
        return contiguous(x.clone());
    }
    let ty = ArrayType::new(C::ELEM, a.dims().to_vec());
    alloc::admit(a.len().saturating_mul(std::mem::size_of::<C>()), &ty)?;
    with_array!(a, x => Ok(map1(x.shape(), &Src::of(x), |v| <C as CastFrom<_>>::cast_from(v))?.into_shared()))
}

/// The elements of `a` (row-major) as a slice.
pub fn slice_of<C: Elem>(a: &Nd<C>) -> Result<&[C], KernelError> {
    a.as_slice()
        .ok_or_else(|| internal("a linear-algebra operand is not row-major"))
}

/// The kernel's row-major result as an array of `dims`, rounded once to
/// `elem` when that is f16 or bf16.
pub fn result<C: Elem>(v: Vec<C>, dims: &[usize], elem: ElemType) -> Result<Array, KernelError> {
    let arr = ArrayD::from_shape_vec(IxDyn(dims), v)
        .map_err(|_| internal("a linear-algebra result of an unexpected size"))?;
    let out = Array::from_nd(arr);
    if elem == out.elem() {
        return Ok(out);
    }
    // Only f16 and bf16 are computed in another type, f32.
    let rounded = match &out {
        Array::F32(x) => for_class!(elem, O, [float] => Ok(Array::from_nd(
            map1(x.shape(), &Src::of(x), <O as CastFrom<f32>>::cast_from)?
        ))),
        _ => None,
    };
    rounded.unwrap_or_else(|| Err(internal("a linear-algebra result that is not a float")))
}
