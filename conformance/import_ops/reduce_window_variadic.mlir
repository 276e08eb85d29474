// Expected values from jax 0.10.2:
//   x = jnp.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0])
//   ix = jnp.arange(8, dtype=jnp.int32)
//   def f():
//       def pick(a, b):
//           take = a[0] >= b[0]
//           return (jnp.where(take, a[0], b[0]), jnp.where(take, a[1], b[1]))
//       return lax.reduce_window((x, ix), (-jnp.inf, jnp.int32(0)), pick, (3,), (2,), "VALID")
module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<3xf32> {jax.result_info = "result[0]"}, tensor<3xi32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<[3.000000e+00, 1.000000e+00, 4.000000e+00, 1.000000e+00, 5.000000e+00, 9.000000e+00, 2.000000e+00, 6.000000e+00]> : tensor<8xf32>
    %c = stablehlo.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : tensor<8xi32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %0:2 = "stablehlo.reduce_window"(%cst, %c, %cst_0, %c_1) <{base_dilations = array<i64: 1>, padding = dense<0> : tensor<1x2xi64>, window_dilations = array<i64: 1>, window_dimensions = array<i64: 3>, window_strides = array<i64: 2>}> ({
    ^bb0(%arg0: tensor<f32>, %arg1: tensor<i32>, %arg2: tensor<f32>, %arg3: tensor<i32>):
      %1 = stablehlo.compare GE, %arg0, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %2 = func.call @_where(%1, %arg0, %arg2) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      %3 = func.call @_where_0(%1, %arg1, %arg3) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
      stablehlo.return %2, %3 : tensor<f32>, tensor<i32>
    }) : (tensor<8xf32>, tensor<8xi32>, tensor<f32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)
    check.expect_almost_eq_const %0#0, dense<[4.0, 5.0, 9.0]> : tensor<3xf32>
    check.expect_eq_const %0#1, dense<[2, 4, 5]> : tensor<3xi32>
    return %0#0, %0#1 : tensor<3xf32>, tensor<3xi32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @_where_0(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
}
