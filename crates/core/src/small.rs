//! XLA's small element types as element types of xlet: the eleven f8/f6/f4
//! float formats and the narrow integers s4, u4, s2, u2 (spec/small_types.md).
//!
//! Their bit-level rules live in `xlet-small-float`; this module names them
//! (`SmallType`), says how each is computed with (its *compute type*: f32 for
//! the floats, s8 or u8 for the integers) and converts whole buffers between
//! the stored bit patterns and other types. Arrays of these types hold one
//! bit pattern per byte, in the low bits (`value::Array::Small`).

use xlet_small_float as sf;

macro_rules! small_types {
    ($( $v:ident = $name:literal, $class:ident, $bits:literal; )*) => {
        /// One of XLA's element types narrower than a byte or than f16.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[allow(clippy::upper_case_acronyms)]
        pub enum SmallType { $($v),* }

        impl SmallType {
            pub const ALL: [SmallType; 15] = [$(SmallType::$v),*];

            /// The HLO name (lower case).
            pub const fn name(self) -> &'static str {
                match self { $(SmallType::$v => $name),* }
            }

            /// The width of one value in bits (its storage is a byte).
            pub const fn bits(self) -> u32 {
                match self { $(SmallType::$v => $bits),* }
            }

            const fn class(self) -> Class {
                match self { $(SmallType::$v => Class::$class),* }
            }
        }
    };
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum Class {
    Float,
    Sint,
    Uint,
}

small_types! {
    F8E4M3FN = "f8e4m3fn", Float, 8;
    F8E5M2 = "f8e5m2", Float, 8;
    F8E4M3FNUZ = "f8e4m3fnuz", Float, 8;
    F8E5M2FNUZ = "f8e5m2fnuz", Float, 8;
    F8E4M3B11FNUZ = "f8e4m3b11fnuz", Float, 8;
    F8E4M3 = "f8e4m3", Float, 8;
    F8E3M4 = "f8e3m4", Float, 8;
    F8E8M0FNU = "f8e8m0fnu", Float, 8;
    F6E2M3FN = "f6e2m3fn", Float, 6;
    F6E3M2FN = "f6e3m2fn", Float, 6;
    F4E2M1FN = "f4e2m1fn", Float, 4;
    S4 = "s4", Sint, 4;
    U4 = "u4", Uint, 4;
    S2 = "s2", Sint, 2;
    U2 = "u2", Uint, 2;
}

/// Runs `$body` with `$F` the `xlet-small-float` type of float format `$t`;
/// `$other` for the integer types.
macro_rules! with_float_format {
    ($t:expr, $F:ident => $body:expr, ints => $other:expr) => {
        match $t {
            SmallType::F8E4M3FN => {
                type $F = sf::F8E4M3FN;
                $body
            }
            SmallType::F8E5M2 => {
                type $F = sf::F8E5M2;
                $body
            }
            SmallType::F8E4M3FNUZ => {
                type $F = sf::F8E4M3FNUZ;
                $body
            }
            SmallType::F8E5M2FNUZ => {
                type $F = sf::F8E5M2FNUZ;
                $body
            }
            SmallType::F8E4M3B11FNUZ => {
                type $F = sf::F8E4M3B11FNUZ;
                $body
            }
            SmallType::F8E4M3 => {
                type $F = sf::F8E4M3;
                $body
            }
            SmallType::F8E3M4 => {
                type $F = sf::F8E3M4;
                $body
            }
            SmallType::F8E8M0FNU => {
                type $F = sf::F8E8M0FNU;
                $body
            }
            SmallType::F6E2M3FN => {
                type $F = sf::F6E2M3FN;
                $body
            }
            SmallType::F6E3M2FN => {
                type $F = sf::F6E3M2FN;
                $body
            }
            SmallType::F4E2M1FN => {
                type $F = sf::F4E2M1FN;
                $body
            }
            SmallType::S4 | SmallType::U4 | SmallType::S2 | SmallType::U2 => $other,
        }
    };
}

/// Runs `$body` with `$I` the `xlet-small-float` type of integer type `$t`;
/// `$other` for the floats.
macro_rules! with_int_format {
    ($t:expr, $I:ident => $body:expr, floats => $other:expr) => {
        match $t {
            SmallType::S4 => {
                type $I = sf::S4;
                $body
            }
            SmallType::U4 => {
                type $I = sf::U4;
                $body
            }
            SmallType::S2 => {
                type $I = sf::S2;
                $body
            }
            SmallType::U2 => {
                type $I = sf::U2;
                $body
            }
            _ => $other,
        }
    };
}

impl SmallType {
    /// The type named `s` in any case (`f8e4m3fn`, StableHLO's `f8E4M3FN`).
    pub fn parse(s: &str) -> Option<SmallType> {
        SmallType::ALL
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(s))
    }
    pub fn is_float(self) -> bool {
        self.class() == Class::Float
    }
    pub fn is_signed_int(self) -> bool {
        self.class() == Class::Sint
    }
    pub fn is_unsigned_int(self) -> bool {
        self.class() == Class::Uint
    }
    pub fn is_int(self) -> bool {
        !self.is_float()
    }
    /// The bit mask of a value's pattern.
    pub fn mask(self) -> u8 {
        ((1u16 << self.bits()) - 1) as u8
    }

    /// The value of bit pattern `b` as f64 (exact). A NaN keeps its sign,
    /// except the fnuz formats' one NaN (the pattern of -0), which XLA
    /// converts to a positive NaN.
    #[inline]
    pub fn to_f64(self, b: u8) -> f64 {
        with_float_format!(self, F => {
            let v = F::from_bits(b).to_f64();
            if v.is_nan() && self.is_fnuz() { f64::NAN } else { v }
        }, ints => self.to_i64(b) as f64)
    }
    /// The formats whose one NaN has the pattern of negative zero.
    pub fn is_fnuz(self) -> bool {
        matches!(
            self,
            SmallType::F8E4M3FNUZ | SmallType::F8E5M2FNUZ | SmallType::F8E4M3B11FNUZ
        )
    }
    /// The integer value of pattern `b` (floats: truncated toward zero, NaN 0).
    #[inline]
    pub fn to_i64(self, b: u8) -> i64 {
        with_int_format!(self, I => I::from_bits(b).get(), floats => self.to_f64(b) as i64)
    }
    /// `x` in this type: floats round to nearest even once, with the format's
    /// overflow and NaN rules; integers truncate and saturate (NaN is 0), as
    /// XLA's ConvertElementType from floating point does.
    #[inline]
    pub fn from_f64(self, x: f64) -> u8 {
        with_float_format!(self, F => F::from_f64(x).to_bits(),
            ints => with_int_format!(self, I => I::from_f64(x).to_bits(), floats => 0))
    }
    /// As [`Self::from_f64`], from an f32 (one rounding).
    #[inline]
    pub fn from_f32(self, x: f32) -> u8 {
        with_float_format!(self, F => F::from_f32(x).to_bits(),
            ints => self.from_f64(f64::from(x)))
    }
    /// `v` in this type: integers wrap to the width (XLA's integer
    /// conversion); floats round the value once (through f64, exact for
    /// every integer a small float can tell apart from its neighbours).
    #[inline]
    pub fn from_i64(self, v: i64) -> u8 {
        with_int_format!(self, I => I::from_i64(v).to_bits(), floats => self.from_f64(v as f64))
    }
    /// As [`Self::from_i64`], for u64 values above `i64::MAX`.
    #[inline]
    pub fn from_u64(self, v: u64) -> u8 {
        with_int_format!(self, I => I::from_u64(v).to_bits(), floats => self.from_f64(v as f64))
    }
    /// Whether pattern `b` is a NaN.
    pub fn is_nan(self, b: u8) -> bool {
        with_float_format!(self, F => F::from_bits(b).is_nan(), ints => false)
    }
    /// Whether pattern `b` is an infinity.
    pub fn is_inf(self, b: u8) -> bool {
        with_float_format!(self, F => F::from_bits(b).is_inf(), ints => false)
    }
    /// The largest finite value, as printed (for the literal range error).
    pub fn largest_finite(self) -> f64 {
        with_float_format!(self, F => f64::from(F::MAX), ints => 0.0)
    }
    /// The integer range, for the literal range error.
    pub fn int_bounds(self) -> Option<(i128, i128)> {
        with_int_format!(self, I => Some((I::MIN.get() as i128, I::MAX.get() as i128)), floats => None)
    }
}

/// Elements per parallel task of the buffer conversions below.
const CHUNK: usize = 1 << 15;

/// Applies `f` to `src` into `dst` element by element, in parallel for large buffers.
pub(crate) fn map_into<S: Copy + Sync, D: Send>(
    src: &[S],
    dst: &mut [D],
    f: impl Fn(S) -> D + Sync,
) {
    use rayon::prelude::*;
    if src.len() <= CHUNK {
        dst.iter_mut().zip(src).for_each(|(d, &s)| *d = f(s));
    } else {
        dst.par_chunks_mut(CHUNK)
            .zip(src.par_chunks(CHUNK))
            .for_each(|(d, s)| d.iter_mut().zip(s).for_each(|(d, &s)| *d = f(s)));
    }
}

/// Decodes float patterns to f32 (exact), one table load each.
pub fn decode_f32(t: SmallType, src: &[u8], dst: &mut [f32]) {
    if t.is_fnuz() {
        return map_into(src, dst, |b| t.to_f64(b) as f32);
    }
    with_float_format!(t, F => map_into(src, dst, |b| F::from_bits(b).to_f32()),
        ints => map_into(src, dst, |b| t.to_i64(b) as f32))
}

/// Encodes f32 values as patterns of float type `t`, rounding to nearest even.
pub fn encode_f32(t: SmallType, src: &[f32], dst: &mut [u8]) {
    with_float_format!(t, F => map_into(src, dst, |x| F::from_f32(x).to_bits()),
        ints => map_into(src, dst, |x| t.from_f64(f64::from(x))))
}
