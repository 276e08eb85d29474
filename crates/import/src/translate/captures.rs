//! `stablehlo.case` and `stablehlo.if`: their regions take no block arguments
//! and read values of the enclosing scope. xlet's comps see only their
//! parameters (and the top level), so each branch is lambda-lifted: the
//! values it reads from outside are passed as one tuple operand and unpacked
//! inside the branch comp.

use super::Cx;
use super::scope::Bound;
use crate::error::{ImportError, Result};
use crate::mlir::items::{Item, Region};
use crate::mlir::lexer::Tok;
use crate::mlir::op::Op;
use std::collections::HashSet;
use xlet_core::types::Type;

/// The value names a region reads but does not define (recursively through
/// nested regions), in the order first read.
pub fn free_names(r: &Region) -> Vec<String> {
    let mut defined = HashSet::new();
    let mut used = vec![];
    walk(r, &mut defined, &mut used);
    let mut seen = HashSet::new();
    used.into_iter()
        .filter(|n| !defined.contains(n) && seen.insert(n.clone()))
        .collect()
}

fn walk(r: &Region, defined: &mut HashSet<String>, used: &mut Vec<String>) {
    for (n, _) in &r.args {
        defined.insert(n.clone());
    }
    for op in &r.ops {
        for (n, _) in &op.results {
            defined.insert(n.clone());
        }
        for it in &op.items {
            uses(it, defined, used);
        }
    }
}

fn uses(it: &Item, defined: &mut HashSet<String>, used: &mut Vec<String>) {
    match it {
        Item::Tok(t) => {
            if let Tok::Value { name, .. } = &t.tok {
                used.push(name.clone());
            }
        }
        Item::Group { items, .. } => {
            for i in items {
                uses(i, defined, used);
            }
        }
        Item::Region(r) => walk(r, defined, used),
    }
}

/// A value a branch reads from outside: its module name, binding and type.
pub struct Capture {
    pub name: String,
    pub bound: Bound,
    pub ty: Type,
}

/// The captures of all of `op`'s regions (one list shared by every branch,
/// so each branch comp takes the same tuple). Names not bound anywhere are
/// left out: they are a nested op's own names (pretty block arguments).
fn captures(cx: &Cx, op: &Op) -> Result<Vec<Capture>> {
    let mut names: Vec<String> = vec![];
    for r in &op.regions {
        for n in free_names(r) {
            if !names.contains(&n) {
                names.push(n);
            }
        }
    }
    let mut out = vec![];
    for name in names {
        let Some((b, _)) = cx.scopes.find(&name) else {
            continue;
        };
        let ty = b.type_of(None).ok_or_else(|| {
            ImportError::at(
                op.span.clone(),
                format!("the type of %{name}, which a branch reads, is not known"),
            )
        })?;
        out.push(Capture {
            name,
            bound: b.clone(),
            ty,
        });
    }
    Ok(out)
}

fn caps_tuple(caps: &[Capture]) -> Result<String> {
    let parts: Vec<String> = caps
        .iter()
        .map(|c| c.bound.expr(None).unwrap_or_default())
        .collect();
    Ok(super::tuple_expr_any(&parts))
}

/// `case(index)` → `Conditional(index, {b0, ...}, {caps, ...})`.
pub fn case(cx: &mut Cx, op: &Op, v: &[String]) -> Result<String> {
    let [index] = v else {
        return Err(ImportError::at(
            op.span.clone(),
            "a case takes one index".into(),
        ));
    };
    if op.regions.is_empty() {
        return Err(ImportError::at(
            op.span.clone(),
            "a case needs its branches".into(),
        ));
    }
    let caps = captures(cx, op)?;
    let t = caps_tuple(&caps)?;
    let mut comps = vec![];
    for r in op.regions.clone() {
        comps.push(cx.captured_comp("branch", &r, &caps, &op.out_types)?);
    }
    let ops = vec![t; comps.len()];
    Ok(format!(
        "Conditional({index}, {{{}}}, {{{}}})",
        comps.join(", "),
        ops.join(", ")
    ))
}

/// `if(pred)` → `Conditional(pred, caps, true_comp, caps, false_comp)`.
pub fn if_(cx: &mut Cx, op: &Op, v: &[String]) -> Result<String> {
    let ([pred], [then_r, else_r]) = (v, op.regions.as_slice()) else {
        return Err(ImportError::at(
            op.span.clone(),
            "an if takes a predicate and two regions".into(),
        ));
    };
    let (then_r, else_r) = (then_r.clone(), else_r.clone());
    let caps = captures(cx, op)?;
    let t = caps_tuple(&caps)?;
    let yes = cx.captured_comp("on_true", &then_r, &caps, &op.out_types)?;
    let no = cx.captured_comp("on_false", &else_r, &caps, &op.out_types)?;
    Ok(format!("Conditional({pred}, {t}, {yes}, {t}, {no})"))
}
