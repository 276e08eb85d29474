module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16xf32>, %arg1: tensor<16xf32>, %arg2: tensor<16xf32>) -> (tensor<16xf32> {jax.result_info = "result[0]"}, tensor<16xf32> {jax.result_info = "result[1]"}, tensor<16xf32> {jax.result_info = "result[2]"}, tensor<16xf32> {jax.result_info = "result[3]"}) {
    %0 = chlo.erf %arg0 : tensor<16xf32> -> tensor<16xf32>
    %1 = chlo.erf_inv %arg1 : tensor<16xf32> -> tensor<16xf32>
    %2 = chlo.lgamma %arg2 : tensor<16xf32> -> tensor<16xf32>
    %3 = chlo.digamma %arg2 : tensor<16xf32> -> tensor<16xf32>
    return %0, %1, %2, %3 : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
  }
}
