// chlo.zeta(x, q) and chlo.polygamma(n, x) on f32 and f64: the series and the
// domain cases (x < 1, x = 1, q <= 0 at and off the poles, non-integer or negative n, NaN).
// Expected values from jax 0.10.2 on CPU (conformance/import_ops/gen_chlo_special.py):
//   zeta on f32, tolerance 1e-05: jax.scipy.special.zeta(x, q)
//   zeta on f64, tolerance 1e-13: jax.scipy.special.zeta(x, q)
//   polygamma on f32, tolerance 1e-05: lax.polygamma(n, x)
//   polygamma on f64, tolerance 1e-12: lax.polygamma(n, x)
//   zeta on f16, tolerance 0.002: jax.scipy.special.zeta(x, q)
//   polygamma on bf16, tolerance 0.01: lax.polygamma(n, x)
module @m {
  func.func public @main() -> tensor<10xbf16> {
    %a1 = stablehlo.constant dense<[2.0, 2.0, 3.0, 1.5, 4.0, 10.0, 1.0, 0.5, 2.0, 3.0, 2.5, 2.0, 30.0, 2.0, 0x7FC00000, 2.0, 0x7F800000]> : tensor<17xf32>
    %a2 = stablehlo.constant dense<[1.0, 0.5, 2.0, 0.0010000000474974513, 100.0, 1.5, 3.0, 2.0, -2.0, -2.0, -1.5, -1.5, 1.0, 1000000.0, 1.0, 0x7FC00000, 2.0]> : tensor<17xf32>
    %r3 = chlo.zeta %a1, %a2 : tensor<17xf32>, tensor<17xf32> -> tensor<17xf32>
    check.expect_almost_eq_const %r3, dense<[1.644934058189392, 4.934802055358887, 0.2020569145679474, 31625.384765625, 3.3836667512332497e-07, 0.017450354993343353, 0x7F800000, 0x7FC00000, 0x7F800000, 0x7FC00000, 0x7FC00000, 9.379246711730957, 1.0, 1.0000004522225936e-06, 0xFFC00000, 0x7FC00000, 0xFFC00000]> : tensor<17xf32> {tolerance = 1e-05}
    %a4 = stablehlo.constant dense<[2.0, 2.0, 3.0, 1.5, 4.0, 10.0, 1.0, 0.5, 2.0, 3.0, 2.5, 2.0, 30.0, 2.0, 0x7FF8000000000000, 2.0, 0x7FF0000000000000]> : tensor<17xf64>
    %a5 = stablehlo.constant dense<[1.0, 0.5, 2.0, 0.001, 100.0, 1.5, 3.0, 2.0, -2.0, -2.0, -1.5, -1.5, 1.0, 1000000.0, 1.0, 0x7FF8000000000000, 2.0]> : tensor<17xf64>
    %r6 = chlo.zeta %a4, %a5 : tensor<17xf64>, tensor<17xf64> -> tensor<17xf64>
    check.expect_almost_eq_const %r6, dense<[1.6449340668482264, 4.93480220054468, 0.20205690315959426, 31625.386966911912, 3.383666650002222e-07, 0.0174503557579013, 0x7FF0000000000000, 0x7FF8000000000000, 0x7FF0000000000000, 0x7FF8000000000000, 0x7FF8000000000000, 9.379246644989122, 1.0000000009313275, 1.000000500000167e-06, 0xFFF8000000000000, 0x7FF8000000000000, 0xFFF8000000000000]> : tensor<17xf64> {tolerance = 1e-13}
    %a7 = stablehlo.constant dense<[0.0, 0.0, 1.0, 1.0, 2.0, 3.0, 1.0, 2.0, 4.0, 1.5, -1.0, 0.0, 1.0, 1.0, 0x7FC00000, 1.0]> : tensor<16xf32>
    %a8 = stablehlo.constant dense<[1.0, -0.5, 1.0, 0.5, 3.0, 0.25, 10000.0, 20.0, 1.5, 2.0, 2.0, -2.0, -2.0, -2.5, 1.0, 0x7FC00000]> : tensor<16xf32>
    %r9 = chlo.polygamma %a7, %a8 : tensor<16xf32>, tensor<16xf32> -> tensor<16xf32>
    check.expect_almost_eq_const %r9, dense<[-0.5772153735160828, 0.03648994490504265, 1.644934058189392, 4.934802055358887, -0.15411382913589478, 1538.783447265625, 0.00010000500333262607, -0.002628123387694359, -3.474252939224243, 0x7FC00000, 0x7FC00000, 0x7FC00000, 0x7F800000, 9.539246559143066, 0x7FC00000, 0x7FC00000]> : tensor<16xf32> {tolerance = 1e-05}
    %a10 = stablehlo.constant dense<[0.0, 0.0, 1.0, 1.0, 2.0, 3.0, 1.0, 2.0, 4.0, 1.5, -1.0, 0.0, 1.0, 1.0, 0x7FF8000000000000, 1.0]> : tensor<16xf64>
    %a11 = stablehlo.constant dense<[1.0, -0.5, 1.0, 0.5, 3.0, 0.25, 10000.0, 20.0, 1.5, 2.0, 2.0, -2.0, -2.0, -2.5, 1.0, 0x7FF8000000000000]> : tensor<16xf64>
    %r12 = chlo.polygamma %a10, %a11 : tensor<16xf64>, tensor<16xf64> -> tensor<16xf64>
    check.expect_almost_eq_const %r12, dense<[-0.5772156649015334, 0.03648997397857731, 1.6449340668482264, 4.93480220054468, -0.1541138063191884, 1538.7821440091898, 0.00010000500016666668, -0.0026281224023146513, -3.4742498266672275, 0x7FF8000000000000, 0x7FF8000000000000, 0x7FF8000000000000, 0x7FF0000000000000, 9.539246644989124, 0x7FF8000000000000, 0x7FF8000000000000]> : tensor<16xf64> {tolerance = 1e-12}
    %a13 = stablehlo.constant dense<[2.0, 2.0, 3.0, 1.5, 4.0, 10.0, 1.0, 0.5]> : tensor<8xf16>
    %a14 = stablehlo.constant dense<[1.0, 0.5, 2.0, 0.0010004043579101562, 100.0, 1.5, 3.0, 2.0]> : tensor<8xf16>
    %r15 = chlo.zeta %a13, %a14 : tensor<8xf16>, tensor<8xf16> -> tensor<8xf16>
    check.expect_almost_eq_const %r15, dense<[1.64453125, 4.93359375, 0.2020263671875, 31600.0, 3.5762786865234375e-07, 0.0174560546875, 0x7C00, 0x7E00]> : tensor<8xf16> {tolerance = 0.002}
    %a16 = stablehlo.constant dense<[0.0, 0.0, 1.0, 1.0, 2.0, 3.0, 1.0, 2.0, 4.0, 1.5]> : tensor<10xbf16>
    %a17 = stablehlo.constant dense<[1.0, -0.5, 1.0, 0.5, 3.0, 0.25, 9984.0, 20.0, 1.5, 2.0]> : tensor<10xbf16>
    %r18 = chlo.polygamma %a16, %a17 : tensor<10xbf16>, tensor<10xbf16> -> tensor<10xbf16>
    check.expect_almost_eq_const %r18, dense<[-0.578125, 0.036376953125, 1.6484375, 4.9375, -0.154296875, 1536.0, 0.00010013580322265625, -0.00262451171875, -3.46875, 0x7FC0]> : tensor<10xbf16> {tolerance = 0.01}
    return %r18 : tensor<10xbf16>
  }
}
