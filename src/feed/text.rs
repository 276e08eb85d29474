//! Infeed text files: typed literals as the language writes them, one value per
//! statement (line breaks or `;` between them; `//` comments allowed):
//!
//! ```text
//! f32[2] {1, 2}
//! s32 7; (f32[2], s32) ({1, 2}, 5)
//! ```
//!
//! The text is read by the language's own parser and checker (a file of such
//! values is a program of bare expressions), then each literal is evaluated.

use crate::ast::{ExprKind, StmtKind};
use crate::check::Limits;
use crate::diag::{Diag, LineIndex};
use crate::eval::{Env, eval_top};
use crate::ir;
use crate::session::Session;
use crate::value::Value;
use std::path::Path;

/// The file's values, each with the line it starts on.
pub fn read(path: &Path) -> Result<Vec<(Value, usize)>, String> {
    let src = crate::source::read_file(path).map_err(|e| e.to_string())?;
    parse(&src).map_err(|why| format!("{}:{why}", path.display()))
}

/// `src`'s values; an error is `LINE: message`.
pub fn parse(src: &str) -> Result<Vec<(Value, usize)>, String> {
    let lines = LineIndex::new(src);
    let at = |d: &Diag| {
        let (line, _) = lines.line_col(src, d.span.start);
        format!("{line}: {}", d.message)
    };
    let prog = crate::syntax::parse(src).map_err(|ds| ds.first().map(at).unwrap_or_default())?;
    if prog.stmts.is_empty() {
        return Err("1: holds no value (write typed literals such as f32[2] {1, 2})".into());
    }
    for s in &prog.stmts {
        let literal =
            matches!(&s.kind, StmtKind::Expr(e) if matches!(e.kind, ExprKind::Typed { .. }));
        if !literal {
            let d = Diag::syntax("", s.span.clone());
            return Err(format!(
                "{}: is not a typed literal: an infeed text file holds values such as \
                 `f32[2] {{1, 2}}` or `s32 7`, nothing else",
                at(&d).trim_end_matches(": ")
            ));
        }
    }
    let checked = Session::new(Limits::default())
        .check(src)
        .map_err(|f| f.diags.first().map(at).unwrap_or_default())?;
    let env = Env::default();
    let mut out = vec![];
    for s in &checked.0.stmts {
        if let ir::StmtKind::Print(e) = &s.kind {
            let v = eval_top(e, &env).map_err(|d| at(&d))?;
            out.push((v, lines.line_col(src, s.span.start).0));
        }
    }
    Ok(out)
}
