module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<9xi32>) -> (tensor<9xi32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<2> : tensor<i32>
    %0 = call @"<lambda>"(%arg0, %c) : (tensor<9xi32>, tensor<i32>) -> tensor<9xi32>
    %c_0 = stablehlo.constant dense<3> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %2 = stablehlo.multiply %arg0, %1 : tensor<9xi32>
    %c_1 = stablehlo.constant dense<5> : tensor<i32>
    %3 = call @"<lambda>"(%2, %c_1) : (tensor<9xi32>, tensor<i32>) -> tensor<9xi32>
    %4 = stablehlo.add %0, %3 : tensor<9xi32>
    return %4 : tensor<9xi32>
  }
  func.func private @"<lambda>"(%arg0: tensor<9xi32>, %arg1: tensor<i32>) -> tensor<9xi32> {
    %0 = stablehlo.convert %arg1 : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %2 = stablehlo.multiply %arg0, %1 : tensor<9xi32>
    %c = stablehlo.constant dense<1> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %4 = stablehlo.add %2, %3 : tensor<9xi32>
    return %4 : tensor<9xi32>
  }
}
