//! LoadNpy (spec/npy.md), an xlet extension, not an XLA op:
//! `LoadNpy("weights.npy")` is the array a numpy file holds. The checker reads
//! the file's header, so the type is known before anything runs; the data is
//! read when the expression is evaluated.

use super::registry::{Checked, OpDef, OpId};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::{ArrayType, Type};
use xlet_core::value::Value;
use xlet_ir::{EvalCx, Kernel, KernelError};
use xlet_syntax::ast::ExprKind;

const SPEC: &str = include_str!("../../../spec/npy.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::LoadNpy,
    aliases: &[],
    signature: "LoadNpy(file)",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let e = cx.require(Some(0), "file")?;
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
            .with_help("write the path in double quotes: LoadNpy(\"x.npy\")"));
    };
    let path = PathBuf::from(name);
    let beside_script = beside_script(&path, cx.ck.limits.script_dir.as_deref());
    let info = xlet_npy::read_info(&path).map_err(|why| {
        let d = cx
            .err("C2", format!("cannot use {why}"), e.span.clone())
            .with_label("this file");
        match &beside_script {
            Some(there) => d.with_help(format!(
                "paths are relative to the current directory, not to the script; the file is \
                 next to the script: LoadNpy(\"{}\") reads it from here",
                there
                    .display()
                    .to_string()
                    .replace('\\', "\\\\")
                    .replace('"', "\\\"")
            )),
            None => d.with_help(
                "LoadNpy reads a .npy file of one xlet element type (np.save of a bool, int, \
                 uint, float16/32/64 or ml_dtypes.bfloat16 array); paths are relative to the \
                 current directory",
            ),
        }
    })?;
    let ty = Type::Array(info.ty.clone());
    cx.ck.check_size(&ty, &e.span)?;
    Ok(Checked {
        ty,
        kernel: Arc::new(LoadKernel { path, ty: info.ty }),
    })
}

/// `path` joined to the script's folder, when `path` is relative, names no file
/// here, and names one there: the path that would work.
fn beside_script(path: &Path, script_dir: Option<&Path>) -> Option<PathBuf> {
    let dir = script_dir?;
    if path.is_absolute() || path.exists() {
        return None;
    }
    let there = dir.join(path);
    there.is_file().then_some(there)
}

struct LoadKernel {
    path: PathBuf,
    ty: ArrayType,
}

impl Kernel for LoadKernel {
    fn run(&self, _args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let a = xlet_npy::read(&self.path)
            .map_err(|e| KernelError::new("LoadNpy: C2", format!("LoadNpy: {e}")))?;
        // The file may have changed since the checker read its header.
        if a.array_type() != self.ty {
            return Err(KernelError::new(
                "LoadNpy: C2",
                format!(
                    "LoadNpy: {} now holds {}, but it held {} when the program was checked",
                    self.path.display(),
                    a.array_type(),
                    self.ty
                ),
            ));
        }
        Ok(Value::Array(a))
    }
    /// `npy::read` admits the array's memory before allocating it.
    fn allocates(&self) -> bool {
        false
    }
}
