//! Names and lines the translation keeps from the module: parameters'
//! `loc("x")` names (JAX's `as_text(debug_info=True)`), for the entry run at
//! top level and for the comps `:import` makes; and each comp line's module
//! text (`Translation::comp_lines`, what `--trace` prints).

const MODULE: &str = r#"module @jit_f {
  func.func public @main(%arg0: tensor<2xf32> loc("x"), %arg1: tensor<2xf32> loc("w")) -> tensor<2xf32> {
    %0 = func.call @scale(%arg0, %arg1) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
  func.func private @scale(%arg0: tensor<2xf32> loc("a"), %arg1: tensor<2xf32>) -> tensor<2xf32> {
    %0 = stablehlo.multiply %arg0, %arg1 : tensor<2xf32>
    %1 = stablehlo.add %0, %arg0 : tensor<2xf32>
    return %1 : tensor<2xf32>
  }
}
"#;

#[test]
fn parameters_take_their_loc_names() {
    let top = xlet_import::translate_mlir(MODULE, 0).expect("translates");
    let names: Vec<&str> = top.params.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["x", "w"]);
    let comps = xlet_import::translate_mlir_comps(MODULE, 0, "m").expect("translates");
    let text = comps.body_text();
    assert!(text.contains("comp m(x: f32[2], w: f32[2])"), "{text}");
    // A parameter without a loc keeps the module's name.
    assert!(text.contains("(a: f32[2], arg1: f32[2])"), "{text}");
}

#[test]
fn comp_lines_point_at_the_module_ops() {
    let t = xlet_import::translate_mlir(MODULE, 0).expect("translates");
    let (name, lines) = t
        .comp_lines
        .iter()
        .find(|(n, _)| n.contains("scale"))
        .expect("the callee's comp");
    let line_of = |at: usize| MODULE[..at].matches('\n').count() + 1;
    let got: Vec<Option<usize>> = lines
        .iter()
        .map(|s| s.as_ref().map(|s| line_of(s.start)))
        .collect();
    // Header (the function, line 6), then the multiply (7) and the add (8).
    assert_eq!(got, [Some(6), Some(7), Some(8)], "{name}");
}
