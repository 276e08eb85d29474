//! Reduce in a plan (spec/plan.md §1): one small operand reduced by a monoid
//! comp the Reduce op recognised (add, mul, max, min, and, or on a type with a
//! native kernel). The plan runs the evaluator's own native row kernel
//! (`xlet_kernels::reduce::native::rows`) with the monoid's own element
//! function, on the operand arranged as rows (kept dimensions first, reduced
//! after: an alias when they already are, else a strided copy). Every
//! reduction path of the evaluator gives the bits of the one reduction order
//! (spec/ops/reduce.md, `reduce::order`), so the plan's result is the
//! evaluator's bit for bit.

use crate::compile::{Bound, Builder, Ins, MAX_RANK, Op, SMALL};
use xlet_core::error::{KernelError, internal};
use xlet_core::types::Type;
use xlet_ir::movement::Movement;
use xlet_kernels::fused::{Chunk, ChunkElem};
use xlet_kernels::reduce::monoid::{Monoid, NativeMonoid, WithOp};

impl Builder {
    /// `Reduce(x, init)` over `dims` (ascending, distinct) by `op`.
    pub(crate) fn reduce(
        &mut self,
        code: &mut Vec<Ins<usize>>,
        (op, dims): (Monoid, &[usize]),
        ins: Vec<usize>,
        ty: &Type,
    ) -> Option<Bound> {
        let [x, init] = ins[..] else { return None };
        let out = ty.as_array()?;
        let (v, i) = (self.vregs.get(x)?, self.vregs.get(init)?);
        if v.elem != out.elem || i.elem != out.elem || !i.dims.is_empty() {
            return None;
        }
        let sd = v.dims.clone();
        let rank = sd.len();
        if v.len() > SMALL || rank > MAX_RANK || dims.iter().any(|&d| d >= rank) {
            return None;
        }
        if dims.windows(2).any(|w| w[0] >= w[1]) {
            return None;
        }
        let kept: Vec<usize> = (0..rank).filter(|d| !dims.contains(d)).collect();
        let m: usize = kept.iter().map(|&d| sd[d]).product();
        let n: usize = dims.iter().map(|&d| sd[d]).product();
        if m != out.dims.iter().product::<usize>() {
            return None;
        }
        // The operand as rows: each output's elements contiguous, in
        // row-major order of the reduced dimensions.
        let perm: Vec<usize> = kept.iter().chain(dims).copied().collect();
        let rows_ty = Type::array(v.elem, perm.iter().map(|&p| sd[p]).collect());
        let rows = match self.movement(code, &Movement::Transpose { perm }, vec![x], &rows_ty)? {
            Bound::One(r) => r,
            Bound::Tuple(_) => return None,
        };
        self.push(code, Op::Reduce { op, m, n }, vec![rows, init], ty)
    }
}

/// `Op::Reduce` on one element type: `out` refilled with the `m` results of
/// reducing the rows of `x` (`m` rows of `n`), the init value read from its
/// register.
pub(crate) fn rows<T: NativeMonoid + ChunkElem>(
    op: Monoid,
    x: &[T],
    (m, n): (usize, usize),
    init: &Chunk,
    out: &mut Vec<T>,
) -> Result<(), KernelError> {
    let init = *T::chunk(init)
        .and_then(|v| v.first())
        .ok_or_else(|| internal("a Reduce init value of another type"))?;
    if x.len() != m * n {
        return Err(internal("a Reduce operand of another size"));
    }
    out.clear();
    out.extend(std::iter::repeat_n(init, m));
    let call = RowsCall {
        x,
        m,
        n,
        init,
        out: out.as_mut_slice(),
    };
    T::with_op(op, call).ok_or_else(|| internal("a monoid with no native kernel on this type"))?
}

/// The native row kernel with the monoid's element function (`WithOp`).
struct RowsCall<'a, T> {
    x: &'a [T],
    m: usize,
    n: usize,
    init: T,
    out: &'a mut [T],
}

impl<T: Copy + Send + Sync> WithOp<T> for RowsCall<'_, T> {
    type Out = Result<(), KernelError>;
    fn call<F: Fn(T, T) -> T + Sync + Send + Copy + 'static>(self, f: F) -> Self::Out {
        xlet_kernels::reduce::native::rows(self.x, self.m, self.n, self.init, &f, self.out)
    }
}
