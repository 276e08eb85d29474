//! DotGeneral's kernel: the operands seen as stacks of matrices, one
//! `kernels::matmul` per batch position.
//!
//! The lhs is viewed with its dimensions in the order (batch, free,
//! contracting) and the rhs in the order (batch, contracting, free); each group
//! of dimensions is then merged into one, giving `[B, M, K]` and `[B, K, N]`.
//! Merging is a change of view, not a copy, whenever the group's dimensions
//! step through memory as one (always for one dimension, and for row-major
//! neighbours); only an operand whose groups cannot be merged is copied, once,
//! into the grouped order. The result `[batch..., lhs free..., rhs free...]`
//! in row-major order is exactly `[B, M, N]`, so each product writes its own
//! block of the output.

use super::super::common::{contiguous, internal};
pub use super::plan::Plan;
use crate::for_class;
use ndarray::{ArrayD, IxDyn};
use rayon::prelude::*;
use xlet_core::alloc;
use xlet_core::types::{ArrayType, ElemType};
use xlet_core::value::{Array, CastFrom, Elem, Nd, Value, c64, c128};
use xlet_core::with_array;
use xlet_ir::{EvalCx, Kernel, KernelError};
use xlet_kernels::matmul::{DotElem, Mat, matmul};
use xlet_kernels::strided::{Src, map1};

/// The type a product is computed in (spec/ops/dot_general.md, "Arithmetic").
pub fn compute_type(operand: ElemType, result: ElemType) -> ElemType {
    if result.is_float() {
        if operand == ElemType::F64 || result == ElemType::F64 {
            ElemType::F64
        } else {
            ElemType::F32
        }
    } else {
        result
    }
}

pub struct DotKernel {
    pub plan: Plan,
}

impl Kernel for DotKernel {
    fn vjp(&self, cx: &mut xlet_ir::rule::RuleCx) -> Result<(), xlet_ir::rule::NoRule> {
        crate::dot_general::grad::rule(cx, &self.plan)
    }
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let [Value::Array(l), Value::Array(r)] = args else {
            return Err(internal("DotGeneral expects two arrays"));
        };
        let p = &self.plan;
        let out = match p.compute {
            ElemType::F32 => run_in::<f32>(p, l, r)?,
            ElemType::F64 => run_in::<f64>(p, l, r)?,
            ElemType::C64 => run_in::<c64>(p, l, r)?,
            ElemType::C128 => run_in::<c128>(p, l, r)?,
            e => for_class!(e, C, [int, pred] => run_in::<C>(p, l, r))
                .unwrap_or_else(|| Err(internal("DotGeneral: no product in this type")))?,
        };
        let out = if out.elem() == p.result.elem {
            out
        } else {
            round_to(out, p.result.elem)?
        };
        Ok(Value::Array(out))
    }
}

/// The whole op with products in `C`, then the result rounded to its type.
fn run_in<C: DotElem>(p: &Plan, l: &Array, r: &Array) -> Result<Array, KernelError> {
    let out_dims = &p.result.dims;
    let total: usize = out_dims.iter().product();
    let lc = in_type::<C>(l)?;
    let rc = in_type::<C>(r)?;
    let (lhs, lg) = grouped(lc, &p.lhs_order, [p.batch_dims, p.lhs_free])?;
    let (rhs, rg) = grouped(rc, &p.rhs_order, [p.batch_dims, p.contracting])?;
    let (b, m, k) = (lg[0].0, lg[1].0, lg[2].0);
    let n = rg[2].0;
    debug_assert_eq!(b * m * n, total);
    // The products' buffer: the result itself, or a temporary in C when the
    // result is rounded to another type afterwards (admitted as such).
    let what = ArrayType::new(C::ELEM, out_dims.clone());
    let mut out: Vec<C> = alloc::try_output_vec(total, &what)?;
    out.resize(total, C::ZERO);
    if total > 0 {
        let lmat = |i: usize| Mat {
            ptr: lhs.as_ptr().wrapping_offset(i as isize * lg[0].1),
            rows: m,
            cols: k,
            rs: lg[1].1,
            cs: lg[2].1,
        };
        let rmat = |i: usize| Mat {
            ptr: rhs.as_ptr().wrapping_offset(i as isize * rg[0].1),
            rows: k,
            cols: n,
            rs: rg[1].1,
            cs: rg[2].1,
        };
        let threads = rayon::current_num_threads();
        let each = m.saturating_mul(n).saturating_mul(k);
        if b >= threads && threads > 1 && each < BATCH_PARALLEL_BELOW {
            // Many small products: one per task, each on one thread.
            out.par_chunks_mut(m * n)
                .enumerate()
                .try_for_each(|(i, o)| matmul(o, lmat(i), rmat(i), false))?;
        } else {
            for (i, o) in out.chunks_mut(m * n).enumerate() {
                matmul(o, lmat(i), rmat(i), true)?;
            }
        }
    }
    let arr = ArrayD::from_shape_vec(IxDyn(out_dims), out)
        .map_err(|_| internal("DotGeneral result of an unexpected size"))?;
    Ok(Array::from_nd(arr))
}

/// A float result computed in f32 or f64, rounded once to its own type.
fn round_to(a: Array, to: ElemType) -> Result<Array, KernelError> {
    fn cast<C: Copy + Sync, O: Elem + CastFrom<C> + Send>(x: &Nd<C>) -> Result<Array, KernelError> {
        Ok(Array::from_nd(map1(x.shape(), &Src::of(x), |v| {
            O::cast_from(v)
        })?))
    }
    let out = match &a {
        Array::F32(x) => for_class!(to, O, [float] => cast::<f32, O>(x)),
        Array::F64(x) => for_class!(to, O, [float] => cast::<f64, O>(x)),
        _ => None,
    };
    out.unwrap_or_else(|| Err(internal("DotGeneral rounds only float results")))
}

/// A product of fewer multiply-adds than this runs on one thread, with the
/// batch positions spread over the pool instead (gemm's own threading has a
/// fixed cost that a 128³ product does not repay).
const BATCH_PARALLEL_BELOW: usize = 1 << 22;

/// The operand in the compute type: itself, or a converted copy (admitted).
fn in_type<C: DotElem>(a: &Array) -> Result<Nd<C>, KernelError> {
    if let Some(x) = C::unwrap(a) {
        return Ok(x.clone());
    }
    let ty = ArrayType::new(C::ELEM, a.dims().to_vec());
    alloc::admit(a.len().saturating_mul(std::mem::size_of::<C>()), &ty)?;
    with_array!(a, x => Ok(map1(x.shape(), &Src::of(x), |v| <C as CastFrom<_>>::cast_from(v))?.into_shared()))
}

/// (size, stride) of one merged group of dimensions.
type Group = (usize, isize);

/// The operand with its dimensions put in `order` and cut into three groups
/// (the first two of `sizes` dimensions, the rest), each merged into one
/// dimension: the storage to read and the three (size, stride) pairs. Copies
/// the operand into that order first only when a group cannot be merged.
fn grouped<C: DotElem>(
    a: Nd<C>,
    order: &[usize],
    sizes: [usize; 2],
) -> Result<(Nd<C>, [Group; 3]), KernelError> {
    let permuted = a.permuted_axes(IxDyn(order));
    if let Some(g) = merge_groups(permuted.shape(), permuted.strides(), sizes) {
        return Ok((permuted, g));
    }
    let copy = contiguous(permuted)?;
    let g = merge_groups(copy.shape(), copy.strides(), sizes)
        .ok_or_else(|| internal("a row-major array whose dimensions do not merge"))?;
    Ok((copy, g))
}

fn merge_groups(dims: &[usize], strides: &[isize], sizes: [usize; 2]) -> Option<[Group; 3]> {
    let (a, b) = (sizes[0], sizes[0] + sizes[1]);
    Some([
        merge(&dims[..a], &strides[..a])?,
        merge(&dims[a..b], &strides[a..b])?,
        merge(&dims[b..], &strides[b..])?,
    ])
}

/// Dimensions that step through memory as one dimension: each (ignoring
/// size-1 ones, whose stride is never used) moves `dim` times the next one's
/// stride. An empty group is one dimension of size 1.
pub(super) fn merge(dims: &[usize], strides: &[isize]) -> Option<Group> {
    let size: usize = dims.iter().product();
    let mut inner: Option<(usize, isize)> = None; // (size so far, stride of the innermost)
    for (&d, &s) in dims.iter().zip(strides).rev() {
        if d == 1 {
            continue;
        }
        inner = match inner {
            None => Some((d, s)),
            Some((n, st)) if s == st * n as isize => Some((n * d, st)),
            Some(_) => return None,
        };
    }
    Some((size, inner.map_or(0, |(_, st)| st)))
}
