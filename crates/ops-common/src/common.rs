//! Shared pieces of the op modules: the `for_class!` macro that picks, once per
//! call at check time, the monomorphic element function for an element type;
//! typed access to operands; internal-error construction.

use xlet_core::value::{Array, Elem};
use xlet_ir::KernelError;

pub use xlet_core::error::internal;

pub fn typed<T: Elem>(a: &Array) -> Result<&xlet_core::value::Nd<T>, KernelError> {
    T::unwrap(a).ok_or_else(|| internal("operand has an unexpected element type"))
}

/// Runs `Some($body)` with `$T` the Rust type of `$elem` when it is one of the
/// listed classes (`int`, `sint`, `uint`, `float`, `pred`), else `None`.
#[macro_export]
macro_rules! for_class {
    ($elem:expr, $T:ident, [$($class:ident),*] => $body:expr) => {{
        #[allow(unused_imports)]
        use ::xlet_core::types::ElemType as E;
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
    (@one complex, $e:ident, $T:ident, $body:expr) => {
        match $e {
            E::C64 => { type $T = ::xlet_core::value::c64; Some($body) }
            E::C128 => { type $T = ::xlet_core::value::c128; Some($body) }
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
            "complex" => "complex numbers (c64, c128)",
            other => other,
        })
        .collect();
    names.join(", ")
}

/// The array in row-major layout: itself when it already is, else a copy
/// (admitted under the memory budget first, spec/language.md §8.5).
pub use xlet_kernels::contiguous;
