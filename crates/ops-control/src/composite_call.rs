//! CompositeCall (spec/ops/composite_call.md): a named operation given by its
//! decomposition, `CompositeCall(decomposition, args..., name="my.op")`. XLA
//! keeps the name, attributes and version for backends that recognise the
//! composite; xlet recognises none, so it runs the decomposition, exactly as
//! `Call(decomposition, args...)` does, and checks the attributes' form.

use super::call::{CallKernel, argument_types};
use super::registry::{Checked, OpDef, OpId};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_syntax::ast::{Expr, ExprKind};

const SPEC: &str = include_str!("../../../spec/ops/composite_call.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::CompositeCall,
    aliases: &["Composite"],
    signature: "CompositeCall(decomposition, args..., name=\"ns.op\"[, attributes=\"{...}\"][, version=0])",
    spec: SPEC,
    rule,
}];

/// A string attribute (C2 and C3 say which).
fn string_attr(
    cx: &mut CallCtx,
    name: &str,
    c: &str,
    required: bool,
) -> Result<Option<String>, Diag> {
    let Some(e): Option<&Expr> = cx.take(None, name)? else {
        if required {
            return Err(cx
                .err(
                    c,
                    format!("the composite's `{name}` is missing"),
                    cx.span.clone(),
                )
                .with_label(format!("no `{name}=`"))
                .with_help("name the composite, e.g. CompositeCall(f, x, name=\"my.gelu\")"));
        }
        return Ok(None);
    };
    match &e.kind {
        ExprKind::Str(s) if !(required && s.is_empty()) => Ok(Some(s.clone())),
        _ => Err(cx
            .err(
                c,
                format!(
                    "`{name}` must be a non-empty string literal, found `{}`",
                    cx.text(&e.span)
                ),
                e.span.clone(),
            )
            .with_label("not a string")
            .with_help(format!("write it in quotes: {name}=\"...\""))),
    }
}

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let types = argument_types(cx, "decomposition")?;
    // C2: a name; C3: attributes, when given, a string; C4: version >= 0.
    string_attr(cx, "name", "C2", true)?;
    string_attr(cx, "attributes", "C3", false)?;
    if let Some(v) = cx.int(None, "version")?
        && v.value < 0
    {
        return Err(cx
            .err(
                "C4",
                format!("version must be 0 or more, found {}", v.value),
                v.span.clone(),
            )
            .with_label("negative"));
    }
    // C1: the decomposition takes the arguments' types.
    let comp = cx.computation(Some(0), "decomposition", &types, None, "C1")?;
    Ok(Checked {
        ty: comp.value.ret.clone(),
        kernel: Arc::new(CallKernel { comp: comp.value }),
    })
}
