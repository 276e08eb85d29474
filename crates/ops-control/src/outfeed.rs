//! Outfeed (spec/ops/outfeed.md): `Outfeed(operand, shape)` writes the operand
//! where the run sends outfeed values (stdout lines, or numbered `.npy` files
//! with `--outfeed DIR`; `feed::Feeds::outfeed`) and gives the empty tuple.

use super::registry::{Checked, OpDef, OpId};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::Type;
use xlet_core::value::Value;
use xlet_ir::{EvalCx, Kernel, KernelError};

const SPEC: &str = include_str!("../../../spec/ops/outfeed.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::Outfeed,
    aliases: &[],
    signature: "Outfeed(operand, shape)",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let operand = cx.operand(0, "operand")?;
    let e = cx.require(Some(1), "shape")?;
    let Some(shape) = super::infeed::written_type(cx, e)? else {
        return Err(cx
            .err(
                "C1",
                format!(
                    "`shape` must be a type such as f32[2x3], found `{}`",
                    cx.text(&e.span)
                ),
                e.span.clone(),
            )
            .with_label("not a type")
            .with_help(format!(
                "write the operand's type: Outfeed({}, {})",
                cx.text(&operand.span),
                operand.ty
            )));
    };
    if shape != operand.ty {
        return Err(cx
            .err(
                "C2",
                format!("`shape` is {shape}, but the operand is {}", operand.ty),
                e.span.clone(),
            )
            .with_label(format!("{shape}"))
            .with_secondary(operand.span.clone(), format!("{}", operand.ty))
            .with_help(format!(
                "the shape names the operand's type: Outfeed({}, {})",
                cx.text(&operand.span),
                operand.ty
            )));
    }
    Ok(Checked {
        ty: Type::Tuple(vec![]),
        kernel: Arc::new(OutfeedKernel),
    })
}

struct OutfeedKernel;

impl Kernel for OutfeedKernel {
    fn run(&self, args: &[Value], cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let [v] = args else {
            return Err(super::common::internal("Outfeed expects one operand"));
        };
        cx.outfeed(v)?;
        Ok(Value::tuple(vec![]))
    }
    fn allocates(&self) -> bool {
        false
    }
}
