//! StableHLO's check ops as xlet assertions (spec/import.md §8):
//! `check.expect_eq` is `then a == b`; `expect_almost_eq` and `expect_close`
//! are `then a ~= b within T`.

use super::{Body, Cx, custom_call_target};
use crate::error::{ImportError, Result};
use crate::mlir::attr::Attr;
use crate::mlir::op::Op;
use xlet_core::types::{ElemType, Type};

pub fn emit(cx: &mut Cx, op: &Op, body: &mut Body) -> Result<()> {
    if !body.top {
        return Err(ImportError::unsupported(
            op.span.clone(),
            format!(
                "`{}` inside a region or a called function (xlet's assertions are top-level)",
                op.name
            ),
        ));
    }
    let kind = match custom_call_target(op).filter(|_| op.name == "stablehlo.custom_call") {
        Some(t) => t.trim_start_matches("check.").to_string(),
        None => op.name.trim_start_matches("check.").to_string(),
    };
    let actual = cx.value(op.operands.first().ok_or_else(|| {
        ImportError::at(op.span.clone(), format!("`{}` needs an operand", op.name))
    })?)?;
    let expected = if kind.ends_with("_const") {
        let (text, ty, span) = match op.attr("value") {
            Some(Attr::Dense { body, ty, span }) => (body, ty, span),
            _ => {
                return Err(ImportError::at(
                    op.span.clone(),
                    format!("`{}` needs a dense<...> value", op.name),
                ));
            }
        };
        let ty = ty
            .clone()
            .or_else(|| op.out_types.first().cloned())
            .or_else(|| cx.value_type(&op.operands[0]));
        match ty {
            Some(Type::Array(a)) => cx.constant(text, &a, span.clone(), "expected")?,
            _ => {
                return Err(ImportError::at(
                    span.clone(),
                    "the expected value's type is not written".into(),
                ));
            }
        }
    } else {
        let u = op.operands.get(1).ok_or_else(|| {
            ImportError::at(
                op.span.clone(),
                format!("`{}` needs the expected value", op.name),
            )
        })?;
        cx.value(u)?
    };
    let elem = cx
        .value_type(&op.operands[0])
        .and_then(|t| t.as_array().map(|a| a.elem));
    // `~=` is defined on f16 and wider; the small floats compare as f32 (exact).
    let (actual, expected) = match elem {
        Some(ElemType::Small(t))
            if t.is_float() && (kind.contains("almost") || kind.contains("close")) =>
        {
            (
                format!("ConvertElementType({actual}, f32)"),
                format!("ConvertElementType({expected}, f32)"),
            )
        }
        _ => (actual, expected),
    };
    let text = match kind.trim_end_matches("_const") {
        "expect_eq" | "eq" => format!("then {actual} == {expected}"),
        "expect_almost_eq" | "almost_eq" => {
            let tol = op.attr("tolerance").and_then(|a| match a {
                Attr::Float(f) => Some(*f),
                Attr::Int(i) => Some(*i as f64),
                _ => None,
            });
            format!("then {actual} ~= {expected} within {}", tol.unwrap_or(1e-4))
        }
        "expect_close" | "close" => {
            let ulps = op
                .attr("max_ulp_difference")
                .and_then(Attr::int)
                .unwrap_or(3)
                .max(1) as f64;
            format!("then {actual} ~= {expected} within {:e}", ulps * ulp(elem))
        }
        "expect_serialized_eq" => return Ok(()),
        other => {
            return Err(ImportError::unsupported(
                op.span.clone(),
                format!("the check `{other}`"),
            ));
        }
    };
    cx.line(body, text, op.span.clone(), None);
    Ok(())
}

/// The spacing of floats just above 1 in `elem`: the tolerance of one ulp,
/// relative (xlet's `~=` is relative plus the same absolute part).
fn ulp(elem: Option<ElemType>) -> f64 {
    let mantissa = match elem {
        Some(ElemType::F16) => 10,
        Some(ElemType::BF16) => 7,
        Some(ElemType::F64 | ElemType::C128) => 52,
        Some(ElemType::Small(s)) if s.is_float() => 2,
        _ => 23,
    };
    (2f64).powi(-mantissa)
}
