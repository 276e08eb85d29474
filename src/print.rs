//! Values printed as typed literals that parse back to the same value
//! (spec/printing.md): `f32[2x3] {{8, 10, 12}, {11, 13, 15}}`, `s32 5`,
//! `(f32[2], s32) ({1, 2}, 5)`. Floats print the shortest text that reads back
//! to the same bits. Large arrays are elided numpy-style unless `full`.

use crate::value::{Array, Scalar, Value};
use crate::with_array;
use half::{bf16, f16};

#[derive(Clone, Debug)]
pub struct PrintOptions {
    /// Print every element, however many.
    pub full: bool,
    /// Above this many elements, elide.
    pub threshold: usize,
    /// Elements kept at each end of an elided dimension.
    pub edge: usize,
    /// Lines longer than this break rows onto their own lines.
    pub width: usize,
}

impl Default for PrintOptions {
    fn default() -> Self {
        PrintOptions {
            full: false,
            threshold: 1000,
            edge: 3,
            width: 100,
        }
    }
}

/// Formats one element the way a literal of its type would be written.
pub trait FormatElem: Scalar {
    fn fmt_elem(self) -> String;
}

macro_rules! fmt_int {
    ($($t:ty),*) => {$( impl FormatElem for $t { fn fmt_elem(self) -> String { self.to_string() } } )*};
}
fmt_int!(i8, i16, i32, i64, u8, u16, u32, u64);

impl FormatElem for bool {
    fn fmt_elem(self) -> String {
        self.to_string()
    }
}

/// Rust's `{:?}` of a float is the shortest text that parses back to the same value;
/// drop the `.0` of whole numbers and spell NaN the way the language reads it.
fn tidy_float(s: String) -> String {
    let s = match s.as_str() {
        "NaN" => return "nan".into(),
        "-NaN" => return "-nan".into(),
        _ => s,
    };
    if let Some(stripped) = s.strip_suffix(".0") {
        stripped.to_string()
    } else if let Some((mant, exp)) = s.split_once('e') {
        let mant = mant.strip_suffix(".0").unwrap_or(mant);
        format!("{mant}e{exp}")
    } else {
        s
    }
}

impl FormatElem for f32 {
    fn fmt_elem(self) -> String {
        tidy_float(format!("{self:?}"))
    }
}
impl FormatElem for f64 {
    fn fmt_elem(self) -> String {
        tidy_float(format!("{self:?}"))
    }
}

/// The shortest decimal (by significant digits) that reads back to the same half value.
fn shortest_half<H: Copy + PartialEq>(x: H, to: fn(H) -> f32, from: fn(f64) -> H) -> String {
    let v = to(x);
    if !v.is_finite() || v == 0.0 {
        return v.fmt_elem();
    }
    for digits in 1..=9 {
        let s = format!("{:.*e}", digits - 1, v);
        if let Ok(back) = s.parse::<f64>() {
            if from(back) == x {
                // Present it as f32 would (plain decimal where short).
                return (back as f32).fmt_elem();
            }
        }
    }
    v.fmt_elem()
}

impl FormatElem for f16 {
    fn fmt_elem(self) -> String {
        if self.is_nan() {
            return "nan".into();
        }
        shortest_half(self, f16::to_f32, f16::from_f64)
    }
}
impl FormatElem for bf16 {
    fn fmt_elem(self) -> String {
        if self.is_nan() {
            return "nan".into();
        }
        shortest_half(self, bf16::to_f32, bf16::from_f64)
    }
}

/// The value as a typed literal.
pub fn format_value(v: &Value, opts: &PrintOptions) -> String {
    match v {
        Value::Array(a) => format_array(a, opts),
        Value::Tuple(items) => {
            let ty = v.ty();
            let bodies: Vec<String> = items.iter().map(|i| body_of(i, opts)).collect();
            let comma = if items.len() == 1 { "," } else { "" };
            format!("{ty} ({}{comma})", bodies.join(", "))
        }
    }
}

/// A tuple element without its type (the tuple's type already says it).
fn body_of(v: &Value, opts: &PrintOptions) -> String {
    match v {
        Value::Array(a) => array_body(a, opts, 0),
        Value::Tuple(items) => {
            let bodies: Vec<String> = items.iter().map(|i| body_of(i, opts)).collect();
            let comma = if items.len() == 1 { "," } else { "" };
            format!("({}{comma})", bodies.join(", "))
        }
    }
}

pub fn format_array(a: &Array, opts: &PrintOptions) -> String {
    let t = a.array_type();
    let body = array_body(a, opts, t.to_string().len() + 1);
    if t.dims.is_empty() {
        format!("{} {body}", t.elem)
    } else {
        format!("{t} {body}")
    }
}

fn array_body(a: &Array, opts: &PrintOptions, indent: usize) -> String {
    let elide = !opts.full && a.len() > opts.threshold;
    with_array!(a, x => {
        let dims = x.shape().to_vec();
        let elems: Vec<String> = x.iter().map(|v| v.fmt_elem()).collect();
        let nested = nest(&elems, &dims, 0, 0, elide, opts);
        layout(&nested, opts.width.saturating_sub(indent), indent)
    })
}

/// A literal as a tree, so that layout can decide where lines break.
enum Node {
    Leaf(String),
    List(Vec<Node>),
    Ellipsis,
}

fn nest(
    elems: &[String],
    dims: &[usize],
    depth: usize,
    offset: usize,
    elide: bool,
    opts: &PrintOptions,
) -> Node {
    if depth == dims.len() {
        return Node::Leaf(elems.get(offset).cloned().unwrap_or_default());
    }
    let n = dims[depth];
    let stride: usize = dims[depth + 1..].iter().product();
    let mut items = vec![];
    let cut = elide && n > 2 * opts.edge;
    for i in 0..n {
        if cut && i == opts.edge {
            items.push(Node::Ellipsis);
        }
        if cut && i >= opts.edge && i < n - opts.edge {
            continue;
        }
        items.push(nest(
            elems,
            dims,
            depth + 1,
            offset + i * stride,
            elide,
            opts,
        ));
    }
    Node::List(items)
}

fn flat(n: &Node) -> String {
    match n {
        Node::Leaf(s) => s.clone(),
        Node::Ellipsis => "...".into(),
        Node::List(items) => format!(
            "{{{}}}",
            items.iter().map(flat).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// One line when it fits; else each child of a list on its own line, aligned.
fn layout(n: &Node, width: usize, indent: usize) -> String {
    let one = flat(n);
    if one.len() <= width {
        return one;
    }
    match n {
        Node::List(items) if items.iter().any(|i| matches!(i, Node::List(_))) => {
            let pad = " ".repeat(indent + 1);
            let parts: Vec<String> = items
                .iter()
                .map(|i| layout(i, width.saturating_sub(1), indent + 1))
                .collect();
            format!("{{{}}}", parts.join(&format!(",\n{pad}")))
        }
        _ => one,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_shortest_and_round_trip() {
        assert_eq!(1.0f32.fmt_elem(), "1");
        assert_eq!(0.1f32.fmt_elem(), "0.1");
        assert_eq!(1e-7f32.fmt_elem(), "1e-7");
        assert_eq!(f32::NAN.fmt_elem(), "nan");
        assert_eq!(f32::NEG_INFINITY.fmt_elem(), "-inf");
        assert_eq!((-0.0f32).fmt_elem(), "-0");
        assert_eq!(f16::from_f32(0.1).fmt_elem(), "0.1");
        for x in [0.1f32, 1.0 / 3.0, 1e30, 1.17549435e-38, 1e-45, 16777216.0] {
            assert_eq!(x.fmt_elem().parse::<f32>().unwrap().to_bits(), x.to_bits());
        }
        for x in [0.1f64, 1.0 / 3.0, 1e300, 5e-324] {
            assert_eq!(x.fmt_elem().parse::<f64>().unwrap().to_bits(), x.to_bits());
        }
    }
}
