//! The lexemes as chumsky combinators, in the order they are tried.

use super::*;

/// How a number-like word ended, before looking for letters glued to it.
#[derive(Clone, Copy)]
pub(super) enum NumShape {
    Int,
    Float,
    Dims,
    /// `1e`, `1e+`, `1ex`: an exponent without digits.
    BadExponent,
    /// `2x`, `4x2x`: a dimension size missing after the last `x`.
    BadDims,
}

/// `5`, `2.5`, `1e-3`, `4x2x3`, and their malformed variants.
pub(super) fn number<'src>(texts: Texts) -> impl Parser<'src, &'src str, Lexeme, LexExtra> + Clone {
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
        .map_with(move |(shape, glued), e| {
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
            match shape {
                NumShape::Int => Lexeme::tok(Tok::Int(texts.of(text))),
                NumShape::Float => Lexeme::tok(Tok::Float(texts.of(text))),
                NumShape::Dims => Lexeme::tok(Tok::Dims(texts.of(text))),
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
pub(super) fn word<'src>(texts: Texts) -> impl Parser<'src, &'src str, Lexeme, LexExtra> + Clone {
    let produces_colon = just("produces")
        .then(any().filter(is_ident_char).not())
        .then(one_of(" \t").repeated())
        .then(just(':'))
        .to(Tok::Produces);
    let name = text::ascii::ident().map(move |w: &str| match w {
        "let" => Tok::Let,
        "comp" => Tok::Comp,
        "then" => Tok::Then,
        "within" => Tok::Within,
        "true" => Tok::True,
        "false" => Tok::False,
        "inf" | "nan" => Tok::Float(texts.of(w)),
        _ => Tok::Ident(texts.of(w)),
    });
    produces_colon.or(name).map(Lexeme::tok)
}

/// One piece of a string's body.
#[derive(Clone)]
pub(super) enum StrPiece {
    Char(char),
    BadEscape(Diag),
}

/// `"..."` with the escapes `\" \\ \n \t`; it must end on the line it starts.
pub(super) fn string<'src>() -> impl Parser<'src, &'src str, Lexeme, LexExtra> + Clone {
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
    // The pieces go straight into the text (a list of them cost 170 bytes per
    // character: a 20 MB string took 3.4 GB).
    let body = piece.repeated().fold(
        (String::new(), Vec::<Diag>::new()),
        |(mut text, mut errors), piece| {
            match piece {
                StrPiece::Char(c) => text.push(c),
                StrPiece::BadEscape(d) => errors.push(d),
            }
            (text, errors)
        },
    );
    just('"')
        .ignore_then(body)
        .then(closed.or(unclosed))
        .map_with(|((text, mut errors), closed), e| {
            let span: SimpleSpan = e.span();
            let span: Span = span.into_range();
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
pub(super) fn comment<'src>() -> impl Parser<'src, &'src str, Lexeme, LexExtra> + Clone {
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

/// `# ...`, a Python comment: reported, and the rest of its line read as one
/// malformed token, so that the words after it raise nothing more.
pub(super) fn hash_comment<'src>() -> impl Parser<'src, &'src str, Lexeme, LexExtra> + Clone {
    just('#').then(none_of('\n').repeated()).map_with(|_, e| {
        let span: SimpleSpan = e.span();
        let span: Span = span.into_range();
        Lexeme::error(
            Diag::syntax(
                "found '#' but expected a token of the language",
                span.start..span.start + 1,
            )
            .with_label("a comment in Python's style")
            .with_help("comments are written // to the end of the line, or /* ... */"),
        )
    })
}

pub(super) fn punct<'src>() -> impl Parser<'src, &'src str, Lexeme, LexExtra> + Clone {
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

/// The general lexemes, in order: the definition of the tokens, which the fast
/// path must agree with (a test holds the two against each other).
pub(super) fn general<'src>(
    texts: Texts,
) -> impl Parser<'src, &'src str, Lexeme, LexExtra> + Clone {
    let space = one_of(" \t\r").repeated().at_least(1).to(Lexeme::skip());
    let newline = just('\n').to(Lexeme::tok(Tok::Newline));
    // Anything else is a character of no token: the parser reports it where it stands.
    let bad = any().map(|c| Lexeme::tok(Tok::Bad(c)));
    choice((
        space,
        word(texts),
        newline,
        number(texts),
        comment(),
        punct(),
        string(),
        hash_comment(),
        bad,
    ))
}
