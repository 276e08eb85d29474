// stablehlo.rng (UNIFORM and NORMAL): the values are xlet's own, so the test
// checks what does not depend on the generator: uniform draws lie in [a, b)
// and the shape comes from the result type. By hand: all in range -> true.
module @m {
  func.func public @main() -> tensor<i1> {
    %a = stablehlo.constant dense<-1.0> : tensor<f32>
    %b = stablehlo.constant dense<2.0> : tensor<f32>
    %shape = stablehlo.constant dense<[3, 4]> : tensor<2xi64>
    %u = stablehlo.rng %a, %b, %shape, distribution = UNIFORM : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x4xf32>
    %n = stablehlo.rng %a, %b, %shape, distribution = NORMAL : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x4xf32>
    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %pinf = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %hi = stablehlo.reduce(%u init: %ninf) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<3x4xf32>, tensor<f32>) -> tensor<f32>
    %lo = stablehlo.reduce(%u init: %pinf) applies stablehlo.minimum across dimensions = [0, 1] : (tensor<3x4xf32>, tensor<f32>) -> tensor<f32>
    %c1 = stablehlo.compare LT, %hi, %b, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %c2 = stablehlo.compare GE, %lo, %a, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %ok = stablehlo.and %c1, %c2 : tensor<i1>
    %nf = stablehlo.is_finite %n : (tensor<3x4xf32>) -> tensor<3x4xi1>
    check.expect_eq_const %ok, dense<true> : tensor<i1>
    check.expect_eq_const %nf, dense<true> : tensor<3x4xi1>
    return %ok : tensor<i1>
  }
}
