//! ConvertElementType (spec/ops/convert_element_type.md):
//! `ConvertElementType(operand, new_element_type)`, alias `convert`. Each
//! element goes through `CastFrom` (src/value/scalar.rs), which holds the
//! conversion rules; the checker picks the function for the (source, target)
//! pair once, so the element loop has no dispatch. A real conversion is an
//! elementwise kernel (it fuses with the elementwise ops around it); converting
//! to the operand's own type returns the operand.

use super::common::internal;
use super::registry::{Checked, OpDef, OpId};
use super::small::widened;
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::{ElemType, SmallType, Type};
use xlet_core::value::small::{convert_to_small, small_to_f32};
use xlet_core::value::{CastFrom, Value};
use xlet_core::with_elem_type;
use xlet_ir::{EvalCx, Kernel, KernelError};
use xlet_kernels::fused::{ChunkElem, ElementwiseFn, ElementwiseKernel, unary};

const SPEC: &str = include_str!("../../../spec/ops/convert_element_type.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::ConvertElementType,
    aliases: &["convert"],
    signature: "ConvertElementType(operand, new_element_type)",
    spec: SPEC,
    rule,
}];

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
    let ty = t.with_elem(to.value);
    let kernel: Arc<dyn Kernel> = if to.value == t.elem {
        Arc::new(SameType)
    } else if let Some(small) = to.value.small() {
        Arc::new(ToSmall(small))
    } else if t.elem.is_small_float() && to.value == ElemType::F32 {
        Arc::new(SmallToF32)
    } else if t.elem.small().is_some() {
        // From a small type: its exact value in the compute type, then the
        // ordinary conversion from there.
        let wide = t.elem.compute();
        let inner: Arc<dyn Kernel> = if wide == to.value {
            Arc::new(SameType)
        } else {
            Arc::new(ElementwiseKernel {
                f: pick(wide, to.value),
                maps: vec![(0..t.rank()).collect()],
                out_dims: t.dims.clone(),
                out_elem: to.value,
            })
        };
        widened(inner, &[t.elem], to.value)
    } else {
        Arc::new(ElementwiseKernel {
            f: pick(t.elem, to.value),
            maps: vec![(0..t.rank()).collect()],
            out_dims: t.dims.clone(),
            out_elem: to.value,
        })
    };
    Ok(Checked {
        ty: Type::Array(ty),
        kernel,
    })
}

/// The function for one (source, target) pair: 13 x 13 monomorphic instances.
fn pick(from: ElemType, to: ElemType) -> Arc<dyn ElementwiseFn> {
    with_elem_type!(from, S => with_elem_type!(to, D => convert::<S, D>()))
}

fn convert<S: ChunkElem, D: ChunkElem + CastFrom<S>>() -> Arc<dyn ElementwiseFn> {
    unary::<S, D, _>(|x: S| <D as CastFrom<S>>::cast_from(x))
}

/// Conversion to a small type (from any type, small ones included): one
/// rounding or wrap per element (`value::small::convert_to_small`).
struct ToSmall(SmallType);

impl Kernel for ToSmall {
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        match args {
            [Value::Array(a)] => Ok(Value::Array(convert_to_small(a, self.0)?)),
            _ => Err(internal("ConvertElementType expects one array")),
        }
    }
}

/// A small float to f32: one table load per element, at memory speed.
struct SmallToF32;

impl Kernel for SmallToF32 {
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        match args {
            [Value::Array(a)] => Ok(Value::Array(small_to_f32(a)?)),
            _ => Err(internal("ConvertElementType expects one array")),
        }
    }
}

/// Conversion to the operand's own type: the operand, unchanged and uncopied.
struct SameType;

impl Kernel for SameType {
    /// The identity: the cotangent passes through.
    fn vjp(&self, cx: &mut xlet_ir::rule::RuleCx) -> Result<(), xlet_ir::rule::NoRule> {
        let c = cx.ct.name.clone();
        if cx.is_active(0) {
            cx.grads[0] = Some(c);
        }
        Ok(())
    }
    fn allocates(&self) -> bool {
        false // the operand itself
    }
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        match args {
            [v @ Value::Array(_)] => Ok(v.clone()),
            _ => Err(internal("ConvertElementType expects one array")),
        }
    }
}
