//! The REPL's file and printing commands (spec/commands.md, spec/npy.md,
//! spec/printing.md): `:infeed FILE`, `:npy NAME FILE [KEY] [as TYPE]`,
//! `:save EXPR FILE`, `:precision [N|full]` and `:summary EXPR`.

use super::commands::NpyArgs;
use super::{Outcome, Repl, complain, say};
use crate::exit::Exit;
use std::path::Path;
use xlet_core::types::{ElemType, Type};
use xlet_core::value::Value;
use xlet_ir as ir;
use xlet_syntax::ast::ExprKind;

/// `:infeed FILE`: the file must open now; its values are read when an
/// Infeed reaches them.
pub(super) fn infeed(repl: &mut Repl, path: &Path) -> Outcome {
    if let Err(e) = crate::feed::check_files(&[path.to_path_buf()]) {
        complain(&format!("error: {}", e.trim_start_matches("--infeed ")));
        return Outcome::Failed(Exit::Usage);
    }
    repl.session.feeds().add_infeed(path.to_path_buf());
    let n = repl.session.feeds().infeed_files().len();
    say(&format!(
        "infeed: {} queued ({} infeed file{} in this session)",
        path.display(),
        n,
        if n == 1 { "" } else { "s" }
    ));
    Outcome::Done
}

/// `:npy NAME FILE [KEY] [as TYPE]`: binds the file's array (or the
/// archive's array KEY) as `let NAME = LoadNpy(...)` would.
pub(super) fn bind(repl: &mut Repl, a: NpyArgs, path: &Path) -> Outcome {
    let name = a.name;
    let is_name = xlet_syntax::parse_expr(name)
        .is_ok_and(|e| matches!(&e.kind, ExprKind::Var(v) if v == name));
    if !is_name {
        complain(&format!(
            "error: `{name}` is not a name to bind (usage: :npy NAME FILE.npy)"
        ));
        return Outcome::Failed(Exit::Usage);
    }
    if repl.session.types.comps.contains_key(name) {
        complain(&format!(
            "error: `{name}` is a computation; choose another name or :unbind it first"
        ));
        return Outcome::Failed(Exit::Usage);
    }
    let as_type = match a.as_type {
        None => None,
        Some(t) => match ElemType::parse(t) {
            Some(t) => Some(t),
            None => {
                complain(&format!(
                    "error: `{t}` is not an element type (write e.g. `as f8e4m3fn`)"
                ));
                return Outcome::Failed(Exit::Usage);
            }
        },
    };
    let src = xlet_npy::Source {
        path,
        key: a.key,
        as_type,
    };
    let info = match xlet_npy::read_info_from(src) {
        Ok(i) => i,
        Err(e) => {
            complain(&format!("error: {e}"));
            return Outcome::Failed(Exit::Usage);
        }
    };
    let ty = Type::Array(info.ty.clone());
    let limit = repl.session.limits.max_value_bytes;
    if ty.byte_size().is_none_or(|b| b > limit) {
        complain(&format!(
            "error: {}: {ty} is larger than the --max-bytes limit of {limit} bytes",
            path.display()
        ));
        return Outcome::Failed(Exit::Usage);
    }
    match xlet_npy::read_from(src) {
        Ok(arr) => {
            repl.session
                .types
                .globals
                .insert(name.to_string(), ty.clone());
            repl.session
                .env
                .values
                .insert(name.to_string(), Value::Array(arr));
            let from = match a.key {
                Some(k) => format!("{}, array '{k}'", path.display()),
                None => path.display().to_string(),
            };
            say(&format!("{name}: {ty} (from {from})"));
            Outcome::Done
        }
        Err(e) => {
            complain(&format!("error: {e}"));
            Outcome::Failed(Exit::Usage)
        }
    }
}

/// `:save EXPR FILE`: writes the array EXPR evaluates to (C order,
/// little-endian); a bound name is the simplest EXPR.
pub(super) fn save(repl: &mut Repl, src: &str, path: &Path) -> Outcome {
    let e = match repl.session.check_expr(src) {
        Ok(e) => e,
        Err(f) => {
            repl.report(&f.diags, src);
            return Outcome::Failed(f.exit_code());
        }
    };
    if let Type::Tuple(_) = &e.ty {
        complain(&format!(
            "error: `{src}` is a tuple, {}; .npy holds one array: save its elements, \
             e.g. :save GetTupleElement({src}, 0) FILE",
            e.ty
        ));
        return Outcome::Failed(Exit::Usage);
    }
    let v = match repl.session.eval_expr(&e) {
        Ok(v) => v,
        Err(d) => {
            repl.report(&[d], src);
            return Outcome::Failed(Exit::Runtime);
        }
    };
    let Value::Array(a) = &v else {
        complain("error: internal: a value of array type is a tuple");
        return Outcome::Failed(Exit::Runtime);
    };
    match xlet_npy::write(path, a) {
        Ok(()) => {
            say(&format!(
                "{src}: {} written to {}",
                a.array_type(),
                path.display()
            ));
            Outcome::Done
        }
        Err(e) => {
            complain(&format!("error: {e}"));
            Outcome::Failed(Exit::Runtime)
        }
    }
}

/// `:precision`: shows the setting; `:precision N` prints floats with at
/// most N significant digits, `:precision full` exactly again.
pub(super) fn precision(repl: &mut Repl, arg: Option<&str>) -> Outcome {
    let show = |p: Option<u32>| match p {
        Some(n) => {
            format!("precision: {n} significant digits (`:precision full` prints floats exactly)")
        }
        None => "precision: full (floats print the shortest text that reads back exactly)".into(),
    };
    let Some(arg) = arg else {
        say(&show(repl.print.precision));
        return Outcome::Done;
    };
    let p = if arg == "full" {
        None
    } else {
        match crate::options::parse_precision(arg) {
            Ok(n) => Some(n),
            Err(e) => {
                complain(&format!("error: {e}, or `full`"));
                return Outcome::Failed(Exit::Usage);
            }
        }
    };
    repl.print.precision = p;
    repl.session.feeds().set_print(repl.print.clone());
    say(&show(p));
    Outcome::Done
}

/// `:summary EXPR`: its summary line (a tuple: one per element).
pub(super) fn summary(repl: &mut Repl, e: &ir::Expr, src: &str) -> Outcome {
    match repl.session.eval_expr(e) {
        Ok(v) => {
            for line in xlet_core::print::summary::lines(&v, repl.print.precision) {
                say(&line);
            }
            Outcome::Done
        }
        Err(d) => {
            repl.report(&[d], src);
            Outcome::Failed(Exit::Runtime)
        }
    }
}
