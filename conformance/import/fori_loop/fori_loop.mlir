module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6xf32>, %arg1: tensor<i32>) -> (tensor<6xf32> {jax.result_info = "result[0][0]"}, tensor<i32> {jax.result_info = "result[0][1]"}, tensor<6xf32> {jax.result_info = "result[1][0]"}, tensor<i32> {jax.result_info = "result[1][1]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %0:4 = stablehlo.while(%iterArg = %c_1, %iterArg_4 = %c, %iterArg_5 = %arg0, %iterArg_6 = %c_0) : tensor<i32>, tensor<i32>, tensor<6xf32>, tensor<i32>
    cond {
      %c_7 = stablehlo.constant dense<10> : tensor<i32>
      %2 = stablehlo.compare LT, %iterArg, %c_7, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %2:3 = func.call @closed_call(%iterArg_4, %iterArg_5, %iterArg_6) : (tensor<i32>, tensor<6xf32>, tensor<i32>) -> (tensor<i32>, tensor<6xf32>, tensor<i32>)
      %c_7 = stablehlo.constant dense<1> : tensor<i32>
      %3 = stablehlo.add %iterArg, %c_7 : tensor<i32>
      stablehlo.return %3, %2#0, %2#1, %2#2 : tensor<i32>, tensor<i32>, tensor<6xf32>, tensor<i32>
    }
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %1:4 = stablehlo.while(%iterArg = %c_2, %iterArg_4 = %arg1, %iterArg_5 = %arg0, %iterArg_6 = %c_3) : tensor<i32>, tensor<i32>, tensor<6xf32>, tensor<i32>
    cond {
      %2 = stablehlo.compare LT, %iterArg, %iterArg_4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %c_7 = stablehlo.constant dense<1> : tensor<i32>
      %2 = stablehlo.add %iterArg, %c_7 : tensor<i32>
      %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
      %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6xf32>
      %4 = stablehlo.multiply %iterArg_5, %3 : tensor<6xf32>
      %5 = stablehlo.convert %iterArg : (tensor<i32>) -> tensor<f32>
      %6 = stablehlo.sine %5 : tensor<f32>
      %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<f32>) -> tensor<6xf32>
      %8 = stablehlo.add %4, %7 : tensor<6xf32>
      %9 = stablehlo.multiply %iterArg, %iterArg : tensor<i32>
      %10 = stablehlo.convert %9 : tensor<i32>
      %11 = stablehlo.add %iterArg_6, %10 : tensor<i32>
      stablehlo.return %2, %iterArg_4, %8, %11 : tensor<i32>, tensor<i32>, tensor<6xf32>, tensor<i32>
    }
    return %0#2, %0#3, %1#2, %1#3 : tensor<6xf32>, tensor<i32>, tensor<6xf32>, tensor<i32>
  }
  func.func private @closed_call(%arg0: tensor<i32>, %arg1: tensor<6xf32>, %arg2: tensor<i32>) -> (tensor<i32>, tensor<6xf32>, tensor<i32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg0, %c : tensor<i32>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %2 = stablehlo.multiply %arg1, %1 : tensor<6xf32>
    %3 = stablehlo.convert %arg0 : (tensor<i32>) -> tensor<f32>
    %4 = stablehlo.sine %3 : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %6 = stablehlo.add %2, %5 : tensor<6xf32>
    %7 = stablehlo.multiply %arg0, %arg0 : tensor<i32>
    %8 = stablehlo.convert %7 : tensor<i32>
    %9 = stablehlo.add %arg2, %8 : tensor<i32>
    return %0, %6, %9 : tensor<i32>, tensor<6xf32>, tensor<i32>
  }
}
