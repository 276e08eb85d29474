//! SaveNpy (spec/ops/save_npy.md), an xlet extension, not an XLA op:
//! `SaveNpy(x, "y.npy")` writes `x` to a numpy file when its statement runs
//! and gives `x` back. The checker writes nothing; it records the file's type
//! so that a later LoadNpy of the same path in the program is checked with it.

use super::registry::{Checked, OpDef, OpId};
use std::path::PathBuf;
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::Type;
use xlet_core::value::Value;
use xlet_ir::{EvalCx, Kernel, KernelError};
use xlet_syntax::ast::ExprKind;

const SPEC: &str = include_str!("../../../spec/ops/save_npy.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::SaveNpy,
    aliases: &[],
    signature: "SaveNpy(operand, file)",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let operand = cx.operand(0, "operand")?;
    let e = cx.require(Some(1), "file")?;
    let ExprKind::Str(name) = &e.kind else {
        return Err(cx
            .err(
                "C1",
                format!(
                    "`file` must be a file name in quotes, found `{}`",
                    cx.text(&e.span)
                ),
                e.span.clone(),
            )
            .with_label("not a string")
            .with_help(format!(
                "write the path in double quotes: SaveNpy({}, \"y.npy\")",
                cx.text(&operand.span)
            )));
    };
    let Type::Array(ty) = &operand.ty else {
        return Err(cx
            .err(
                "C2",
                format!(
                    "the operand is the tuple {}; an .npy file holds one array",
                    operand.ty
                ),
                operand.span.clone(),
            )
            .with_label("a tuple")
            .with_help(format!(
                "save each element to its own file: SaveNpy(GetTupleElement({}, 0), \"y0.npy\")",
                cx.text(&operand.span)
            )));
    };
    if cx.ck.in_comp() {
        return Err(cx
            .err(
                "C3",
                "SaveNpy is written at the top level of a program, not inside a computation",
                cx.span.clone(),
            )
            .with_label("inside a computation")
            .with_help(
                "a computation may run many times, never, or vectorised; save its result where \
                 it is called: let y = SaveNpy(Call(f, x), \"y.npy\")",
            ));
    }
    let path = PathBuf::from(name);
    cx.ck.files_written.insert(path.clone(), ty.clone());
    Ok(Checked {
        ty: operand.ty.clone(),
        kernel: Arc::new(SaveKernel { path }),
    })
}

struct SaveKernel {
    path: PathBuf,
}

impl Kernel for SaveKernel {
    fn run(&self, args: &[Value], cx: &dyn EvalCx) -> Result<Value, KernelError> {
        self.run_owned(args.to_vec(), cx)
    }
    fn run_owned(&self, args: Vec<Value>, _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let Some(Value::Array(a)) = args.first() else {
            return Err(super::common::internal("SaveNpy expects one array"));
        };
        xlet_npy::write(&self.path, a)
            .map_err(|e| KernelError::new("SaveNpy: write", format!("SaveNpy: {e}")))?;
        args.into_iter()
            .next()
            .ok_or_else(|| super::common::internal("SaveNpy expects one array"))
    }
    /// The result is the operand itself.
    fn allocates(&self) -> bool {
        false
    }
}
