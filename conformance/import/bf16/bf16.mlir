module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x8xbf16>, %arg1: tensor<4x8xbf16>, %arg2: tensor<8x4xbf16>) -> (tensor<4x8xbf16> {jax.result_info = "result[0]"}, tensor<4x4xbf16> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.add %arg0, %arg1 : tensor<4x8xbf16>
    %1 = stablehlo.dot_general %arg0, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x8xbf16>, tensor<8x4xbf16>) -> tensor<4x4xbf16>
    return %0, %1 : tensor<4x8xbf16>, tensor<4x4xbf16>
  }
}
