//! The narrow integers s4, u4, s2, u2: the value is held sign- or
//! zero-extended in a byte, and every operation wraps to the width, as XLA
//! does (spec/numerics.md §2 for the integer rules, spec/small_types.md §4).

macro_rules! small_ints {
    ($(
        $(#[$doc:meta])*
        $ty:ident($store:ty) = $name:literal, bits $bits:literal, signed $signed:literal;
    )*) => {$(
        $(#[$doc])*
        #[repr(transparent)]
        #[derive(Copy, Clone, Default, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
        pub struct $ty(pub $store);

        impl $ty {
            /// The HLO name.
            pub const NAME: &'static str = $name;
            pub const BITS: u32 = $bits;
            const MASK: u8 = (1 << $bits) - 1;
            pub const MIN: Self = if $signed { Self::wrap(1 << ($bits - 1)) } else { Self(0) };
            pub const MAX: Self = Self::wrap((1 << ($bits - 1 + !$signed as u32)) - 1);

            /// `v` wrapped to the width (its low bits, sign- or zero-extended):
            /// XLA's integer-to-integer conversion.
            #[inline(always)]
            pub const fn wrap(v: i64) -> Self {
                let low = (v as u8) & Self::MASK;
                if $signed {
                    Self((((low << (8 - $bits)) as i8) >> (8 - $bits)) as $store)
                } else {
                    Self(low as $store)
                }
            }

            /// The value whose bit pattern is the low bits of `bits`.
            #[inline(always)]
            pub const fn from_bits(bits: u8) -> Self {
                Self::wrap(bits as i64)
            }

            /// The bit pattern, in the low bits.
            #[inline(always)]
            pub const fn to_bits(self) -> u8 {
                (self.0 as u8) & Self::MASK
            }

            #[inline(always)]
            pub const fn get(self) -> i64 {
                self.0 as i64
            }

            /// Wraps (XLA's convert from any integer type).
            #[inline(always)]
            pub const fn from_i64(v: i64) -> Self {
                Self::wrap(v)
            }

            /// Wraps (the low bits are those of `v`).
            #[inline(always)]
            pub const fn from_u64(v: u64) -> Self {
                Self::wrap(v as i64)
            }

            /// Truncates toward zero and saturates to `MIN..=MAX`; NaN gives 0
            /// (XLA's convert from floating point; numpy's cast wraps instead).
            #[inline(always)]
            pub fn from_f32(x: f32) -> Self {
                Self::from_f64(f64::from(x))
            }

            /// As [`Self::from_f32`].
            #[inline(always)]
            pub fn from_f64(x: f64) -> Self {
                // `as` truncates toward zero, saturates and maps NaN to 0.
                Self((x as i64).clamp(Self::MIN.get(), Self::MAX.get()) as $store)
            }

            /// Exact.
            #[inline(always)]
            pub fn to_f32(self) -> f32 {
                f32::from(self.0)
            }

            /// Exact.
            #[inline(always)]
            pub fn to_f64(self) -> f64 {
                f64::from(self.0)
            }

            #[inline(always)]
            pub const fn wrapping_add(self, o: Self) -> Self {
                Self::wrap(self.get() + o.get())
            }

            #[inline(always)]
            pub const fn wrapping_sub(self, o: Self) -> Self {
                Self::wrap(self.get() - o.get())
            }

            #[inline(always)]
            pub const fn wrapping_mul(self, o: Self) -> Self {
                Self::wrap(self.get() * o.get())
            }

            #[inline(always)]
            pub const fn wrapping_neg(self) -> Self {
                Self::wrap(-self.get())
            }

            /// XLA's `Div`: truncating; `x / 0` is -1 (all ones), `MIN / -1`
            /// is `MIN`.
            #[inline(always)]
            pub const fn xla_div(self, o: Self) -> Self {
                if o.get() == 0 { Self::wrap(-1) } else { Self::wrap(self.get() / o.get()) }
            }

            /// XLA's `Rem`: the dividend's sign; `x % 0` is `x`, `MIN % -1`
            /// is 0.
            #[inline(always)]
            pub const fn xla_rem(self, o: Self) -> Self {
                if o.get() == 0 { self } else { Self::wrap(self.get() % o.get()) }
            }

            /// The shift amount as an unsigned number of the width.
            #[inline(always)]
            const fn amount(n: Self) -> u32 {
                n.to_bits() as u32
            }

            /// XLA's `ShiftLeft`: an amount at or past the width gives 0.
            #[inline(always)]
            pub const fn shl(self, n: Self) -> Self {
                let n = Self::amount(n);
                if n >= $bits { Self(0) } else { Self::wrap(self.get() << n) }
            }

            /// XLA's `ShiftRightLogical`: an amount at or past the width gives 0.
            #[inline(always)]
            pub const fn shr_logical(self, n: Self) -> Self {
                let n = Self::amount(n);
                if n >= $bits { Self(0) } else { Self::wrap((self.to_bits() >> n) as i64) }
            }

            /// XLA's `ShiftRightArithmetic`: the pattern read as signed (also
            /// for u4/u2); an amount at or past the width gives the sign fill.
            #[inline(always)]
            pub const fn shr_arithmetic(self, n: Self) -> Self {
                let n = Self::amount(n);
                let n = if n >= $bits { $bits - 1 } else { n };
                let signed = ((self.to_bits() << (8 - $bits)) as i8) >> (8 - $bits);
                Self::wrap((signed >> n) as i64)
            }
        }
    )*};
}

small_ints! {
    /// Signed 4-bit integer, -8..=7.
    S4(i8) = "s4", bits 4, signed true;
    /// Unsigned 4-bit integer, 0..=15.
    U4(u8) = "u4", bits 4, signed false;
    /// Signed 2-bit integer, -2..=1.
    S2(i8) = "s2", bits 2, signed true;
    /// Unsigned 2-bit integer, 0..=3.
    U2(u8) = "u2", bits 2, signed false;
}
