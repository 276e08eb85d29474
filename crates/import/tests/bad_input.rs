//! Hostile and malformed modules (spec/import.md §8): each is a located
//! error, never a panic, a stack overflow or an unbounded allocation.

use xlet_import::translate_mlir;

fn err(text: &str) -> String {
    match translate_mlir(text, 0) {
        Ok(_) => panic!("accepted: {text:.200}"),
        Err(e) => {
            let d = e.0;
            assert!(
                d.span.start <= text.len() && d.span.end <= text.len() + 1,
                "span outside the text"
            );
            d.message
        }
    }
}

fn main_of(body: &str) -> String {
    format!("func.func @main() -> tensor<f32> {{\n{body}\n}}\n")
}

#[test]
fn truncated_and_unbalanced_text() {
    assert!(
        err(
            "func.func @main() -> tensor<f32> {\n  %0 = stablehlo.constant dense<1.0> : tensor<f32>"
        )
        .contains("`{`")
    );
    assert!(err("func.func @main() -> tensor<f32> {\n  %0 = stablehlo.constant dense<1.0 : tensor<f32>\n}").contains("`<`"));
    assert!(
        err(&main_of(
            "  %0 = stablehlo.add (%a, %b : tensor<f32>\n  return %0 : tensor<f32>"
        ))
        .contains("unbalanced")
    );
    assert!(err("module {\n func.func @main() {\n  func.return\n }\n}\n}").contains("unexpected"));
    assert!(err("\"unterminated").contains("unterminated"));
    // A bare `< ...` attribute value (the pretty dot_general's `algorithm =
    // <...>`) that never closes, and a `>` that closes nothing.
    let open_angle = main_of(
        "  %0 = stablehlo.dot_general %a, %b, contracting_dims = [0] x [0], algorithm = <\n    lhs_precision_type = tf32,",
    );
    assert!(
        err(&open_angle).contains("unbalanced"),
        "{}",
        err(&open_angle)
    );
    assert!(err(&main_of("  %0 = stablehlo.add %a, %b > : tensor<f32>")).contains("unbalanced"));
}

#[test]
fn names_and_types() {
    assert!(
        err(&main_of(
            "  %0 = stablehlo.negate %x : tensor<f32>\n  return %0 : tensor<f32>"
        ))
        .contains("before it is defined")
    );
    assert!(
        err(&main_of(
            "  %0 = stablehlo.constant dense<1.0> : tensor<f32>\n  return %0#3 : tensor<f32>"
        ))
        .contains("no result #3")
    );
    assert!(err(&main_of("  %0 = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<2xf32>\n  return %0 : tensor<f32>")).contains("elements"));
    assert!(
        err(&main_of(
            "  %0 = stablehlo.constant dense<\"0x0000\"> : tensor<4xf32>\n  return %0 : tensor<f32>"
        ))
        .contains("bytes")
    );
    assert!(
        err("func.func @main(%a: tensor<?x4xf32>) -> tensor<f32> {\n  return %a : tensor<f32>\n}")
            .contains("dynamically shaped")
    );
    assert!(
        err("func.func @main(%a: tensor<4x!quant.uniform<i8:f32, 1.0>>) {\n  func.return\n}")
            .contains("quantised")
    );
    let c = main_of(
        "  %c = stablehlo.constant dense<1.0> : tensor<f32>\n  %0 = stablehlo.frobnicate %c : tensor<f32>\n  return %0 : tensor<f32>",
    );
    assert!(err(&c).contains("stablehlo.frobnicate"));
}

#[test]
fn ops_missing_their_operands() {
    for op in [
        "convert",
        "dot_general",
        "scatter",
        "reduce",
        "sort",
        "while",
        "batch_norm_grad",
    ] {
        let m = main_of(&format!(
            "  %0 = stablehlo.{op} : () -> tensor<f32>\n  return %0 : tensor<f32>"
        ));
        let e = err(&m);
        assert!(e.contains("operand") || e.contains("init"), "{op}: {e}");
    }
}

#[test]
fn deep_nesting_is_bounded() {
    let deep = format!(
        "func.func @main() {{\n  %0 = stablehlo.constant {}1{} : tensor<f32>\n}}",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    assert!(err(&deep).contains("nest"));
    let regions = format!("func.func @main() {}", "{ stablehlo.return ".repeat(50_000));
    let _ = err(&regions);
}

#[test]
fn huge_constant_is_refused_before_it_is_allocated() {
    // A type of 2^40 elements with 8 bytes of data: refused without allocating 4 TB.
    let m = main_of(
        "  %0 = stablehlo.constant dense<\"0x0000803F0000803F\"> : tensor<1099511627776xf32>\n  return %0 : tensor<f32>",
    );
    let e = err(&m);
    assert!(
        e.contains("bytes") || e.contains("budget") || e.contains("memory"),
        "{e}"
    );
    // Splats of any size stay one element (a Broadcast).
    let s = main_of(
        "  %0 = stablehlo.constant dense<1.0> : tensor<1099511627776xf32>\n  return %0 : tensor<f32>",
    );
    assert!(translate_mlir(&s, 0).is_ok());
}
