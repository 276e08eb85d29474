//! The element types batch norm runs on and the type each computes in: f64 in
//! f64, everything narrower in f32 (f16 and bf16 are widened on reading and
//! rounded once on writing).

use half::{bf16, f16};
use std::ops::{Add, Mul, Sub};
use xlet_core::value::Elem;

/// The arithmetic type of the element loops: f32 or f64.
pub trait Work:
    Copy
    + Default
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
{
    fn from_f64(v: f64) -> Self;
    fn to_f64(self) -> f64;
}

impl Work for f32 {
    #[inline(always)]
    fn from_f64(v: f64) -> Self {
        v as f32
    }
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self as f64
    }
}

impl Work for f64 {
    #[inline(always)]
    fn from_f64(v: f64) -> Self {
        v
    }
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self
    }
}

/// A float element type batch norm accepts.
pub trait BnElem: Elem + Copy + Send + Sync + 'static {
    type W: Work;
    /// Exact widening to the work type.
    fn to_w(self) -> Self::W;
    /// Rounding from the work type (nearest even).
    fn from_w(w: Self::W) -> Self;
    /// Rounding from f64 directly (nearest even, one rounding).
    fn from_f64(v: f64) -> Self;
    fn widen(self) -> f64;
}

impl BnElem for f32 {
    type W = f32;
    #[inline(always)]
    fn to_w(self) -> f32 {
        self
    }
    #[inline(always)]
    fn from_w(w: f32) -> Self {
        w
    }
    fn from_f64(v: f64) -> Self {
        v as f32
    }
    fn widen(self) -> f64 {
        self as f64
    }
}

impl BnElem for f64 {
    type W = f64;
    #[inline(always)]
    fn to_w(self) -> f64 {
        self
    }
    #[inline(always)]
    fn from_w(w: f64) -> Self {
        w
    }
    fn from_f64(v: f64) -> Self {
        v
    }
    fn widen(self) -> f64 {
        self
    }
}

macro_rules! half_elem {
    ($($t:ty),*) => {$(
        impl BnElem for $t {
            type W = f32;
            #[inline(always)]
            fn to_w(self) -> f32 {
                self.to_f32()
            }
            #[inline(always)]
            fn from_w(w: f32) -> Self {
                <$t>::from_f32(w)
            }
            fn from_f64(v: f64) -> Self {
                <$t>::from_f64(v)
            }
            fn widen(self) -> f64 {
                <$t>::to_f64(self)
            }
        }
    )*};
}
half_elem!(f16, bf16);
