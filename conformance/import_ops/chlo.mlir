// Expected values from jax 0.10.2:
//   x = jnp.array([-0.9, -1e-5, 0.0, 3e-4, 0.5, 0.999], dtype=jnp.float32)
//   y = jnp.array([-30.0, -1e-6, 0.0, 2e-3, 1.5, 20.0], dtype=jnp.float32)
//   w = jnp.array([1.0, 1.0001, 1.5, 10.0, 1e5, 1e20], dtype=jnp.float32)
//   s = jnp.array([1.0, -jnp.inf, jnp.inf, 2.0], dtype=jnp.float32)
//   def f():
//       return (jnp.sinh(y), jnp.cosh(y), jnp.arcsin(x), jnp.arccos(x), jnp.arctan(y),
//               jnp.arcsinh(y * 1e18), jnp.arcsinh(y), jnp.arccosh(w), jnp.arctanh(x), jnp.square(y),
//               jnp.isinf(s), jnp.isposinf(s), jnp.isneginf(s))
module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<6xf32> {jax.result_info = "result[0]"}, tensor<6xf32> {jax.result_info = "result[1]"}, tensor<6xf32> {jax.result_info = "result[2]"}, tensor<6xf32> {jax.result_info = "result[3]"}, tensor<6xf32> {jax.result_info = "result[4]"}, tensor<6xf32> {jax.result_info = "result[5]"}, tensor<6xf32> {jax.result_info = "result[6]"}, tensor<6xf32> {jax.result_info = "result[7]"}, tensor<6xf32> {jax.result_info = "result[8]"}, tensor<6xf32> {jax.result_info = "result[9]"}, tensor<4xi1> {jax.result_info = "result[10]"}, tensor<4xi1> {jax.result_info = "result[11]"}, tensor<4xi1> {jax.result_info = "result[12]"}) {
    %cst = stablehlo.constant dense<[-3.000000e+01, -9.99999997E-7, 0.000000e+00, 2.000000e-03, 1.500000e+00, 2.000000e+01]> : tensor<6xf32>
    %cst_0 = stablehlo.constant dense<[-0.899999976, -9.99999974E-6, 0.000000e+00, 3.000000e-04, 5.000000e-01, 9.990000e-01]> : tensor<6xf32>
    %cst_1 = stablehlo.constant dense<[1.000000e+00, 1.000100e+00, 1.500000e+00, 1.000000e+01, 1.000000e+05, 1.000000e+20]> : tensor<6xf32>
    %cst_2 = stablehlo.constant dense<[1.000000e+00, 0xFF800000, 0x7F800000, 2.000000e+00]> : tensor<4xf32>
    %0 = chlo.sinh %cst : tensor<6xf32> -> tensor<6xf32>
    %1 = chlo.cosh %cst : tensor<6xf32> -> tensor<6xf32>
    %2 = chlo.asin %cst_0 : tensor<6xf32> -> tensor<6xf32>
    %3 = chlo.acos %cst_0 : tensor<6xf32> -> tensor<6xf32>
    %4 = chlo.atan %cst : tensor<6xf32> -> tensor<6xf32>
    %cst_3 = stablehlo.constant dense<9.99999984E+17> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %6 = stablehlo.multiply %cst, %5 : tensor<6xf32>
    %7 = chlo.asinh %6 : tensor<6xf32> -> tensor<6xf32>
    %8 = chlo.asinh %cst : tensor<6xf32> -> tensor<6xf32>
    %9 = call @arccosh(%cst_1) : (tensor<6xf32>) -> tensor<6xf32>
    %10 = chlo.atanh %cst_0 : tensor<6xf32> -> tensor<6xf32>
    %11 = chlo.square %cst : tensor<6xf32> -> tensor<6xf32>
    %12 = call @isinf(%cst_2) : (tensor<4xf32>) -> tensor<4xi1>
    %cst_4 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %14 = stablehlo.compare EQ, %cst_2, %13, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %cst_5 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %16 = stablehlo.compare EQ, %cst_2, %15, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    check.expect_almost_eq_const %0, dense<[-5343234490368.0, -1.0000001111620804e-06, 0.0, 0.002000001259148121, 2.129279375076294, 242582480.0]> : tensor<6xf32> {tolerance = 2e-06}
    check.expect_almost_eq_const %1, dense<[5343234490368.0, 1.0, 1.0, 1.0000020265579224, 2.352409601211548, 242582480.0]> : tensor<6xf32> {tolerance = 2e-06}
    check.expect_almost_eq_const %2, dense<[-1.1197694540023804, -9.999999747378752e-06, 0.0, 0.0003000000142492354, 0.5235987901687622, 1.526071548461914]> : tensor<6xf32> {tolerance = 2e-06}
    check.expect_almost_eq_const %3, dense<[2.690565824508667, 1.5708062648773193, 1.5707963705062866, 1.5704963207244873, 1.0471975803375244, 0.044724803417921066]> : tensor<6xf32> {tolerance = 2e-06}
    check.expect_almost_eq_const %4, dense<[-1.537475347518921, -9.999999974752427e-07, 0.0, 0.0019999975338578224, 0.9827938079833984, 1.5208380222320557]> : tensor<6xf32> {tolerance = 2e-06}
    check.expect_almost_eq_const %7, dense<[-45.54087448120117, -28.324169158935547, 0.0, 35.925071716308594, 42.545143127441406, 45.13541030883789]> : tensor<6xf32> {tolerance = 2e-06}
    check.expect_almost_eq_const %8, dense<[-4.0946221351623535, -9.999999974752427e-07, 0.0, 0.0019999986980110407, 1.19476318359375, 3.6895039081573486]> : tensor<6xf32> {tolerance = 2e-06}
    check.expect_almost_eq_const %9, dense<[0.0, 0.014143191277980804, 0.9624236226081848, 2.993222951889038, 12.206072807312012, 46.744850158691406]> : tensor<6xf32> {tolerance = 2e-06}
    check.expect_almost_eq_const %10, dense<[-1.4722193479537964, -9.999999747378752e-06, 0.0, 0.0003000000142492354, 0.5493061542510986, 3.8002076148986816]> : tensor<6xf32> {tolerance = 2e-06}
    check.expect_almost_eq_const %11, dense<[900.0, 9.999999960041972e-13, 0.0, 4.000000444648322e-06, 2.25, 400.0]> : tensor<6xf32> {tolerance = 2e-06}
    check.expect_eq_const %12, dense<[false, true, true, false]> : tensor<4xi1>
    check.expect_eq_const %14, dense<[false, false, true, false]> : tensor<4xi1>
    check.expect_eq_const %16, dense<[false, true, false, false]> : tensor<4xi1>
    return %0, %1, %2, %3, %4, %7, %8, %9, %10, %11, %12, %14, %16 : tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
  }
  func.func private @arccosh(%arg0: tensor<6xf32>) -> tensor<6xf32> {
    %0 = chlo.acosh %arg0 : tensor<6xf32> -> tensor<6xf32>
    return %0 : tensor<6xf32>
  }
  func.func private @isinf(%arg0: tensor<4xf32>) -> tensor<4xi1> {
    %0 = stablehlo.abs %arg0 : tensor<4xf32>
    %cst = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %2 = stablehlo.compare EQ, %0, %1, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    return %2 : tensor<4xi1>
  }
}
