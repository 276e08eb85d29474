//! HLO shapes (`f32[4,8]{1,0}`, `pred[]`, `(f32[], s32[4]{0})`) and their
//! MLIR types (`tensor<4x8xf32>`, `tensor<i1>`, `tuple<...>`).

use crate::error::{ImportError, Result};
use xlet_core::span::Span;

#[derive(Clone, Debug, PartialEq)]
pub enum Shape {
    /// An array: its HLO element type name and dimensions.
    Array {
        elem: String,
        dims: Vec<u64>,
    },
    Tuple(Vec<Shape>),
}

/// The MLIR element type for an HLO element type name.
pub fn mlir_elem(hlo: &str) -> Option<String> {
    Some(match hlo {
        "pred" => "i1".into(),
        "s2" | "s4" | "s8" | "s16" | "s32" | "s64" => format!("i{}", &hlo[1..]),
        "u2" | "u4" | "u8" | "u16" | "u32" | "u64" => format!("ui{}", &hlo[1..]),
        "f16" | "bf16" | "f32" | "f64" => hlo.into(),
        "c64" => "complex<f32>".into(),
        "c128" => "complex<f64>".into(),
        _ if hlo.len() > 2
            && ["f8", "f6", "f4"].contains(&&hlo[..2])
            && hlo[2..].starts_with('e')
            && xlet_core::types::ElemType::parse(hlo).is_some() =>
        {
            format!("{}{}", &hlo[..2], hlo[2..].to_ascii_uppercase())
        }
        _ => return None,
    })
}

impl Shape {
    pub fn mlir(&self) -> String {
        match self {
            Shape::Array { elem, dims } => {
                let e = mlir_elem(elem).unwrap_or_else(|| elem.clone());
                let mut s = String::from("tensor<");
                for d in dims {
                    s.push_str(&d.to_string());
                    s.push('x');
                }
                s.push_str(&e);
                s.push('>');
                s
            }
            Shape::Tuple(parts) => {
                let p: Vec<String> = parts.iter().map(Shape::mlir).collect();
                format!("tuple<{}>", p.join(", "))
            }
        }
    }

    pub fn elem(&self) -> Option<&str> {
        match self {
            Shape::Array { elem, .. } => Some(elem),
            Shape::Tuple(_) => None,
        }
    }

    pub fn dims(&self) -> &[u64] {
        match self {
            Shape::Array { dims, .. } => dims,
            Shape::Tuple(_) => &[],
        }
    }

    pub fn parts(&self) -> Option<&[Shape]> {
        match self {
            Shape::Tuple(p) => Some(p),
            Shape::Array { .. } => None,
        }
    }

    /// The same dimensions with another element type.
    pub fn with_elem(&self, elem: &str) -> Shape {
        Shape::Array {
            elem: elem.into(),
            dims: self.dims().to_vec(),
        }
    }
}

/// The element type's class for `compare_type`.
pub fn compare_type(elem: &str) -> &'static str {
    match elem.as_bytes().first() {
        Some(b'f' | b'b' | b'c') => "FLOAT",
        Some(b's') => "SIGNED",
        _ => "UNSIGNED",
    }
}

pub fn check_elem(elem: &str, span: Span) -> Result<()> {
    if mlir_elem(elem).is_some() {
        return Ok(());
    }
    Err(match elem {
        "token" => ImportError::unsupported(
            span,
            "tokens (`after-all`, infeed, outfeed, send, recv): xlet has no side effects to order"
                .into(),
        ),
        "opaque" => ImportError::unsupported(span, "the opaque type".into()),
        _ => ImportError::at(span, format!("unknown HLO element type `{elem}`")),
    })
}
