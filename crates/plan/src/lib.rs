//! Execution plans (spec/plan.md): a While loop's condition and body compiled
//! once, when the program is checked, into straight-line code for a register
//! machine. Kernels are resolved and operands numbered at compile time;
//! buffers are assigned by liveness and made once when the loop starts, so an
//! iteration allocates nothing; scalar arithmetic and integer compares are
//! typed instructions; the loop state is updated in place (DynamicUpdateSlice
//! writes into the state's own buffer, a new state leaf swaps buffers with the
//! old). A loop with any op outside the subset has no plan and runs in the
//! evaluator, which stays the reference: `RunConfig::plan` (`--no-plan`) turns
//! plans off, and the conformance suite runs both ways.

mod assign;
mod compile;
mod exec;
mod reduce;
mod scalar;
mod shape_ops;
#[cfg(test)]
mod tests;

use assign::{Assigner, Init, Reg};
use compile::{Bound, Builder, Ins};
use std::sync::Arc;
use xlet_core::alloc;
use xlet_core::error::KernelError;
use xlet_core::types::{ArrayType, Type};
use xlet_core::value::{Array, Nd, Value};
use xlet_ir::{Comp, EvalCx};
use xlet_kernels::fused::{Chunk, ChunkElem};

/// A While loop compiled into a register machine (see the crate comment).
pub struct LoopPlan {
    /// The loop state's type and its leaves (depth first).
    state: Type,
    leaves: Vec<ArrayType>,
    regs: Vec<Reg>,
    /// The register of each state leaf.
    state_regs: Vec<usize>,
    cond: Vec<Ins<usize>>,
    /// Where the condition leaves its verdict.
    verdict: usize,
    body: Vec<Ins<usize>>,
    end: End,
    /// The condition and body as scalar instructions on a word file, when
    /// every register is a scalar (`scalar`, the fastest tier).
    scalar: Option<(Vec<scalar::ScalarIns>, Vec<scalar::ScalarIns>)>,
}

/// How the body's results become the next state.
enum End {
    /// Each pair swaps buffers: the state leaf takes the result's buffer (made
    /// this iteration), the result register the old state's, to be refilled.
    /// A leaf the body updated in place or passed through is not listed.
    Swap(Vec<(usize, usize)>),
    /// The results are copied, then placed (a leaf passed to another leaf's
    /// place, a constant as a leaf, one value in two leaves).
    Copy(Vec<usize>),
}

impl std::fmt::Debug for LoopPlan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "LoopPlan({} registers, {} + {} instructions)",
            self.regs.len(),
            self.cond.len(),
            self.body.len()
        )
    }
}

/// The error a loop past `--max-steps` stops with (the evaluator's While says the same).
pub fn steps_error(max: u64) -> KernelError {
    KernelError::new(
        "steps",
        format!("While ran more than {max} iterations (the limit set by --max-steps)"),
    )
}

thread_local! {
    static RUNS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many loops this thread has run through a plan (tests check that a
/// loop they compare did take the plan).
#[doc(hidden)]
pub fn runs_on_this_thread() -> u64 {
    RUNS.with(|r| r.get())
}

/// The values of the top-level names a plan reads, fetched when the loop starts.
pub struct Globals(Vec<Option<Array>>);

impl LoopPlan {
    /// The plan of `While(cond, body, init)` with `init` of type `state`, if
    /// every op of both comps (and the comps they call) is in the subset.
    pub fn compile(cond: &Arc<Comp>, body: &Arc<Comp>, state: &Type) -> Option<LoopPlan> {
        let mut b = Builder::default();
        let st = b.state(state)?;
        let mut cond_code = vec![];
        let Bound::One(verdict) = b.comp(cond, vec![st.clone()], &mut cond_code)? else {
            return None;
        };
        let mut body_code = vec![];
        let result = b.comp(body, vec![st.clone()], &mut body_code)?;
        let (mut results, mut state_v) = (vec![], vec![]);
        result.flatten(&mut results);
        // Aliases (movements that keep the row-major order) become their roots.
        let verdict = b.root(verdict);
        b.resolve(&mut cond_code);
        b.resolve(&mut body_code);
        let results: Vec<usize> = results.iter().map(|&v| b.root(v)).collect();
        st.flatten(&mut state_v);
        if results.len() != state_v.len() {
            return None;
        }
        let vregs = &b.vregs;
        let mut a = Assigner::new(vregs);
        let cond = a.code(vregs, &cond_code, &[verdict], false)?;
        let verdict = a.of(vregs, verdict)?;
        a.release_all();
        let body = a.code(vregs, &body_code, &results, true)?;
        let res_p = results
            .iter()
            .map(|&v| a.of(vregs, v))
            .collect::<Option<Vec<_>>>()?;
        let state_regs = state_v
            .iter()
            .map(|&v| a.phys(v))
            .collect::<Option<Vec<_>>>()?;
        let regs = a.regs;
        let swappable = |j: usize, r: usize| {
            r == state_regs[j]
                || (matches!(regs.get(r).map(|g| &g.init), Some(Init::Scratch { .. }))
                    && res_p.iter().filter(|&&x| x == r).count() == 1)
        };
        let end = if res_p.iter().enumerate().all(|(j, &r)| swappable(j, r)) {
            End::Swap(
                res_p
                    .iter()
                    .zip(&state_regs)
                    .filter(|(r, s)| r != s)
                    .map(|(&r, &s)| (s, r))
                    .collect(),
            )
        } else {
            End::Copy(res_p)
        };
        let leaves = state_v
            .iter()
            .map(|&v| {
                let r = &vregs[v];
                ArrayType::new(r.elem, r.dims.clone())
            })
            .collect();
        let is_scalar: Vec<(xlet_core::types::ElemType, bool)> = regs
            .iter()
            .map(|r| {
                let scalar = match &r.init {
                    Init::Scratch { capacity } => *capacity <= 1 && r.dims.is_empty(),
                    Init::Const(a) => a.dims().is_empty(),
                    Init::State(_) | Init::Global { .. } => r.dims.is_empty(),
                };
                (r.elem, scalar)
            })
            .collect();
        let all_scalar = is_scalar.iter().all(|&(_, s)| s) && matches!(end, End::Swap(_));
        let scalar = match all_scalar {
            true => scalar::lower(&cond, &is_scalar).zip(scalar::lower(&body, &is_scalar)),
            false => None,
        };
        Some(LoopPlan {
            scalar,
            state: state.clone(),
            leaves,
            regs,
            state_regs,
            cond,
            verdict,
            body,
            end,
        })
    }

    /// The top-level values the plan reads, as its comps see them; `None` if
    /// one is missing (the evaluator then runs the loop and reports it).
    pub fn globals(&self, cx: &dyn EvalCx) -> Option<Globals> {
        let mut out = Vec::with_capacity(self.regs.len());
        for r in &self.regs {
            out.push(match &r.init {
                Init::Global { comp, name, leaf } => {
                    let v = cx.global(comp, name)?;
                    let mut leaves = vec![];
                    compile::flatten(&v, &mut leaves);
                    Some(leaves.into_iter().nth(*leaf)?)
                }
                _ => None,
            });
        }
        Some(Globals(out))
    }

    /// Runs the loop from `init` as the evaluator's While does: the condition
    /// first, each iteration counted against `--max-steps` (the same error),
    /// Ctrl-C polled every iteration.
    pub fn run(
        &self,
        globals: Globals,
        init: Value,
        cx: &dyn EvalCx,
    ) -> Result<Value, KernelError> {
        RUNS.with(|r| r.set(r.get() + 1));
        let mut leaves = vec![];
        flatten_owned(init, &mut leaves);
        let mut leaves: Vec<Option<Array>> = leaves.into_iter().map(Some).collect();
        let mut file = Vec::with_capacity(self.regs.len());
        for (r, g) in self.regs.iter().zip(globals.0) {
            let what = Type::Array(ArrayType::new(r.elem, r.dims.clone()));
            file.push(match &r.init {
                Init::State(j) => {
                    let a = leaves.get_mut(*j).and_then(Option::take);
                    owned(a.ok_or_else(|| exec::internal("state"))?, &what)?
                }
                Init::Const(a) => copied(a, &what)?,
                Init::Global { .. } => copied(&g.ok_or_else(|| exec::internal("global"))?, &what)?,
                Init::Scratch { capacity } => Chunk::try_with_capacity(r.elem, *capacity, &what)?,
            });
        }
        if let (Some((c, b)), End::Swap(pairs)) = (&self.scalar, &self.end) {
            self.run_words(c, b, pairs, &mut file, cx.max_steps())?;
            return self.finish(file);
        }
        let max = cx.max_steps();
        let mut steps: u64 = 0;
        loop {
            if xlet_core::config::interrupted() {
                return Err(xlet_kernels::strided::interrupt_error());
            }
            exec::run(&self.cond, &mut file)?;
            let go = match file.get(self.verdict) {
                Some(Chunk::Pred(v)) => v.first().copied(),
                _ => None,
            };
            if !go.ok_or_else(|| exec::internal("verdict"))? {
                break;
            }
            steps += 1;
            if steps > max {
                return Err(steps_error(max));
            }
            exec::run(&self.body, &mut file)?;
            match &self.end {
                End::Swap(pairs) => {
                    for &(s, r) in pairs {
                        file.swap(s, r);
                    }
                }
                End::Copy(res) => {
                    let mut next = Vec::with_capacity(res.len());
                    for &r in res {
                        let c = file.get(r).ok_or_else(|| exec::internal("result"))?;
                        next.push(copied_chunk(c)?);
                    }
                    for (&s, c) in self.state_regs.iter().zip(next) {
                        file[s] = c;
                    }
                }
            }
        }
        self.finish(file)
    }

    /// The loop on the scalar tier: the registers' values as words, the state
    /// written back into its registers at the end.
    fn run_words(
        &self,
        cond: &[scalar::ScalarIns],
        body: &[scalar::ScalarIns],
        pairs: &[(usize, usize)],
        file: &mut [Chunk],
        max: u64,
    ) -> Result<(), KernelError> {
        let mut words = file
            .iter()
            .map(scalar::word_of)
            .collect::<Option<Vec<u64>>>()
            .ok_or_else(|| exec::internal("scalar registers"))?;
        let words_loop = scalar::WordLoop {
            cond,
            body,
            verdict: self.verdict,
            pairs,
        };
        match words_loop.run(&mut words, max)? {
            Ok(()) => {}
            Err(scalar::Stop::Interrupted) => return Err(xlet_kernels::strided::interrupt_error()),
            Err(scalar::Stop::Steps) => return Err(steps_error(max)),
        }
        for &s in &self.state_regs {
            let (Some(c), Some(&w)) = (file.get_mut(s), words.get(s)) else {
                return Err(exec::internal("state"));
            };
            scalar::set_word(c, w).ok_or_else(|| exec::internal("state"))?;
        }
        Ok(())
    }

    /// The state's registers as the loop's value.
    fn finish(&self, mut file: Vec<Chunk>) -> Result<Value, KernelError> {
        let mut arrays = Vec::with_capacity(self.leaves.len());
        for (&s, t) in self.state_regs.iter().zip(&self.leaves) {
            let c = std::mem::replace(&mut file[s], Chunk::Pred(Vec::new()));
            arrays.push(c.into_array(&t.dims)?);
        }
        let mut it = arrays.into_iter();
        rebuild(&self.state, &mut it).ok_or_else(|| exec::internal("state"))
    }
}

/// The leaves of `v`, each left with no other holder when `v` had none.
fn flatten_owned(v: Value, out: &mut Vec<Array>) {
    match v {
        Value::Array(a) => out.push(a),
        Value::Tuple(items) => {
            let leaves = items.to_vec();
            drop(items);
            leaves.into_iter().for_each(|i| flatten_owned(i, out));
        }
    }
}

fn rebuild(ty: &Type, it: &mut impl Iterator<Item = Array>) -> Option<Value> {
    match ty {
        Type::Array(_) => it.next().map(Value::Array),
        Type::Tuple(items) => Some(Value::tuple(
            items
                .iter()
                .map(|t| rebuild(t, it))
                .collect::<Option<Vec<_>>>()?,
        )),
    }
}

/// A register holding a copy of `a`'s elements (row-major), under the budget.
fn copied(a: &Array, what: &dyn std::fmt::Display) -> Result<Chunk, KernelError> {
    if let Array::Small(..) = a {
        return Err(exec::internal("a small type"));
    }
    xlet_core::with_array!(a, x => {
        let mut v = alloc::try_output_vec(x.len(), what)?;
        match x.as_slice() {
            Some(s) => v.extend_from_slice(s),
            None => v.extend(x.iter().cloned()),
        }
        Ok(ChunkElem::wrap_chunk(v))
    })
}

fn copied_chunk(c: &Chunk) -> Result<Chunk, KernelError> {
    let s = c.as_slice();
    let elem = elem_of(c);
    let mut fresh = Chunk::try_with_capacity(elem, s.len(), &elem)?;
    fresh.set_from(s);
    Ok(fresh)
}

fn elem_of(c: &Chunk) -> xlet_core::types::ElemType {
    use xlet_core::types::ElemType as E;
    match c {
        Chunk::Pred(_) => E::Pred,
        Chunk::S8(_) => E::S8,
        Chunk::S16(_) => E::S16,
        Chunk::S32(_) => E::S32,
        Chunk::S64(_) => E::S64,
        Chunk::U8(_) => E::U8,
        Chunk::U16(_) => E::U16,
        Chunk::U32(_) => E::U32,
        Chunk::U64(_) => E::U64,
        Chunk::F16(_) => E::F16,
        Chunk::BF16(_) => E::BF16,
        Chunk::F32(_) => E::F32,
        Chunk::F64(_) => E::F64,
        Chunk::C64(_) => E::C64,
        Chunk::C128(_) => E::C128,
    }
}

/// A state leaf as a register: its own buffer when nothing else holds it (the
/// usual case: While hands its state over), else a copy under the budget.
fn owned(a: Array, what: &dyn std::fmt::Display) -> Result<Chunk, KernelError> {
    macro_rules! arms {
        ($($v:ident),*) => {
            match a {
                $(Array::$v(x) => Chunk::$v(vec_of(x, what)?),)*
                Array::Small(..) => return Err(exec::internal("a small type")),
            }
        };
    }
    Ok(arms!(
        Pred, S8, S16, S32, S64, U8, U16, U32, U64, F16, BF16, F32, F64, C64, C128
    ))
}

fn vec_of<T: Clone>(x: Nd<T>, what: &dyn std::fmt::Display) -> Result<Vec<T>, KernelError> {
    let n = x.len();
    if x.is_unique() && x.is_standard_layout() {
        // Unique: `into_owned` takes the buffer without copying.
        let (v, off) = x.into_owned().into_raw_vec_and_offset();
        let off = off.unwrap_or(0);
        if off == 0 && v.len() == n {
            return Ok(v);
        }
        // A view into a larger buffer: its elements are contiguous from `off`.
        let part = v
            .get(off..off + n)
            .ok_or_else(|| exec::internal("array layout"))?;
        let mut out = alloc::try_output_vec(n, what)?;
        out.extend_from_slice(part);
        return Ok(out);
    }
    let mut out = alloc::try_output_vec(n, what)?;
    match x.as_slice() {
        Some(s) => out.extend_from_slice(s),
        None => out.extend(x.iter().cloned()),
    }
    Ok(out)
}
