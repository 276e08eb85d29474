//! The rule of Reduce with one operand and a monoid computation.

use super::rule::{NoRule, RuleCx, brace, filled, scalar};
use xlet_eval::comp::{Monoid, monoid};
use xlet_ir::Comp;

/// `Reduce(x, init, comp, dims)`: the cotangent of each output element goes
/// back to the operand elements it came from (spread over `dims`), weighted
/// by the monoid's local derivative.
pub fn rule(cx: &mut RuleCx, comp: &Comp, dims: &[usize]) -> Result<(), NoRule> {
    if cx.args.len() != 2 {
        return Err(NoRule(
            "Reduce of several operands has no gradient rule in xlet yet".into(),
        ));
    }
    let Some(m) = monoid(comp) else {
        return Err(NoRule(format!(
            "Reduce with the computation `{}` has no gradient rule (add, mul, max and min have)",
            comp.name
        )));
    };
    let x = cx.arg_array(0)?.clone();
    let out = cx.out_array()?.clone();
    let e = x.elem;
    let kept: Vec<usize> = (0..x.rank()).filter(|d| !dims.contains(d)).collect();
    let (xn, yn, c) = (
        cx.arg(0)?.name.clone(),
        cx.out.name.clone(),
        cx.ct.name.clone(),
    );
    let spread = |v: &str| format!("BroadcastInDim({v}, {}, {})", brace(&x.dims), brace(&kept));
    match m {
        Monoid::Add => {
            cx.send(0, spread(&c));
            // The init value is added once into every output element.
            let all: Vec<usize> = (0..out.rank()).collect();
            let g = if all.is_empty() {
                c.clone()
            } else {
                format!("Reduce({c}, {}, add, {})", scalar(e, 0.0), brace(&all))
            };
            cx.send(1, g);
        }
        Monoid::Mul => {
            if cx.is_active(1) {
                return Err(NoRule(
                    "the gradient of a Mul reduction's init value has no rule in xlet yet".into(),
                ));
            }
            // d(prod)/dx_i = prod / x_i (a zero operand element gives a NaN there).
            let cy = cx.bind(format!("Mul({c}, {yn})"));
            cx.send(0, format!("Div({}, {xn})", spread(&cy)));
        }
        Monoid::Max | Monoid::Min => {
            if cx.is_active(1) {
                return Err(NoRule(
                    "the gradient of a Max or Min reduction's init value has no rule in xlet yet"
                        .into(),
                ));
            }
            // Ties share the cotangent equally (jax's convention).
            let hit = cx.bind(format!("Eq({xn}, {})", spread(&yn)));
            let ones = cx.bind(format!(
                "Select({hit}, {}, {})",
                filled(&x, 1.0),
                filled(&x, 0.0)
            ));
            let count = cx.bind(format!(
                "Reduce({ones}, {}, add, {})",
                scalar(e, 0.0),
                brace(dims)
            ));
            let share = cx.bind(format!("Div({c}, {count})"));
            cx.send(
                0,
                format!("Select({hit}, {}, {})", spread(&share), filled(&x, 0.0)),
            );
        }
        Monoid::And | Monoid::Or => {
            return Err(NoRule("a logical Reduce has no gradient".into()));
        }
    }
    Ok(())
}
