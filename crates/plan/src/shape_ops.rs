//! Structural ops in a plan (spec/plan.md §1): Reshape, BroadcastInDim,
//! Transpose, Slice and Concatenate, compiled from their kernels' `Movement`,
//! and Iota, a constant.
//!
//! A register is a row-major buffer, so a movement that keeps the row-major
//! order (a Reshape without `dimensions`, a BroadcastInDim or Transpose that
//! only adds or moves dimensions of size 1, a Slice of everything) is no
//! instruction at all: the result is an alias of the operand's register. That
//! is safe because buffers are assigned over the alias's root: the root stays
//! live while any alias of it is read, and a register is only written as an
//! instruction's result (or updated in place at its root's last read). Any
//! other single-operand movement is a `Strided` copy; every element is moved,
//! never computed, so the result is the kernel's bit for bit.

use crate::compile::{Bound, Builder, Ins, MAX_RANK, Op, SMALL, Source, supported};
use crate::exec::internal;
use xlet_core::error::KernelError;
use xlet_core::types::Type;
use xlet_core::value::Value;
use xlet_ir::movement::Movement;
use xlet_ir::{Comp, EvalCx, Kernel};

/// Row-major strides of `dims`.
pub(crate) fn row_major(dims: &[usize]) -> Vec<usize> {
    let mut acc = 1;
    let mut s: Vec<usize> = dims
        .iter()
        .rev()
        .map(|&d| {
            let here = acc;
            acc *= d;
            here
        })
        .collect();
    s.reverse();
    s
}

impl Builder {
    /// The register `v` stands for once aliases are followed.
    pub fn root(&self, mut v: usize) -> usize {
        while let Some(Source::Alias(r)) = self.vregs.get(v).map(|x| &x.source) {
            v = *r;
        }
        v
    }

    /// Replaces every alias in `code` by its root.
    pub fn resolve(&self, code: &mut [Ins<usize>]) {
        for ins in code {
            for r in &mut ins.ins {
                *r = self.root(*r);
            }
            ins.out = self.root(ins.out);
        }
    }

    /// A structural op on `ins`, with result type `ty`.
    pub(crate) fn movement(
        &mut self,
        code: &mut Vec<Ins<usize>>,
        m: &Movement,
        ins: Vec<usize>,
        ty: &Type,
    ) -> Option<Bound> {
        let out = ty.as_array()?;
        if let Movement::Concatenate { dim } = m {
            return self.concatenate(code, *dim, ins, ty);
        }
        let [src] = ins[..] else { return None };
        let v = self.vregs.get(src)?;
        if v.elem != out.elem {
            return None;
        }
        let (sd, len) = (v.dims.clone(), v.len());
        let rs = row_major(&sd);
        let (dims, offset, strides): (Vec<usize>, usize, Vec<usize>) = match m {
            Movement::Reshape { perm } => {
                // The operand read in `perm` order: its permuted view, whose
                // row-major order is the result's.
                if perm.len() != sd.len() {
                    return None;
                }
                let dims: Option<Vec<usize>> = perm.iter().map(|&p| sd.get(p).copied()).collect();
                let strides: Option<Vec<usize>> =
                    perm.iter().map(|&p| rs.get(p).copied()).collect();
                (dims?, 0, strides?)
            }
            Movement::BroadcastInDim { map } => {
                if sd.is_empty() {
                    return self.broadcast(code, src, ty);
                }
                if map.len() != sd.len() {
                    return None;
                }
                // A result dimension no operand dimension maps to, or one an
                // operand dimension of size 1 maps to, repeats (stride 0).
                let strides = (0..out.dims.len())
                    .map(|d| match map.iter().position(|&m| m == d) {
                        Some(i) if sd[i] != 1 => rs[i],
                        _ => 0,
                    })
                    .collect();
                (out.dims.clone(), 0, strides)
            }
            Movement::Transpose { perm } => {
                if perm.len() != sd.len() {
                    return None;
                }
                let strides: Option<Vec<usize>> =
                    perm.iter().map(|&p| rs.get(p).copied()).collect();
                (out.dims.clone(), 0, strides?)
            }
            Movement::Slice { starts, strides } => {
                if starts.len() != sd.len() || strides.len() != sd.len() {
                    return None;
                }
                let offset = starts.iter().zip(&rs).map(|(s, r)| s * r).sum();
                let strides = strides.iter().zip(&rs).map(|(s, r)| s * r).collect();
                (out.dims.clone(), offset, strides)
            }
            Movement::Concatenate { .. } => return None,
        };
        let n: usize = dims.iter().product();
        if dims.len() != strides.len() || n != out.dims.iter().product::<usize>() {
            return None;
        }
        // Every read inside the operand (the kernel's checker proved it; the
        // plan checks again because its copy trusts it).
        let last: usize = dims
            .iter()
            .zip(&strides)
            .map(|(d, s)| d.saturating_sub(1) * s)
            .sum();
        if n > 0 && offset + last >= len {
            return None;
        }
        let keeps_order = offset == 0
            && n == len
            && dims
                .iter()
                .zip(strides.iter().zip(row_major(&dims)))
                .all(|(&d, (&s, r))| d == 1 || s == r);
        if keeps_order {
            let root = self.root(src);
            return self.new_reg(ty, Source::Alias(root)).map(Bound::One);
        }
        if n > SMALL || dims.len() > MAX_RANK {
            return None;
        }
        let op = Op::Strided {
            dims,
            offset,
            strides,
        };
        self.push(code, op, vec![src], ty)
    }

    fn concatenate(
        &mut self,
        code: &mut Vec<Ins<usize>>,
        dim: usize,
        ins: Vec<usize>,
        ty: &Type,
    ) -> Option<Bound> {
        let out = ty.as_array()?;
        let n: usize = out.dims.iter().product();
        if n > SMALL || dim >= out.dims.len() || ins.is_empty() {
            return None;
        }
        let inner: usize = out.dims[dim + 1..].iter().product();
        let rows: usize = out.dims[..dim].iter().product();
        let mut along = 0;
        let mut blocks = vec![];
        for &r in &ins {
            let v = self.vregs.get(r)?;
            let fits = v.elem == out.elem
                && v.dims.len() == out.dims.len()
                && (0..out.dims.len()).all(|k| k == dim || v.dims[k] == out.dims[k]);
            if !fits {
                return None;
            }
            along += v.dims[dim];
            blocks.push(v.dims[dim] * inner);
        }
        if along != out.dims[dim] {
            return None;
        }
        self.push(code, Op::Concatenate { rows, blocks }, ins, ty)
    }

    /// Iota: a constant, made once by the op's own kernel (it reads no
    /// operand and no state, so every iteration's value is this one).
    pub(crate) fn iota(&mut self, kernel: &dyn Kernel, ty: &Type) -> Option<Bound> {
        let out = ty.as_array()?;
        if out.dims.iter().product::<usize>() > SMALL || !supported(out.elem) {
            return None;
        }
        let Ok(Value::Array(a)) = kernel.run(&[], &NoRun) else {
            return None;
        };
        self.new_reg(ty, Source::Const(a)).map(Bound::One)
    }
}

/// The context Iota's kernel runs in at compile time: it calls nothing.
struct NoRun;

impl EvalCx for NoRun {
    fn call_comp(&self, _: &Comp, _: &[Value]) -> Result<Value, KernelError> {
        Err(internal("a comp called while compiling a plan"))
    }
}
