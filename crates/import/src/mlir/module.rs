//! A module's top level: `module @name attributes {...} { func.func ... }`, or
//! bare functions as openxla/stablehlo's interpreter tests write them.

use super::attr::{Attr, dict};
use super::items::{Item, Reader, block_args};
use super::lexer::{Tok, Token, lex};
use super::types::parse_type;
use crate::error::{ImportError, Result};
use xlet_core::span::Span;
use xlet_core::types::Type;

#[derive(Clone, Debug)]
pub struct Func {
    pub name: String,
    pub params: Vec<(String, Type)>,
    /// A parameter's name from its location (`%arg0: tensor<2xf32> loc("x")`,
    /// as `jax.jit(...).lower(...).as_text(debug_info=True)` writes it).
    pub param_names: Vec<Option<String>>,
    pub results: Vec<Type>,
    pub body: super::items::Region,
    pub span: Span,
}

#[derive(Clone, Debug, Default)]
pub struct Module {
    pub funcs: Vec<Func>,
    pub attrs: Vec<(String, Attr)>,
}

/// Reads the module in `text[range]` (one `// -----` part of a file).
pub fn read(text: &str, base: usize) -> Result<Module> {
    let toks = lex(text, base)?;
    let mut r = Reader::new(&toks, base + text.len());
    let mut m = Module::default();
    top(&mut r, &mut m, 0)?;
    if r.peek().is_some() {
        return Err(ImportError::at(
            r.here(),
            "unexpected text after the module".into(),
        ));
    }
    Ok(m)
}

fn top(r: &mut Reader, m: &mut Module, depth: usize) -> Result<()> {
    while let Some(t) = r.peek() {
        match &t.tok {
            Tok::Punct("}") => return Ok(()),
            // `#loc1 = loc(...)`, `#map = ...`: aliases; skip to the next line.
            Tok::Hash { .. } => skip_line(r),
            Tok::Ident { name, .. } if name == "module" || name == "builtin.module" => {
                if depth > 0 {
                    return Err(ImportError::unsupported(
                        t.start..t.end,
                        "a module inside a module".into(),
                    ));
                }
                r.bump();
                if let Some(Token {
                    tok: Tok::Symbol(_),
                    ..
                }) = r.peek()
                {
                    r.bump();
                }
                if matches!(r.peek().map(|t| &t.tok), Some(Tok::Ident { name, .. }) if name == "attributes")
                {
                    r.bump();
                    let at = r.here();
                    match r.op_items_one()? {
                        Item::Group {
                            open: '{', items, ..
                        } => m.attrs.extend(dict(&items)?),
                        _ => {
                            return Err(ImportError::at(
                                at,
                                "expected `{` after `attributes`".into(),
                            ));
                        }
                    }
                }
                let open = r.here();
                r.expect("{")?;
                top(r, m, depth + 1)?;
                if !r.at_punct("}") {
                    return Err(ImportError::at(
                        open,
                        "unbalanced `{`: the module has no `}`".into(),
                    ));
                }
                r.bump();
                skip_loc(r);
            }
            Tok::Ident { name, .. } if name == "func.func" || name == "func" => {
                let f = func(r)?;
                m.funcs.push(f);
            }
            Tok::Ident { .. } | Tok::Value { .. } | Tok::Str(_) => {
                // Other module-level ops (`sdy.mesh`, ...) do not change values.
                r.op(1)?;
            }
            _ => {
                return Err(ImportError::at(
                    t.start..t.end,
                    "expected `module` or `func.func`".into(),
                ));
            }
        }
    }
    Ok(())
}

fn skip_line(r: &mut Reader) {
    r.bump();
    while let Some(t) = r.peek() {
        if t.line_start {
            break;
        }
        r.bump();
    }
}

fn skip_loc(r: &mut Reader) {
    if matches!(r.peek().map(|t| &t.tok), Some(Tok::Ident { name, angle: None }) if name == "loc") {
        r.bump();
        let _ = r.op_items_one();
    }
}

/// `func.func [public|private] @name(%a: T {attrs}, ...) [-> T | -> (T {attrs}, ...)]
/// [attributes {...}] { body }`.
fn func(r: &mut Reader) -> Result<Func> {
    let start = r.here().start;
    r.bump();
    if matches!(r.peek().map(|t| &t.tok), Some(Tok::Ident { name, .. }) if matches!(name.as_str(), "public" | "private" | "nested"))
    {
        r.bump();
    }
    let name = match r.bump().map(|t| &t.tok) {
        Some(Tok::Symbol(s)) => s.clone(),
        _ => {
            return Err(ImportError::at(
                r.here(),
                "expected the function's `@name`".into(),
            ));
        }
    };
    let params_group = r.op_items_one()?;
    if !matches!(params_group, Item::Group { open: '(', .. }) {
        return Err(ImportError::at(
            params_group.span(),
            "expected the function's parameters `(...)`".into(),
        ));
    }
    let mut params = vec![];
    let mut param_names = vec![];
    for (n, ty) in block_args(&params_group)? {
        let sp = ty.first().map_or(params_group.span(), Item::span);
        param_names.push(loc_name(&ty));
        params.push((n, parse_type(&ty, sp)?));
    }
    let mut results = vec![];
    if r.at_punct("->") {
        r.bump();
        let g = r.op_items_one()?;
        match &g {
            Item::Group {
                open: '(', items, ..
            } => {
                for part in super::items::split_commas(items) {
                    if !part.is_empty() {
                        results.push(parse_type(part, part[0].span())?);
                    }
                }
            }
            other => {
                results.push(parse_type(std::slice::from_ref(other), other.span())?);
                // Result attributes after a lone result type.
                if r.at_punct("{") && !body_follows(r) {
                    r.op_items_one()?;
                }
            }
        }
    }
    if matches!(r.peek().map(|t| &t.tok), Some(Tok::Ident { name, .. }) if name == "attributes") {
        r.bump();
        r.op_items_one()?;
    }
    let open = r.here();
    if !r.at_punct("{") {
        return Err(ImportError::unsupported(
            open,
            format!("the function @{name} has no body (an external declaration)"),
        ));
    }
    r.bump();
    let body = r.region_body(open.start, vec![], 1)?;
    skip_loc(r);
    Ok(Func {
        name,
        params,
        param_names,
        results,
        span: start..body.span.end,
        body,
    })
}

/// After `-> T`: is the `{` the body (an op or `}` follows), not result attributes?
fn body_follows(r: &Reader) -> bool {
    match r.peek_at(1).map(|t| &t.tok) {
        Some(Tok::Punct("}") | Tok::Value { .. } | Tok::Str(_) | Tok::Block(_)) => true,
        Some(Tok::Ident { name, .. }) => {
            (name.contains('.') || name == "return" || name == "call")
                && !matches!(r.peek_at(2).map(|t| &t.tok), Some(Tok::Punct("=")))
        }
        _ => false,
    }
}

/// The name in a `loc("name")` among a parameter's items, when it is an
/// identifier (JAX writes the Python argument's name there).
fn loc_name(items: &[Item]) -> Option<String> {
    let i = items.iter().position(|i| i.ident() == Some("loc"))?;
    let Some(Item::Group {
        open: '(',
        items: inner,
        ..
    }) = items.get(i + 1)
    else {
        return None;
    };
    match inner.as_slice() {
        [
            Item::Tok(Token {
                tok: Tok::Str(s), ..
            }),
        ] => {
            let ok = s.starts_with(|c: char| c.is_ascii_alphabetic())
                && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            ok.then(|| s.clone())
        }
        _ => None,
    }
}
