// Expected values from jax 0.10.2:
//   x = jnp.arange(24.0).reshape(4, 6) * jnp.array([1.0, -1.0, 2.0, 0.5, 3.0, -2.0])
//   def f():
//       a = lax.reduce_window(x, -jnp.inf, lax.max, (2, 3), (2, 1), [(0, 1), (1, 1)])
//       b = lax.reduce_window(x, 0.0, lax.add, (2, 2), (1, 2), "VALID", base_dilation=(2, 1), window_dilation=(1, 2))
//       c = jax.grad(lambda y: lax.reduce_window(y, -jnp.inf, lax.max, (2, 2), (2, 2), "VALID").sum())(x)
//       return a, b, c
module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<2x6xf32> {jax.result_info = "result[0]"}, tensor<6x2xf32> {jax.result_info = "result[1]"}, tensor<4x6xf32> {jax.result_info = "result[2]"}) {
    %cst = stablehlo.constant dense<[[0.000000e+00, -1.000000e+00, 4.000000e+00, 1.500000e+00, 1.200000e+01, -1.000000e+01], [6.000000e+00, -7.000000e+00, 1.600000e+01, 4.500000e+00, 3.000000e+01, -2.200000e+01], [1.200000e+01, -1.300000e+01, 2.800000e+01, 7.500000e+00, 4.800000e+01, -3.400000e+01], [1.800000e+01, -1.900000e+01, 4.000000e+01, 1.050000e+01, 6.600000e+01, -4.600000e+01]]> : tensor<4x6xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%cst, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 1], [1, 1]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 1>}> ({
    ^bb0(%arg0: tensor<f32>, %arg1: tensor<f32>):
      %8 = stablehlo.maximum %arg0, %arg1 : tensor<f32>
      stablehlo.return %8 : tensor<f32>
    }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x6xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<f32>
    %3 = "stablehlo.reduce_window"(%cst, %2) <{base_dilations = array<i64: 2, 1>, padding = dense<0> : tensor<2x2xi64>, window_dilations = array<i64: 1, 2>, window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 1, 2>}> ({
    ^bb0(%arg0: tensor<f32>, %arg1: tensor<f32>):
      %8 = stablehlo.add %arg0, %arg1 : tensor<f32>
      stablehlo.return %8 : tensor<f32>
    }) : (tensor<4x6xf32>, tensor<f32>) -> tensor<6x2xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
    %cst_3 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %5 = stablehlo.pad %cst, %cst_3, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<4x6xf32>, tensor<f32>) -> tensor<4x6xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = "stablehlo.select_and_scatter"(%5, %4, %cst_4) <{padding = dense<0> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
    ^bb0(%arg0: tensor<f32>, %arg1: tensor<f32>):
      %8 = stablehlo.compare GE, %arg0, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %8 : tensor<i1>
    }, {
    ^bb0(%arg0: tensor<f32>, %arg1: tensor<f32>):
      %8 = stablehlo.add %arg0, %arg1 : tensor<f32>
      stablehlo.return %8 : tensor<f32>
    }) : (tensor<4x6xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<4x6xf32>
    %7 = stablehlo.slice %6 [0:4, 0:6] : (tensor<4x6xf32>) -> tensor<4x6xf32>
    check.expect_almost_eq_const %1, dense<[[6.0, 16.0, 16.0, 30.0, 30.0, 30.0], [18.0, 40.0, 40.0, 66.0, 66.0, 66.0]]> : tensor<2x6xf32>
    check.expect_almost_eq_const %3, dense<[[4.0, 16.0], [22.0, 46.0], [22.0, 46.0], [40.0, 76.0], [40.0, 76.0], [58.0, 106.0]]> : tensor<6x2xf32>
    check.expect_almost_eq_const %7, dense<[[0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 0.0, 1.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [1.0, 0.0, 1.0, 0.0, 1.0, 0.0]]> : tensor<4x6xf32>
    return %1, %3, %7 : tensor<2x6xf32>, tensor<6x2xf32>, tensor<4x6xf32>
  }
}
