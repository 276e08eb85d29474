//! ConvertElementType (spec/ops/convert_element_type.md):
//! `ConvertElementType(operand, new_element_type)`, alias `convert`. Each
//! element goes through `CastFrom` (src/value/scalar.rs), which holds the
//! conversion rules; the checker picks the kernel for the (source, target)
//! pair once, so the element loop has no dispatch.

use super::common::{apply1, internal};
use super::registry::{Checked, OpDef};
use crate::check::call::CallCtx;
use crate::diag::Diag;
use crate::ir::{EvalCx, Kernel, KernelError};
use crate::types::{ElemType, Type};
use crate::value::{Array, CastFrom, Elem, Value};
use crate::with_elem_type;
use std::sync::Arc;

const SPEC: &str = include_str!("../../spec/ops/convert_element_type.md");

pub const OPS: &[OpDef] = &[OpDef {
    name: "ConvertElementType",
    aliases: &["convert"],
    signature: "ConvertElementType(operand, new_element_type)",
    spec: SPEC,
    rule,
}];

/// Converts a whole array of one element type to another.
type ConvFn = fn(&Array) -> Result<Array, KernelError>;

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let o = cx.operand(0, "operand")?;
    let t = cx.array(&o, "C1", "operand")?.clone();
    let to = cx.elem_type(Some(1), "new_element_type").map_err(|mut d| {
        // A malformed target type is this op's C2: the target is one element type.
        if d.code == cx.code("attr") {
            d.code = cx.code("C2");
        }
        d
    })?;
    let f = if to.value == t.elem { None } else { Some(pick(t.elem, to.value)) };
    Ok(Checked {
        ty: Type::Array(t.with_elem(to.value)),
        kernel: Arc::new(ConvertKernel { f }),
    })
}

/// The kernel for one (source, target) pair: 13 x 13 monomorphic instances.
fn pick(from: ElemType, to: ElemType) -> ConvFn {
    with_elem_type!(from, S => with_elem_type!(to, D => convert::<S, D> as ConvFn))
}

fn convert<S: Elem, D: Elem + CastFrom<S>>(a: &Array) -> Result<Array, KernelError> {
    apply1::<S, D>(a, |x| <D as CastFrom<S>>::cast_from(x))
}

struct ConvertKernel {
    /// `None` when the target type is the operand's: the value is returned as is.
    f: Option<ConvFn>,
}

impl Kernel for ConvertKernel {
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let [Value::Array(a)] = args else {
            return Err(internal("ConvertElementType expects one array"));
        };
        match self.f {
            None => Ok(Value::Array(a.clone())),
            Some(f) => f(a).map(Value::Array),
        }
    }
}
