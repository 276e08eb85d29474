// Expected values from jax 0.10.2:
//   import jax.scipy.special as sp
//   x = jnp.array([-1.0, -0.999, -0.5, -1e-4, 0.0, 0.3, 0.9, 0.99999, 1.0], dtype=jnp.float32)
//   def f():
//       return (sp.erfinv(x),)
module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<9xf32> {jax.result_info = "result[0]"}) {
    %cst = stablehlo.constant dense<[-1.000000e+00, -9.990000e-01, -5.000000e-01, -9.99999974E-5, 0.000000e+00, 3.000000e-01, 0.899999976, 0.999989986, 1.000000e+00]> : tensor<9xf32>
    %0 = chlo.erf_inv %cst : tensor<9xf32> -> tensor<9xf32>
    check.expect_almost_eq_const %0, dense<[-inf, -2.3267576694488525, -0.4769362807273865, -8.862268441589549e-05, 0.0, 0.27246275544166565, 1.163087010383606, 3.1232049465179443, inf]> : tensor<9xf32> {tolerance = 1e-06}
    return %0 : tensor<9xf32>
  }
}
