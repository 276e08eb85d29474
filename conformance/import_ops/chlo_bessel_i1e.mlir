// chlo.bessel_i1e on f16, bf16, f32 and f64: 0, signs, the series' seam at 8, large, inf, NaN.
// Expected values from jax 0.10.2 on CPU (conformance/import_ops/gen_chlo_special.py):
//   bessel_i1e on f32, tolerance 2e-06: lax.bessel_i1e(x)
//   bessel_i1e on f64, tolerance 1e-14: lax.bessel_i1e(x)
//   bessel_i1e on f16, tolerance 0.001: lax.bessel_i1e(x)
//   bessel_i1e on bf16, tolerance 0.008: lax.bessel_i1e(x)
module @m {
  func.func public @main() -> tensor<12xbf16> {
    %a1 = stablehlo.constant dense<[0xFF800000, -10000.0, -8.5, -8.0, -1.0, -0.0010000000474974513, -0.0, 0.0, 1.0000000031710769e-30, 0.5, 3.0, 7.999000072479248, 8.0, 8.00100040435791, 20.0, 10000.0, 3.0000000054977558e+38, 0x7F800000, 0x7FC00000]> : tensor<19xf32>
    %r2 = chlo.bessel_i1e %a1 : tensor<19xf32> -> tensor<19xf32>
    check.expect_almost_eq_const %r2, dense<[-0.0, -0.003989272750914097, -0.130549356341362, -0.13414262235164642, -0.207910418510437, -0.0004995003691874444, -0.0, 0.0, 5.000000015855384e-31, 0.15642079710960388, 0.1968267261981964, 0.13415008783340454, 0.13414262235164642, 0.13413502275943756, 0.08750621974468231, 0.003989272750914097, 2.3032942707354223e-20, 0.0, 0x7FC00000]> : tensor<19xf32> {tolerance = 2e-06}
    %a3 = stablehlo.constant dense<[0xFFF0000000000000, -10000.0, -8.5, -8.0, -1.0, -0.001, -0.0, 0.0, 1e-30, 0.5, 3.0, 7.999, 8.0, 8.001, 20.0, 10000.0, 1e+300, 0x7FF0000000000000, 0x7FF8000000000000]> : tensor<19xf64>
    %r4 = chlo.bessel_i1e %a3 : tensor<19xf64> -> tensor<19xf64>
    check.expect_almost_eq_const %r4, dense<[-0.0, -0.003989273195983662, -0.13054935509459584, -0.13414249329269812, -0.2079104153497085, -0.0004995003123542215, -0.0, 0.0, 5.000000000000001e-31, 0.15642080318487173, 0.19682671329730084, 0.13414997242586207, 0.13414249329269812, 0.13413501537956068, 0.08750622218328867, 0.003989273195983662, 3.989422804014327e-151, 0.0, 0x7FF8000000000000]> : tensor<19xf64> {tolerance = 1e-14}
    %a5 = stablehlo.constant dense<[0xFC00, -30.0, -8.0, -1.0, -0.0, 0.0, 0.25, 2.0, 9.0, 1000.0, 0x7C00, 0x7E00]> : tensor<12xf16>
    %r6 = chlo.bessel_i1e %a5 : tensor<12xf16> -> tensor<12xf16>
    check.expect_almost_eq_const %r6, dense<[-0.0, -0.0718994140625, -0.1341552734375, -0.2078857421875, -0.0, 0.0, 0.09808349609375, 0.2152099609375, 0.127197265625, 0.01261138916015625, 0.0, 0x7E00]> : tensor<12xf16> {tolerance = 0.001}
    %a7 = stablehlo.constant dense<[0xFF80, -30.0, -8.0, -1.0, -0.0, 0.0, 0.25, 2.0, 9.0, 1000.0, 0x7F80, 0x7FC0]> : tensor<12xbf16>
    %r8 = chlo.bessel_i1e %a7 : tensor<12xbf16> -> tensor<12xbf16>
    check.expect_almost_eq_const %r8, dense<[-0.0, -0.07177734375, -0.1337890625, -0.2080078125, -0.0, 0.0, 0.09814453125, 0.21484375, 0.126953125, 0.01263427734375, 0.0, 0x7FC0]> : tensor<12xbf16> {tolerance = 0.008}
    return %r8 : tensor<12xbf16>
  }
}
