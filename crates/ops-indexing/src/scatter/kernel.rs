//! Scatter's kernel. The result starts as a row-major copy of each operand;
//! then every update element is combined into its target in one fixed order
//! (spec/ops/scatter.md §Order): scatter positions in row-major order of the
//! update scatter index, and within each the window in row-major order. A
//! window that does not fit the operand entirely is skipped, as XLA does.
//!
//! Three paths, all in that order and giving the same bits:
//! - `Monoid`: one operand and a comp that is Add/Mul/Max/Min/And/Or: the
//!   native element function, serially (so the thread count cannot matter);
//! - `Vectorized`: a comp made of elementwise ops: the updates are cut into
//!   rounds, round r holding the r-th update of every target, so that the
//!   targets of a round are distinct; each round is one run of the compiled
//!   comp over whole arrays, and rounds go in order;
//! - `Generic`: the comp called once per update element.

use super::super::common::{contiguous, internal};
use super::super::index_dims::index_values;
pub use super::plan::Plan;
use ndarray::IxDyn;
use std::sync::Arc;
use xlet_core::alloc;
use xlet_core::types::ElemType;
use xlet_core::value::{Array, Elem, Nd, Value};
use xlet_core::with_array;
use xlet_eval::comp::{self, Monoid, Vectorized};
use xlet_ir::{Comp, EvalCx, Kernel, KernelError};
use xlet_kernels::reduce::generic::scalar_at;
use xlet_kernels::reduce::monoid::{NativeMonoid, WithOp};
use xlet_kernels::strided::{interrupt_error, interrupted};

/// How the kernel applies the comp.
#[derive(Debug)]
pub enum Path {
    Monoid(Monoid),
    Vectorized(Vectorized),
    Generic,
}

pub fn choose_path(c: &Comp, elems: &[ElemType]) -> Path {
    if elems.len() == 1
        && let Some(m) = comp::monoid(c)
    {
        return Path::Monoid(m);
    }
    match Vectorized::compile(c) {
        Some(v) if v.inputs() == 2 * elems.len() && v.outputs() == elems.len() => {
            Path::Vectorized(v)
        }
        _ => Path::Generic,
    }
}

pub struct ScatterKernel {
    pub plan: Plan,
    pub comp: Arc<Comp>,
    pub path: Path,
    pub elems: Vec<ElemType>,
}

/// A row-major copy of `a` (the result's storage; admitted by the evaluator).
fn fresh<T: Elem + Copy>(a: &Nd<T>) -> Result<Array, KernelError> {
    let mut v: Vec<T> = alloc::try_output_vec(a.len(), &"the scattered result")?;
    match a.as_slice() {
        Some(s) => v.extend_from_slice(s),
        None => v.extend(a.iter().copied()),
    }
    Nd::from_shape_vec(IxDyn(a.shape()), v)
        .map(T::wrap)
        .map_err(|_| internal("Scatter result size"))
}

fn standard(a: &Array) -> Result<Array, KernelError> {
    fn go<T: Elem>(x: &Nd<T>) -> Result<Array, KernelError> {
        contiguous(x.clone()).map(T::wrap)
    }
    with_array!(a, x => go(x))
}

impl Kernel for ScatterKernel {
    /// Scatter with add: the cotangent, and its gather at the windows applied
    /// (spec/grad.md §4.2).
    fn vjp(&self, cx: &mut xlet_ir::rule::RuleCx) -> Result<(), xlet_ir::rule::NoRule> {
        super::grad::scatter(cx, &self.plan, &self.comp)
    }
    fn computations(&self) -> Vec<Arc<Comp>> {
        vec![self.comp.clone()]
    }
    fn run(&self, args: &[Value], cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let n = self.elems.len();
        let arrays: Vec<&Array> = args
            .iter()
            .map(Value::as_array)
            .collect::<Option<_>>()
            .ok_or_else(|| internal("Scatter got a tuple argument"))?;
        if arrays.len() != 2 * n + 1 {
            return Err(internal("Scatter got the wrong number of arguments"));
        }
        let (ops, rest) = arrays.split_at(n);
        let (ix, ups) = (rest[0], &rest[1..]);
        let shapes_ok = ops.iter().all(|a| a.dims() == self.plan.operand_dims)
            && ups.iter().all(|a| a.dims() == self.plan.update_dims)
            && ix.dims() == self.plan.space.idx_dims;
        if !shapes_ok {
            return Err(internal("Scatter arguments of unexpected shapes"));
        }
        let idx = index_values(ix)?;
        let mut outs: Vec<Array> = ops
            .iter()
            .map(|a| with_array!(*a, x => fresh(x)))
            .collect::<Result<_, _>>()?;
        let ups: Vec<Array> = ups.iter().map(|a| standard(a)).collect::<Result<_, _>>()?;
        match &self.path {
            Path::Monoid(m) => {
                let done =
                    with_array!(&mut outs[0], o => monoid(&self.plan, &idx, *m, o, &ups[0]))?;
                if !done {
                    generic(self, &idx, &mut outs, &ups, cx)?;
                }
            }
            Path::Vectorized(v) => vectorized(&self.plan, &idx, v, &mut outs, &ups)?,
            Path::Generic => generic(self, &idx, &mut outs, &ups, cx)?,
        }
        Ok(super::super::reduction::collate(outs))
    }
}

struct NativeLoop<'a, T> {
    plan: &'a Plan,
    idx: &'a [i64],
    out: &'a mut [T],
    up: &'a [T],
}

impl<T: Copy> WithOp<T> for NativeLoop<'_, T> {
    type Out = Result<(), KernelError>;
    fn call<F: Fn(T, T) -> T + Sync + Send + Copy + 'static>(self, f: F) -> Self::Out {
        let (out, up) = (self.out, self.up);
        self.plan.for_each(self.idx, &mut |t, s| {
            let (Some(o), Some(&u)) = (out.get_mut(t), up.get(s)) else {
                return Err(internal("Scatter offset out of range"));
            };
            *o = f(*o, u);
            Ok(())
        })
    }
}

/// The monoid path; `false` if the monoid has no native function on T.
fn monoid<T: NativeMonoid>(
    plan: &Plan,
    idx: &[i64],
    m: Monoid,
    out: &mut Nd<T>,
    up: &Array,
) -> Result<bool, KernelError> {
    let up = T::unwrap(up)
        .and_then(|u| u.as_slice())
        .ok_or_else(|| internal("Scatter updates layout"))?;
    let out = out
        .as_slice_mut()
        .ok_or_else(|| internal("Scatter result layout"))?;
    match T::with_op(m, NativeLoop { plan, idx, out, up }) {
        Some(r) => r.map(|_| true),
        None => Ok(false),
    }
}

/// Writes scalar `v` at flat offset `at` of the row-major array `a`.
fn set_at(a: &mut Array, at: usize, v: &Value) -> Result<(), KernelError> {
    fn set<T: Elem + Copy>(a: &mut Nd<T>, at: usize, v: &Value) -> Result<(), KernelError> {
        let x = v
            .as_array()
            .and_then(|v| T::unwrap(v))
            .and_then(|v| v.iter().next().copied())
            .ok_or_else(|| internal("the update computation returned another type"))?;
        let slot = a
            .as_slice_mut()
            .and_then(|s| s.get_mut(at))
            .ok_or_else(|| internal("Scatter offset out of range"))?;
        *slot = x;
        Ok(())
    }
    with_array!(a, x => set(x, at, v))
}

fn generic(
    k: &ScatterKernel,
    idx: &[i64],
    outs: &mut [Array],
    ups: &[Array],
    cx: &dyn EvalCx,
) -> Result<(), KernelError> {
    let n = outs.len();
    let mut args: Vec<Value> = Vec::with_capacity(2 * n);
    k.plan.for_each(idx, &mut |t, s| {
        args.clear();
        for o in outs.iter() {
            args.push(scalar_at(o, t)?);
        }
        for u in ups {
            args.push(scalar_at(u, s)?);
        }
        let r = cx.call_comp(&k.comp, &args)?;
        match (&r, n) {
            (Value::Array(_), 1) => set_at(&mut outs[0], t, &r),
            (Value::Tuple(items), _) if items.len() == n => {
                for (o, v) in outs.iter_mut().zip(items.iter()) {
                    set_at(o, t, v)?;
                }
                Ok(())
            }
            _ => Err(internal("the update computation returned the wrong arity")),
        }
    })
}

/// Elements `at` of row-major `a`, as a 1-D array.
fn take(a: &Array, at: &[usize]) -> Result<Array, KernelError> {
    fn go<T: Elem + Copy>(a: &Nd<T>, at: &[usize]) -> Result<Array, KernelError> {
        let s = a.as_slice().ok_or_else(|| internal("Scatter layout"))?;
        if at.iter().any(|&i| i >= s.len()) {
            return Err(internal("Scatter offset out of range"));
        }
        let v: Vec<T> = alloc::try_collect(at.iter().map(|&i| s[i]), &"Scatter's gathered values")?;
        Ok(T::wrap(
            Nd::from_shape_vec(IxDyn(&[v.len()]), v).map_err(|_| internal("size"))?,
        ))
    }
    with_array!(a, x => go(x, at))
}

/// Writes 1-D `v` into row-major `a` at `at`.
fn put(a: &mut Array, at: &[usize], v: &Array) -> Result<(), KernelError> {
    fn go<T: Elem + Copy>(a: &mut Nd<T>, at: &[usize], v: &Array) -> Result<(), KernelError> {
        let v =
            T::unwrap(v).ok_or_else(|| internal("the update computation returned another type"))?;
        let s = a.as_slice_mut().ok_or_else(|| internal("Scatter layout"))?;
        for (&i, &x) in at.iter().zip(v.iter()) {
            *s.get_mut(i)
                .ok_or_else(|| internal("Scatter offset out of range"))? = x;
        }
        Ok(())
    }
    with_array!(a, x => go(x, at, v))
}

fn vectorized(
    plan: &Plan,
    idx: &[i64],
    v: &Vectorized,
    outs: &mut [Array],
    ups: &[Array],
) -> Result<(), KernelError> {
    // (target, source) of every update in order; with the sort's index and the
    // rounds below, 40 bytes per update, admitted as the list grows.
    let mut pairs: Vec<(usize, usize)> = vec![];
    plan.for_each(idx, &mut |t, s| {
        if pairs.len() == pairs.capacity() {
            let more = pairs.capacity().max(1024);
            alloc::admit(more.saturating_mul(40), &"Scatter's update list")?;
            pairs.try_reserve_exact(more).map_err(|_| {
                KernelError::new(
                    "memory",
                    "the system refused memory for Scatter's update list",
                )
            })?;
        }
        pairs.push((t, s));
        Ok(())
    })?;
    // Round of each update: how many earlier updates (in order) share its target.
    let mut order: Vec<usize> = alloc::try_collect(0..pairs.len(), &"Scatter's update order")?;
    order.sort_unstable_by_key(|&i| (pairs[i].0, i));
    let mut round: Vec<u32> = alloc::try_filled(pairs.len(), 0, &"Scatter's update rounds")?;
    for w in 1..order.len() {
        let (a, b) = (order[w - 1], order[w]);
        if pairs[a].0 == pairs[b].0 {
            round[b] = round[a] + 1;
        }
    }
    let rounds = round.iter().max().map_or(0, |&r| r as usize + 1);
    let mut by_round: Vec<Vec<usize>> = alloc::try_filled(rounds, vec![], &"Scatter's rounds")?;
    for (i, &r) in round.iter().enumerate() {
        by_round[r as usize].push(i);
    }
    for members in by_round {
        if interrupted() {
            return Err(interrupt_error());
        }
        let targets: Vec<usize> =
            alloc::try_collect(members.iter().map(|&i| pairs[i].0), &"Scatter's targets")?;
        let sources: Vec<usize> =
            alloc::try_collect(members.iter().map(|&i| pairs[i].1), &"Scatter's sources")?;
        let mut args = vec![];
        for o in outs.iter() {
            args.push(take(o, &targets)?);
        }
        for u in ups {
            args.push(take(u, &sources)?);
        }
        let res = v.run(&args)?;
        for (o, r) in outs.iter_mut().zip(&res) {
            put(o, &targets, r)?;
        }
    }
    Ok(())
}
