//! Array literals: shape from brace nesting, element type from the literal's own
//! type, from context (weak typing), or by default (s32, f32, pred).

use xlet_core::diag::Diag;
use xlet_core::types::{ElemType, fmt_dims};
use xlet_core::value::Array;
use xlet_core::value::literal::{Atom, Part, build_array};
use xlet_syntax::ast::{Expr, ExprKind, NumLit, NumRun, Span, UnOp};

/// True when `e` is an untyped literal, whose element type comes from context.
pub fn is_weak(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Number(_) | ExprKind::Bool(_) | ExprKind::Numbers(_) => true,
        ExprKind::Brace(items) => items
            .iter()
            .all(|i| is_weak(i) || complex_parts(i).is_some()),
        ExprKind::Unary {
            op: UnOp::Neg,
            operand,
        } => matches!(operand.kind, ExprKind::Number(_)),
        _ => false,
    }
}

/// The two parts of a complex element written `(re, im)` inside a literal's
/// braces (or as the value of `c64 (re, im)`): each a number, possibly negated.
pub fn complex_parts(e: &Expr) -> Option<(Part<'_>, Part<'_>)> {
    fn part(e: &Expr) -> Option<Part<'_>> {
        match &e.kind {
            ExprKind::Number(n) => Some(Part {
                text: &n.text,
                is_integer: n.is_integer,
                negative: false,
            }),
            ExprKind::Unary {
                op: UnOp::Neg,
                operand,
            } => match &operand.kind {
                ExprKind::Number(n) => Some(Part {
                    text: &n.text,
                    is_integer: n.is_integer,
                    negative: true,
                }),
                _ => None,
            },
            _ => None,
        }
    }
    match &e.kind {
        ExprKind::Tuple(items) if items.len() == 2 => Some((part(&items[0])?, part(&items[1])?)),
        _ => None,
    }
}

/// Whether an untyped literal is written with a point or exponent (or inf/nan) somewhere.
pub fn has_float_text(e: &Expr) -> bool {
    flatten(e)
        .map(|f| f.atoms().any(|(a, _)| a.is_float_text()))
        .unwrap_or(false)
}

/// The leaves and dims of a literal, before an element type is chosen. The leaves
/// borrow the tree: a run of plain numbers stays one leaf, read item by item.
pub struct Flat<'a> {
    pub dims: Vec<usize>,
    leaves: Vec<Leaf<'a>>,
    len: usize,
}

enum Leaf<'a> {
    One(Atom<'a>, Span),
    Run(&'a NumRun),
}

impl<'a> Flat<'a> {
    /// How many elements the literal holds.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The elements in row-major order, each with where it was written.
    pub fn atoms(&self) -> Atoms<'_, 'a> {
        Atoms {
            leaves: &self.leaves,
            item: 0,
        }
    }

    /// Where the `i`th element was written.
    fn span_of(&self, i: usize) -> Option<Span> {
        self.atoms().nth(i).map(|(_, s)| s)
    }
}

/// Iterator over a `Flat`'s elements.
pub struct Atoms<'f, 'a> {
    leaves: &'f [Leaf<'a>],
    /// The next item within the first leaf, when it is a run.
    item: usize,
}

impl<'a> Iterator for Atoms<'_, 'a> {
    type Item = (Atom<'a>, Span);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let (first, rest) = self.leaves.split_first()?;
            match first {
                Leaf::One(atom, span) => {
                    self.leaves = rest;
                    return Some((*atom, span.clone()));
                }
                Leaf::Run(run) => match run.get(self.item) {
                    Some(n) => {
                        self.item += 1;
                        let atom = Atom::Num {
                            text: n.text,
                            is_integer: n.is_integer,
                            negative: n.negative,
                        };
                        return Some((atom, n.span()));
                    }
                    None => {
                        self.leaves = rest;
                        self.item = 0;
                    }
                },
            }
        }
    }
}

/// Flattens a (possibly nested) untyped literal, checking it is rectangular.
pub fn flatten(e: &Expr) -> Result<Flat<'_>, Diag> {
    let mut flat = Flat {
        dims: vec![],
        leaves: vec![],
        len: 0,
    };
    let dims = walk(e, &mut flat)?;
    flat.dims = dims;
    Ok(flat)
}

/// One number (negated when written `-n`) as a leaf spanning `e`.
fn push_number<'a>(flat: &mut Flat<'a>, n: &'a NumLit, negative: bool, e: &Expr) {
    flat.leaves.push(Leaf::One(
        Atom::Num {
            text: &n.text,
            is_integer: n.is_integer,
            negative,
        },
        e.span.clone(),
    ));
    flat.len += 1;
}

fn walk<'a>(e: &'a Expr, flat: &mut Flat<'a>) -> Result<Vec<usize>, Diag> {
    match &e.kind {
        ExprKind::Number(n) => {
            push_number(flat, n, false, e);
            Ok(vec![])
        }
        // A brace of plain numbers: one leaf, shape [n], rectangular by construction.
        ExprKind::Numbers(run) => {
            flat.leaves.push(Leaf::Run(run));
            flat.len += run.len();
            Ok(vec![run.len()])
        }
        ExprKind::Unary {
            op: UnOp::Neg,
            operand,
        } if matches!(operand.kind, ExprKind::Number(_)) => {
            if let ExprKind::Number(n) = &operand.kind {
                push_number(flat, n, true, e);
            }
            Ok(vec![])
        }
        ExprKind::Tuple(_) if complex_parts(e).is_some() => {
            if let Some((re, im)) = complex_parts(e) {
                flat.leaves
                    .push(Leaf::One(Atom::Complex(re, im), e.span.clone()));
                flat.len += 1;
            }
            Ok(vec![])
        }
        ExprKind::Bool(b) => {
            flat.leaves.push(Leaf::One(Atom::Bool(*b), e.span.clone()));
            flat.len += 1;
            Ok(vec![])
        }
        ExprKind::Brace(items) => {
            let mut inner: Option<(Vec<usize>, Span)> = None;
            for item in items {
                let d = walk(item, flat)?;
                match &inner {
                    None => inner = Some((d, item.span.clone())),
                    Some((first, first_span)) if *first != d => {
                        return Err(Diag::check(
                            "literal",
                            format!(
                                "ragged array literal: this element has shape [{}] but the first has shape [{}]",
                                fmt_dims(&d),
                                fmt_dims(first)
                            ),
                            item.span.clone(),
                        )
                        .with_label(format!("shape [{}]", fmt_dims(&d)))
                        .with_secondary(first_span.clone(), format!("shape [{}]", fmt_dims(first)))
                        .with_note("XLA arrays are rectangular: every row of a literal has the same length"));
                    }
                    _ => {}
                }
            }
            let mut dims = vec![items.len()];
            dims.extend(inner.map(|(d, _)| d).unwrap_or_default());
            Ok(dims)
        }
        // A parenthesised element that is not two numbers: a malformed complex one.
        ExprKind::Tuple(items) => Err(Diag::check(
            "literal",
            if items.len() == 2 {
                "a complex element is (re, im), each part a number (possibly negative)".to_string()
            } else {
                format!(
                    "a complex element is (re, im), two numbers, but this has {}",
                    xlet_core::english::count(items.len(), "item")
                )
            },
            e.span.clone(),
        )
        .with_label("not (re, im)")
        .with_help("write a complex element as two numbers, e.g. c64[2] {(1, 2), (3, -4)}")),
        _ => Err(Diag::check(
            "literal",
            "an array literal holds only numbers, true/false and (re, im) pairs of numbers",
            e.span.clone(),
        )
        .with_label("not a number")
        .with_help(
            "bind arrays with `let` and combine them with an op such as Concatenate or Tuple",
        )),
    }
}

/// The element type an untyped literal takes with no context.
pub fn default_elem(flat: &Flat) -> Result<ElemType, Diag> {
    let bools = flat
        .atoms()
        .filter(|(a, _)| matches!(a, Atom::Bool(_)))
        .count();
    if bools > 0 && bools < flat.len() {
        let span = flat
            .atoms()
            .find(|(a, _)| !matches!(a, Atom::Bool(_)))
            .map(|(_, s)| s);
        return Err(Diag::check(
            "literal",
            "an array literal mixes true/false with numbers",
            span.unwrap_or(0..0),
        )
        .with_label("a number among booleans"));
    }
    Ok(if bools > 0 {
        ElemType::Pred
    } else if flat.atoms().any(|(a, _)| matches!(a, Atom::Complex(..))) {
        ElemType::C64
    } else if flat.atoms().any(|(a, _)| a.is_float_text()) {
        ElemType::F32
    } else {
        ElemType::S32
    })
}

/// Builds the literal's value with element type `elem`.
pub fn build(flat: &Flat, elem: ElemType, span: &Span) -> Result<Array, Diag> {
    // Admitted first, so that a literal past the budget is a `memory` error
    // (spec/language.md §8.5), told apart from a value that is not an element.
    let ty = xlet_core::types::ArrayType::new(elem, flat.dims.clone());
    let bytes = flat
        .dims
        .iter()
        .product::<usize>()
        .saturating_mul(elem.byte_size());
    xlet_core::alloc::admit(bytes, &ty)
        .map_err(|e| Diag::check("memory", e.message, span.clone()))?;
    build_array(elem, &flat.dims, flat.atoms().map(|(a, _)| a)).map_err(|(i, why)| {
        Diag::check(
            "literal",
            why.clone(),
            flat.span_of(i).unwrap_or(span.clone()),
        )
        .with_label(format!("not {} value", xlet_core::english::a(elem.name())))
    })
}
