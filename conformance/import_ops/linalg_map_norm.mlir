// cholesky, triangular_solve, map, batch_norm_inference, composite (hand-written:
// jax on CPU lowers cholesky and triangular_solve to LAPACK custom calls).
// Expected values from numpy/scipy:
//   a = [[4, 2, .6], [2, 5, 1], [.6, 1, 3]]; b = [[1, 2], [3, 4], [5, 6]]
//   l = np.linalg.cholesky(a); s = scipy.linalg.solve_triangular(l, b, lower=True, trans='T')
//   x = [[1, 2], [3, 5]]; bn = (x - [1, 2]) / sqrt([4, 1] + 1e-3) * [2, .5] + [.1, -.1]
//   mp = maximum(x, 2.5) * x
module @m {
  func.func private @twice(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
    %0 = stablehlo.add %a, %a : tensor<2x2xf32>
    return %0 : tensor<2x2xf32>
  }
  func.func public @main() -> tensor<3x3xf32> {
    %a = stablehlo.constant dense<[[4.0, 2.0, 0.6], [2.0, 5.0, 1.0], [0.6, 1.0, 3.0]]> : tensor<3x3xf32>
    %b = stablehlo.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
    %l = stablehlo.cholesky %a, lower = true : tensor<3x3xf32>
    %s = "stablehlo.triangular_solve"(%l, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose TRANSPOSE>} : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
    %x = stablehlo.constant dense<[[1.0, 2.0], [3.0, 5.0]]> : tensor<2x2xf32>
    %c = stablehlo.constant dense<2.5> : tensor<2x2xf32>
    %mp = "stablehlo.map"(%x, %c) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%p: tensor<f32>, %q: tensor<f32>):
      %m = stablehlo.maximum %p, %q : tensor<f32>
      %r = stablehlo.multiply %m, %p : tensor<f32>
      stablehlo.return %r : tensor<f32>
    }) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
    %sc = stablehlo.constant dense<[2.0, 0.5]> : tensor<2xf32>
    %off = stablehlo.constant dense<[0.1, -0.1]> : tensor<2xf32>
    %mean = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
    %var = stablehlo.constant dense<[4.0, 1.0]> : tensor<2xf32>
    %bn = "stablehlo.batch_norm_inference"(%x, %sc, %off, %mean, %var) {epsilon = 1.000000e-03 : f32, feature_index = 1 : i64} : (tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
    %tw = stablehlo.composite "my.twice" %x {decomposition = @twice} : (tensor<2x2xf32>) -> tensor<2x2xf32>
    check.expect_almost_eq_const %l, dense<[[2.0, 0.0, 0.0], [1.0, 2.0, 0.0], [0.30000001, 0.34999999, 1.66958082]]> : tensor<3x3xf32>
    check.expect_almost_eq_const %s, dense<[[-0.43717274, -0.22460729], [0.97591639, 1.37109971], [2.99476361, 3.59371614]]> : tensor<3x2xf32>
    check.expect_almost_eq_const %mp, dense<[[2.5, 5.0], [9.0, 25.0]]> : tensor<2x2xf32>
    check.expect_almost_eq_const %bn, dense<[[0.1, -0.1], [2.09975005, 1.39925056]]> : tensor<2x2xf32>
    check.expect_almost_eq_const %tw, dense<[[2.0, 4.0], [6.0, 10.0]]> : tensor<2x2xf32>
    return %l : tensor<3x3xf32>
  }
}
