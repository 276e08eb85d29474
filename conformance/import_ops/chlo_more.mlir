// chlo.is_inf, is_pos_inf, is_neg_inf, conj, broadcast_add/multiply/compare with
// broadcast_dimensions, and a composite called from a private function.
// Expected values by hand.
module @m {
  func.func private @inc(%a: tensor<2xf32>) -> tensor<2xf32> {
    %one = stablehlo.constant dense<1.0> : tensor<2xf32>
    %0 = stablehlo.add %a, %one : tensor<2xf32>
    return %0 : tensor<2xf32>
  }
  func.func private @outer(%a: tensor<2xf32>) -> tensor<2xf32> {
    %0 = stablehlo.composite "my.inc" %a {decomposition = @inc} : (tensor<2xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
  func.func public @main() -> tensor<2x3xf32> {
    %s = stablehlo.constant dense<[1.0, 0xFF800000, 0x7F800000, 0x7FC00000]> : tensor<4xf32>
    %i = chlo.is_inf %s : tensor<4xf32> -> tensor<4xi1>
    %p = chlo.is_pos_inf %s : tensor<4xf32> -> tensor<4xi1>
    %n = chlo.is_neg_inf %s : tensor<4xf32> -> tensor<4xi1>
    %c = stablehlo.constant dense<[(1.0, 2.0), (-3.0, -0.5)]> : tensor<2xcomplex<f32>>
    %cj = chlo.conj %c : tensor<2xcomplex<f32>> -> tensor<2xcomplex<f32>>
    %cr = stablehlo.real %cj : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
    %ci = stablehlo.imag %cj : (tensor<2xcomplex<f32>>) -> tensor<2xf32>
    %m = stablehlo.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
    %r = stablehlo.constant dense<[10.0, 20.0]> : tensor<2xf32>
    %b = chlo.broadcast_add %m, %r {broadcast_dimensions = array<i64: 0>} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
    %q = stablehlo.constant dense<[1.0, 0.0, -1.0]> : tensor<3xf32>
    %bm = chlo.broadcast_multiply %b, %q {broadcast_dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    %lt = chlo.broadcast_compare %bm, %r {broadcast_dimensions = array<i64: 0>, comparison_direction = #chlo<comparison_direction GT>} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xi1>
    %o = func.call @outer(%r) : (tensor<2xf32>) -> tensor<2xf32>
    check.expect_eq_const %i, dense<[false, true, true, false]> : tensor<4xi1>
    check.expect_eq_const %p, dense<[false, false, true, false]> : tensor<4xi1>
    check.expect_eq_const %n, dense<[false, true, false, false]> : tensor<4xi1>
    check.expect_almost_eq_const %cr, dense<[1.0, -3.0]> : tensor<2xf32>
    check.expect_almost_eq_const %ci, dense<[-2.0, 0.5]> : tensor<2xf32>
    check.expect_almost_eq_const %bm, dense<[[11.0, 0.0, -13.0], [24.0, 0.0, -26.0]]> : tensor<2x3xf32>
    check.expect_eq_const %lt, dense<[[true, false, false], [true, false, false]]> : tensor<2x3xi1>
    check.expect_almost_eq_const %o, dense<[11.0, 21.0]> : tensor<2xf32>
    return %bm : tensor<2x3xf32>
  }
}
