//! The parser's error type and its translation into `Diag`s.
//!
//! `SyntaxError` implements chumsky's `Error` and `LabelError` traits, so chumsky
//! merges the alternatives that failed at the same token into one "expected" set.
//! The labels are ours (`Expect`, `Ctx`) rather than strings, which lets `to_diag`
//! phrase the set the way the language's messages read ("found X but expected Y"),
//! and lets a complete diagnostic (`fatal`: nesting too deep, a dimension too
//! large) survive both merging and relabelling.

use super::lexer::Tok;
use crate::ast::Span;
use crate::diag::Diag;
use crate::types::ElemType;
use chumsky::DefaultExpected;
use chumsky::error::{Error, LabelError};
use chumsky::input::Input;
use chumsky::util::MaybeRef;

/// Something the parser would have accepted at the error.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Expect {
    Tok(Tok),
    /// The end of the text.
    End,
    /// An alternative not worth naming (an optional suffix, a lookahead).
    Quiet,
    Statement,
    LetName,
    CompName,
    CompParams,
    ParamName,
    ParamColon,
    ResultArrow,
    BodyOpen,
    Type,
    DimSizes,
    DimSize,
    Operator,
    Expression,
    Argument,
    /// The value after `name=` in a call.
    ArgValue,
    /// `parse_expr`: the end of the text.
    ExprEnd,
}

impl Expect {
    fn text(&self) -> String {
        let s = match self {
            Expect::Tok(Tok::Newline) => "a new line",
            Expect::Tok(t) => return t.describe(),
            Expect::End => "the end of the input",
            Expect::Quiet => "",
            Expect::Statement => "a statement ('let', 'comp', 'then' or an expression)",
            Expect::LetName => "a name after 'let'",
            Expect::CompName => "the computation's name after 'comp'",
            Expect::CompParams => "'(' and the computation's parameters",
            Expect::ParamName => "a parameter name",
            Expect::ParamColon => "':' and the parameter's type",
            Expect::ResultArrow => "'->' and the result type",
            Expect::BodyOpen => "'{' and the computation's body",
            Expect::Type => "a type such as 'f32', 'f32[2x3]' or '(f32, s32)'",
            Expect::DimSizes => "dimension sizes such as '2x3' or '2,3'",
            Expect::DimSize => "a dimension size",
            Expect::Operator => "an operator",
            Expect::Expression | Expect::ArgValue => "an expression",
            Expect::Argument => "an argument",
            // After a whole expression, an operator could always continue it.
            Expect::ExprEnd => "an operator or the end of the expression",
        };
        s.to_string()
    }

    /// Where the item goes in a list: `'let'` first, then described things,
    /// then punctuation with closing brackets last, then the end.
    fn rank(&self) -> u8 {
        match self {
            Expect::Tok(Tok::Let) => 0,
            Expect::Statement => 1,
            Expect::LetName => 2,
            Expect::CompName => 3,
            Expect::CompParams => 4,
            Expect::ParamName => 5,
            Expect::ParamColon => 6,
            Expect::ResultArrow => 7,
            Expect::BodyOpen => 8,
            Expect::Type => 9,
            Expect::DimSizes => 10,
            Expect::DimSize => 11,
            Expect::Operator => 12,
            Expect::Expression => 13,
            Expect::Argument => 14,
            Expect::ArgValue => 15,
            Expect::Tok(Tok::Colon) => 30,
            Expect::Tok(Tok::Comma) => 31,
            Expect::Tok(Tok::Semi) => 32,
            Expect::Tok(Tok::Newline) => 33,
            Expect::Tok(Tok::Assign) => 34,
            Expect::Tok(Tok::RParen) => 41,
            Expect::Tok(Tok::RBracket) => 42,
            Expect::Tok(Tok::RBrace) => 43,
            Expect::Tok(_) => 35,
            Expect::ExprEnd => 50,
            Expect::End => 51,
            Expect::Quiet => 60,
        }
    }
}

/// A construct whose opening token an error may point back to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Ctx {
    Paren,
    Brace,
    /// A call's argument list, from its `(`.
    Call,
    TypeTuple,
    Params,
    Dims,
    /// A `comp` body, from its `{`.
    Body,
}

#[derive(Clone, Debug)]
pub(crate) struct SyntaxError {
    /// The token found (or the empty span at the end).
    pub span: Span,
    found: Option<Tok>,
    expected: Vec<Expect>,
    /// A complete diagnostic that outranks any "expected" list at the same place.
    fatal: Option<Box<Diag>>,
    /// The constructs the error is inside, innermost first, with the span from their start.
    contexts: Vec<(Ctx, Span)>,
}

impl SyntaxError {
    fn new(expected: impl IntoIterator<Item = Expect>, found: Option<MaybeRef<'_, Tok>>, span: Span) -> Self {
        SyntaxError {
            span,
            found: found.map(MaybeRef::into_inner),
            expected: expected.into_iter().collect(),
            fatal: None,
            contexts: Vec::new(),
        }
    }

    /// An error that is already a finished diagnostic about the token `found`.
    pub(crate) fn fatal(diag: Diag, found: Option<Tok>) -> Self {
        SyntaxError {
            span: diag.span.clone(),
            found,
            expected: Vec::new(),
            fatal: Some(Box::new(diag)),
            contexts: Vec::new(),
        }
    }

    /// A failure at the token `found` that names nothing: it only adds to what the
    /// other alternatives there expected.
    pub(crate) fn quiet(found: Option<Tok>, span: Span) -> Self {
        SyntaxError {
            span,
            found,
            expected: vec![Expect::Quiet],
            fatal: None,
            contexts: Vec::new(),
        }
    }
}

impl<'src, I> Error<'src, I> for SyntaxError
where
    I: Input<'src, Token = Tok, Span = Span>,
{
    fn merge(mut self, other: Self) -> Self {
        if self.fatal.is_some() {
            return self;
        }
        if other.fatal.is_some() {
            return other;
        }
        for e in other.expected {
            if !self.expected.contains(&e) {
                self.expected.push(e);
            }
        }
        for c in other.contexts {
            if !self.contexts.contains(&c) {
                self.contexts.push(c);
            }
        }
        self
    }
}

impl<'src, I> LabelError<'src, I, DefaultExpected<'src, Tok>> for SyntaxError
where
    I: Input<'src, Token = Tok, Span = Span>,
{
    fn expected_found<E: IntoIterator<Item = DefaultExpected<'src, Tok>>>(
        expected: E,
        found: Option<MaybeRef<'src, Tok>>,
        span: Span,
    ) -> Self {
        let expected = expected.into_iter().map(|e| match e {
            DefaultExpected::Token(t) => Expect::Tok(t.into_inner()),
            DefaultExpected::EndOfInput => Expect::End,
            _ => Expect::Quiet,
        });
        SyntaxError::new(expected, found, span)
    }
}

impl<'src, I> LabelError<'src, I, Expect> for SyntaxError
where
    I: Input<'src, Token = Tok, Span = Span>,
{
    fn expected_found<E: IntoIterator<Item = Expect>>(
        expected: E,
        found: Option<MaybeRef<'src, Tok>>,
        span: Span,
    ) -> Self {
        SyntaxError::new(expected, found, span)
    }

    fn label_with(&mut self, label: Expect) {
        if self.fatal.is_none() {
            self.expected = vec![label];
        }
    }
}

impl<'src, I> LabelError<'src, I, Ctx> for SyntaxError
where
    I: Input<'src, Token = Tok, Span = Span>,
{
    fn expected_found<E: IntoIterator<Item = Ctx>>(
        _: E,
        found: Option<MaybeRef<'src, Tok>>,
        span: Span,
    ) -> Self {
        SyntaxError::new([], found, span)
    }

    fn in_context(&mut self, ctx: Ctx, span: Span) {
        self.contexts.push((ctx, span));
    }
}

pub(crate) fn describe(found: Option<&Tok>) -> String {
    found.map_or_else(|| "end of input".to_string(), Tok::describe)
}

pub(crate) fn unexpected(found: Option<&Tok>) -> String {
    match found {
        Some(Tok::Bad(_)) => format!("unexpected character {}", describe(found)),
        _ => format!("unexpected {}", describe(found)),
    }
}

fn bad_char_help(c: char) -> Option<&'static str> {
    Some(match c {
        '&' => "logical and is written '&&'",
        '|' => "logical or is written '||'",
        '~' => "approximate equality is written '~='",
        '.' => "a number needs a digit before its point: write 0.5, not .5",
        '\'' => "strings are written with double quotes",
        _ => return None,
    })
}

/// Joins "a", "a or b", "a, b or c"; with a comma before the last "or" when an item
/// has an "or" of its own.
fn join(items: &[String]) -> String {
    let Some((last, init)) = items.split_last() else {
        return "something else".to_string();
    };
    if init.is_empty() {
        return last.clone();
    }
    let or = if items.iter().any(|s| s.contains(" or ")) {
        ", or "
    } else {
        " or "
    };
    format!("{}{or}{last}", init.join(", "))
}

/// The tokens around the error, for wording that depends on them.
struct Around<'a> {
    /// The token before the error's token.
    before: Option<&'a Tok>,
    /// The one before that.
    before2: Option<&'a Tok>,
}

impl<'a> Around<'a> {
    fn at(toks: &'a [(Tok, Span)], pos: usize) -> Self {
        let idx = toks.partition_point(|(_, s)| s.start < pos);
        let tok = |back: usize| idx.checked_sub(back).and_then(|i| toks.get(i)).map(|(t, _)| t);
        Around {
            before: tok(1),
            before2: tok(2),
        }
    }
}

impl SyntaxError {
    /// Whether this error is about a token the lexer has already reported, or about
    /// the end of a text whose unclosed comment has already been reported.
    pub(crate) fn already_reported(&self, open_comment: bool) -> bool {
        match &self.found {
            Some(Tok::Error) => true,
            None => open_comment,
            Some(_) => false,
        }
    }

    pub(crate) fn into_diag(self, toks: &[(Tok, Span)]) -> Diag {
        if let Some(diag) = self.fatal {
            return *diag;
        }
        let found = self.found.as_ref();
        let around = Around::at(toks, self.span.start);
        let has = |e: &Expect| self.expected.contains(e);

        let mut items: Vec<&Expect> = self
            .expected
            .iter()
            .filter(|e| **e != Expect::Quiet)
            // Inside a list, after an item, the list's punctuation is what is missing.
            .filter(|e| !(**e == Expect::Operator && has(&Expect::Tok(Tok::Comma))))
            // A type may always be followed by ')' in a tuple; no need to say so.
            .filter(|e| !(**e == Expect::Tok(Tok::RParen) && has(&Expect::Type)))
            .filter(|e| !(**e == Expect::Operator && has(&Expect::ExprEnd)))
            .collect();
        items.sort_by_key(|e| e.rank());
        let only = |e: &Expect| items.len() == 1 && items[0] == e;
        let mut texts: Vec<String> = Vec::new();
        for e in &items {
            let t = e.text();
            if !texts.contains(&t) {
                texts.push(t);
            }
        }
        let mut expected = join(&texts);
        if texts.len() == 2
            && has(&Expect::Expression)
            && has(&Expect::Tok(Tok::RBrace))
            && !has(&Expect::Tok(Tok::Let))
            && around.before == Some(&Tok::Comma)
        {
            expected.push_str(" after ','");
        }

        let desc = describe(found);
        let mut diag = Diag::syntax(format!("found {desc} but expected {expected}"), self.span.clone())
            .with_label(unexpected(found));

        if let Some(secondary) = self.secondary(toks) {
            diag = diag.with_secondary(secondary.0, secondary.1);
        }

        let separator = has(&Expect::Tok(Tok::Semi)) && !has(&Expect::Tok(Tok::RBrace));
        let help = match found {
            Some(Tok::Bad(c)) => bad_char_help(*c).map(str::to_string),
            _ => None,
        }
        .or_else(|| {
            if has(&Expect::Operator) && has(&Expect::Tok(Tok::Assign)) {
                Some("the docs' form is '==> ACTUAL = EXPECTED'".to_string())
            } else if separator && found == Some(&Tok::Assign) {
                match (around.before, around.before2) {
                    (Some(Tok::Ident(name)), None | Some(Tok::Semi | Tok::Newline))
                        if ElemType::parse(name).is_none() =>
                    {
                        Some(format!("to bind a name, write 'let {name} = ...'"))
                    }
                    _ => Some("to compare values, write '=='".to_string()),
                }
            } else if separator {
                Some("statements are separated by ';' or new lines".to_string())
            } else if only(&Expect::Type) && matches!(found, Some(Tok::Ident(_))) {
                Some(
                    "element types are pred s8 s16 s32 s64 u8 u16 u32 u64 f16 bf16 f32 f64"
                        .to_string(),
                )
            } else if only(&Expect::ParamColon) {
                match around.before {
                    Some(Tok::Ident(name)) => Some(format!("parameters are written '{name}: TYPE'")),
                    _ => None,
                }
            } else if only(&Expect::Tok(Tok::RBrace)) && found.is_some() {
                Some("the result expression must be the last thing in the body".to_string())
            } else {
                None
            }
        });
        if let Some(h) = help {
            diag = diag.with_help(h);
        }
        diag
    }

    /// Points back at the bracket a list error belongs to: the innermost construct the
    /// error is in, when what is missing is that construct's next item or its closer.
    fn secondary(&self, toks: &[(Tok, Span)]) -> Option<(Span, String)> {
        let has = |e: &Expect| self.expected.contains(e);
        let (ctx, span) = self.contexts.first()?;
        let open = span.start..span.start + 1;
        let not_closed = |text: &str| Some((open.clone(), format!("the '{text}' opened here is not closed")));
        match ctx {
            Ctx::Paren | Ctx::Brace => {
                let (text, closer) = if *ctx == Ctx::Paren {
                    ("(", Tok::RParen)
                } else {
                    ("{", Tok::RBrace)
                };
                if !has(&Expect::Tok(closer)) {
                    None
                } else if has(&Expect::Expression) {
                    Some((open, format!("in the '{text}' opened here")))
                } else {
                    not_closed(text)
                }
            }
            Ctx::Call => {
                if has(&Expect::Argument) || has(&Expect::ArgValue) {
                    let idx = toks.partition_point(|(_, s)| s.start < span.start);
                    let name = match idx.checked_sub(1).and_then(|i| toks.get(i)) {
                        Some((Tok::Ident(name), _)) => name.as_str(),
                        _ => "the call",
                    };
                    Some((open, format!("in the arguments of '{name}'")))
                } else if has(&Expect::Tok(Tok::RParen)) {
                    not_closed("(")
                } else {
                    None
                }
            }
            Ctx::TypeTuple | Ctx::Params => {
                let item = if *ctx == Ctx::Params {
                    Expect::ParamName
                } else {
                    Expect::Type
                };
                (has(&Expect::Tok(Tok::RParen)) && !has(&item)).then(|| not_closed("("))?
            }
            Ctx::Dims => (has(&Expect::Tok(Tok::RBracket))
                && !has(&Expect::DimSize)
                && !has(&Expect::DimSizes))
            .then(|| not_closed("["))?,
            Ctx::Body => (self.found.is_none() && has(&Expect::Tok(Tok::RBrace))).then(|| {
                (
                    open.clone(),
                    "the body's '{' opened here is not closed".to_string(),
                )
            }),
        }
    }
}
