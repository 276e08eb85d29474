//! Array literals: shape from brace nesting, element type from the literal's own
//! type, from context (weak typing), or by default (s32, f32, pred).

use crate::ast::{Expr, ExprKind, Span, UnOp};
use crate::diag::Diag;
use crate::types::{ElemType, fmt_dims};
use crate::value::Array;
use crate::value::literal::{Atom, build_array};

/// True when `e` is an untyped literal, whose element type comes from context.
pub fn is_weak(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Number(_) | ExprKind::Bool(_) => true,
        ExprKind::Brace(items) => items.iter().all(is_weak),
        ExprKind::Unary {
            op: UnOp::Neg,
            operand,
        } => matches!(operand.kind, ExprKind::Number(_)),
        _ => false,
    }
}

/// Whether an untyped literal is written with a point or exponent (or inf/nan) somewhere.
pub fn has_float_text(e: &Expr) -> bool {
    flatten(e)
        .map(|f| f.atoms.iter().any(Atom::is_float_text))
        .unwrap_or(false)
}

/// The leaves and dims of a literal, before an element type is chosen.
pub struct Flat {
    pub dims: Vec<usize>,
    pub atoms: Vec<Atom>,
    pub spans: Vec<Span>,
}

/// Flattens a (possibly nested) untyped literal, checking it is rectangular.
pub fn flatten(e: &Expr) -> Result<Flat, Diag> {
    let mut flat = Flat {
        dims: vec![],
        atoms: vec![],
        spans: vec![],
    };
    let dims = walk(e, &mut flat)?;
    flat.dims = dims;
    Ok(flat)
}

fn walk(e: &Expr, flat: &mut Flat) -> Result<Vec<usize>, Diag> {
    match &e.kind {
        ExprKind::Number(n) => {
            flat.atoms.push(Atom::Num {
                text: n.text.clone(),
                is_integer: n.is_integer,
                negative: false,
            });
            flat.spans.push(e.span.clone());
            Ok(vec![])
        }
        ExprKind::Unary {
            op: UnOp::Neg,
            operand,
        } if matches!(operand.kind, ExprKind::Number(_)) => {
            if let ExprKind::Number(n) = &operand.kind {
                flat.atoms.push(Atom::Num {
                    text: n.text.clone(),
                    is_integer: n.is_integer,
                    negative: true,
                });
                flat.spans.push(e.span.clone());
            }
            Ok(vec![])
        }
        ExprKind::Bool(b) => {
            flat.atoms.push(Atom::Bool(*b));
            flat.spans.push(e.span.clone());
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
        _ => Err(Diag::check(
            "literal",
            "an array literal holds only numbers and true/false",
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
        .atoms
        .iter()
        .filter(|a| matches!(a, Atom::Bool(_)))
        .count();
    if bools > 0 && bools < flat.atoms.len() {
        let i = flat
            .atoms
            .iter()
            .position(|a| !matches!(a, Atom::Bool(_)))
            .unwrap_or(0);
        return Err(Diag::check(
            "literal",
            "an array literal mixes true/false with numbers",
            flat.spans.get(i).cloned().unwrap_or(0..0),
        )
        .with_label("a number among booleans"));
    }
    Ok(if bools > 0 {
        ElemType::Pred
    } else if flat.atoms.iter().any(Atom::is_float_text) {
        ElemType::F32
    } else {
        ElemType::S32
    })
}

/// Builds the literal's value with element type `elem`.
pub fn build(flat: &Flat, elem: ElemType, span: &Span) -> Result<Array, Diag> {
    build_array(elem, &flat.dims, &flat.atoms).map_err(|(i, why)| {
        Diag::check(
            "literal",
            why.clone(),
            flat.spans.get(i).cloned().unwrap_or(span.clone()),
        )
        .with_label(format!("not {} value", crate::english::a(elem.name())))
    })
}
