// Expected values from jax 0.10.2:
//   x = jnp.array([1.0, 1.0, -1.0, -1.0, 0.0, -0.0, 2.5, 3.0, jnp.nan, 1e-45], dtype=jnp.float32)
//   y = jnp.array([2.0, 0.0, 0.0, -2.0, -1.0, 1.0, 2.5, jnp.inf, 1.0, 0.0], dtype=jnp.float32)
//   def f():
//       r = jnp.nextafter(x, y)
//       return (lax.bitcast_convert_type(r, jnp.int32),)
module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<10xi32> {jax.result_info = "result[0]"}) {
    %cst = stablehlo.constant dense<[1.000000e+00, 1.000000e+00, -1.000000e+00, -1.000000e+00, 0.000000e+00, -0.000000e+00, 2.500000e+00, 3.000000e+00, 0x7FC00000, 1.401300e-45]> : tensor<10xf32>
    %cst_0 = stablehlo.constant dense<[2.000000e+00, 0.000000e+00, 0.000000e+00, -2.000000e+00, -1.000000e+00, 1.000000e+00, 2.500000e+00, 0x7F800000, 1.000000e+00, 0.000000e+00]> : tensor<10xf32>
    %0 = chlo.next_after %cst, %cst_0 : tensor<10xf32>, tensor<10xf32> -> tensor<10xf32>
    %1 = stablehlo.bitcast_convert %0 : (tensor<10xf32>) -> tensor<10xi32>
    check.expect_eq_const %1, dense<[1065353217, 1065353215, -1082130433, -1082130431, -2147483647, 1, 1075838976, 1077936129, 2143289344, 0]> : tensor<10xi32>
    return %1 : tensor<10xi32>
  }
}
