//! Runtime values: typed arrays (reference-counted, copy-on-write, any strides)
//! and tuples.
//!
//! `Array` is the typed storage enum: one variant per element type, each an
//! `ndarray::ArcArray`. Kernels are generic over the element type; the
//! `with_array!` macro is the one `match` an op call makes to reach them.

pub mod literal;
pub mod scalar;
pub mod small;

use crate::types::{ArrayType, ElemType, Type};
use half::{bf16, f16};
use ndarray::{ArcArray, ArrayD, IxDyn};
pub use scalar::{CastAll, CastFrom, Scalar, c64, c128};
use std::sync::Arc;

pub type Nd<T> = ArcArray<T, IxDyn>;

#[derive(Clone, Debug)]
pub enum Array {
    Pred(Nd<bool>),
    S8(Nd<i8>),
    S16(Nd<i16>),
    S32(Nd<i32>),
    S64(Nd<i64>),
    U8(Nd<u8>),
    U16(Nd<u16>),
    U32(Nd<u32>),
    U64(Nd<u64>),
    F16(Nd<f16>),
    BF16(Nd<bf16>),
    F32(Nd<f32>),
    F64(Nd<f64>),
    C64(Nd<c64>),
    C128(Nd<c128>),
    /// An array of a small type (f8/f6/f4, s4/u4/s2/u2): one bit pattern per
    /// byte, in the low bits. Kernels that only move elements see the bytes
    /// (`with_array!` binds them as `u8`); ops that compute on values widen
    /// them to the type's compute type first (`value::small`).
    Small(crate::types::SmallType, Nd<u8>),
}

/// Runs `$body` with `$a` bound to the typed `ArcArray` inside `$arr`, for whichever
/// element type it holds. `$body` is instantiated once per element type.
#[macro_export]
macro_rules! with_array {
    ($arr:expr, $a:ident => $body:expr) => {
        match $arr {
            $crate::value::Array::Pred($a) => $body,
            $crate::value::Array::S8($a) => $body,
            $crate::value::Array::S16($a) => $body,
            $crate::value::Array::S32($a) => $body,
            $crate::value::Array::S64($a) => $body,
            $crate::value::Array::U8($a) => $body,
            $crate::value::Array::U16($a) => $body,
            $crate::value::Array::U32($a) => $body,
            $crate::value::Array::U64($a) => $body,
            $crate::value::Array::F16($a) => $body,
            $crate::value::Array::BF16($a) => $body,
            $crate::value::Array::F32($a) => $body,
            $crate::value::Array::F64($a) => $body,
            $crate::value::Array::C64($a) => $body,
            $crate::value::Array::C128($a) => $body,
            $crate::value::Array::Small(_, $a) => $body,
        }
    };
}

/// `with_array!` for kernels defined on the ordered (real) types only: a
/// complex array runs `$complex` instead. For ops whose checker refuses complex
/// operands, so `$complex` is an internal error.
#[macro_export]
macro_rules! with_real_array {
    ($arr:expr, $a:ident => $body:expr, complex => $complex:expr) => {
        match $arr {
            $crate::value::Array::Pred($a) => $body,
            $crate::value::Array::S8($a) => $body,
            $crate::value::Array::S16($a) => $body,
            $crate::value::Array::S32($a) => $body,
            $crate::value::Array::S64($a) => $body,
            $crate::value::Array::U8($a) => $body,
            $crate::value::Array::U16($a) => $body,
            $crate::value::Array::U32($a) => $body,
            $crate::value::Array::U64($a) => $body,
            $crate::value::Array::F16($a) => $body,
            $crate::value::Array::BF16($a) => $body,
            $crate::value::Array::F32($a) => $body,
            $crate::value::Array::F64($a) => $body,
            $crate::value::Array::Small(_, $a) => $body,
            $crate::value::Array::C64(_) | $crate::value::Array::C128(_) => $complex,
        }
    };
}

/// `with_elem_type!` for the real types; complex element types run `$complex`.
#[macro_export]
macro_rules! with_real_elem_type {
    ($et:expr, $T:ident => $body:expr, complex => $complex:expr) => {
        match $et {
            $crate::types::ElemType::Pred => {
                type $T = bool;
                $body
            }
            $crate::types::ElemType::S8 => {
                type $T = i8;
                $body
            }
            $crate::types::ElemType::S16 => {
                type $T = i16;
                $body
            }
            $crate::types::ElemType::S32 => {
                type $T = i32;
                $body
            }
            $crate::types::ElemType::S64 => {
                type $T = i64;
                $body
            }
            $crate::types::ElemType::U8 => {
                type $T = u8;
                $body
            }
            $crate::types::ElemType::U16 => {
                type $T = u16;
                $body
            }
            $crate::types::ElemType::U32 => {
                type $T = u32;
                $body
            }
            $crate::types::ElemType::U64 => {
                type $T = u64;
                $body
            }
            $crate::types::ElemType::F16 => {
                type $T = half::f16;
                $body
            }
            $crate::types::ElemType::BF16 => {
                type $T = half::bf16;
                $body
            }
            $crate::types::ElemType::F32 => {
                type $T = f32;
                $body
            }
            $crate::types::ElemType::F64 => {
                type $T = f64;
                $body
            }
            $crate::types::ElemType::Small(_) => {
                type $T = u8;
                $body
            }
            $crate::types::ElemType::C64 | $crate::types::ElemType::C128 => $complex,
        }
    };
}

/// Runs `$body` with the type alias `$T` set to the Rust type of element type `$et`.
#[macro_export]
macro_rules! with_elem_type {
    ($et:expr, $T:ident => $body:expr) => {
        match $et {
            $crate::types::ElemType::Pred => {
                type $T = bool;
                $body
            }
            $crate::types::ElemType::S8 => {
                type $T = i8;
                $body
            }
            $crate::types::ElemType::S16 => {
                type $T = i16;
                $body
            }
            $crate::types::ElemType::S32 => {
                type $T = i32;
                $body
            }
            $crate::types::ElemType::S64 => {
                type $T = i64;
                $body
            }
            $crate::types::ElemType::U8 => {
                type $T = u8;
                $body
            }
            $crate::types::ElemType::U16 => {
                type $T = u16;
                $body
            }
            $crate::types::ElemType::U32 => {
                type $T = u32;
                $body
            }
            $crate::types::ElemType::U64 => {
                type $T = u64;
                $body
            }
            $crate::types::ElemType::F16 => {
                type $T = half::f16;
                $body
            }
            $crate::types::ElemType::BF16 => {
                type $T = half::bf16;
                $body
            }
            $crate::types::ElemType::F32 => {
                type $T = f32;
                $body
            }
            $crate::types::ElemType::F64 => {
                type $T = f64;
                $body
            }
            $crate::types::ElemType::C64 => {
                type $T = $crate::value::c64;
                $body
            }
            $crate::types::ElemType::C128 => {
                type $T = $crate::value::c128;
                $body
            }
            $crate::types::ElemType::Small(_) => {
                type $T = u8;
                $body
            }
        }
    };
}

/// Wraps and unwraps a typed `ArcArray` in the storage enum.
pub trait Elem: CastAll {
    /// The element type this Rust type stores.
    const ELEM: ElemType;
    fn wrap(a: Nd<Self>) -> Array;
    fn unwrap(a: &Array) -> Option<&Nd<Self>>;
}

macro_rules! impl_elem {
    ($($t:ty => $v:ident),*) => {$(
        impl Elem for $t {
            const ELEM: ElemType = ElemType::$v;
            fn wrap(a: Nd<Self>) -> Array { Array::$v(a) }
            fn unwrap(a: &Array) -> Option<&Nd<Self>> {
                match a { Array::$v(x) => Some(x), _ => None }
            }
        }
    )*};
}
impl_elem!(bool => Pred, i8 => S8, i16 => S16, i32 => S32, i64 => S64, u16 => U16,
    u32 => U32, u64 => U64, f16 => F16, bf16 => BF16, f32 => F32, f64 => F64, c64 => C64,
    c128 => C128);

/// `u8` also reads a small type's bytes: kernels that move elements run on
/// them as bytes, and the evaluator gives their `U8` result back the checked
/// small type (`Array::retag`).
impl Elem for u8 {
    const ELEM: ElemType = ElemType::U8;
    fn wrap(a: Nd<Self>) -> Array {
        Array::U8(a)
    }
    fn unwrap(a: &Array) -> Option<&Nd<Self>> {
        match a {
            Array::U8(x) | Array::Small(_, x) => Some(x),
            _ => None,
        }
    }
}

impl Array {
    pub fn elem(&self) -> ElemType {
        match self {
            Array::Pred(_) => ElemType::Pred,
            Array::S8(_) => ElemType::S8,
            Array::S16(_) => ElemType::S16,
            Array::S32(_) => ElemType::S32,
            Array::S64(_) => ElemType::S64,
            Array::U8(_) => ElemType::U8,
            Array::U16(_) => ElemType::U16,
            Array::U32(_) => ElemType::U32,
            Array::U64(_) => ElemType::U64,
            Array::F16(_) => ElemType::F16,
            Array::BF16(_) => ElemType::BF16,
            Array::F32(_) => ElemType::F32,
            Array::F64(_) => ElemType::F64,
            Array::C64(_) => ElemType::C64,
            Array::C128(_) => ElemType::C128,
            Array::Small(t, _) => ElemType::Small(*t),
        }
    }
    pub fn dims(&self) -> &[usize] {
        with_array!(self, a => a.shape())
    }
    pub fn array_type(&self) -> ArrayType {
        ArrayType::new(self.elem(), self.dims().to_vec())
    }
    pub fn len(&self) -> usize {
        with_array!(self, a => a.len())
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn from_nd<T: Elem>(a: ArrayD<T>) -> Array {
        T::wrap(a.into_shared())
    }
    /// Elements in row-major order, cast to `T` (used by printing, comparison and index reading).
    pub fn to_vec<T: CastAll>(&self) -> Vec<T> {
        match self {
            Array::Small(t, a) if t.is_float() => {
                a.iter().map(|&b| T::cast_from(t.to_f64(b))).collect()
            }
            Array::Small(t, a) => a.iter().map(|&b| T::cast_from(t.to_i64(b))).collect(),
            _ => with_array!(self, a => a.iter().map(|&x| T::cast_from(x)).collect()),
        }
    }
}

/// A value: an array or a tuple of values. Cheap to clone (reference counts).
#[derive(Clone, Debug)]
pub enum Value {
    Array(Array),
    Tuple(Arc<[Value]>),
}

impl Value {
    pub fn ty(&self) -> Type {
        match self {
            Value::Array(a) => Type::Array(a.array_type()),
            Value::Tuple(vs) => Type::Tuple(vs.iter().map(Value::ty).collect()),
        }
    }
    pub fn as_array(&self) -> Option<&Array> {
        match self {
            Value::Array(a) => Some(a),
            Value::Tuple(_) => None,
        }
    }
    pub fn tuple(vs: Vec<Value>) -> Value {
        Value::Tuple(vs.into())
    }
}

impl From<Array> for Value {
    fn from(a: Array) -> Value {
        Value::Array(a)
    }
}
