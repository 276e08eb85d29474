#![allow(dead_code)]
//! The surface syntax: text → `ast::Program`.
//!
//! Three passes: `lexer::lex` (text → tokens, comments dropped), `lexer::layout`
//! (keeps a line break only where it ends a statement: outside brackets, except
//! inside a `comp` body, and not next to a continuation token), and the
//! recursive-descent `parser` (statements are the recovery points, so one run
//! reports every independent error).

mod lexer;
mod parser;



use crate::ast::{Expr, Program};
use crate::diag::Diag;
use lexer::{Lexed, Nesting, Tok};
use parser::Parser;

/// Parses a whole program. On failure, returns every syntax error found, in source order.
pub(crate) fn parse(src: &str) -> Result<Program, Vec<Diag>> {
    let lexed = lexer::lex(src);
    let toks = lexer::layout(lexed.toks);
    let mut p = Parser::new(&toks);
    p.quiet_at_eof = lexed.open_comment;
    let program = p.program();
    finish(program, p.errors, lexed.errors, &toks)
}

/// Parses a single expression (the REPL's `:type EXPR`).
pub(crate) fn parse_expr(src: &str) -> Result<Expr, Vec<Diag>> {
    let lexed = lexer::lex(src);
    let toks = lexer::layout(lexed.toks);
    let mut p = Parser::new(&toks);
    p.quiet_at_eof = lexed.open_comment;
    let e = p.lone_expr();
    match e {
        Ok(e) => finish(e, p.errors, lexed.errors, &toks),
        Err(()) => {
            let errs = collect(p.errors, lexed.errors, &toks);
            Err(if errs.is_empty() {
                vec![Diag::syntax(
                    "found an invalid expression but expected an expression",
                    0..src.len(),
                )]
            } else {
                errs
            })
        }
    }
}

fn finish<T>(
    value: T,
    parse_errors: Vec<Diag>,
    lex_errors: Vec<Diag>,
    toks: &[(Tok, std::ops::Range<usize>)],
) -> Result<T, Vec<Diag>> {
    let errs = collect(parse_errors, lex_errors, toks);
    if errs.is_empty() {
        Ok(value)
    } else {
        Err(errs)
    }
}

/// Merges the lexer's and the parser's errors, adds stray characters the parser
/// skipped over without reporting, and sorts them by position.
fn collect(
    parse_errors: Vec<Diag>,
    lex_errors: Vec<Diag>,
    toks: &[(Tok, std::ops::Range<usize>)],
) -> Vec<Diag> {
    let mut errs = lex_errors;
    errs.extend(parse_errors);
    for (tok, span) in toks {
        if let Tok::Bad(c) = tok
            && !errs.iter().any(|d| d.span.start == span.start)
        {
            errs.push(
                Diag::syntax(
                    format!(
                        "found '{}' but expected a token of the language",
                        c.escape_debug()
                    ),
                    span.clone(),
                )
                .with_label(format!("unexpected character '{}'", c.escape_debug())),
            );
        }
    }
    errs.sort_by_key(|d| d.span.start);
    errs
}

/// True when `src` is an incomplete statement the REPL should keep reading:
/// an unclosed `(`, `{`, `[` or `/*`, a `comp` header still waiting for its body,
/// or a last token that continues onto the next line (`=`, `,`, an infix operator,
/// `==>`, `>>>`, `produces:`, ...).
pub(crate) fn needs_more_input(src: &str) -> bool {
    let Lexed {
        toks,
        errors,
        open_comment,
    } = lexer::lex(src);
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
            Tok::Newline | Tok::Eof => {}
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
