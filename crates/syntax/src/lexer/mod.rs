//! Text → tokens (a chumsky parser over the characters), then the newline pass
//! that decides which line breaks end a statement.
//!
//! The parts: `general` (the lexemes as combinators: the definition of the
//! tokens), `fast_path` (the common lexemes read by hand, in batches), `layout`
//! (which line breaks end a statement).

mod fast_path;
mod general;
mod layout;
#[cfg(test)]
mod tests;

pub(crate) use layout::{Nesting, layout};

use crate::ast::{NumRun, Span};
use chumsky::prelude::*;
use std::sync::Arc;
use xlet_core::diag::Diag;

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tok {
    /// Digits only: `5`, `007`.
    Int(String),
    /// With a point or an exponent (`2.5`, `5.`, `1e-3`), or `inf` / `nan`.
    Float(String),
    /// `4x2x3`: dimensions in the docs' form.
    Dims(String),
    Ident(String),
    Str(String),
    Let,
    Comp,
    Then,
    Within,
    True,
    False,
    /// `produces:` (the colon may follow after spaces).
    Produces,
    LParen,
    RParen,
    LBrace,
    RBrace,
    LBracket,
    RBracket,
    Comma,
    Semi,
    Newline,
    Colon,
    Assign,
    Arrow,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    EqEq,
    NotEq,
    Lt,
    Le,
    Gt,
    Ge,
    AndAnd,
    OrOr,
    Bang,
    /// `~=`
    Approx,
    /// `==>`
    Implies,
    /// `>>>`
    Chevrons,
    /// A character that is not part of the language; the parser reports it in context.
    Bad(char),
    /// A malformed token the lexer has already reported.
    Error,
    /// `{1, -2.5, 3e-3}`: a whole brace of plain numbers read at once (see `fast_run`);
    /// it stands for the `{`, numbers, `-`, `,` and `}` tokens it spans.
    NumRun(Arc<NumRun>),
}

impl Tok {
    /// How a diagnostic names the token.
    pub(crate) fn describe(&self) -> String {
        let text = match self {
            Tok::Int(t) | Tok::Float(t) | Tok::Dims(t) | Tok::Ident(t) => t.as_str(),
            Tok::Str(s) => {
                let short: String = s.chars().take(24).collect();
                let dots = if short.len() < s.len() { "..." } else { "" };
                return format!("string \"{short}{dots}\"");
            }
            Tok::Newline => return "end of line".to_string(),
            Tok::Error => return "an invalid token".to_string(),
            Tok::Bad(c) => return format!("'{}'", c.escape_debug()),
            other => other.punct_text(),
        };
        format!("'{text}'")
    }

    fn punct_text(&self) -> &'static str {
        match self {
            Tok::Let => "let",
            Tok::Comp => "comp",
            Tok::Then => "then",
            Tok::Within => "within",
            Tok::True => "true",
            Tok::False => "false",
            Tok::Produces => "produces:",
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::LBrace | Tok::NumRun(_) => "{",
            Tok::RBrace => "}",
            Tok::LBracket => "[",
            Tok::RBracket => "]",
            Tok::Comma => ",",
            Tok::Semi => ";",
            Tok::Colon => ":",
            Tok::Assign => "=",
            Tok::Arrow => "->",
            Tok::Plus => "+",
            Tok::Minus => "-",
            Tok::Star => "*",
            Tok::Slash => "/",
            Tok::Percent => "%",
            Tok::EqEq => "==",
            Tok::NotEq => "!=",
            Tok::Lt => "<",
            Tok::Le => "<=",
            Tok::Gt => ">",
            Tok::Ge => ">=",
            Tok::AndAnd => "&&",
            Tok::OrOr => "||",
            Tok::Bang => "!",
            Tok::Approx => "~=",
            Tok::Implies => "==>",
            Tok::Chevrons => ">>>",
            _ => "?",
        }
    }

    fn is_sep(&self) -> bool {
        matches!(self, Tok::Semi | Tok::Newline)
    }

    /// A token after which a line break never ends the statement.
    pub(crate) fn continues_after(&self) -> bool {
        matches!(
            self,
            Tok::Assign
                | Tok::Comma
                | Tok::Colon
                | Tok::Arrow
                | Tok::Plus
                | Tok::Minus
                | Tok::Star
                | Tok::Slash
                | Tok::Percent
                | Tok::EqEq
                | Tok::NotEq
                | Tok::Lt
                | Tok::Le
                | Tok::Gt
                | Tok::Ge
                | Tok::AndAnd
                | Tok::OrOr
                | Tok::Bang
                | Tok::Approx
                | Tok::Implies
                | Tok::Chevrons
                | Tok::Produces
                | Tok::LParen
                | Tok::LBrace
                | Tok::LBracket
                | Tok::Then
                | Tok::Let
                | Tok::Comp
                | Tok::Within
        )
    }

    /// A token before which a line break never ends the statement (no statement starts with it).
    fn continues_before(&self) -> bool {
        matches!(
            self,
            Tok::Chevrons
                | Tok::Produces
                | Tok::Approx
                | Tok::Within
                | Tok::Arrow
                | Tok::Assign
                | Tok::EqEq
                | Tok::NotEq
                | Tok::Lt
                | Tok::Le
                | Tok::Gt
                | Tok::Ge
                | Tok::AndAnd
                | Tok::OrOr
                | Tok::Plus
                | Tok::Star
                | Tok::Slash
                | Tok::Percent
        )
    }
}

pub(crate) struct Lexed {
    pub toks: Vec<(Tok, Span)>,
    pub errors: Vec<Diag>,
    /// A `/*` comment runs to the end of the text.
    pub open_comment: bool,
}

/// What one step of the lexer read: a token, or nothing (spaces, comments), and
/// the problems it found on the way.
#[derive(Clone)]
struct Lexeme {
    tok: Option<Tok>,
    errors: Vec<Diag>,
    open_comment: bool,
    /// Tokens the fast path read in one go, each with its span (`tok` is then `None`).
    batch: Vec<(Tok, Span)>,
}

impl Lexeme {
    fn tok(tok: Tok) -> Self {
        Lexeme {
            tok: Some(tok),
            errors: vec![],
            open_comment: false,
            batch: vec![],
        }
    }

    fn skip() -> Self {
        Lexeme {
            tok: None,
            errors: vec![],
            open_comment: false,
            batch: vec![],
        }
    }

    /// A malformed token: reported here, an `Error` token for the parser.
    fn error(diag: Diag) -> Self {
        Lexeme {
            tok: Some(Tok::Error),
            errors: vec![diag],
            open_comment: false,
            batch: vec![],
        }
    }
}

type LexExtra = extra::Default;

fn is_ident_char(c: &char) -> bool {
    c.is_ascii_alphanumeric() || *c == '_'
}

/// One lexeme: the fast path first, then the general combinators.
fn lexeme<'src>(
    runs: bool,
    texts: Texts,
) -> impl Parser<'src, &'src str, (Lexeme, Span), LexExtra> + Clone {
    choice((fast_path::fast(runs, texts), general::general(texts))).map_with(|lexeme, e| {
        let span: SimpleSpan = e.span();
        (lexeme, span.into_range())
    })
}

/// The whole text, folded straight into `Lexed` (no list of lexemes in between:
/// a pasted literal has millions).
fn lexer<'src>(runs: bool, texts: Texts) -> impl Parser<'src, &'src str, Lexed, LexExtra> {
    empty()
        .map(|_| Lexed {
            toks: Vec::new(),
            errors: Vec::new(),
            open_comment: false,
        })
        .foldl(
            lexeme(runs, texts).repeated(),
            |mut lexed, (lexeme, span)| {
                lexed.toks.extend(lexeme.batch);
                if let Some(tok) = lexeme.tok {
                    lexed.toks.push((tok, span));
                }
                lexed.errors.extend(lexeme.errors);
                lexed.open_comment |= lexeme.open_comment;
                lexed
            },
        )
        .then_ignore(end())
}

/// Splits the text into tokens. Never fails: problems become diagnostics and `Error`/`Bad` tokens.
pub(crate) fn lex(src: &str) -> Lexed {
    lex_with(src, false, Texts::Owned)
}

/// As `lex`, but a brace of plain numbers becomes one `NumRun` token. The parser
/// accepts it wherever a brace expression may stand; anywhere else it fails, and
/// `syntax::parse` then parses the plain tokens again, so errors read as always.
pub(crate) fn lex_runs(src: &str) -> Lexed {
    lex_with(src, true, Texts::Owned)
}

/// As `lex_runs`, but names, numbers and dimensions carry no text of their own
/// (`Texts::InSource`): for the fast parser, which reads their texts from the
/// source. The grammar needs `lex_runs`.
pub(crate) fn lex_runs_bare(src: &str) -> Lexed {
    lex_with(src, true, Texts::InSource)
}

/// Whether name, number and dimension tokens own a copy of their text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Texts {
    /// Each holds its text (the grammar and the diagnostics read it).
    Owned,
    /// Each holds an empty string (which allocates nothing); its text is the
    /// source at its span. A statement-heavy program has millions of such
    /// tokens, and one allocation each cost more time and memory than the
    /// token itself.
    InSource,
}

impl Texts {
    /// The token's text: `text` itself, or nothing when the source holds it.
    fn of(self, text: &str) -> String {
        match self {
            Texts::Owned => text.to_string(),
            Texts::InSource => String::new(),
        }
    }
}

fn lex_with(src: &str, runs: bool, texts: Texts) -> Lexed {
    // Every character starts some lexeme (the last choice takes any character), so this
    // cannot fail; should it ever, say so rather than panic.
    lexer(runs, texts)
        .parse(src)
        .into_output()
        .unwrap_or_else(|| Lexed {
            toks: Vec::new(),
            errors: vec![
                Diag::syntax(
                    "found text the lexer cannot read but expected tokens",
                    0..src.len(),
                )
                .with_label("unreadable text"),
            ],
            open_comment: false,
        })
}
