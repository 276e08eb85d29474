//! Buffer assignment: virtual registers onto physical ones by liveness (the
//! model is XLA's buffer assignment). Each physical register is one buffer,
//! made when the loop starts and reused every iteration: a temporary's buffer
//! goes back to the pool after its last read, and the next result of its
//! element type takes it. A DynamicUpdateSlice whose operand is read for the
//! last time writes into the operand's own buffer, the loop state's included.

use crate::compile::{Ins, Op, Source, VReg};
use xlet_core::types::ElemType;

/// What a physical register holds when the loop starts.
#[derive(Clone)]
pub enum Init {
    State(usize),
    Const(xlet_core::value::Array),
    Global {
        comp: std::sync::Arc<xlet_ir::Comp>,
        name: String,
        leaf: usize,
    },
    /// Written before it is read, every iteration; `capacity` elements.
    Scratch {
        capacity: usize,
    },
}

#[derive(Clone)]
pub struct Reg {
    pub elem: ElemType,
    pub dims: Vec<usize>,
    pub init: Init,
}

/// The register file being assigned, shared by the condition and the body.
pub struct Assigner {
    pub regs: Vec<Reg>,
    /// Physical register of each virtual one, once assigned.
    map: Vec<Option<usize>>,
    /// Free scratch registers.
    pool: Vec<usize>,
}

impl Assigner {
    pub fn new(vregs: &[VReg]) -> Assigner {
        let mut a = Assigner {
            regs: vec![],
            map: vec![None; vregs.len()],
            pool: vec![],
        };
        // The state first, one register per leaf, in leaf order.
        let mut state: Vec<(usize, usize)> = vregs
            .iter()
            .enumerate()
            .filter_map(|(v, r)| match r.source {
                Source::State(j) => Some((j, v)),
                _ => None,
            })
            .collect();
        state.sort();
        for (j, v) in state {
            a.map[v] = Some(a.add(&vregs[v], Init::State(j)));
        }
        a
    }

    fn add(&mut self, v: &VReg, init: Init) -> usize {
        self.regs.push(Reg {
            elem: v.elem,
            dims: v.dims.clone(),
            init,
        });
        self.regs.len() - 1
    }

    /// The physical register of `v`, giving constants and globals theirs on
    /// first sight.
    pub fn of(&mut self, vregs: &[VReg], v: usize) -> Option<usize> {
        if let Some(p) = *self.map.get(v)? {
            return Some(p);
        }
        let r = vregs.get(v)?;
        let init = match &r.source {
            Source::Const(a) => Init::Const(a.clone()),
            Source::Global { comp, name, leaf } => Init::Global {
                comp: comp.clone(),
                name: name.clone(),
                leaf: *leaf,
            },
            // Assigned before use; aliases were resolved to their roots.
            Source::State(_) | Source::Temp | Source::Alias(_) => return None,
        };
        let p = self.add(r, init);
        self.map[v] = Some(p);
        Some(p)
    }

    /// Assigns `code`'s registers; `results` stay live to the end. With
    /// `update_state`, the loop state's buffers may be updated in place (the
    /// body; the condition must leave the state as it is).
    pub fn code(
        &mut self,
        vregs: &[VReg],
        code: &[Ins<usize>],
        results: &[usize],
        update_state: bool,
    ) -> Option<Vec<Ins<usize>>> {
        // Leaf j of the next state is results[j]; with `update_state` it may be
        // computed straight into the state's buffer when the old leaf is read
        // no later (or only by this very instruction, if that reads its
        // operands before writing: a typed scalar one).
        let state_of_leaf: Vec<Option<usize>> = results
            .iter()
            .enumerate()
            .map(|(j, _)| {
                vregs
                    .iter()
                    .position(|r| matches!(r.source, Source::State(k) if k == j))
            })
            .collect();
        let mut updated_in_place: Vec<usize> = vec![];
        let mut last = vec![None; vregs.len()];
        for (i, ins) in code.iter().enumerate() {
            for &v in &ins.ins {
                *last.get_mut(v)? = Some(i);
            }
        }
        for &v in results {
            *last.get_mut(v)? = Some(usize::MAX);
        }
        let mut out = Vec::with_capacity(code.len());
        for (i, ins) in code.iter().enumerate() {
            let phys_ins = ins
                .ins
                .iter()
                .map(|&v| self.of(vregs, v))
                .collect::<Option<Vec<_>>>()?;
            let o = vregs.get(ins.out)?;
            let in_place = match (&ins.op, ins.ins.first()) {
                (Op::DynamicUpdateSlice { .. }, Some(&operand)) => {
                    let once = ins.ins.iter().filter(|&&v| v == operand).count() == 1;
                    let movable = match vregs.get(operand)?.source {
                        Source::Temp => true,
                        Source::State(_) => update_state,
                        _ => false,
                    };
                    (once && movable && last.get(operand)? == &Some(i)).then(|| phys_ins[0])
                }
                _ => None,
            };
            let into_state = || -> Option<usize> {
                if !update_state || results.iter().filter(|&&r| r == ins.out).count() != 1 {
                    return None;
                }
                let j = results.iter().position(|&r| r == ins.out)?;
                let s = (*state_of_leaf.get(j)?)?;
                let p = self.phys(s)?;
                let read_before = match *last.get(s)? {
                    None => true,
                    Some(l) => l < i || (l == i && matches!(ins.op, Op::Native(..))),
                };
                (read_before && !updated_in_place.contains(&p)).then_some(p)
            };
            let p = match in_place {
                Some(p) => {
                    updated_in_place.push(p);
                    p
                }
                None => match into_state() {
                    Some(p) => p,
                    None => self.scratch(o)?,
                },
            };
            self.map[ins.out] = Some(p);
            // Operands read for the last time free their scratch buffers (after
            // the result took one, so a result never shares an operand's).
            for (&v, &pv) in ins.ins.iter().zip(&phys_ins) {
                let scratch = matches!(vregs.get(v)?.source, Source::Temp);
                if scratch && last.get(v)? == &Some(i) && pv != p && !self.pool.contains(&pv) {
                    self.pool.push(pv);
                }
            }
            // A result nothing reads is dead at once.
            let scratch = matches!(self.regs.get(p)?.init, Init::Scratch { .. });
            if last.get(ins.out)?.is_none() && !self.pool.contains(&p) && scratch {
                self.pool.push(p);
            }
            out.push(Ins {
                op: ins.op.clone(),
                ins: phys_ins,
                out: p,
            });
        }
        Some(out)
    }

    /// A free scratch register of `v`'s element type (grown to fit it), or a new one.
    fn scratch(&mut self, v: &VReg) -> Option<usize> {
        let n = v.len();
        let found = self
            .pool
            .iter()
            .position(|&p| self.regs.get(p).is_some_and(|r| r.elem == v.elem));
        if let Some(k) = found {
            let p = self.pool.swap_remove(k);
            let r = self.regs.get_mut(p)?;
            if let Init::Scratch { capacity } = &mut r.init {
                *capacity = (*capacity).max(n);
            }
            r.dims = v.dims.clone();
            return Some(p);
        }
        Some(self.add(v, Init::Scratch { capacity: n }))
    }

    /// After the condition: every scratch register is free for the body.
    pub fn release_all(&mut self) {
        self.pool = (0..self.regs.len())
            .filter(|&p| matches!(self.regs[p].init, Init::Scratch { .. }))
            .collect();
    }

    pub fn phys(&self, v: usize) -> Option<usize> {
        *self.map.get(v)?
    }
}
