//! Text → tokens, then the newline pass that decides which line breaks end a statement.

use crate::ast::Span;
use crate::diag::Diag;

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
    Eof,
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
            Tok::Eof => return "end of input".to_string(),
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
            Tok::LBrace => "{",
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

    pub(crate) fn is_sep(&self) -> bool {
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

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Splits the text into tokens. Never fails: problems become diagnostics and `Error`/`Bad` tokens.
/// The token list always ends with `Eof`.
pub(crate) fn lex(src: &str) -> Lexed {
    let b = src.as_bytes();
    let at = |i: usize| b.get(i).copied().unwrap_or(0);
    let mut toks: Vec<(Tok, Span)> = Vec::new();
    let mut errors = Vec::new();
    let mut open_comment = false;
    let mut i = 0;
    while i < b.len() {
        let start = i;
        let c = b[i];
        match c {
            b' ' | b'\t' | b'\r' => i += 1,
            b'\n' => {
                toks.push((Tok::Newline, i..i + 1));
                i += 1;
            }
            b'/' if at(i + 1) == b'/' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if at(i + 1) == b'*' => match src.get(i + 2..).and_then(|rest| rest.find("*/")) {
                Some(off) => {
                    let end = i + 2 + off + 2;
                    if src[start..end].contains('\n') {
                        toks.push((Tok::Newline, start..end));
                    }
                    i = end;
                }
                None => {
                    errors.push(
                        Diag::syntax(
                            "found a '/*' comment that is never closed but expected '*/'",
                            start..start + 2,
                        )
                        .with_label("this comment runs to the end of the text")
                        .with_help("close the comment with '*/'"),
                    );
                    open_comment = true;
                    i = b.len();
                }
            },
            b'0'..=b'9' => {
                i = lex_number(src, start, &mut toks, &mut errors);
            }
            c if is_ident_start(c) => {
                while i < b.len() && is_ident_char(b[i]) {
                    i += 1;
                }
                let word = &src[start..i];
                let tok = match word {
                    "let" => Tok::Let,
                    "comp" => Tok::Comp,
                    "then" => Tok::Then,
                    "within" => Tok::Within,
                    "true" => Tok::True,
                    "false" => Tok::False,
                    "inf" | "nan" => Tok::Float(word.to_string()),
                    "produces" => {
                        let mut j = i;
                        while at(j) == b' ' || at(j) == b'\t' {
                            j += 1;
                        }
                        if at(j) == b':' {
                            i = j + 1;
                            Tok::Produces
                        } else {
                            Tok::Ident(word.to_string())
                        }
                    }
                    _ => Tok::Ident(word.to_string()),
                };
                toks.push((tok, start..i));
            }
            b'"' => {
                i = lex_string(src, start, &mut toks, &mut errors);
            }
            _ => {
                let (tok, len) = match (c, at(i + 1), at(i + 2)) {
                    (b'=', b'=', b'>') => (Tok::Implies, 3),
                    (b'=', b'=', _) => (Tok::EqEq, 2),
                    (b'=', _, _) => (Tok::Assign, 1),
                    (b'!', b'=', _) => (Tok::NotEq, 2),
                    (b'!', _, _) => (Tok::Bang, 1),
                    (b'<', b'=', _) => (Tok::Le, 2),
                    (b'<', _, _) => (Tok::Lt, 1),
                    (b'>', b'>', b'>') => (Tok::Chevrons, 3),
                    (b'>', b'=', _) => (Tok::Ge, 2),
                    (b'>', _, _) => (Tok::Gt, 1),
                    (b'-', b'>', _) => (Tok::Arrow, 2),
                    (b'-', _, _) => (Tok::Minus, 1),
                    (b'&', b'&', _) => (Tok::AndAnd, 2),
                    (b'|', b'|', _) => (Tok::OrOr, 2),
                    (b'~', b'=', _) => (Tok::Approx, 2),
                    (b'+', _, _) => (Tok::Plus, 1),
                    (b'*', _, _) => (Tok::Star, 1),
                    (b'/', _, _) => (Tok::Slash, 1),
                    (b'%', _, _) => (Tok::Percent, 1),
                    (b'(', _, _) => (Tok::LParen, 1),
                    (b')', _, _) => (Tok::RParen, 1),
                    (b'{', _, _) => (Tok::LBrace, 1),
                    (b'}', _, _) => (Tok::RBrace, 1),
                    (b'[', _, _) => (Tok::LBracket, 1),
                    (b']', _, _) => (Tok::RBracket, 1),
                    (b',', _, _) => (Tok::Comma, 1),
                    (b';', _, _) => (Tok::Semi, 1),
                    (b':', _, _) => (Tok::Colon, 1),
                    _ => {
                        let ch = src[i..].chars().next().unwrap_or('\u{fffd}');
                        (Tok::Bad(ch), ch.len_utf8().max(1))
                    }
                };
                i += len;
                toks.push((tok, start..i));
            }
        }
    }
    toks.push((Tok::Eof, src.len()..src.len()));
    Lexed {
        toks,
        errors,
        open_comment,
    }
}

/// Lexes a number starting at `start` (a digit); returns the position after it.
fn lex_number(
    src: &str,
    start: usize,
    toks: &mut Vec<(Tok, Span)>,
    errors: &mut Vec<Diag>,
) -> usize {
    let b = src.as_bytes();
    let at = |i: usize| b.get(i).copied().unwrap_or(0);
    let mut j = start;
    while at(j).is_ascii_digit() {
        j += 1;
    }
    let mut float = false;
    let mut dims = false;
    if at(j) == b'.' {
        float = true;
        j += 1;
        while at(j).is_ascii_digit() {
            j += 1;
        }
    }
    if at(j) == b'e' || at(j) == b'E' {
        let mut k = j + 1;
        if at(k) == b'+' || at(k) == b'-' {
            k += 1;
        }
        if at(k).is_ascii_digit() {
            while at(k).is_ascii_digit() {
                k += 1;
            }
            j = k;
            float = true;
        } else {
            while is_ident_char(at(k)) {
                k += 1;
            }
            errors.push(
                Diag::syntax(
                    format!(
                        "found the number '{}' but expected digits in its exponent",
                        &src[start..k]
                    ),
                    start..k,
                )
                .with_label("malformed number")
                .with_help("an exponent is written like 1e-3 or 2.5E+10"),
            );
            toks.push((Tok::Error, start..k));
            return k;
        }
    } else if !float && at(j) == b'x' {
        while at(j) == b'x' && at(j + 1).is_ascii_digit() {
            dims = true;
            j += 1;
            while at(j).is_ascii_digit() {
                j += 1;
            }
        }
        if at(j) == b'x' && !is_ident_char(at(j + 1)) {
            errors.push(
                Diag::syntax(
                    format!(
                        "found the dimensions '{}' but expected a size after the last 'x'",
                        &src[start..j + 1]
                    ),
                    start..j + 1,
                )
                .with_label("a dimension size is missing here")
                .with_help("dimensions are written like 4x2x3 (or 4,2,3)"),
            );
            toks.push((Tok::Error, start..j + 1));
            return j + 1;
        }
    }
    if is_ident_char(at(j)) {
        let mut k = j;
        while is_ident_char(at(k)) {
            k += 1;
        }
        errors.push(
            Diag::syntax(
                format!(
                    "found '{}' but expected a number, dimensions such as 4x2 or a name",
                    &src[start..k]
                ),
                start..k,
            )
            .with_label("malformed number")
            .with_help("names cannot start with a digit; hexadecimal numbers are not supported"),
        );
        toks.push((Tok::Error, start..k));
        return k;
    }
    let text = src[start..j].to_string();
    let tok = if dims {
        Tok::Dims(text)
    } else if float {
        Tok::Float(text)
    } else {
        Tok::Int(text)
    };
    toks.push((tok, start..j));
    j
}

/// Lexes a string starting at `start` (the opening quote); returns the position after it.
fn lex_string(
    src: &str,
    start: usize,
    toks: &mut Vec<(Tok, Span)>,
    errors: &mut Vec<Diag>,
) -> usize {
    let mut out = String::new();
    let mut ok = true;
    let mut chars = src[start + 1..].char_indices();
    while let Some((off, ch)) = chars.next() {
        let pos = start + 1 + off;
        match ch {
            '"' => {
                let end = pos + 1;
                toks.push((if ok { Tok::Str(out) } else { Tok::Error }, start..end));
                return end;
            }
            '\n' => break,
            '\\' => match chars.next() {
                Some((_, '"')) => out.push('"'),
                Some((_, '\\')) => out.push('\\'),
                Some((_, 'n')) => out.push('\n'),
                Some((_, 't')) => out.push('\t'),
                Some((_, '\n')) | None => break,
                Some((off2, other)) => {
                    ok = false;
                    let end = start + 1 + off2 + other.len_utf8();
                    errors.push(
                        Diag::syntax(
                            format!(
                                "found the escape '\\{}' but expected one of \\\" \\\\ \\n \\t",
                                other.escape_debug()
                            ),
                            pos..end,
                        )
                        .with_label("unknown escape"),
                    );
                }
            },
            c => out.push(c),
        }
    }
    // Unterminated: the string runs to the end of the line.
    let end = src[start..]
        .find('\n')
        .map(|o| start + o)
        .unwrap_or(src.len());
    errors.push(
        Diag::syntax(
            "found a string that is never closed but expected '\"' before the end of the line",
            start..end,
        )
        .with_label("unterminated string"),
    );
    toks.push((Tok::Error, start..end));
    end
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
pub(crate) fn layout(toks: Vec<(Tok, Span)>) -> Vec<(Tok, Span)> {
    let mut out: Vec<(Tok, Span)> = Vec::with_capacity(toks.len());
    let mut nest = Nesting::default();
    for idx in 0..toks.len() {
        let tok = &toks[idx].0;
        if *tok == Tok::Newline {
            if !nest.at_statement_level() {
                continue;
            }
            // Collapse runs of separators, and none at the very start.
            let Some((prev, _)) = out.last() else {
                continue;
            };
            if prev.is_sep() || prev.continues_after() {
                continue;
            }
            let next = toks[idx + 1..]
                .iter()
                .map(|(t, _)| t)
                .find(|t| **t != Tok::Newline)
                .unwrap_or(&Tok::Eof);
            if next.continues_before() {
                continue;
            }
            // `comp f(x: f32) -> f32` followed by the body brace on the next line,
            // and `f32[2x2]` followed by its literal (`]` only ever closes a type).
            if *next == Tok::LBrace
                && (nest.comp_pending == Some(nest.stack.len()) || *prev == Tok::RBracket)
            {
                continue;
            }
            out.push(toks[idx].clone());
        } else {
            nest.step(tok);
            out.push(toks[idx].clone());
        }
    }
    out
}
