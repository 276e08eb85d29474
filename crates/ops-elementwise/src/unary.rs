//! Elementwise unary functions (spec/ops/unary.md). Each maps every element of
//! one operand and keeps its shape; IsFinite returns pred.

use super::common::describe_classes;
use super::registry::{Checked, OpDef, OpId};
use super::small::{bit_op_widening, widened, widened_bits};
use crate::for_class;
use num_traits::Float;
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::{ElemType, Type};
use xlet_kernels::complex as cx;
use xlet_kernels::fused::{ElementwiseFn, ElementwiseKernel, unary};
use xlet_kernels::math::{Erf, Tanh};

type UnFn = Arc<dyn ElementwiseFn>;

const SPEC: &str = include_str!("../../../spec/ops/unary.md");

/// Round half to even, for any float type.
fn round_even<T: Float>(x: T) -> T {
    let r = x.round();
    let two = T::one() + T::one();
    if (r - x).abs() == T::one() / two {
        two * (x / two).round()
    } else {
        r
    }
}

/// sign(x): -1, 0 or 1; NaN stays NaN and zeros keep their sign.
fn fsign<T: Float>(x: T) -> T {
    if x.is_nan() || x == T::zero() {
        x
    } else {
        x.signum()
    }
}

fn logistic<T: Float>(x: T) -> T {
    T::one() / (T::one() + (-x).exp())
}

/// Logistic on a small float as XLA:CPU computes it: expanded to
/// `1 / (1 + Exp(-x))` in the operand's type, so that each step's result
/// (-x, the Exp, the sum) is rounded to the format before the next (each step itself
/// computed in the compute type, spec/small_types.md §5).
fn small_logistic(t: xlet_core::types::SmallType) -> UnFn {
    macro_rules! steps {
        ($T:ty, $from:expr, $to:expr, $back:expr) => {{
            let round = move |v: f32| t.to_f64(t.from_f64(f64::from($to(v)))) as f32;
            unary::<$T, $T, _>(move |x: $T| {
                // -x too is a step in the format (NaN for unsigned e8m0).
                let e = round(round(-$from(x)).exp());
                let s = round(1.0 + e);
                $back(round(1.0 / s))
            })
        }};
    }
    if ElemType::Small(t).compute() == ElemType::F16 {
        // Each step: f32, then f16, then the format (XLA's double rounding).
        let to16 = |v: f32| half::f16::from_f32(v).to_f32();
        steps!(
            half::f16,
            |x: half::f16| x.to_f32(),
            to16,
            half::f16::from_f32
        )
    } else {
        steps!(f32, |x: f32| x, |v: f32| v, |v: f32| v)
    }
}

/// Exp on c64: the vectorized block kernel (`complex::exp_c64_block`, which
/// falls back to num-complex's `exp` at special values, spec/numerics.md §7.1);
/// c128 keeps num-complex's `exp` element by element (the table below).
fn exp_c64() -> UnFn {
    use xlet_core::value::c64;
    xlet_kernels::fused::unary_blocks::<c64, c64, { cx::EXP_BLOCK }, _>(cx::exp_c64_block)
}

/// The result's element type: the operand's, pred, or (Abs) the real type
/// of a complex operand.
#[derive(Clone, Copy, PartialEq)]
enum Out {
    Same,
    Pred,
    Real,
}

fn rule(
    cx: &mut CallCtx,
    pick: fn(ElemType) -> Option<UnFn>,
    classes: &[&str],
    out: Out,
) -> Result<Checked, Diag> {
    let e = cx.require(Some(0), "operand")?;
    // An untyped literal operand of a function of floats (and complex numbers)
    // is read as f32 (Exp(1) is e).
    let float_only = classes.iter().all(|c| *c == "float" || *c == "complex");
    let hint = float_only.then_some(ElemType::F32);
    let o = cx.push_operand(e, hint)?;
    let t = cx.array(&o, "C1", "operand")?.clone();
    // A small type computes in its compute type (spec/small_types.md §5); the
    // bit counts of the small integers read the pattern instead.
    let bits = bit_op_widening(cx.op.id, t.elem);
    let kernel_elem = bits.as_ref().map_or(t.elem.compute(), |b| b.1);
    let picked = match t.elem.small() {
        Some(st) if cx.op.id == OpId::Logistic && st.is_float() => Some(small_logistic(st)),
        _ if cx.op.id == OpId::Exp && kernel_elem == ElemType::C64 => Some(exp_c64()),
        _ => pick(kernel_elem),
    };
    let Some(f) = picked else {
        return Err(cx
            .err(
                "C2",
                format!("{} is not defined on {}", cx.name(), t.elem),
                o.span.clone(),
            )
            .with_label(format!("this is {t}"))
            .with_note(format!("{} takes {}", cx.name(), describe_classes(classes))));
    };
    let elem = match out {
        Out::Same => t.elem,
        Out::Pred => ElemType::Pred,
        Out::Real => t.elem.component(),
    };
    let kernel = Arc::new(ElementwiseKernel {
        f,
        maps: vec![(0..t.rank()).collect()],
        out_dims: t.dims.clone(),
        out_elem: match out {
            Out::Pred => ElemType::Pred,
            Out::Same => kernel_elem,
            Out::Real => kernel_elem.component(),
        },
    });
    Ok(Checked {
        ty: Type::array(elem, t.dims.clone()),
        kernel: match bits {
            Some((modes, _, narrow)) => widened_bits(kernel, &[t.elem], &modes, elem, narrow),
            None => widened(kernel, &[t.elem], elem),
        },
    })
}

/// Declares unary ops: name, aliases, the classes it takes, and per class the element function.
macro_rules! unary_ops {
    ($( $name:ident [$($alias:literal),*] $rule:ident $pick:ident out=$out:ident { $($class:ident => $f:expr),* } )*) => {
        $(
            fn $pick(e: ElemType) -> Option<UnFn> {
                None $( .or_else(|| for_class!(e, T, [$class] => unary::<T, _, _>($f))) )*
            }
            fn $rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
                rule(cx, $pick, &[$(stringify!($class)),*], Out::$out)
            }
        )*
        pub const OPS: &[OpDef] = &[
            $( OpDef {
                id: OpId::$name,
                aliases: &[$($alias),*],
                signature: concat!(stringify!($name), "(operand)"),
                spec: SPEC,
                rule: $rule,
            }, )*
        ];
    };
}

unary_ops! {
    Abs [] abs_rule abs out=Real { sint => |x: T| x.wrapping_abs(), float => |x: T| Float::abs(x), complex => |x: T| x.norm() }
    Neg [] neg_rule neg out=Same { int => |x: T| x.wrapping_neg(), float => |x: T| -x, complex => |x: T| -x }
    Sign [] sign_rule sign out=Same { sint => |x: T| x.signum(), float => |x: T| fsign(x), complex => |x: T| cx::sign(x) }
    Not ["LogicalNot"] not_rule not out=Same { int => |x: T| !x, pred => |x: T| !x }
    Ceil [] ceil_rule ceil out=Same { float => |x: T| Float::ceil(x) }
    Floor [] floor_rule floor out=Same { float => |x: T| Float::floor(x) }
    RoundNearestAfz ["Round"] rafz_rule rafz out=Same { float => |x: T| Float::round(x) }
    RoundNearestEven [] rne_rule rne out=Same { float => |x: T| round_even(x) }
    Exp [] exp_rule exp out=Same { float => |x: T| Float::exp(x), complex => |x: T| x.exp() }
    Expm1 [] expm1_rule expm1 out=Same { float => |x: T| Float::exp_m1(x), complex => |x: T| cx::expm1(x) }
    Log [] log_rule log out=Same { float => |x: T| Float::ln(x), complex => |x: T| x.ln() }
    Log1p [] log1p_rule log1p out=Same { float => |x: T| Float::ln_1p(x), complex => |x: T| cx::log1p(x) }
    Logistic [] logistic_rule logistic_k out=Same { float => |x: T| logistic(x), complex => |x: T| cx::logistic(x) }
    Sqrt [] sqrt_rule sqrt out=Same { float => |x: T| Float::sqrt(x), complex => |x: T| cx::sqrt(x) }
    Rsqrt [] rsqrt_rule rsqrt out=Same { float => |x: T| Float::sqrt(x).recip(), complex => |x: T| cx::rsqrt(x) }
    Cbrt [] cbrt_rule cbrt out=Same { float => |x: T| Float::cbrt(x), complex => |x: T| x.cbrt() }
    Sin [] sin_rule sin out=Same { float => |x: T| Float::sin(x), complex => |x: T| cx::sin(x) }
    Cos [] cos_rule cos out=Same { float => |x: T| Float::cos(x), complex => |x: T| cx::cos(x) }
    Tan [] tan_rule tan out=Same { float => |x: T| Float::tan(x), complex => |x: T| cx::tan(x) }
    Tanh [] tanh_rule tanh out=Same { float => |x: T| x.tanh_elem(), complex => |x: T| cx::tanh(x) }
    Erf [] erf_rule erf out=Same { float => |x: T| x.erf_elem() }
    IsFinite [] isfinite_rule isfinite out=Pred { float => |x: T| Float::is_finite(x) }
    PopulationCount ["Popcnt"] popcnt_rule popcnt out=Same { int => |x: T| x.count_ones() as T }
    Clz [] clz_rule clz out=Same { int => |x: T| x.leading_zeros() as T }
}
