//! Elementwise comparisons Eq Ne Lt Le Gt Ge (spec/ops/compare.md): the binary
//! broadcasting rules, a pred result, and an optional comparison `type`.

use super::binary::binary_operands;
use super::registry::{Checked, OpDef, OpId};
use super::small::widened;
use crate::for_class;
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::{ElemType, Type};
use xlet_kernels::complex as cx;
use xlet_kernels::fused::{ElementwiseFn, ElementwiseKernel, binary};

type BinFn = Arc<dyn ElementwiseFn>;

const SPEC: &str = include_str!("../../../spec/ops/compare.md");

#[derive(Copy, Clone, PartialEq)]
enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// The key that orders floats totally: -NaN < -inf < ... < -0 < +0 < ... < inf < NaN.
macro_rules! total_key {
    ($x:expr, $I:ty) => {{
        let b = $x.to_bits() as $I;
        b ^ ((((b >> (<$I>::BITS - 1)) as <$I as SignedBits>::U) >> 1) as $I)
    }};
}
trait SignedBits {
    type U;
}
impl SignedBits for i16 {
    type U = u16;
}
impl SignedBits for i32 {
    type U = u32;
}
impl SignedBits for i64 {
    type U = u64;
}

/// The kernel for comparison `c` on `elem` with IEEE (partial) order.
fn partial(c: Cmp, e: ElemType) -> Option<BinFn> {
    macro_rules! pick {
        ($T:ident) => {
            match c {
                Cmp::Eq => binary::<$T, bool, _>(|x, y| x == y),
                Cmp::Ne => binary::<$T, bool, _>(|x, y| x != y),
                Cmp::Lt => binary::<$T, bool, _>(|x, y| x < y),
                Cmp::Le => binary::<$T, bool, _>(|x, y| x <= y),
                Cmp::Gt => binary::<$T, bool, _>(|x, y| x > y),
                Cmp::Ge => binary::<$T, bool, _>(|x, y| x >= y),
            }
        };
    }
    for_class!(e, T, [int, float, pred] => pick!(T)).or_else(|| {
        // Complex: Eq and Ne on both parts; the ordered ones lexicographic on
        // (real, imaginary), as XLA:CPU compares (spec/ops/compare.md).
        for_class!(e, T, [complex] => match c {
            Cmp::Eq => binary::<T, bool, _>(|x, y| x == y),
            Cmp::Ne => binary::<T, bool, _>(|x, y| x != y),
            Cmp::Lt => binary::<T, bool, _>(cx::lt),
            Cmp::Le => binary::<T, bool, _>(cx::le),
            Cmp::Gt => binary::<T, bool, _>(|x, y| cx::lt(y, x)),
            Cmp::Ge => binary::<T, bool, _>(|x, y| cx::le(y, x)),
        })
    })
}

/// The kernel for comparison `c` on floats under TOTALORDER.
fn total(c: Cmp, e: ElemType) -> Option<BinFn> {
    macro_rules! pick {
        ($T:ty, $I:ty) => {
            match c {
                Cmp::Eq => binary::<$T, bool, _>(|x, y| total_key!(x, $I) == total_key!(y, $I)),
                Cmp::Ne => binary::<$T, bool, _>(|x, y| total_key!(x, $I) != total_key!(y, $I)),
                Cmp::Lt => binary::<$T, bool, _>(|x, y| total_key!(x, $I) < total_key!(y, $I)),
                Cmp::Le => binary::<$T, bool, _>(|x, y| total_key!(x, $I) <= total_key!(y, $I)),
                Cmp::Gt => binary::<$T, bool, _>(|x, y| total_key!(x, $I) > total_key!(y, $I)),
                Cmp::Ge => binary::<$T, bool, _>(|x, y| total_key!(x, $I) >= total_key!(y, $I)),
            }
        };
    }
    Some(match e {
        ElemType::F16 => pick!(half::f16, i16),
        ElemType::BF16 => pick!(half::bf16, i16),
        ElemType::F32 => pick!(f32, i32),
        ElemType::F64 => pick!(f64, i64),
        _ => return None,
    })
}

fn rule(cx: &mut CallCtx, c: Cmp) -> Result<Checked, Diag> {
    let (elem, shape) = binary_operands(cx)?;
    let kind = cx.keyword(None, "type", &["FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"])?;
    // A small type compares in its compute type (spec/small_types.md §5).
    let ce = elem.compute();
    let fits = match kind.as_ref().map(|k| k.value) {
        None => true,
        Some("FLOAT") => ce.is_float() || ce.is_complex(),
        Some("TOTALORDER") => ce.is_float(),
        Some("SIGNED") => ce.is_signed_int(),
        Some(_) => ce.is_unsigned_int() || ce.is_pred(),
    };
    if let (false, Some(k)) = (fits, &kind) {
        return Err(cx
            .err("C7", format!("comparison type {} does not fit operands of type {elem}", k.value), k.span.clone())
            .with_label(format!("not for {elem}"))
            .with_note("FLOAT is for floats and complex numbers, TOTALORDER for floats, SIGNED for s8..s64, UNSIGNED for u8..u64 and pred"));
    }
    let f = match kind.map(|k| k.value) {
        Some("TOTALORDER") => total(c, ce),
        _ => partial(c, ce),
    };
    let f = f.ok_or_else(|| {
        cx.err(
            "C3",
            format!("{} is not defined on {elem}", cx.name()),
            cx.span.clone(),
        )
    })?;
    Ok(Checked {
        ty: Type::array(ElemType::Pred, shape.out_dims.clone()),
        kernel: widened(
            Arc::new(ElementwiseKernel {
                f,
                maps: vec![shape.lhs_map, shape.rhs_map],
                out_dims: shape.out_dims,
                out_elem: ElemType::Pred,
            }),
            &[elem, elem],
            ElemType::Pred,
        ),
    })
}

macro_rules! compare_ops {
    ($( $c:ident, $rule:ident; )*) => {
        $( fn $rule(cx: &mut CallCtx) -> Result<Checked, Diag> { rule(cx, Cmp::$c) } )*
        pub const OPS: &[OpDef] = &[
            $( OpDef {
                id: OpId::$c,
                aliases: &[],
                signature: concat!(stringify!($c), "(lhs, rhs[, broadcast_dimensions={...}][, type=FLOAT|TOTALORDER|SIGNED|UNSIGNED])"),
                spec: SPEC,
                rule: $rule,
            }, )*
        ];
    };
}

compare_ops! {
    Eq, eq_rule;
    Ne, ne_rule;
    Lt, lt_rule;
    Le, le_rule;
    Gt, gt_rule;
    Ge, ge_rule;
}
