//! The elementwise binary arithmetic and logic ops (spec/ops/binary.md):
//! Add Sub Mul Div Rem Max Min Pow Atan2 And Or Xor ShiftLeft
//! ShiftRightArithmetic ShiftRightLogical. Numbers follow spec/numerics.md.

use super::common::describe_classes;
use super::registry::{Checked, OpDef, OpId};
use super::small::{bit_op_widening, widened, widened_bits};
use crate::for_class;
use num_traits::Float;
use std::sync::Arc;
use xlet_check::broadcast::{BinaryShape, BroadcastDims, Side, binary_shape};
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::{ElemType, Type};
use xlet_kernels::complex as cx;
use xlet_kernels::fused::{ElementwiseFn, ElementwiseKernel, binary};
use xlet_kernels::math::{fmax, fmin};

type BinFn = Arc<dyn ElementwiseFn>;

const SPEC: &str = include_str!("../../../spec/ops/binary.md");

/// The checked operands of a binary elementwise op: constraints C1 to C6 of spec/ops/binary.md.
pub fn binary_operands(cx: &mut CallCtx) -> Result<(ElemType, BinaryShape), Diag> {
    let ops = cx.operands_alike(&[(0, "lhs"), (1, "rhs")], None)?;
    let (l, r) = (&ops[0], &ops[1]);
    let lt = cx.array(l, "C1", "lhs")?.clone();
    let rt = cx.array(r, "C1", "rhs")?.clone();
    if lt.elem != rt.elem {
        return Err(cx
            .err("C2", format!("operands have different element types: {} and {}", lt, rt), cx.span.clone())
            .with_label("element types differ")
            .with_secondary(l.span.clone(), format!("{lt}"))
            .with_secondary(r.span.clone(), format!("{rt}"))
            .with_help(format!(
                "XLA does not promote types: convert one side first, e.g. ConvertElementType({}, {})",
                cx.text(&r.span),
                lt.elem
            )));
    }
    let bdims = cx.int_list(Some(2), "broadcast_dimensions")?;
    let (ltext, rtext) = (cx.text(&l.span), cx.text(&r.span));
    let shape = binary_shape(
        cx.name(),
        &Side {
            ty: &lt,
            span: l.span.clone(),
            text: ltext,
        },
        &Side {
            ty: &rt,
            span: r.span.clone(),
            text: rtext,
        },
        bdims.as_ref().map(|b| BroadcastDims {
            dims: &b.value,
            span: b.span.clone(),
        }),
        &cx.span,
    )?;
    Ok((lt.elem, shape))
}

/// The whole rule of an arithmetic/logic op: operands, then C3 (element type allowed).
fn rule(
    cx: &mut CallCtx,
    pick: fn(ElemType) -> Option<BinFn>,
    classes: &[&str],
) -> Result<Checked, Diag> {
    let (elem, shape) = binary_operands(cx)?;
    // A small type computes in its compute type (spec/small_types.md §5); the
    // right shifts of the small integers read the pattern instead.
    let bits = bit_op_widening(cx.op.id, elem);
    let kernel_elem = bits.as_ref().map_or(elem.compute(), |b| b.1);
    let Some(f) = pick(kernel_elem) else {
        return Err(cx
            .err(
                "C3",
                format!("{} is not defined on {elem}", cx.name()),
                cx.span.clone(),
            )
            .with_label(format!("operands are {elem}"))
            .with_note(format!("{} takes {}", cx.name(), describe_classes(classes))));
    };
    Ok(Checked {
        ty: Type::array(elem, shape.out_dims.clone()),
        kernel: {
            let kernel = Arc::new(ElementwiseKernel {
                f,
                maps: vec![shape.lhs_map, shape.rhs_map],
                out_dims: shape.out_dims,
                out_elem: kernel_elem,
            });
            match bits {
                Some((modes, _, narrow)) => {
                    widened_bits(kernel, &[elem, elem], &modes, elem, narrow)
                }
                None => widened(kernel, &[elem, elem], elem),
            }
        },
    })
}

/// Integer power as XLA computes it: repeated squaring with wraparound; a negative
/// exponent gives 0 except for bases 1 and -1.
macro_rules! int_pow {
    ($T:ty, $x:expr, $y:expr, signed) => {{
        let (x, y): ($T, $T) = ($x, $y);
        if y < 0 {
            if x == 1 { 1 } else if x == -1 { if y % 2 == 0 { 1 } else { -1 } } else { 0 }
        } else {
            int_pow!(@sq $T, x, y)
        }
    }};
    ($T:ty, $x:expr, $y:expr, unsigned) => {{
        let (x, y): ($T, $T) = ($x, $y);
        int_pow!(@sq $T, x, y)
    }};
    (@sq $T:ty, $x:expr, $y:expr) => {{
        let (mut base, mut e, mut acc): ($T, $T, $T) = ($x, $y, 1);
        while e > 0 {
            if e & 1 == 1 {
                acc = acc.wrapping_mul(base);
            }
            base = base.wrapping_mul(base);
            e >>= 1;
        }
        acc
    }};
}

fn add(e: ElemType) -> Option<BinFn> {
    for_class!(e, T, [int] => binary::<T, T, _>(|x, y| x.wrapping_add(y)))
        .or_else(|| for_class!(e, T, [float] => binary::<T, T, _>(|x, y| x + y)))
        .or_else(|| for_class!(e, T, [pred] => binary::<T, T, _>(|x, y| x | y)))
        .or_else(|| for_class!(e, T, [complex] => binary::<T, T, _>(|x, y| x + y)))
}
fn sub(e: ElemType) -> Option<BinFn> {
    for_class!(e, T, [int] => binary::<T, T, _>(|x, y| x.wrapping_sub(y)))
        .or_else(|| for_class!(e, T, [float] => binary::<T, T, _>(|x, y| x - y)))
        .or_else(|| for_class!(e, T, [complex] => binary::<T, T, _>(|x, y| x - y)))
}
fn mul(e: ElemType) -> Option<BinFn> {
    for_class!(e, T, [int] => binary::<T, T, _>(|x, y| x.wrapping_mul(y)))
        .or_else(|| for_class!(e, T, [float] => binary::<T, T, _>(|x, y| x * y)))
        .or_else(|| for_class!(e, T, [pred] => binary::<T, T, _>(|x, y| x & y)))
        .or_else(|| for_class!(e, T, [complex] => binary::<T, T, _>(|x, y| x * y)))
}
fn div(e: ElemType) -> Option<BinFn> {
    // x/0 is -1 for signed and all ones for unsigned; MIN / -1 wraps to MIN.
    for_class!(e, T, [sint] => binary::<T, T, _>(|x, y| if y == 0 { -1 } else { x.wrapping_div(y) }))
        .or_else(|| for_class!(e, T, [uint] => binary::<T, T, _>(|x, y| if y == 0 { T::MAX } else { x / y })))
        .or_else(|| for_class!(e, T, [float] => binary::<T, T, _>(|x, y| x / y)))
        .or_else(|| for_class!(e, T, [complex] => binary::<T, T, _>(|x, y| x / y)))
}
fn rem(e: ElemType) -> Option<BinFn> {
    // x%0 is x; MIN % -1 is 0; the sign follows the dividend (fmod for floats).
    for_class!(e, T, [int] => binary::<T, T, _>(|x, y| if y == 0 { x } else { x.wrapping_rem(y) }))
        .or_else(|| for_class!(e, T, [float] => binary::<T, T, _>(|x, y| x % y)))
}
fn max(e: ElemType) -> Option<BinFn> {
    for_class!(e, T, [int] => binary::<T, T, _>(|x, y| x.max(y)))
        .or_else(|| for_class!(e, T, [float] => binary::<T, T, _>(fmax)))
        .or_else(|| for_class!(e, T, [pred] => binary::<T, T, _>(|x, y| x | y)))
        .or_else(|| for_class!(e, T, [complex] => binary::<T, T, _>(cx::max)))
}
fn min(e: ElemType) -> Option<BinFn> {
    for_class!(e, T, [int] => binary::<T, T, _>(|x, y| x.min(y)))
        .or_else(|| for_class!(e, T, [float] => binary::<T, T, _>(fmin)))
        .or_else(|| for_class!(e, T, [pred] => binary::<T, T, _>(|x, y| x & y)))
        .or_else(|| for_class!(e, T, [complex] => binary::<T, T, _>(cx::min)))
}
fn pow(e: ElemType) -> Option<BinFn> {
    for_class!(e, T, [sint] => binary::<T, T, _>(|x, y| int_pow!(T, x, y, signed)))
        .or_else(
            || for_class!(e, T, [uint] => binary::<T, T, _>(|x, y| int_pow!(T, x, y, unsigned))),
        )
        .or_else(|| for_class!(e, T, [float] => binary::<T, T, _>(|x, y| Float::powf(x, y))))
        .or_else(|| for_class!(e, T, [complex] => binary::<T, T, _>(cx::pow)))
}
fn atan2(e: ElemType) -> Option<BinFn> {
    for_class!(e, T, [float] => binary::<T, T, _>(|x, y| Float::atan2(x, y)))
}
fn and(e: ElemType) -> Option<BinFn> {
    for_class!(e, T, [int, pred] => binary::<T, T, _>(|x, y| x & y))
}
fn or(e: ElemType) -> Option<BinFn> {
    for_class!(e, T, [int, pred] => binary::<T, T, _>(|x, y| x | y))
}
fn xor(e: ElemType) -> Option<BinFn> {
    for_class!(e, T, [int, pred] => binary::<T, T, _>(|x, y| x ^ y))
}
// Shift amounts are read as unsigned: any amount >= the bit width (negative ones included)
// shifts everything out.
fn shift_left(e: ElemType) -> Option<BinFn> {
    for_class!(e, T, [int] => binary::<T, T, _>(|x: T, y: T| {
        let bits = T::BITS as u64;
        if (y as u64) >= bits { 0 } else { ((x as u64) << (y as u64)) as T }
    }))
}
fn shift_right_logical(e: ElemType) -> Option<BinFn> {
    for_class!(e, T, [int] => binary::<T, T, _>(|x: T, y: T| {
        let bits = T::BITS as u64;
        let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
        if (y as u64) >= bits { 0 } else { (((x as u64) & mask) >> (y as u64)) as T }
    }))
}
fn shift_right_arithmetic(e: ElemType) -> Option<BinFn> {
    for_class!(e, T, [int] => binary::<T, T, _>(|x: T, y: T| {
        // Sign-extend the bit pattern (unsigned types too), then shift by at most width-1.
        let bits = T::BITS as u64;
        let wide = (((x as u64) << (64 - bits)) as i64) >> (64 - bits);
        let amount = if (y as u64) >= bits { bits - 1 } else { y as u64 };
        (wide >> amount) as T
    }))
}

macro_rules! binary_ops {
    ($( $name:ident [$($alias:literal),*] => $pick:ident, $rule:ident, [$($class:literal),*]; )*) => {
        $( fn $rule(cx: &mut CallCtx) -> Result<Checked, Diag> { rule(cx, $pick, &[$($class),*]) } )*
        pub const OPS: &[OpDef] = &[
            $( OpDef {
                id: OpId::$name,
                aliases: &[$($alias),*],
                signature: concat!(stringify!($name), "(lhs, rhs[, broadcast_dimensions={...}])"),
                spec: SPEC,
                rule: $rule,
            }, )*
        ];
    };
}

binary_ops! {
    Add [] => add, add_rule, ["int", "float", "pred", "complex"];
    Sub [] => sub, sub_rule, ["int", "float", "complex"];
    Mul [] => mul, mul_rule, ["int", "float", "pred", "complex"];
    Div [] => div, div_rule, ["int", "float", "complex"];
    Rem [] => rem, rem_rule, ["int", "float"];
    Max [] => max, max_rule, ["int", "float", "pred", "complex"];
    Min [] => min, min_rule, ["int", "float", "pred", "complex"];
    Pow [] => pow, pow_rule, ["int", "float", "complex"];
    Atan2 [] => atan2, atan2_rule, ["float"];
    And ["LogicalAnd"] => and, and_rule, ["int", "pred"];
    Or ["LogicalOr"] => or, or_rule, ["int", "pred"];
    Xor ["LogicalXor"] => xor, xor_rule, ["int", "pred"];
    ShiftLeft [] => shift_left, shl_rule, ["int"];
    ShiftRightArithmetic [] => shift_right_arithmetic, sra_rule, ["int"];
    ShiftRightLogical [] => shift_right_logical, srl_rule, ["int"];
}
