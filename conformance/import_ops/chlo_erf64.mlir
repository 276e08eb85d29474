// chlo.erf_inv and chlo.erfc on f64: erf_inv over its three ranges (w < 6.25, < 16,
// above), ±1, past 1, NaN; erfc over |x| < 1, [1, 8), >= 8, the underflow to 0, the negative side.
// Expected values from jax 0.10.2 on CPU (conformance/import_ops/gen_chlo_special.py):
//   erf_inv on f64, tolerance 1e-14: lax.erf_inv(x)
//   erfc on f64, tolerance 1e-13: lax.erfc(x)
module @m {
  func.func public @main() -> tensor<21xf64> {
    %a1 = stablehlo.constant dense<[-1.0, -0.9999999999999999, -0.99999999, -0.999, -0.5, -1e-300, -0.0, 0.0, 1e-10, 0.3, 0.9, 0.99999, 0.9999999999, 1.0, 1.5, 0xFFF0000000000000, 0x7FF8000000000000]> : tensor<17xf64>
    %r2 = chlo.erf_inv %a1 : tensor<17xf64> -> tensor<17xf64>
    check.expect_almost_eq_const %r2, dense<[0xFFF0000000000000, -5.863584748755167, -4.052237243334861, -2.3267537655135273, -0.47693627620446977, -8.862269254527582e-301, -0.0, 0.0, 8.862269254527581e-11, 0.2724627147267544, 1.163087153676674, 3.123413274341634, 4.57282495853958, 0x7FF0000000000000, 0xFFF8000000000000, 0xFFF8000000000000, 0x7FF8000000000000]> : tensor<17xf64> {tolerance = 1e-14}
    %a3 = stablehlo.constant dense<[0xFFF0000000000000, -30.0, -5.0, -1.0, -0.999, -0.5, -1e-20, 0.0, 0.3, 0.999, 1.0, 2.0, 7.99, 8.0, 10.0, 26.0, 26.6, 27.3, 30.0, 0x7FF0000000000000, 0x7FF8000000000000]> : tensor<21xf64>
    %r4 = chlo.erfc %a3 : tensor<21xf64> -> tensor<21xf64>
    check.expect_almost_eq_const %r4, dense<[2.0, 2.0, 1.9999999999984626, 1.8427007929497148, 1.842285270206497, 1.5204998778130465, 1.0, 1.0, 0.6713732405408726, 0.1577147297935031, 0.15729920705028513, 0.004677734981047267, 1.318675289407672e-29, 1.1224297172982928e-29, 2.0884875837625443e-45, 5.663192408856145e-296, 0.0, 0.0, 0.0, 0.0, 0xFFF8000000000000]> : tensor<21xf64> {tolerance = 1e-13}
    return %r4 : tensor<21xf64>
  }
}
