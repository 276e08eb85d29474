//! Branch-free `exp`, `sin` and `cos` of `f32` arguments, computed in `f64`
//! and written as straight-line arithmetic (no calls, no tables, no branches)
//! so that a loop over an array of arguments vectorizes. Complex `Exp` on
//! `c64` uses them (`complex::exp_c64_block`); spec/numerics.md §7.1 gives the
//! bounds and how they were checked.
//!
//! Each function is exact enough in `f64` (relative error below 2^-35 on its
//! domain) that the `f32` results built from it are within 0.51 ulp of the
//! exact values. Every step is a separate IEEE operation (Rust does not contract
//! `a * b + c` into a fused multiply-add), so the results are the same on every
//! CPU whatever its vector width.

/// 1.5 * 2^52: `v + MAGIC` rounds `v` (|v| < 2^51) to the nearest integer (ties
/// to even) and leaves it, in two's complement, in the low bits of the sum's
/// bit pattern; `(v + MAGIC) - MAGIC` is that integer as an `f64`.
const MAGIC: f64 = 6_755_399_441_055_744.0;

/// Largest |y| for which [`sin_cos`] holds to its bound (2^20).
pub const SIN_COS_MAX: f32 = 1_048_576.0;

/// 2/π rounded to `f64`.
const FRAC_2_PI: f64 = std::f64::consts::FRAC_2_PI;
/// π/2 = PIO2_1 + PIO2_2 + PIO2_3 to 122 bits (Cody–Waite): the first two have
/// 32 significant bits, so `q * PIO2_1` and `q * PIO2_2` are exact for |q| < 2^21.
const PIO2_1: f64 = f64::from_bits(0x3FF9_21FB_5440_0000); // 0x1.921fb544p+0
const PIO2_2: f64 = f64::from_bits(0x3DD0_B461_1A60_0000); // 0x1.0b4611a6p-34
const PIO2_3: f64 = f64::from_bits(0x3BA3_198A_2E03_7073); // 0x1.3198a2e037073p-69

/// `(sin y, cos y)` in `f64` for |y| <= [`SIN_COS_MAX`]; relative error below
/// 2^-35 there (and `sin(±0) = ±0`, `cos(±0) = 1` exactly). Outside that range,
/// or for a NaN or infinite `y`, the values are meaningless (but computed
/// without a panic): callers test the domain and take another path there.
///
/// `y = q π/2 + r` with `q` the integer nearest `y 2/π` and |r| <= π/4 (plus a
/// rounding's worth): `y - q PIO2_1` is exact (both are multiples of 2^-31 and
/// the difference is below 1), and the two remaining terms leave `r` within
/// 2^-52 |r| + 2^-96 of `y - q π/2`. Then Taylor polynomials in `r²` (truncation
/// below 2^-36 relative for |r| <= π/4), and a rotation by `q` quarter turns.
#[inline(always)]
pub fn sin_cos(y: f32) -> (f64, f64) {
    const S: [f64; 5] = [
        -1.0 / 6.0,
        1.0 / 120.0,
        -1.0 / 5040.0,
        1.0 / 362_880.0,
        -1.0 / 39_916_800.0,
    ];
    const C: [f64; 6] = [
        -1.0 / 2.0,
        1.0 / 24.0,
        -1.0 / 720.0,
        1.0 / 40_320.0,
        -1.0 / 3_628_800.0,
        1.0 / 479_001_600.0,
    ];
    let y = f64::from(y);
    let t = y * FRAC_2_PI + MAGIC;
    let q = t - MAGIC;
    let quadrant = t.to_bits(); // low two bits: q mod 4
    let r = ((y - q * PIO2_1) - q * PIO2_2) - q * PIO2_3;
    let z = r * r;
    let ps = S[0] + z * (S[1] + z * (S[2] + z * (S[3] + z * S[4])));
    // r (1 + z ps), not r + r z ps: the product keeps the sign of r = -0.
    let s = r * (1.0 + z * ps);
    let pc = C[0] + z * (C[1] + z * (C[2] + z * (C[3] + z * (C[4] + z * C[5]))));
    let c = 1.0 + z * pc;
    // sin(r + q π/2), cos(r + q π/2) for q mod 4 = 0, 1, 2, 3:
    // (s, c), (c, -s), (-s, -c), (-c, s).
    let odd = quadrant & 1 == 1;
    let (sn, cs) = if odd { (c, s) } else { (s, c) };
    let sin_sign = (quadrant & 2) << 62;
    let cos_sign = (quadrant.wrapping_add(1) & 2) << 62;
    (
        f64::from_bits(sn.to_bits() ^ sin_sign),
        f64::from_bits(cs.to_bits() ^ cos_sign),
    )
}

/// log2(e), and ln 2 = LN2_HI + LN2_LO with 40 significant bits in `LN2_HI`
/// (so `n * LN2_HI` is exact for |n| < 2^13).
const LOG2_E: f64 = std::f64::consts::LOG2_E;
const LN2_HI: f64 = f64::from_bits(0x3FE6_2E42_FEFA_2000); // 0x1.62e42fefa2p-1
const LN2_LO: f64 = f64::from_bits(0x3D69_EF35_793C_7673); // 0x1.9ef35793c7673p-41

/// Least and greatest `x` for [`exp`]: `exp(x)` is then a normal `f32` and its
/// product with a number of magnitude at most 1 cannot overflow `f32`.
pub const EXP_MIN: f32 = -87.0;
pub const EXP_MAX: f32 = 88.0;

/// `exp(x)` in `f64` for `EXP_MIN <= x <= EXP_MAX`; relative error below
/// 2^-36. Outside, or for NaN, meaningless but computed
/// without a panic.
///
/// `x = n ln 2 + r` with `n` the integer nearest `x log2(e)`, |r| <= ln 2 / 2
/// (plus a rounding): `x - n LN2_HI` is exact, so `r` is within 2^-52 |r| +
/// 2^-66 of its true value; `e^r` by its Taylor polynomial of degree 10
/// (truncation below 2^-41), and `2^n` put together from its bits.
#[inline(always)]
pub fn exp(x: f32) -> f64 {
    const P: [f64; 10] = [
        1.0,
        1.0 / 2.0,
        1.0 / 6.0,
        1.0 / 24.0,
        1.0 / 120.0,
        1.0 / 720.0,
        1.0 / 5040.0,
        1.0 / 40_320.0,
        1.0 / 362_880.0,
        1.0 / 3_628_800.0,
    ];
    let x = f64::from(x);
    let t = x * LOG2_E + MAGIC;
    let n = t - MAGIC;
    let r = (x - n * LN2_HI) - n * LN2_LO;
    let mut p = P[9];
    for &c in P[..9].iter().rev() {
        p = p * r + c;
    }
    let e_r = 1.0 + r * p;
    // 2^n: n + 1023 in the exponent field. The low 12 bits of t's pattern are
    // n (mod 4096), the bits above shift out.
    let two_n = f64::from_bits(t.to_bits().wrapping_add(1023) << 52);
    e_r * two_n
}

#[cfg(test)]
mod tests;
