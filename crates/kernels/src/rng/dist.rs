//! RngUniform and RngNormal (spec/ops/rng_uniform.md, rng_normal.md): element
//! `i` is a function of the stream's words alone, so chunks are made in
//! parallel and the values do not depend on the thread count.
//!
//! Words per element: f16, bf16 and f32 take one word (24 random bits); f64
//! takes two (53 bits); integers up to 32 bits take two (a 64-bit draw),
//! 64-bit integers four (a 128-bit draw). Element `i` uses words
//! `i * W .. (i + 1) * W`, i.e. Philox blocks are never split across chunks.

use super::{LANES, Stream, join, par_fill};
use half::{bf16, f16};
use std::mem::MaybeUninit;

/// 2^-24 and 2^-53: the spacing of the unit draws.
const TWO_M24: f64 = 1.0 / 16_777_216.0;
const TWO_M53: f64 = 1.0 / 9_007_199_254_740_992.0;

/// A float element type RngUniform and RngNormal make.
pub trait RngFloat: Copy + Send + Sync + PartialOrd + 'static {
    /// Words per element.
    const WORDS: usize;
    fn wide(self) -> f64;
    /// Rounds to nearest.
    fn narrow(x: f64) -> Self;
    /// The largest value of the type below `self` (`self` finite).
    fn prev(self) -> Self;
    /// A draw in [0, 1) from `Self::WORDS` words, exact in f64.
    #[inline(always)]
    fn unit(w: &[u32]) -> f64 {
        if Self::WORDS == 1 {
            f64::from(w[0] >> 8) * TWO_M24
        } else {
            (join(w[0], w[1]) >> 11) as f64 * TWO_M53
        }
    }
}

/// The float below a finite `x`, from its bits: one step toward -inf.
macro_rules! prev_by_bits {
    ($x:expr, $bits:ty, $to:expr, $from:expr, $sign:expr) => {{
        let b: $bits = $to($x);
        let v = if b & !$sign == 0 {
            $sign | 1 // ±0: the negative value of least magnitude
        } else if b & $sign == 0 {
            b - 1
        } else {
            b + 1
        };
        $from(v)
    }};
}

impl RngFloat for f32 {
    const WORDS: usize = 1;
    fn wide(self) -> f64 {
        f64::from(self)
    }
    fn narrow(x: f64) -> Self {
        x as f32
    }
    fn prev(self) -> Self {
        prev_by_bits!(self, u32, f32::to_bits, f32::from_bits, 0x8000_0000u32)
    }
}
impl RngFloat for f64 {
    const WORDS: usize = 2;
    fn wide(self) -> f64 {
        self
    }
    fn narrow(x: f64) -> Self {
        x
    }
    fn prev(self) -> Self {
        prev_by_bits!(self, u64, f64::to_bits, f64::from_bits, 1u64 << 63)
    }
}
impl RngFloat for f16 {
    const WORDS: usize = 1;
    fn wide(self) -> f64 {
        f16::to_f64(self)
    }
    fn narrow(x: f64) -> Self {
        f16::from_f64(x)
    }
    fn prev(self) -> Self {
        prev_by_bits!(self, u16, f16::to_bits, f16::from_bits, 0x8000u16)
    }
}
impl RngFloat for bf16 {
    const WORDS: usize = 1;
    fn wide(self) -> f64 {
        bf16::to_f64(self)
    }
    fn narrow(x: f64) -> Self {
        bf16::from_f64(x)
    }
    fn prev(self) -> Self {
        prev_by_bits!(self, u16, bf16::to_bits, bf16::from_bits, 0x8000u16)
    }
}

/// An integer element type RngUniform makes.
pub trait RngInt: Copy + Send + Sync + 'static {
    const WORDS: usize;
    fn to_i128(self) -> i128;
    /// `x` is in the type's range.
    fn from_i128(x: i128) -> Self;
}
macro_rules! rng_int {
    ($($t:ty => $w:expr),*) => {$(
        impl RngInt for $t {
            const WORDS: usize = $w;
            fn to_i128(self) -> i128 { self as i128 }
            fn from_i128(x: i128) -> Self { x as $t }
        }
    )*};
}
rng_int!(i8 => 2, i16 => 2, i32 => 2, i64 => 4, u8 => 2, u16 => 2, u32 => 2, u64 => 4);

/// Writes `chunk` (starting at element `start`, a multiple of `CHUNK`'s
/// divisors used here) with `f(words)` per element, `words` being the element's
/// `W` stream words. Philox runs `LANES` blocks at a time.
#[inline(always)]
fn by_blocks<T, const W: usize>(
    s: Stream,
    start: usize,
    chunk: &mut [MaybeUninit<T>],
    f: impl Fn(&[u32]) -> T,
) {
    let per_group = 4 * LANES / W;
    let first_block = (start * W / 4) as u64;
    let mut words = [0u32; 4 * LANES];
    for (g, out) in chunk.chunks_mut(per_group).enumerate() {
        s.blocks(first_block + (g * LANES) as u64, &mut words);
        for (x, w) in out.iter_mut().zip(words.chunks_exact(W)) {
            x.write(f(w));
        }
    }
}

/// Uniform floats in [a, b), for finite a < b (the caller checked). The draw
/// `a + u (b - a)` is made in f64 and rounded toward a into the type, so each
/// representable x in [a, b) comes with the probability that the real draw
/// lands in [x, next(x)); a result that rounds up to b becomes b's predecessor.
pub fn uniform_float<T: RngFloat>(
    s: Stream,
    a: T,
    b: T,
    n: usize,
    what: &dyn std::fmt::Display,
) -> Result<Vec<T>, xlet_core::error::KernelError> {
    let (a64, b64) = (a.wide(), b.wide());
    let d = b64 - a64;
    let top = b.prev();
    let map = move |w: &[u32]| {
        let u = T::unit(w);
        let v = if d.is_finite() {
            a64 + u * d
        } else {
            a64 * (1.0 - u) + b64 * u
        };
        let mut t = T::narrow(v);
        if t.wide() > v {
            t = t.prev();
        }
        if t >= b { top } else { t }
    };
    par_fill(n, what, |start, chunk| match T::WORDS {
        1 => by_blocks::<T, 1>(s, start, chunk, map),
        _ => by_blocks::<T, 2>(s, start, chunk, map),
    })
}

/// Uniform integers in [a, b), for a < b: `a + floor(r * (b - a) / 2^k)` with
/// `r` a k-bit draw (k = 64 for types up to 32 bits, 128 for 64-bit types).
/// Each value's probability is within (b - a) / 2^k of 1 / (b - a) relatively:
/// below 2^-32 (2^-64 for 64-bit types), far beyond what any test can see.
pub fn uniform_int<T: RngInt>(
    s: Stream,
    a: T,
    b: T,
    n: usize,
    what: &dyn std::fmt::Display,
) -> Result<Vec<T>, xlet_core::error::KernelError> {
    let lo = a.to_i128();
    let range = (b.to_i128() - lo) as u128;
    par_fill(n, what, |start, chunk| {
        if T::WORDS == 2 {
            by_blocks::<T, 2>(s, start, chunk, |w| {
                let r = u128::from(join(w[0], w[1]));
                T::from_i128(lo + ((r * range) >> 64) as i128)
            })
        } else {
            by_blocks::<T, 4>(s, start, chunk, |w| {
                let (r_lo, r_hi) = (u128::from(join(w[0], w[1])), u128::from(join(w[2], w[3])));
                // floor(r * range / 2^128) with r = r_hi 2^64 + r_lo: no term overflows.
                let off = ((r_hi * range) + ((r_lo * range) >> 64)) >> 64;
                T::from_i128(lo + off as i128)
            })
        }
    })
}

/// ln(x) for normal f32 x > 0, branch-free (so that it vectorizes): x = m 2^e
/// with m in [sqrt(1/2), sqrt(2)), ln(m) = f - f^2/2 + f^3 P(f) with f = m - 1
/// and Cephes' `logf` polynomial P, e ln 2 added in two parts. Within a few
/// ulp of ln (tests.rs checks 4e-7 relative).
#[inline(always)]
pub fn ln_f32(x: f32) -> f32 {
    const P: [f32; 9] = [
        7.037_683_6e-2,
        -1.151_461e-1,
        1.167_699_9e-1,
        -1.242_014_1e-1,
        1.424_932_3e-1,
        -1.666_805_8e-1,
        2.000_071_5e-1,
        -2.499_999_4e-1,
        3.333_333e-1,
    ];
    let bits = x.to_bits();
    let e = ((bits >> 23) as i32) - 126;
    let m = f32::from_bits((bits & 0x007F_FFFF) | 0x3F00_0000); // [0.5, 1)
    let small = m < std::f32::consts::FRAC_1_SQRT_2;
    let e = (if small { e - 1 } else { e }) as f32;
    let f = if small { m + m - 1.0 } else { m - 1.0 };
    let z = f * f;
    let mut p = P[0];
    for c in &P[1..] {
        p = p * f + c;
    }
    let y = p * f * z - 2.121_944_4e-4 * e - 0.5 * z;
    (f + y) + 0.693_359_4 * e
}

/// (sin, cos) of 2π u for u in [0, 1), branch-free: 4u = q + r with q the
/// nearest integer (a quarter turn) and |r| <= 1/2, so x = r π/2 lies in
/// [-π/4, π/4] where Cephes' `sinf`/`cosf` polynomials hold to about 1 ulp;
/// then a rotation by q quarter turns.
#[inline(always)]
pub fn sin_cos_turns(u: f32) -> (f32, f32) {
    let t = 4.0 * u;
    let q = (t + 0.5).floor();
    let x = (t - q) * std::f32::consts::FRAC_PI_2;
    let z = x * x;
    let s = x + x * z * (-1.666_665_5e-1 + z * (8.332_161e-3 + z * -1.951_529_6e-4));
    let c = 1.0 - 0.5 * z + z * z * (4.166_664_6e-2 + z * (-1.388_731_6e-3 + z * 2.443_315_7e-5));
    let qi = (q as i32) & 3;
    let (sn, cs) = if qi & 1 == 1 { (c, s) } else { (s, c) };
    let sn = if qi & 2 != 0 { -sn } else { sn };
    let cs = if qi == 1 || qi == 2 { -cs } else { cs };
    (sn, cs)
}

/// Box–Muller on one pair of words: u1 in (0, 1], u2 in [0, 1).
#[inline(always)]
fn box_muller_f32(w0: u32, w1: u32) -> (f32, f32) {
    const S: f32 = 1.0 / 16_777_216.0;
    let u1 = ((w0 >> 8) + 1) as f32 * S;
    let u2 = (w1 >> 8) as f32 * S;
    let r = (-2.0 * ln_f32(u1)).sqrt();
    let (sin, cos) = sin_cos_turns(u2);
    (r * cos, r * sin)
}

/// Normal floats with mean mu and standard deviation sigma (finite, sigma >= 0;
/// the caller checked), by the Box–Muller transform: each pair of elements
/// comes from two unit draws. f16, bf16 and f32 compute in f32 (24-bit draws:
/// |z| <= 5.77); f64 in f64 (53-bit draws: |z| <= 8.57).
pub fn normal<T: RngFloat>(
    s: Stream,
    mu: T,
    sigma: T,
    n: usize,
    what: &dyn std::fmt::Display,
) -> Result<Vec<T>, xlet_core::error::KernelError> {
    let (m, sd) = (mu.wide(), sigma.wide());
    if T::WORDS == 1 {
        let (m, sd) = (m as f32, sd as f32);
        par_fill(n, what, |start, chunk| {
            // Pair p of a group is words 2p, 2p + 1: elements 2p, 2p + 1.
            let first = (start / 4) as u64;
            let mut words = [0u32; 4 * LANES];
            let mut z = [0f32; 4 * LANES];
            for (g, out) in chunk.chunks_mut(4 * LANES).enumerate() {
                s.blocks(first + (g * LANES) as u64, &mut words);
                for p in 0..2 * LANES {
                    let (z0, z1) = box_muller_f32(words[2 * p], words[2 * p + 1]);
                    z[2 * p] = m + sd * z0;
                    z[2 * p + 1] = m + sd * z1;
                }
                for (x, &v) in out.iter_mut().zip(&z) {
                    x.write(T::narrow(f64::from(v)));
                }
            }
        })
    } else {
        par_fill(n, what, |start, chunk| {
            let first = (start / 2) as u64;
            for (b, out) in chunk.chunks_mut(2).enumerate() {
                let w = s.block(first + b as u64);
                let u1 = ((join(w[0], w[1]) >> 11) + 1) as f64 * TWO_M53;
                let u2 = (join(w[2], w[3]) >> 11) as f64 * TWO_M53;
                let r = (-2.0 * u1.ln()).sqrt();
                let (sin, cos) = (std::f64::consts::TAU * u2).sin_cos();
                for (x, z) in out.iter_mut().zip([r * cos, r * sin]) {
                    x.write(T::narrow(m + sd * z));
                }
            }
        })
    }
}
