//! One op as the translator sees it, whichever form it was written in: its
//! operands, attributes, regions and types (spec/import.md §2). The generic
//! form and every pretty form JAX prints reduce to this.

use super::attr::{Attr, attr, dict};
use super::items::{Item, RawOp, Region, block_args, split_commas};
use super::lexer::Tok;
use super::types::parse_type;
use crate::error::{ImportError, Result};
use xlet_core::span::Span;
use xlet_core::types::Type;

/// A use of a value: `%x` or `%x#2`.
#[derive(Clone, Debug)]
pub struct Use {
    pub name: String,
    pub index: Option<u32>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Op {
    /// `stablehlo.add`; `mhlo.` ops are read as `stablehlo.` ones.
    pub name: String,
    pub results: Vec<(String, usize)>,
    pub operands: Vec<Use>,
    /// The pretty reduce's `init:` operands.
    pub inits: Vec<Use>,
    /// The pretty while's `%iterArg = %x` names.
    pub iter_args: Vec<String>,
    pub attrs: Vec<(String, Attr)>,
    /// Keywords written without `=`: `LT`, `FLOAT`, `applies`, `stablehlo.add`.
    pub words: Vec<String>,
    /// Bracket groups written without `=`: `%t[1]`, `[0:2, 1:3]`.
    pub groups: Vec<Vec<Item>>,
    pub regions: Vec<Region>,
    /// The regions' labels in the pretty forms (`cond`, `do`, `else`, `reducer`).
    pub region_labels: Vec<String>,
    pub in_types: Vec<Type>,
    pub out_types: Vec<Type>,
    pub span: Span,
}

impl Op {
    pub fn attr(&self, key: &str) -> Option<&Attr> {
        self.attrs
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }
    /// The number of results.
    pub fn result_count(&self) -> usize {
        self.results.iter().map(|(_, c)| c).sum()
    }
}

pub fn normalize(raw: RawOp) -> Result<Op> {
    let name = match raw.name.strip_prefix("mhlo.") {
        Some(rest) => format!("stablehlo.{rest}"),
        None => raw.name.clone(),
    };
    let mut op = Op {
        name,
        results: raw.results,
        operands: vec![],
        inits: vec![],
        iter_args: vec![],
        attrs: vec![],
        words: vec![],
        groups: vec![],
        regions: vec![],
        region_labels: vec![],
        in_types: vec![],
        out_types: vec![],
        span: raw.span.clone(),
    };
    let items: Vec<Item> = strip_locs(raw.items);
    let colon = items.iter().position(|i| i.is_punct(":"));
    let (body, after) = match colon {
        Some(c) => (&items[..c], &items[c + 1..]),
        None => (&items[..], &items[items.len()..]),
    };
    read_body(&mut op, body)?;
    let trailing = read_signature(&mut op, after)?;
    read_trailing(&mut op, trailing)?;
    Ok(op)
}

/// Drops `loc(...)` wherever it stands.
fn strip_locs(items: Vec<Item>) -> Vec<Item> {
    let mut out = Vec::with_capacity(items.len());
    let mut it = items.into_iter().peekable();
    while let Some(i) = it.next() {
        if i.ident() == Some("loc") && matches!(it.peek(), Some(Item::Group { open: '(', .. })) {
            it.next();
            continue;
        }
        out.push(i);
    }
    out
}

fn read_body(op: &mut Op, body: &[Item]) -> Result<()> {
    let mut i = 0;
    let mut operands_read = false;
    while i < body.len() {
        let item = &body[i];
        match item {
            Item::Group {
                open: '(', items, ..
            } if !has_region(items) && (!operands_read || i > 0 && body[i - 1].is_punct(",")) => {
                // A second group after a comma: the variadic pretty reduce's
                // `(%x init: %c), (%y init: %d)`.
                operand_group(op, items)?;
                operands_read = true;
            }
            Item::Group {
                open: '(', items, ..
            } => {
                for part in split_commas(items) {
                    for it in part {
                        if let Item::Region(r) = it {
                            op.regions.push(r.clone());
                            op.region_labels.push(String::new());
                        }
                    }
                }
            }
            Item::Group {
                open: '<' | '{',
                items,
                ..
            } => op.attrs.extend(dict(items)?),
            Item::Group {
                open: '[', items, ..
            } => op.groups.push(items.clone()),
            Item::Region(r) => {
                op.regions.push(r.clone());
                op.region_labels.push(String::new());
            }
            Item::Tok(t) => match &t.tok {
                Tok::Value { name, index } => {
                    op.operands.push(Use {
                        name: name.clone(),
                        index: *index,
                        span: t.start..t.end,
                    });
                    operands_read = true;
                }
                Tok::Symbol(s) => op.attrs.push(("callee".into(), Attr::Symbol(s.clone()))),
                Tok::Punct(",") => {}
                Tok::Punct("->") => {
                    // `stablehlo.if %p -> (tensor<f32>)` or `-> tensor<f32>`.
                    i += 1;
                    if let Some(next) = body.get(i) {
                        op.out_types = types_of(next)?;
                    }
                }
                Tok::Ident { name, angle: None }
                    if body.get(i + 1).is_some_and(|n| n.is_punct("=")) =>
                {
                    let start = i + 2;
                    let mut end = start;
                    // A `{...}` after a value is the op's attribute dictionary
                    // (the pretty convolution's `window = {..} {batch_group_count = ..}`).
                    while end < body.len()
                        && !body[end].is_punct(",")
                        && !(end > start && matches!(body[end], Item::Group { open: '{', .. }))
                    {
                        end += 1;
                    }
                    op.attrs.push((name.clone(), attr(&body[start..end])?));
                    i = end;
                    continue;
                }
                Tok::Ident { name, angle: None } => op.words.push(name.clone()),
                Tok::Ident { angle: Some(_), .. }
                | Tok::Number(_)
                | Tok::Hash { .. }
                | Tok::Str(_) => {
                    // A value written bare: `stablehlo.constant dense<1>`,
                    // `check.expect_eq_const %x, dense<...>`.
                    op.attrs
                        .push(("value".into(), attr(std::slice::from_ref(item))?));
                }
                _ => op.words.push(format!("{:?}", t.tok)),
            },
            Item::Group { .. } => {}
        }
        i += 1;
    }
    Ok(())
}

fn has_region(items: &[Item]) -> bool {
    items.iter().any(|i| matches!(i, Item::Region(_)))
}

/// `(%a, %b)`, `(%x init: %c)`, `(%iterArg = %x, ...)`, `(%v, k = 2)`.
fn operand_group(op: &mut Op, items: &[Item]) -> Result<()> {
    for part in split_commas(items) {
        let Some(first) = part.first() else { continue };
        match (first.tok(), part.get(1)) {
            (Some(Tok::Value { name, index }), None) => op.operands.push(Use {
                name: name.clone(),
                index: *index,
                span: first.span(),
            }),
            (Some(Tok::Value { name, index }), Some(i)) if i.ident() == Some("init") => {
                op.operands.push(Use {
                    name: name.clone(),
                    index: *index,
                    span: first.span(),
                });
                if let Some(Item::Tok(t)) = part.get(3)
                    && let Tok::Value { name, index } = &t.tok
                {
                    op.inits.push(Use {
                        name: name.clone(),
                        index: *index,
                        span: t.start..t.end,
                    });
                }
            }
            (Some(Tok::Value { name: arg, .. }), Some(i)) if i.is_punct("=") => {
                if let Some(Item::Tok(t)) = part.get(2)
                    && let Tok::Value { name, index } = &t.tok
                {
                    op.iter_args.push(arg.clone());
                    op.operands.push(Use {
                        name: name.clone(),
                        index: *index,
                        span: t.start..t.end,
                    });
                }
            }
            (Some(Tok::Ident { name, angle: None }), Some(i)) if i.is_punct("=") => {
                op.attrs.push((name.clone(), attr(&part[2..])?));
            }
            _ => {
                return Err(ImportError::at(
                    first.span(),
                    format!("cannot read this operand of `{}`", op.name),
                ));
            }
        }
    }
    Ok(())
}

/// The types after `:`: `T`, `T, T`, `(T, T) -> T` or `(T) -> (T, T)`.
/// Returns what follows them.
fn read_signature<'a>(op: &mut Op, after: &'a [Item]) -> Result<&'a [Item]> {
    let mut i = 0;
    if let Some(Item::Group { open: '(', .. }) = after.first()
        && after.get(1).is_some_and(|a| a.is_punct("->"))
    {
        op.in_types = types_of(&after[0])?;
        op.out_types = match after.get(2) {
            Some(next) => types_of(next)?,
            None => vec![],
        };
        i = 3;
    } else {
        let mut tys = vec![];
        while let Some(it) = after.get(i) {
            if !is_type(it) {
                break;
            }
            tys.push(parse_type(std::slice::from_ref(it), it.span())?);
            i += 1;
            if after.get(i).is_some_and(|a| a.is_punct(","))
                && after.get(i + 1).is_some_and(is_type)
            {
                i += 1;
            } else {
                break;
            }
        }
        // `T -> (T, T)`: the inputs without parentheses.
        if after.get(i).is_some_and(|a| a.is_punct("->")) {
            op.in_types = tys;
            op.out_types = match after.get(i + 1) {
                Some(next) => types_of(next)?,
                None => vec![],
            };
            i += 2;
        } else {
            op.out_types = tys;
        }
    }
    Ok(&after[i.min(after.len())..])
}

fn is_type(i: &Item) -> bool {
    match i.tok() {
        Some(Tok::Ident { name, angle }) => {
            angle.is_some() && matches!(name.as_str(), "tensor" | "tuple" | "complex")
                || angle.is_none() && super::types::elem_type(name).is_some()
        }
        Some(Tok::Bang { .. }) => true,
        _ => false,
    }
}

/// The types in `(T, T)` or a single `T`.
fn types_of(item: &Item) -> Result<Vec<Type>> {
    match item {
        Item::Group {
            open: '(', items, ..
        } => {
            let mut out = vec![];
            for part in split_commas(items) {
                if !part.is_empty() {
                    out.push(parse_type(part, part[0].span())?);
                }
            }
            Ok(out)
        }
        other => Ok(vec![parse_type(std::slice::from_ref(other), other.span())?]),
    }
}

/// `cond { } do { }`, `else { }`, `reducer(%a: T, %b: T) (%c: T, %d: T) { }`.
fn read_trailing(op: &mut Op, items: &[Item]) -> Result<()> {
    let mut label = String::new();
    let mut arg_groups: Vec<Vec<(String, Vec<Item>)>> = vec![];
    for it in items {
        match it {
            Item::Region(r) => {
                let mut r = r.clone();
                if !arg_groups.is_empty() && r.args.is_empty() {
                    // The pretty reduce writes (lhs_i, rhs_i) per operand; the
                    // block takes every lhs, then every rhs.
                    let lhs = arg_groups.iter().filter_map(|g| g.first().cloned());
                    let rhs = arg_groups.iter().filter_map(|g| g.get(1).cloned());
                    r.args = lhs.chain(rhs).collect();
                }
                op.regions.push(r);
                op.region_labels.push(std::mem::take(&mut label));
                arg_groups.clear();
            }
            Item::Group { open: '(', .. } => arg_groups.push(block_args(it)?),
            Item::Group {
                open: '{', items, ..
            } => op.attrs.extend(dict(items)?),
            Item::Tok(_) => {
                if let Some(w) = it.ident() {
                    label = w.to_string();
                } else if !it.is_punct(",") {
                    return Err(ImportError::at(
                        it.span(),
                        format!("unexpected text after the types of `{}`", op.name),
                    ));
                }
            }
            _ => {}
        }
    }
    Ok(())
}
