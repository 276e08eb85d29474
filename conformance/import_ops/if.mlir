// stablehlo.if, generic and pretty, reading values of the enclosing scope.
// Expected values by hand (jax emits case for lax.cond):
//   p = x[0] < 2: then (x * y, sum(y)) = ([0.5, -2, 12], 3.5); else (y - x, 0)
//   q = !p: the pretty if gives x + 1 = [2, 3, 4] only when q, else y.
module @m {
  func.func public @main() -> (tensor<3xf32>, tensor<f32>, tensor<3xf32>) {
    %x = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
    %y = stablehlo.constant dense<[0.5, -1.0, 4.0]> : tensor<3xf32>
    %two = stablehlo.constant dense<2.0> : tensor<f32>
    %x0 = stablehlo.slice %x [0:1] : (tensor<3xf32>) -> tensor<1xf32>
    %x0s = stablehlo.reshape %x0 : (tensor<1xf32>) -> tensor<f32>
    %p = stablehlo.compare LT, %x0s, %two, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %r:2 = "stablehlo.if"(%p) ({
      %m = stablehlo.multiply %x, %y : tensor<3xf32>
      %z = stablehlo.constant dense<0.0> : tensor<f32>
      %s = stablehlo.reduce(%y init: %z) applies stablehlo.add across dimensions = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<f32>
      stablehlo.return %m, %s : tensor<3xf32>, tensor<f32>
    }, {
      %d = stablehlo.subtract %y, %x : tensor<3xf32>
      %z = stablehlo.constant dense<0.0> : tensor<f32>
      stablehlo.return %d, %z : tensor<3xf32>, tensor<f32>
    }) : (tensor<i1>) -> (tensor<3xf32>, tensor<f32>)
    %q = stablehlo.not %p : tensor<i1>
    %w = stablehlo.if %q -> (tensor<3xf32>) {
      %one = stablehlo.constant dense<1.0> : tensor<3xf32>
      %a = stablehlo.add %x, %one : tensor<3xf32>
      stablehlo.return %a : tensor<3xf32>
    } else {
      stablehlo.return %y : tensor<3xf32>
    }
    check.expect_almost_eq_const %r#0, dense<[0.5, -2.0, 12.0]> : tensor<3xf32>
    check.expect_almost_eq_const %r#1, dense<3.5> : tensor<f32>
    check.expect_almost_eq_const %w, dense<[0.5, -1.0, 4.0]> : tensor<3xf32>
    return %r#0, %r#1, %w : tensor<3xf32>, tensor<f32>, tensor<3xf32>
  }
}
