//! The generic codec: one description ([`Spec`]) per format, a `const fn`
//! decoder that builds each format's 256-entry table of f32 bit patterns, and
//! branch-free encoders from f32 and f64 (integer arithmetic on the source
//! bits; the target-subnormal range rounds by one float addition of a power of
//! two, which the hardware rounds to nearest even). The rules are ml_dtypes'
//! (`ConvertImpl` in its float8.h, non-saturating, as numpy's `astype` and
//! XLA's `ConvertElementType` use); spec/small_types.md states them.

/// How a format spends its special encodings (the letters after the
/// `eXmY` in the name).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// IEEE-like (`f8e5m2`, `f8e4m3`, `f8e3m4`): the all-ones exponent is
    /// ±inf (mantissa 0) or NaN (any other mantissa); -0 exists.
    Ieee,
    /// `fn` (`f8e4m3fn`): no infinity; exponent and mantissa all ones is NaN
    /// (both signs); -0 exists.
    Fn,
    /// `fnuz`: no infinity, no -0; the pattern with only the sign bit set
    /// (0x80) is the one NaN.
    Fnuz,
    /// MX `fn` without NaN (`f6e2m3fn`, `f6e3m2fn`, `f4e2m1fn`): every
    /// pattern is a finite number; -0 exists.
    Finite,
    /// `f8e8m0fnu`: unsigned, no zero, no mantissa: pattern `e` is
    /// `2^(e-127)`, 0xFF is NaN.
    E8m0,
}

/// A format: its width, field widths, exponent bias and special encodings.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    /// The HLO name, e.g. `f8e4m3fn`.
    pub name: &'static str,
    /// Storage width in bits (8, 6 or 4), the sign bit included.
    pub bits: u32,
    pub exp_bits: u32,
    pub man_bits: u32,
    pub bias: i32,
    pub kind: Kind,
}

/// The f32 bit pattern that decoding a NaN gives (sign added from the
/// pattern's sign bit), as ml_dtypes does: payloads are not carried.
pub const F32_QNAN: u32 = 0x7fc0_0000;

impl Spec {
    /// All storage bits.
    pub const fn mask(&self) -> u32 {
        (1 << self.bits) - 1
    }

    /// The sign bit (0 for the unsigned e8m0).
    pub const fn sign_bit(&self) -> u32 {
        match self.kind {
            Kind::E8m0 => 0,
            _ => 1 << (self.bits - 1),
        }
    }

    const fn man_mask(&self) -> u32 {
        (1 << self.man_bits) - 1
    }

    const fn exp_ones(&self) -> u32 {
        (1 << self.exp_bits) - 1
    }

    /// The magnitude bits of the largest finite value.
    pub const fn max_bits(&self) -> u32 {
        match self.kind {
            Kind::Ieee => ((self.exp_ones() - 1) << self.man_bits) | self.man_mask(),
            Kind::Fn => (self.exp_ones() << self.man_bits) | (self.man_mask() - 1),
            Kind::Fnuz | Kind::Finite => (self.exp_ones() << self.man_bits) | self.man_mask(),
            Kind::E8m0 => 0xfe,
        }
    }

    /// The bits of the smallest positive normal value.
    pub const fn min_normal_bits(&self) -> u32 {
        match self.kind {
            Kind::E8m0 => 0,
            _ => 1 << self.man_bits,
        }
    }

    /// The bits of the smallest positive value (subnormal where the format
    /// has subnormals; e8m0 has none, so it is the smallest normal).
    pub const fn min_subnormal_bits(&self) -> u32 {
        match self.kind {
            Kind::E8m0 => 0,
            _ => 1,
        }
    }

    /// +inf's bits (formats with an infinity only).
    const fn inf_bits(&self) -> u32 {
        self.exp_ones() << self.man_bits
    }

    /// The positive NaN that conversions produce: the quiet NaN for IEEE
    /// formats (mantissa's top bit), all ones for `fn`, 0x80 for `fnuz`,
    /// 0xFF for e8m0. `Finite` formats have none (conversion gives ∓0).
    pub const fn nan_bits(&self) -> u32 {
        match self.kind {
            Kind::Ieee => self.inf_bits() | (1 << (self.man_bits - 1)),
            Kind::Fn => (self.exp_ones() << self.man_bits) | self.man_mask(),
            Kind::Fnuz => 0x80,
            Kind::E8m0 => 0xff,
            Kind::Finite => 0,
        }
    }

    pub const fn has_inf(&self) -> bool {
        matches!(self.kind, Kind::Ieee)
    }

    pub const fn has_nan(&self) -> bool {
        !matches!(self.kind, Kind::Finite)
    }

    pub const fn has_neg_zero(&self) -> bool {
        matches!(self.kind, Kind::Ieee | Kind::Fn | Kind::Finite)
    }

    /// Whether `bits` (high bits beyond the width ignored) is a NaN.
    #[inline(always)]
    pub const fn is_nan(&self, bits: u32) -> bool {
        let bits = bits & self.mask();
        let mag = bits & !self.sign_bit();
        match self.kind {
            Kind::Ieee => (mag >> self.man_bits) == self.exp_ones() && (mag & self.man_mask()) != 0,
            Kind::Fn => mag == self.nan_bits(),
            Kind::Fnuz => bits == 0x80,
            Kind::E8m0 => bits == 0xff,
            Kind::Finite => false,
        }
    }

    /// Whether `bits` (high bits beyond the width ignored) is ±inf.
    #[inline(always)]
    pub const fn is_inf(&self, bits: u32) -> bool {
        self.has_inf() && (bits & self.mask() & !self.sign_bit()) == self.inf_bits()
    }

    /// The exact f32 value of `bits` (high bits beyond the width ignored), as
    /// f32 bits. Every value of every format is an f32 (e8m0's 2^-127 is an
    /// f32 subnormal).
    pub const fn decode(&self, bits: u32) -> u32 {
        let bits = bits & self.mask();
        if let Kind::E8m0 = self.kind {
            return match bits {
                0xff => F32_QNAN,
                0 => 0x0040_0000,
                _ => bits << 23,
            };
        }
        let sign = if bits & self.sign_bit() != 0 {
            0x8000_0000
        } else {
            0
        };
        if self.is_nan(bits) {
            return sign | F32_QNAN;
        }
        if self.is_inf(bits) {
            return sign | 0x7f80_0000;
        }
        let mag = bits & !self.sign_bit();
        let e = mag >> self.man_bits;
        let f = mag & self.man_mask();
        let m = self.man_bits as i32;
        if e == 0 {
            if f == 0 {
                return sign;
            }
            // f * 2^(1-bias-m): normalise on f's top bit p.
            let p = 31 - f.leading_zeros() as i32;
            let exp = p + 1 - self.bias - m + 127;
            return sign | ((exp as u32) << 23) | ((f - (1 << p)) << (23 - p));
        }
        let exp = e as i32 - self.bias + 127;
        sign | ((exp as u32) << 23) | (f << (23 - m))
    }

    /// The decode table: entry `i` is `decode(i)` (so patterns with bits set
    /// above the width decode as their low bits, and no index can fail).
    pub const fn table(&self) -> [u32; 256] {
        let mut t = [0u32; 256];
        let mut i = 0;
        while i < 256 {
            t[i] = self.decode(i as u32);
            i += 1;
        }
        t
    }
}

/// Applies the sign and the format's overflow/NaN rule to a rounded
/// magnitude `mag` (which is past `max_bits` for an overflow, an infinite
/// or a NaN input).
#[inline(always)]
fn finish(s: Spec, neg: u32, mag: u32, nan: bool) -> u8 {
    let sign = neg << (s.bits - 1);
    let over = mag > s.max_bits();
    let r = match s.kind {
        Kind::Ieee => {
            let v = if over { s.inf_bits() } else { mag };
            (if nan { s.nan_bits() } else { v }) | sign
        }
        // Overflow, ±inf and NaN all become NaN of the input's sign.
        Kind::Fn => (if over { s.nan_bits() } else { mag }) | sign,
        // Overflow, ±inf and NaN become the one NaN; zero is unsigned.
        Kind::Fnuz => {
            let v = if mag == 0 { 0 } else { mag | sign };
            if over { 0x80 } else { v }
        }
        // Overflow and ±inf saturate to ±max; NaN gives the zero of the
        // opposite sign (ml_dtypes' "NaN" of these formats is -0, negated for
        // a negative NaN).
        Kind::Finite => {
            let v = (if over { s.max_bits() } else { mag }) | sign;
            if nan { (neg ^ 1) << (s.bits - 1) } else { v }
        }
        Kind::E8m0 => mag,
    };
    r as u8
}

/// f32 -> format, round to nearest even; branch-free so that a loop over it
/// vectorises.
#[inline(always)]
pub fn encode_f32(s: Spec, x: f32) -> u8 {
    let u = x.to_bits();
    if let Kind::E8m0 = s.kind {
        return e8m0_from_f32(u);
    }
    let neg = u >> 31;
    let a = u & 0x7fff_ffff;
    let m = s.man_bits;
    // Normal range: round the f32 mantissa to m bits (a carry moves into the
    // exponent), then rebias the exponent.
    let shift = 23 - m;
    let rounded = a.wrapping_add(((1 << (shift - 1)) - 1) + ((a >> shift) & 1));
    let normal = (rounded >> shift).wrapping_sub(((127 - s.bias) as u32) << m);
    // Subnormal range: adding 2^(24-bias-m), whose ulp is the target's
    // subnormal step, rounds |x| to a multiple of that step; the bits above
    // the magic are the target's bits (2^m being the smallest normal).
    let magic = f32::from_bits(((127 + 24 - s.bias - m as i32) as u32) << 23);
    let sub = (f32::from_bits(a) + magic)
        .to_bits()
        .wrapping_sub(magic.to_bits());
    let min_normal = ((127 + 1 - s.bias) as u32) << 23;
    let mag = if a < min_normal { sub } else { normal };
    finish(s, neg, mag, a > 0x7f80_0000)
}

/// f64 -> format, rounded once, directly from the f64 (as XLA's convert and
/// ml_dtypes' scalar constructor do; numpy's `astype` from float64 goes
/// through float32 and so can round twice).
#[inline(always)]
pub fn encode_f64(s: Spec, x: f64) -> u8 {
    let u = x.to_bits();
    if let Kind::E8m0 = s.kind {
        return e8m0_from_f64(u);
    }
    let neg = (u >> 63) as u32;
    let a = u & 0x7fff_ffff_ffff_ffff;
    let m = s.man_bits as u64;
    let shift = 52 - m;
    let rounded = a.wrapping_add(((1 << (shift - 1)) - 1) + ((a >> shift) & 1));
    let normal = (rounded >> shift).wrapping_sub(((1023 - s.bias) as u64) << m);
    let magic = f64::from_bits(((1023 + 53 - s.bias - m as i32) as u64) << 52);
    let sub = (f64::from_bits(a) + magic)
        .to_bits()
        .wrapping_sub(magic.to_bits());
    let min_normal = ((1023 + 1 - s.bias) as u64) << 52;
    let mag = if a < min_normal { sub } else { normal };
    finish(
        s,
        neg,
        mag.min(u64::from(u32::MAX)) as u32,
        a > 0x7ff0_0000_0000_0000,
    )
}

/// f32 -> e8m0fnu as ml_dtypes does it: a mantissa at or past one half rounds
/// the exponent up (its rounding to nearest even sees the implicit 1 as the
/// last kept bit, so ties go up); f32 subnormals are rounded in steps of
/// 2^-126 as if 0x00 were a subnormal zero, so values just above 2^-127 give
/// 2^-126. Zero, negatives, NaN, ±inf and values that round past 2^127 are NaN.
#[inline(always)]
fn e8m0_from_f32(u: u32) -> u8 {
    let e = (u >> 23) & 0xff;
    let frac = u & 0x7f_ffff;
    let r = if e == 0 {
        u32::from(frac > 0x40_0000)
    } else {
        e + u32::from(frac >= 0x40_0000)
    };
    let nan = (u >> 31) != 0 || u == 0 || e == 0xff || r > 0xfe;
    if nan { 0xff } else { r as u8 }
}

/// f64 -> e8m0fnu, the same rules as [`e8m0_from_f32`] on the f64's own bits.
#[inline(always)]
fn e8m0_from_f64(u: u64) -> u8 {
    let e = ((u >> 52) & 0x7ff) as i32;
    let frac = u & ((1 << 52) - 1);
    // t is the e8m0 pattern of 2^floor(log2 |x|) (0 for 2^-127).
    let t = e - (1023 - 127);
    let r = if t >= 1 {
        t + i32::from(frac >= 1 << 51)
    } else if t == 0 {
        i32::from(frac != 0)
    } else {
        0
    };
    let nan = (u >> 63) != 0 || u == 0 || e == 0x7ff || r > 0xfe;
    if nan { 0xff } else { r as u8 }
}
