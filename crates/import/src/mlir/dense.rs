//! `dense<...>` constants as xlet literals (spec/import.md §5): decimal lists,
//! splats, hex bit patterns (`0x7FC00000`) and raw hex data (`"0x0000803F..."`).

use crate::error::{ImportError, Result};
use crate::fmt::{Scalar, scalar_text};
use xlet_core::span::Span;
use xlet_core::types::{ArrayType, ElemType};

/// The literal for a dense constant of type `ty`: `f32[2] {1, 2}`, `s32 5`,
/// or, for a splat of a non-scalar, `Broadcast(f32 0, {4, 8})`.
pub fn literal(body: &str, ty: &ArrayType, span: Span) -> Result<String> {
    let n = ty.num_elements().ok_or_else(|| too_big(&span))?;
    let body = body.trim();
    let scalars: Vec<Scalar> = if let Some(hex) = body.strip_prefix('"') {
        let hex = hex.strip_suffix('"').unwrap_or(hex);
        raw_hex(hex, ty.elem, n, &span)?
    } else {
        let mut out = vec![];
        decimal_items(body, ty.elem, &mut out, &span)?;
        out
    };
    if scalars.len() == n {
        Ok(array_text(ty, &scalars))
    } else if scalars.len() == 1 {
        let s = scalar_text(ty.elem, &scalars[0]);
        if ty.dims.is_empty() {
            Ok(format!("{} {s}", ty.elem))
        } else {
            let dims: Vec<String> = ty.dims.iter().map(|d| d.to_string()).collect();
            Ok(format!(
                "Broadcast({} {s}, {{{}}})",
                ty.elem,
                dims.join(", ")
            ))
        }
    } else {
        Err(ImportError::at(
            span,
            format!(
                "the constant has {} elements but its type `{}` holds {n}",
                scalars.len(),
                ty
            ),
        ))
    }
}

/// The constant's elements as little-endian bytes of its type (all of them,
/// a splat repeated), for binding it as a value without writing it as text.
pub fn le_bytes(body: &str, ty: &ArrayType, span: Span) -> Result<Vec<u8>> {
    let n = ty.num_elements().ok_or_else(|| too_big(&span))?;
    let size = ty.elem.byte_size().max(1);
    let total = n.checked_mul(size).ok_or_else(|| too_big(&span))?;
    let mut out: Vec<u8> = xlet_core::alloc::try_output_vec(total, &ty)
        .map_err(|e| ImportError::at(span.clone(), e.message))?;
    let body = body.trim();
    if let Some(hex) = body.strip_prefix("\"0x").and_then(|h| h.strip_suffix('"')) {
        let b = hex.as_bytes();
        if b.len() % 2 != 0 {
            return Err(ImportError::at(
                span,
                "a hex constant needs an even number of hex digits".into(),
            ));
        }
        let count = b.len() / 2;
        if count != total && count != size {
            return Err(ImportError::at(
                span,
                format!(
                    "the hex constant holds {count} bytes; {n} elements of {} take {total}",
                    ty.elem
                ),
            ));
        }
        for pair in b.chunks_exact(2) {
            let (hi, lo) = (hex_digit(pair[0]), hex_digit(pair[1]));
            match (hi, lo) {
                (Some(h), Some(l)) => out.push(h << 4 | l),
                _ => {
                    return Err(ImportError::at(
                        span,
                        "a hex constant holds a character that is not a hex digit".into(),
                    ));
                }
            }
        }
        while out.len() < total {
            out.extend_from_within(..size);
        }
        return Ok(out);
    }
    let mut scalars = vec![];
    decimal_items(body, ty.elem, &mut scalars, &span)?;
    if scalars.len() != n && scalars.len() != 1 {
        return Err(ImportError::at(
            span,
            format!(
                "the constant has {} elements but its type `{ty}` holds {n}",
                scalars.len()
            ),
        ));
    }
    for s in &scalars {
        put_le(ty.elem, s, &mut out);
    }
    while out.len() < total {
        out.extend_from_within(..size);
    }
    Ok(out)
}

fn hex_digit(c: u8) -> Option<u8> {
    (c as char).to_digit(16).map(|d| d as u8)
}

/// One element's little-endian bytes in `elem`.
fn put_le(elem: ElemType, s: &Scalar, out: &mut Vec<u8>) {
    match (elem, *s) {
        (ElemType::C64, Scalar::Complex(re, im)) => {
            out.extend_from_slice(&(re as f32).to_le_bytes());
            out.extend_from_slice(&(im as f32).to_le_bytes());
        }
        (ElemType::C128, Scalar::Complex(re, im)) => {
            out.extend_from_slice(&re.to_le_bytes());
            out.extend_from_slice(&im.to_le_bytes());
        }
        (ElemType::F32, s) => out.extend_from_slice(&(s.float() as f32).to_le_bytes()),
        (ElemType::F64, s) => out.extend_from_slice(&s.float().to_le_bytes()),
        (ElemType::F16, s) => out.extend_from_slice(&half::f16::from_f64(s.float()).to_le_bytes()),
        (ElemType::BF16, s) => {
            out.extend_from_slice(&half::bf16::from_f64(s.float()).to_le_bytes())
        }
        (ElemType::Small(t), Scalar::Int(i)) if t.is_int() => out.push(t.from_i64(i as i64)),
        (ElemType::Small(t), s) => out.push(t.from_f64(s.float())),
        (ElemType::Pred, s) => out.push((s.float() != 0.0) as u8),
        (e, s) => {
            let v = match s {
                Scalar::Int(i) => i,
                other => other.float() as i128,
            };
            out.extend_from_slice(&v.to_le_bytes()[..e.byte_size()]);
        }
    }
}

fn too_big(span: &Span) -> ImportError {
    ImportError::at(
        span.clone(),
        "the constant's type has too many elements".into(),
    )
}

/// Nested braces in row-major order: `f32[2x2] {{1, 2}, {3, 4}}`.
fn array_text(ty: &ArrayType, scalars: &[Scalar]) -> String {
    if ty.dims.is_empty() {
        return format!("{} {}", ty.elem, scalar_text(ty.elem, &scalars[0]));
    }
    let mut out = String::with_capacity(scalars.len() * 6 + 16);
    out.push_str(&ty.to_string());
    out.push(' ');
    nest(&mut out, &ty.dims, scalars, ty.elem);
    out
}

fn nest(out: &mut String, dims: &[usize], s: &[Scalar], elem: ElemType) {
    out.push('{');
    if dims.len() == 1 {
        for (i, v) in s.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(&scalar_text(elem, v));
        }
    } else {
        let inner: usize = dims[1..].iter().product();
        for i in 0..dims[0] {
            if i > 0 {
                out.push_str(", ");
            }
            nest(out, &dims[1..], &s[i * inner..(i + 1) * inner], elem);
        }
    }
    out.push('}');
}

/// The elements of a decimal body (`[[1.0, 2.0]]`, `0x7F800000`, `(1.0, 2.0)`, `true`).
fn decimal_items(body: &str, elem: ElemType, out: &mut Vec<Scalar>, span: &Span) -> Result<()> {
    let b = body.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'[' | b']' | b',' | b' ' | b'\n' | b'\t' | b'\r' => i += 1,
            b'(' => {
                let end = body[i..]
                    .find(')')
                    .map(|e| i + e)
                    .ok_or_else(|| bad(span, body))?;
                let inner = &body[i + 1..end];
                let (re, im) = inner.split_once(',').ok_or_else(|| bad(span, inner))?;
                let part = elem.component();
                out.push(Scalar::Complex(
                    one(re.trim(), part, span)?.float(),
                    one(im.trim(), part, span)?.float(),
                ));
                i = end + 1;
            }
            _ => {
                let end = body[i..]
                    .find([',', ']', ' ', '\n'])
                    .map_or(body.len(), |e| i + e);
                let item = &body[i..end];
                if elem.is_complex() {
                    // A real number in a complex constant.
                    let part = elem.component();
                    out.push(Scalar::Complex(one(item, part, span)?.float(), 0.0));
                } else {
                    out.push(one(item, elem, span)?);
                }
                i = end;
            }
        }
    }
    Ok(())
}

fn bad(span: &Span, what: &str) -> ImportError {
    let w: String = what.chars().take(40).collect();
    ImportError::at(
        span.clone(),
        format!("cannot read `{w}` as a constant's element"),
    )
}

/// One decimal element: an integer, a float, `true`/`false`, or a hex bit pattern.
fn one(item: &str, elem: ElemType, span: &Span) -> Result<Scalar> {
    if let Some(h) = item.strip_prefix("0x").or_else(|| item.strip_prefix("0X")) {
        let bits = u64::from_str_radix(h, 16).map_err(|_| bad(span, item))?;
        return Ok(from_bits(bits, elem));
    }
    match item {
        "true" => return Ok(Scalar::Int(1)),
        "false" => return Ok(Scalar::Int(0)),
        _ => {}
    }
    if elem.is_pred() || elem.is_int() || elem.small().is_some_and(|s| s.is_int()) {
        let v: i128 = item.parse().map_err(|_| bad(span, item))?;
        return Ok(Scalar::Int(v));
    }
    let v = match item {
        "inf" | "+inf" => f64::INFINITY,
        "-inf" => f64::NEG_INFINITY,
        "nan" | "+nan" | "-nan" => f64::NAN,
        _ => item.parse::<f64>().map_err(|_| bad(span, item))?,
    };
    Ok(Scalar::Float(v))
}

/// An element from its bit pattern (raw hex data, or `0x7F800000` in a list).
fn from_bits(bits: u64, elem: ElemType) -> Scalar {
    match elem {
        ElemType::F32 => Scalar::Float(f32::from_bits(bits as u32) as f64),
        ElemType::F64 => Scalar::Float(f64::from_bits(bits)),
        ElemType::F16 => Scalar::Float(half::f16::from_bits(bits as u16).to_f64()),
        ElemType::BF16 => Scalar::Float(half::bf16::from_bits(bits as u16).to_f64()),
        ElemType::Small(s) if s.is_float() => Scalar::Float(s.to_f64(bits as u8)),
        ElemType::Small(s) => Scalar::Int(s.to_i64(bits as u8) as i128),
        ElemType::Pred => Scalar::Int((bits != 0) as i128),
        e if e.is_signed_int() => {
            let w = e.bit_width();
            let shift = 64 - w;
            Scalar::Int((((bits << shift) as i64) >> shift) as i128)
        }
        _ => Scalar::Int(bits as i128),
    }
}

/// Raw little-endian data: `n` elements, or one (a splat). Types narrower than
/// a byte take a byte each, as MLIR stores them.
fn raw_hex(hex: &str, elem: ElemType, n: usize, span: &Span) -> Result<Vec<Scalar>> {
    let hex = hex
        .strip_prefix("0x")
        .or_else(|| hex.strip_prefix("0X"))
        .ok_or_else(|| ImportError::at(span.clone(), "a hex constant starts with `0x`".into()))?;
    if hex.len() % 2 != 0 || !hex.bytes().all(|c| c.is_ascii_hexdigit()) {
        return Err(ImportError::at(
            span.clone(),
            "a hex constant needs an even number of hex digits".into(),
        ));
    }
    let size = match elem {
        ElemType::C64 => 8,
        ElemType::C128 => 16,
        e => e.byte_size().max(1),
    };
    let bytes = hex.len() / 2;
    let count = if bytes == size { 1 } else { bytes / size };
    if bytes % size != 0 || (count != n && count != 1) {
        return Err(ImportError::at(
            span.clone(),
            format!(
                "the hex constant holds {bytes} bytes; {n} elements of {elem} take {}",
                n.saturating_mul(size)
            ),
        ));
    }
    let byte = |k: usize| u8::from_str_radix(&hex[2 * k..2 * k + 2], 16).unwrap_or(0);
    let word =
        |at: usize, w: usize| (0..w).fold(0u64, |acc, j| acc | (byte(at + j) as u64) << (8 * j));
    let mut out = xlet_core::alloc::try_output_vec(count, &"a constant")
        .map_err(|e| ImportError::at(span.clone(), e.message))?;
    for k in 0..count {
        let at = k * size;
        out.push(match elem {
            ElemType::C64 => Scalar::Complex(
                from_bits(word(at, 4), ElemType::F32).float(),
                from_bits(word(at + 4, 4), ElemType::F32).float(),
            ),
            ElemType::C128 => Scalar::Complex(
                from_bits(word(at, 8), ElemType::F64).float(),
                from_bits(word(at + 8, 8), ElemType::F64).float(),
            ),
            e => from_bits(word(at, size), e),
        });
    }
    Ok(out)
}
