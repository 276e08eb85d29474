//! The ReduceWindow and convolution rules against central finite differences
//! (tests.rs `check`: f64, inputs in [0.5, 1.5], tolerance argued there).
//!
//! Each case multiplies the op's result by a second parameter `y` before
//! summing, so the cotangent reaching the rule is not constant: a rule that
//! sends the cotangent of the wrong output to an element fails.

use crate::tests::grad::check;

/// `sum(OP * y)` for an op result of type `out`.
fn weighted(params: &str, op: &str, out: &str) -> String {
    let rank = out.matches('x').count() + 1;
    let dims: Vec<String> = (0..rank).map(|d| d.to_string()).collect();
    format!(
        "comp f({params}, y: {out}) -> f64 {{ Reduce(Mul({op}, y), 0.0, add, {{{}}}) }}",
        dims.join(", ")
    )
}

#[test]
fn reduce_window_add() {
    for (x, attrs, out) in [
        ("f64[5]", "{2}, {1}, VALID", "f64[4]"),
        ("f64[7]", "{3}, {2}, VALID", "f64[3]"),
        // Elements no window reads (stride past the end).
        ("f64[6]", "{1}, {4}, VALID", "f64[2]"),
        ("f64[5]", "{3}, {2}, SAME", "f64[3]"),
        ("f64[5]", "{2}, {1}, {{1, 2}}", "f64[7]"),
        // Low padding larger than the window: the backward Pad is negative.
        ("f64[5]", "{2}, {1}, {{3, 0}}", "f64[7]"),
        ("f64[4]", "{2}, {1}, VALID, base_dilations={2}", "f64[6]"),
        ("f64[6]", "{2}, {1}, VALID, window_dilations={3}", "f64[3]"),
        (
            "f64[4x5]",
            "{2, 3}, {2, 1}, {{1, 0}, {0, 2}}, base_dilations={1, 2}, window_dilations={2, 1}",
            "f64[2x9]",
        ),
        ("f64[3x4]", "{2, 2}, {1, 2}, VALID", "f64[2x2]"),
    ] {
        check(&weighted(
            &format!("x: {x}"),
            &format!("ReduceWindow(x, 0.0, add, {attrs})"),
            out,
        ));
    }
}

/// The init value's gradient counts the padding and dilation holes it fills.
#[test]
fn reduce_window_add_init() {
    for (x, attrs, out) in [
        ("f64[5]", "{2}, {1}, VALID", "f64[4]"),
        ("f64[5]", "{3}, {2}, {{2, 1}}", "f64[3]"),
        (
            "f64[3x2]",
            "{2, 2}, {1, 1}, {{1, 1}, {0, 0}}, base_dilations={2, 1}",
            "f64[6x1]",
        ),
    ] {
        check(&format!(
            "comp f(x: {x}, i: f64[], y: {out}) -> f64 {{ Reduce(Mul(ReduceWindow(x, Reshape(i, {{}}), add, {attrs}), y), 0.0, add, {{0{}}}) }}",
            if out.contains('x') { ", 1" } else { "" }
        ));
    }
}

#[test]
fn reduce_window_max_and_min() {
    for (m, init) in [
        ("max", "-inf"),
        ("min", "inf"),
        ("max", "1.0"),
        ("min", "1.0"),
    ] {
        for (x, attrs, out) in [
            ("f64[6]", "{2}, {2}, VALID", "f64[3]"),
            // Overlapping windows: one element may win several.
            ("f64[5]", "{3}, {1}, VALID", "f64[3]"),
            ("f64[5]", "{2}, {2}, SAME", "f64[3]"),
            // Padding (no window wholly in it: that output would be -inf).
            ("f64[5]", "{2}, {1}, {{1, 1}}", "f64[6]"),
            ("f64[4x5]", "{2, 3}, {2, 1}, {{0, 1}, {1, 0}}", "f64[2x4]"),
        ] {
            check(&weighted(
                &format!("x: {x}"),
                &format!("ReduceWindow(x, {init}, {m}, {attrs})"),
                out,
            ));
        }
    }
}

/// `sum(conv(x, k) * y)` for each attribute of the convolution.
#[test]
fn conv_general_dilated() {
    for (x, k, attrs, out) in [
        ("f64[1x1x5]", "f64[1x1x2]", "{1}, VALID", "f64[1x1x4]"),
        ("f64[2x3x7]", "f64[4x3x3]", "{2}, VALID", "f64[2x4x3]"),
        ("f64[2x3x7]", "f64[4x3x3]", "{2}, SAME", "f64[2x4x4]"),
        ("f64[1x2x6]", "f64[2x2x2]", "{1}, {{2, 1}}", "f64[1x2x8]"),
        // Negative padding and a stride that leaves the tail unread.
        ("f64[1x2x8]", "f64[2x2x2]", "{3}, {{-1, 0}}", "f64[1x2x2]"),
        (
            "f64[1x1x4]",
            "f64[1x1x2]",
            "{1}, {{1, 1}}, {2}, {1}",
            "f64[1x1x8]",
        ),
        (
            "f64[1x1x4]",
            "f64[1x1x2]",
            "{2}, VALID, {3}, {1}",
            "f64[1x1x5]",
        ),
        (
            "f64[1x2x7]",
            "f64[3x2x2]",
            "{1}, {{0, 1}}, {1}, {3}",
            "f64[1x3x5]",
        ),
        (
            "f64[2x2x5x4]",
            "f64[3x2x2x3]",
            "{2, 1}, {{1, 0}, {1, 1}}, {1, 2}, {2, 1}",
            "f64[2x3x2x7]",
        ),
    ] {
        check(&weighted(
            &format!("x: {x}, k: {k}"),
            &format!("ConvGeneralDilated(x, k, {attrs})"),
            out,
        ));
    }
}

#[test]
fn conv_dimension_numbers() {
    for (x, k, attrs, out) in [
        // NHWC / HWIO (TensorFlow's layout).
        (
            "f64[2x5x4x3]",
            "f64[2x2x3x4]",
            "{1, 2}, {{1, 0}, {0, 1}}, dimension_numbers=\"b01f_01io->b01f\"",
            "f64[2x5x2x4]",
        ),
        // Every array in its own odd order.
        (
            "f64[3x6x2]",
            "f64[2x3x3]",
            "{2}, {{1, 1}}, {1}, {2}, dimension_numbers=\"f0b_o0i->0fb\"",
            "f64[2x2x2]",
        ),
        // The separate attributes.
        (
            "f64[5x2x3]",
            "f64[3x3x4]",
            "{1}, VALID, input_batch_dimension=1, input_feature_dimension=2, input_spatial_dimensions={0}, kernel_output_feature_dimension=2, kernel_input_feature_dimension=1, kernel_spatial_dimensions={0}, output_batch_dimension=0, output_feature_dimension=1, output_spatial_dimensions={2}",
            "f64[2x4x3]",
        ),
    ] {
        check(&weighted(
            &format!("x: {x}, k: {k}"),
            &format!("ConvGeneralDilated(x, k, {attrs})"),
            out,
        ));
    }
}

#[test]
fn conv_groups() {
    for (x, k, attrs, out) in [
        // 2 feature groups: 4 input features in two pairs, 6 outputs in two threes.
        (
            "f64[2x4x5]",
            "f64[6x2x2]",
            "{1}, VALID, feature_group_count=2",
            "f64[2x6x4]",
        ),
        // Depthwise (groups = features), strided and padded.
        (
            "f64[1x3x6]",
            "f64[3x1x3]",
            "{2}, {{1, 1}}, feature_group_count=3",
            "f64[1x3x3]",
        ),
        (
            "f64[2x5x4x4]",
            "f64[2x3x2x6]",
            "{1, 1}, {{0, 1}, {1, 0}}, dimension_numbers=\"b01f_01io->b01f\", feature_group_count=2",
            "f64[2x5x3x6]",
        ),
        // 2 batch groups: batch 4 split in two, 6 outputs in two threes.
        (
            "f64[4x2x5]",
            "f64[6x2x2]",
            "{1}, VALID, batch_group_count=2",
            "f64[2x6x4]",
        ),
        (
            "f64[3x4x2]",
            "f64[2x2x6]",
            "{2}, {{1, 0}}, {1}, {2}, dimension_numbers=\"0bf_0io->f0b\", batch_group_count=2",
            "f64[6x1x2]",
        ),
    ] {
        check(&weighted(
            &format!("x: {x}, k: {k}"),
            &format!("ConvGeneralDilated(x, k, {attrs})"),
            out,
        ));
    }
}

/// The front ends build the same kernel, so they have the same rule.
#[test]
fn conv_front_ends() {
    check(&weighted(
        "x: f64[1x2x5x5], k: f64[3x2x3x2]",
        "Conv(x, k, {2, 1}, SAME)",
        "f64[1x3x3x5]",
    ));
    check(&weighted(
        "x: f64[2x1x6], k: f64[2x1x3]",
        "ConvWithGeneralPadding(x, k, {1}, {{2, 0}}, {2}, {2})",
        "f64[2x2x9]",
    ));
}

/// The generated source for `src`'s comp `f` (which must check).
fn source(src: &str) -> Result<String, String> {
    let mut s = crate::session::Session::new(xlet_check::Limits::default());
    s.run(src, &mut crate::tests::grad::Quiet)
        .unwrap_or_else(|f| panic!("{src}\n{:?}", f.diags));
    s.gradient_source("f")
}

/// The backward of a max (min) window: outputs the init value won are masked
/// out (`Gt`: `reduce_window_max_and_min` fails without it, for init 1.0),
/// then one SelectAndScatter with the `Ge` (`Le`) helper.
#[test]
fn max_pool_backward_text() {
    for (m, init, cmp) in [("max", "-inf", "Ge(a, b)"), ("min", "f64 inf", "Le(a, b)")] {
        let t = source(&format!(
            "comp f(x: f64[4]) -> f64 {{ Reduce(ReduceWindow(x, {init}, {m}, {{2}}, {{2}}, VALID), 0.0, add, {{0}}) }}"
        ))
        .expect("a rule");
        assert!(t.contains("SelectAndScatter(x, ") && t.contains(cmp), "{t}");
        assert!(t.contains(if m == "max" { "Gt(" } else { "Lt(" }), "{t}");
    }
}

/// What has no rule says so, naming the reason.
#[test]
fn window_rules_missing() {
    for (body, why) in [
        (
            "ReduceWindow(x, -inf, max, {2}, {1}, VALID, window_dilations={2})",
            "SelectAndScatter",
        ),
        (
            "ReduceWindow(x, -inf, max, {2}, {1}, VALID, base_dilations={2})",
            "has no dilations",
        ),
        ("ReduceWindow(x, 1.0, mul, {2}, {1}, VALID)", "`mul`"),
        (
            "ReduceWindow(x, Reshape(i, {}), min, {2}, {1}, VALID)",
            "init value",
        ),
    ] {
        let e = source(&format!(
            "comp f(x: f64[6], i: f64[]) -> f64 {{ Reduce({body}, 0.0, add, {{0}}) }}"
        ))
        .expect_err("no rule");
        assert!(e.contains(why), "{body}: {e}");
    }
}

/// Empty operands and results send zeros; a rank-0 window is the identity.
#[test]
fn empty_and_scalar_windows() {
    check(&weighted(
        "x: f64[0x3]",
        "ReduceWindow(x, 0.0, add, {1, 2}, {1, 1}, VALID)",
        "f64[0x2]",
    ));
    check(&weighted(
        "x: f64[2x0]",
        "ReduceWindow(x, -inf, max, {1, 1}, {1, 1}, VALID)",
        "f64[2x0]",
    ));
    check("comp f(x: f64[], i: f64[]) -> f64 { ReduceWindow(x, i, add, {}, {}, VALID) }");
    check(&weighted(
        "x: f64[0x1x3], k: f64[2x1x2]",
        "ConvGeneralDilated(x, k, {1}, VALID)",
        "f64[0x2x2]",
    ));
    check(&weighted(
        "x: f64[2x1x3], k: f64[0x1x2]",
        "ConvGeneralDilated(x, k, {1}, VALID)",
        "f64[2x0x2]",
    ));
}

/// The backward ops (Pad, ReduceWindow add, Rev, dilated and grouped
/// convolutions) have rules themselves, so a gradient differentiates again.
#[test]
fn second_order() {
    for (params, op, out) in [
        (
            "x: f64[1x4x6], k: f64[2x2x3]",
            "ConvGeneralDilated(x, k, {2}, {{1, 1}}, {1}, {2}, feature_group_count=2)",
            "{0, 1, 2}",
        ),
        (
            "x: f64[7], k: f64[1]",
            "Mul(ReduceWindow(x, 0.0, add, {3}, {2}, {{2, 0}}, base_dilations={2}), k, broadcast_dimensions={0})",
            "{0}",
        ),
    ] {
        check(&format!(
            "comp h({params}) -> f64 {{ let y = {op}\n Reduce(Mul(y, y), 0.0, add, {out}) }}
             comp f({params}) -> f64 {{ let g = Grad(h, x, k, wrt={{0}})\n Reduce(Mul(g, g), 0.0, add, {out}) }}"
        ));
    }
}
