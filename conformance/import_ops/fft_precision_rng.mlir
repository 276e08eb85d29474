// Expected values from jax 0.10.2:
//   z = jnp.array([1.0, 2.0, 0.5, -1.0])
//   c = jnp.array([1 + 2j, -0.5j, 3.0, 0.25 - 1j], dtype=jnp.complex64)
//   def f():
//       ff = jnp.fft.rfft(z)
//       g = jnp.fft.ifft(c)
//       r = lax.reduce_precision(z * 1.2345, exponent_bits=5, mantissa_bits=4)
//       rb = lax.rng_bit_generator(jnp.array([1, 2, 3, 4], dtype=jnp.uint32), (3,), dtype=jnp.uint32,
//                                  algorithm=lax.RandomAlgorithm.RNG_THREE_FRY)
//       return jnp.real(ff), jnp.imag(ff), jnp.real(g), jnp.imag(g), r, rb[1]
module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<3xf32> {jax.result_info = "result[0]"}, tensor<3xf32> {jax.result_info = "result[1]"}, tensor<4xf32> {jax.result_info = "result[2]"}, tensor<4xf32> {jax.result_info = "result[3]"}, tensor<4xf32> {jax.result_info = "result[4]"}, tensor<3xui32> {jax.result_info = "result[5]"}) {
    %cst = stablehlo.constant dense<[1.000000e+00, 2.000000e+00, 5.000000e-01, -1.000000e+00]> : tensor<4xf32>
    %cst_0 = stablehlo.constant dense<[(1.000000e+00,2.000000e+00), (-0.000000e+00,-5.000000e-01), (3.000000e+00,0.000000e+00), (2.500000e-01,-1.000000e+00)]> : tensor<4xcomplex<f32>>
    %c = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xui32>
    %0 = call @fft(%cst) : (tensor<4xf32>) -> tensor<3xcomplex<f32>>
    %1 = call @fft_0(%cst_0) : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
    %cst_1 = stablehlo.constant dense<1.234500e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %3 = stablehlo.multiply %cst, %2 : tensor<4xf32>
    %4 = stablehlo.reduce_precision %3, format = e5m4 : tensor<4xf32>
    %5 = stablehlo.reshape %c : (tensor<4xui32>) -> tensor<2x2xui32>
    %6 = stablehlo.bitcast_convert %5 : (tensor<2x2xui32>) -> tensor<2xui64>
    %output_state, %output = stablehlo.rng_bit_generator %6, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3xui32>)
    %7 = stablehlo.bitcast_convert %output_state : (tensor<2xui64>) -> tensor<2x2xui32>
    %8 = stablehlo.reshape %7 : (tensor<2x2xui32>) -> tensor<4xui32>
    %9 = stablehlo.real %0 : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
    %10 = stablehlo.imag %0 : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
    %11 = stablehlo.real %1 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
    %12 = stablehlo.imag %1 : (tensor<4xcomplex<f32>>) -> tensor<4xf32>
    check.expect_almost_eq_const %9, dense<[2.5, 0.5, 0.5]> : tensor<3xf32>
    check.expect_almost_eq_const %10, dense<[0.0, -3.0, 0.0]> : tensor<3xf32>
    check.expect_almost_eq_const %11, dense<[1.0625, -0.625, 0.9375, -0.375]> : tensor<4xf32>
    check.expect_almost_eq_const %12, dense<[0.125, 0.4375, 0.875, 0.5625]> : tensor<4xf32>
    check.expect_almost_eq_const %4, dense<[1.25, 2.5, 0.625, -1.25]> : tensor<4xf32>
    check.expect_eq_const %output, dense<[1576285164, 2249660814, 740599976]> : tensor<3xui32>
    return %9, %10, %11, %12, %4, %output : tensor<3xf32>, tensor<3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<3xui32>
  }
  func.func private @fft(%arg0: tensor<4xf32>) -> tensor<3xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = RFFT, length = [4] : (tensor<4xf32>) -> tensor<3xcomplex<f32>>
    return %0 : tensor<3xcomplex<f32>>
  }
  func.func private @fft_0(%arg0: tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = IFFT, length = [4] : (tensor<4xcomplex<f32>>) -> tensor<4xcomplex<f32>>
    return %0 : tensor<4xcomplex<f32>>
  }
}
