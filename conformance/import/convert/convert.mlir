module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<12xf32>, %arg1: tensor<12xi32>) -> (tensor<12xi32> {jax.result_info = "result[0]"}, tensor<12xf16> {jax.result_info = "result[1]"}, tensor<12xui8> {jax.result_info = "result[2]"}, tensor<12xf32> {jax.result_info = "result[3]"}, tensor<12xf32> {jax.result_info = "result[4]"}, tensor<12xi1> {jax.result_info = "result[5]"}, tensor<12xi32> {jax.result_info = "result[6]"}, tensor<12xf32> {jax.result_info = "result[7]"}) {
    %0 = stablehlo.convert %arg0 : (tensor<12xf32>) -> tensor<12xi32>
    %1 = stablehlo.convert %arg0 : (tensor<12xf32>) -> tensor<12xf16>
    %2 = stablehlo.abs %arg0 : tensor<12xf32>
    %c = stablehlo.constant dense<255> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %3 = call @clip(%2, %c, %c_0) : (tensor<12xf32>, tensor<i32>, tensor<i32>) -> tensor<12xf32>
    %4 = stablehlo.convert %3 : (tensor<12xf32>) -> tensor<12xui8>
    %5 = stablehlo.convert %arg1 : (tensor<12xi32>) -> tensor<12xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %7 = stablehlo.compare GT, %arg0, %6, FLOAT : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %8 = stablehlo.convert %7 : (tensor<12xi1>) -> tensor<12xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %10 = stablehlo.compare NE, %arg0, %9, FLOAT : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %11 = stablehlo.convert %10 : tensor<12xi1>
    %12 = stablehlo.bitcast_convert %arg0 : (tensor<12xf32>) -> tensor<12xi32>
    %13 = stablehlo.bitcast_convert %arg1 : (tensor<12xi32>) -> tensor<12xf32>
    return %0, %1, %4, %5, %8, %11, %12, %13 : tensor<12xi32>, tensor<12xf16>, tensor<12xui8>, tensor<12xf32>, tensor<12xf32>, tensor<12xi1>, tensor<12xi32>, tensor<12xf32>
  }
  func.func private @clip(%arg0: tensor<12xf32>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<12xf32> {
    %0 = stablehlo.convert %arg2 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %2 = stablehlo.maximum %1, %arg0 : tensor<12xf32>
    %3 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %5 = stablehlo.minimum %4, %2 : tensor<12xf32>
    return %5 : tensor<12xf32>
  }
}
