module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3x4xf32>, %arg1: tensor<2x1x4xf32>) -> (tensor<4x2x3xf32> {jax.result_info = "result[0]"}, tensor<6x4xf32> {jax.result_info = "result[1]"}, tensor<2x7x4xf32> {jax.result_info = "result[2]"}, tensor<3x7x4xf32> {jax.result_info = "result[3]"}, tensor<2x3x4xf32> {jax.result_info = "result[4]"}, tensor<2x2x3xf32> {jax.result_info = "result[5]"}, tensor<2x2x2xf32> {jax.result_info = "result[6]"}, tensor<3x2x5x4xf32> {jax.result_info = "result[7]"}, tensor<3x4xi32> {jax.result_info = "result[8]"}, tensor<3x4xf32> {jax.result_info = "result[9]"}, tensor<2x1x4x1xf32> {jax.result_info = "result[10]"}) {
    %0 = stablehlo.transpose %arg0, dims = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
    %1 = stablehlo.reshape %arg0 : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
    %2 = stablehlo.concatenate %arg0, %arg1, %arg0, dim = 1 : (tensor<2x3x4xf32>, tensor<2x1x4xf32>, tensor<2x3x4xf32>) -> tensor<2x7x4xf32>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %3 = stablehlo.pad %arg0, %cst, low = [1, 0, -1], high = [0, 2, 1], interior = [0, 1, 0] : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<3x7x4xf32>
    %4 = call @_flip(%arg0) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
    %5 = stablehlo.slice %arg0 [0:2, 0:3:2, 1:4] : (tensor<2x3x4xf32>) -> tensor<2x2x3xf32>
    %6 = stablehlo.slice %arg0 [0:2, 1:3, 0:4:3] : (tensor<2x3x4xf32>) -> tensor<2x2x2xf32>
    %7 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2, 3] : (tensor<2x1x4xf32>) -> tensor<3x2x5x4xf32>
    %8 = stablehlo.iota dim = 0 : tensor<12xi32>
    %9 = stablehlo.reshape %8 : (tensor<12xi32>) -> tensor<3x4xi32>
    %10 = stablehlo.iota dim = 1 : tensor<3x4xf32>
    %11 = stablehlo.reshape %arg1 : (tensor<2x1x4xf32>) -> tensor<2x4xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0, 2] : (tensor<2x4xf32>) -> tensor<2x1x4x1xf32>
    return %0, %1, %2, %3, %4, %5, %6, %7, %9, %10, %12 : tensor<4x2x3xf32>, tensor<6x4xf32>, tensor<2x7x4xf32>, tensor<3x7x4xf32>, tensor<2x3x4xf32>, tensor<2x2x3xf32>, tensor<2x2x2xf32>, tensor<3x2x5x4xf32>, tensor<3x4xi32>, tensor<3x4xf32>, tensor<2x1x4x1xf32>
  }
  func.func private @_flip(%arg0: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
    %0 = stablehlo.reverse %arg0, dims = [0, 2] : tensor<2x3x4xf32>
    return %0 : tensor<2x3x4xf32>
  }
}
