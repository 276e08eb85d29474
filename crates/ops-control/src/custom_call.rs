//! CustomCall (spec/ops/custom_call.md): `CustomCall("name", {args...}, shape)`
//! calls the C function `void name(void* out, void** in)` that a library the
//! user named (or a Rust registration) provides. The checker resolves the name
//! before anything runs (C2), so a program never starts and then finds its
//! target missing; the kernel holds the resolved function and its library.

use super::registry::{Checked, OpDef, OpId};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::Type;
use xlet_core::value::Value;
use xlet_custom_call::{Resolved, Unresolved, marshal};
use xlet_ir::{EvalCx, Kernel, KernelError};
use xlet_syntax::ast::{Expr, ExprKind};

const SPEC: &str = include_str!("../../../spec/ops/custom_call.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::CustomCall,
    aliases: &[],
    signature: "CustomCall(call_target_name, operands, shape)",
    spec: SPEC,
    rule,
}];

/// How a user enables native code, for the C2 help.
const ENABLE: &str = "name the shared library that defines it: `xlet --custom-call-lib \
                      PATH run FILE` on the command line, `:lib PATH` in the REPL";

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let name_expr = cx.require(Some(0), "call_target_name")?;
    let name = target_name(cx, name_expr)?;
    let operands_expr = cx.require(Some(1), "operands")?;
    operands(cx, operands_expr)?;
    let shape_expr = cx.require(Some(2), "shape")?;
    let result = result_type(cx, shape_expr)?;
    let target = resolve(cx, &name, name_expr)?;
    Ok(Checked {
        ty: result.clone(),
        kernel: Arc::new(CustomCallKernel {
            name,
            target,
            result,
        }),
    })
}

/// C1: a string literal that is a C identifier (what `dlsym` can find).
fn target_name(cx: &CallCtx, e: &Expr) -> Result<String, Diag> {
    let ExprKind::Str(s) = &e.kind else {
        return Err(cx
            .err(
                "C1",
                format!(
                    "the target name must be a string literal, found `{}`",
                    cx.text(&e.span)
                ),
                e.span.clone(),
            )
            .with_label("not a string")
            .with_help(
                "write the C function's name in quotes: CustomCall(\"myfunc\", {x, y}, f32[3x3])",
            ));
    };
    let ident = s
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !ident {
        return Err(cx
            .err(
                "C1",
                format!("the target name {s:?} is not a C function name"),
                e.span.clone(),
            )
            .with_label("not a C identifier")
            .with_help(
                "a target is an `extern \"C\"` function: letters, digits and `_`, not starting with a digit",
            ));
    }
    Ok(s.clone())
}

/// The arguments: `{a, b, ...}` (`{}` for none) or a single expression; each
/// an array (C3).
fn operands(cx: &mut CallCtx, e: &Expr) -> Result<(), Diag> {
    let items: Vec<&Expr> = match &e.kind {
        ExprKind::Brace(items) => items.iter().collect(),
        _ => vec![e],
    };
    for item in items {
        let op = cx.push_operand(item, None)?;
        if let Type::Tuple(_) = op.ty {
            return Err(cx
                .err(
                    "C3",
                    format!("each argument must be an array, found the tuple {}", op.ty),
                    op.span.clone(),
                )
                .with_label(format!("{}", op.ty))
                .with_help(format!(
                    "pass the tuple's elements as separate arguments, e.g. GetTupleElement({}, 0)",
                    cx.text(&op.span)
                )));
        }
    }
    Ok(())
}

/// C4: an array type or a tuple of types (nested tuples allowed).
fn result_type(cx: &CallCtx, e: &Expr) -> Result<Type, Diag> {
    match &e.kind {
        ExprKind::Type(t) => cx.ck.resolve_type(t),
        ExprKind::Tuple(items) => Ok(Type::Tuple(
            items
                .iter()
                .map(|i| result_type(cx, i))
                .collect::<Result<_, _>>()?,
        )),
        _ => Err(cx
            .err(
                "C4",
                format!(
                    "the result shape must be a type such as f32[3x3] or (f32[2], s32[]), found `{}`",
                    cx.text(&e.span)
                ),
                e.span.clone(),
            )
            .with_label("not a type")
            .with_help("the third argument declares the type the C function writes")),
    }
}

/// C2: the name is callable.
fn resolve(cx: &CallCtx, name: &str, e: &Expr) -> Result<Resolved, Diag> {
    match cx.ck.limits.custom_call.resolve(name) {
        Ok(r) => Ok(r),
        Err(Unresolved::NoLibrary) => Err(cx
            .err(
                "C2",
                format!("`{name}` is native code, and no custom-call library was named"),
                e.span.clone(),
            )
            .with_label("no library to find it in")
            .with_help(format!("to call it, {ENABLE}"))),
        Err(Unresolved::NotFound(searched)) => Err(cx
            .err(
                "C2",
                format!("no function `{name}` in the custom-call libraries searched: {searched}"),
                e.span.clone(),
            )
            .with_label("not found")
            .with_help(
                "check the spelling and that the library exports it as `extern \"C\"` \
                 (`nm -D LIB` lists the exported names); name more libraries with \
                 --custom-call-lib or :lib",
            )),
    }
}

struct CustomCallKernel {
    name: String,
    target: Resolved,
    result: Type,
}

impl Kernel for CustomCallKernel {
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        // `self.target.lib` keeps the library loaded while its function runs.
        marshal::call(&self.name, self.target.f, args, &self.result)
    }
}
