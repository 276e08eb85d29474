//! MLIR text as tokens (spec/import.md §2).
//!
//! A dialect attribute or type written with angle brackets (`tensor<4xf32>`,
//! `dense<[1, 2]>`, `#stablehlo.gather<...>`, `array<i64: 1>`) is one token
//! holding its raw body: MLIR itself hands such bodies to the dialect, and so
//! does the reader (`attr`, `types`). Each token records whether a line break
//! came before it, which is how the reader finds where an op ends.

use crate::error::ImportError;

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// `%name` or `%name#3` (a use of one result of several).
    Value {
        name: String,
        index: Option<u32>,
    },
    /// `^bb0`.
    Block(String),
    /// `@name` or `@"name"`.
    Symbol(String),
    /// `#name` or `#dialect.name` (an attribute alias, or a dialect attribute
    /// when `angle` holds a body).
    Hash {
        name: String,
        angle: Option<String>,
    },
    /// `!dialect.type` with an optional angle body.
    Bang {
        name: String,
        angle: Option<String>,
    },
    /// A bare identifier (`stablehlo.add`, `dense`, `x`), with the body of
    /// `<...>` when one follows without a space.
    Ident {
        name: String,
        angle: Option<String>,
    },
    /// An integer or float literal as written (with its `-`), or `0x...`.
    Number(String),
    Str(String),
    Punct(&'static str),
}

#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    /// Byte offsets into the text.
    pub start: usize,
    pub end: usize,
    /// A line break (or the start of the text) comes before this token.
    pub line_start: bool,
}

const PUNCT: [&str; 14] = [
    "->", "(", ")", "[", "]", "{", "}", "<", ">", ",", ":", "=", "*", "?",
];

/// Splits `text` into tokens. Comments (`//` to the end of the line) are skipped.
/// `max_tokens` bounds the work (the memory budget accounts the vector too).
pub fn lex(text: &str, base: usize) -> Result<Vec<Token>, ImportError> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        let start = i;
        let tok = match c {
            b'%' => {
                i += 1;
                let name = take_suffix_id(b, &mut i);
                if name.is_empty() {
                    return Err(err(base + start, "`%` must be followed by a value name"));
                }
                let mut index = None;
                if b.get(i) == Some(&b'#') && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
                    i += 1;
                    let s = i;
                    while i < b.len() && b[i].is_ascii_digit() {
                        i += 1;
                    }
                    index = text[s..i].parse().ok();
                    if index.is_none() {
                        return Err(err(base + s, "result index out of range"));
                    }
                }
                Tok::Value { name, index }
            }
            b'^' => {
                i += 1;
                Tok::Block(take_suffix_id(b, &mut i))
            }
            b'@' => {
                i += 1;
                if b.get(i) == Some(&b'"') {
                    Tok::Symbol(take_string(text, &mut i, base)?)
                } else {
                    Tok::Symbol(take_suffix_id(b, &mut i))
                }
            }
            b'#' | b'!' => {
                i += 1;
                let name = take_suffix_id(b, &mut i);
                let angle = take_angle(text, &mut i, base)?;
                if c == b'#' {
                    Tok::Hash { name, angle }
                } else {
                    Tok::Bang { name, angle }
                }
            }
            b'"' => Tok::Str(take_string(text, &mut i, base)?),
            b'-' if b.get(i + 1).is_some_and(u8::is_ascii_digit) => {
                i += 1;
                take_number(b, &mut i);
                Tok::Number(text[start..i].to_string())
            }
            c if c.is_ascii_digit() => {
                take_number(b, &mut i);
                Tok::Number(text[start..i].to_string())
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let name = take_suffix_id(b, &mut i);
                let angle = take_angle(text, &mut i, base)?;
                Tok::Ident { name, angle }
            }
            _ => match PUNCT.iter().find(|p| text[i..].starts_with(**p)) {
                Some(p) => {
                    i += p.len();
                    Tok::Punct(p)
                }
                None => {
                    let ch = text[i..].chars().next().unwrap_or('?');
                    return Err(err(base + i, &format!("unexpected character `{ch}`")));
                }
            },
        };
        out.push(Token {
            tok,
            start: base + start,
            end: base + i,
            line_start,
        });
        line_start = false;
    }
    Ok(out)
}

fn err(at: usize, msg: &str) -> ImportError {
    ImportError::at(at..at + 1, msg.to_string())
}

/// MLIR's suffix-id: letters, digits and `_ $ . -` (`%iterArg_5`, `%0`,
/// `stablehlo.add`, `^bb0`).
fn take_suffix_id(b: &[u8], i: &mut usize) -> String {
    let s = *i;
    while *i < b.len()
        && (b[*i].is_ascii_alphanumeric() || matches!(b[*i], b'_' | b'$' | b'.' | b'-'))
    {
        // `-` only inside a name, never as the arrow `->`.
        if b[*i] == b'-' && b.get(*i + 1) == Some(&b'>') {
            break;
        }
        *i += 1;
    }
    String::from_utf8_lossy(&b[s..*i]).into_owned()
}

fn take_number(b: &[u8], i: &mut usize) {
    if b[*i] == b'0'
        && matches!(b.get(*i + 1), Some(b'x' | b'X'))
        && b.get(*i + 2).is_some_and(u8::is_ascii_hexdigit)
    {
        *i += 2;
        while *i < b.len() && b[*i].is_ascii_hexdigit() {
            *i += 1;
        }
        return;
    }
    while *i < b.len() && b[*i].is_ascii_digit() {
        *i += 1;
    }
    if b.get(*i) == Some(&b'.') {
        *i += 1;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
    }
    if matches!(b.get(*i), Some(b'e' | b'E')) {
        let mut j = *i + 1;
        if matches!(b.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        if b.get(j).is_some_and(u8::is_ascii_digit) {
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            *i = j;
        }
    }
}

/// A string literal with MLIR's escapes (`\"`, `\\`, `\n`, `\t`, two hex digits).
fn take_string(text: &str, i: &mut usize, base: usize) -> Result<String, ImportError> {
    let b = text.as_bytes();
    let start = *i;
    *i += 1;
    let mut out = Vec::new();
    while *i < b.len() {
        match b[*i] {
            b'"' => {
                *i += 1;
                return Ok(String::from_utf8_lossy(&out).into_owned());
            }
            b'\\' => {
                let e = b.get(*i + 1).copied();
                match e {
                    Some(b'"') | Some(b'\\') => {
                        out.push(e.unwrap_or(b'\\'));
                        *i += 2;
                    }
                    Some(b'n') => {
                        out.push(b'\n');
                        *i += 2;
                    }
                    Some(b't') => {
                        out.push(b'\t');
                        *i += 2;
                    }
                    _ => {
                        let hex = text
                            .get(*i + 1..*i + 3)
                            .and_then(|h| u8::from_str_radix(h, 16).ok());
                        match hex {
                            Some(v) => {
                                out.push(v);
                                *i += 3;
                            }
                            None => return Err(err(base + *i, "unknown escape in a string")),
                        }
                    }
                }
            }
            c => {
                out.push(c);
                *i += 1;
            }
        }
    }
    Err(ImportError::at(
        base + start..base + b.len(),
        "unterminated string".to_string(),
    ))
}

/// The raw body of `<...>` right after a name, balanced, with `->` and strings
/// skipped; `None` when no `<` follows.
fn take_angle(text: &str, i: &mut usize, base: usize) -> Result<Option<String>, ImportError> {
    let b = text.as_bytes();
    if b.get(*i) != Some(&b'<') {
        return Ok(None);
    }
    let start = *i;
    let mut depth = 0usize;
    while *i < b.len() {
        match b[*i] {
            b'<' => depth += 1,
            b'>' => {
                depth -= 1;
                if depth == 0 {
                    *i += 1;
                    return Ok(Some(text[start + 1..*i - 1].to_string()));
                }
            }
            b'-' if b.get(*i + 1) == Some(&b'>') => *i += 1,
            b'"' => {
                take_string(text, i, base)?;
                continue;
            }
            _ => {}
        }
        *i += 1;
    }
    Err(ImportError::at(
        base + start..base + b.len(),
        "unbalanced `<`: the text ends before its `>`".to_string(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        lex(s, 0).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn values_types_and_arrows() {
        let t = toks("%7:3 = stablehlo.add %a#1, %0 : (tensor<4x?xf32>) -> tensor<i1>");
        assert_eq!(
            t[0],
            Tok::Value {
                name: "7".into(),
                index: None
            }
        );
        assert_eq!(t[1], Tok::Punct(":"));
        assert_eq!(t[2], Tok::Number("3".into()));
        assert_eq!(
            t[5],
            Tok::Value {
                name: "a".into(),
                index: Some(1)
            }
        );
        assert!(t.contains(&Tok::Ident {
            name: "tensor".into(),
            angle: Some("4x?xf32".into())
        }));
        assert!(t.contains(&Tok::Punct("->")));
    }

    #[test]
    fn angle_bodies_keep_arrows_and_strings() {
        let t = toks("#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]> dense<\"0x0A>\">");
        assert_eq!(
            t[0],
            Tok::Hash {
                name: "stablehlo.conv".into(),
                angle: Some("[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]".into())
            }
        );
        assert_eq!(
            t[1],
            Tok::Ident {
                name: "dense".into(),
                angle: Some("\"0x0A>\"".into())
            }
        );
    }

    #[test]
    fn bad_text_is_an_error() {
        assert!(lex("tensor<4xf32", 0).is_err());
        assert!(lex("\"abc", 0).is_err());
        assert!(lex("% = 1", 0).is_err());
        assert!(lex("a ` b", 0).is_err());
    }
}
