//! Tokens → AST, with chumsky combinators over the token slice.
//!
//! Infix operators are five `foldl` levels (`||`, `&&`, comparisons, `+ -`, `* / %`),
//! all left-associative; prefix `-` and `!` bind tighter. Statements (and the
//! statements of a `comp` body) are the recovery points: a statement that fails is
//! skipped from the token it failed at to the next separator or statement keyword
//! outside brackets, so one run reports every independent error.
//!
//! The parser's context is the nesting depth: every prefix operator, operand and
//! type counts one level, and deeper nesting than `MAX_DEPTH` is reported
//! rather than risking the stack (here and in every later pass over the tree).
//! The parser's state (`Recovery`) tells the recoveries where the last failure was.
//!
//! The parts: `recovery` (skipping after a failed statement), `pieces` (small
//! parsers the others share), `types`, `exprs`, `statements` (and the program).

mod exprs;
mod pieces;
mod recovery;
mod statements;
mod types;

use exprs::*;
use pieces::*;
use recovery::*;
pub(crate) use statements::{lone_expr, program};
use types::*;

use super::error::{Ctx, Expect, SyntaxError, unexpected};
use super::lexer::Tok;
use crate::ast::*;
use chumsky::extra::SimpleState;
use chumsky::input::{InputRef, MappedInput};
use chumsky::prelude::*;
use xlet_core::diag::Diag;
use xlet_core::types::ElemType;

/// The token slice, each token with its byte span.
pub(crate) type In<'t> = MappedInput<'t, Tok, Span, &'t [(Tok, Span)]>;
/// Errors; what the recovery needs to know; the nesting depth.
pub(crate) type Extra = extra::Full<SyntaxError, SimpleState<Recovery>, usize>;

/// What the recoveries need to know about the parse so far.
#[derive(Default)]
pub(crate) struct Recovery {
    /// Byte offset of the token the latest failed statement failed at.
    failed_at: usize,
    /// The `comp` just parsed had errors in its body: what follows it on its line is
    /// skipped without complaint, as when any other statement fails.
    body_failed: bool,
}

/// Deeper nesting than this is reported instead of risking the stack.
const MAX_DEPTH: usize = 128;

fn split(tok: &(Tok, Span)) -> (&Tok, &Span) {
    (&tok.0, &tok.1)
}

/// Runs `parser` over `toks`; `len` is the length of the text, where the end of input is.
pub(crate) fn run<'t, O>(
    parser: impl Parser<'t, In<'t>, O, Extra>,
    toks: &'t [(Tok, Span)],
    len: usize,
) -> (Option<O>, Vec<SyntaxError>) {
    let split: fn(&'t (Tok, Span)) -> (&'t Tok, &'t Span) = split;
    let input = toks.map(len..len, split);
    let mut recovery = SimpleState(Recovery::default());
    parser
        .parse_with_state(input, &mut recovery)
        .into_output_errors()
}
