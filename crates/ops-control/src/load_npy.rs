//! LoadNpy (spec/npy.md), an xlet extension, not an XLA op:
//! `LoadNpy("weights.npy")` is the array a numpy file holds,
//! `LoadNpy("arrays.npz", "x")` the array `x` of an archive, and `type=f8e4m3fn`
//! reads the elements as that type (the small types, which numpy's files do not
//! name). The checker reads the file's header, so the type is known before
//! anything runs (or takes it from a SaveNpy of the same path earlier in the
//! program); the data is read when the expression is evaluated.

use super::registry::{Checked, OpDef, OpId};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::{ArrayType, ElemType, Type};
use xlet_core::value::Value;
use xlet_ir::{EvalCx, Kernel, KernelError};
use xlet_npy::{Problem, Source};
use xlet_syntax::ast::ExprKind;

const SPEC: &str = include_str!("../../../spec/npy.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::LoadNpy,
    aliases: &[],
    signature: "LoadNpy(file, key, type)",
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
    let key = match cx.take(Some(1), "key")? {
        None => None,
        Some(k) => match &k.kind {
            ExprKind::Str(s) => Some(s.clone()),
            _ => {
                return Err(cx
                    .err(
                        "C1",
                        format!(
                            "`key` must be an array's name in quotes, found `{}`",
                            cx.text(&k.span)
                        ),
                        k.span.clone(),
                    )
                    .with_label("not a string")
                    .with_help(
                        "name the array of the .npz archive: LoadNpy(\"arrays.npz\", \"x\")",
                    ));
            }
        },
    };
    let as_type = cx.opt_elem_type(None, "type")?;
    let path = PathBuf::from(name);
    // A file this program saves before this point: its type is the saved
    // array's (the file is written only when the program runs).
    if key.is_none()
        && let Some(saved) = cx.ck.files_written.get(&path).cloned()
    {
        if let Some(t) = &as_type
            && t.value.byte_size() != saved.elem.byte_size()
        {
            return Err(cx
                .err(
                    "C3",
                    format!(
                        "`type` is {}, but the program saves {saved} to this file, whose elements are {} bytes",
                        t.value,
                        saved.elem.byte_size()
                    ),
                    t.span.clone(),
                )
                .with_label(format!("{}", t.value)));
        }
        let elem = as_type.map_or(saved.elem, |t| t.value);
        let ty = ArrayType::new(elem, saved.dims.clone());
        return Ok(Checked {
            ty: Type::Array(ty.clone()),
            kernel: Arc::new(LoadKernel {
                path,
                key: None,
                // What SaveNpy wrote: the small types as V1, which needs the type.
                as_type: Some(elem),
                ty,
            }),
        });
    }
    let beside_script = beside_script(&path, cx.ck.limits.script_dir.as_deref());
    let src = Source {
        path: &path,
        key: key.as_deref(),
        as_type: as_type.as_ref().map(|t| t.value),
    };
    let info =
        xlet_npy::read_info_from(src).map_err(|why| {
            if why.1 == Problem::TypeSize
                && let Some(t) = &as_type
            {
                return cx
                .err("C3", format!("cannot read {why}"), t.span.clone())
                .with_label(format!("{}: {}-byte elements", t.value, t.value.byte_size().max(1)))
                .with_help(
                    "`type` reinterprets the file's element bytes, so the sizes must agree: the \
                     small types (f8/f6/f4, s4/u4/s2/u2) are 1-byte V1 files, bf16 2-byte V2",
                );
            }
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
                 uint, float16/32/64, complex or ml_dtypes.bfloat16 array; other ml_dtypes \
                 types with type=, e.g. type=f8e4m3fn), or an array of an .npz archive by \
                 name; paths are relative to the current directory",
                ),
            }
        })?;
    let ty = Type::Array(info.ty.clone());
    cx.ck.check_size(&ty, &e.span)?;
    Ok(Checked {
        ty,
        kernel: Arc::new(LoadKernel {
            path,
            key,
            as_type: as_type.map(|t| t.value),
            ty: info.ty,
        }),
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
    key: Option<String>,
    as_type: Option<ElemType>,
    ty: ArrayType,
}

impl Kernel for LoadKernel {
    fn run(&self, _args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let src = Source {
            path: &self.path,
            key: self.key.as_deref(),
            as_type: self.as_type,
        };
        let a = xlet_npy::read_from(src)
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
