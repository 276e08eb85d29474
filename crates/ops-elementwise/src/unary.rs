//! Elementwise unary functions (spec/ops/unary.md). Each maps every element of
//! one operand and keeps its shape; IsFinite returns pred.

use super::common::describe_classes;
use super::registry::{Checked, OpDef, OpId};
use crate::for_class;
use num_traits::Float;
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::{ElemType, Type};
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

fn rule(
    cx: &mut CallCtx,
    pick: fn(ElemType) -> Option<UnFn>,
    classes: &[&str],
    pred_out: bool,
) -> Result<Checked, Diag> {
    let e = cx.require(Some(0), "operand")?;
    // An untyped literal operand of a float-only function is read as f32 (Exp(1) is e).
    let float_only = classes.iter().all(|c| *c == "float");
    let hint = float_only.then_some(ElemType::F32);
    let o = cx.push_operand(e, hint)?;
    let t = cx.array(&o, "C1", "operand")?.clone();
    let Some(f) = pick(t.elem) else {
        return Err(cx
            .err(
                "C2",
                format!("{} is not defined on {}", cx.name(), t.elem),
                o.span.clone(),
            )
            .with_label(format!("this is {t}"))
            .with_note(format!("{} takes {}", cx.name(), describe_classes(classes))));
    };
    let elem = if pred_out { ElemType::Pred } else { t.elem };
    Ok(Checked {
        ty: Type::array(elem, t.dims.clone()),
        kernel: Arc::new(ElementwiseKernel {
            f,
            maps: vec![(0..t.rank()).collect()],
            out_dims: t.dims.clone(),
            out_elem: elem,
        }),
    })
}

/// Declares unary ops: name, aliases, the classes it takes, and per class the element function.
macro_rules! unary_ops {
    ($( $name:ident [$($alias:literal),*] $rule:ident $pick:ident pred_out=$po:literal { $($class:ident => $f:expr),* } )*) => {
        $(
            fn $pick(e: ElemType) -> Option<UnFn> {
                None $( .or_else(|| for_class!(e, T, [$class] => unary::<T, _, _>($f))) )*
            }
            fn $rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
                rule(cx, $pick, &[$(stringify!($class)),*], $po)
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
    Abs [] abs_rule abs pred_out=false { sint => |x: T| x.wrapping_abs(), float => |x: T| Float::abs(x) }
    Neg [] neg_rule neg pred_out=false { int => |x: T| x.wrapping_neg(), float => |x: T| -x }
    Sign [] sign_rule sign pred_out=false { sint => |x: T| x.signum(), float => |x: T| fsign(x) }
    Not ["LogicalNot"] not_rule not pred_out=false { int => |x: T| !x, pred => |x: T| !x }
    Ceil [] ceil_rule ceil pred_out=false { float => |x: T| Float::ceil(x) }
    Floor [] floor_rule floor pred_out=false { float => |x: T| Float::floor(x) }
    RoundNearestAfz ["Round"] rafz_rule rafz pred_out=false { float => |x: T| Float::round(x) }
    RoundNearestEven [] rne_rule rne pred_out=false { float => |x: T| round_even(x) }
    Exp [] exp_rule exp pred_out=false { float => |x: T| Float::exp(x) }
    Expm1 [] expm1_rule expm1 pred_out=false { float => |x: T| Float::exp_m1(x) }
    Log [] log_rule log pred_out=false { float => |x: T| Float::ln(x) }
    Log1p [] log1p_rule log1p pred_out=false { float => |x: T| Float::ln_1p(x) }
    Logistic [] logistic_rule logistic_k pred_out=false { float => |x: T| logistic(x) }
    Sqrt [] sqrt_rule sqrt pred_out=false { float => |x: T| Float::sqrt(x) }
    Rsqrt [] rsqrt_rule rsqrt pred_out=false { float => |x: T| Float::sqrt(x).recip() }
    Cbrt [] cbrt_rule cbrt pred_out=false { float => |x: T| Float::cbrt(x) }
    Sin [] sin_rule sin pred_out=false { float => |x: T| Float::sin(x) }
    Cos [] cos_rule cos pred_out=false { float => |x: T| Float::cos(x) }
    Tan [] tan_rule tan pred_out=false { float => |x: T| Float::tan(x) }
    Tanh [] tanh_rule tanh pred_out=false { float => |x: T| x.tanh_elem() }
    Erf [] erf_rule erf pred_out=false { float => |x: T| x.erf_elem() }
    IsFinite [] isfinite_rule isfinite pred_out=true { float => |x: T| Float::is_finite(x) }
    PopulationCount ["Popcnt"] popcnt_rule popcnt pred_out=false { int => |x: T| x.count_ones() as T }
    Clz [] clz_rule clz pred_out=false { int => |x: T| x.leading_zeros() as T }
}
