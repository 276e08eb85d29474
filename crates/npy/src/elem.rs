//! Element types as `.npy` dtypes: the descr strings and the byte codecs.

use half::{bf16, f16};
use xlet_core::types::ElemType;
use xlet_core::value::{c64, c128};

/// The dtype string xlet writes for an element type (little-endian).
pub fn descr(e: ElemType) -> &'static str {
    match e {
        ElemType::Pred => "|b1",
        ElemType::S8 => "|i1",
        ElemType::S16 => "<i2",
        ElemType::S32 => "<i4",
        ElemType::S64 => "<i8",
        ElemType::U8 => "|u1",
        ElemType::U16 => "<u2",
        ElemType::U32 => "<u4",
        ElemType::U64 => "<u8",
        ElemType::F16 => "<f2",
        // numpy has no bf16: ml_dtypes' bfloat16 saves as a 2-byte void whose
        // bytes are the little-endian bf16 bits (checked with ml_dtypes 0.6).
        ElemType::BF16 => "<V2",
        ElemType::F32 => "<f4",
        ElemType::F64 => "<f8",
        ElemType::C64 => "<c8",
        ElemType::C128 => "<c16",
        // ml_dtypes saves every small type as a 1-byte void holding the
        // pattern in the low bits, as xlet stores it (checked with 0.6).
        ElemType::Small(_) => "<V1",
    }
}

/// The element type and byte order (`true`: big-endian) of a dtype string.
/// `=` (native) is little-endian: xlet runs on little-endian machines.
pub fn parse_descr(s: &str) -> Option<(ElemType, bool)> {
    let (order, code) = match s.as_bytes().first()? {
        b'<' | b'=' => (Some(false), &s[1..]),
        b'>' => (Some(true), &s[1..]),
        b'|' => (None, &s[1..]),
        _ => (None, s),
    };
    let elem = match code {
        "b1" | "?" => ElemType::Pred,
        "i1" => ElemType::S8,
        "i2" => ElemType::S16,
        "i4" => ElemType::S32,
        "i8" => ElemType::S64,
        "u1" => ElemType::U8,
        "u2" => ElemType::U16,
        "u4" => ElemType::U32,
        "u8" => ElemType::U64,
        "f2" | "e" => ElemType::F16,
        "f4" => ElemType::F32,
        "f8" => ElemType::F64,
        "c8" | "F" => ElemType::C64,
        "c16" | "D" => ElemType::C128,
        // Raw 2-byte voids are bf16 only as ml_dtypes writes them, little-endian.
        "V2" if order != Some(true) => ElemType::BF16,
        _ => return None,
    };
    // One-byte types have no byte order; multi-byte ones with `|` are malformed.
    if order.is_none() && elem.byte_size() > 1 && elem != ElemType::BF16 {
        return None;
    }
    Some((elem, order.unwrap_or(false)))
}

/// Decoding and encoding one element.
pub trait NpyElem: Copy {
    fn from_le(b: &[u8]) -> Self;
    fn from_be(b: &[u8]) -> Self;
    fn put_le(&self, out: &mut Vec<u8>);
}

macro_rules! num_elem {
    ($($t:ty),*) => {$(
        impl NpyElem for $t {
            fn from_le(b: &[u8]) -> Self {
                let mut a = [0u8; std::mem::size_of::<$t>()];
                a.copy_from_slice(b);
                <$t>::from_le_bytes(a)
            }
            fn from_be(b: &[u8]) -> Self {
                let mut a = [0u8; std::mem::size_of::<$t>()];
                a.copy_from_slice(b);
                <$t>::from_be_bytes(a)
            }
            fn put_le(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}
num_elem!(i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);

macro_rules! half_elem {
    ($($t:ty),*) => {$(
        impl NpyElem for $t {
            fn from_le(b: &[u8]) -> Self {
                <$t>::from_bits(<u16 as NpyElem>::from_le(b))
            }
            fn from_be(b: &[u8]) -> Self {
                <$t>::from_bits(<u16 as NpyElem>::from_be(b))
            }
            fn put_le(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_bits().to_le_bytes());
            }
        }
    )*};
}
half_elem!(f16, bf16);

impl NpyElem for bool {
    // numpy reads any nonzero byte of a b1 array as True.
    fn from_le(b: &[u8]) -> Self {
        b.first().is_some_and(|&x| x != 0)
    }
    fn from_be(b: &[u8]) -> Self {
        Self::from_le(b)
    }
    fn put_le(&self, out: &mut Vec<u8>) {
        out.push(*self as u8);
    }
}

// numpy's complex64/complex128: the real part, then the imaginary part, each in
// the array's byte order.
macro_rules! complex_elem {
    ($($t:ty => $part:ty),*) => {$(
        impl NpyElem for $t {
            fn from_le(b: &[u8]) -> Self {
                let (re, im) = b.split_at(b.len() / 2);
                <$t>::new(<$part>::from_le(re), <$part>::from_le(im))
            }
            fn from_be(b: &[u8]) -> Self {
                let (re, im) = b.split_at(b.len() / 2);
                <$t>::new(<$part>::from_be(re), <$part>::from_be(im))
            }
            fn put_le(&self, out: &mut Vec<u8>) {
                self.re.put_le(out);
                self.im.put_le(out);
            }
        }
    )*};
}
complex_elem!(c64 => f32, c128 => f64);

/// A dtype's item size in bytes and whether it is big-endian, for any
/// numeric or raw-void dtype (`<f4`, `|V1`, `>i2`, `?`).
fn item(s: &str) -> Option<(usize, bool)> {
    let (big, code) = match s.as_bytes().first()? {
        b'<' | b'=' | b'|' => (false, &s[1..]),
        b'>' => (true, &s[1..]),
        _ => (false, s),
    };
    let size = match code {
        "?" | "b" | "B" => 1,
        "e" => 2,
        "F" => 8,
        "D" => 16,
        _ => {
            let (kind, n) = code.split_at(1);
            if !matches!(kind, "b" | "i" | "u" | "f" | "c" | "V") {
                return None;
            }
            n.parse::<usize>().ok().filter(|&n| n > 0)?
        }
    };
    Some((size, big && size > 1))
}

/// Reading a file's elements as `t` (`type=`): the dtype's item size must be
/// `t`'s size in the file (one byte for the small types, which ml_dtypes
/// saves as `V1`; two for bf16, `V2`), and its bytes are taken as `t`'s bit
/// patterns, byte-swapped if the dtype is big-endian.
pub fn reinterpret(descr: &str, t: ElemType) -> Result<(ElemType, bool), String> {
    let want = t.byte_size().max(1);
    match item(descr) {
        Some((size, big)) if size == want => Ok((t, big)),
        Some((size, _)) => Err(format!(
            "has dtype '{descr}' ({size}-byte elements), which cannot be read as {t} ({want}-byte elements; the sizes must agree)"
        )),
        None => Err(format!(
            "has dtype '{descr}', which is not an array of numbers or raw bytes"
        )),
    }
}
