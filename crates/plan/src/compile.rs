//! From comps to straight-line code over virtual registers: each op becomes one
//! instruction whose operands and result are numbered registers (tuples and
//! GetTupleElement are followed statically, calls are inlined). Anything
//! outside the supported subset makes the whole loop fall back to the
//! evaluator (`None`), so a plan never runs half a comp.

use std::sync::Arc;
use xlet_core::OpId;
use xlet_core::types::{ElemType, Type};
use xlet_core::value::{Array, Value};
use xlet_ir::{Comp, Expr, ExprKind};
use xlet_kernels::fused::ElementwiseFn;

/// Computed arrays (elementwise results, broadcasts, slices) up to this many
/// elements run in the plan; a larger one is work for the evaluator's parallel
/// kernels, and the loop falls back. DynamicUpdateSlice's operand may be any
/// size: it is updated in place.
pub const SMALL: usize = 1 << 14;
/// The most instructions one loop's plan holds, calls inlined.
const MAX_INSTRUCTIONS: usize = 1 << 14;
/// Calls nested deeper than this are left to the evaluator.
const MAX_CALL_DEPTH: usize = 16;
/// Slicing ops of higher rank are left to the evaluator (the plan keeps their
/// indices on the stack).
pub const MAX_RANK: usize = 8;

/// Where a virtual register's value comes from.
#[derive(Clone)]
pub enum Source {
    /// Leaf `j` of the loop state (tuples flattened depth first).
    State(usize),
    /// A constant of the program.
    Const(Array),
    /// Leaf `leaf` of the top-level value `name`, as `comp` sees it.
    Global {
        comp: Arc<Comp>,
        name: String,
        leaf: usize,
    },
    /// The result of an instruction.
    Temp,
    /// Another register's buffer under other dimensions (a Reshape, or any
    /// movement that keeps the row-major order): registers are row-major
    /// buffers, so it is the same elements. Replaced by its root before
    /// buffers are assigned (`Builder::resolve`).
    Alias(usize),
}

/// A virtual register: one array of a fixed type.
#[derive(Clone)]
pub struct VReg {
    pub elem: ElemType,
    pub dims: Vec<usize>,
    pub source: Source,
}

impl VReg {
    pub fn len(&self) -> usize {
        self.dims.iter().product()
    }
}

/// Typed scalar instructions that run without a call through the op's
/// function (the same arithmetic: wrapping integers, IEEE floats).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Native {
    Add,
    Sub,
    Mul,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

#[derive(Clone)]
pub enum Op {
    /// The op's own elementwise function over operands of the result's shape.
    Elementwise(Arc<dyn ElementwiseFn>),
    /// A scalar op of `Native` on integers (compares) or numbers (arithmetic)
    /// of the element type.
    Native(Native, ElemType),
    /// The operand repeated to fill `len` elements (Broadcast puts the operand
    /// in the trailing dimensions; a scalar fills any shape).
    Broadcast { len: usize },
    /// A `sizes` block of an operand of `dims` at clamped starts.
    DynamicSlice { dims: Vec<usize>, sizes: Vec<usize> },
    /// The operand (of `dims`) with an `update`-shaped block written at clamped
    /// starts; in place when the result register is the operand's.
    DynamicUpdateSlice {
        dims: Vec<usize>,
        update: Vec<usize>,
    },
    /// Result element `idx` (row-major over `dims`) is the operand's element
    /// `offset + sum(idx[d] * strides[d])`: BroadcastInDim, Transpose, Slice,
    /// a Reshape that reorders (`shape_ops`).
    Strided {
        dims: Vec<usize>,
        offset: usize,
        strides: Vec<usize>,
    },
    /// Concatenate: in each of `rows` rows, a block of `blocks[k]` elements
    /// from operand `k`, one after another.
    Concatenate { rows: usize, blocks: Vec<usize> },
    /// Reduce by a monoid of `m` rows of `n` elements, and an init value
    /// (`reduce`).
    Reduce {
        op: xlet_kernels::reduce::monoid::Monoid,
        m: usize,
        n: usize,
    },
}

/// One instruction: `out = op(ins...)`.
#[derive(Clone)]
pub struct Ins<R> {
    pub op: Op,
    pub ins: Vec<R>,
    pub out: R,
}

/// What a name stands for: one register, or a tuple of them.
#[derive(Clone, Debug)]
pub enum Bound {
    One(usize),
    Tuple(Vec<Bound>),
}

impl Bound {
    pub fn flatten(&self, out: &mut Vec<usize>) {
        match self {
            Bound::One(r) => out.push(*r),
            Bound::Tuple(items) => items.iter().for_each(|b| b.flatten(out)),
        }
    }
}

/// The element types a register may hold: every type with a `Chunk`, none of
/// the small types (their arrays are bytes the evaluator retags).
pub(crate) fn supported(e: ElemType) -> bool {
    !(e.is_small_float() || e.is_small_int())
}

#[derive(Default)]
pub struct Builder {
    pub vregs: Vec<VReg>,
    depth: usize,
    count: usize,
}

impl Builder {
    pub(crate) fn new_reg(&mut self, ty: &Type, source: Source) -> Option<usize> {
        let a = ty.as_array()?;
        if !supported(a.elem) {
            return None;
        }
        self.vregs.push(VReg {
            elem: a.elem,
            dims: a.dims.clone(),
            source,
        });
        Some(self.vregs.len() - 1)
    }

    /// Registers for a value of type `ty`, leaf `k` from `source(k)`.
    fn leaves(
        &mut self,
        ty: &Type,
        next: &mut usize,
        source: &dyn Fn(usize) -> Source,
    ) -> Option<Bound> {
        match ty {
            Type::Array(_) => {
                *next += 1;
                Some(Bound::One(self.new_reg(ty, source(*next - 1))?))
            }
            Type::Tuple(items) => Some(Bound::Tuple(
                items
                    .iter()
                    .map(|t| self.leaves(t, next, source))
                    .collect::<Option<_>>()?,
            )),
        }
    }

    /// The loop state's registers.
    pub fn state(&mut self, ty: &Type) -> Option<Bound> {
        self.leaves(ty, &mut 0, &Source::State)
    }

    /// Compiles a call of `comp` on `args` into `code`; its result.
    pub fn comp(
        &mut self,
        comp: &Arc<Comp>,
        args: Vec<Bound>,
        code: &mut Vec<Ins<usize>>,
    ) -> Option<Bound> {
        if self.depth >= MAX_CALL_DEPTH || args.len() != comp.params.len() {
            return None;
        }
        self.depth += 1;
        let mut slots: Vec<Option<Bound>> = args.into_iter().map(Some).collect();
        slots.resize(comp.slots.max(slots.len()), None);
        for (slot, e) in &comp.body {
            let b = self.expr(e, comp, &slots, code)?;
            *slots.get_mut(*slot)? = Some(b);
        }
        let r = self.expr(&comp.result, comp, &slots, code);
        self.depth -= 1;
        r
    }

    pub(crate) fn push(
        &mut self,
        code: &mut Vec<Ins<usize>>,
        op: Op,
        ins: Vec<usize>,
        ty: &Type,
    ) -> Option<Bound> {
        self.count += 1;
        if self.count > MAX_INSTRUCTIONS {
            return None;
        }
        let out = self.new_reg(ty, Source::Temp)?;
        code.push(Ins { op, ins, out });
        Some(Bound::One(out))
    }

    fn one(
        &mut self,
        e: &Expr,
        comp: &Arc<Comp>,
        slots: &[Option<Bound>],
        code: &mut Vec<Ins<usize>>,
    ) -> Option<usize> {
        match self.expr(e, comp, slots, code)? {
            Bound::One(r) => Some(r),
            Bound::Tuple(_) => None,
        }
    }

    fn expr(
        &mut self,
        e: &Expr,
        comp: &Arc<Comp>,
        slots: &[Option<Bound>],
        code: &mut Vec<Ins<usize>>,
    ) -> Option<Bound> {
        match &e.kind {
            ExprKind::Local(s) => slots.get(*s)?.clone(),
            ExprKind::Const(v) => {
                let mut leaves = vec![];
                flatten(v, &mut leaves);
                let mut it = leaves.into_iter();
                let b = self.leaves(&e.ty, &mut 0, &|_| Source::Temp)?;
                let mut regs = vec![];
                b.flatten(&mut regs);
                for r in regs {
                    let a = it.next()?;
                    self.vregs.get_mut(r)?.source = Source::Const(a);
                }
                Some(b)
            }
            ExprKind::Global(name) => {
                let source = |leaf| Source::Global {
                    comp: comp.clone(),
                    name: name.clone(),
                    leaf,
                };
                self.leaves(&e.ty, &mut 0, &source)
            }
            ExprKind::Tuple(items) => Some(Bound::Tuple(
                items
                    .iter()
                    .map(|i| self.expr(i, comp, slots, code))
                    .collect::<Option<_>>()?,
            )),
            ExprKind::CallComp { comp: c, args } => {
                let args = args
                    .iter()
                    .map(|a| self.expr(a, comp, slots, code))
                    .collect::<Option<Vec<_>>>()?;
                self.comp(c, args, code)
            }
            ExprKind::Op { id, kernel, args } => {
                if let Some(k) = kernel.tuple_index() {
                    return match self.expr(args.first()?, comp, slots, code)? {
                        Bound::Tuple(items) => items.get(k).cloned(),
                        Bound::One(_) => None,
                    };
                }
                if let Some(c) = kernel.called_comp() {
                    let args = args
                        .iter()
                        .map(|a| self.expr(a, comp, slots, code))
                        .collect::<Option<Vec<_>>>()?;
                    return self.comp(c, args, code);
                }
                let out = e.ty.as_array()?;
                let n: usize = out.dims.iter().product();
                let ins = args
                    .iter()
                    .map(|a| self.one(a, comp, slots, code))
                    .collect::<Option<Vec<_>>>()?;
                let dims = |b: &Builder, r: usize| b.vregs.get(r).map(|v| v.dims.clone());
                match id {
                    OpId::ConvertElementType if ins.len() == 1 => {
                        let r = *ins.first()?;
                        if self.vregs.get(r)?.elem == out.elem {
                            return Some(Bound::One(r)); // the identity conversion
                        }
                    }
                    OpId::DynamicSlice => {
                        let src = dims(self, *ins.first()?)?;
                        if n > SMALL || src.len() > MAX_RANK || !self.int_starts(&ins[1..]) {
                            return None;
                        }
                        let op = Op::DynamicSlice {
                            dims: src,
                            sizes: out.dims.clone(),
                        };
                        return self.push(code, op, ins, &e.ty);
                    }
                    OpId::DynamicUpdateSlice => {
                        let src = dims(self, *ins.first()?)?;
                        let update = dims(self, *ins.get(1)?)?;
                        if src.len() > MAX_RANK || !self.int_starts(&ins[2..]) {
                            return None;
                        }
                        let op = Op::DynamicUpdateSlice { dims: src, update };
                        return self.push(code, op, ins, &e.ty);
                    }
                    OpId::Broadcast if ins.len() == 1 => {
                        return self.broadcast(code, *ins.first()?, &e.ty);
                    }
                    OpId::BroadcastInDim
                        if ins.len() == 1 && dims(self, *ins.first()?)?.is_empty() =>
                    {
                        return self.broadcast(code, *ins.first()?, &e.ty);
                    }
                    _ => {}
                }
                if let Some(m) = kernel.movement() {
                    return self.movement(code, &m, ins, &e.ty);
                }
                if let Some(r) = kernel.monoid_reduction() {
                    return self.reduce(code, r, ins, &e.ty);
                }
                if *id == OpId::Iota && ins.is_empty() {
                    return self.iota(kernel.as_ref(), &e.ty);
                }
                let k = kernel.as_elementwise()?;
                if n > SMALL
                    || k.out_elem != out.elem
                    || k.out_dims != out.dims
                    || k.maps.len() != ins.len()
                {
                    return None;
                }
                // Every operand in the result's shape: a scalar is broadcast
                // first; any other placement is left to the evaluator.
                let mut placed = Vec::with_capacity(ins.len());
                for (&r, map) in ins.iter().zip(&k.maps) {
                    let d = dims(self, r)?;
                    if d == out.dims && map.iter().copied().eq(0..d.len()) {
                        placed.push(r);
                    } else if d.is_empty() {
                        let elem = self.vregs.get(r)?.elem;
                        let ty = Type::array(elem, out.dims.clone());
                        match self.broadcast(code, r, &ty)? {
                            Bound::One(b) => placed.push(b),
                            Bound::Tuple(_) => return None,
                        }
                    } else {
                        return None;
                    }
                }
                let op = match native(*id, &placed, &self.vregs) {
                    Some((nat, elem)) => Op::Native(nat, elem),
                    None => Op::Elementwise(k.f.clone()),
                };
                self.push(code, op, placed, &e.ty)
            }
        }
    }

    pub(crate) fn broadcast(
        &mut self,
        code: &mut Vec<Ins<usize>>,
        src: usize,
        ty: &Type,
    ) -> Option<Bound> {
        let out = ty.as_array()?;
        let n: usize = out.dims.iter().product();
        let m = self.vregs.get(src)?.len();
        if n > SMALL || (m == 0 && n != 0) || (m != 0 && !n.is_multiple_of(m)) {
            return None;
        }
        self.push(code, Op::Broadcast { len: n }, vec![src], ty)
    }

    fn int_starts(&self, regs: &[usize]) -> bool {
        regs.iter().all(|&r| {
            self.vregs
                .get(r)
                .is_some_and(|v| v.elem.is_signed_int() || v.elem.is_unsigned_int())
        })
    }
}

/// The native form of op `id` on these operands, if it has one: integer and
/// float arithmetic, integer compares (a float compare may be TOTALORDER,
/// which only its function knows), all on scalars.
fn native(id: OpId, ins: &[usize], vregs: &[VReg]) -> Option<(Native, ElemType)> {
    let [a, b] = ins else { return None };
    let (a, b) = (vregs.get(*a)?, vregs.get(*b)?);
    if !a.dims.is_empty() || !b.dims.is_empty() || a.elem != b.elem {
        return None;
    }
    use ElemType::*;
    let int = matches!(a.elem, S32 | S64 | U32 | U64);
    let num = int || matches!(a.elem, F32 | F64);
    Some((
        match id {
            OpId::Add if num => Native::Add,
            OpId::Sub if num => Native::Sub,
            OpId::Mul if num => Native::Mul,
            OpId::Lt if int => Native::Lt,
            OpId::Le if int => Native::Le,
            OpId::Gt if int => Native::Gt,
            OpId::Ge if int => Native::Ge,
            OpId::Eq if int => Native::Eq,
            OpId::Ne if int => Native::Ne,
            _ => return None,
        },
        a.elem,
    ))
}

pub fn flatten(v: &Value, out: &mut Vec<Array>) {
    match v {
        Value::Array(a) => out.push(a.clone()),
        Value::Tuple(items) => items.iter().for_each(|i| flatten(i, out)),
    }
}
