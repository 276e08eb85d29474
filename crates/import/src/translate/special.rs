//! The CHLO special functions written as comps of their own, one file each:
//! `bessel` (`bessel_i1e`), `zeta` (`zeta`, `polygamma`), `erf64` (`erf_inv`
//! and `erfc` on f64) and `complex_trig` (the inverse trigonometric and
//! hyperbolic ops on complex numbers). Tried before `gamma` and `chlo`, which
//! handle the rest of CHLO; the helpers here are what the four share.

use super::{Cx, Stmt};
use crate::error::{ImportError, Result};
use crate::mlir::op::Op;
use xlet_core::types::{ArrayType, ElemType};

/// The op as a call of a new comp; `None` when it is none of these (or, for
/// `erf_inv`/`erfc` and the inverse trig ops, not of the type handled here).
pub fn expr(cx: &mut Cx, op: &Op, short: &str, v: &[String]) -> Result<Option<String>> {
    match short {
        "bessel_i1e" => super::bessel::expr(cx, op, v).map(Some),
        "zeta" | "polygamma" => super::zeta::expr(cx, op, short, v).map(Some),
        "erf_inv" | "erfc" => super::erf64::expr(cx, op, short, v),
        "asin" | "acos" | "atan" | "asinh" | "acosh" | "atanh" => {
            super::complex_trig::expr(cx, op, short, v)
        }
        _ => Ok(None),
    }
}

/// The one operand, or the error naming the op.
pub fn one<'a>(op: &Op, v: &'a [String]) -> Result<&'a String> {
    match v {
        [x] => Ok(x),
        _ => Err(ImportError::at(
            op.span.clone(),
            format!("`{}` takes one operand", op.name),
        )),
    }
}

/// The type real-float CHLO functions compute in: f32 for f16, bf16 and f32
/// (as CHLO's legalisation upcasts), f64 for f64; other types refused.
pub fn real_compute(op: &Op, ty: &ArrayType) -> Result<ElemType> {
    match ty.elem {
        ElemType::F16 | ElemType::BF16 | ElemType::F32 => Ok(ElemType::F32),
        ElemType::F64 => Ok(ElemType::F64),
        e => Err(ImportError::unsupported(
            op.span.clone(),
            format!("`{}` on {e} (xlet composes it for real floats)", op.name),
        )),
    }
}

/// Defines `comp NAME(params) -> ret { body }` before the current statement
/// and returns NAME. `body` is `let` lines and the result expression.
pub fn define(
    cx: &mut Cx,
    op: &Op,
    base: &str,
    params: &[(&str, &ArrayType)],
    ret: &ArrayType,
    body: &str,
) -> String {
    let name = cx.fresh_comp(base);
    let params: Vec<String> = params.iter().map(|(n, t)| format!("{n}: {t}")).collect();
    let text = format!("comp {name}({}) -> {ret} {{\n{body}}}", params.join(", "));
    cx.push_stmt(Stmt {
        text,
        span: op.span.clone(),
        binds: None,
    });
    name
}

/// Horner's rule as CHLO writes it: `c[0]`, then `p * t + c[i]` (highest
/// power first).
pub fn horner(k: &dyn Fn(&str) -> String, t: &str, cs: &[&str]) -> String {
    let mut p = k(cs[0]);
    for c in &cs[1..] {
        p = format!("Add(Mul({p}, {t}), {})", k(c));
    }
    p
}

/// An f64 written so that it reads back exactly (Rust's shortest form).
pub fn lit(v: f64) -> String {
    format!("{v:e}")
}
