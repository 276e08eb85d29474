//! Text → tokens (a chumsky parser over the characters), then the newline pass
//! that decides which line breaks end a statement.

use crate::ast::{NumRun, Span};
use crate::diag::Diag;
use chumsky::input::InputRef;
use chumsky::prelude::*;
use std::sync::Arc;

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

/// How a number-like word ended, before looking for letters glued to it.
#[derive(Clone, Copy)]
enum NumShape {
    Int,
    Float,
    Dims,
    /// `1e`, `1e+`, `1ex`: an exponent without digits.
    BadExponent,
    /// `2x`, `4x2x`: a dimension size missing after the last `x`.
    BadDims,
}

/// `5`, `2.5`, `1e-3`, `4x2x3`, and their malformed variants.
fn number<'src>() -> impl Parser<'src, &'src str, Lexeme, LexExtra> + Clone {
    let digits = text::digits(10);
    let ident_char = any().filter(is_ident_char);
    let frac = just('.').then(digits.or_not());
    let exp_head = one_of("eE").then(one_of("+-").or_not());
    let exponent = exp_head.then(digits);
    let bad_exponent = exp_head.then(ident_char.repeated());
    let dim = just('x').then(digits);
    let dangling_x = just('x').then(ident_char.not());
    let shape = choice((
        frac.or_not().then(exponent).to(NumShape::Float),
        frac.or_not().then(bad_exponent).to(NumShape::BadExponent),
        frac.to(NumShape::Float),
        dim.repeated().then(dangling_x).to(NumShape::BadDims),
        dim.repeated().at_least(1).to(NumShape::Dims),
        empty().to(NumShape::Int),
    ));
    digits
        .ignore_then(shape)
        .then(ident_char.repeated().at_least(1).or_not())
        .map_with(|(shape, glued), e| {
            let text: &str = e.slice();
            let span: SimpleSpan = e.span();
            let span: Span = span.into_range();
            if glued.is_some() {
                return Lexeme::error(
                    Diag::syntax(
                        format!(
                            "found '{text}' but expected a number, dimensions such as 4x2 or a name"
                        ),
                        span,
                    )
                    .with_label("malformed number")
                    .with_help(
                        "names cannot start with a digit; hexadecimal numbers are not supported",
                    ),
                );
            }
            let text = text.to_string();
            match shape {
                NumShape::Int => Lexeme::tok(Tok::Int(text)),
                NumShape::Float => Lexeme::tok(Tok::Float(text)),
                NumShape::Dims => Lexeme::tok(Tok::Dims(text)),
                NumShape::BadExponent => Lexeme::error(
                    Diag::syntax(
                        format!("found the number '{text}' but expected digits in its exponent"),
                        span,
                    )
                    .with_label("malformed number")
                    .with_help("an exponent is written like 1e-3 or 2.5E+10"),
                ),
                NumShape::BadDims => Lexeme::error(
                    Diag::syntax(
                        format!(
                            "found the dimensions '{text}' but expected a size after the last 'x'"
                        ),
                        span,
                    )
                    .with_label("a dimension size is missing here")
                    .with_help("dimensions are written like 4x2x3 (or 4,2,3)"),
                ),
            }
        })
}

/// Names and keywords; `produces` directly followed by `:` (spaces allowed) is one token.
fn word<'src>() -> impl Parser<'src, &'src str, Lexeme, LexExtra> + Clone {
    let produces_colon = just("produces")
        .then(any().filter(is_ident_char).not())
        .then(one_of(" \t").repeated())
        .then(just(':'))
        .to(Tok::Produces);
    let name = text::ascii::ident().map(|w: &str| match w {
        "let" => Tok::Let,
        "comp" => Tok::Comp,
        "then" => Tok::Then,
        "within" => Tok::Within,
        "true" => Tok::True,
        "false" => Tok::False,
        "inf" | "nan" => Tok::Float(w.to_string()),
        _ => Tok::Ident(w.to_string()),
    });
    produces_colon.or(name).map(Lexeme::tok)
}

/// One piece of a string's body.
#[derive(Clone)]
enum StrPiece {
    Char(char),
    BadEscape(Diag),
}

/// `"..."` with the escapes `\" \\ \n \t`; it must end on the line it starts.
fn string<'src>() -> impl Parser<'src, &'src str, Lexeme, LexExtra> + Clone {
    let escape = just('\\').ignore_then(choice((
        just('"').to(StrPiece::Char('"')),
        just('\\').to(StrPiece::Char('\\')),
        just('n').to(StrPiece::Char('\n')),
        just('t').to(StrPiece::Char('\t')),
        none_of('\n').map_with(|c: char, e| {
            let span: SimpleSpan = e.span();
            let span: Span = span.into_range();
            // The span covers the backslash too.
            let span = span.start - 1..span.end;
            StrPiece::BadEscape(
                Diag::syntax(
                    format!(
                        "found the escape '\\{}' but expected one of \\\" \\\\ \\n \\t",
                        c.escape_debug()
                    ),
                    span,
                )
                .with_label("unknown escape"),
            )
        }),
    )));
    let piece = none_of("\"\\\n").map(StrPiece::Char).or(escape);
    let closed = just('"').to(true);
    // Unterminated: the string runs to the end of the line.
    let unclosed = none_of('\n').repeated().to(false);
    just('"')
        .ignore_then(piece.repeated().collect::<Vec<_>>())
        .then(closed.or(unclosed))
        .map_with(|(pieces, closed), e| {
            let span: SimpleSpan = e.span();
            let span: Span = span.into_range();
            let mut text = String::new();
            let mut errors = Vec::new();
            for piece in pieces {
                match piece {
                    StrPiece::Char(c) => text.push(c),
                    StrPiece::BadEscape(d) => errors.push(d),
                }
            }
            let tok = if closed && errors.is_empty() {
                Tok::Str(text)
            } else {
                Tok::Error
            };
            if !closed {
                errors.push(
                    Diag::syntax(
                        "found a string that is never closed but expected '\"' before the end of the line",
                        span,
                    )
                    .with_label("unterminated string"),
                );
            }
            Lexeme {
                tok: Some(tok),
                errors,
                open_comment: false,
                batch: vec![],
            }
        })
}

/// `//` to the end of the line, and `/* ... */` (a line break inside one still ends a statement).
fn comment<'src>() -> impl Parser<'src, &'src str, Lexeme, LexExtra> + Clone {
    let line = just("//").then(none_of('\n').repeated()).to(Lexeme::skip());
    let block = just("/*")
        .ignore_then(any().and_is(just("*/").not()).repeated().to_slice())
        .then(just("*/").or_not())
        .map_with(|(inner, close): (&str, _), e| {
            let span: SimpleSpan = e.span();
            let span: Span = span.into_range();
            if close.is_none() {
                return Lexeme {
                    batch: vec![],
                    tok: None,
                    errors: vec![
                        Diag::syntax(
                            "found a '/*' comment that is never closed but expected '*/'",
                            span.start..span.start + 2,
                        )
                        .with_label("this comment runs to the end of the text")
                        .with_help("close the comment with '*/'"),
                    ],
                    open_comment: true,
                };
            }
            if inner.contains('\n') {
                Lexeme::tok(Tok::Newline)
            } else {
                Lexeme::skip()
            }
        });
    line.or(block)
}

fn punct<'src>() -> impl Parser<'src, &'src str, Lexeme, LexExtra> + Clone {
    let long = choice((
        just("==>").to(Tok::Implies),
        just(">>>").to(Tok::Chevrons),
        just("==").to(Tok::EqEq),
        just("!=").to(Tok::NotEq),
        just("<=").to(Tok::Le),
        just(">=").to(Tok::Ge),
        just("->").to(Tok::Arrow),
        just("&&").to(Tok::AndAnd),
        just("||").to(Tok::OrOr),
        just("~=").to(Tok::Approx),
    ));
    let short = any().filter_map(|c: char| {
        Some(match c {
            '=' => Tok::Assign,
            '!' => Tok::Bang,
            '<' => Tok::Lt,
            '>' => Tok::Gt,
            '-' => Tok::Minus,
            '+' => Tok::Plus,
            '*' => Tok::Star,
            '/' => Tok::Slash,
            '%' => Tok::Percent,
            '(' => Tok::LParen,
            ')' => Tok::RParen,
            '{' => Tok::LBrace,
            '}' => Tok::RBrace,
            '[' => Tok::LBracket,
            ']' => Tok::RBracket,
            ',' => Tok::Comma,
            ';' => Tok::Semi,
            ':' => Tok::Colon,
            _ => return None,
        })
    });
    long.or(short).map(Lexeme::tok)
}

/// One lexeme: the fast path first, then the general combinators.
fn lexeme<'src>(runs: bool) -> impl Parser<'src, &'src str, (Lexeme, Span), LexExtra> + Clone {
    choice((fast(runs), general())).map_with(|lexeme, e| {
        let span: SimpleSpan = e.span();
        (lexeme, span.into_range())
    })
}

/// The general lexemes, in order: the definition of the tokens, which the fast
/// path must agree with (a test holds the two against each other).
fn general<'src>() -> impl Parser<'src, &'src str, Lexeme, LexExtra> + Clone {
    let space = one_of(" \t\r").repeated().at_least(1).to(Lexeme::skip());
    let newline = just('\n').to(Lexeme::tok(Tok::Newline));
    // Anything else is a character of no token: the parser reports it where it stands.
    let bad = any().map(|c| Lexeme::tok(Tok::Bad(c)));
    choice((
        space,
        word(),
        newline,
        number(),
        comment(),
        punct(),
        string(),
        bad,
    ))
}

/// The whole text, folded straight into `Lexed` (no list of lexemes in between:
/// a pasted literal has millions).
fn lexer<'src>(runs: bool) -> impl Parser<'src, &'src str, Lexed, LexExtra> {
    empty()
        .map(|_| Lexed {
            toks: Vec::new(),
            errors: Vec::new(),
            open_comment: false,
        })
        .foldl(lexeme(runs).repeated(), |mut lexed, (lexeme, span)| {
            lexed.toks.extend(lexeme.batch);
            if let Some(tok) = lexeme.tok {
                lexed.toks.push((tok, span));
            }
            lexed.errors.extend(lexeme.errors);
            lexed.open_comment |= lexeme.open_comment;
            lexed
        })
        .then_ignore(end())
}

/// Splits the text into tokens. Never fails: problems become diagnostics and `Error`/`Bad` tokens.
pub(crate) fn lex(src: &str) -> Lexed {
    lex_with(src, false)
}

/// As `lex`, but a brace of plain numbers becomes one `NumRun` token. The parser
/// accepts it wherever a brace expression may stand; anywhere else it fails, and
/// `syntax::parse` then parses the plain tokens again, so errors read as always.
pub(crate) fn lex_runs(src: &str) -> Lexed {
    lex_with(src, true)
}

fn lex_with(src: &str, runs: bool) -> Lexed {
    // Every character starts some lexeme (the last choice takes any character), so this
    // cannot fail; should it ever, say so rather than panic.
    lexer(runs)
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

type LexInput<'src, 'p> = InputRef<'src, 'p, &'src str, LexExtra>;

/// The common lexemes (spaces, plain numbers, names, brackets, commas: all of a
/// pasted weight array) read by hand, character by character, instead of through
/// the combinators below, which cost microseconds per token. Anything it does not
/// handle exactly (operators that may be longer, comments, strings, `produces`,
/// dimensions, malformed numbers, other characters) fails without consuming and
/// falls through to the general lexemes, so both paths give the same tokens.
/// Tokens per batch of the fast path.
const BATCH: usize = 256;

fn fast<'src>(runs: bool) -> impl Parser<'src, &'src str, Lexeme, LexExtra> + Clone {
    custom(move |inp: &mut LexInput<'src, '_>| {
        // As many lexemes as the fast path reads, in one go: the combinators'
        // overhead is paid once per batch rather than once per token.
        let begin = inp.save();
        // A bounded batch: the tokens are copied once more into the whole list.
        let mut batch = Vec::with_capacity(BATCH);
        while batch.len() < BATCH {
            let start = inp.cursor();
            if runs && inp.peek() == Some('{') {
                let before = inp.save();
                if let Some(run) = fast_run(inp) {
                    let span: SimpleSpan = inp.span_since(&start);
                    batch.push((Tok::NumRun(Arc::new(run)), span.into_range()));
                    continue;
                }
                inp.rewind(before);
            }
            let checkpoint = inp.save();
            match fast_lexeme(inp) {
                Some(Some(tok)) => {
                    let span: SimpleSpan = inp.span_since(&start);
                    batch.push((tok, span.into_range()));
                }
                Some(None) => {}
                None => {
                    inp.rewind(checkpoint);
                    break;
                }
            }
        }
        if inp.cursor() == *begin.cursor() {
            return Err(Default::default());
        }
        Ok(Lexeme {
            tok: None,
            errors: vec![],
            open_comment: false,
            batch,
        })
    })
}

/// One lexeme of the fast path: `Some(Some(token))`, `Some(None)` for spaces, `None`
/// where the general lexemes must read (the caller rewinds). Operators are read
/// longest first, as `punct` does.
fn fast_lexeme<'src>(inp: &mut LexInput<'src, '_>) -> Option<Option<Tok>> {
    let start = inp.cursor();
    let c = inp.next()?;
    // `tok` when the next character is `next` (read), else nothing read.
    fn then(inp: &mut LexInput<'_, '_>, next: char, tok: Tok) -> Option<Tok> {
        if inp.peek() == Some(next) {
            inp.skip();
            Some(tok)
        } else {
            None
        }
    }
    let tok = match c {
        ' ' | '\t' | '\r' => {
            while matches!(inp.peek(), Some(' ' | '\t' | '\r')) {
                inp.skip();
            }
            return Some(None);
        }
        '\n' => Tok::Newline,
        ',' => Tok::Comma,
        '{' => Tok::LBrace,
        '}' => Tok::RBrace,
        '(' => Tok::LParen,
        ')' => Tok::RParen,
        '[' => Tok::LBracket,
        ']' => Tok::RBracket,
        ';' => Tok::Semi,
        ':' => Tok::Colon,
        '+' => Tok::Plus,
        '*' => Tok::Star,
        '%' => Tok::Percent,
        '-' => then(inp, '>', Tok::Arrow).unwrap_or(Tok::Minus),
        '!' => then(inp, '=', Tok::NotEq).unwrap_or(Tok::Bang),
        '<' => then(inp, '=', Tok::Le).unwrap_or(Tok::Lt),
        '&' => then(inp, '&', Tok::AndAnd)?,
        '|' => then(inp, '|', Tok::OrOr)?,
        '~' => then(inp, '=', Tok::Approx)?,
        // `//` and `/*` start comments, which the general lexemes read.
        '/' if !matches!(inp.peek(), Some('/' | '*')) => Tok::Slash,
        '=' => match then(inp, '=', Tok::EqEq) {
            Some(_) => then(inp, '>', Tok::Implies).unwrap_or(Tok::EqEq),
            None => Tok::Assign,
        },
        '>' => match inp.peek() {
            Some('=') => {
                inp.skip();
                Tok::Ge
            }
            // `>>>` is one token; `>>` two `>`.
            Some('>') => {
                let two = inp.save();
                inp.skip();
                if inp.peek() == Some('>') {
                    inp.skip();
                    Tok::Chevrons
                } else {
                    inp.rewind(two);
                    Tok::Gt
                }
            }
            _ => Tok::Gt,
        },
        '0'..='9' => {
            let float = fast_number_tail(inp)?;
            let text = inp.slice_since(&start..).to_string();
            if float {
                Tok::Float(text)
            } else {
                Tok::Int(text)
            }
        }
        'a'..='z' | 'A'..='Z' | '_' => {
            while inp.peek().is_some_and(|c| is_ident_char(&c)) {
                inp.skip();
            }
            match inp.slice_since(&start..) {
                // `produces` may be the start of `produces:`.
                "produces" => return None,
                "let" => Tok::Let,
                "comp" => Tok::Comp,
                "then" => Tok::Then,
                "within" => Tok::Within,
                "true" => Tok::True,
                "false" => Tok::False,
                w @ ("inf" | "nan") => Tok::Float(w.to_string()),
                w => Tok::Ident(w.to_string()),
            }
        }
        _ => return None,
    };
    Some(Some(tok))
}

/// At a `{`: the whole brace if it holds only plain numbers (`5`, `-2.5`, `1e-3`,
/// `inf`, `-nan`), commas (one trailing allowed), spaces and line breaks, and at
/// least one number; `None` for anything else (comments, nested braces, names,
/// empty braces), which the general lexemes then read token by token. Each
/// character is looked at once here and at most once more if this fails, so
/// lexing stays linear.
fn fast_run(inp: &mut LexInput<'_, '_>) -> Option<NumRun> {
    let open = inp.cursor();
    inp.next()?;
    // All characters of a run are ASCII, so offsets are counted in bytes by hand.
    let mut pos = inp.span_since(&open).start + 1;
    let space = |inp: &mut LexInput<'_, '_>, pos: &mut usize| {
        while matches!(inp.peek(), Some(' ' | '\t' | '\r' | '\n')) {
            inp.skip();
            *pos += 1;
        }
    };
    let mut run = NumRun::default();
    loop {
        space(inp, &mut pos);
        let item_start = pos;
        match inp.peek()? {
            '}' if !run.is_empty() => {
                inp.skip();
                return Some(run);
            }
            '-' => {
                inp.skip();
                pos += 1;
                if inp.peek() == Some('>') {
                    return None;
                }
                space(inp, &mut pos);
            }
            _ => {}
        }
        let num = inp.cursor();
        match inp.next()? {
            '0'..='9' => {
                fast_number_tail(inp)?;
            }
            'a'..='z' | 'A'..='Z' | '_' => {
                while inp.peek().is_some_and(|c| is_ident_char(&c)) {
                    inp.skip();
                }
                if !matches!(inp.slice_since(&num..), "inf" | "nan") {
                    return None;
                }
            }
            _ => return None,
        }
        let text = inp.slice_since(&num..);
        pos += text.len();
        if !run.push(item_start..pos, text) {
            return None;
        }
        space(inp, &mut pos);
        match inp.next()? {
            ',' => pos += 1,
            '}' => return Some(run),
            _ => return None,
        }
    }
}

/// After a number's first digit: the rest of `5`, `2.5`, `5.`, `1e-3`, `2.5E+10`.
/// `Some(is_float)` for a well-formed number not followed by a name character;
/// `None` for dimensions (`4x2`) and malformed numbers, which the general lexer reads.
fn fast_number_tail(inp: &mut LexInput<'_, '_>) -> Option<bool> {
    let digits = |inp: &mut LexInput<'_, '_>| {
        let mut n = 0;
        while inp.peek().is_some_and(|c| c.is_ascii_digit()) {
            inp.skip();
            n += 1;
        }
        n
    };
    digits(inp);
    let mut float = false;
    if inp.peek() == Some('.') {
        inp.skip();
        digits(inp);
        float = true;
    }
    if matches!(inp.peek(), Some('e' | 'E')) {
        inp.skip();
        if matches!(inp.peek(), Some('+' | '-')) {
            inp.skip();
        }
        if digits(inp) == 0 {
            return None;
        }
        float = true;
    }
    if inp.peek().is_some_and(|c| is_ident_char(&c)) {
        return None;
    }
    Some(float)
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Frame {
    Paren,
    Bracket,
    /// An expression brace: a literal or a list.
    Brace,
    /// A `comp` body: line breaks separate its statements.
    Block,
}

fn closer_frame(tok: &Tok) -> Option<&'static [Frame]> {
    match tok {
        Tok::RParen => Some(&[Frame::Paren]),
        Tok::RBracket => Some(&[Frame::Bracket]),
        Tok::RBrace => Some(&[Frame::Brace, Frame::Block]),
        _ => None,
    }
}

/// Tracks open brackets and pending `comp` headers over a token stream.
#[derive(Default)]
pub(crate) struct Nesting {
    pub stack: Vec<Frame>,
    /// Depth at which a `comp` was seen whose body brace has not opened yet.
    pub comp_pending: Option<usize>,
    /// A closer matched nothing or the wrong opener.
    pub mismatched: bool,
}

impl Nesting {
    pub(crate) fn step(&mut self, tok: &Tok) {
        match tok {
            Tok::Comp => self.comp_pending = Some(self.stack.len()),
            Tok::LParen => self.stack.push(Frame::Paren),
            Tok::LBracket => self.stack.push(Frame::Bracket),
            Tok::LBrace => {
                if self.comp_pending == Some(self.stack.len()) {
                    self.comp_pending = None;
                    self.stack.push(Frame::Block);
                } else {
                    self.stack.push(Frame::Brace);
                }
            }
            Tok::Semi if self.comp_pending == Some(self.stack.len()) => self.comp_pending = None,
            // A whole balanced brace: opens and closes the pending body, if any.
            Tok::NumRun(_) if self.comp_pending == Some(self.stack.len()) => {
                self.comp_pending = None
            }
            _ => {
                if let Some(kinds) = closer_frame(tok) {
                    match self.stack.iter().rposition(|f| kinds.contains(f)) {
                        Some(p) => {
                            if p + 1 != self.stack.len() {
                                self.mismatched = true;
                            }
                            self.stack.truncate(p);
                        }
                        None => self.mismatched = true,
                    }
                    if self.comp_pending.is_some_and(|d| d > self.stack.len()) {
                        self.comp_pending = None;
                    }
                }
            }
        }
    }

    /// Whether a line break here may separate statements.
    fn at_statement_level(&self) -> bool {
        matches!(self.stack.last(), None | Some(Frame::Block))
    }
}

/// The newline pass: keeps a `Newline` token only where it separates statements.
/// Compacts the tokens in place (kept ones move down), so no second list is built.
pub(crate) fn layout(mut toks: Vec<(Tok, Span)>) -> Vec<(Tok, Span)> {
    let mut kept: usize = 0;
    let mut nest = Nesting::default();
    for idx in 0..toks.len() {
        if toks[idx].0 == Tok::Newline {
            if !nest.at_statement_level() {
                continue;
            }
            // Collapse runs of separators, and none at the very start.
            let Some(prev) = kept.checked_sub(1).map(|k| &toks[k].0) else {
                continue;
            };
            if prev.is_sep() || prev.continues_after() {
                continue;
            }
            let next = toks[idx + 1..]
                .iter()
                .map(|(t, _)| t)
                .find(|t| **t != Tok::Newline);
            if next.is_some_and(Tok::continues_before) {
                continue;
            }
            // `comp f(x: f32) -> f32` followed by the body brace on the next line,
            // and `f32[2x2]` followed by its literal (`]` only ever closes a type).
            if next.is_some_and(|t| matches!(t, Tok::LBrace | Tok::NumRun(_)))
                && (nest.comp_pending == Some(nest.stack.len()) || *prev == Tok::RBracket)
            {
                continue;
            }
        } else {
            nest.step(&toks[idx].0);
        }
        // Only tokens at `idx` and after are looked at from here on, and kept <= idx.
        toks.swap(kept, idx);
        kept += 1;
    }
    toks.truncate(kept);
    toks
}

#[cfg(test)]
mod fast_path_tests {
    use super::*;

    /// The general lexer alone, over the whole text: what `lex` must agree with.
    fn slow_lex(src: &str) -> (Vec<(Tok, Span)>, Vec<Diag>, bool) {
        let general = general().map_with(|lexeme, e| {
            let span: SimpleSpan = e.span();
            (lexeme, span.into_range())
        });
        let all = general
            .repeated()
            .collect::<Vec<_>>()
            .then_ignore(end())
            .parse(src)
            .into_output()
            .unwrap();
        let (mut toks, mut errs, mut open) = (vec![], vec![], false);
        for (l, span) in all {
            if let Some(t) = l.tok {
                toks.push((t, span));
            }
            errs.extend(l.errors);
            open |= l.open_comment;
        }
        (toks, errs, open)
    }

    #[test]
    fn fast_path_agrees_with_the_general_lexer() {
        let cases = [
            "let w = f32[3] {1.5, -2e-3, 5.}\nthen w ~= {1, 2, 3} within 1e-3",
            "x.shape .5 1.2.3 12abc 1e 1e+ 1ex 4x2x3 2x 4x2x 5e3x",
            "a->b -> - > >= >>> ==> == = != ! && || ~= // c\n/* d\n */ e /* open",
            "\"s\\n\" \"bad \\q\" \"open\nproduces: produces : produces_x produces",
            "é ü 1.5E+10 inf nan -inf true false comp let then within _a9 A_1",
            "{ {1,2},\r\n\t{3 , 4} } ; (a, b,) [2,3] % * + ?",
            // Operators the fast path reads itself, and their neighbours it leaves alone.
            ">> >>>> =>= === ==>> <=< !== & | ~ ~~= a/b a//c\nd a/*x*/b : :: -->",
            "comp f(x: f32[2x2], y: (s32, pred)) -> f32 { let z = x * 2; z / 3 }",
        ];
        for src in cases {
            let fast = lex(src);
            let (toks, errs, open) = slow_lex(src);
            assert_eq!(fast.toks, toks, "tokens of {src:?}");
            let spans = |d: &[Diag]| {
                d.iter()
                    .map(|d| (d.span.clone(), d.message.clone()))
                    .collect::<Vec<_>>()
            };
            assert_eq!(spans(&fast.errors), spans(&errs), "errors of {src:?}");
            assert_eq!(fast.open_comment, open, "open comment in {src:?}");
        }
    }

    /// What `lex_runs` reads as one `NumRun`: the numbers' texts, signs and spans.
    fn runs(src: &str) -> Vec<Vec<(String, bool, Span)>> {
        let lexed = lex_runs(src);
        assert!(lexed.errors.is_empty(), "{src:?}");
        lexed
            .toks
            .iter()
            .filter_map(|(t, _)| match t {
                Tok::NumRun(run) => Some(
                    run.iter()
                        .map(|n| (n.text.to_string(), n.negative, n.span()))
                        .collect(),
                ),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_brace_of_plain_numbers_is_one_run_with_each_number_s_span() {
        let src = "{1, -2.5 ,\n inf, - nan, 1e-3,}";
        let items = |v: &[(&str, bool, Span)]| {
            v.iter()
                .map(|(t, n, s)| (t.to_string(), *n, s.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            runs(src),
            vec![items(&[
                ("1", false, 1..2),
                ("2.5", true, 4..8),
                ("inf", false, 12..15),
                ("nan", true, 17..22),
                ("1e-3", false, 24..28),
            ])]
        );
        // The span of the run is the whole brace.
        let lexed = lex_runs(src);
        assert_eq!(lexed.toks.len(), 1);
        assert_eq!(lexed.toks[0].1, 0..src.len());
        // Rows of a nested literal are runs; the outer braces stay tokens.
        assert_eq!(runs("{{1, 2}, {3, 4}}").len(), 2);
        assert_eq!(lex_runs("{{1, 2}, {3, 4}}").toks.len(), 5);
    }

    #[test]
    fn anything_but_plain_numbers_is_lexed_token_by_token() {
        for src in [
            "{}",
            "{1 2}",
            "{1,, 2}",
            "{,1}",
            "{1, x}",
            "{1, /* c */ 2}",
            "{1, // c\n 2}",
            "{4x2}",
            "{1, 2e}",
            "{1, --2}",
            "{1, ->}",
            "{1, 2",
            "{1, \"s\"}",
            "{1, true}",
            "{1, infinity}",
        ] {
            let (fast, slow) = (lex_runs(src), lex(src));
            assert_eq!(fast.toks, slow.toks, "{src:?}");
            assert_eq!(fast.errors.len(), slow.errors.len(), "{src:?}");
        }
    }

    #[test]
    fn pasted_weights_lex_fast() {
        // ~11 MB of numbers: the general lexer alone read well under 1 MB/s.
        let body: Vec<String> = (0..1_000_000)
            .map(|i| format!("{:.6}", (i as f64 * 0.37).sin()))
            .collect();
        let src = format!("let w = f32[1000000] {{{}}}", body.join(", "));
        let t = std::time::Instant::now();
        let lexed = lex(&src);
        assert!(lexed.toks.len() > 2_000_000);
        assert!(lexed.errors.is_empty());
        assert!(
            !lexed
                .toks
                .iter()
                .any(|(t, _)| matches!(t, Tok::Bad(_) | Tok::Error))
        );
        assert!(
            t.elapsed().as_secs() < 5,
            "lexing {} MB took {:?}",
            src.len() >> 20,
            t.elapsed()
        );
    }
}
