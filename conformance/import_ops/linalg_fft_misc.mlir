// Expected values from jax 0.10.2:
//   a = jnp.array([[4.0, 2.0, 0.6], [2.0, 5.0, 1.0], [0.6, 1.0, 3.0]])
//   b = jnp.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
//   z = jnp.array([1.0, 2.0, 0.5, -1.0])
//   def f():
//       l = lax.linalg.cholesky(a)
//       s = lax.linalg.triangular_solve(l, b, left_side=True, lower=True, transpose_a=True)
//       ff = jnp.fft.rfft(z)
//       r = lax.reduce_precision(z * 1.2345, exponent_bits=5, mantissa_bits=4)
//       k, bits = jax.random.split(jax.random.key(0))[0], None
//       rb = lax.rng_bit_generator(jnp.array([1, 2, 3, 4], dtype=jnp.uint32), (3,), dtype=jnp.uint32)
//       return l, s, jnp.real(ff), jnp.imag(ff), r, rb[1]
module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<3x3xf32> {jax.result_info = "result[0]"}, tensor<3x2xf32> {jax.result_info = "result[1]"}, tensor<3xf32> {jax.result_info = "result[2]"}, tensor<3xf32> {jax.result_info = "result[3]"}, tensor<4xf32> {jax.result_info = "result[4]"}, tensor<3xui32> {jax.result_info = "result[5]"}) {
    %cst = stablehlo.constant dense<[[4.000000e+00, 2.000000e+00, 6.000000e-01], [2.000000e+00, 5.000000e+00, 1.000000e+00], [6.000000e-01, 1.000000e+00, 3.000000e+00]]> : tensor<3x3xf32>
    %cst_0 = stablehlo.constant dense<[[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00], [5.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>
    %cst_1 = stablehlo.constant dense<[1.000000e+00, 2.000000e+00, 5.000000e-01, -1.000000e+00]> : tensor<4xf32>
    %c = stablehlo.constant dense<[1, 2, 3, 4]> : tensor<4xui32>
    %0 = stablehlo.transpose %cst, dims = [1, 0] : (tensor<3x3xf32>) -> tensor<3x3xf32>
    %1 = stablehlo.add %cst, %0 : tensor<3x3xf32>
    %cst_2 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<3x3xf32>
    %3 = stablehlo.divide %1, %2 : tensor<3x3xf32>
    %4:2 = stablehlo.custom_call @lapack_spotrf_ffi(%3) {backend_config = "", mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([k, l], []) {i=3, j=3, k=3, l=3}, custom>} : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<i32>)
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<i32>
    %6 = stablehlo.compare EQ, %4#1, %5, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<i1>) -> tensor<1x1xi1>
    %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<3x3xf32>
    %9 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<1x1xi1>) -> tensor<3x3xi1>
    %10 = stablehlo.select %9, %4#0, %8 : tensor<3x3xi1>, tensor<3x3xf32>
    %11 = stablehlo.iota dim = 0 : tensor<3x3xi32>
    %c_5 = stablehlo.constant dense<0> : tensor<i32>
    %12 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i32>) -> tensor<3x3xi32>
    %13 = stablehlo.add %11, %12 : tensor<3x3xi32>
    %14 = stablehlo.iota dim = 1 : tensor<3x3xi32>
    %15 = stablehlo.compare GE, %13, %14, SIGNED : (tensor<3x3xi32>, tensor<3x3xi32>) -> tensor<3x3xi1>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<3x3xf32>
    %17 = stablehlo.select %15, %10, %16 : tensor<3x3xi1>, tensor<3x3xf32>
    %18 = stablehlo.custom_call @lapack_strsm_ffi(%17, %cst_0) {backend_config = "", mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 84 : ui8, uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 1, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j], [k, l])->([m, n]) {i=3, j=3, k=3, l=2, m=3, n=2}, custom>} : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
    %19 = call @fft(%cst_1) : (tensor<4xf32>) -> tensor<3xcomplex<f32>>
    %cst_7 = stablehlo.constant dense<1.234500e+00> : tensor<f32>
    %20 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %21 = stablehlo.multiply %cst_1, %20 : tensor<4xf32>
    %22 = stablehlo.reduce_precision %21, format = e5m4 : tensor<4xf32>
    %23 = stablehlo.reshape %c : (tensor<4xui32>) -> tensor<2x2xui32>
    %24 = stablehlo.bitcast_convert %23 : (tensor<2x2xui32>) -> tensor<2xui64>
    %output_state, %output = stablehlo.rng_bit_generator %24, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3xui32>)
    %25 = stablehlo.bitcast_convert %output_state : (tensor<2xui64>) -> tensor<2x2xui32>
    %26 = stablehlo.reshape %25 : (tensor<2x2xui32>) -> tensor<4xui32>
    %27 = stablehlo.real %19 : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
    %28 = stablehlo.imag %19 : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
    check.expect_almost_eq_const %17, dense<[[2.0, 0.0, 0.0], [1.0, 2.0, 0.0], [0.30000001192092896, 0.3499999940395355, 1.6695806980133057]]> : tensor<3x3xf32>
    check.expect_almost_eq_const %18, dense<[[-0.4371727705001831, -0.22460728883743286], [0.97591632604599, 1.371099591255188], [2.9947638511657715, 3.593716621398926]]> : tensor<3x2xf32>
    check.expect_almost_eq_const %27, dense<[2.5, 0.5, 0.5]> : tensor<3xf32>
    check.expect_almost_eq_const %28, dense<[0.0, -3.0, 0.0]> : tensor<3xf32>
    check.expect_almost_eq_const %22, dense<[1.25, 2.5, 0.625, -1.25]> : tensor<4xf32>
    check.expect_eq_const %output, dense<[512747620, 1298009047, 1267190206]> : tensor<3xui32>
    return %17, %18, %27, %28, %22, %output : tensor<3x3xf32>, tensor<3x2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<4xf32>, tensor<3xui32>
  }
  func.func private @fft(%arg0: tensor<4xf32>) -> tensor<3xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = RFFT, length = [4] : (tensor<4xf32>) -> tensor<3xcomplex<f32>>
    return %0 : tensor<3xcomplex<f32>>
  }
}
