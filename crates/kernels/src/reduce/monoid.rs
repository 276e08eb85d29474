//! The monoid ops on every element type they are defined for, as generic
//! closures handed to the native kernels. Each closure is exactly the element
//! function of the binary op of the same name (src/ops/binary.rs), so the
//! native path and a comp call give the same bits.

use super::layout::{Layout, arrange, slice, split_dims};
use super::native::{self, Columns};
use crate::math::{fmax, fmin};
use half::{bf16, f16};
use ndarray::{ArrayD, IxDyn};
use xlet_core::alloc;
use xlet_core::error::KernelError;
use xlet_core::value::{Elem, Nd};

/// The associative, commutative binary ops that reductions have native kernels for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Monoid {
    Add,
    Mul,
    Max,
    Min,
    And,
    Or,
}

impl Monoid {
    pub const ALL: [Monoid; 6] = [
        Monoid::Add,
        Monoid::Mul,
        Monoid::Max,
        Monoid::Min,
        Monoid::And,
        Monoid::Or,
    ];

    /// The binary op this monoid is.
    pub fn op(self) -> xlet_core::OpId {
        use xlet_core::OpId;
        match self {
            Monoid::Add => OpId::Add,
            Monoid::Mul => OpId::Mul,
            Monoid::Max => OpId::Max,
            Monoid::Min => OpId::Min,
            Monoid::And => OpId::And,
            Monoid::Or => OpId::Or,
        }
    }

    pub fn name(self) -> &'static str {
        self.op().name()
    }
}

/// The monoids `comp::monoid` recognises (the name the kernels use).
pub use Monoid as MonoidOp;

/// A reduction of one operand by a native element function `f`.
pub fn reduce_with<T: Elem + Copy + Send + Sync, F: Fn(T, T) -> T + Sync>(
    x: &Nd<T>,
    dims: &[usize],
    init: T,
    f: F,
) -> Result<Nd<T>, KernelError> {
    let (kept, m, _) = split_dims(x.shape(), dims);
    let out_shape: Vec<usize> = kept.iter().map(|&d| x.shape()[d]).collect();
    let mut out: Vec<T> = alloc::try_output_vec(m, &"the reduction's result")?;
    out.resize(m, init);
    match arrange(x, dims, true)? {
        Layout::Rows { data, m, n } => native::rows(slice(&data)?, m, n, init, &f, &mut out)?,
        Layout::Columns { data, m, n } => {
            let rows = Columns {
                x: slice(&data)?,
                m,
            };
            native::columns(&rows, n, m, init, &f, &mut out)?
        }
    }
    ArrayD::from_shape_vec(IxDyn(&out_shape), out)
        .map(|a| a.into_shared())
        .map_err(|_| xlet_core::error::internal("reduction output size"))
}

/// Element types with native monoid functions.
pub trait NativeMonoid: Elem + Copy + Send + Sync {
    /// Calls `k.call(f)` with the element function of `op`, or None if `op`
    /// is not defined on this type.
    fn with_op<K: WithOp<Self>>(op: MonoidOp, k: K) -> Option<K::Out>;
}

/// What to do with an element function (a generic callback, so that the
/// function stays a monomorphic closure inside the kernel).
pub trait WithOp<T> {
    type Out;
    fn call<F: Fn(T, T) -> T + Sync + Send + Copy + 'static>(self, f: F) -> Self::Out;
}

macro_rules! int_monoid {
    ($($t:ty),*) => {$(
        impl NativeMonoid for $t {
            fn with_op<K: WithOp<Self>>(op: MonoidOp, k: K) -> Option<K::Out> {
                Some(match op {
                    MonoidOp::Add => k.call(|a: $t, b: $t| a.wrapping_add(b)),
                    MonoidOp::Mul => k.call(|a: $t, b: $t| a.wrapping_mul(b)),
                    MonoidOp::Max => k.call(|a: $t, b: $t| a.max(b)),
                    MonoidOp::Min => k.call(|a: $t, b: $t| a.min(b)),
                    MonoidOp::And => k.call(|a: $t, b: $t| a & b),
                    MonoidOp::Or => k.call(|a: $t, b: $t| a | b),
                })
            }
        }
    )*};
}
int_monoid!(i8, i16, i32, i64, u8, u16, u32, u64);

macro_rules! float_monoid {
    ($($t:ty),*) => {$(
        impl NativeMonoid for $t {
            fn with_op<K: WithOp<Self>>(op: MonoidOp, k: K) -> Option<K::Out> {
                match op {
                    MonoidOp::Add => Some(k.call(|a: $t, b: $t| a + b)),
                    MonoidOp::Mul => Some(k.call(|a: $t, b: $t| a * b)),
                    MonoidOp::Max => Some(k.call(fmax::<$t>)),
                    MonoidOp::Min => Some(k.call(fmin::<$t>)),
                    MonoidOp::And | MonoidOp::Or => None,
                }
            }
        }
    )*};
}
float_monoid!(f16, bf16, f32, f64);

// Complex: sums and products run natively; Max and Min (lexicographic on
// XLA) go through the comparator path.
macro_rules! complex_monoid {
    ($($t:ty),*) => {$(
        impl NativeMonoid for $t {
            fn with_op<K: WithOp<Self>>(op: MonoidOp, k: K) -> Option<K::Out> {
                match op {
                    MonoidOp::Add => Some(k.call(|a: $t, b: $t| a + b)),
                    MonoidOp::Mul => Some(k.call(|a: $t, b: $t| a * b)),
                    _ => None,
                }
            }
        }
    )*};
}
complex_monoid!(xlet_core::value::c64, xlet_core::value::c128);

impl NativeMonoid for bool {
    fn with_op<K: WithOp<Self>>(op: MonoidOp, k: K) -> Option<K::Out> {
        // On pred, Add and Max are `or`; Mul and Min are `and` (spec/ops/binary.md).
        Some(match op {
            MonoidOp::Add | MonoidOp::Max | MonoidOp::Or => k.call(|a: bool, b: bool| a | b),
            MonoidOp::Mul | MonoidOp::Min | MonoidOp::And => k.call(|a: bool, b: bool| a & b),
        })
    }
}

/// The reduction of one array by a monoid: the `WithOp` callback for `reduce_with`.
pub struct ReduceCall<'a, T> {
    pub x: &'a Nd<T>,
    pub dims: &'a [usize],
    pub init: T,
}

impl<T: Elem + Copy + Send + Sync> WithOp<T> for ReduceCall<'_, T> {
    type Out = Result<Nd<T>, KernelError>;
    fn call<F: Fn(T, T) -> T + Sync + Send + Copy + 'static>(self, f: F) -> Self::Out {
        reduce_with(self.x, self.dims, self.init, f)
    }
}

/// The plain element function of `op` on T, for tests and reference loops.
pub struct GetFn;
impl<T: 'static> WithOp<T> for GetFn {
    type Out = Box<dyn Fn(T, T) -> T + Sync + Send>;
    fn call<F: Fn(T, T) -> T + Sync + Send + Copy + 'static>(self, f: F) -> Self::Out {
        Box::new(f)
    }
}
