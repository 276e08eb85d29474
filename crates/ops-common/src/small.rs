//! Ops that compute on values of the small types (f8/f6/f4, s4/u4/s2/u2) run
//! their ordinary kernel on the compute types: each small operand is widened
//! exactly (f32, s8 or u8), the kernel runs, and a small result is rounded or
//! wrapped back once, as XLA:CPU does (spec/small_types.md §5). Ops that only
//! move elements need none of this: their kernels see the bytes.

use std::sync::Arc;
use xlet_core::error::internal;
use xlet_core::types::{ElemType, Type};
use xlet_core::value::Value;
use xlet_core::value::small::{Narrow, Widen, has_small, narrow, widen};
use xlet_ir::{EvalCx, Kernel, KernelError};

/// `inner`, a kernel built for the compute types, run on small operands.
pub struct Widened {
    inner: Arc<dyn Kernel>,
    /// How each argument is widened (arguments that are not small pass as they are).
    args: Vec<Widen>,
    /// The checked result type: its arrays of small types are brought back
    /// by `narrow` (a comparison's pred, TopK's indices stay as they are).
    out: Type,
    narrow: Narrow,
}

/// `inner` (built for the compute types of `operands`) wrapped to take the
/// small types, with every operand widened to its value; `inner` itself when
/// no operand and not `out` is small.
pub fn widened(inner: Arc<dyn Kernel>, operands: &[ElemType], out: ElemType) -> Arc<dyn Kernel> {
    let modes: Vec<Widen> = operands.iter().map(|_| Widen::Value).collect();
    widened_bits(inner, operands, &modes, out, Narrow::Value)
}

/// `widened` with a widening per operand and a narrowing of the result: the
/// bit operations of the small integers (spec/small_types.md §5).
pub fn widened_bits(
    inner: Arc<dyn Kernel>,
    operands: &[ElemType],
    modes: &[Widen],
    out: ElemType,
    narrow: Narrow,
) -> Arc<dyn Kernel> {
    widened_to(inner, operands, modes, &Type::scalar(out), narrow)
}

/// `widened` for an op whose result is a tuple (TopK, Sort of several
/// operands): each small array of the checked result type `out` is narrowed.
pub fn widened_tuple(inner: Arc<dyn Kernel>, operands: &[ElemType], out: &Type) -> Arc<dyn Kernel> {
    let modes: Vec<Widen> = operands.iter().map(|_| Widen::Value).collect();
    widened_to(inner, operands, &modes, out, Narrow::Value)
}

fn widened_to(
    inner: Arc<dyn Kernel>,
    operands: &[ElemType],
    modes: &[Widen],
    out: &Type,
    narrow: Narrow,
) -> Arc<dyn Kernel> {
    if operands.iter().all(|e| e.small().is_none()) && !has_small(out) {
        return inner;
    }
    Arc::new(Widened {
        inner,
        args: modes.to_vec(),
        out: out.clone(),
        narrow,
    })
}

/// The arrays of `v` whose type in `ty` is small, brought back to it.
fn narrow_value(v: Value, ty: &Type, how: Narrow) -> Result<Value, KernelError> {
    match (v, ty) {
        (Value::Array(a), Type::Array(t)) => match t.elem.small() {
            Some(s) => narrow(&a, s, how).map(Value::Array),
            None => Ok(Value::Array(a)),
        },
        (Value::Tuple(vs), Type::Tuple(ts)) => Ok(Value::tuple(
            vs.iter()
                .zip(ts)
                .map(|(v, t)| narrow_value(v.clone(), t, how))
                .collect::<Result<_, _>>()?,
        )),
        _ => Err(internal(
            "a small-typed op's result does not match its type",
        )),
    }
}

/// Whether a small integer's bit operation needs its own widening: the
/// widening of each operand, the type the kernel runs in, and the narrowing.
pub fn bit_op_widening(
    op: xlet_core::OpId,
    elem: ElemType,
) -> Option<(Vec<Widen>, ElemType, Narrow)> {
    use xlet_core::OpId;
    if !elem.is_small_int() {
        return None;
    }
    Some(match op {
        OpId::ShiftRightLogical => (
            vec![Widen::Pattern, Widen::Pattern],
            ElemType::U8,
            Narrow::Value,
        ),
        OpId::ShiftRightArithmetic => (
            vec![Widen::High, Widen::Pattern],
            ElemType::U8,
            Narrow::High,
        ),
        OpId::Clz => (vec![Widen::HighSentinel], ElemType::U8, Narrow::Value),
        // XLA:CPU counts the ones of s4's sign-extended byte (Popcnt(s4 -8)
        // is 5) but of s2's pattern (jax 0.10.2); u4 and u2 agree either way.
        OpId::PopulationCount if elem.bit_width() == 4 => return None,
        OpId::PopulationCount => (vec![Widen::Pattern], ElemType::U8, Narrow::Value),
        _ => return None,
    })
}

impl Kernel for Widened {
    fn run(&self, args: &[Value], cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let wide = args
            .iter()
            .enumerate()
            .map(|(i, v)| match v {
                Value::Array(a) => {
                    let mode = self.args.get(i).copied().unwrap_or(Widen::Value);
                    widen(a, mode).map(Value::Array)
                }
                t => Ok(t.clone()),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let out = self.inner.run_owned(wide, cx)?;
        narrow_value(out, &self.out, self.narrow)
    }
}
