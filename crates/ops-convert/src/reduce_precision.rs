//! ReducePrecision (spec/ops/reduce_precision.md):
//! `ReducePrecision(operand, exponent_bits, mantissa_bits)`. Each float is
//! rounded to a narrower format and widened back, on its bit pattern as XLA
//! does it: the mantissa is rounded to nearest even by adding a bias and
//! masking, then exponents above the format's range become infinity and those
//! at or below its smallest normal exponent become zero (the reduced format has
//! no subnormals in XLA's implementation). It is an elementwise kernel, so it
//! runs chunked, in parallel and fused with the elementwise ops around it.

use super::bitcast_convert_type::Bits;
use super::registry::{Checked, OpDef, OpId};
use half::{bf16, f16};
use std::sync::Arc;
use xlet_check::call::{Attr, CallCtx};
use xlet_core::diag::Diag;
use xlet_core::types::{ElemType, Type};
use xlet_kernels::fused::{ChunkElem, ElementwiseFn, ElementwiseKernel, unary};

const SPEC: &str = include_str!("../../../spec/ops/reduce_precision.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::ReducePrecision,
    aliases: &[],
    signature: "ReducePrecision(operand, exponent_bits, mantissa_bits)",
    spec: SPEC,
    rule,
}];

/// The layout of a float type: how many of its bits are the stored mantissa.
pub trait FloatBits: Bits + ChunkElem {
    const MANTISSA: u32;
}
impl FloatBits for f16 {
    const MANTISSA: u32 = 10;
}
impl FloatBits for bf16 {
    const MANTISSA: u32 = 7;
}
impl FloatBits for f32 {
    const MANTISSA: u32 = 23;
}
impl FloatBits for f64 {
    const MANTISSA: u32 = 52;
}

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let o = cx.operand(0, "operand")?;
    let t = cx.float_array(
        &o,
        "C1",
        "convert it first, e.g. ReducePrecision(ConvertElementType(x, f32), exponent_bits=5, mantissa_bits=10)".into(),
    )?;
    let e = required_int(cx, 1, "exponent_bits")?;
    let m = required_int(cx, 2, "mantissa_bits")?;
    if e.value < 1 {
        return Err(cx
            .err(
                "C2",
                format!("exponent_bits must be at least 1, found {}", e.value),
                e.span.clone(),
            )
            .with_label("must be >= 1")
            .with_note("with no exponent bit, zero and infinity could not be told apart"));
    }
    if m.value < 0 {
        return Err(cx
            .err(
                "C3",
                format!("mantissa_bits must be at least 0, found {}", m.value),
                m.span.clone(),
            )
            .with_label("must be >= 0"));
    }
    // Counts at or above the type's own make that part a no-op; clamping keeps
    // the shifts in range.
    let (e, m) = (e.value.min(64) as u32, m.value.min(64) as u32);
    let f = pick(t.elem, e, m)
        .ok_or_else(|| cx.err("C1", "the operand must be floats", o.span.clone()))?;
    Ok(Checked {
        ty: Type::Array(t.clone()),
        kernel: Arc::new(ElementwiseKernel {
            f,
            maps: vec![(0..t.rank()).collect()],
            out_dims: t.dims.clone(),
            out_elem: t.elem,
        }),
    })
}

/// A required static integer: a missing one is the op's arity error.
fn required_int(cx: &mut CallCtx, pos: usize, name: &str) -> Result<Attr<i64>, Diag> {
    match cx.int(Some(pos), name)? {
        Some(a) => Ok(a),
        None => Err(match cx.require(Some(pos), name) {
            Err(d) => d,
            Ok(e) => cx.err(
                "arity",
                format!("`{name}` could not be read"),
                e.span.clone(),
            ),
        }),
    }
}

fn pick(elem: ElemType, e: u32, m: u32) -> Option<Arc<dyn ElementwiseFn>> {
    crate::for_class!(elem, T, [float] => kernel::<T>(e, m))
}

fn kernel<T: FloatBits>(e: u32, m: u32) -> Arc<dyn ElementwiseFn> {
    let r = Reducer::new(T::BITS, T::MANTISSA, e, m);
    unary::<T, T, _>(move |x: T| T::from_bits64(r.apply(x.to_bits64())))
}

/// The constants of one reduction, computed once per op call.
#[derive(Clone, Copy, Debug)]
pub struct Reducer {
    /// All bits of the type (the arithmetic is on u64 and wraps at the type's width).
    width_mask: u64,
    sign_mask: u64,
    /// The exponent field's bits; a pattern above this (sign cleared) is a NaN.
    exp_mask: u64,
    /// Mantissa rounding: (bits dropped, the bias below the last kept bit, the kept bits).
    round: Option<(u32, u64, u64)>,
    /// Exponent range: exponent fields above the first overflow, at or below the
    /// second underflow (both already shifted into place).
    range: Option<(u64, u64)>,
}

impl Reducer {
    /// For a type of `bits` bits with `mantissa` stored mantissa bits, reducing to
    /// `e` exponent bits (>= 1) and `m` mantissa bits.
    pub fn new(bits: u32, mantissa: u32, e: u32, m: u32) -> Reducer {
        let width_mask = if bits == 64 {
            u64::MAX
        } else {
            (1u64 << bits) - 1
        };
        let src_exp = bits - 1 - mantissa;
        let exp_mask = ((1u64 << src_exp) - 1) << mantissa;
        let round = (m < mantissa).then(|| {
            let drop = mantissa - m;
            let last_kept = 1u64 << drop;
            (drop, (last_kept >> 1).wrapping_sub(1), !(last_kept - 1))
        });
        let range = (e < src_exp).then(|| {
            let bias = (1u64 << (src_exp - 1)) - 1;
            let reduced_bias = (1u64 << (e - 1)) - 1;
            (
                (bias + reduced_bias) << mantissa,
                (bias - reduced_bias) << mantissa,
            )
        });
        Reducer {
            width_mask,
            sign_mask: 1u64 << (bits - 1),
            exp_mask,
            round,
            range,
        }
    }

    /// The reduced bit pattern of `x`. A NaN is returned as it was, whatever
    /// `mantissa_bits` (the docs: "NaN values are retained"; XLA:CPU keeps a
    /// NaN NaN with no mantissa bit left too).
    #[inline]
    pub fn apply(&self, x: u64) -> u64 {
        let is_nan = x & !self.sign_mask > self.exp_mask;
        if is_nan {
            return x;
        }
        let mut v = x;
        if let Some((drop, base, keep)) = self.round {
            // Ties to even: the bias is 0111... plus the last kept bit.
            let last = (v >> drop) & 1;
            v = (v.wrapping_add(base + last) & keep) & self.width_mask;
        }
        if let Some((max, min)) = self.range {
            let exp = v & self.exp_mask;
            let sign = v & self.sign_mask;
            if exp > max {
                v = sign | self.exp_mask;
            } else if exp <= min {
                v = sign;
            }
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rp32(x: f32, e: u32, m: u32) -> f32 {
        f32::from_bits(Reducer::new(32, 23, e, m).apply(x.to_bits() as u64) as u32)
    }
    fn rp64(x: f64, e: u32, m: u32) -> f64 {
        f64::from_bits(Reducer::new(64, 52, e, m).apply(x.to_bits()))
    }

    /// f32 inputs of every class: each exponent with edge and random mantissas,
    /// ties and near-ties for the 10- and 7-bit mantissas, subnormals, the
    /// overflow edges of f16 and bf16, infinities and NaNs with payloads.
    fn f32_cases() -> Vec<f32> {
        let mut out = vec![];
        let mut seed = 0x1234_5678_9abc_def0u64;
        let mut rnd = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for sign in [0u32, 1 << 31] {
            for exp in 0u32..=255 {
                let base = sign | (exp << 23);
                for mant in [
                    0u32, 1, 0x7F_FFFF, 0x40_0000, 0x1000, 0xFFF, 0x1FFF, 0x3000, 0x8000, 0x7FFF,
                    0x18000, 0x10000,
                ] {
                    out.push(f32::from_bits(base | mant));
                }
                for _ in 0..200 {
                    let mant = (rnd() as u32) & 0x7F_FFFF;
                    out.push(f32::from_bits(base | mant));
                    // Exact ties at both widths, with the last kept bit 0 and 1.
                    out.push(f32::from_bits(base | (mant & !0x1FFF) | 0x1000));
                    out.push(f32::from_bits(base | (mant & !0xFFFF) | 0x8000));
                }
            }
        }
        for x in [
            65504.0f32,
            65519.0,
            65519.99,
            65520.0,
            65535.0,
            6.1035156e-5,
            6.10e-5,
            5.96e-8,
            2.98e-8,
            3.0e-8,
            f32::MAX,
            f32::MIN_POSITIVE,
            3.3895314e38,
            3.3961776e38,
        ] {
            out.push(x);
            out.push(-x);
        }
        out
    }

    #[test]
    fn f32_to_f16_matches_half_except_subnormals() {
        // XLA's ReducePrecision(x, 5, 10) is f32 -> f16 -> f32 (round to nearest
        // even, overflow to inf), except that results in f16's subnormal range
        // (nonzero, below 2^-14) become zero of the operand's sign, and a NaN is
        // returned as it was (the conversion quiets it and truncates its payload).
        for x in f32_cases() {
            let got = rp32(x, 5, 10);
            let via = f16::from_f32(x).to_f32();
            if x.is_nan() {
                assert_eq!(got.to_bits(), x.to_bits(), "NaN {:#x}", x.to_bits());
                continue;
            }
            let want = if via != 0.0 && via.abs() < f32::powi(2.0, -14) {
                0.0f32.copysign(x)
            } else {
                via
            };
            assert_eq!(
                got.to_bits(),
                want.to_bits(),
                "x = {x:e} ({:#x})",
                x.to_bits()
            );
        }
    }

    #[test]
    fn f32_to_bf16_matches_half_bit_for_bit() {
        // bf16 has f32's exponent range, so no exponent step: bit for bit the
        // f32 -> bf16 -> f32 round trip, subnormals included; NaNs stay as they were.
        for x in f32_cases() {
            let got = rp32(x, 8, 7);
            if x.is_nan() {
                assert_eq!(got.to_bits(), x.to_bits());
                continue;
            }
            let want = bf16::from_f32(x).to_f32();
            assert_eq!(
                got.to_bits(),
                want.to_bits(),
                "x = {x:e} ({:#x})",
                x.to_bits()
            );
        }
    }

    #[test]
    fn f64_matches_conversions() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut cases: Vec<f64> = f32_cases().into_iter().map(f64::from).collect();
        for sign in [0u64, 1 << 63] {
            for exp in 0u64..=2047 {
                for _ in 0..40 {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let mant = seed & ((1 << 52) - 1);
                    cases.push(f64::from_bits(sign | (exp << 52) | mant));
                    // Ties at the f32 width (29 bits dropped).
                    cases.push(f64::from_bits(
                        sign | (exp << 52) | (mant & !((1 << 29) - 1)) | (1 << 28),
                    ));
                }
            }
        }
        for x in cases {
            // (11, 52) is f64 itself: a no-op, NaNs included.
            assert_eq!(rp64(x, 11, 52).to_bits(), x.to_bits());
            assert_eq!(rp64(x, 20, 60).to_bits(), x.to_bits());
            let got = rp64(x, 8, 23);
            if x.is_nan() {
                assert_eq!(got.to_bits(), x.to_bits());
                continue;
            }
            // f64 -> f32 (`as` rounds to nearest even) -> f64, with f32's subnormal
            // range flushed to signed zero.
            let via = f64::from(x as f32);
            let want = if via != 0.0 && via.abs() < f64::from(f32::MIN_POSITIVE) {
                0.0f64.copysign(x)
            } else {
                via
            };
            assert_eq!(
                got.to_bits(),
                want.to_bits(),
                "x = {x:e} ({:#x})",
                x.to_bits()
            );
            let via = f16::from_f64(x).to_f64();
            let want = if via != 0.0 && via.abs() < f64::powi(2.0, -14) {
                0.0f64.copysign(x)
            } else {
                via
            };
            assert_eq!(rp64(x, 5, 10).to_bits(), want.to_bits(), "x = {x:e}");
        }
    }

    #[test]
    fn stablehlo_example_and_edges() {
        // The StableHLO spec's example on f64 with (5, 10): +inf, NaN, the smallest
        // f64 denormal, 0, 65519 and 65520 give +inf, NaN, 0, 0, 65504, +inf.
        let nan = f64::from_bits(0x7FFF_FFFF_FFFF_FFFF);
        let xs = [f64::INFINITY, nan, f64::from_bits(1), 0.0, 65519.0, 65520.0];
        let got: Vec<u64> = xs.iter().map(|&x| rp64(x, 5, 10).to_bits()).collect();
        let want = [f64::INFINITY, nan, 0.0, 0.0, 65504.0, f64::INFINITY].map(f64::to_bits);
        assert_eq!(got, want);
        // No mantissa bit left: a NaN is still the same NaN (its sign and payload
        // too), as the docs say and XLA:CPU does; f64, f16 and bf16 alike.
        let neg_nan = -f32::NAN;
        assert_eq!(rp32(neg_nan, 8, 0).to_bits(), neg_nan.to_bits());
        assert_eq!(rp32(f32::NAN, 5, 0).to_bits(), f32::NAN.to_bits());
        assert_eq!(rp32(f32::NAN, 3, 0).to_bits(), f32::NAN.to_bits());
        assert_eq!(rp64(nan, 3, 0).to_bits(), nan.to_bits());
        let h = f16::NAN.to_bits() as u64 | 1;
        assert_eq!(Reducer::new(16, 10, 3, 0).apply(h), h);
        let b = bf16::NAN.to_bits() as u64;
        assert_eq!(Reducer::new(16, 7, 3, 0).apply(b), b);
        // 1.5 with no mantissa bits is a tie between 1 and 2: to even, 2.
        assert_eq!(rp32(1.5, 8, 0), 2.0);
        assert_eq!(rp32(1.25, 8, 1), 1.0);
        assert_eq!(rp32(-0.0, 5, 10).to_bits(), (-0.0f32).to_bits());
        // 2^-14 - 2^-25 is exactly 10 mantissa bits at exponent -15: XLA keeps it
        // unrounded and then flushes it (exponent below f16's), while converting
        // to f16 rounds the tie to the even 2^-14. The one place the two differ
        // other than subnormal results.
        let x = f32::powi(2.0, -14) - f32::powi(2.0, -25);
        assert_eq!(rp32(x, 5, 10), 0.0);
        assert_eq!(f16::from_f32(x).to_f32(), f32::powi(2.0, -14));
    }
}
