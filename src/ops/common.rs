//! Shared machinery of the elementwise families: kernels that apply a
//! per-element function through the strided engine, and the macros that pick,
//! once per call at check time, the monomorphic kernel for an element type.

use crate::check::broadcast::BinaryShape;
use crate::ir::{EvalCx, Kernel, KernelError};
use crate::kernels::{Src, map1, map2};
use crate::value::{Array, Elem, Value};

/// A binary kernel for one element type: operands, their placement in the output.
pub type BinFn = fn(&Array, &Array, &BinaryShape) -> Result<Array, KernelError>;
/// A unary kernel for one element type.
pub type UnFn = fn(&Array) -> Result<Array, KernelError>;

pub fn internal(what: &str) -> KernelError {
    KernelError::new(
        "internal",
        format!("internal error: {what} (the checker should have caught this)"),
    )
}

pub fn typed<T: Elem>(a: &Array) -> Result<&crate::value::Nd<T>, KernelError> {
    T::unwrap(a).ok_or_else(|| internal("operand has an unexpected element type"))
}

/// `out = f(lhs, rhs)` with both operands broadcast into the output as stride-0 views.
pub fn apply2<T: Elem, O: Elem>(
    a: &Array,
    b: &Array,
    s: &BinaryShape,
    f: impl Fn(T, T) -> O + Sync,
) -> Result<Array, KernelError> {
    let (a, b) = (typed::<T>(a)?, typed::<T>(b)?);
    let rank = s.out_dims.len();
    let sa = Src::broadcast_in_dim(a, rank, &s.lhs_map);
    let sb = Src::broadcast_in_dim(b, rank, &s.rhs_map);
    Ok(Array::from_nd(map2(&s.out_dims, &sa, &sb, f)))
}

/// `out = f(x)`, keeping the operand's shape.
pub fn apply1<T: Elem, O: Elem>(
    a: &Array,
    f: impl Fn(T) -> O + Sync,
) -> Result<Array, KernelError> {
    let a = typed::<T>(a)?;
    Ok(Array::from_nd(map1(a.shape(), &Src::of(a), f)))
}

/// Runs `Some($body)` with `$T` the Rust type of `$elem` when it is one of the
/// listed classes (`int`, `sint`, `uint`, `float`, `pred`), else `None`.
#[macro_export]
macro_rules! for_class {
    ($elem:expr, $T:ident, [$($class:ident),*] => $body:expr) => {{
        #[allow(unused_imports)]
        use $crate::types::ElemType as E;
        let e: E = $elem;
        let mut out = None;
        $( if out.is_none() { out = $crate::for_class!(@one $class, e, $T, $body); } )*
        out
    }};
    (@one int, $e:ident, $T:ident, $body:expr) => {
        $crate::for_class!(@one sint, $e, $T, $body).or_else(|| $crate::for_class!(@one uint, $e, $T, $body))
    };
    (@one sint, $e:ident, $T:ident, $body:expr) => {
        match $e {
            E::S8 => { type $T = i8; Some($body) }
            E::S16 => { type $T = i16; Some($body) }
            E::S32 => { type $T = i32; Some($body) }
            E::S64 => { type $T = i64; Some($body) }
            _ => None,
        }
    };
    (@one uint, $e:ident, $T:ident, $body:expr) => {
        match $e {
            E::U8 => { type $T = u8; Some($body) }
            E::U16 => { type $T = u16; Some($body) }
            E::U32 => { type $T = u32; Some($body) }
            E::U64 => { type $T = u64; Some($body) }
            _ => None,
        }
    };
    (@one float, $e:ident, $T:ident, $body:expr) => {
        match $e {
            E::F16 => { type $T = half::f16; Some($body) }
            E::BF16 => { type $T = half::bf16; Some($body) }
            E::F32 => { type $T = f32; Some($body) }
            E::F64 => { type $T = f64; Some($body) }
            _ => None,
        }
    };
    (@one pred, $e:ident, $T:ident, $body:expr) => {
        match $e {
            E::Pred => { type $T = bool; Some($body) }
            _ => None,
        }
    };
}

/// A binary elementwise op with its shape plan and monomorphic function.
pub struct BinaryKernel {
    pub shape: BinaryShape,
    pub f: BinFn,
}

impl Kernel for BinaryKernel {
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        match args {
            [Value::Array(a), Value::Array(b)] => (self.f)(a, b, &self.shape).map(Value::Array),
            _ => Err(internal("binary op expects two arrays")),
        }
    }
}

pub struct UnaryKernel {
    pub f: UnFn,
}

impl Kernel for UnaryKernel {
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        match args {
            [Value::Array(a)] => (self.f)(a).map(Value::Array),
            _ => Err(internal("unary op expects one array")),
        }
    }
}

/// Describes which element types a class list admits, for error messages.
pub fn describe_classes(classes: &[&str]) -> String {
    let names: Vec<&str> = classes
        .iter()
        .map(|c| match *c {
            "int" => "integers (s8..s64, u8..u64)",
            "sint" => "signed integers (s8..s64)",
            "uint" => "unsigned integers (u8..u64)",
            "float" => "floats (f16, bf16, f32, f64)",
            "pred" => "pred",
            other => other,
        })
        .collect();
    names.join(", ")
}

/// The array in row-major layout: itself when it already is, else a copy.
pub fn contiguous<T: Elem>(a: crate::value::Nd<T>) -> crate::value::Nd<T> {
    if a.is_standard_layout() {
        a
    } else {
        crate::kernels::materialize(a.shape(), &Src::of(&a)).into_shared()
    }
}
