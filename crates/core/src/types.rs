//! Element types, shapes and value types, shared by every stage.

pub use crate::small::SmallType;
use std::fmt;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ElemType {
    Pred,
    S8,
    S16,
    S32,
    S64,
    U8,
    U16,
    U32,
    U64,
    F16,
    BF16,
    F32,
    F64,
    /// Complex: two f32 (real, imaginary).
    C64,
    /// Complex: two f64.
    C128,
    /// The f8/f6/f4 floats and s4 u4 s2 u2 (one bit pattern per byte).
    Small(SmallType),
}

impl ElemType {
    pub const ALL: [ElemType; 15] = [
        ElemType::Pred,
        ElemType::S8,
        ElemType::S16,
        ElemType::S32,
        ElemType::S64,
        ElemType::U8,
        ElemType::U16,
        ElemType::U32,
        ElemType::U64,
        ElemType::F16,
        ElemType::BF16,
        ElemType::F32,
        ElemType::F64,
        ElemType::C64,
        ElemType::C128,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ElemType::Pred => "pred",
            ElemType::S8 => "s8",
            ElemType::S16 => "s16",
            ElemType::S32 => "s32",
            ElemType::S64 => "s64",
            ElemType::U8 => "u8",
            ElemType::U16 => "u16",
            ElemType::U32 => "u32",
            ElemType::U64 => "u64",
            ElemType::F16 => "f16",
            ElemType::BF16 => "bf16",
            ElemType::F32 => "f32",
            ElemType::F64 => "f64",
            ElemType::C64 => "c64",
            ElemType::C128 => "c128",
            ElemType::Small(t) => t.name(),
        }
    }

    /// The element type a numpy, jax or PyTorch dtype name (`int32`, `float16`,
    /// `bfloat16`, `bool`, `double`, ...; any case) means, for the hint that
    /// xlet spells it `s32`, `f16`, .... Not a name xlet reads as a type.
    pub fn from_foreign(s: &str) -> Option<ElemType> {
        Some(match s.to_ascii_lowercase().as_str() {
            "bool" | "bool_" | "boolean" => ElemType::Pred,
            "int8" | "i8" => ElemType::S8,
            "int16" | "i16" | "short" => ElemType::S16,
            "int32" | "i32" | "int" => ElemType::S32,
            "int64" | "i64" | "long" => ElemType::S64,
            "uint8" => ElemType::U8,
            "uint16" => ElemType::U16,
            "uint32" => ElemType::U32,
            "uint64" => ElemType::U64,
            "float16" | "half" => ElemType::F16,
            "bfloat16" => ElemType::BF16,
            "float32" | "float" => ElemType::F32,
            "float64" | "double" => ElemType::F64,
            "complex64" | "cfloat" => ElemType::C64,
            "complex128" | "cdouble" | "complex" => ElemType::C128,
            "int4" => ElemType::Small(SmallType::S4),
            "uint4" => ElemType::Small(SmallType::U4),
            "int2" => ElemType::Small(SmallType::S2),
            "uint2" => ElemType::Small(SmallType::U2),
            "float8_e4m3fn" => ElemType::Small(SmallType::F8E4M3FN),
            "float8_e5m2" => ElemType::Small(SmallType::F8E5M2),
            "float8_e4m3fnuz" => ElemType::Small(SmallType::F8E4M3FNUZ),
            "float8_e5m2fnuz" => ElemType::Small(SmallType::F8E5M2FNUZ),
            "float8_e4m3b11fnuz" => ElemType::Small(SmallType::F8E4M3B11FNUZ),
            "float8_e4m3" => ElemType::Small(SmallType::F8E4M3),
            "float8_e3m4" => ElemType::Small(SmallType::F8E3M4),
            "float8_e8m0fnu" => ElemType::Small(SmallType::F8E8M0FNU),
            "float6_e2m3fn" => ElemType::Small(SmallType::F6E2M3FN),
            "float6_e3m2fn" => ElemType::Small(SmallType::F6E3M2FN),
            "float4_e2m1fn" => ElemType::Small(SmallType::F4E2M1FN),
            _ => return None,
        })
    }

    /// Parses an element type name; `PRED` is accepted beside `pred`, as in the docs.
    pub fn parse(s: &str) -> Option<ElemType> {
        if s == "PRED" {
            return Some(ElemType::Pred);
        }
        // The types beyond the seed are HLO's names, in any case (`C64`, `c64`).
        if let Some(t) = [ElemType::C64, ElemType::C128]
            .into_iter()
            .find(|t| t.name().eq_ignore_ascii_case(s))
        {
            return Some(t);
        }
        if let Some(t) = SmallType::parse(s) {
            return Some(ElemType::Small(t));
        }
        ElemType::ALL.into_iter().find(|t| t.name() == s)
    }

    pub fn bit_width(self) -> u32 {
        match self {
            ElemType::Pred => 8,
            ElemType::S8 | ElemType::U8 => 8,
            ElemType::S16 | ElemType::U16 | ElemType::F16 | ElemType::BF16 => 16,
            ElemType::S32 | ElemType::U32 | ElemType::F32 => 32,
            ElemType::S64 | ElemType::U64 | ElemType::F64 | ElemType::C64 => 64,
            ElemType::C128 => 128,
            ElemType::Small(t) => t.bits(),
        }
    }

    /// Bytes of storage per element (a small type's pattern takes a byte).
    pub fn byte_size(self) -> usize {
        self.bit_width().div_ceil(8) as usize
    }

    /// The small type, if this is one.
    pub fn small(self) -> Option<SmallType> {
        match self {
            ElemType::Small(t) => Some(t),
            _ => None,
        }
    }
    /// One of the f8/f6/f4 floats.
    pub fn is_small_float(self) -> bool {
        self.small().is_some_and(SmallType::is_float)
    }
    /// One of s4 u4 s2 u2.
    pub fn is_small_int(self) -> bool {
        self.small().is_some_and(SmallType::is_int)
    }
    /// The type a small type is computed in, as XLA:CPU computes it: f16 for
    /// the small floats (which it holds exactly), f32 for f8e8m0fnu (whose
    /// range f16 lacks), s8 or u8 for the small integers; any other type is
    /// its own (spec/small_types.md §5).
    pub fn compute(self) -> ElemType {
        match self {
            ElemType::Small(SmallType::F8E8M0FNU) => ElemType::F32,
            ElemType::Small(t) if t.is_float() => ElemType::F16,
            ElemType::Small(t) if t.is_signed_int() => ElemType::S8,
            ElemType::Small(_) => ElemType::U8,
            other => other,
        }
    }

    pub fn is_pred(self) -> bool {
        self == ElemType::Pred
    }
    pub fn is_float(self) -> bool {
        matches!(
            self,
            ElemType::F16 | ElemType::BF16 | ElemType::F32 | ElemType::F64
        )
    }
    pub fn is_signed_int(self) -> bool {
        matches!(
            self,
            ElemType::S8 | ElemType::S16 | ElemType::S32 | ElemType::S64
        )
    }
    pub fn is_unsigned_int(self) -> bool {
        matches!(
            self,
            ElemType::U8 | ElemType::U16 | ElemType::U32 | ElemType::U64
        )
    }
    /// c64 or c128.
    pub fn is_complex(self) -> bool {
        matches!(self, ElemType::C64 | ElemType::C128)
    }
    /// The type of one component of a complex type (f32 for c64); other types map to themselves.
    pub fn component(self) -> ElemType {
        match self {
            ElemType::C64 => ElemType::F32,
            ElemType::C128 => ElemType::F64,
            other => other,
        }
    }
    pub fn is_int(self) -> bool {
        self.is_signed_int() || self.is_unsigned_int()
    }
}

impl fmt::Display for ElemType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The type of an array: element type and dimension sizes (row-major, major to minor).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ArrayType {
    pub elem: ElemType,
    pub dims: Vec<usize>,
}

impl ArrayType {
    pub fn new(elem: ElemType, dims: Vec<usize>) -> Self {
        ArrayType { elem, dims }
    }
    pub fn scalar(elem: ElemType) -> Self {
        ArrayType { elem, dims: vec![] }
    }
    pub fn rank(&self) -> usize {
        self.dims.len()
    }
    pub fn is_scalar(&self) -> bool {
        self.dims.is_empty()
    }
    /// Element count; `None` on overflow (the checker reports that as a size error).
    pub fn num_elements(&self) -> Option<usize> {
        self.dims
            .iter()
            .try_fold(1usize, |acc, &d| acc.checked_mul(d))
    }
    pub fn with_elem(&self, elem: ElemType) -> Self {
        ArrayType {
            elem,
            dims: self.dims.clone(),
        }
    }
}

/// Writes dimension sizes in the docs' form: `4x2x3`.
pub fn fmt_dims(dims: &[usize]) -> String {
    dims.iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join("x")
}

/// `f32[4x2x3]`; a scalar is its bare element type, `f32` (as in the docs' `(f32[10], s32)`).
impl fmt::Display for ArrayType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.dims.is_empty() {
            write!(f, "{}", self.elem)
        } else {
            write!(f, "{}[{}]", self.elem, fmt_dims(&self.dims))
        }
    }
}

/// The type of a value: an array or a tuple of values.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Array(ArrayType),
    Tuple(Vec<Type>),
}

impl Type {
    pub fn array(elem: ElemType, dims: Vec<usize>) -> Type {
        Type::Array(ArrayType::new(elem, dims))
    }
    pub fn scalar(elem: ElemType) -> Type {
        Type::Array(ArrayType::scalar(elem))
    }
    pub fn as_array(&self) -> Option<&ArrayType> {
        match self {
            Type::Array(a) => Some(a),
            Type::Tuple(_) => None,
        }
    }
    /// Total bytes of every array in the value, `None` on overflow.
    pub fn byte_size(&self) -> Option<usize> {
        match self {
            Type::Array(a) => a.num_elements()?.checked_mul(a.elem.byte_size()),
            Type::Tuple(ts) => ts
                .iter()
                .try_fold(0usize, |acc, t| acc.checked_add(t.byte_size()?)),
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Array(a) => a.fmt(f),
            Type::Tuple(ts) => {
                f.write_str("(")?;
                for (i, t) in ts.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    t.fmt(f)?;
                }
                if ts.len() == 1 {
                    f.write_str(",")?;
                }
                f.write_str(")")
            }
        }
    }
}
