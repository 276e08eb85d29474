//! HLO text read into computations and instructions (their attributes kept as
//! tokens, for the op that knows them).

use super::lexer::{Tok, Token, lex};
use super::shape::{Shape, check_elem};
use crate::error::{ImportError, Result};
use xlet_core::span::Span;

#[derive(Clone, Debug)]
pub struct Module {
    pub name: String,
    pub replicas: Option<i64>,
    pub partitions: Option<i64>,
    pub comps: Vec<Comp>,
}

#[derive(Clone, Debug)]
pub struct Comp {
    pub name: String,
    pub entry: bool,
    pub span: Span,
    pub instrs: Vec<Instr>,
}

#[derive(Clone, Debug)]
pub struct Instr {
    pub name: String,
    pub root: bool,
    pub shape: Shape,
    pub opcode: String,
    /// The operands' names (without `%`).
    pub operands: Vec<(String, Span)>,
    /// The text between the parentheses (a constant's literal, a parameter's number).
    pub raw: String,
    pub raw_span: Span,
    pub attrs: Vec<Attr>,
    /// The whole instruction.
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Attr {
    pub key: String,
    pub toks: Vec<Token>,
    pub span: Span,
}

impl Instr {
    pub fn attr(&self, key: &str) -> Option<&Attr> {
        self.attrs.iter().find(|a| a.key == key)
    }
}

struct P<'a> {
    text: &'a str,
    toks: Vec<Token>,
    i: usize,
}

/// Names are written with or without `%`.
pub fn bare(name: &str) -> &str {
    name.strip_prefix('%').unwrap_or(name)
}

const MAX_DEPTH: usize = 64;

impl P<'_> {
    fn peek(&self) -> Option<&Token> {
        self.toks.get(self.i)
    }
    fn at(&self, p: &str) -> bool {
        self.peek().is_some_and(|t| t.is(p))
    }
    fn here(&self) -> Span {
        match self.peek() {
            Some(t) => t.span.clone(),
            None => self.text.len()..self.text.len(),
        }
    }
    fn end_error(&self, what: &str) -> ImportError {
        ImportError::at(self.here(), format!("expected {what}"))
    }
    fn expect(&mut self, p: &str) -> Result<Span> {
        if self.at(p) {
            self.i += 1;
            Ok(self.toks[self.i - 1].span.clone())
        } else {
            Err(self.end_error(&format!("`{p}`")))
        }
    }
    fn word(&mut self, what: &str) -> Result<(String, Span)> {
        match self.peek() {
            Some(Token {
                tok: Tok::Word(w),
                span,
                ..
            }) => {
                let out = (w.clone(), span.clone());
                self.i += 1;
                Ok(out)
            }
            _ => Err(self.end_error(what)),
        }
    }

    /// Skips a bracketed group starting here; returns its tokens (brackets included).
    fn group(&mut self) -> Result<Vec<Token>> {
        let start = self.i;
        let open = self.here();
        let mut depth = 0usize;
        while let Some(t) = self.peek() {
            if t.is("{") || t.is("(") || t.is("[") {
                depth += 1;
            } else if t.is("}") || t.is(")") || t.is("]") {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    self.i += 1;
                    return Ok(self.toks[start..self.i].to_vec());
                }
            }
            self.i += 1;
        }
        Err(ImportError::at(
            open,
            "unbalanced bracket: the text ends before it closes".into(),
        ))
    }

    fn shape(&mut self, depth: usize) -> Result<Shape> {
        if depth > MAX_DEPTH {
            return Err(ImportError::unsupported(
                self.here(),
                "tuple shapes nested this deep".into(),
            ));
        }
        if self.at("(") {
            self.i += 1;
            let mut parts = vec![];
            while !self.at(")") {
                if self.peek().is_none() {
                    return Err(self.end_error("`)` closing the tuple shape"));
                }
                parts.push(self.shape(depth + 1)?);
                if self.at(",") {
                    self.i += 1;
                }
            }
            self.i += 1;
            return Ok(Shape::Tuple(parts));
        }
        let (elem, span) = self.word("a shape")?;
        check_elem(&elem, span)?;
        self.expect("[")?;
        let mut dims = vec![];
        while !self.at("]") {
            match self.peek() {
                Some(Token {
                    tok: Tok::Word(w),
                    span,
                    ..
                }) => {
                    let d = w.parse::<u64>().map_err(|_| {
                        ImportError::at(span.clone(), format!("bad dimension `{w}`"))
                    })?;
                    dims.push(d);
                    self.i += 1;
                }
                Some(t) if t.is("<") || t.is("?") => {
                    return Err(ImportError::unsupported(
                        t.span.clone(),
                        "dynamic dimensions (xlet's shapes are static)".into(),
                    ));
                }
                _ => return Err(self.end_error("a dimension")),
            }
            if self.at(",") {
                self.i += 1;
            }
        }
        self.i += 1;
        // A layout `{1,0}` (the body's `{` ends its line instead).
        if self.at("{") && self.toks.get(self.i + 1).is_some_and(|t| !t.line_start) {
            self.group()?;
        }
        Ok(Shape::Array { elem, dims })
    }

    /// `key=value` up to a `,` or the end of the line; `self` is at `key`.
    fn attr(&mut self) -> Result<Attr> {
        let (key, kspan) = self.word("an attribute name")?;
        self.expect("=")?;
        let start = self.i;
        let mut depth = 0usize;
        let open = self.here();
        while let Some(t) = self.peek() {
            if depth == 0 && self.i > start && (t.line_start || t.is(",")) {
                break;
            }
            if t.is("{") || t.is("(") || t.is("[") {
                depth += 1;
            } else if t.is("}") || t.is(")") || t.is("]") {
                if depth == 0 {
                    break;
                }
                depth -= 1;
            }
            self.i += 1;
        }
        if depth > 0 {
            return Err(ImportError::at(
                open,
                format!("unbalanced bracket in the attribute `{key}`"),
            ));
        }
        let toks = self.toks[start..self.i].to_vec();
        let end = toks.last().map_or(kspan.end, |t| t.span.end);
        Ok(Attr {
            key,
            toks,
            span: kspan.start..end,
        })
    }

    /// `, key=value` pairs.
    fn attrs(&mut self) -> Result<Vec<Attr>> {
        let mut out = vec![];
        while self.at(",") {
            self.i += 1;
            out.push(self.attr()?);
        }
        Ok(out)
    }

    fn instr(&mut self) -> Result<Instr> {
        let start = self.here().start;
        let mut root = false;
        if self.peek().and_then(Token::word) == Some("ROOT") {
            root = true;
            self.i += 1;
        }
        let (name, _) = self.word("an instruction name")?;
        self.expect("=")?;
        let shape = self.shape(0)?;
        let (opcode, _) = self.word("an opcode")?;
        let open = self.expect("(")?;
        self.i -= 1;
        let body = self.group()?;
        let inner = &body[1..body.len() - 1];
        let raw_span = open.end..body.last().map_or(open.end, |t| t.span.start);
        let raw = self.text[raw_span.clone()].to_string();
        let mut operands = vec![];
        if opcode != "constant" && opcode != "parameter" {
            let mut depth = 0usize;
            let mut last: Option<(String, Span)> = None;
            for t in inner {
                if t.is("{") || t.is("(") || t.is("[") {
                    depth += 1;
                } else if t.is("}") || t.is(")") || t.is("]") {
                    depth = depth.saturating_sub(1);
                } else if depth == 0 && t.is(",") {
                    if let Some(l) = last.take() {
                        operands.push(l);
                    }
                } else if depth == 0
                    && let Some(w) = t.word()
                {
                    last = Some((bare(w).to_string(), t.span.clone()));
                }
            }
            if let Some(l) = last.take() {
                operands.push(l);
            }
        }
        let attrs = self.attrs()?;
        let end = self
            .toks
            .get(self.i.wrapping_sub(1))
            .map_or(start, |t| t.span.end);
        Ok(Instr {
            name: bare(&name).to_string(),
            root,
            shape,
            opcode,
            operands,
            raw,
            raw_span,
            attrs,
            span: start..end,
        })
    }

    fn comp(&mut self) -> Result<Comp> {
        let start = self.here().start;
        let mut entry = false;
        if self.peek().and_then(Token::word) == Some("ENTRY") {
            entry = true;
            self.i += 1;
        }
        let (name, _) = self.word("a computation name")?;
        if self.at("(") {
            self.group()?;
        }
        if self.at("->") {
            self.i += 1;
            self.shape(0)?;
        }
        self.attrs()?;
        let open = self.expect("{")?;
        let mut instrs = vec![];
        while !self.at("}") {
            if self.peek().is_none() {
                return Err(ImportError::at(
                    open,
                    format!("unbalanced `{{`: the computation `{name}` has no `}}`"),
                ));
            }
            instrs.push(self.instr()?);
        }
        let close = self.expect("}")?;
        Ok(Comp {
            name: bare(&name).to_string(),
            entry,
            span: start..close.end,
            instrs,
        })
    }
}

pub fn read(text: &str) -> Result<Module> {
    let toks = lex(text)?;
    let mut p = P { text, toks, i: 0 };
    let mut m = Module {
        name: String::new(),
        replicas: None,
        partitions: None,
        comps: vec![],
    };
    if p.peek().and_then(Token::word) != Some("HloModule") {
        return Err(p.end_error("`HloModule`"));
    }
    p.i += 1;
    m.name = p.word("the module's name")?.0;
    for a in p.attrs()? {
        let n = a.toks.iter().find_map(|t| t.word()?.parse::<i64>().ok());
        match a.key.as_str() {
            "replica_count" => m.replicas = n,
            "num_partitions" => m.partitions = n,
            _ => {}
        }
    }
    while p.peek().is_some() {
        m.comps.push(p.comp()?);
    }
    Ok(m)
}
