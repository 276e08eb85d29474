module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<i32>, %arg1: tensor<5xf32>) -> (tensor<5xf32> {jax.result_info = "result[0]"}, tensor<5xf32> {jax.result_info = "result[1]"}, tensor<5xf32> {jax.result_info = "result[2]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<2> : tensor<i32>
    %0 = stablehlo.clamp %c, %arg0, %c_0 : tensor<i32>
    %1 = "stablehlo.case"(%0) ({
      %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %8 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<5xf32>
      %9 = stablehlo.add %arg1, %8 : tensor<5xf32>
      stablehlo.return %9 : tensor<5xf32>
    }, {
      %cst = stablehlo.constant dense<4.000000e+00> : tensor<f32>
      %8 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<5xf32>
      %9 = stablehlo.multiply %arg1, %8 : tensor<5xf32>
      stablehlo.return %9 : tensor<5xf32>
    }, {
      %8 = stablehlo.negate %arg1 : tensor<5xf32>
      stablehlo.return %8 : tensor<5xf32>
    }) : (tensor<i32>) -> tensor<5xf32>
    %c_1 = stablehlo.constant dense<5> : tensor<i32>
    %2 = stablehlo.add %arg0, %c_1 : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %c_3 = stablehlo.constant dense<2> : tensor<i32>
    %3 = stablehlo.clamp %c_2, %2, %c_3 : tensor<i32>
    %4 = "stablehlo.case"(%3) ({
      %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %8 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<5xf32>
      %9 = stablehlo.add %arg1, %8 : tensor<5xf32>
      stablehlo.return %9 : tensor<5xf32>
    }, {
      %cst = stablehlo.constant dense<4.000000e+00> : tensor<f32>
      %8 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<5xf32>
      %9 = stablehlo.multiply %arg1, %8 : tensor<5xf32>
      stablehlo.return %9 : tensor<5xf32>
    }, {
      %8 = stablehlo.negate %arg1 : tensor<5xf32>
      stablehlo.return %8 : tensor<5xf32>
    }) : (tensor<i32>) -> tensor<5xf32>
    %c_4 = stablehlo.constant dense<5> : tensor<i32>
    %5 = stablehlo.subtract %arg0, %c_4 : tensor<i32>
    %c_5 = stablehlo.constant dense<0> : tensor<i32>
    %c_6 = stablehlo.constant dense<2> : tensor<i32>
    %6 = stablehlo.clamp %c_5, %5, %c_6 : tensor<i32>
    %7 = "stablehlo.case"(%6) ({
      %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %8 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<5xf32>
      %9 = stablehlo.add %arg1, %8 : tensor<5xf32>
      stablehlo.return %9 : tensor<5xf32>
    }, {
      %cst = stablehlo.constant dense<4.000000e+00> : tensor<f32>
      %8 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<5xf32>
      %9 = stablehlo.multiply %arg1, %8 : tensor<5xf32>
      stablehlo.return %9 : tensor<5xf32>
    }, {
      %8 = stablehlo.negate %arg1 : tensor<5xf32>
      stablehlo.return %8 : tensor<5xf32>
    }) : (tensor<i32>) -> tensor<5xf32>
    return %1, %4, %7 : tensor<5xf32>, tensor<5xf32>, tensor<5xf32>
  }
}
