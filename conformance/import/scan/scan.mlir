module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<10x4xf32>, %arg1: tensor<4xf32>) -> (tensor<4xf32> {jax.result_info = "result[0][0]"}, tensor<4xf32> {jax.result_info = "result[0][1]"}, tensor<i32> {jax.result_info = "result[0][2]"}, tensor<10x4xf32> {jax.result_info = "result[1][0]"}, tensor<10x4xf32> {jax.result_info = "result[1][1]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<10x4xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<10x4xf32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %2:7 = stablehlo.while(%iterArg = %arg0, %iterArg_2 = %c_1, %iterArg_3 = %arg1, %iterArg_4 = %arg1, %iterArg_5 = %c, %iterArg_6 = %0, %iterArg_7 = %1) : tensor<10x4xf32>, tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>, tensor<10x4xf32>, tensor<10x4xf32>
    cond {
      %c_8 = stablehlo.constant dense<10> : tensor<i32>
      %3 = stablehlo.compare LT, %iterArg_2, %c_8, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %3 : tensor<i1>
    } do {
      %3 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_2) : (tensor<10x4xf32>, tensor<i32>) -> tensor<4xf32>
      %4:5 = func.call @closed_call(%iterArg_3, %iterArg_4, %iterArg_5, %3) : (tensor<4xf32>, tensor<4xf32>, tensor<i32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<i32>, tensor<4xf32>, tensor<4xf32>)
      %5 = func.call @dynamic_update_index_in_dim(%iterArg_6, %4#3, %iterArg_2) : (tensor<10x4xf32>, tensor<4xf32>, tensor<i32>) -> tensor<10x4xf32>
      %6 = func.call @dynamic_update_index_in_dim(%iterArg_7, %4#4, %iterArg_2) : (tensor<10x4xf32>, tensor<4xf32>, tensor<i32>) -> tensor<10x4xf32>
      %c_8 = stablehlo.constant dense<1> : tensor<i32>
      %7 = stablehlo.add %iterArg_2, %c_8 : tensor<i32>
      stablehlo.return %iterArg, %7, %4#0, %4#1, %4#2, %5, %6 : tensor<10x4xf32>, tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<i32>, tensor<10x4xf32>, tensor<10x4xf32>
    }
    return %2#2, %2#3, %2#4, %2#5, %2#6 : tensor<4xf32>, tensor<4xf32>, tensor<i32>, tensor<10x4xf32>, tensor<10x4xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<10x4xf32>, %arg1: tensor<i32>) -> tensor<4xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 4] : (tensor<10x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x4xf32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
  func.func private @closed_call(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>, %arg2: tensor<i32>, %arg3: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<i32>, tensor<4xf32>, tensor<4xf32>) {
    %0 = stablehlo.add %arg0, %arg3 : tensor<4xf32>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %2 = stablehlo.multiply %arg1, %1 : tensor<4xf32>
    %3 = stablehlo.add %2, %arg3 : tensor<4xf32>
    %c = stablehlo.constant dense<1> : tensor<i32>
    %4 = stablehlo.add %arg2, %c : tensor<i32>
    return %0, %3, %4, %0, %3 : tensor<4xf32>, tensor<4xf32>, tensor<i32>, tensor<4xf32>, tensor<4xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<10x4xf32>, %arg1: tensor<4xf32>, %arg2: tensor<i32>) -> tensor<10x4xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c : (tensor<10x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<10x4xf32>
    return %1 : tensor<10x4xf32>
  }
}
