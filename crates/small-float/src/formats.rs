//! The eleven float formats: one row each, and the macro that makes a type
//! of each row.

use crate::codec::{self, Kind, Spec};

macro_rules! float_formats {
    ($(
        $(#[$doc:meta])*
        $ty:ident = $name:literal, bits $bits:literal, e $e:literal, m $m:literal, bias $bias:literal, $kind:ident;
    )*) => {$(
        $(#[$doc])*
        #[repr(transparent)]
        #[derive(Copy, Clone, Default, PartialEq, Eq, Hash, Debug)]
        pub struct $ty(pub u8);

        impl $ty {
            /// The format's description.
            pub const SPEC: Spec = Spec {
                name: $name,
                bits: $bits,
                exp_bits: $e,
                man_bits: $m,
                bias: $bias,
                kind: Kind::$kind,
            };
            /// The HLO name.
            pub const NAME: &'static str = $name;
            /// Storage width in bits.
            pub const BITS: u32 = $bits;
            pub const EXPONENT_BITS: u32 = $e;
            pub const MANTISSA_BITS: u32 = $m;
            pub const EXPONENT_BIAS: i32 = $bias;
            /// The largest finite value.
            pub const MAX: f32 = f32::from_bits(Self::SPEC.decode(Self::SPEC.max_bits()));
            /// The smallest positive normal value.
            pub const MIN_POSITIVE_NORMAL: f32 =
                f32::from_bits(Self::SPEC.decode(Self::SPEC.min_normal_bits()));
            /// The smallest positive value (equal to `MIN_POSITIVE_NORMAL`
            /// for e8m0, which has no subnormals).
            pub const MIN_POSITIVE_SUBNORMAL: f32 =
                f32::from_bits(Self::SPEC.decode(Self::SPEC.min_subnormal_bits()));
            pub const HAS_INF: bool = Self::SPEC.has_inf();
            pub const HAS_NAN: bool = Self::SPEC.has_nan();
            pub const HAS_NEG_ZERO: bool = Self::SPEC.has_neg_zero();

            /// The value with these bits (bits above the width are dropped).
            #[inline(always)]
            pub const fn from_bits(bits: u8) -> Self {
                Self(bits & (Self::SPEC.mask() as u8))
            }

            #[inline(always)]
            pub const fn to_bits(self) -> u8 {
                self.0
            }

            /// Exact; one table load. NaN gives the f32 quiet NaN with the
            /// pattern's sign (payloads are not carried).
            #[inline(always)]
            pub fn to_f32(self) -> f32 {
                static TABLE: [u32; 256] = $ty::SPEC.table();
                f32::from_bits(TABLE[usize::from(self.0)])
            }

            /// Exact.
            #[inline(always)]
            pub fn to_f64(self) -> f64 {
                f64::from(self.to_f32())
            }

            /// Rounds to nearest even, with the format's overflow, infinity
            /// and NaN rules (spec/small_types.md).
            #[inline(always)]
            pub fn from_f32(x: f32) -> Self {
                Self(codec::encode_f32(Self::SPEC, x))
            }

            /// Rounds once, directly from the f64.
            #[inline(always)]
            pub fn from_f64(x: f64) -> Self {
                Self(codec::encode_f64(Self::SPEC, x))
            }

            /// Through f32, which holds every f16 exactly: one rounding.
            #[inline(always)]
            pub fn from_f16(x: half::f16) -> Self {
                Self::from_f32(x.to_f32())
            }

            /// Through f32, which holds every bf16 exactly: one rounding.
            #[inline(always)]
            pub fn from_bf16(x: half::bf16) -> Self {
                Self::from_f32(x.to_f32())
            }

            /// `dst[i] = from_f32(src[i])` over the common length; a loop
            /// the compiler vectorises.
            pub fn from_f32_slice(src: &[f32], dst: &mut [Self]) {
                for (d, &s) in dst.iter_mut().zip(src) {
                    *d = Self::from_f32(s);
                }
            }

            /// `dst[i] = src[i].to_f32()` over the common length.
            pub fn to_f32_slice(src: &[Self], dst: &mut [f32]) {
                for (d, &s) in dst.iter_mut().zip(src) {
                    *d = s.to_f32();
                }
            }

            #[inline(always)]
            pub const fn is_nan(self) -> bool {
                Self::SPEC.is_nan(self.0 as u32)
            }

            #[inline(always)]
            pub const fn is_inf(self) -> bool {
                Self::SPEC.is_inf(self.0 as u32)
            }
        }
    )*};
}

float_formats! {
    /// OCP FP8 E4M3: no infinity, ±NaN at S.1111.111, max 448.
    F8E4M3FN = "f8e4m3fn", bits 8, e 4, m 3, bias 7, Fn;
    /// OCP FP8 E5M2: IEEE-like, max 57344.
    F8E5M2 = "f8e5m2", bits 8, e 5, m 2, bias 15, Ieee;
    /// E4M3 with bias 8, one NaN (0x80), no -0, no infinity; max 240.
    F8E4M3FNUZ = "f8e4m3fnuz", bits 8, e 4, m 3, bias 8, Fnuz;
    /// E5M2 with bias 16, one NaN (0x80), no -0, no infinity; max 57344.
    F8E5M2FNUZ = "f8e5m2fnuz", bits 8, e 5, m 2, bias 16, Fnuz;
    /// E4M3 with bias 11, one NaN (0x80), no -0, no infinity; max 30.
    F8E4M3B11FNUZ = "f8e4m3b11fnuz", bits 8, e 4, m 3, bias 11, Fnuz;
    /// IEEE-like E4M3, max 240.
    F8E4M3 = "f8e4m3", bits 8, e 4, m 3, bias 7, Ieee;
    /// IEEE-like E3M4, max 15.5.
    F8E3M4 = "f8e3m4", bits 8, e 3, m 4, bias 3, Ieee;
    /// MX scale: unsigned power of two 2^(e-127), no zero, 0xFF NaN.
    F8E8M0FNU = "f8e8m0fnu", bits 8, e 8, m 0, bias 127, E8m0;
    /// MX FP6 E2M3: no infinity, no NaN, max 7.5.
    F6E2M3FN = "f6e2m3fn", bits 6, e 2, m 3, bias 1, Finite;
    /// MX FP6 E3M2: no infinity, no NaN, max 28.
    F6E3M2FN = "f6e3m2fn", bits 6, e 3, m 2, bias 3, Finite;
    /// MX FP4 E2M1: no infinity, no NaN, max 6.
    F4E2M1FN = "f4e2m1fn", bits 4, e 2, m 1, bias 1, Finite;
}
