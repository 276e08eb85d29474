use super::bits::{Algorithm, generate};
use super::dist::{normal, uniform_float, uniform_int};
use super::*;
use xlet_core::value::Array;

/// Random123's known-answer vectors (tests/kat_vectors in
/// github.com/DEShawResearch/random123), the three `philox4x32 10` lines:
/// counter (4 words), key (2 words), expected (4 words).
#[test]
fn philox4x32_10_known_answers() {
    let kat: [([u32; 4], [u32; 2], [u32; 4]); 3] = [
        (
            [0; 4],
            [0; 2],
            [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8],
        ),
        (
            [u32::MAX; 4],
            [u32::MAX; 2],
            [0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd],
        ),
        (
            [0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344],
            [0xa4093822, 0x299f31d0],
            [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1],
        ),
    ];
    for (ctr, key, want) in kat {
        assert_eq!(philox4x32(ctr, key), want, "ctr {ctr:x?} key {key:x?}");
    }
}

/// The same file's three `threefry2x32 20` lines: counter (2 words), key (2
/// words), expected (2 words).
#[test]
fn threefry2x32_20_known_answers() {
    let kat: [([u32; 2], [u32; 2], [u32; 2]); 3] = [
        ([0; 2], [0; 2], [0x6b200159, 0x99ba4efe]),
        ([u32::MAX; 2], [u32::MAX; 2], [0x1cb996fc, 0xbb002be7]),
        (
            [0x243f6a88, 0x85a308d3],
            [0x13198a2e, 0x03707344],
            [0xc4923a9c, 0x483df7a0],
        ),
    ];
    for (ctr, key, want) in kat {
        assert_eq!(threefry2x32(ctr, key), want, "ctr {ctr:x?} key {key:x?}");
    }
}

fn bits_of(alg: Algorithm, state: &[u64], dims: &[usize], bits: usize) -> (Vec<u64>, Vec<u64>) {
    let (s, v) = generate(alg, state, dims, bits).expect("generates");
    assert_eq!(v.dims(), dims);
    (s, v.to_vec::<u64>())
}

/// XLA's RngBitGenerator on jax 0.10.2's CPU backend, printed by
/// `/work/pyenv/bin/python src/kernels/rng/jax_values.py` (one line per case:
/// algorithm, state, shape, element type -> new state, values row-major).
/// The first case is also StableHLO's own example for rng_bit_generator.
#[test]
fn rng_bit_generator_matches_xla() {
    use Algorithm::{Philox, ThreeFry};
    const M: u64 = u64::MAX;
    #[rustfmt::skip]
    let cases: Vec<(Algorithm, Vec<u64>, Vec<usize>, usize, Vec<u64>, Vec<u64>)> = vec![
        (ThreeFry, vec![1, 2], vec![2, 2], 64, vec![1, 6],
         vec![9236835810183407956, 16087790271692313299, 18212823393184779219, 2658481902456610144]),
        (ThreeFry, vec![1, 2], vec![2, 2], 32, vec![1, 4],
         vec![43444564, 3979645651, 2150618427, 3745730563]),
        (ThreeFry, vec![1, 2], vec![2, 2], 8, vec![1, 4], vec![84, 211, 59, 3]),
        (ThreeFry, vec![42, 7], vec![3, 5], 32, vec![42, 16],
         vec![2642642533, 3437982737, 356970675, 1736384518, 4222757798, 563344011, 4074627445,
              653491321, 3185375099, 2676170827, 1532797651, 4222029849, 1855476965, 944181238,
              1747370287]),
        (ThreeFry, vec![42, 7], vec![], 32, vec![42, 8], vec![2642642533]),
        (ThreeFry, vec![5, M], vec![3], 64, vec![5, 2],
         vec![5699853503226913561, 1356859863320810339, 8853074403113563486]),
        (ThreeFry, vec![0x123456789abcdef0, 3], vec![2, 3, 2], 16, vec![0x123456789abcdef0, 9],
         vec![360, 21, 6914, 58502, 41097, 62266, 34058, 40121, 32028, 33430, 29943, 32954]),
        (Philox, vec![1, 2], vec![2, 2], 32, vec![1, 3],
         vec![2100602697, 2847456232, 2074354647, 800269529]),
        (Philox, vec![1, 2, 3], vec![2, 2], 32, vec![1, 3, 3],
         vec![4031113034, 1366700262, 495645701, 3051723414]),
        (Philox, vec![9, 4, 1], vec![3], 64, vec![9, 6, 1],
         vec![9717014759357959386, 3753254642153717477, 12760757114536561826]),
        (Philox, vec![9, 4], vec![5], 32, vec![9, 6],
         vec![1153328551, 3836448056, 4119271481, 1871187418, 2587155106]),
        (Philox, vec![7, M, 5], vec![6], 32, vec![7, 1, 6],
         vec![592388033, 4281800940, 662029415, 3118642158, 2900326916, 2923260437]),
        (Philox, vec![7, M], vec![6], 32, vec![7, 1],
         vec![3825527345, 2929620239, 4033760259, 866587273, 2720144846, 492154188]),
    ];
    for (alg, state, dims, bits, new_state, values) in cases {
        let got = bits_of(alg, &state, &dims, bits);
        assert_eq!(
            got,
            (new_state, values),
            "{alg:?} {state:?} {dims:?} u{bits}"
        );
    }
}

#[test]
fn uniform_values_depend_on_seed_draw_and_index_only() {
    let s = Stream { seed: 5, draw: 3 };
    let n = 3 * CHUNK + 7; // several chunks and a partial block
    let a: Vec<f32> = uniform_float(s, 0.0f32, 1.0, n, &"f32").expect("fits");
    let b: Vec<f32> = uniform_float(s, 0.0f32, 1.0, 9, &"f32").expect("fits");
    assert_eq!(&a[..9], &b[..]);
    // Element i is word i's top 24 bits over 2^24.
    for (i, &x) in a.iter().enumerate().step_by(9973) {
        let w = s.block((i / 4) as u64)[i % 4];
        assert_eq!(x, (w >> 8) as f32 / 16_777_216.0);
    }
    let c: Vec<f32> =
        uniform_float(Stream { seed: 5, draw: 4 }, 0.0f32, 1.0, 9, &"f32").expect("fits");
    assert_ne!(b, c);
    let d: Vec<f32> =
        uniform_float(Stream { seed: 6, draw: 3 }, 0.0f32, 1.0, 9, &"f32").expect("fits");
    assert_ne!(b, d);
}

#[test]
fn same_values_on_one_thread_and_many() {
    let s = Stream { seed: 11, draw: 0 };
    let n = 5 * CHUNK + 3;
    let many: Vec<f32> = normal(s, 1.0f32, 2.0, n, &"f32").expect("fits");
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("pool");
    let one: Vec<f32> = pool.install(|| normal(s, 1.0f32, 2.0, n, &"f32").expect("fits"));
    assert_eq!(
        many.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
        one.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
    );
}

#[test]
fn uniform_floats_stay_in_the_half_open_interval() {
    let s = Stream { seed: 1, draw: 1 };
    // [1, 2) in f32: 1 + (1 - 2^-24) rounds to 2 to nearest; rounded toward a it is
    // 2's predecessor.
    let v: Vec<f32> = uniform_float(s, 1.0f32, 2.0, 1 << 16, &"f32").expect("fits");
    assert!(v.iter().all(|&x| (1.0..2.0).contains(&x)));
    // A range wider than f32's largest value.
    let v: Vec<f32> = uniform_float(s, -3e38f32, 3e38, 4096, &"f32").expect("fits");
    assert!(v.iter().all(|&x| (-3e38..3e38).contains(&x)));
    let v: Vec<f64> = uniform_float(s, -1.7e308, 1.7e308, 4096, &"f64").expect("fits");
    assert!(v.iter().all(|&x| (-1.7e308..1.7e308).contains(&x)));
    // Two adjacent floats: only the lower one.
    let b = 1.0f32.prev();
    let v: Vec<f32> = uniform_float(s, b, 1.0, 64, &"f32").expect("fits");
    assert!(v.iter().all(|&x| x == b));
    let v: Vec<half::f16> = uniform_float(
        s,
        half::f16::from_f32(0.0),
        half::f16::from_f32(1.0),
        4096,
        &"f16",
    )
    .expect("fits");
    assert!(v.iter().all(|&x| x.to_f32() >= 0.0 && x.to_f32() < 1.0));
}

#[test]
fn prev_steps_toward_minus_infinity() {
    assert_eq!(1.0f32.prev(), 1.0 - f32::EPSILON / 2.0);
    assert_eq!(0.0f32.prev(), -f32::from_bits(1));
    assert_eq!((-1.0f64).prev(), -1.0 - f64::EPSILON);
    assert_eq!(half::f16::from_f32(0.0).prev().to_bits(), 0x8001);
}

use super::dist::RngFloat;

#[test]
fn uniform_ints_cover_the_range_and_extremes() {
    let s = Stream { seed: 2, draw: 9 };
    let v: Vec<i8> = uniform_int(s, -128i8, 127, 1 << 14, &"s8").expect("fits");
    assert!(v.contains(&-128) && v.contains(&126) && !v.contains(&127));
    let v: Vec<u64> = uniform_int(s, 0u64, u64::MAX, 1 << 12, &"u64").expect("fits");
    assert!(v.iter().any(|&x| x > u64::MAX / 2) && v.iter().any(|&x| x < u64::MAX / 2));
    let v: Vec<i64> = uniform_int(s, i64::MIN, i64::MAX, 1 << 12, &"s64").expect("fits");
    assert!(v.iter().any(|&x| x < 0) && v.iter().any(|&x| x > 0));
    let v: Vec<i32> = uniform_int(s, 5i32, 6, 100, &"s32").expect("fits");
    assert!(v.iter().all(|&x| x == 5));
}

// ---- Statistical tests (fixed seeds: deterministic, but each fails if the
// generator or the mapping is wrong) ----

/// Kolmogorov–Smirnov statistic of sorted `xs` against the CDF `cdf`.
fn ks_statistic(xs: &mut [f64], cdf: impl Fn(f64) -> f64) -> f64 {
    xs.sort_by(|a, b| a.total_cmp(b));
    let n = xs.len() as f64;
    xs.iter()
        .enumerate()
        .map(|(i, &x)| {
            let f = cdf(x);
            (f - i as f64 / n).abs().max(((i + 1) as f64 / n - f).abs())
        })
        .fold(0.0, f64::max)
}

/// The KS threshold: for n draws from the true distribution, P(sqrt(n) D > 1.949)
/// = 0.001 (Kolmogorov's limit distribution, c(alpha) = sqrt(-ln(alpha/2)/2) for
/// alpha = 0.001). A correct generator fails one fixed seed with probability
/// 0.1%; a wrong mapping (a 1% shift of the mean, a wrong sigma, a missing
/// half of the interval) gives sqrt(n) D in the tens at n = 10^6.
const KS_CRITICAL: f64 = 1.949;

const DRAWS: usize = 1_000_000;

#[test]
fn ks_uniform_f32() {
    let s = Stream {
        seed: 20261123,
        draw: 0,
    };
    let v: Vec<f32> = uniform_float(s, -2.0f32, 3.0, DRAWS, &"f32").expect("fits");
    let mut xs: Vec<f64> = v.iter().map(|&x| f64::from(x)).collect();
    let d = ks_statistic(&mut xs, |x| ((x + 2.0) / 5.0).clamp(0.0, 1.0));
    let stat = d * (DRAWS as f64).sqrt();
    // Shown with `--nocapture`: the closing notes report the statistics.
    eprintln!("KS sqrt(n) D = {stat:.3} (critical {KS_CRITICAL})");
    assert!(stat < KS_CRITICAL, "sqrt(n) D = {stat}");
}

/// The standard normal CDF.
fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// erfc by Numerical Recipes' Chebyshev fit (`erfcc`), fractional error < 1.2e-7,
/// far below the KS resolution 1/sqrt(10^6) = 1e-3.
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let ans = t
        * (-z * z - 1.26551223
            + t * (1.00002368
                + t * (0.37409196
                    + t * (0.09678418
                        + t * (-0.18628806
                            + t * (0.27886807
                                + t * (-1.13520398
                                    + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))))
            .exp();
    if x >= 0.0 { ans } else { 2.0 - ans }
}

#[test]
fn ks_normal_f32() {
    let s = Stream { seed: 77, draw: 5 };
    let v: Vec<f32> = normal(s, 1.5f32, 2.0, DRAWS, &"f32").expect("fits");
    let mut xs: Vec<f64> = v.iter().map(|&x| f64::from(x)).collect();
    let d = ks_statistic(&mut xs, |x| normal_cdf((x - 1.5) / 2.0));
    let stat = d * (DRAWS as f64).sqrt();
    // Shown with `--nocapture`: the closing notes report the statistics.
    eprintln!("KS sqrt(n) D = {stat:.3} (critical {KS_CRITICAL})");
    assert!(stat < KS_CRITICAL, "sqrt(n) D = {stat}");
}

#[test]
fn ks_normal_f64() {
    let s = Stream { seed: 78, draw: 0 };
    let v: Vec<f64> = normal(s, 0.0f64, 1.0, DRAWS, &"f64").expect("fits");
    let mut xs = v.clone();
    let d = ks_statistic(&mut xs, normal_cdf);
    let stat = d * (DRAWS as f64).sqrt();
    // Shown with `--nocapture`: the closing notes report the statistics.
    eprintln!("KS sqrt(n) D = {stat:.3} (critical {KS_CRITICAL})");
    assert!(stat < KS_CRITICAL, "sqrt(n) D = {stat}");
}

/// Chi-squared goodness of fit of integer counts to the uniform distribution.
fn chi_squared(counts: &[u64], n: usize) -> f64 {
    let e = n as f64 / counts.len() as f64;
    counts.iter().map(|&c| (c as f64 - e).powi(2) / e).sum()
}

/// The chi-squared threshold for k - 1 degrees of freedom at alpha = 0.001, by
/// the Wilson–Hilferty approximation (accurate to a few tenths of a percent for
/// df >= 2): df (1 - 2/(9 df) + z sqrt(2/(9 df)))^3 with z = 3.090 (the normal
/// 0.999 quantile). A 1% bias in one bin of 10^6 / k draws shows as a chi-squared
/// far above it for the small k used here.
fn chi_critical(df: f64) -> f64 {
    let h = 2.0 / (9.0 * df);
    df * (1.0 - h + 3.090 * h.sqrt()).powi(3)
}

#[test]
fn chi_squared_uniform_ints_range_not_dividing_2_32() {
    // 7 and 1000 do not divide 2^32 (modulo reduction of 32 bits would already be
    // biased at 1000 by 2^-22 per value; 3 * 10^9 below shows a real bias).
    for (seed, lo, hi) in [(1u64, -3i32, 4i32), (2, 10, 1010)] {
        let s = Stream { seed, draw: 0 };
        let v: Vec<i32> = uniform_int(s, lo, hi, DRAWS, &"s32").expect("fits");
        let k = (hi - lo) as usize;
        let mut counts = vec![0u64; k];
        for &x in &v {
            assert!((lo..hi).contains(&x));
            counts[(x - lo) as usize] += 1;
        }
        let chi = chi_squared(&counts, DRAWS);
        let crit = chi_critical((k - 1) as f64);
        eprintln!(
            "[{lo}, {hi}): chi^2 = {chi:.1} (critical {crit:.1}, df {})",
            k - 1
        );
        assert!(chi < crit, "[{lo}, {hi}): chi^2 = {chi} >= {crit}");
    }
}

#[test]
fn chi_squared_uniform_u32_range_three_quarters_of_2_32() {
    // [0, 3 * 2^30): `r mod range` of a 32-bit r would put values below 2^30 twice
    // as often as the rest. Bins: 3 equal thirds of the range.
    let s = Stream { seed: 3, draw: 0 };
    let range = 3u32 << 30;
    let v: Vec<u32> = uniform_int(s, 0u32, range, DRAWS, &"u32").expect("fits");
    let mut counts = vec![0u64; 3];
    for &x in &v {
        counts[(x >> 30) as usize] += 1;
    }
    let chi = chi_squared(&counts, DRAWS);
    eprintln!(
        "[0, 3 2^30) thirds: chi^2 = {chi:.2} (critical {:.2}, df 2)",
        chi_critical(2.0)
    );
    assert!(chi < chi_critical(2.0), "chi^2 = {chi}");
}

#[test]
fn uniform_arrays_wrap_as_arrays() {
    let (s, v) = generate(Algorithm::Philox, &[0, 0, 0], &[2, 3], 16).expect("generates");
    assert_eq!(s, vec![0, 2, 0]);
    assert!(matches!(v, Array::U16(_)));
}

#[test]
fn batched_blocks_equal_single_blocks() {
    let s = Stream {
        seed: 0xdead_beef_0123_4567,
        draw: 0x1_0000_0002,
    };
    let mut w = [0u32; 4 * LANES];
    let first = u64::MAX - 3; // crosses the 64-bit block counter's wrap
    s.blocks(first, &mut w);
    for l in 0..LANES {
        assert_eq!(w[4 * l..4 * l + 4], s.block(first.wrapping_add(l as u64)));
    }
}

#[test]
fn fast_ln_and_sin_cos_are_close_to_f64() {
    use super::dist::{ln_f32, sin_cos_turns};
    // Every 24-bit draw value u1 = k 2^-24 the normal generator can feed ln,
    // sampled with a prime stride, plus the ends.
    let mut k = 1u32;
    while k <= 1 << 24 {
        let x = k as f32 / 16_777_216.0;
        let want = f64::from(x).ln();
        let got = f64::from(ln_f32(x));
        assert!(
            (got - want).abs() <= 4e-7 * want.abs().max(1e-30) + 1e-9,
            "ln({x}) = {got}, want {want}"
        );
        k += if k < 1000 { 1 } else { 997 };
    }
    assert_eq!(ln_f32(1.0), 0.0);
    let mut k = 0u32;
    while k < 1 << 24 {
        let u = k as f32 / 16_777_216.0;
        let a = std::f64::consts::TAU * f64::from(u);
        let (s, c) = sin_cos_turns(u);
        assert!((f64::from(s) - a.sin()).abs() < 3e-7, "sin(2 pi {u})");
        assert!((f64::from(c) - a.cos()).abs() < 3e-7, "cos(2 pi {u})");
        k += if k < 1000 { 1 } else { 991 };
    }
}
