//! The rule of BatchNormTraining: XLA's own BatchNormGrad op is its backward
//! for the output, and the batch statistics' cotangents (when the program
//! uses them) are added in (spec/grad.md §4.4).

use super::rule::{NoRule, RuleCx, scalar};

/// `BatchNormTraining(x, scale, offset, eps, f) = (y, mean, var)` with cotangent
/// `(cy, cm, cv)`: BatchNormGrad gives (dx, dscale, doffset) for `cy`; the mean
/// (Σx / N) sends `cm / N` to each of its feature's elements, the biased
/// variance (Σ(x - mean)² / N) sends `cv · 2 (x - mean) / N` (its dependence
/// through the mean sums to zero, since Σ(x - mean) = 0).
pub fn training(cx: &mut RuleCx, epsilon: f32, feature: usize) -> Result<(), NoRule> {
    let x = cx.arg_array(0)?.clone();
    let f = x.dims.get(feature).copied().unwrap_or(0);
    let count = x.num_elements().unwrap_or(0).checked_div(f).unwrap_or(0);
    let (xn, sn) = (cx.arg(0)?.name.clone(), cx.arg(1)?.name.clone());
    let (out, c) = (cx.out.name.clone(), cx.ct.name.clone());
    let mean = cx.bind(format!("GetTupleElement({out}, 1)"));
    let var = cx.bind(format!("GetTupleElement({out}, 2)"));
    let grad = cx.bind(format!(
        "BatchNormGrad({xn}, {sn}, {mean}, {var}, GetTupleElement({c}, 0), {epsilon:?}, {feature})"
    ));
    if cx.is_active(0) {
        let spread = |v: &str| {
            format!(
                "BroadcastInDim({v}, {}, {{{feature}}})",
                super::rule::brace(&x.dims)
            )
        };
        let n = scalar(x.elem, count as f64);
        let two = scalar(x.elem, 2.0);
        let from_mean = cx.bind(format!(
            "Div({}, {n})",
            spread(&format!("GetTupleElement({c}, 1)"))
        ));
        let centred = cx.bind(format!("Sub({xn}, {})", spread(&mean)));
        let from_var = cx.bind(format!(
            "Div(Mul(Mul({}, {centred}), {two}), {n})",
            spread(&format!("GetTupleElement({c}, 2)"))
        ));
        cx.send(
            0,
            format!("Add(Add(GetTupleElement({grad}, 0), {from_mean}), {from_var})"),
        );
    }
    cx.send(1, format!("GetTupleElement({grad}, 1)"));
    cx.send(2, format!("GetTupleElement({grad}, 2)"));
    Ok(())
}
