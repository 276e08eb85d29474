//! Sort keys: each element type mapped to an unsigned integer whose numeric
//! order is the order the sort wants, so that a radix sort (or any integer
//! comparison) can sort the elements.
//!
//! Two orders per type:
//! - `natural_key`: the default order of `Sort(x)` (spec/ops/sort.md): numbers
//!   ascending, `-0` and `+0` one key, every NaN (either sign, any payload) one
//!   key after everything else. For a row without NaN this is also exactly the
//!   order of the IEEE `Lt` comparison, which is why `Lt`/`Gt` comparators may
//!   use it on NaN-free rows.
//! - `total_key`: `type=TOTALORDER`, every bit pattern distinct:
//!   -NaN < -inf < ... < -0 < +0 < ... < inf < +NaN (spec/numerics.md §5).
//!   For integers and pred it is the natural order.

use half::{bf16, f16};

/// An unsigned integer read as radix digits (bytes, least significant first).
pub trait RadixKey: Copy + Ord + Send + Sync + std::ops::Not<Output = Self> {
    const BYTES: usize;
    fn byte(self, i: usize) -> usize;
    /// The key as a u64, keeping its order.
    fn wide(self) -> u64;
}

macro_rules! radix_key {
    ($($u:ty),*) => {$(
        impl RadixKey for $u {
            const BYTES: usize = std::mem::size_of::<$u>();
            #[inline(always)]
            fn byte(self, i: usize) -> usize {
                ((self >> (8 * i)) & 0xff) as usize
            }
            #[inline(always)]
            fn wide(self) -> u64 {
                self as u64
            }
        }
    )*};
}
radix_key!(u8, u16, u32, u64);

/// An element type the native sort handles (every element type of xlet).
pub trait SortElem: Copy + Send + Sync + PartialOrd + 'static {
    type Key: RadixKey;
    /// The default order: -0 = +0, NaN last (all NaNs equal).
    fn natural_key(self) -> Self::Key;
    /// TOTALORDER for floats; the natural order for the other types.
    fn total_key(self) -> Self::Key;
    /// Whether the element is a NaN (never, for integers and pred).
    fn is_nan(self) -> bool;
}

/// Float bits to the total order: negative numbers have their bits flipped (a
/// larger magnitude is smaller), non-negative ones get the sign bit set (so they
/// sit above every negative one). Written without branches: with `if`s for the
/// NaN and zero cases the radix passes ran 8x slower (mispredicted or not, the
/// compiler kept them as jumps in the hot loop).
macro_rules! float_elem {
    ($t:ty, $u:ty, $i:ty) => {
        impl SortElem for $t {
            type Key = $u;
            #[inline(always)]
            fn natural_key(self) -> $u {
                let b = self.to_bits();
                let abs = b & !(1 << (<$u>::BITS - 1));
                // -0 becomes +0 (a mask of all zeros when abs == 0).
                let b = b & ((abs != 0) as $u).wrapping_neg();
                let nan = ((abs > <$t>::INFINITY.to_bits()) as $u).wrapping_neg();
                total_bits::<$u, $i>(b) | nan
            }
            #[inline(always)]
            fn total_key(self) -> $u {
                total_bits::<$u, $i>(self.to_bits())
            }
            #[inline(always)]
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
        }
    };
}

/// `!b` for a negative float's bits, `b | sign` otherwise: `b ^ (mask | sign)`
/// where `mask` is the sign bit smeared over the word by an arithmetic shift.
#[inline(always)]
fn total_bits<U, I>(b: U) -> U
where
    U: Copy + AsSigned<I> + std::ops::BitXor<Output = U> + std::ops::BitOr<Output = U>,
    I: Copy,
{
    b ^ (U::smear_sign(b) | U::SIGN)
}

/// Unsigned words that can smear their top bit over every bit.
trait AsSigned<I>: Sized {
    const SIGN: Self;
    fn smear_sign(self) -> Self;
}

macro_rules! as_signed {
    ($($u:ty => $i:ty),*) => {$(
        impl AsSigned<$i> for $u {
            const SIGN: $u = 1 << (<$u>::BITS - 1);
            #[inline(always)]
            fn smear_sign(self) -> $u {
                ((self as $i) >> (<$u>::BITS - 1)) as $u
            }
        }
    )*};
}
as_signed!(u16 => i16, u32 => i32, u64 => i64);

float_elem!(f32, u32, i32);
float_elem!(f64, u64, i64);
float_elem!(f16, u16, i16);
float_elem!(bf16, u16, i16);

/// Signed integers: flipping the sign bit maps two's complement order onto
/// unsigned order (i8::MIN → 0, -1 → 127, 0 → 128).
macro_rules! int_elem {
    ($($t:ty => $u:ty, $flip:expr);*) => {$(
        impl SortElem for $t {
            type Key = $u;
            #[inline(always)]
            fn natural_key(self) -> $u {
                (self as $u) ^ $flip
            }
            #[inline(always)]
            fn total_key(self) -> $u {
                self.natural_key()
            }
            #[inline(always)]
            fn is_nan(self) -> bool {
                false
            }
        }
    )*};
}
int_elem!(i8 => u8, 1 << 7; i16 => u16, 1 << 15; i32 => u32, 1 << 31; i64 => u64, 1 << 63;
    u8 => u8, 0; u16 => u16, 0; u32 => u32, 0; u64 => u64, 0);

impl SortElem for bool {
    type Key = u8;
    #[inline(always)]
    fn natural_key(self) -> u8 {
        self as u8
    }
    #[inline(always)]
    fn total_key(self) -> u8 {
        self as u8
    }
    #[inline(always)]
    fn is_nan(self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The listed values in ascending order must get strictly ascending keys.
    fn strictly_ascending<T: SortElem>(xs: &[T], key: fn(T) -> T::Key) {
        for w in xs.windows(2) {
            assert!(key(w[0]) < key(w[1]));
        }
    }

    #[test]
    fn total_order_of_f32_bit_patterns() {
        let neg_nan = f32::from_bits(0xffc0_0000);
        let neg_nan_big = f32::from_bits(0xffff_ffff);
        let xs = [
            neg_nan_big,
            neg_nan,
            f32::NEG_INFINITY,
            -1.0,
            -f32::MIN_POSITIVE / 2.0,
            -0.0,
            0.0,
            f32::from_bits(1),
            1.0,
            f32::INFINITY,
            f32::NAN,
            f32::from_bits(0x7fff_ffff),
        ];
        strictly_ascending(&xs, f32::total_key);
    }

    #[test]
    fn natural_order_merges_zeros_and_nans() {
        assert_eq!((-0.0f32).natural_key(), 0.0f32.natural_key());
        assert_eq!(
            f32::from_bits(0xffc0_0000).natural_key(),
            f32::NAN.natural_key()
        );
        strictly_ascending(
            &[f64::NEG_INFINITY, -2.0, 0.0, 3.0, f64::INFINITY, f64::NAN],
            f64::natural_key,
        );
        strictly_ascending(
            &[
                f16::NEG_INFINITY,
                f16::from_f32(-1.5),
                f16::ZERO,
                f16::INFINITY,
                f16::NAN,
            ],
            f16::natural_key,
        );
        strictly_ascending(
            &[
                bf16::NEG_INFINITY,
                bf16::from_f32(-1.5),
                bf16::ZERO,
                bf16::MAX,
                bf16::NAN,
            ],
            bf16::natural_key,
        );
    }

    #[test]
    fn integer_keys_keep_numeric_order() {
        strictly_ascending(&[i8::MIN, -1, 0, 1, i8::MAX], i8::natural_key);
        strictly_ascending(&[i64::MIN, -1, 0, i64::MAX], i64::natural_key);
        strictly_ascending(&[0u16, 1, u16::MAX], u16::natural_key);
        strictly_ascending(&[false, true], bool::natural_key);
    }
}
