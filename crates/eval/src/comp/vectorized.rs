//! A comp made only of elementwise ops, compiled into the fused elementwise
//! engine: its body becomes a list of steps (each an elementwise function with
//! its inputs), and running it on whole arrays sends every chunk of a few
//! thousand elements through all the steps while it is in cache, in parallel
//! over chunks. Per element this is exactly what calling the comp does (the
//! same functions in the same order), so results are bit-identical to the
//! generic path; per call it costs one pass over the arrays instead of one
//! interpreted call per element.

use rayon::prelude::*;
use std::sync::Arc;
use xlet_core::types::{ElemType, Type};
use xlet_core::value::{Array, Value};
use xlet_ir::{Comp, Expr, ExprKind, KernelError};
use xlet_kernels::GRAIN;
use xlet_kernels::fused::{CHUNK, Chunk, ElementwiseFn, LeafFill, Slice, empty_chunk, leaf};

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

/// The scalar leaves of `t` in depth-first order, if every leaf is a scalar.
pub fn flat_scalars(t: &Type, out: &mut Vec<ElemType>) -> Option<()> {
    match t {
        Type::Array(_) => out.push(scalar_elem(t)?),
        Type::Tuple(items) => {
            for i in items {
                flat_scalars(i, out)?;
            }
        }
    }
    Some(())
}

/// What a name of the comp's body stands for: one scalar input, or a tuple of them
/// (tuples are followed statically: GetTupleElement picks an item).
#[derive(Clone, Debug)]
enum Bound {
    One(In),
    Tuple(Vec<Bound>),
}

impl Bound {
    /// Parameter leaves `next..` for a value of type `t`.
    fn params(t: &Type, next: &mut usize) -> Bound {
        match t {
            Type::Array(_) => {
                *next += 1;
                Bound::One(In::Param(*next - 1))
            }
            Type::Tuple(items) => {
                Bound::Tuple(items.iter().map(|i| Bound::params(i, next)).collect())
            }
        }
    }
    fn flatten(&self, out: &mut Vec<In>) {
        match self {
            Bound::One(i) => out.push(*i),
            Bound::Tuple(items) => items.iter().for_each(|b| b.flatten(out)),
        }
    }
}

struct Builder {
    slots: Vec<Option<Bound>>,
    consts: Vec<Array>,
    steps: Vec<Step>,
    /// How many calls deep `expr` is (calls are compiled in place).
    depth: usize,
}

/// Calls nested deeper than this (or steps beyond `MAX_STEPS`) leave the comp
/// to the generic path.
const MAX_CALL_DEPTH: usize = 64;
const MAX_STEPS: usize = 1 << 16;

impl Builder {
    /// What computes `e`, or `None` if `e` is not made of elementwise ops on
    /// scalars (and tuples of them) of the comp's parameters and constants.
    fn expr(&mut self, e: &Expr) -> Option<Bound> {
        match &e.kind {
            ExprKind::Local(s) => self.slots.get(*s)?.clone(),
            ExprKind::Const(Value::Array(a)) if a.dims().is_empty() => {
                self.consts.push(a.clone());
                Some(Bound::One(In::Const(self.consts.len() - 1)))
            }
            ExprKind::Tuple(items) => Some(Bound::Tuple(
                items.iter().map(|i| self.expr(i)).collect::<Option<_>>()?,
            )),
            ExprKind::Op { kernel, args, .. } => {
                if let Some(k) = kernel.tuple_index() {
                    return match self.expr(args.first()?)? {
                        Bound::Tuple(items) => items.get(k).cloned(),
                        Bound::One(_) => None,
                    };
                }
                if let Some(c) = kernel.called_comp() {
                    return self.call(c, args);
                }
                let k = kernel.as_elementwise()?;
                if !k.out_dims.is_empty()
                    || args.len() > MAX_INPUTS
                    || self.steps.len() >= MAX_STEPS
                {
                    return None;
                }
                let inputs = args
                    .iter()
                    .map(|a| match self.expr(a)? {
                        Bound::One(i) => Some(i),
                        Bound::Tuple(_) => None,
                    })
                    .collect::<Option<Vec<_>>>()?;
                self.steps.push(Step {
                    f: k.f.clone(),
                    out: k.out_elem,
                    inputs,
                });
                Some(Bound::One(In::Step(self.steps.len() - 1)))
            }
            ExprKind::CallComp { comp, args } => self.call(comp, args),
            // Top-level bindings take the generic path.
            _ => None,
        }
    }
}

impl Builder {
    /// A call of `c` compiled in place: its parameters bound to the arguments'
    /// inputs (a gradient's Map calls the generated vjp comp of its computation).
    fn call(&mut self, c: &Comp, args: &[Expr]) -> Option<Bound> {
        if self.depth >= MAX_CALL_DEPTH {
            return None;
        }
        let bound = args
            .iter()
            .map(|a| self.expr(a))
            .collect::<Option<Vec<_>>>()?;
        let mut slots = vec![None; c.slots.max(c.params.len())];
        for (s, b) in slots.iter_mut().zip(bound) {
            *s = Some(b);
        }
        let outer = std::mem::replace(&mut self.slots, slots);
        self.depth += 1;
        let r = (|| {
            for (slot, e) in &c.body {
                let v = self.expr(e)?;
                *self.slots.get_mut(*slot)? = Some(v);
            }
            self.expr(&c.result)
        })();
        self.depth -= 1;
        self.slots = outer;
        r
    }
}

/// Elementwise ops have at most this many operands (Select, Clamp: three).
const MAX_INPUTS: usize = 4;

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
        let mut params = vec![];
        for (_, t) in &c.params {
            flat_scalars(t, &mut params)?;
        }
        // The small types compute through their wider types op by op
        // (spec/small_types.md §5), which the fused engine does not do.
        if params.iter().any(|e| e.small().is_some()) || xlet_core::value::small::has_small(&c.ret)
        {
            return None;
        }
        let mut b = Builder {
            slots: vec![None; c.slots.max(c.params.len())],
            consts: vec![],
            steps: vec![],
            depth: 0,
        };
        let mut next = 0;
        for (s, (_, t)) in b.slots.iter_mut().zip(&c.params) {
            *s = Some(Bound::params(t, &mut next));
        }
        for (slot, e) in &c.body {
            let v = b.expr(e)?;
            *b.slots.get_mut(*slot)? = Some(v);
        }
        let mut ins = vec![];
        b.expr(&c.result)?.flatten(&mut ins);
        let mut elems = vec![];
        flat_scalars(&c.ret, &mut elems)?;
        if ins.len() != elems.len() {
            return None;
        }
        Some(Vectorized {
            params,
            consts: b.consts,
            steps: b.steps,
            results: ins.into_iter().zip(elems).collect(),
        })
    }

    /// How many arrays `run` takes: one per scalar leaf of the parameters, in order.
    pub fn inputs(&self) -> usize {
        self.params.len()
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
                if xlet_core::config::interrupted() {
                    return Err(xlet_kernels::strided::interrupt_error());
                }
                let m = CHUNK.min(start + len - at);
                let leaf_slices = leaves
                    .iter()
                    .zip(leaf_bufs.iter_mut())
                    .map(|((l, _), buf)| l.get(at, m, buf))
                    .collect::<Result<Vec<Slice>, _>>()?;
                let (ps, cs) = leaf_slices.split_at(self.params.len());
                self.run_steps(ps, cs, &mut step_bufs)?;
                for (&(input, _), &(base, size)) in self.results.iter().zip(&bases) {
                    let s = self.slice(input, ps, cs, &step_bufs)?;
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
        params: &[Slice<'s>],
        consts: &[Slice<'s>],
        steps: &'s [Chunk],
    ) -> Result<Slice<'s>, KernelError> {
        match i {
            In::Param(p) => params.get(p).copied(),
            In::Const(c) => consts.get(c).copied(),
            In::Step(s) => steps.get(s).map(Chunk::as_slice),
        }
        .ok_or_else(mismatch)
    }

    fn run_steps(
        &self,
        params: &[Slice],
        consts: &[Slice],
        bufs: &mut [Chunk],
    ) -> Result<(), KernelError> {
        for (j, st) in self.steps.iter().enumerate() {
            // Steps come in dependency order: a step reads leaves and earlier steps.
            let (done, rest) = bufs.split_at_mut(j);
            let out = rest.first_mut().ok_or_else(mismatch)?;
            // A fixed buffer, not a Vec: this runs once per step of every loop iteration.
            let mut ins = [Slice::Pred(&[]); MAX_INPUTS];
            let n = st.inputs.len();
            for (k, &i) in st.inputs.iter().enumerate() {
                *ins.get_mut(k).ok_or_else(mismatch)? = self.slice(i, params, consts, done)?;
            }
            st.f.run_chunk(&ins[..n], out)?;
        }
        Ok(())
    }

    /// Buffers for `run_one`, made once per loop.
    pub fn scratch(&self) -> Result<OneScratch, KernelError> {
        let consts = self
            .consts
            .iter()
            .map(Chunk::from_scalar)
            .collect::<Option<Vec<_>>>()
            .ok_or_else(mismatch)?;
        Ok(OneScratch {
            consts,
            steps: self.steps.iter().map(|s| empty_chunk(s.out)).collect(),
        })
    }

    /// The comp on one element per input (`params`, each of length 1): result `r`
    /// replaces the contents of `out[r]`. No allocation once the buffers have
    /// grown: While runs a loop of scalars through this.
    pub fn run_one(
        &self,
        params: &[Slice],
        scratch: &mut OneScratch,
        out: &mut [Chunk],
    ) -> Result<(), KernelError> {
        let OneScratch { consts, steps } = scratch;
        let mut fixed = [Slice::Pred(&[]); 8];
        let heap: Vec<Slice>;
        let const_slices: &[Slice] = if consts.len() <= fixed.len() {
            for (d, c) in fixed.iter_mut().zip(consts.iter()) {
                *d = c.as_slice();
            }
            &fixed[..consts.len()]
        } else {
            heap = consts.iter().map(Chunk::as_slice).collect();
            &heap
        };
        self.run_steps(params, const_slices, steps)?;
        for (o, &(i, _)) in out.iter_mut().zip(&self.results) {
            let s = self.slice(i, params, const_slices, steps)?;
            if !o.set_from(s) {
                return Err(mismatch());
            }
        }
        Ok(())
    }
}

/// Buffers of `Vectorized::run_one`: the constants as one-element chunks, and
/// one chunk per step.
pub struct OneScratch {
    consts: Vec<Chunk>,
    steps: Vec<Chunk>,
}
