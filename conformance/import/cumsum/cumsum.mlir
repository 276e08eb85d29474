module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16x3xf32>, %arg1: tensor<16x3xi32>, %arg2: tensor<16x3xf32>) -> (tensor<16x3xf32> {jax.result_info = "result[0]"}, tensor<16x3xi32> {jax.result_info = "result[1]"}, tensor<16x3xf32> {jax.result_info = "result[2]"}, tensor<16x3xf32> {jax.result_info = "result[3]"}, tensor<16x3xf32> {jax.result_info = "result[4]"}) {
    %0 = call @cumsum(%arg0) : (tensor<16x3xf32>) -> tensor<16x3xf32>
    %1 = call @cumsum_1(%arg1) : (tensor<16x3xi32>) -> tensor<16x3xi32>
    %2 = call @cumprod(%arg2) : (tensor<16x3xf32>) -> tensor<16x3xf32>
    %3 = call @cummax(%arg0) : (tensor<16x3xf32>) -> tensor<16x3xf32>
    %4 = call @cumsum_4(%arg0) : (tensor<16x3xf32>) -> tensor<16x3xf32>
    return %0, %1, %2, %3, %4 : tensor<16x3xf32>, tensor<16x3xi32>, tensor<16x3xf32>, tensor<16x3xf32>, tensor<16x3xf32>
  }
  func.func private @cumsum(%arg0: tensor<16x3xf32>) -> tensor<16x3xf32> {
    %0 = call @cumsum_0(%arg0) : (tensor<16x3xf32>) -> tensor<16x3xf32>
    return %0 : tensor<16x3xf32>
  }
  func.func private @cumsum_0(%arg0: tensor<16x3xf32>) -> tensor<16x3xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[15, 0], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 16, 1>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<16x3xf32>, tensor<f32>) -> tensor<16x3xf32>
    return %1 : tensor<16x3xf32>
  }
  func.func private @cumsum_1(%arg0: tensor<16x3xi32>) -> tensor<16x3xi32> {
    %0 = call @cumsum_2(%arg0) : (tensor<16x3xi32>) -> tensor<16x3xi32>
    return %0 : tensor<16x3xi32>
  }
  func.func private @cumsum_2(%arg0: tensor<16x3xi32>) -> tensor<16x3xi32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<i32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [2, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 3>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<i32>
      stablehlo.return %2 : tensor<i32>
    }) : (tensor<16x3xi32>, tensor<i32>) -> tensor<16x3xi32>
    return %1 : tensor<16x3xi32>
  }
  func.func private @cumprod(%arg0: tensor<16x3xf32>) -> tensor<16x3xf32> {
    %0 = call @cumprod_3(%arg0) : (tensor<16x3xf32>) -> tensor<16x3xf32>
    return %0 : tensor<16x3xf32>
  }
  func.func private @cumprod_3(%arg0: tensor<16x3xf32>) -> tensor<16x3xf32> {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = "stablehlo.reduce_window"(%arg0, %cst) <{base_dilations = array<i64: 1, 1>, padding = dense<[[15, 0], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 16, 1>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %1 = stablehlo.multiply %arg1, %arg2 : tensor<f32>
      stablehlo.return %1 : tensor<f32>
    }) : (tensor<16x3xf32>, tensor<f32>) -> tensor<16x3xf32>
    return %0 : tensor<16x3xf32>
  }
  func.func private @cummax(%arg0: tensor<16x3xf32>) -> tensor<16x3xf32> {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[15, 0], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 16, 1>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.maximum %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<16x3xf32>, tensor<f32>) -> tensor<16x3xf32>
    return %1 : tensor<16x3xf32>
  }
  func.func private @cumsum_4(%arg0: tensor<16x3xf32>) -> tensor<16x3xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 15], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 16, 1>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<16x3xf32>, tensor<f32>) -> tensor<16x3xf32>
    return %1 : tensor<16x3xf32>
  }
}
