//! The common lexemes read by hand, a batch of tokens at a time.

use super::*;
use chumsky::input::InputRef;

pub(super) type LexInput<'src, 'p> = InputRef<'src, 'p, &'src str, LexExtra>;

/// Tokens per batch of the fast path.
pub(super) const BATCH: usize = 256;

/// The common lexemes (spaces, plain numbers, names, brackets, commas: all of a
/// pasted weight array) read by hand, character by character, instead of through
/// the combinators below, which cost microseconds per token. Anything it does not
/// handle exactly (operators that may be longer, comments, strings, `produces`,
/// dimensions, malformed numbers, other characters) fails without consuming and
/// falls through to the general lexemes, so both paths give the same tokens.
pub(super) fn fast<'src>(
    runs: bool,
    texts: Texts,
) -> impl Parser<'src, &'src str, Lexeme, LexExtra> + Clone {
    custom(move |inp: &mut LexInput<'src, '_>| {
        // Every lexeme is tried here first: Ctrl-C (or the memory budget
        // exceeded: the tokens of a huge generated program) ends the lexing,
        // the rest of the text passed over unread, with an `interrupted`
        // error, so a huge source stops at once rather than after the whole
        // pass; `parse_with` then says which of the two it was.
        // (At the end there is nothing to pass over: fail, as every lexeme does,
        // or the repetition would make no progress.)
        if inp.peek().is_some() && crate::must_stop() {
            let at = inp.cursor();
            while inp.next().is_some() {}
            let span: SimpleSpan = inp.span_since(&at);
            let start = span.into_range().start;
            let mut d = Diag::syntax("interrupted", start..start);
            d.code = "interrupted".into();
            return Ok(Lexeme {
                tok: None,
                errors: vec![d],
                open_comment: false,
                batch: vec![],
            });
        }
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
            match fast_lexeme(inp, texts) {
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
pub(super) fn fast_lexeme<'src>(inp: &mut LexInput<'src, '_>, texts: Texts) -> Option<Option<Tok>> {
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
            let text = texts.of(inp.slice_since(&start..));
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
                w @ ("inf" | "nan") => Tok::Float(texts.of(w)),
                w => Tok::Ident(texts.of(w)),
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
pub(super) fn fast_run(inp: &mut LexInput<'_, '_>) -> Option<NumRun> {
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
pub(super) fn fast_number_tail(inp: &mut LexInput<'_, '_>) -> Option<bool> {
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
