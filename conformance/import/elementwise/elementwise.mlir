module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16xf32>, %arg1: tensor<16xf32>) -> (tensor<16xf32> {jax.result_info = "result[0]"}, tensor<16xf32> {jax.result_info = "result[1]"}, tensor<16xf32> {jax.result_info = "result[2]"}, tensor<16xf32> {jax.result_info = "result[3]"}, tensor<16xf32> {jax.result_info = "result[4]"}, tensor<16xf32> {jax.result_info = "result[5]"}, tensor<16xf32> {jax.result_info = "result[6]"}, tensor<16xf32> {jax.result_info = "result[7]"}, tensor<16xf32> {jax.result_info = "result[8]"}, tensor<16xf32> {jax.result_info = "result[9]"}, tensor<16xf32> {jax.result_info = "result[10]"}, tensor<16xf32> {jax.result_info = "result[11]"}, tensor<16xf32> {jax.result_info = "result[12]"}, tensor<16xf32> {jax.result_info = "result[13]"}, tensor<16xf32> {jax.result_info = "result[14]"}, tensor<16xf32> {jax.result_info = "result[15]"}, tensor<16xf32> {jax.result_info = "result[16]"}, tensor<16xf32> {jax.result_info = "result[17]"}, tensor<16xf32> {jax.result_info = "result[18]"}, tensor<16xf32> {jax.result_info = "result[19]"}, tensor<16xf32> {jax.result_info = "result[20]"}, tensor<16xf32> {jax.result_info = "result[21]"}, tensor<16xf32> {jax.result_info = "result[22]"}, tensor<16xf32> {jax.result_info = "result[23]"}) {
    %0 = stablehlo.exponential %arg0 : tensor<16xf32>
    %1 = stablehlo.log %arg1 : tensor<16xf32>
    %2 = stablehlo.tanh %arg0 : tensor<16xf32>
    %3 = stablehlo.negate %arg0 : tensor<16xf32>
    %4 = stablehlo.exponential %3 : tensor<16xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %6 = stablehlo.add %5, %4 : tensor<16xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %8 = stablehlo.divide %7, %6 : tensor<16xf32>
    %9 = stablehlo.negate %arg0 : tensor<16xf32>
    %10 = stablehlo.exponential %9 : tensor<16xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %12 = stablehlo.add %11, %10 : tensor<16xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %14 = stablehlo.divide %13, %12 : tensor<16xf32>
    %15 = stablehlo.sqrt %arg1 : tensor<16xf32>
    %16 = stablehlo.rsqrt %arg1 : tensor<16xf32>
    %17 = stablehlo.sine %arg0 : tensor<16xf32>
    %18 = stablehlo.cosine %arg0 : tensor<16xf32>
    %19 = stablehlo.tan %arg0 : tensor<16xf32>
    %20 = stablehlo.power %arg1, %arg0 : tensor<16xf32>
    %21 = stablehlo.atan2 %arg0, %arg1 : tensor<16xf32>
    %22 = stablehlo.exponential_minus_one %arg0 : tensor<16xf32>
    %23 = stablehlo.log_plus_one %arg1 : tensor<16xf32>
    %24 = stablehlo.cbrt %arg0 : tensor<16xf32>
    %cst_3 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %26 = stablehlo.multiply %arg0, %25 : tensor<16xf32>
    %27 = stablehlo.floor %26 : tensor<16xf32>
    %cst_4 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %29 = stablehlo.multiply %arg0, %28 : tensor<16xf32>
    %30 = stablehlo.ceil %29 : tensor<16xf32>
    %cst_5 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %31 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %32 = stablehlo.multiply %arg0, %31 : tensor<16xf32>
    %33 = call @round(%32) : (tensor<16xf32>) -> tensor<16xf32>
    %34 = stablehlo.sign %arg0 : tensor<16xf32>
    %35 = stablehlo.abs %arg0 : tensor<16xf32>
    %36 = stablehlo.multiply %arg0, %arg0 : tensor<16xf32>
    %37 = stablehlo.multiply %36, %arg0 : tensor<16xf32>
    %cst_6 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %38 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %39 = stablehlo.multiply %38, %37 : tensor<16xf32>
    %40 = stablehlo.add %arg0, %39 : tensor<16xf32>
    %cst_7 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %41 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %42 = stablehlo.multiply %41, %40 : tensor<16xf32>
    %43 = stablehlo.tanh %42 : tensor<16xf32>
    %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %44 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %45 = stablehlo.add %44, %43 : tensor<16xf32>
    %cst_9 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %46 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %47 = stablehlo.multiply %46, %45 : tensor<16xf32>
    %48 = stablehlo.multiply %arg0, %47 : tensor<16xf32>
    %cst_10 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %49 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %50 = stablehlo.multiply %49, %arg0 : tensor<16xf32>
    %51 = stablehlo.negate %arg0 : tensor<16xf32>
    %cst_11 = stablehlo.constant dense<0.707106769> : tensor<f32>
    %52 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<16xf32>
    %53 = stablehlo.multiply %51, %52 : tensor<16xf32>
    %54 = chlo.erfc %53 : tensor<16xf32> -> tensor<16xf32>
    %55 = stablehlo.multiply %50, %54 : tensor<16xf32>
    %56 = stablehlo.divide %arg0, %arg1 : tensor<16xf32>
    %57 = stablehlo.subtract %arg0, %arg1 : tensor<16xf32>
    return %0, %1, %2, %8, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %27, %30, %33, %34, %35, %48, %55, %56, %57 : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>
  }
  func.func private @round(%arg0: tensor<16xf32>) -> tensor<16xf32> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<16xf32>
    return %0 : tensor<16xf32>
  }
}
