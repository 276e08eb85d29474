//! A comp made only of elementwise ops, compiled into the fused elementwise
//! engine: its body becomes a list of steps (each an elementwise function with
//! its inputs), and running it on whole arrays sends every chunk of a few
//! thousand elements through all the steps while it is in cache, in parallel
//! over chunks. Per element this is exactly what calling the comp does (the
//! same functions in the same order), so results are bit-identical to the
//! generic path; per call it costs one pass over the arrays instead of one
//! interpreted call per element.

use crate::eval::INTERRUPTED;
use crate::ir::{Comp, Expr, ExprKind, KernelError};
use crate::kernels::GRAIN;
use crate::kernels::fused::{CHUNK, Chunk, ElementwiseFn, LeafFill, Slice, empty_chunk, leaf};
use crate::types::{ElemType, Type};
use crate::value::{Array, Value};
use rayon::prelude::*;
use std::sync::Arc;
use std::sync::atomic::Ordering;

#[derive(Clone, Copy, Debug)]
enum In {
    Param(usize),
    Const(usize),
    Step(usize),
}

struct Step {
    f: Arc<dyn ElementwiseFn>,
    out: ElemType,
    inputs: Vec<In>,
}

/// A compiled elementwise comp (see the module comment).
pub struct Vectorized {
    params: Vec<ElemType>,
    consts: Vec<Array>,
    steps: Vec<Step>,
    results: Vec<(In, ElemType)>,
}

impl std::fmt::Debug for Vectorized {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Vectorized({} params, {} steps)",
            self.params.len(),
            self.steps.len()
        )
    }
}

fn scalar_elem(t: &Type) -> Option<ElemType> {
    t.as_array().filter(|a| a.dims.is_empty()).map(|a| a.elem)
}

struct Builder {
    slots: Vec<Option<In>>,
    consts: Vec<Array>,
    steps: Vec<Step>,
}

impl Builder {
    /// The input that computes `e`, or `None` if `e` is not a scalar elementwise
    /// expression of the comp's parameters and constants.
    fn expr(&mut self, e: &Expr) -> Option<In> {
        match &e.kind {
            ExprKind::Local(s) => *self.slots.get(*s)?,
            ExprKind::Const(Value::Array(a)) if a.dims().is_empty() => {
                self.consts.push(a.clone());
                Some(In::Const(self.consts.len() - 1))
            }
            ExprKind::Op { kernel, args, .. } => {
                let k = kernel.as_elementwise()?;
                if !k.out_dims.is_empty() {
                    return None;
                }
                let inputs = args
                    .iter()
                    .map(|a| self.expr(a))
                    .collect::<Option<Vec<_>>>()?;
                self.steps.push(Step {
                    f: k.f.clone(),
                    out: k.out_elem,
                    inputs,
                });
                Some(In::Step(self.steps.len() - 1))
            }
            // Top-level bindings, calls of other comps and tuples take the generic path.
            _ => None,
        }
    }
}

fn mismatch() -> KernelError {
    KernelError::new(
        "internal",
        "internal error: vectorised computation given arguments of unexpected types",
    )
}

impl Vectorized {
    /// `c` compiled, if its parameters are scalars and its body only elementwise
    /// ops on them and on constants (a tuple result gives one output per item).
    pub fn compile(c: &Comp) -> Option<Vectorized> {
        let params = c
            .params
            .iter()
            .map(|(_, t)| scalar_elem(t))
            .collect::<Option<Vec<_>>>()?;
        let mut b = Builder {
            slots: vec![None; c.slots.max(params.len())],
            consts: vec![],
            steps: vec![],
        };
        for (i, s) in b.slots.iter_mut().take(params.len()).enumerate() {
            *s = Some(In::Param(i));
        }
        for (slot, e) in &c.body {
            let i = b.expr(e)?;
            *b.slots.get_mut(*slot)? = Some(i);
        }
        let results = match &c.result.kind {
            ExprKind::Tuple(items) => items
                .iter()
                .map(|e| Some((b.expr(e)?, scalar_elem(&e.ty)?)))
                .collect::<Option<Vec<_>>>()?,
            _ => vec![(b.expr(&c.result)?, scalar_elem(&c.result.ty)?)],
        };
        Some(Vectorized {
            params,
            consts: b.consts,
            steps: b.steps,
            results,
        })
    }

    /// How many arrays `run` returns.
    pub fn outputs(&self) -> usize {
        self.results.len()
    }

    /// The comp applied to whole arrays: element `i` of result `r` is result `r` of
    /// the comp called on element `i` of every argument. Each argument has the
    /// common shape or is rank 0 (then it stands for every element).
    pub fn run(&self, args: &[Array]) -> Result<Vec<Array>, KernelError> {
        if args.len() != self.params.len() {
            return Err(mismatch());
        }
        let dims: Vec<usize> = args
            .iter()
            .map(Array::dims)
            .find(|d| !d.is_empty())
            .unwrap_or(&[])
            .to_vec();
        for (a, &e) in args.iter().zip(&self.params) {
            if a.elem() != e || !(a.dims().is_empty() || a.dims() == dims.as_slice()) {
                return Err(mismatch());
            }
        }
        let n: usize = dims.iter().product();
        let identity: Vec<usize> = (0..dims.len()).collect();
        let mut leaves: Vec<(Box<dyn LeafFill + '_>, ElemType)> = vec![];
        for a in args.iter().chain(&self.consts) {
            let map: &[usize] = if a.dims().is_empty() { &[] } else { &identity };
            leaves.push((leaf(a, map, &dims)?, a.elem()));
        }
        let what = format!("the result of a computation over {n} elements");
        let mut outs = self
            .results
            .iter()
            .map(|&(_, e)| Chunk::try_with_capacity(e, n, &what))
            .collect::<Result<Vec<_>, _>>()?;
        // Addresses as integers: each worker writes its own range of every output.
        let bases: Vec<(usize, usize)> = outs
            .iter_mut()
            .zip(&self.results)
            .map(|(o, &(_, e))| (o.base_ptr() as usize, e.byte_size()))
            .collect();
        let work = |start: usize, len: usize| -> Result<(), KernelError> {
            let mut leaf_bufs: Vec<Chunk> = leaves.iter().map(|(_, e)| empty_chunk(*e)).collect();
            let mut step_bufs: Vec<Chunk> = self.steps.iter().map(|s| empty_chunk(s.out)).collect();
            let mut at = start;
            while at < start + len {
                if INTERRUPTED.load(Ordering::Relaxed) {
                    return Err(crate::kernels::strided::interrupt_error());
                }
                let m = CHUNK.min(start + len - at);
                let leaf_slices = leaves
                    .iter()
                    .zip(leaf_bufs.iter_mut())
                    .map(|((l, _), buf)| l.get(at, m, buf))
                    .collect::<Result<Vec<Slice>, _>>()?;
                self.run_steps(&leaf_slices, &mut step_bufs)?;
                for (&(input, _), &(base, size)) in self.results.iter().zip(&bases) {
                    let s = self.slice(input, &leaf_slices, &step_bufs)?;
                    let (src, bytes) = s.bytes();
                    if bytes != m * size {
                        return Err(mismatch());
                    }
                    // SAFETY: output r has room for n elements of `size` bytes; this
                    // worker alone writes elements at..at + m of it.
                    unsafe {
                        std::ptr::copy_nonoverlapping(src, (base as *mut u8).add(at * size), bytes)
                    };
                }
                at += m;
            }
            Ok(())
        };
        if n < GRAIN {
            work(0, n)?;
        } else {
            let threads = rayon::current_num_threads().max(1);
            let big = (n / (threads * 8)).max(GRAIN).div_ceil(CHUNK) * CHUNK;
            (0..n.div_ceil(big))
                .into_par_iter()
                .try_for_each(|i| work(i * big, big.min(n - i * big)))?;
        }
        outs.into_iter()
            .map(|mut o| {
                // SAFETY: the workers wrote all n elements (an error returned above otherwise).
                unsafe { o.set_len(n) };
                o.into_array(&dims)
            })
            .collect()
    }

    fn slice<'s>(
        &self,
        i: In,
        leaves: &[Slice<'s>],
        steps: &'s [Chunk],
    ) -> Result<Slice<'s>, KernelError> {
        match i {
            In::Param(p) => leaves.get(p).copied(),
            In::Const(c) => leaves.get(self.params.len() + c).copied(),
            In::Step(s) => steps.get(s).map(Chunk::as_slice),
        }
        .ok_or_else(mismatch)
    }

    fn run_steps(&self, leaves: &[Slice], bufs: &mut [Chunk]) -> Result<(), KernelError> {
        for (j, st) in self.steps.iter().enumerate() {
            // Steps come in dependency order: a step reads leaves and earlier steps.
            let (done, rest) = bufs.split_at_mut(j);
            let out = rest.first_mut().ok_or_else(mismatch)?;
            let ins = st
                .inputs
                .iter()
                .map(|&i| self.slice(i, leaves, done))
                .collect::<Result<Vec<Slice>, _>>()?;
            st.f.run_chunk(&ins, out)?;
        }
        Ok(())
    }
}
