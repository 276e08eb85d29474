//! MLIR types as xlet types: `tensor<4x8xf32>` is `f32[4x8]`, `tensor<i1>` is
//! `pred`, `tuple<...>` a tuple (spec/import.md §3).

use super::items::Item;
use super::lexer::Tok;
use crate::error::{ImportError, Result};
use xlet_core::span::Span;
use xlet_core::types::{ElemType, Type};

/// The element type an MLIR element type name means.
pub fn elem_type(name: &str) -> Option<ElemType> {
    Some(match name {
        "i1" => ElemType::Pred,
        "i8" | "si8" => ElemType::S8,
        "i16" | "si16" => ElemType::S16,
        "i32" | "si32" => ElemType::S32,
        "i64" | "si64" => ElemType::S64,
        "ui8" => ElemType::U8,
        "ui16" => ElemType::U16,
        "ui32" => ElemType::U32,
        "ui64" => ElemType::U64,
        "i4" | "si4" => ElemType::parse("s4")?,
        "ui4" => ElemType::parse("u4")?,
        "i2" | "si2" => ElemType::parse("s2")?,
        "ui2" => ElemType::parse("u2")?,
        "f16" => ElemType::F16,
        "bf16" => ElemType::BF16,
        "f32" => ElemType::F32,
        "f64" => ElemType::F64,
        "complex<f32>" => ElemType::C64,
        "complex<f64>" => ElemType::C128,
        other if other.starts_with("f8") || other.starts_with("f6") || other.starts_with("f4") => {
            ElemType::parse(other).filter(|t| t.small().is_some())?
        }
        _ => return None,
    })
}

/// A type written as items (`tensor<...>`, `tuple<...>`, a bare `f32`), with
/// anything after it (`{attrs}`, `loc(...)`) ignored.
pub fn parse_type(items: &[Item], span: Span) -> Result<Type> {
    let Some(first) = items.first() else {
        return Err(ImportError::at(span, "expected a type".into()));
    };
    let sp = first.span();
    match first.tok() {
        Some(Tok::Ident { name, angle }) => type_text(&join(name, angle.as_deref()), sp),
        Some(Tok::Bang { name, angle }) => Err(ImportError::unsupported(
            sp,
            format!(
                "the type `!{}` (xlet has no tokens or quantised types)",
                join(name, angle.as_deref())
            ),
        )),
        _ => Err(ImportError::at(sp, "expected a type".into())),
    }
}

fn join(name: &str, angle: Option<&str>) -> String {
    match angle {
        Some(a) => format!("{name}<{a}>"),
        None => name.to_string(),
    }
}

/// A type from its text (`tensor<2x3xf32>`, `f32`, `tuple<tensor<f32>, ...>`).
pub fn type_text(text: &str, sp: Span) -> Result<Type> {
    let text = text.trim();
    if let Some(body) = text
        .strip_prefix("tensor<")
        .and_then(|t| t.strip_suffix('>'))
    {
        return tensor_body(body, sp);
    }
    if let Some(body) = text
        .strip_prefix("tuple<")
        .and_then(|t| t.strip_suffix('>'))
    {
        let mut parts = vec![];
        for p in split_top(body, ',') {
            if !p.trim().is_empty() {
                parts.push(type_text(p, sp.clone())?);
            }
        }
        return Ok(Type::Tuple(parts));
    }
    if text.starts_with('!') {
        return Err(ImportError::unsupported(
            sp,
            format!("the type `{text}` (xlet has no tokens or quantised types)"),
        ));
    }
    match elem_type(text) {
        Some(e) => Ok(Type::scalar(e)),
        None => Err(unknown_elem(text, sp)),
    }
}

fn unknown_elem(text: &str, sp: Span) -> ImportError {
    ImportError::unsupported(sp, format!("the element type `{text}`")).with_help(
        "xlet has i1, i2-i64, ui2-ui64, f16, bf16, f32, f64, complex<f32>, complex<f64> and the f8/f6/f4 types",
    )
}

/// `4x?xf32, #enc` → dims and element type.
fn tensor_body(body: &str, sp: Span) -> Result<Type> {
    let body = split_top(body, ',').first().copied().unwrap_or("").trim();
    let mut rest = body;
    let mut dims = vec![];
    loop {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && rest.as_bytes().get(digits) == Some(&b'x') {
            let d: usize = rest[..digits].parse().map_err(|_| {
                ImportError::at(
                    sp.clone(),
                    format!("dimension `{}` is too large", &rest[..digits]),
                )
            })?;
            dims.push(d);
            rest = &rest[digits + 1..];
        } else if rest.starts_with("?x") || rest.starts_with('*') {
            return Err(ImportError::unsupported(
                sp,
                format!("the dynamically shaped type `tensor<{body}>` (xlet's shapes are static)"),
            ));
        } else {
            break;
        }
    }
    if rest.starts_with('!') {
        return Err(ImportError::unsupported(
            sp,
            format!("the element type `{rest}` (xlet has no quantised types)"),
        ));
    }
    let elem = elem_type(rest).ok_or_else(|| unknown_elem(rest, sp.clone()))?;
    Ok(Type::array(elem, dims))
}

/// Splits at `sep` outside `<...>`, `(...)`, `[...]` and strings.
pub fn split_top(s: &str, sep: char) -> Vec<&str> {
    let mut out = vec![];
    let mut depth = 0i32;
    let mut start = 0;
    let mut in_str = false;
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i] as char;
        if in_str {
            if c == '\\' {
                i += 1;
            } else if c == '"' {
                in_str = false;
            }
        } else if c == '"' {
            in_str = true;
        } else if c == '-' && b.get(i + 1) == Some(&b'>') {
            i += 1;
        } else if "<([{".contains(c) {
            depth += 1;
        } else if ">)]}".contains(c) {
            depth -= 1;
        } else if c == sep && depth == 0 {
            out.push(&s[start..i]);
            start = i + 1;
        }
        i += 1;
    }
    out.push(&s[start..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tensor_types() {
        assert_eq!(
            type_text("tensor<4x8xf32>", 0..1).unwrap().to_string(),
            "f32[4x8]"
        );
        assert_eq!(type_text("tensor<i1>", 0..1).unwrap().to_string(), "pred");
        assert_eq!(
            type_text("tensor<2xcomplex<f64>>", 0..1)
                .unwrap()
                .to_string(),
            "c128[2]"
        );
        assert_eq!(
            type_text("tensor<3xui4>", 0..1).unwrap().to_string(),
            "u4[3]"
        );
        assert_eq!(
            type_text("tensor<3xf8E4M3FN>", 0..1).unwrap().to_string(),
            "f8e4m3fn[3]"
        );
        assert_eq!(
            type_text("tuple<tensor<f32>, tensor<2xi32>>", 0..1)
                .unwrap()
                .to_string(),
            "(f32, s32[2])"
        );
        assert!(type_text("tensor<?x4xf32>", 0..1).is_err());
        assert!(type_text("tensor<4x!quant.uniform<i8:f32, 1.0>>", 0..1).is_err());
        assert!(type_text("tensor<4xindex>", 0..1).is_err());
    }
}
