//! Infeed (spec/ops/infeed.md): `Infeed(shape)` takes the next value of the
//! run's infeed queue (`--infeed FILE`, the REPL's `:infeed FILE`), which must
//! be of type `shape`. The queue lives in the run's `Env` (`feed::Feeds`); the
//! kernel reaches it through `EvalCx::infeed`.

use super::registry::{Checked, OpDef, OpId};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::Type;
use xlet_core::value::Value;
use xlet_ir::{EvalCx, Kernel, KernelError};
use xlet_syntax::ast::{Expr, ExprKind};

const SPEC: &str = include_str!("../../../spec/ops/infeed.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::Infeed,
    aliases: &[],
    signature: "Infeed(shape)",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let e = cx.require(Some(0), "shape")?;
    let Some(ty) = written_type(cx, e)? else {
        return Err(cx
            .err(
                "C1",
                format!(
                    "`shape` must be a type such as f32[2x3] or (f32[2], s32), found `{}`",
                    cx.text(&e.span)
                ),
                e.span.clone(),
            )
            .with_label("not a type")
            .with_help("write the type of the value to read, e.g. Infeed(f32[2x3])"));
    };
    if let Type::Tuple(items) = &ty
        && let Some(inner) = items.iter().find(|i| matches!(i, Type::Tuple(_)))
    {
        return Err(cx
            .err(
                "C2",
                format!("nested tuple shapes are not supported: {ty} holds the tuple {inner}"),
                e.span.clone(),
            )
            .with_label(format!("{ty}"))
            .with_help(
                "read the inner tuple's elements with one more Infeed, or flatten the tuple",
            ));
    }
    Ok(Checked {
        ty: ty.clone(),
        kernel: Arc::new(InfeedKernel { ty }),
    })
}

/// The type an argument writes: `f32[2x3]`, `s32`, or a tuple of types
/// `(f32[2], s32)` (which the parser reads as a tuple of type expressions).
/// `None` if the argument is not a type.
pub fn written_type(cx: &CallCtx, e: &Expr) -> Result<Option<Type>, Diag> {
    match &e.kind {
        ExprKind::Type(t) => cx.ck.resolve_type(t).map(Some),
        ExprKind::Tuple(items) => {
            let mut out = vec![];
            for i in items {
                match written_type(cx, i)? {
                    Some(t) => out.push(t),
                    None => return Ok(None),
                }
            }
            Ok(Some(Type::Tuple(out)))
        }
        _ => Ok(None),
    }
}

struct InfeedKernel {
    ty: Type,
}

impl Kernel for InfeedKernel {
    fn run(&self, _args: &[Value], cx: &dyn EvalCx) -> Result<Value, KernelError> {
        // The empty tuple reads nothing (as in XLA).
        if matches!(&self.ty, Type::Tuple(items) if items.is_empty()) {
            return Ok(Value::tuple(vec![]));
        }
        cx.infeed(&self.ty)
    }
    /// The value is read from a file, which admits its memory itself
    /// (`npy::read`); a text literal is small.
    fn allocates(&self) -> bool {
        false
    }
}
