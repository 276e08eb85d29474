// Expected values from jax 0.10.2:
//   x = jnp.arange(12.0).reshape(4, 3)
//   i = jnp.array([3, 0, 3])
//   def f():
//       return (x[i], x.at[jnp.array([1, 1, 3])].add(jnp.ones((3, 3))),
//               x.at[jnp.array([2, 0])].set(jnp.full((2, 3), 7.0)),
//               x.at[jnp.array([0, 3]), jnp.array([1, 2])].max(jnp.array([5.0, 20.0])), x[jnp.array([1, 2]), jnp.array([2, 0])])
module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<3x3xf32> {jax.result_info = "result[0]"}, tensor<4x3xf32> {jax.result_info = "result[1]"}, tensor<4x3xf32> {jax.result_info = "result[2]"}, tensor<4x3xf32> {jax.result_info = "result[3]"}, tensor<2xf32> {jax.result_info = "result[4]"}) {
    %c = stablehlo.constant dense<[3, 0, 3]> : tensor<3xi32>
    %cst = stablehlo.constant dense<[[0.000000e+00, 1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00, 5.000000e+00], [6.000000e+00, 7.000000e+00, 8.000000e+00], [9.000000e+00, 1.000000e+01, 1.100000e+01]]> : tensor<4x3xf32>
    %c_0 = stablehlo.constant dense<[1, 1, 3]> : tensor<3xi32>
    %c_1 = stablehlo.constant dense<[2, 0]> : tensor<2xi32>
    %c_2 = stablehlo.constant dense<[0, 3]> : tensor<2xi32>
    %c_3 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
    %cst_4 = stablehlo.constant dense<[5.000000e+00, 2.000000e+01]> : tensor<2xf32>
    %c_5 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
    %c_6 = stablehlo.constant dense<[2, 0]> : tensor<2xi32>
    %c_7 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c_7, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %1 = stablehlo.compare LT, %c, %0, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_8 = stablehlo.constant dense<4> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_8, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %3 = stablehlo.add %c, %2 : tensor<3xi32>
    %4 = stablehlo.select %1, %3, %c : tensor<3xi1>, tensor<3xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %6 = "stablehlo.gather"(%cst, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 3>}> : (tensor<4x3xf32>, tensor<3x1xi32>) -> tensor<3x3xf32>
    %cst_9 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<3x3xf32>
    %c_10 = stablehlo.constant dense<0> : tensor<i32>
    %8 = stablehlo.broadcast_in_dim %c_10, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %9 = stablehlo.compare LT, %c_0, %8, SIGNED : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
    %c_11 = stablehlo.constant dense<4> : tensor<i32>
    %10 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i32>) -> tensor<3xi32>
    %11 = stablehlo.add %c_0, %10 : tensor<3xi32>
    %12 = stablehlo.select %9, %11, %c_0 : tensor<3xi1>, tensor<3xi32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %14 = "stablehlo.scatter"(%cst, %13, %7) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg0: tensor<f32>, %arg1: tensor<f32>):
      %52 = stablehlo.add %arg0, %arg1 : tensor<f32>
      stablehlo.return %52 : tensor<f32>
    }) : (tensor<4x3xf32>, tensor<3x1xi32>, tensor<3x3xf32>) -> tensor<4x3xf32>
    %cst_12 = stablehlo.constant dense<7.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
    %c_13 = stablehlo.constant dense<0> : tensor<i32>
    %16 = stablehlo.broadcast_in_dim %c_13, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %17 = stablehlo.compare LT, %c_1, %16, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %c_14 = stablehlo.constant dense<4> : tensor<i32>
    %18 = stablehlo.broadcast_in_dim %c_14, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %19 = stablehlo.add %c_1, %18 : tensor<2xi32>
    %20 = stablehlo.select %17, %19, %c_1 : tensor<2xi1>, tensor<2xi32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [0] : (tensor<2xi32>) -> tensor<2x1xi32>
    %22 = stablehlo.convert %15 : tensor<2x3xf32>
    %23 = "stablehlo.scatter"(%cst, %21, %22) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg0: tensor<f32>, %arg1: tensor<f32>):
      stablehlo.return %arg1 : tensor<f32>
    }) : (tensor<4x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<4x3xf32>
    %c_15 = stablehlo.constant dense<0> : tensor<i32>
    %24 = stablehlo.broadcast_in_dim %c_15, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %25 = stablehlo.compare LT, %c_2, %24, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %c_16 = stablehlo.constant dense<4> : tensor<i32>
    %26 = stablehlo.broadcast_in_dim %c_16, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %27 = stablehlo.add %c_2, %26 : tensor<2xi32>
    %28 = stablehlo.select %25, %27, %c_2 : tensor<2xi1>, tensor<2xi32>
    %c_17 = stablehlo.constant dense<0> : tensor<i32>
    %29 = stablehlo.broadcast_in_dim %c_17, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %30 = stablehlo.compare LT, %c_3, %29, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %c_18 = stablehlo.constant dense<3> : tensor<i32>
    %31 = stablehlo.broadcast_in_dim %c_18, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %32 = stablehlo.add %c_3, %31 : tensor<2xi32>
    %33 = stablehlo.select %30, %32, %c_3 : tensor<2xi1>, tensor<2xi32>
    %34 = stablehlo.broadcast_in_dim %28, dims = [0] : (tensor<2xi32>) -> tensor<2x1xi32>
    %35 = stablehlo.broadcast_in_dim %33, dims = [0] : (tensor<2xi32>) -> tensor<2x1xi32>
    %36 = stablehlo.concatenate %34, %35, dim = 1 : (tensor<2x1xi32>, tensor<2x1xi32>) -> tensor<2x2xi32>
    %37 = "stablehlo.scatter"(%cst, %36, %cst_4) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg0: tensor<f32>, %arg1: tensor<f32>):
      %52 = stablehlo.maximum %arg0, %arg1 : tensor<f32>
      stablehlo.return %52 : tensor<f32>
    }) : (tensor<4x3xf32>, tensor<2x2xi32>, tensor<2xf32>) -> tensor<4x3xf32>
    %c_19 = stablehlo.constant dense<0> : tensor<i32>
    %38 = stablehlo.broadcast_in_dim %c_19, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %39 = stablehlo.compare LT, %c_5, %38, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %c_20 = stablehlo.constant dense<4> : tensor<i32>
    %40 = stablehlo.broadcast_in_dim %c_20, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %41 = stablehlo.add %c_5, %40 : tensor<2xi32>
    %42 = stablehlo.select %39, %41, %c_5 : tensor<2xi1>, tensor<2xi32>
    %c_21 = stablehlo.constant dense<0> : tensor<i32>
    %43 = stablehlo.broadcast_in_dim %c_21, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %44 = stablehlo.compare LT, %c_6, %43, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %c_22 = stablehlo.constant dense<3> : tensor<i32>
    %45 = stablehlo.broadcast_in_dim %c_22, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %46 = stablehlo.add %c_6, %45 : tensor<2xi32>
    %47 = stablehlo.select %44, %46, %c_6 : tensor<2xi1>, tensor<2xi32>
    %48 = stablehlo.broadcast_in_dim %42, dims = [0] : (tensor<2xi32>) -> tensor<2x1xi32>
    %49 = stablehlo.broadcast_in_dim %47, dims = [0] : (tensor<2xi32>) -> tensor<2x1xi32>
    %50 = stablehlo.concatenate %48, %49, dim = 1 : (tensor<2x1xi32>, tensor<2x1xi32>) -> tensor<2x2xi32>
    %51 = "stablehlo.gather"(%cst, %50) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0, 1], start_index_map = [0, 1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 1>}> : (tensor<4x3xf32>, tensor<2x2xi32>) -> tensor<2xf32>
    check.expect_almost_eq_const %6, dense<[[9.0, 10.0, 11.0], [0.0, 1.0, 2.0], [9.0, 10.0, 11.0]]> : tensor<3x3xf32>
    check.expect_almost_eq_const %14, dense<[[0.0, 1.0, 2.0], [5.0, 6.0, 7.0], [6.0, 7.0, 8.0], [10.0, 11.0, 12.0]]> : tensor<4x3xf32>
    check.expect_almost_eq_const %23, dense<[[7.0, 7.0, 7.0], [3.0, 4.0, 5.0], [7.0, 7.0, 7.0], [9.0, 10.0, 11.0]]> : tensor<4x3xf32>
    check.expect_almost_eq_const %37, dense<[[0.0, 5.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0], [9.0, 10.0, 20.0]]> : tensor<4x3xf32>
    check.expect_almost_eq_const %51, dense<[5.0, 6.0]> : tensor<2xf32>
    return %6, %14, %23, %37, %51 : tensor<3x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<4x3xf32>, tensor<2xf32>
  }
}
