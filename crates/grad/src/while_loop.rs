//! The rule of a While whose trip count depends on data (spec/grad.md §4.5):
//! run the loop again while counting its iterations and stacking the state
//! each one starts from, then run the body's backward pass that many times,
//! last iteration first, each on the state it was run on.
//!
//! The stack has a fixed number of slots (types are static), chosen so that it
//! takes at most `STACK_BYTES`: slot `i` holds the state of iteration `i` for
//! the first `C` iterations, and iterations past `C` write a last, scratch slot
//! that is never read. The backward pass of an iteration `j >= C` replays the
//! body `j - (C - 1)` times from the state of iteration `C - 1`, so a loop that
//! fits runs its body twice (forward, and inside its vjp comp) per iteration,
//! and a longer one pays `(n - C)^2 / 2` more body runs rather than memory.

use super::rule::{NoRule, RuleCx, brace, filled, tuple_text};
use std::sync::Arc;
use xlet_core::types::{ArrayType, Type};
use xlet_ir::Comp;

/// The stacked states take at most this many bytes.
pub const STACK_BYTES: usize = 64 << 20;

/// And at most this many slots (a loop of scalars).
pub const MAX_SLOTS: usize = 1 << 16;

/// How many iterations' states the stack holds for a state of `bytes` bytes.
pub fn slots(bytes: usize) -> usize {
    match STACK_BYTES.checked_div(bytes) {
        Some(c) => c.clamp(1, MAX_SLOTS),
        None => MAX_SLOTS,
    }
}

/// `While(cond, body, init)` whose trip count the program does not fix.
pub fn rule(cx: &mut RuleCx, cond: &Arc<Comp>, body: &Arc<Comp>) -> Result<(), NoRule> {
    let state = cx.arg(0)?.ty.clone();
    let leaves: Vec<(Option<usize>, ArrayType)> = match &state {
        Type::Array(a) => vec![(None, a.clone())],
        Type::Tuple(items) => items
            .iter()
            .enumerate()
            .map(|(i, t)| t.as_array().map(|a| (Some(i), a.clone())))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| {
                NoRule(format!(
                    "While: its trip count depends on data, and a gradient through such a loop stacks the states it runs through, which needs a state of arrays or a tuple of arrays; {state} has a tuple inside"
                ))
            })?,
    };
    let bytes = state.byte_size().ok_or_else(|| {
        NoRule("While: the loop's state is too large to stack for a gradient".into())
    })?;
    let c = slots(bytes);
    let bv = cx.env.vjp_of(body)?;
    let s_ty = state.to_string();
    let stack_ty = |a: &ArrayType| -> ArrayType {
        let mut dims = vec![c + 1];
        dims.extend(&a.dims);
        ArrayType::new(a.elem, dims)
    };
    let stacks: Vec<String> = leaves
        .iter()
        .map(|(_, a)| stack_ty(a).to_string())
        .collect();
    let leaf = |s: &str, k: Option<usize>| match k {
        Some(i) => format!("GetTupleElement({s}, {i})"),
        None => s.to_string(),
    };
    let zeros_after =
        |rank: usize| -> String { (0..rank).map(|_| ", s32 0".to_string()).collect::<String>() };
    let (cond_name, body_name) = (cond.name.clone(), body.name.clone());
    let r_ty = format!("({s_ty}, s32, {})", stacks.join(", "));
    let b_ty = format!("(s32, {s_ty}, {})", stacks.join(", "));
    let key = format!("while {} {} {c}", cond.id, body.id);
    let l = leaves.len();

    // Forward: the loop, counting and stacking.
    let rec_more = cx.env.helper(
        &format!("{key} record more"),
        &format!("{cond_name}_record"),
        &|name| {
            format!("comp {name}(p: {r_ty}) -> pred {{\n  {cond_name}(GetTupleElement(p, 0))\n}}\n")
        },
    );
    let rec = cx.env.helper(
        &format!("{key} record"),
        &format!("{body_name}_record"),
        &|name| {
            let mut t = format!("comp {name}(p: {r_ty}) -> {r_ty} {{\n");
            t.push_str("  let s = GetTupleElement(p, 0)\n  let n = GetTupleElement(p, 1)\n");
            // Every read of `p` comes first: once the last one has taken `p`
            // apart, each stack is held once and is updated in place.
            for i in 0..l {
                t.push_str(&format!("  let k{i} = GetTupleElement(p, {})\n", i + 2));
            }
            t.push_str(&format!("  let at = Min(n, s32 {c})\n"));
            let mut out = vec![];
            for (i, (k, a)) in leaves.iter().enumerate() {
                let mut one = vec![1];
                one.extend(&a.dims);
                t.push_str(&format!(
                    "  let u{i} = DynamicUpdateSlice(k{i}, Reshape({}, {}), at{})\n",
                    leaf("s", *k),
                    brace(&one),
                    zeros_after(a.rank())
                ));
                out.push(format!("u{i}"));
            }
            t.push_str(&format!(
                "  ({body_name}(s), Add(n, s32 1), {})\n}}\n",
                out.join(", ")
            ));
            t
        },
    );

    // Replaying the body k times (the states past the stack).
    let p_ty = format!("({s_ty}, s32)");
    let again_more = cx.env.helper(
        &format!("{key} again more"),
        &format!("{body_name}_again_more"),
        &|name| {
            format!("comp {name}(p: {p_ty}) -> pred {{\n  Gt(GetTupleElement(p, 1), s32 0)\n}}\n")
        },
    );
    let again = cx.env.helper(
        &format!("{key} again"),
        &format!("{body_name}_again"),
        &|name| {
            format!(
                "comp {name}(p: {p_ty}) -> {p_ty} {{\n  ({body_name}(GetTupleElement(p, 0)), Sub(GetTupleElement(p, 1), s32 1))\n}}\n"
            )
        },
    );

    // Backward: iteration j = n-1, ..., 0 on the state it started from.
    let back_more = cx.env.helper(
        &format!("{key} back more"),
        &format!("{body_name}_back_more"),
        &|name| {
            format!("comp {name}(p: {b_ty}) -> pred {{\n  Ge(GetTupleElement(p, 0), s32 0)\n}}\n")
        },
    );
    let back = cx.env.helper(
        &format!("{key} back"),
        &format!("{body_name}_back"),
        &|name| {
            let mut t = format!("comp {name}(p: {b_ty}) -> {b_ty} {{\n");
            t.push_str("  let j = GetTupleElement(p, 0)\n");
            t.push_str(&format!("  let base = Min(j, s32 {})\n", c - 1));
            let mut xs = vec![];
            for (i, (_, a)) in leaves.iter().enumerate() {
                let mut one = vec![1];
                one.extend(&a.dims);
                t.push_str(&format!(
                    "  let x{i} = Reshape(DynamicSlice(GetTupleElement(p, {}), base{}, {}), {})\n",
                    i + 2,
                    zeros_after(a.rank()),
                    brace(&one),
                    brace(&a.dims)
                ));
                xs.push(format!("x{i}"));
            }
            let s0 = match &state {
                Type::Array(_) => xs.join(""),
                Type::Tuple(_) => tuple_text(xs.clone()),
            };
            t.push_str(&format!(
                "  let s = GetTupleElement(While({again_more}, {again}, ({s0}, Sub(j, base))), 0)\n"
            ));
            t.push_str(&format!("  let r = {bv}(s, GetTupleElement(p, 1))\n"));
            let kept: Vec<String> = (0..l)
                .map(|i| format!("GetTupleElement(p, {})", i + 2))
                .collect();
            t.push_str(&format!(
                "  (Sub(j, s32 1), GetTupleElement(GetTupleElement(r, 1), 0), {})\n}}\n",
                kept.join(", ")
            ));
            t
        },
    );

    let init = cx.arg(0)?.name.clone();
    let empty: Vec<String> = leaves
        .iter()
        .map(|(_, a)| filled(&stack_ty(a), 0.0))
        .collect();
    let recorded = cx.bind(format!(
        "While({rec_more}, {rec}, ({init}, s32 0, {}))",
        empty.join(", ")
    ));
    let kept: Vec<String> = (0..l)
        .map(|i| format!("GetTupleElement({recorded}, {})", i + 2))
        .collect();
    let ct = cx.ct.name.clone();
    let done = cx.bind(format!(
        "While({back_more}, {back}, (Sub(GetTupleElement({recorded}, 1), s32 1), {ct}, {}))",
        kept.join(", ")
    ));
    cx.send(0, format!("GetTupleElement({done}, 1)"));
    Ok(())
}
