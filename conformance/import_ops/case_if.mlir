// Expected values from jax 0.10.2:
//   x = jnp.array([1.0, 2.0, 3.0])
//   y = jnp.array([0.5, -1.0, 4.0])
//   def f():
//       outs = []
//       for i in [0, 1, 2, 7]:
//           outs.append(lax.switch(jnp.int32(i), [lambda a: a + y, lambda a: a * y, lambda a: a - 1.0], x))
//       for p in [True, False]:
//           outs.append(lax.cond(jnp.bool_(p), lambda a, b: (a * 2.0, b.sum()), lambda a, b: (b, a.sum()), x, y))
//       return outs
module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<3xf32> {jax.result_info = "result[0]"}, tensor<3xf32> {jax.result_info = "result[1]"}, tensor<3xf32> {jax.result_info = "result[2]"}, tensor<3xf32> {jax.result_info = "result[3]"}, tensor<3xf32> {jax.result_info = "result[4][0]"}, tensor<f32> {jax.result_info = "result[4][1]"}, tensor<3xf32> {jax.result_info = "result[5][0]"}, tensor<f32> {jax.result_info = "result[5][1]"}) {
    %cst = stablehlo.constant dense<[5.000000e-01, -1.000000e+00, 4.000000e+00]> : tensor<3xf32>
    %cst_0 = stablehlo.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %c_2 = stablehlo.constant dense<2> : tensor<i32>
    %0 = stablehlo.clamp %c, %c_1, %c_2 : tensor<i32>
    %1 = "stablehlo.case"(%0) ({
      %10 = stablehlo.add %cst_0, %cst : tensor<3xf32>
      stablehlo.return %10 : tensor<3xf32>
    }, {
      %10 = stablehlo.multiply %cst_0, %cst : tensor<3xf32>
      stablehlo.return %10 : tensor<3xf32>
    }, {
      %cst_14 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %10 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<3xf32>
      %11 = stablehlo.subtract %cst_0, %10 : tensor<3xf32>
      stablehlo.return %11 : tensor<3xf32>
    }) : (tensor<i32>) -> tensor<3xf32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %c_4 = stablehlo.constant dense<1> : tensor<i32>
    %c_5 = stablehlo.constant dense<2> : tensor<i32>
    %2 = stablehlo.clamp %c_3, %c_4, %c_5 : tensor<i32>
    %3 = "stablehlo.case"(%2) ({
      %10 = stablehlo.add %cst_0, %cst : tensor<3xf32>
      stablehlo.return %10 : tensor<3xf32>
    }, {
      %10 = stablehlo.multiply %cst_0, %cst : tensor<3xf32>
      stablehlo.return %10 : tensor<3xf32>
    }, {
      %cst_14 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %10 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<3xf32>
      %11 = stablehlo.subtract %cst_0, %10 : tensor<3xf32>
      stablehlo.return %11 : tensor<3xf32>
    }) : (tensor<i32>) -> tensor<3xf32>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %c_7 = stablehlo.constant dense<2> : tensor<i32>
    %c_8 = stablehlo.constant dense<2> : tensor<i32>
    %4 = stablehlo.clamp %c_6, %c_7, %c_8 : tensor<i32>
    %5 = "stablehlo.case"(%4) ({
      %10 = stablehlo.add %cst_0, %cst : tensor<3xf32>
      stablehlo.return %10 : tensor<3xf32>
    }, {
      %10 = stablehlo.multiply %cst_0, %cst : tensor<3xf32>
      stablehlo.return %10 : tensor<3xf32>
    }, {
      %cst_14 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %10 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<3xf32>
      %11 = stablehlo.subtract %cst_0, %10 : tensor<3xf32>
      stablehlo.return %11 : tensor<3xf32>
    }) : (tensor<i32>) -> tensor<3xf32>
    %c_9 = stablehlo.constant dense<0> : tensor<i32>
    %c_10 = stablehlo.constant dense<7> : tensor<i32>
    %c_11 = stablehlo.constant dense<2> : tensor<i32>
    %6 = stablehlo.clamp %c_9, %c_10, %c_11 : tensor<i32>
    %7 = "stablehlo.case"(%6) ({
      %10 = stablehlo.add %cst_0, %cst : tensor<3xf32>
      stablehlo.return %10 : tensor<3xf32>
    }, {
      %10 = stablehlo.multiply %cst_0, %cst : tensor<3xf32>
      stablehlo.return %10 : tensor<3xf32>
    }, {
      %cst_14 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %10 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<3xf32>
      %11 = stablehlo.subtract %cst_0, %10 : tensor<3xf32>
      stablehlo.return %11 : tensor<3xf32>
    }) : (tensor<i32>) -> tensor<3xf32>
    %c_12 = stablehlo.constant dense<1> : tensor<i32>
    %8:2 = "stablehlo.case"(%c_12) ({
      %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %10 = stablehlo.reduce(%cst_0 init: %cst_14) applies stablehlo.add across dimensions = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<f32>
      stablehlo.return %cst, %10 : tensor<3xf32>, tensor<f32>
    }, {
      %cst_14 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %10 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<3xf32>
      %11 = stablehlo.multiply %cst_0, %10 : tensor<3xf32>
      %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %12 = stablehlo.reduce(%cst init: %cst_15) applies stablehlo.add across dimensions = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<f32>
      stablehlo.return %11, %12 : tensor<3xf32>, tensor<f32>
    }) : (tensor<i32>) -> (tensor<3xf32>, tensor<f32>)
    %c_13 = stablehlo.constant dense<0> : tensor<i32>
    %9:2 = "stablehlo.case"(%c_13) ({
      %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %10 = stablehlo.reduce(%cst_0 init: %cst_14) applies stablehlo.add across dimensions = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<f32>
      stablehlo.return %cst, %10 : tensor<3xf32>, tensor<f32>
    }, {
      %cst_14 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %10 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<3xf32>
      %11 = stablehlo.multiply %cst_0, %10 : tensor<3xf32>
      %cst_15 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %12 = stablehlo.reduce(%cst init: %cst_15) applies stablehlo.add across dimensions = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<f32>
      stablehlo.return %11, %12 : tensor<3xf32>, tensor<f32>
    }) : (tensor<i32>) -> (tensor<3xf32>, tensor<f32>)
    check.expect_almost_eq_const %1, dense<[1.5, 1.0, 7.0]> : tensor<3xf32>
    check.expect_almost_eq_const %3, dense<[0.5, -2.0, 12.0]> : tensor<3xf32>
    check.expect_almost_eq_const %5, dense<[0.0, 1.0, 2.0]> : tensor<3xf32>
    check.expect_almost_eq_const %7, dense<[0.0, 1.0, 2.0]> : tensor<3xf32>
    check.expect_almost_eq_const %8#0, dense<[2.0, 4.0, 6.0]> : tensor<3xf32>
    check.expect_almost_eq_const %8#1, dense<3.5> : tensor<f32>
    check.expect_almost_eq_const %9#0, dense<[0.5, -1.0, 4.0]> : tensor<3xf32>
    check.expect_almost_eq_const %9#1, dense<6.0> : tensor<f32>
    return %1, %3, %5, %7, %8#0, %8#1, %9#0, %9#1 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<f32>, tensor<3xf32>, tensor<f32>
  }
}
