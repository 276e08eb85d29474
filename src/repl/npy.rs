//! The REPL's file commands (spec/commands.md, spec/npy.md): `:infeed FILE`,
//! `:npy NAME FILE` and `:save NAME FILE`.

use super::{Outcome, Repl, complain, say};
use crate::exit::Exit;
use std::path::Path;
use xlet_core::types::Type;
use xlet_core::value::Value;
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

/// `:npy NAME FILE`: binds the file's array as `let NAME = ...` would.
pub(super) fn bind(repl: &mut Repl, name: &str, path: &Path) -> Outcome {
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
    let info = match xlet_npy::read_info(path) {
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
    match xlet_npy::read(path) {
        Ok(a) => {
            repl.session
                .types
                .globals
                .insert(name.to_string(), ty.clone());
            repl.session
                .env
                .values
                .insert(name.to_string(), Value::Array(a));
            say(&format!("{name}: {ty} (from {})", path.display()));
            Outcome::Done
        }
        Err(e) => {
            complain(&format!("error: {e}"));
            Outcome::Failed(Exit::Usage)
        }
    }
}

/// `:save NAME FILE`: writes a bound array (C order, little-endian).
pub(super) fn save(repl: &mut Repl, name: &str, path: &Path) -> Outcome {
    let Some(v) = repl.session.env.values.get(name) else {
        complain(&format!(
            "error: `{name}` is not bound to a value (see :vars)"
        ));
        return Outcome::Failed(Exit::Usage);
    };
    let Value::Array(a) = v else {
        complain(&format!(
            "error: `{name}` is a tuple; .npy holds one array: save its elements, \
             e.g. let e0 = GetTupleElement({name}, 0) then :save e0 FILE"
        ));
        return Outcome::Failed(Exit::Usage);
    };
    match xlet_npy::write(path, a) {
        Ok(()) => {
            say(&format!(
                "{name}: {} written to {}",
                a.array_type(),
                path.display()
            ));
            Outcome::Done
        }
        Err(e) => {
            complain(&format!("error: {e}"));
            Outcome::Failed(Exit::Usage)
        }
    }
}
