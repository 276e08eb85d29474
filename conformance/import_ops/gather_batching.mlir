// Expected values from jax 0.10.2:
//   x = jnp.arange(24.0).reshape(2, 4, 3)
//   i = jnp.array([[3, 1], [0, 2]])
//   def f():
//       g = jax.vmap(lambda a, j: a[j])(x, i)
//       s = jax.vmap(lambda a, j: a.at[j].add(1.0))(x, i)
//       v = jax.vmap(lambda a, j: a.at[j].set(jnp.array([5.0, 6.0, 7.0])))(x, i)
//       return g, s, v
module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<2x2x3xf32> {jax.result_info = "result[0]"}, tensor<2x4x3xf32> {jax.result_info = "result[1]"}, tensor<2x4x3xf32> {jax.result_info = "result[2]"}) {
    %c = stablehlo.constant dense<[[3, 1], [0, 2]]> : tensor<2x2xi32>
    %cst = stablehlo.constant dense<[[[0.000000e+00, 1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00, 5.000000e+00], [6.000000e+00, 7.000000e+00, 8.000000e+00], [9.000000e+00, 1.000000e+01, 1.100000e+01]], [[1.200000e+01, 1.300000e+01, 1.400000e+01], [1.500000e+01, 1.600000e+01, 1.700000e+01], [1.800000e+01, 1.900000e+01, 2.000000e+01], [2.100000e+01, 2.200000e+01, 2.300000e+01]]]> : tensor<2x4x3xf32>
    %cst_0 = stablehlo.constant dense<[5.000000e+00, 6.000000e+00, 7.000000e+00]> : tensor<3xf32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<2x2xi32>
    %1 = stablehlo.compare LT, %c, %0, SIGNED : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi1>
    %c_2 = stablehlo.constant dense<4> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<2x2xi32>
    %3 = stablehlo.add %c, %2 : tensor<2x2xi32>
    %4 = stablehlo.select %1, %3, %c : tensor<2x2xi1>, tensor<2x2xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<2x2xi32>) -> tensor<2x2x1xi32>
    %6 = "stablehlo.gather"(%cst, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1, 3>}> : (tensor<2x4x3xf32>, tensor<2x2x1xi32>) -> tensor<2x2x3xf32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<2x2xi32>
    %8 = stablehlo.compare LT, %c, %7, SIGNED : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi1>
    %c_4 = stablehlo.constant dense<4> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<2x2xi32>
    %10 = stablehlo.add %c, %9 : tensor<2x2xi32>
    %11 = stablehlo.select %8, %10, %c : tensor<2x2xi1>, tensor<2x2xi32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1] : (tensor<2x2xi32>) -> tensor<2x2x1xi32>
    %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [1, 2] : (tensor<2x3xf32>) -> tensor<2x2x3xf32>
    %15 = "stablehlo.scatter"(%cst, %12, %14) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg0: tensor<f32>, %arg1: tensor<f32>):
      %25 = stablehlo.add %arg0, %arg1 : tensor<f32>
      stablehlo.return %25 : tensor<f32>
    }) : (tensor<2x4x3xf32>, tensor<2x2x1xi32>, tensor<2x2x3xf32>) -> tensor<2x4x3xf32>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %16 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i32>) -> tensor<2x2xi32>
    %17 = stablehlo.compare LT, %c, %16, SIGNED : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi1>
    %c_7 = stablehlo.constant dense<4> : tensor<i32>
    %18 = stablehlo.broadcast_in_dim %c_7, dims = [] : (tensor<i32>) -> tensor<2x2xi32>
    %19 = stablehlo.add %c, %18 : tensor<2x2xi32>
    %20 = stablehlo.select %17, %19, %c : tensor<2x2xi1>, tensor<2x2xi32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [0, 1] : (tensor<2x2xi32>) -> tensor<2x2x1xi32>
    %22 = stablehlo.broadcast_in_dim %cst_0, dims = [1] : (tensor<3xf32>) -> tensor<2x3xf32>
    %23 = stablehlo.broadcast_in_dim %22, dims = [1, 2] : (tensor<2x3xf32>) -> tensor<2x2x3xf32>
    %24 = "stablehlo.scatter"(%cst, %21, %23) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [2], inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>, unique_indices = false}> ({
    ^bb0(%arg0: tensor<f32>, %arg1: tensor<f32>):
      stablehlo.return %arg1 : tensor<f32>
    }) : (tensor<2x4x3xf32>, tensor<2x2x1xi32>, tensor<2x2x3xf32>) -> tensor<2x4x3xf32>
    check.expect_almost_eq_const %6, dense<[[[9.0, 10.0, 11.0], [3.0, 4.0, 5.0]], [[12.0, 13.0, 14.0], [18.0, 19.0, 20.0]]]> : tensor<2x2x3xf32>
    check.expect_almost_eq_const %15, dense<[[[0.0, 1.0, 2.0], [4.0, 5.0, 6.0], [6.0, 7.0, 8.0], [10.0, 11.0, 12.0]], [[13.0, 14.0, 15.0], [15.0, 16.0, 17.0], [19.0, 20.0, 21.0], [21.0, 22.0, 23.0]]]> : tensor<2x4x3xf32>
    check.expect_almost_eq_const %24, dense<[[[0.0, 1.0, 2.0], [5.0, 6.0, 7.0], [6.0, 7.0, 8.0], [5.0, 6.0, 7.0]], [[5.0, 6.0, 7.0], [15.0, 16.0, 17.0], [5.0, 6.0, 7.0], [21.0, 22.0, 23.0]]]> : tensor<2x4x3xf32>
    return %6, %15, %24 : tensor<2x2x3xf32>, tensor<2x4x3xf32>, tensor<2x4x3xf32>
  }
}
