//! HLO text's tokens: words (names, numbers, opcodes, `0_0x1_1`), strings and
//! punctuation. `/* ... */` comments (`/*index=5*/`) are dropped; each token
//! knows whether it starts a line, which ends an instruction's attributes.

use crate::error::{ImportError, Result};
use xlet_core::span::Span;

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// A name, number, opcode, keyword or other run of word characters.
    Word(String),
    Str(String),
    Punct(&'static str),
}

#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    pub span: Span,
    /// The first token on its line.
    pub line_start: bool,
}

impl Token {
    pub fn word(&self) -> Option<&str> {
        match &self.tok {
            Tok::Word(w) => Some(w),
            _ => None,
        }
    }
    pub fn is(&self, p: &str) -> bool {
        matches!(&self.tok, Tok::Punct(q) if *q == p)
    }
}

fn word_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-' | b'+' | b'$' | b'%' | b'#')
}

pub fn lex(text: &str) -> Result<Vec<Token>> {
    let b = text.as_bytes();
    let mut out = vec![];
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
        if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let end = text[i + 2..]
                .find("*/")
                .ok_or_else(|| ImportError::at(i..i + 2, "unterminated `/*` comment".into()))?;
            // A comment spanning lines still leaves the next token where it is.
            if text[i..i + 2 + end].contains('\n') {
                line_start = true;
            }
            i += end + 4;
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        let start = i;
        let tok = if c == b'"' {
            i += 1;
            let mut s = String::new();
            loop {
                match b.get(i) {
                    None => {
                        return Err(ImportError::at(
                            start..b.len(),
                            "unterminated string".into(),
                        ));
                    }
                    Some(b'"') => {
                        i += 1;
                        break;
                    }
                    Some(b'\\') => {
                        if let Some(ch) = text[i + 1..].chars().next() {
                            s.push(ch);
                            i += 1 + ch.len_utf8();
                        } else {
                            i += 1;
                        }
                    }
                    Some(_) => {
                        let ch = text[i..].chars().next().unwrap_or('?');
                        s.push(ch);
                        i += ch.len_utf8();
                    }
                }
            }
            Tok::Str(s)
        } else if c == b'-' && b.get(i + 1) == Some(&b'>') {
            i += 2;
            Tok::Punct("->")
        } else if word_char(c) {
            while i < b.len() && word_char(b[i]) && !(b[i] == b'-' && b.get(i + 1) == Some(&b'>')) {
                i += 1;
            }
            Tok::Word(text[start..i].to_string())
        } else {
            let p: &'static str = match c {
                b'{' => "{",
                b'}' => "}",
                b'(' => "(",
                b')' => ")",
                b'[' => "[",
                b']' => "]",
                b',' => ",",
                b'=' => "=",
                b':' => ":",
                b'<' => "<",
                b'>' => ">",
                b'?' => "?",
                b'*' => "*",
                b'@' => "@",
                b'|' => "|",
                b'!' => "!",
                b'/' => "/",
                b'\'' => "'",
                _ => {
                    let ch = text[i..].chars().next().unwrap_or('?');
                    return Err(ImportError::at(
                        i..i + ch.len_utf8(),
                        format!("unexpected character `{ch}` in HLO text"),
                    ));
                }
            };
            i += 1;
            Tok::Punct(p)
        };
        out.push(Token {
            tok,
            span: start..i,
            line_start,
        });
        line_start = false;
    }
    Ok(out)
}
