//! The rules of ReduceWindow: add (spec/grad.md §4.6), and max and min through
//! SelectAndScatter.
//!
//! In one dimension (operand size d, window w, stride s, base dilation b,
//! window dilation v, padding lo), output o's window position k reads
//! position o·s + k·v - lo of the dilated operand, which is element e when
//! that position is e·b. So an add window sends ct[o] to every e with
//! e·b = o·s + k·v - lo for some k: a sum, over a window, of the cotangent
//! spread out by the stride. See `add`.

use xlet_core::types::ArrayType;
use xlet_eval::comp::{Monoid, monoid};
use xlet_ir::Comp;
use xlet_ir::rule::{NoRule, RuleCx, brace, filled, scalar};
use xlet_kernels::reduce::window::Geometry;
use xlet_ops_common::window_grad::{dilated, lhs_padding, pairs};

pub fn rule(cx: &mut RuleCx, comp: &Comp, g: &Geometry) -> Result<(), NoRule> {
    if cx.args.len() != 2 {
        return Err(NoRule(
            "ReduceWindow of several operands has no gradient rule in xlet yet".into(),
        ));
    }
    let x = cx.arg_array(0)?.clone();
    let out = cx.out_array()?.clone();
    let m = monoid(comp);
    if matches!(m, Some(Monoid::Add | Monoid::Max | Monoid::Min))
        && (x.dims.contains(&0) || out.dims.contains(&0))
    {
        // No output reads anything, or there is nothing to read.
        cx.send(0, filled(&x, 0.0));
        let z = scalar(x.elem, 0.0);
        cx.send(1, z);
        return Ok(());
    }
    match m {
        Some(Monoid::Add) => add(cx, g, &x, &out),
        Some(Monoid::Max) => select(cx, g, &x, &out, true),
        Some(Monoid::Min) => select(cx, g, &x, &out, false),
        _ => Err(NoRule(format!(
            "ReduceWindow with the computation `{}` has no gradient rule (add, max and min have)",
            comp.name
        ))),
    }
}

/// The forward window's attributes as written in a call: window, strides,
/// padding and the dilations that are not all 1.
fn attrs(g: &Geometry) -> String {
    let mut t = format!(
        "{}, {}, {}",
        brace(&g.window),
        brace(&g.strides),
        pairs(&g.padding)
    );
    if g.base_dilations.iter().any(|&b| b != 1) {
        t.push_str(&format!(", base_dilations={}", brace(&g.base_dilations)));
    }
    if g.window_dilations.iter().any(|&v| v != 1) {
        t.push_str(&format!(
            ", window_dilations={}",
            brace(&g.window_dilations)
        ));
    }
    t
}

/// Add: spread the cotangent by the stride (stride - 1 zeros between
/// elements), pad it so that element e's window (of the same size and window
/// dilation, stepping by the base dilation) covers exactly the outputs that
/// read e, and sum each window. The window is all ones, so it needs no
/// reversal. The padding is the convolution's (conv.rs, `lhs_padding`) and
/// may be negative, so it is a Pad (which allows that) and the window VALID.
fn add(cx: &mut RuleCx, g: &Geometry, x: &ArrayType, out: &ArrayType) -> Result<(), NoRule> {
    let c = cx.ct.name.clone();
    let z = scalar(x.elem, 0.0);
    if x.rank() == 0 {
        cx.send(0, c.clone());
    } else if cx.is_active(0) {
        let mut cfg = vec![];
        for d in 0..x.rank() {
            let wd = dilated(g.window[d], g.window_dilations[d]);
            let (lo, hi) = lhs_padding(
                dilated(x.dims[d], g.base_dilations[d]),
                wd,
                dilated(out.dims[d], g.strides[d]),
                g.padding[d].0 as i64,
            );
            cfg.push(format!("{{{lo}, {hi}, {}}}", g.strides[d] - 1));
        }
        let p = cx.bind(format!(
            "Pad({c}, {z}, padding_config={{{}}})",
            cfg.join(", ")
        ));
        let mut t = format!(
            "ReduceWindow({p}, {z}, add, {}, {}, VALID",
            brace(&g.window),
            brace(&g.base_dilations)
        );
        if g.window_dilations.iter().any(|&v| v != 1) {
            t.push_str(&format!(
                ", window_dilations={}",
                brace(&g.window_dilations)
            ));
        }
        t.push(')');
        cx.send(0, t);
    }
    if !cx.is_active(1) {
        return Ok(());
    }
    // The init value is added once into each output, and once more for each
    // window position that falls in the padding or a dilation hole (those read
    // the init value): 1 + (window size - positions on operand elements).
    let all = brace(&(0..out.rank()).collect::<Vec<_>>());
    let holes =
        g.padding.iter().any(|&(l, h)| l + h > 0) || g.base_dilations.iter().any(|&b| b != 1);
    let weighted = if holes {
        let ones = filled(x, 1.0);
        let on = cx.bind(format!("ReduceWindow({ones}, {z}, add, {})", attrs(g)));
        let size: usize = g.window.iter().product();
        let per = cx.bind(format!("Sub({}, {on})", filled(out, 1.0 + size as f64)));
        cx.bind(format!("Mul({c}, {per})"))
    } else {
        c
    };
    if out.rank() == 0 {
        cx.send(1, weighted);
    } else {
        cx.send(1, format!("Reduce({weighted}, {z}, add, {all})"));
    }
    Ok(())
}

/// Max (Min): the cotangent of each output goes to the element its window
/// selected, found by SelectAndScatter with `Ge` (`Le`), which keeps the first
/// of equal elements (XLA's choice; jax's too). An output where the init value
/// won (it is at least every element of the window) sends nothing.
fn select(
    cx: &mut RuleCx,
    g: &Geometry,
    x: &ArrayType,
    out: &ArrayType,
    max: bool,
) -> Result<(), NoRule> {
    let what = if max { "max" } else { "min" };
    if g.base_dilations.iter().any(|&b| b != 1) || g.window_dilations.iter().any(|&v| v != 1) {
        return Err(NoRule(format!(
            "ReduceWindow {what} with base_dilations or window_dilations has no gradient rule: SelectAndScatter, which routes it, has no dilations"
        )));
    }
    if cx.is_active(1) {
        return Err(NoRule(format!(
            "the gradient of a ReduceWindow {what}'s init value has no rule in xlet yet"
        )));
    }
    if !cx.is_active(0) {
        return Ok(());
    }
    let e = x.elem.name();
    let (cmp, key) = if max { ("Ge", "ge") } else { ("Le", "le") };
    let base = format!("{key}_{e}");
    let sel = cx.env.helper(&base, &base, &|n| {
        format!("comp {n}(a: {e}, b: {e}) -> pred {{ {cmp}(a, b) }}\n")
    });
    let (xn, yn) = (cx.arg(0)?.name.clone(), cx.out.name.clone());
    let mut c = cx.ct.name.clone();
    let init = cx.arg(1)?.name.clone();
    // Only outputs above the init value (below, for min) came from an element:
    // the others send nothing. (At a tie either is a subgradient; this one
    // sends nothing, like jax's ReLU at 0.) The init value is bound to a name
    // here, so even -inf, which never wins, cannot be told apart.
    let beats = if max { "Gt" } else { "Lt" };
    let won = cx.bind(format!("{beats}({yn}, {})", filled_with(out, &init)));
    c = cx.bind(format!("Select({won}, {c}, {})", filled(out, 0.0)));
    cx.send(
        0,
        format!(
            "SelectAndScatter({xn}, {sel}, {}, {}, {}, {c}, {}, add)",
            brace(&g.window),
            brace(&g.strides),
            pairs(&g.padding),
            scalar(x.elem, 0.0)
        ),
    );
    Ok(())
}

/// The scalar `v` spread to `ty`'s shape.
fn filled_with(ty: &ArrayType, v: &str) -> String {
    if ty.dims.is_empty() {
        v.to_string()
    } else {
        format!("Broadcast({v}, {})", brace(&ty.dims))
    }
}
