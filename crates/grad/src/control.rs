//! The rules of the ops that apply a computation: Map, Sort and Conditional
//! (spec/grad.md §4.3). Each writes helper comps around the vjp comp of the
//! computation it applies.

use super::is_float;
use super::rule::{NoRule, RuleCx, brace, tuple_text, zeros};
use std::sync::Arc;
use xlet_core::types::Type;
use xlet_ir::Comp;

/// `name0: T0, name1: T1, ...` for the comp's parameter types.
fn params_text(c: &Comp, prefix: &str) -> String {
    c.params
        .iter()
        .enumerate()
        .map(|(i, (_, t))| format!("{prefix}{i}: {t}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `p0, p1, ...`.
fn names(prefix: &str, n: usize) -> String {
    (0..n)
        .map(|i| format!("{prefix}{i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Where parameter `i`'s gradient stands among the vjp comp's gradients (they
/// are the float parameters', in order).
fn grad_slot(c: &Comp, i: usize) -> usize {
    c.params[..i.min(c.params.len())]
        .iter()
        .filter(|(_, t)| is_float(t))
        .count()
}

/// `Map({x, y}, f)`: for each float operand `i`, `Map({x, y, c}, f_d_i)` where
/// `f_d_i(x, y, c)` is the gradient `f`'s vjp comp sends to parameter `i`. The
/// helper only calls the vjp comp, so the Map compiles into the fused engine
/// whenever `f`'s backward is elementwise (calls are compiled in place).
pub fn map(cx: &mut RuleCx, comp: &Arc<Comp>) -> Result<(), NoRule> {
    let vjp = cx.env.vjp_of(comp)?;
    let n = comp.params.len();
    let operands: Vec<String> = cx.args.iter().map(|v| v.name.clone()).collect();
    for i in 0..n {
        if !cx.is_active(i) {
            continue;
        }
        let slot = grad_slot(comp, i);
        let key = format!("map {} d{i}", comp.id);
        let ret = comp.params[i].1.to_string();
        let ct_ty = comp.ret.to_string();
        let params = params_text(comp, "p");
        let args = names("p", n);
        let name = cx.env.helper(&key, &format!("{}_d{i}", comp.name), &|name| {
            format!(
                "comp {name}({params}, ct: {ct_ty}) -> {ret} {{\n  GetTupleElement(GetTupleElement({vjp}({args}, ct), 1), {slot})\n}}\n"
            )
        });
        let t = format!("Map({{{}, {}}}, {name})", operands.join(", "), cx.ct.name);
        cx.send(i, t);
    }
    Ok(())
}

/// `Sort(operands, comparator, dimension)`: the permutation the sort applied
/// (an `Iota` sorted along with the operands, by the same comparator, so the
/// same stable order), then each cotangent put back in place by sorting it by
/// that permutation.
pub fn sort(cx: &mut RuleCx, dim: usize, comparator: Option<&Arc<Comp>>) -> Result<(), NoRule> {
    let n = cx.args.len();
    let x = cx.arg_array(0)?.clone();
    let big = x.dims.get(dim).is_some_and(|&d| d > i32::MAX as usize);
    let index = if big { "s64" } else { "s32" };
    let iota = cx.bind(format!(
        "Iota({index}[{}], {dim})",
        xlet_core::types::fmt_dims(&x.dims)
    ));
    let operands: Vec<String> = cx.args.iter().map(|v| v.name.clone()).collect();
    let cmp = match comparator {
        None => String::new(),
        Some(c) => {
            // The user's comparator, ignoring the index operand's pair.
            let params = params_text(c, "p");
            let args = names("p", c.params.len());
            let callee = c.name.clone();
            let name = cx.env.helper(
                &format!("sort {} {index}", c.id),
                &format!("{}_with_index", c.name),
                &|name| {
                    format!(
                        "comp {name}({params}, i: {index}, j: {index}) -> pred {{\n  {callee}({args})\n}}\n"
                    )
                },
            );
            format!(", comparator={name}")
        }
    };
    let sorted = cx.bind(format!(
        "Sort({{{}, {iota}}}{cmp}, dimension={dim}, is_stable=true)",
        operands.join(", ")
    ));
    let perm = cx.bind(format!("GetTupleElement({sorted}, {n})"));
    let active: Vec<usize> = (0..n).filter(|&i| cx.is_active(i)).collect();
    let cts: Vec<String> = active
        .iter()
        .map(|&i| {
            if n == 1 {
                cx.ct.name.clone()
            } else {
                format!("GetTupleElement({}, {i})", cx.ct.name)
            }
        })
        .collect();
    // Sorting by the permutation (ascending, distinct) undoes it.
    let back = cx.bind(format!(
        "Sort({{{perm}, {}}}, dimension={dim})",
        cts.join(", ")
    ));
    for (k, &i) in active.iter().enumerate() {
        cx.send(i, format!("GetTupleElement({back}, {})", k + 1));
    }
    Ok(())
}

/// `Conditional(sel, op0, b0, op1, b1, ...)`: the same selection run on the
/// branches' backward passes. Branch `k`'s helper takes `(op_k, c)` and
/// returns the cotangents of every operand: its own from `b_k`'s vjp comp,
/// zeros for the others (every branch must return the same type).
pub fn conditional(cx: &mut RuleCx, branches: &[Arc<Comp>], by_pred: bool) -> Result<(), NoRule> {
    let operands = cx.args.get(1..).unwrap_or(&[]);
    let ops: Vec<Type> = operands.iter().map(|v| v.ty.clone()).collect();
    if ops.len() != branches.len() {
        return Err(NoRule(
            "internal: Conditional operands and branches differ".into(),
        ));
    }
    let ret_ty = tuple_ty(&ops);
    let ct_ty = cx.ct.ty.to_string();
    let mut helpers = vec![];
    for (k, b) in branches.iter().enumerate() {
        let vjp = if is_float(&ops[k]) {
            Some(cx.env.vjp_of(b)?)
        } else {
            None
        };
        let own = ops[k].to_string();
        let items: Vec<String> = ops
            .iter()
            .enumerate()
            .map(|(j, t)| match (&vjp, j == k) {
                (Some(_), true) => "GetTupleElement(GetTupleElement(r, 1), 0)".to_string(),
                _ => zeros(t),
            })
            .collect();
        let body = tuple_text(items);
        let call = vjp.as_ref().map_or(String::new(), |v| {
            format!("  let r = {v}(GetTupleElement(p, 0), GetTupleElement(p, 1))\n")
        });
        let ret = ret_ty.clone();
        let ct = ct_ty.clone();
        let key = format!("cond {} {}", b.id, brace(&[k, ops.len()]));
        let name = cx
            .env
            .helper(&key, &format!("{}_branch_vjp", b.name), &|name| {
                format!("comp {name}(p: ({own}, {ct})) -> {ret} {{\n{call}  {body}\n}}\n")
            });
        helpers.push(name);
    }
    let sel = cx.arg(0)?.name.clone();
    let c = cx.ct.name.clone();
    let packed: Vec<String> = operands
        .iter()
        .map(|v| format!("({}, {c})", v.name))
        .collect();
    let r = if let ([a, b], [ha, hb], true) = (&packed[..], &helpers[..], by_pred) {
        cx.bind(format!("Conditional({sel}, {a}, {ha}, {b}, {hb})"))
    } else {
        cx.bind(format!(
            "Conditional({sel}, {{{}}}, {{{}}})",
            helpers.join(", "),
            packed.join(", ")
        ))
    };
    for j in 0..ops.len() {
        cx.send(j + 1, format!("GetTupleElement({r}, {j})"));
    }
    Ok(())
}

/// `(T0, T1, ...)` as a type's text.
fn tuple_ty(items: &[Type]) -> String {
    tuple_text(items.iter().map(|t| t.to_string()).collect())
}
