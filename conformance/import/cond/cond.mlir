module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<i1>, %arg1: tensor<5xf32>) -> (tensor<5xf32> {jax.result_info = "result[0]"}, tensor<5xf32> {jax.result_info = "result[1]"}, tensor<5xf32> {jax.result_info = "result[2][0]"}, tensor<i32> {jax.result_info = "result[2][1]"}) {
    %0 = stablehlo.convert %arg0 : (tensor<i1>) -> tensor<i32>
    %1 = "stablehlo.case"(%0) ({
      %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %9 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<5xf32>
      %10 = stablehlo.subtract %arg1, %9 : tensor<5xf32>
      stablehlo.return %10 : tensor<5xf32>
    }, {
      %cst_1 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %9 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<5xf32>
      %10 = stablehlo.multiply %arg1, %9 : tensor<5xf32>
      stablehlo.return %10 : tensor<5xf32>
    }) : (tensor<i32>) -> tensor<5xf32>
    %2 = stablehlo.not %arg0 : tensor<i1>
    %3 = stablehlo.convert %2 : (tensor<i1>) -> tensor<i32>
    %4 = "stablehlo.case"(%3) ({
      %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %9 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<5xf32>
      %10 = stablehlo.subtract %arg1, %9 : tensor<5xf32>
      stablehlo.return %10 : tensor<5xf32>
    }, {
      %cst_1 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %9 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<5xf32>
      %10 = stablehlo.multiply %arg1, %9 : tensor<5xf32>
      stablehlo.return %10 : tensor<5xf32>
    }) : (tensor<i32>) -> tensor<5xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.reduce(%arg1 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<5xf32>, tensor<f32>) -> tensor<f32>
    %cst_0 = stablehlo.constant dense<1.000000e+02> : tensor<f32>
    %6 = stablehlo.compare GT, %5, %cst_0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %7 = stablehlo.convert %6 : (tensor<i1>) -> tensor<i32>
    %8:2 = "stablehlo.case"(%7) ({
      %9 = stablehlo.negate %arg1 : tensor<5xf32>
      %c = stablehlo.constant dense<2> : tensor<i32>
      stablehlo.return %9, %c : tensor<5xf32>, tensor<i32>
    }, {
      %c = stablehlo.constant dense<1> : tensor<i32>
      stablehlo.return %arg1, %c : tensor<5xf32>, tensor<i32>
    }) : (tensor<i32>) -> (tensor<5xf32>, tensor<i32>)
    return %1, %4, %8#0, %8#1 : tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<i32>
  }
}
