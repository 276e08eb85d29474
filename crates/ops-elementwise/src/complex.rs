//! The complex-number ops (spec/ops/complex.md): `Complex(re, im)` builds
//! complex numbers from two real arrays (with the binary ops' broadcasting),
//! `Real(x)` and `Imag(x)` take them apart.

use super::binary::binary_operands;
use super::registry::{Checked, OpDef, OpId};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::{ElemType, Type};
use xlet_core::value::{c64, c128};
use xlet_kernels::fused::{ElementwiseFn, ElementwiseKernel, binary, unary};

const SPEC: &str = include_str!("../../../spec/ops/complex.md");

/// `Complex(lhs, rhs)`: C1-C2 as the binary ops (arrays of one element type,
/// broadcast alike), C3 that type is f32 or f64.
fn complex_rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let (elem, shape) = binary_operands(cx)?;
    let (f, out): (Arc<dyn ElementwiseFn>, ElemType) = match elem {
        ElemType::F32 => (binary::<f32, c64, _>(c64::new), ElemType::C64),
        ElemType::F64 => (binary::<f64, c128, _>(c128::new), ElemType::C128),
        other => {
            return Err(cx
                .err("C3", format!("Complex is not defined on {other}"), cx.span.clone())
                .with_label(format!("operands are {other}"))
                .with_note("Complex takes f32 parts (giving c64) or f64 parts (giving c128)")
                .with_help(format!(
                    "convert the parts first, e.g. Complex(ConvertElementType(re, f32), ConvertElementType(im, f32)); {other} is not a component type"
                )));
        }
    };
    Ok(Checked {
        ty: Type::array(out, shape.out_dims.clone()),
        kernel: Arc::new(ElementwiseKernel {
            f,
            maps: vec![shape.lhs_map, shape.rhs_map],
            out_dims: shape.out_dims,
            out_elem: out,
        }),
    })
}

/// Which part `Real` and `Imag` take.
#[derive(Clone, Copy, PartialEq)]
enum Part {
    Re,
    Im,
}

/// `Real(x)` / `Imag(x)`: C1 `x` is an array, C2 of a float or complex type.
/// On a real type, Real is the identity and Imag is zero (as StableHLO says).
fn part_rule(cx: &mut CallCtx, part: Part) -> Result<Checked, Diag> {
    let e = cx.require(Some(0), "operand")?;
    let o = cx.push_operand(e, Some(ElemType::F32))?;
    let t = cx.array(&o, "C1", "operand")?.clone();
    macro_rules! real {
        ($T:ty) => {
            match part {
                Part::Re => unary::<$T, $T, _>(|x: $T| x),
                // A zero of the operand's own type (+0, as XLA gives).
                Part::Im => unary::<$T, $T, _>(|_: $T| <$T>::default()),
            }
        };
    }
    let f: Arc<dyn ElementwiseFn> = match (t.elem, part) {
        (ElemType::C64, Part::Re) => unary::<c64, f32, _>(|z: c64| z.re),
        (ElemType::C64, Part::Im) => unary::<c64, f32, _>(|z: c64| z.im),
        (ElemType::C128, Part::Re) => unary::<c128, f64, _>(|z: c128| z.re),
        (ElemType::C128, Part::Im) => unary::<c128, f64, _>(|z: c128| z.im),
        (ElemType::F16, _) => real!(half::f16),
        (ElemType::BF16, _) => real!(half::bf16),
        (ElemType::F32, _) => real!(f32),
        (ElemType::F64, _) => real!(f64),
        (other, _) => {
            return Err(cx
                .err(
                    "C2",
                    format!("{} is not defined on {other}", cx.name()),
                    o.span.clone(),
                )
                .with_label(format!("this is {t}"))
                .with_note(format!(
                    "{} takes complex numbers (c64, c128) or floats (f16, bf16, f32, f64)",
                    cx.name()
                )));
        }
    };
    let out = t.elem.component();
    Ok(Checked {
        ty: Type::array(out, t.dims.clone()),
        kernel: Arc::new(ElementwiseKernel {
            f,
            maps: vec![(0..t.rank()).collect()],
            out_dims: t.dims.clone(),
            out_elem: out,
        }),
    })
}

fn real_rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    part_rule(cx, Part::Re)
}

fn imag_rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    part_rule(cx, Part::Im)
}

pub const OPS: &[OpDef] = &[
    OpDef {
        id: OpId::Complex,
        aliases: &[],
        signature: "Complex(lhs, rhs[, broadcast_dimensions={...}])",
        spec: SPEC,
        rule: complex_rule,
    },
    OpDef {
        id: OpId::Real,
        aliases: &[],
        signature: "Real(operand)",
        spec: SPEC,
        rule: real_rule,
    },
    OpDef {
        id: OpId::Imag,
        aliases: &[],
        signature: "Imag(operand)",
        spec: SPEC,
        rule: imag_rule,
    },
];
