module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<16xcomplex<f32>>, %arg1: tensor<16xcomplex<f32>>) -> (tensor<16xcomplex<f32>> {jax.result_info = "result[0]"}, tensor<16xcomplex<f32>> {jax.result_info = "result[1]"}, tensor<16xcomplex<f32>> {jax.result_info = "result[2]"}, tensor<16xcomplex<f32>> {jax.result_info = "result[3]"}, tensor<16xf32> {jax.result_info = "result[4]"}, tensor<16xcomplex<f32>> {jax.result_info = "result[5]"}, tensor<16xcomplex<f32>> {jax.result_info = "result[6]"}) {
    %0 = call @fft(%arg0) : (tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>>
    %1 = call @fft_0(%arg1) : (tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>>
    %2 = stablehlo.multiply %arg0, %arg1 : tensor<16xcomplex<f32>>
    %3 = stablehlo.exponential %arg0 : tensor<16xcomplex<f32>>
    %4 = stablehlo.abs %arg0 : (tensor<16xcomplex<f32>>) -> tensor<16xf32>
    %5 = stablehlo.real %arg0 : (tensor<16xcomplex<f32>>) -> tensor<16xf32>
    %6 = stablehlo.imag %arg1 : (tensor<16xcomplex<f32>>) -> tensor<16xf32>
    %7 = stablehlo.complex %5, %6 : tensor<16xcomplex<f32>>
    %8 = stablehlo.real %arg0 : (tensor<16xcomplex<f32>>) -> tensor<16xf32>
    %9 = stablehlo.imag %arg0 : (tensor<16xcomplex<f32>>) -> tensor<16xf32>
    %10 = stablehlo.negate %9 : tensor<16xf32>
    %11 = stablehlo.complex %8, %10 : tensor<16xcomplex<f32>>
    return %0, %1, %2, %3, %4, %7, %11 : tensor<16xcomplex<f32>>, tensor<16xcomplex<f32>>, tensor<16xcomplex<f32>>, tensor<16xcomplex<f32>>, tensor<16xf32>, tensor<16xcomplex<f32>>, tensor<16xcomplex<f32>>
  }
  func.func private @fft(%arg0: tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = FFT, length = [16] : (tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>>
    return %0 : tensor<16xcomplex<f32>>
  }
  func.func private @fft_0(%arg0: tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = IFFT, length = [16] : (tensor<16xcomplex<f32>>) -> tensor<16xcomplex<f32>>
    return %0 : tensor<16xcomplex<f32>>
  }
}
