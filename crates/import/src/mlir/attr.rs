//! Attribute values (spec/import.md §4): every form JAX and the StableHLO
//! tests print, read into one small tree that the op mapping asks questions of.

use super::items::{Item, Reader, split_commas};
use super::lexer::{Tok, Token, lex};
use super::types::type_text;
use crate::error::{ImportError, Result};
use xlet_core::span::Span;
use xlet_core::types::Type;

#[derive(Clone, Debug)]
pub enum Attr {
    Int(i128),
    Float(f64),
    Bool(bool),
    Str(String),
    /// An enum keyword: `DEFAULT`, `LT`, `FLOAT`, or `#stablehlo<comparison_direction LT>`'s `LT`.
    Word(String),
    /// `[1, 2]`, `array<i64: 1, 2>`, `[[0, 0], [1, 1]]`.
    List(Vec<Attr>),
    /// `{a = 1}`, `#stablehlo.gather<offset_dims = [1], ...>`, properties `<{...}>`.
    Dict(Vec<(String, Attr)>),
    /// `dense<...>` (its body, unparsed) with the type written after it.
    Dense {
        body: String,
        ty: Option<Type>,
        span: Span,
    },
    Type(Type),
    Symbol(String),
    /// Several items, as `[1] x [0]` or a pretty convolution's dimension
    /// numbers, kept for the op that knows them.
    Items(Vec<Item>),
    /// Something no op reads (`#loc3`, `affine_map<...>`).
    Other,
}

impl Attr {
    pub fn int(&self) -> Option<i128> {
        match self {
            Attr::Int(i) => Some(*i),
            Attr::Bool(b) => Some(*b as i128),
            Attr::Dense { body, .. } => body.trim().parse().ok(),
            Attr::List(l) if l.len() == 1 => l[0].int(),
            _ => None,
        }
    }
    pub fn ints(&self) -> Option<Vec<i128>> {
        match self {
            Attr::List(l) => l.iter().map(Attr::int).collect(),
            Attr::Dense { body, .. } => {
                let b = body.trim().trim_start_matches('[').trim_end_matches(']');
                if b.trim().is_empty() {
                    return Some(vec![]);
                }
                b.split([',', '[', ']'])
                    .filter(|s| !s.trim().is_empty())
                    .map(|s| s.trim().parse().ok())
                    .collect()
            }
            Attr::Int(i) => Some(vec![*i]),
            _ => None,
        }
    }
    pub fn word(&self) -> Option<&str> {
        match self {
            Attr::Word(w) | Attr::Str(w) => Some(w),
            _ => None,
        }
    }
    pub fn bool(&self) -> Option<bool> {
        match self {
            Attr::Bool(b) => Some(*b),
            _ => None,
        }
    }
    pub fn get(&self, key: &str) -> Option<&Attr> {
        match self {
            Attr::Dict(d) => d.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
}

/// An attribute from the items of its value (`[1, 2]`, `dense<1> : tensor<i32>`,
/// `1 : i64`, `[1] x [0]`).
pub fn attr(items: &[Item]) -> Result<Attr> {
    let items: Vec<&Item> = items.iter().collect();
    let Some(first) = items.first() else {
        return Ok(Attr::Other);
    };
    // `VALUE : TYPE`: the type matters only to a dense value.
    let colon = items.iter().position(|i| i.is_punct(":"));
    let head = &items[..colon.unwrap_or(items.len())];
    if head.len() > 1 {
        return Ok(Attr::Items(head.iter().map(|i| (*i).clone()).collect()));
    }
    let ty_after = || -> Result<Option<Type>> {
        match colon {
            Some(c) => match items.get(c + 1) {
                Some(Item::Tok(Token {
                    tok: Tok::Ident { name, angle },
                    start,
                    end,
                    ..
                })) => type_text(&joined(name, angle.as_deref()), *start..*end).map(Some),
                _ => Ok(None),
            },
            None => Ok(None),
        }
    };
    Ok(match first {
        Item::Tok(t) => match &t.tok {
            Tok::Number(n) => number(n, t.start..t.end)?,
            Tok::Str(s) => Attr::Str(s.clone()),
            Tok::Symbol(s) => Attr::Symbol(s.clone()),
            Tok::Ident { name, angle: None } => match name.as_str() {
                "true" => Attr::Bool(true),
                "false" => Attr::Bool(false),
                "unit" => Attr::Bool(true),
                _ => match super::types::elem_type(name) {
                    Some(e) => Attr::Type(Type::scalar(e)),
                    None => Attr::Word(name.clone()),
                },
            },
            Tok::Ident {
                name,
                angle: Some(body),
            } => match name.as_str() {
                "dense" => Attr::Dense {
                    body: body.clone(),
                    ty: ty_after()?,
                    span: t.start..t.end,
                },
                "array" => {
                    // `array<i64: 1, 2>` (or `array<i64>`, empty).
                    let vals = body.split_once(':').map_or("", |(_, v)| v);
                    let mut out = vec![];
                    for v in vals.split(',').map(str::trim).filter(|v| !v.is_empty()) {
                        out.push(match v {
                            "true" => Attr::Bool(true),
                            "false" => Attr::Bool(false),
                            _ => number(v, t.start..t.end)?,
                        });
                    }
                    Attr::List(out)
                }
                "tensor" | "tuple" | "complex" => {
                    Attr::Type(type_text(&joined(name, Some(body)), t.start..t.end)?)
                }
                _ => Attr::Other,
            },
            Tok::Hash {
                name,
                angle: Some(body),
            } => {
                let base = t.start + 1 + name.len() + 1;
                hash_attr(name, body, base)?
            }
            _ => Attr::Other,
        },
        Item::Group {
            open: '[', items, ..
        } => {
            let mut out = vec![];
            for part in split_commas(items) {
                out.push(attr(part)?);
            }
            Attr::List(out)
        }
        Item::Group {
            open: '{' | '<',
            items,
            ..
        } => Attr::Dict(dict(items)?),
        _ => Attr::Other,
    })
}

fn number(n: &str, span: Span) -> Result<Attr> {
    let (neg, digits) = match n.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, n),
    };
    if let Some(h) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        let v = i128::from_str_radix(h, 16)
            .map_err(|_| ImportError::at(span, format!("hex number `{n}` is too long")))?;
        return Ok(Attr::Int(if neg { -v } else { v }));
    }
    if let Ok(v) = n.parse::<i128>() {
        return Ok(Attr::Int(v));
    }
    n.parse::<f64>()
        .map(Attr::Float)
        .map_err(|_| ImportError::at(span, format!("bad number `{n}`")))
}

/// `#stablehlo<comparison_direction LT>`, `#stablehlo.gather<...>` and friends.
fn hash_attr(name: &str, body: &str, base: usize) -> Result<Attr> {
    if name == "stablehlo" || name == "mhlo" || name == "chlo" {
        // `#stablehlo<comparison_direction LT>`: the enum's value.
        return Ok(Attr::Word(
            body.split_whitespace().last().unwrap_or("").to_string(),
        ));
    }
    let short = name.rsplit('.').next().unwrap_or(name);
    let toks = lex(body, base)?;
    let mut r = Reader::new(&toks, base + body.len());
    let items = r.items_to_end()?;
    match short {
        "conv" => Ok(Attr::Items(items)),
        "gather"
        | "scatter"
        | "dot"
        | "channel_handle"
        | "dot_algorithm"
        | "output_operand_alias" => Ok(Attr::Dict(dict(&items)?)),
        _ => Ok(Attr::Other),
    }
}

fn joined(name: &str, angle: Option<&str>) -> String {
    match angle {
        Some(a) => format!("{name}<{a}>"),
        None => name.to_string(),
    }
}

/// `a = 1, b = [2]` (or a bare `a`, a unit attribute) as entries.
pub fn dict(items: &[Item]) -> Result<Vec<(String, Attr)>> {
    let mut out = vec![];
    for part in split_commas(items) {
        let key = match part.first().and_then(Item::tok) {
            Some(Tok::Ident { name, angle: None }) => name.clone(),
            Some(Tok::Str(s)) => s.clone(),
            _ => continue,
        };
        if part.get(1).is_some_and(|i| i.is_punct("=")) {
            out.push((key, attr(&part[2..])?));
        } else {
            out.push((key, Attr::Bool(true)));
        }
    }
    Ok(out)
}
