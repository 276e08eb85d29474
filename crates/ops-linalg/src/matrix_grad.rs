//! Text for the gradient rules of Cholesky and TriangularSolve (spec/grad.md
//! §4.9): batched matrices are the last two dimensions of a rank-`r` array,
//! the others batch dimensions, so each helper writes its op with those.

use xlet_core::types::ArrayType;
use xlet_ir::rule::{brace, scalar};

/// The matrix dimensions' shape facts of one operand type.
pub(crate) struct Batched {
    pub rank: usize,
    pub ty: ArrayType,
}

impl Batched {
    pub fn new(ty: &ArrayType) -> Batched {
        Batched {
            rank: ty.rank(),
            ty: ty.clone(),
        }
    }

    fn batch(&self) -> Vec<usize> {
        (0..self.rank.saturating_sub(2)).collect()
    }

    /// Each matrix transposed (not conjugated).
    pub fn transpose(&self, x: &str) -> String {
        let mut perm = self.batch();
        perm.extend([self.rank - 1, self.rank - 2]);
        format!("Transpose({x}, {})", brace(&perm))
    }

    /// Each matrix conjugated (a float one is itself).
    pub fn conj(&self, x: &str) -> String {
        if self.ty.elem.is_complex() {
            format!("Complex(Real({x}), Neg(Imag({x})))")
        } else {
            x.to_string()
        }
    }

    /// The batched product `op(a) · op(b)`, `op` transposing where asked.
    pub fn matmul(&self, a: &str, ta: bool, b: &str, tb: bool) -> String {
        let (r1, r2) = (self.rank - 1, self.rank - 2);
        let mut text = format!(
            "DotGeneral({a}, {b}, lhs_contracting_dimensions={{{}}}, rhs_contracting_dimensions={{{}}}",
            if ta { r2 } else { r1 },
            if tb { r1 } else { r2 }
        );
        if self.rank > 2 {
            let batch = brace(&self.batch());
            text.push_str(&format!(
                ", lhs_batch_dimensions={batch}, rhs_batch_dimensions={batch}"
            ));
        }
        text.push(')');
        text
    }

    /// A matrix of weights by position, spread over the batch: `below` where
    /// row > column, `diag` on the diagonal, `above` where row < column.
    pub fn by_triangle(&self, n: usize, below: f64, diag: f64, above: f64) -> String {
        let e = self.ty.elem;
        let fill = |v: f64| format!("Broadcast({}, {{{n}, {n}}})", scalar(e, v));
        let row = format!("Iota(s32[{n}x{n}], 0)");
        let col = format!("Iota(s32[{n}x{n}], 1)");
        let m = format!(
            "Select(Gt({row}, {col}), {}, Select(Eq({row}, {col}), {}, {}))",
            fill(below),
            fill(diag),
            fill(above)
        );
        format!(
            "BroadcastInDim({m}, {}, {{{}, {}}})",
            brace(&self.ty.dims),
            self.rank - 2,
            self.rank - 1
        )
    }
}

impl Batched {
    /// `x` where the triangle a solve or a factorisation reads lies (below
    /// the diagonal for `lower`, above otherwise, the diagonal too unless
    /// `strict`), zero elsewhere: the elements it never reads get no
    /// cotangent. A `Select`, so that an infinite `x` there gives 0 too.
    pub fn keep_triangle(&self, x: &str, lower: bool, strict: bool) -> String {
        let n = self.ty.dims.last().copied().unwrap_or(0);
        let cmp = match (lower, strict) {
            (true, true) => "Gt",
            (true, false) => "Ge",
            (false, true) => "Lt",
            (false, false) => "Le",
        };
        let mask = format!(
            "BroadcastInDim({cmp}(Iota(s32[{n}x{n}], 0), Iota(s32[{n}x{n}], 1)), {}, {{{}, {}}})",
            brace(&self.ty.dims),
            self.rank - 2,
            self.rank - 1
        );
        let zeros = format!(
            "Broadcast({}, {})",
            scalar(self.ty.elem, 0.0),
            brace(&self.ty.dims)
        );
        format!("Select({mask}, {x}, {zeros})")
    }
}
