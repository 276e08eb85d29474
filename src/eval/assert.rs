//! `then` assertions (spec/language.md, "Assertions").
//!
//! `==`: same type (the checker proved it) and every element equal, where NaN
//! matches NaN and -0 equals +0. `~=`: both NaN, or equal, or
//! |a - b| <= tol + tol * |b|. `then EXPR`: a pred scalar that is true.

use super::{Env, eval_top};
use crate::diag::Diag;
use crate::ir::{self, Assert};
use crate::print::{PrintOptions, format_value};
use crate::value::{Array, Elem, Scalar, Value};
use crate::with_array;

pub enum Failure {
    /// The assertion evaluated and does not hold.
    Failed(Diag),
    /// Evaluating one side failed.
    Error(Diag),
}

pub fn check(a: &Assert, stmt: &ir::Stmt, env: &Env) -> Result<(), Failure> {
    let ev = |e: &ir::Expr| eval_top(e, env).map_err(Failure::Error);
    let fail = |msg: String| Diag::runtime("assert", msg, stmt.span.clone());
    match a {
        Assert::Equal { actual, expected }
        | Assert::Close {
            actual, expected, ..
        } => {
            let tol = match a {
                Assert::Close { tol, .. } => Tolerance::Close(*tol),
                _ => Tolerance::Exact,
            };
            let (x, y) = (ev(actual)?, ev(expected)?);
            if let Some(why) = differs(&x, &y, tol, &mut vec![]) {
                let opts = PrintOptions::default();
                return Err(Failure::Failed(
                    fail(format!("assertion failed: {why}"))
                        .with_label("does not hold")
                        .with_secondary(actual.span.clone(), "actual")
                        .with_secondary(expected.span.clone(), "expected")
                        .with_note(format!("actual:   {}", format_value(&x, &opts)))
                        .with_note(format!("expected: {}", format_value(&y, &opts))),
                ));
            }
            Ok(())
        }
        Assert::Holds(e) => {
            let v = ev(e)?;
            let ok = match &v {
                Value::Array(Array::Pred(p)) => p.iter().all(|&b| b),
                _ => false,
            };
            if ok {
                Ok(())
            } else {
                Err(Failure::Failed(
                    fail("assertion failed: the condition is false".into()).with_label("false"),
                ))
            }
        }
    }
}

/// Where two values differ, as a sentence; `None` when they match.
fn differs(x: &Value, y: &Value, tol: Tolerance, path: &mut Vec<usize>) -> Option<String> {
    match (x, y) {
        (Value::Array(a), Value::Array(b)) => {
            if a.array_type() != b.array_type() {
                return Some(format!(
                    "types differ: {} and {}",
                    a.array_type(),
                    b.array_type()
                ));
            }
            let at = with_array!(a, p => first_difference(p, b, tol))?;
            let dims = a.dims();
            let mut idx = vec![0; dims.len()];
            let mut rem = at;
            for d in (0..dims.len()).rev() {
                idx[d] = rem % dims[d].max(1);
                rem /= dims[d].max(1);
            }
            let opts = PrintOptions::default();
            let elem = |arr: &Array| {
                let v = with_array!(arr, p => Value::Array(Elem::wrap(
                    ndarray::ArrayD::from_elem(ndarray::IxDyn(&[]), p.iter().nth(at).copied().unwrap_or_default()).into_shared())));
                format_value(&v, &opts)
            };
            let tuple_path = if path.is_empty() {
                String::new()
            } else {
                format!(" of tuple element {:?}", path)
            };
            Some(format!(
                "values differ at index {:?}{tuple_path}: actual {}, expected {}",
                idx,
                elem(a),
                elem(b)
            ))
        }
        (Value::Tuple(xs), Value::Tuple(ys)) if xs.len() == ys.len() => {
            for (i, (p, q)) in xs.iter().zip(ys.iter()).enumerate() {
                path.push(i);
                let r = differs(p, q, tol, path);
                path.pop();
                if r.is_some() {
                    return r;
                }
            }
            None
        }
        _ => Some(format!("types differ: {} and {}", x.ty(), y.ty())),
    }
}

/// Row-major index of the first element pair that does not match.
fn first_difference<T: Elem>(a: &crate::value::Nd<T>, b: &Array, tol: Tolerance) -> Option<usize> {
    let Some(b) = T::unwrap(b) else {
        return Some(0);
    };
    let tol = match tol {
        Tolerance::Exact => None,
        Tolerance::Close(Some(t)) => Some(t),
        Tolerance::Close(None) => Some(default_tolerance(T::TYPE)),
    };
    a.iter().zip(b.iter()).position(|(&p, &q)| !same(p, q, tol))
}

/// How closely `then` compares: exactly (`==`) or within a tolerance (`~=`, `None` = the default).
#[derive(Copy, Clone)]
enum Tolerance {
    Exact,
    Close(Option<f64>),
}

/// The default tolerance of `~=` for an element type.
fn default_tolerance(e: crate::types::ElemType) -> f64 {
    use crate::types::ElemType::*;
    match e {
        F16 | BF16 => 1e-3,
        F64 => 1e-9,
        _ => 1e-5,
    }
}

fn same<T: Scalar>(p: T, q: T, tol: Option<f64>) -> bool {
    if p == q || (p.is_nan() && q.is_nan()) {
        return true;
    }
    match tol {
        Some(t) => {
            let (a, b) = (p.to_f64(), q.to_f64());
            (a - b).abs() <= t + t * b.abs()
        }
        None => false,
    }
}
