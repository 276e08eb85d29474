//! Call (spec/ops/call.md): `Call(computation, args...)`, the same as the
//! direct call `computation(args...)`, for the docs' form.

use super::registry::{Checked, OpDef, OpId};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::{ElemType, Type};
use xlet_core::value::Value;
use xlet_ir::{Comp, EvalCx, Kernel, KernelError};
use xlet_syntax::ast::ExprKind;

const SPEC: &str = include_str!("../../../spec/ops/call.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::Call,
    aliases: &[],
    signature: "Call(computation, args...)",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let types = argument_types(cx, "computation")?;
    let comp = cx.computation(Some(0), "computation", &types, None, "C1")?;
    Ok(Checked {
        ty: comp.value.ret.clone(),
        kernel: Arc::new(CallKernel { comp: comp.value }),
    })
}

/// The types of the arguments after the callee (position 0, named `callee`),
/// pushed as operands. Untyped literal arguments take their element type from
/// the parameter they are passed to, as in a direct call. Call and
/// CompositeCall share it.
pub(crate) fn argument_types(cx: &mut CallCtx, callee: &str) -> Result<Vec<Type>, Diag> {
    let callee = cx.require(Some(0), callee)?;
    let hints: Vec<Option<ElemType>> = match &callee.kind {
        ExprKind::Var(v) => cx.ck.env.comps.get(v).map_or(vec![], |c| {
            c.params
                .iter()
                .map(|(_, t)| t.as_array().map(|a| a.elem))
                .collect()
        }),
        _ => vec![],
    };
    let mut types = vec![];
    for i in 1..cx.positional_count() {
        let e = cx.require(Some(i), "args")?;
        let op = cx.push_operand(e, hints.get(i - 1).copied().flatten())?;
        types.push(op.ty);
    }
    Ok(types)
}

/// Runs a called comp: Call's kernel, and CompositeCall's (which runs its
/// decomposition).
pub(crate) struct CallKernel {
    pub(crate) comp: Arc<Comp>,
}

impl Kernel for CallKernel {
    fn called_comp(&self) -> Option<&Arc<Comp>> {
        Some(&self.comp)
    }
    fn allocates(&self) -> bool {
        false // the body's ops account for what they make
    }
    fn run(&self, args: &[Value], cx: &dyn EvalCx) -> Result<Value, KernelError> {
        cx.call_comp(&self.comp, args)
    }
}
