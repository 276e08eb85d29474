//! Infeed text files: typed literals as the language writes them, one after
//! another (spaces, line breaks or `;` between them; `//` comments allowed):
//!
//! ```text
//! f32[2] {1, 2}  s32 7
//! (f32[2], s32) ({1, 2}, 5)
//! ```
//!
//! The text is read by the language's own parser (`syntax::parse_value_run`,
//! or `syntax::parse` for its error messages) and checker, then each literal
//! is evaluated.

use std::ops::Range;
use std::path::Path;
use xlet_check::{Limits, TypeEnv, check_expr};
use xlet_core::diag::LineIndex;
use xlet_core::value::Value;
use xlet_eval::{Env, eval_top};
use xlet_syntax::ast::{Expr, ExprKind, StmtKind};

/// The file's values, each with the line it starts on.
pub fn read(path: &Path) -> Result<Vec<(Value, usize)>, String> {
    let src = crate::source::read_file(path).map_err(|e| e.to_string())?;
    parse(&src).map_err(|why| format!("{}:{why}", path.display()))
}

/// `src`'s values; an error is `LINE: message`.
pub fn parse(src: &str) -> Result<Vec<(Value, usize)>, String> {
    let lines = LineIndex::new(src);
    let line = |span: &Range<usize>| lines.line_col(src, span.start).0;
    let exprs: Vec<Expr> = match xlet_syntax::parse_value_run(src) {
        Some(es) => es,
        None => {
            // Not a run of values: the program parser says why (a syntax
            // error), or finds statements that are not values.
            let prog = xlet_syntax::parse(src).map_err(|ds| {
                ds.first()
                    .map(|d| format!("{}: {}", line(&d.span), d.message))
                    .unwrap_or_default()
            })?;
            let mut es = vec![];
            for s in prog.stmts {
                match s.kind {
                    StmtKind::Expr(e) => es.push(e),
                    _ => return Err(not_a_literal(line(&s.span))),
                }
            }
            es
        }
    };
    if exprs.is_empty() {
        return Err("1: holds no value (write typed literals such as f32[2] {1, 2})".into());
    }
    let (types, limits, env) = (TypeEnv::default(), Limits::default(), Env::default());
    let mut out = vec![];
    for e in &exprs {
        if !matches!(e.kind, ExprKind::Typed { .. }) {
            return Err(not_a_literal(line(&e.span)));
        }
        let at = |d: xlet_core::diag::Diag| format!("{}: {}", line(&d.span), d.message);
        let checked = check_expr(e, &types, src, &limits).map_err(at)?;
        out.push((eval_top(&checked, &env).map_err(at)?, line(&e.span)));
    }
    Ok(out)
}

fn not_a_literal(line: usize) -> String {
    format!(
        "{line}: is not a typed literal: an infeed text file holds values such as \
         `f32[2] {{1, 2}}` or `s32 7`, nothing else"
    )
}
