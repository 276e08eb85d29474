module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<12xf32>, %arg1: tensor<12xf32>) -> (tensor<12xf32> {jax.result_info = "result[0]"}, tensor<12xf32> {jax.result_info = "result[1]"}, tensor<12xf32> {jax.result_info = "result[2]"}, tensor<12xf32> {jax.result_info = "result[3]"}, tensor<12xf32> {jax.result_info = "result[4]"}, tensor<12xi1> {jax.result_info = "result[5]"}, tensor<12xi1> {jax.result_info = "result[6]"}, tensor<12xf32> {jax.result_info = "result[7]"}) {
    %0 = stablehlo.compare GT, %arg0, %arg1, FLOAT : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %1 = call @_where(%0, %arg0, %arg1) : (tensor<12xi1>, tensor<12xf32>, tensor<12xf32>) -> tensor<12xf32>
    %cst = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %cst_0 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %4 = stablehlo.clamp %2, %arg0, %3 : tensor<12xf32>
    %cst_1 = stablehlo.constant dense<-2.500000e-01> : tensor<f32>
    %cst_2 = stablehlo.constant dense<7.500000e-01> : tensor<f32>
    %5 = call @clip(%arg0, %cst_1, %cst_2) : (tensor<12xf32>, tensor<f32>, tensor<f32>) -> tensor<12xf32>
    %6 = stablehlo.maximum %arg0, %arg1 : tensor<12xf32>
    %7 = stablehlo.minimum %arg0, %arg1 : tensor<12xf32>
    %8 = stablehlo.compare GE, %arg0, %arg1, FLOAT : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %9 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %11 = stablehlo.compare LT, %arg1, %10, FLOAT : (tensor<12xf32>, tensor<12xf32>) -> tensor<12xi1>
    %12 = stablehlo.negate %arg1 : tensor<12xf32>
    %13 = stablehlo.select %11, %12, %arg1 : tensor<12xi1>, tensor<12xf32>
    return %1, %4, %5, %6, %7, %8, %9, %13 : tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xi1>, tensor<12xi1>, tensor<12xf32>
  }
  func.func private @_where(%arg0: tensor<12xi1>, %arg1: tensor<12xf32>, %arg2: tensor<12xf32>) -> tensor<12xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<12xi1>, tensor<12xf32>
    return %0 : tensor<12xf32>
  }
  func.func private @clip(%arg0: tensor<12xf32>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<12xf32> {
    %0 = stablehlo.convert %arg1 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %2 = stablehlo.maximum %1, %arg0 : tensor<12xf32>
    %3 = stablehlo.convert %arg2 : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<12xf32>
    %5 = stablehlo.minimum %4, %2 : tensor<12xf32>
    return %5 : tensor<12xf32>
  }
}
