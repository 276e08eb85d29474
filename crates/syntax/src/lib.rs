//! The surface syntax: text → `ast::Program`.
//!
//! Three passes: `lexer::lex` (text → tokens, comments dropped; a chumsky parser
//! over the characters), `lexer::layout` (keeps a line break only where it ends a
//! statement: outside brackets, except inside a `comp` body, and not next to a
//! continuation token), and `parser` (chumsky combinators over the tokens;
//! statements are the recovery points, so one run reports every independent error).
//! A program without errors is read by `fast`, plain recursive descent that builds
//! the same tree; anything it does not accept goes through the grammar.
//! chumsky stays inside this module: the API speaks `ast` and `Diag` only.

pub mod ast;
mod error;
mod fast;
mod lexer;
pub mod names;
mod parser;
#[cfg(test)]
mod tests;

use crate::ast::{Expr, Program, Span};
use error::SyntaxError;
use lexer::{Lexed, Nesting, Tok};
use xlet_core::diag::Diag;

/// What the parser may ask of the op table that the session assembled: an op's
/// call form by its name or an alias (ignoring case), for the help of an error
/// that calls a numpy or JAX function (`jnp.add(x, y)`). The parser knows no op.
pub trait OpIndex {
    fn call_form(&self, name: &str) -> Option<&'static str>;
}

/// No op table: errors give the general advice instead of an op's call form.
pub struct NoOps;

impl OpIndex for NoOps {
    fn call_form(&self, _: &str) -> Option<&'static str> {
        None
    }
}

/// Parses a whole program. On failure, returns every syntax error found, in source order.
pub fn parse(src: &str) -> Result<Program, Vec<Diag>> {
    parse_with(src, &NoOps)
}

/// `parse`, with an op table for the help of errors.
pub fn parse_with(src: &str, ops: &dyn OpIndex) -> Result<Program, Vec<Diag>> {
    // Braces of plain numbers as single tokens first (fast for pasted weights); if that
    // fails anywhere, the plain tokens again, so every error reads as it always has.
    // Programs without errors: the fast path reads them (see `fast`), from
    // tokens without texts of their own; the grammar reads tokens with texts,
    // freshly made.
    let lexed = lexer::lex_runs_bare(src);
    interrupted(src)?;
    if lexed.errors.is_empty() && !lexed.open_comment {
        let mut toks = lexer::layout(lexed.toks);
        if let Some(program) = fast::program(src, &mut toks) {
            return Ok(program);
        }
    } else {
        drop(lexed.toks);
    }
    interrupted(src)?;
    let lexed = lexer::lex_runs(src);
    let toks = lexer::layout(lexed.toks);
    interrupted(src)?;
    let (found, errors) = parser::run(parser::program(), &toks, src.len());
    interrupted(src)?;
    if let Some(found) = found
        && collect(errors, lexed.errors, lexed.open_comment, &toks, ops).is_empty()
    {
        return Ok(found);
    }
    drop(toks);
    interrupted(src)?;
    let lexed = lexer::lex(src);
    let toks = lexer::layout(lexed.toks);
    interrupted(src)?;
    let (program, errors) = parser::run(parser::program(), &toks, src.len());
    interrupted(src)?;
    let errs = collect(errors, lexed.errors, lexed.open_comment, &toks, ops);
    match program {
        Some(program) if errs.is_empty() => Ok(program),
        _ => Err(or_else(
            errs,
            "found text that is not a program but expected statements",
            src,
        )),
    }
}

/// Ctrl-C between the parser's passes: an error with code `interrupted`; or
/// more memory live than the budget allows (a huge program's tree, a
/// gradient's generated program): an error with code `memory`.
fn interrupted(src: &str) -> Result<(), Vec<Diag>> {
    if xlet_core::config::interrupted() {
        let mut d = Diag::syntax("interrupted", 0..src.len().min(1));
        d.code = "interrupted".into();
        return Err(vec![d]);
    }
    if xlet_core::alloc::over_budget() {
        use xlet_core::alloc::{budget, live_bytes, show_bytes};
        let mut d = Diag::syntax(
            format!(
                "out of memory budget while parsing: {} are live, the budget is {} (--max-memory)",
                show_bytes(live_bytes()),
                show_bytes(budget())
            ),
            0..src.len().min(1),
        );
        d.code = "memory".into();
        return Err(vec![
            d.with_help("raise --max-memory, or split the program"),
        ]);
    }
    Ok(())
}

/// Whether parsing must stop at once: Ctrl-C, or the memory budget exceeded.
/// Checked before every atom; `interrupted` then says which.
pub(crate) fn must_stop() -> bool {
    xlet_core::config::interrupted() || xlet_core::alloc::over_budget()
}

/// Parses a single expression (the REPL's `:type EXPR`).
pub fn parse_expr(src: &str) -> Result<Expr, Vec<Diag>> {
    parse_expr_with(src, &NoOps)
}

/// `parse_expr`, with an op table for the help of errors.
pub fn parse_expr_with(src: &str, ops: &dyn OpIndex) -> Result<Expr, Vec<Diag>> {
    let lexed = lexer::lex_runs_bare(src);
    if lexed.errors.is_empty() && !lexed.open_comment {
        let mut toks = lexer::layout(lexed.toks);
        if let Some(expr) = fast::lone_expr(src, &mut toks) {
            return Ok(expr);
        }
    } else {
        drop(lexed.toks);
    }
    let lexed = lexer::lex_runs(src);
    let toks = lexer::layout(lexed.toks);
    let (found, errors) = parser::run(parser::lone_expr(), &toks, src.len());
    if let Some(found) = found
        && collect(errors, lexed.errors, lexed.open_comment, &toks, ops).is_empty()
    {
        return Ok(found);
    }
    drop(toks);
    let lexed = lexer::lex(src);
    let toks = lexer::layout(lexed.toks);
    let (expr, errors) = parser::run(parser::lone_expr(), &toks, src.len());
    let errs = collect(errors, lexed.errors, lexed.open_comment, &toks, ops);
    match expr {
        Some(expr) if errs.is_empty() => Ok(expr),
        _ => Err(or_else(
            errs,
            "found an invalid expression but expected an expression",
            src,
        )),
    }
}

/// Values written one after another, separated by spaces alone or by line
/// breaks and `;` (`f32[2] {1, 2}  s32 7`): an infeed text file
/// (`feed::text`). `None` if the text is not such a run; `parse` then says
/// what is wrong with it.
pub fn parse_value_run(src: &str) -> Option<Vec<Expr>> {
    let lexed = lexer::lex_runs_bare(src);
    if !lexed.errors.is_empty() || lexed.open_comment {
        return None;
    }
    let mut toks = lexer::layout(lexed.toks);
    fast::values(src, &mut toks)
}

/// A failure must say something, even if everything it found was already reported
/// elsewhere and filtered out.
fn or_else(errs: Vec<Diag>, message: &str, src: &str) -> Vec<Diag> {
    if errs.is_empty() {
        vec![Diag::syntax(message, 0..src.len()).with_label("not understood")]
    } else {
        errs
    }
}

/// Merges the lexer's and the parser's errors, adds stray characters the parser
/// skipped over without reporting, and sorts them by position. Parser errors about
/// what the lexer already reported are dropped, and so is any second parser error
/// at the same place.
fn collect(
    parse_errors: Vec<SyntaxError>,
    lex_errors: Vec<Diag>,
    open_comment: bool,
    toks: &[(Tok, Span)],
    ops: &dyn OpIndex,
) -> Vec<Diag> {
    let mut errs = lex_errors;
    // Where errors already stand: a set, so that many errors cost linear time.
    let mut at: std::collections::HashSet<usize> = errs.iter().map(|d| d.span.start).collect();
    let mut reported: std::collections::HashSet<usize> = std::collections::HashSet::new();
    for err in parse_errors {
        if err.already_reported(toks, open_comment) {
            continue;
        }
        let diag = err.into_diag(toks, ops);
        if reported.insert(diag.span.start) {
            at.insert(diag.span.start);
            errs.push(diag);
        }
    }
    // A run of adjacent stray characters is one error (a 2 MB line of `$` made
    // two million diagnostics, 1.1 GB).
    let mut i = 0;
    while i < toks.len() {
        let (Tok::Bad(c), span) = &toks[i] else {
            i += 1;
            continue;
        };
        let mut end = span.end;
        let mut j = i + 1;
        while let Some((Tok::Bad(_), s)) = toks.get(j)
            && s.start == end
        {
            end = s.end;
            j += 1;
        }
        if at.insert(span.start) {
            let d = if j == i + 1 {
                Diag::syntax(
                    format!(
                        "found '{}' but expected a token of the language",
                        c.escape_debug()
                    ),
                    span.clone(),
                )
                .with_label(format!("unexpected character '{}'", c.escape_debug()))
            } else {
                Diag::syntax(
                    format!(
                        "found {} stray characters, starting with '{}', but expected a token of the language",
                        j - i,
                        c.escape_debug()
                    ),
                    span.start..end,
                )
                .with_label("unexpected characters")
            };
            errs.push(d);
        }
        i = j;
    }
    errs.sort_by_key(|d| d.span.start);
    errs
}

/// True when `src` is an incomplete statement the REPL should keep reading:
/// an unclosed `(`, `{`, `[` or `/*`, a `comp` header still waiting for its body,
/// or a last token that continues onto the next line (`=`, `,`, an infix operator,
/// `==>`, `>>>`, `produces:`, ...).
pub fn needs_more_input(src: &str) -> bool {
    let Lexed {
        toks,
        errors,
        open_comment,
    } = lexer::lex_runs_bare(src);
    if open_comment {
        return true;
    }
    if !errors.is_empty() {
        return false;
    }
    let mut nest = Nesting::default();
    let mut last: Option<&Tok> = None;
    for (tok, _) in &toks {
        match tok {
            Tok::Bad(_) => return false,
            Tok::Newline => {}
            _ => {
                nest.step(tok);
                last = Some(tok);
            }
        }
    }
    if nest.mismatched {
        return false;
    }
    if !nest.stack.is_empty() || nest.comp_pending.is_some() {
        return true;
    }
    last.is_some_and(|t| t.continues_after())
}
