//! `then` assertions (spec/language.md, "Assertions").
//!
//! `==`: same type (the checker proved it) and every element equal, where NaN
//! matches NaN and -0 equals +0. `~=`: both NaN, or equal, or
//! |a - b| <= tol + tol * |b|. `then EXPR`: a pred scalar that is true.

use super::{Env, eval_top};
use xlet_core::diag::Diag;
use xlet_core::print::{FormatElem, PrintOptions, format_value};
use xlet_core::value::small::{Widen, widen};
use xlet_core::value::{Array, Elem, Scalar, Value};
use xlet_core::with_array;
use xlet_ir::{self as ir, Assert};

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
            if let Some(m) = differs(&x, &y, tol, &mut vec![]) {
                // Elided printing costs what it shows, so the whole values are cheap to show.
                let opts = PrintOptions::default();
                let mut d = fail(format!("assertion failed: {}", m.headline))
                    .with_label("does not hold")
                    .with_secondary(actual.span.clone(), "actual")
                    .with_secondary(expected.span.clone(), "expected");
                for note in m.notes {
                    d = d.with_note(note);
                }
                d = d
                    .with_note(format!("actual:   {}", format_value(&x, &opts)))
                    .with_note(format!("expected: {}", format_value(&y, &opts)));
                if let Some(help) = m.help {
                    d = d.with_help(help);
                }
                return Err(Failure::Failed(d));
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

/// What a failed comparison reports: a one-line summary, notes (counts, the first
/// mismatches, the tolerance) and, for a default tolerance, how to choose another.
struct Mismatch {
    headline: String,
    notes: Vec<String>,
    help: Option<String>,
}

/// How many differing elements a failure lists.
const SHOWN_MISMATCHES: usize = 5;

/// Where two values differ; `None` when they match. Costs one pass over the
/// elements and formats only the few it shows.
fn differs(x: &Value, y: &Value, tol: Tolerance, path: &mut Vec<usize>) -> Option<Mismatch> {
    match (x, y) {
        (Value::Array(a), Value::Array(b)) => {
            if a.array_type() != b.array_type() {
                return Some(Mismatch {
                    headline: format!("types differ: {} and {}", a.array_type(), b.array_type()),
                    notes: vec![],
                    help: None,
                });
            }
            // A small type compares by value (its compute type holds every
            // value exactly), as the wide types do: -0 == 0, NaNs equal.
            if let (Array::Small(..), Array::Small(..)) = (a, b) {
                let wide = |v: &Array| widen(v, Widen::Value).map(Value::Array);
                if let (Ok(wa), Ok(wb)) = (wide(a), wide(b)) {
                    return differs(&wa, &wb, tol, path);
                }
            }
            let found = with_array!(a, p => mismatches(p, b, tol));
            let (first, _, _) = found.first.first()?;
            let dims = a.dims();
            let tuple_path = if path.is_empty() {
                String::new()
            } else {
                format!(" of tuple element {path:?}")
            };
            let first_at = index_of(*first, dims);
            let (_, act, exp) = &found.first[0];
            let headline = format!(
                "values differ at index {first_at:?}{tuple_path}: actual {act}, expected {exp}"
            );
            let mut notes = vec![];
            if a.len() > 1 {
                let listed: Vec<String> = found
                    .first
                    .iter()
                    .map(|(at, p, q)| format!("{:?}: {p} vs {q}", index_of(*at, dims)))
                    .collect();
                notes.push(format!(
                    "{} of {} elements differ; {} {}",
                    found.count,
                    a.len(),
                    if found.count > listed.len() {
                        "the first"
                    } else {
                        "at"
                    },
                    listed.join(", ")
                ));
            }
            let mut help = None;
            if found.rounding_only {
                help = Some(format!(
                    "the values differ only by rounding (within ~='s default tolerance for {}, \
                     {:e}): compare floats with `~=`, as in `then A ~= B`",
                    a.elem(),
                    default_tolerance(a.elem())
                ));
            }
            if let Tolerance::Close(given) = tol {
                let t = found.tol.unwrap_or(0.0);
                let rule = format!("|actual - expected| <= {t:e} + {t:e} * |expected|");
                match given {
                    Some(_) => notes.push(format!("~= within {t:e} allows {rule}")),
                    None => {
                        notes.push(format!(
                            "~= allows {rule}, {t:e} being the default tolerance for {}",
                            a.elem()
                        ));
                        help = Some(
                            "to allow larger differences, give a tolerance: `then A ~= B within 1e-3`"
                                .to_string(),
                        );
                    }
                }
            }
            Some(Mismatch {
                headline,
                notes,
                help,
            })
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
        _ => Some(Mismatch {
            headline: format!("types differ: {} and {}", x.ty(), y.ty()),
            notes: vec![],
            help: None,
        }),
    }
}

/// The multi-index of row-major position `at` in an array of `dims`.
fn index_of(at: usize, dims: &[usize]) -> Vec<usize> {
    let mut idx = vec![0; dims.len()];
    let mut rem = at;
    for d in (0..dims.len()).rev() {
        idx[d] = rem % dims[d].max(1);
        rem /= dims[d].max(1);
    }
    idx
}

/// The differing element pairs: how many, and the first few (row-major position,
/// actual and expected as printed).
struct Found {
    count: usize,
    first: Vec<(usize, String, String)>,
    /// The tolerance used, for `~=`.
    tol: Option<f64>,
    /// `==` on floats failed, but every differing pair is within `~=`'s default
    /// tolerance: a rounding difference, which `~=` is for.
    rounding_only: bool,
}

fn mismatches<T: Elem + FormatElem>(
    a: &xlet_core::value::Nd<T>,
    b: &Array,
    tol: Tolerance,
) -> Found {
    let tol = match tol {
        Tolerance::Exact => None,
        Tolerance::Close(Some(t)) => Some(t),
        Tolerance::Close(None) => Some(default_tolerance(T::TYPE)),
    };
    let mut found = Found {
        count: 0,
        first: vec![],
        tol,
        rounding_only: false,
    };
    let float_exact = tol.is_none() && (T::TYPE.is_float() || T::TYPE.is_complex());
    let loose = Some(default_tolerance(T::TYPE));
    let mut all_close = float_exact;
    let Some(b) = T::unwrap(b) else {
        found.count = 1;
        found.first.push((0, "?".into(), "?".into()));
        return found;
    };
    for (i, (&p, &q)) in a.iter().zip(b.iter()).enumerate() {
        if !same(p, q, tol) {
            all_close = all_close && same(p, q, loose);
            found.count += 1;
            if found.first.len() < SHOWN_MISMATCHES {
                found.first.push((i, p.fmt_elem(), q.fmt_elem()));
            }
        }
    }
    found.rounding_only = all_close && found.count > 0;
    found
}

/// How closely `then` compares: exactly (`==`) or within a tolerance (`~=`, `None` = the default).
#[derive(Copy, Clone)]
enum Tolerance {
    Exact,
    Close(Option<f64>),
}

/// The default tolerance of `~=` for an element type.
fn default_tolerance(e: xlet_core::types::ElemType) -> f64 {
    use xlet_core::types::ElemType::*;
    match e {
        F16 | BF16 => 1e-3,
        F64 | C128 => 1e-9,
        _ => 1e-5,
    }
}

fn same<T: Scalar>(p: T, q: T, tol: Option<f64>) -> bool {
    if T::TYPE.is_complex() {
        // Each part on its own, as two floats would compare.
        let ((pr, pi), (qr, qi)) = (p.parts(), q.parts());
        return same(pr, qr, tol) && same(pi, qi, tol);
    }
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
