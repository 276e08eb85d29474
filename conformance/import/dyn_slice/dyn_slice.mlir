module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x4xf32>) -> (tensor<8x4xf32> {jax.result_info = "result[0]"}, tensor<8x4xf32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8x4xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %2:5 = stablehlo.while(%iterArg = %arg0, %iterArg_2 = %c_1, %iterArg_3 = %c, %iterArg_4 = %0, %iterArg_5 = %1) : tensor<8x4xf32>, tensor<i32>, tensor<i32>, tensor<8x4xf32>, tensor<8x4xf32>
    cond {
      %c_6 = stablehlo.constant dense<8> : tensor<i32>
      %3 = stablehlo.compare LT, %iterArg_2, %c_6, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %3 : tensor<i1>
    } do {
      %3:3 = func.call @closed_call(%iterArg, %iterArg_3, %iterArg_4, %iterArg_5) : (tensor<8x4xf32>, tensor<i32>, tensor<8x4xf32>, tensor<8x4xf32>) -> (tensor<i32>, tensor<8x4xf32>, tensor<8x4xf32>)
      %c_6 = stablehlo.constant dense<1> : tensor<i32>
      %4 = stablehlo.add %iterArg_2, %c_6 : tensor<i32>
      stablehlo.return %iterArg, %4, %3#0, %3#1, %3#2 : tensor<8x4xf32>, tensor<i32>, tensor<i32>, tensor<8x4xf32>, tensor<8x4xf32>
    }
    return %2#3, %2#4 : tensor<8x4xf32>, tensor<8x4xf32>
  }
  func.func private @closed_call(%arg0: tensor<8x4xf32>, %arg1: tensor<i32>, %arg2: tensor<8x4xf32>, %arg3: tensor<8x4xf32>) -> (tensor<i32>, tensor<8x4xf32>, tensor<8x4xf32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg1, %c : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.compare LT, %arg1, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %2 = stablehlo.convert %arg1 : tensor<i32>
    %c_1 = stablehlo.constant dense<8> : tensor<i32>
    %3 = stablehlo.add %2, %c_1 : tensor<i32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<i1>, tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.dynamic_slice %arg0, %4, %c_2, sizes = [3, 4] : (tensor<8x4xf32>, tensor<i32>, tensor<i32>) -> tensor<3x4xf32>
    %6 = stablehlo.slice %5 [1:2, 0:4] : (tensor<3x4xf32>) -> tensor<1x4xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<1x4xf32>
    %8 = stablehlo.multiply %6, %7 : tensor<1x4xf32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.compare LT, %arg1, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %10 = stablehlo.convert %arg1 : tensor<i32>
    %c_4 = stablehlo.constant dense<8> : tensor<i32>
    %11 = stablehlo.add %10, %c_4 : tensor<i32>
    %12 = stablehlo.select %9, %11, %arg1 : tensor<i1>, tensor<i32>
    %c_5 = stablehlo.constant dense<0> : tensor<i32>
    %13 = stablehlo.dynamic_update_slice %arg2, %8, %12, %c_5 : (tensor<8x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
    %14 = stablehlo.slice %5 [0:2, 0:2] : (tensor<3x4xf32>) -> tensor<2x2xf32>
    %15 = stablehlo.slice %arg3 [0:1, 0:1] : (tensor<8x4xf32>) -> tensor<1x1xf32>
    %16 = stablehlo.reshape %15 : (tensor<1x1xf32>) -> tensor<f32>
    %17 = stablehlo.broadcast_in_dim %16, dims = [] : (tensor<f32>) -> tensor<2x2xf32>
    %18 = stablehlo.add %14, %17 : tensor<2x2xf32>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %19 = stablehlo.compare LT, %arg1, %c_6, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %20 = stablehlo.convert %arg1 : tensor<i32>
    %c_7 = stablehlo.constant dense<8> : tensor<i32>
    %21 = stablehlo.add %20, %c_7 : tensor<i32>
    %22 = stablehlo.select %19, %21, %arg1 : tensor<i1>, tensor<i32>
    %c_8 = stablehlo.constant dense<3> : tensor<i32>
    %23 = stablehlo.dynamic_update_slice %arg3, %18, %22, %c_8 : (tensor<8x4xf32>, tensor<2x2xf32>, tensor<i32>, tensor<i32>) -> tensor<8x4xf32>
    return %0, %13, %23 : tensor<i32>, tensor<8x4xf32>, tensor<8x4xf32>
  }
}
