//! A While loop's trip count, when the program fixes it (spec/grad.md §4.5):
//! the state is a tuple, one element `k` of it is an integer counter that starts
//! at a literal, the condition compares it with a literal, and the body adds a
//! literal to it. Differentiating writes such a loop out iteration by
//! iteration; any other While is rejected with the reason.

use crate::ir::{Comp, Expr, ExprKind};
use crate::value::Value;

/// The loops unrolled for a gradient run at most this many iterations.
pub const MAX_TRIPS: usize = 1 << 16;

/// `e` with locals followed to the expressions they are bound to.
fn resolve<'c>(c: &'c Comp, mut e: &'c Expr) -> &'c Expr {
    for _ in 0..=c.body.len() {
        let ExprKind::Local(s) = &e.kind else {
            return e;
        };
        match c.body.iter().find(|(slot, _)| slot == s) {
            Some((_, b)) => e = b,
            None => return e,
        }
    }
    e
}

/// The integer value of a scalar literal.
pub fn literal_int(e: &Expr) -> Option<i64> {
    let ExprKind::Const(Value::Array(a)) = &e.kind else {
        return None;
    };
    if !a.dims().is_empty() || !a.elem().is_int() {
        return None;
    }
    let v = *a.to_vec::<f64>().first()?;
    (v.abs() < 9e15).then_some(v as i64)
}

/// `GetTupleElement(param, k)` of the comp's only parameter: `k`.
fn counter_read(c: &Comp, e: &Expr) -> Option<usize> {
    let e = resolve(c, e);
    let ExprKind::Op { kernel, args, .. } = &e.kind else {
        return None;
    };
    let k = kernel.tuple_index()?;
    let inner = resolve(c, args.first()?);
    matches!(inner.kind, ExprKind::Local(0)).then_some(k)
}

/// The comparison: the counter's element, the op (written counter first) and
/// the literal bound.
fn condition(cond: &Comp) -> Option<(usize, &'static str, i64)> {
    let e = resolve(cond, &cond.result);
    let ExprKind::Op { name, args, .. } = &e.kind else {
        return None;
    };
    let [a, b] = &args[..] else { return None };
    let flip = |op: &'static str| match op {
        "Lt" => "Gt",
        "Gt" => "Lt",
        "Le" => "Ge",
        "Ge" => "Le",
        other => other,
    };
    if !matches!(*name, "Lt" | "Le" | "Gt" | "Ge" | "Ne") {
        return None;
    }
    if let (Some(k), Some(n)) = (counter_read(cond, a), literal_int(resolve(cond, b))) {
        return Some((k, name, n));
    }
    let (k, n) = (counter_read(cond, b)?, literal_int(resolve(cond, a))?);
    Some((k, flip(name), n))
}

/// The literal the body adds to element `k`.
fn step(body: &Comp, k: usize) -> Option<i64> {
    let ExprKind::Tuple(items) = &resolve(body, &body.result).kind else {
        return None;
    };
    let e = resolve(body, items.get(k)?);
    let ExprKind::Op { name, args, .. } = &e.kind else {
        return None;
    };
    let [a, b] = &args[..] else { return None };
    let sign = match *name {
        "Add" => 1,
        "Sub" => -1,
        _ => return None,
    };
    if counter_read(body, a) == Some(k) {
        return literal_int(resolve(body, b)).map(|s| sign * s);
    }
    if sign == 1 && counter_read(body, b) == Some(k) {
        return literal_int(resolve(body, a));
    }
    None
}

/// How many times the body runs, given the literal each state element starts
/// at (`start(k)`, `None` where it is not a literal).
pub fn trip_count(
    cond: &Comp,
    body: &Comp,
    start: &dyn Fn(usize) -> Option<i64>,
) -> Result<usize, String> {
    let shape = "a gradient through While needs a trip count the program fixes: a state tuple whose element k starts at a literal, a condition `Lt(GetTupleElement(s, k), N)` (or Le, Gt, Ge, Ne) with a literal N, and a body that adds a literal to element k";
    let Some((k, op, n)) = condition(cond) else {
        return Err(format!("{shape}; this condition is not such a comparison"));
    };
    let Some(s) = step(body, k) else {
        return Err(format!(
            "{shape}; this body does not add a literal to element {k}"
        ));
    };
    let Some(mut i) = start(k) else {
        return Err(format!(
            "{shape}; element {k} of the initial state is not a literal"
        ));
    };
    let holds = |i: i64| match op {
        "Lt" => i < n,
        "Le" => i <= n,
        "Gt" => i > n,
        "Ge" => i >= n,
        _ => i != n,
    };
    let mut trips = 0;
    while holds(i) {
        if trips >= MAX_TRIPS {
            return Err(format!(
                "this While runs more than {MAX_TRIPS} iterations (or never stops); a gradient writes every iteration out, and xlet stops at {MAX_TRIPS}"
            ));
        }
        trips += 1;
        i = i.checked_add(s).ok_or("the While's counter overflows")?;
    }
    Ok(trips)
}
