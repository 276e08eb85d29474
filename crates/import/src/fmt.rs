//! Writing imported numbers as xlet literals that read back to the same value.

use xlet_core::types::ElemType;

/// One element of a constant, before it is written.
#[derive(Clone, Copy, Debug)]
pub enum Scalar {
    Int(i128),
    Float(f64),
    Complex(f64, f64),
}

impl Scalar {
    pub fn float(self) -> f64 {
        match self {
            Scalar::Int(i) => i as f64,
            Scalar::Float(f) | Scalar::Complex(f, _) => f,
        }
    }
}

/// The element as xlet writes it for `elem`: `true`, `-3`, `1.5`, `1e-40`,
/// `inf`, `nan`, `(1, -2)`. Floats are written with the fewest digits that
/// read back to the same value of `elem` (of f32 for the narrower types,
/// whose values are all f32 values).
pub fn scalar_text(elem: ElemType, s: &Scalar) -> String {
    match *s {
        Scalar::Complex(re, im) => {
            let part = elem.component();
            format!("({}, {})", float_text(part, re), float_text(part, im))
        }
        Scalar::Int(i) if elem.is_pred() => (if i != 0 { "true" } else { "false" }).to_string(),
        Scalar::Int(i) if is_integral(elem) => i.to_string(),
        Scalar::Float(f) if is_integral(elem) => (f as i128).to_string(),
        s => float_text(elem, s.float()),
    }
}

fn is_integral(elem: ElemType) -> bool {
    elem.is_pred() || elem.is_int() || elem.small().is_some_and(|s| s.is_int())
}

pub fn float_text(elem: ElemType, v: f64) -> String {
    if v.is_nan() {
        // The sign is kept (total order puts -nan below -inf); the payload is not.
        return if v.is_sign_negative() { "-nan" } else { "nan" }.into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "inf" } else { "-inf" }.into();
    }
    if elem == ElemType::F64 {
        short(v)
    } else {
        short(v as f32)
    }
}

/// Rust's shortest round-trip digits, in plain form for moderate magnitudes.
fn short<T: std::fmt::Display + std::fmt::LowerExp + Into<f64> + Copy>(v: T) -> String {
    let a = v.into().abs();
    if a == 0.0 || (1e-5..1e16).contains(&a) {
        format!("{v}")
    } else {
        format!("{v:e}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_back() {
        assert_eq!(
            scalar_text(ElemType::F32, &Scalar::Float(0.1f32 as f64)),
            "0.1"
        );
        assert_eq!(scalar_text(ElemType::F64, &Scalar::Float(1e-300)), "1e-300");
        assert_eq!(scalar_text(ElemType::F32, &Scalar::Float(-0.0)), "-0");
        assert_eq!(scalar_text(ElemType::Pred, &Scalar::Int(1)), "true");
        assert_eq!(
            scalar_text(ElemType::C64, &Scalar::Complex(1.0, -2.5)),
            "(1, -2.5)"
        );
        assert_eq!(scalar_text(ElemType::F32, &Scalar::Float(f64::NAN)), "nan");
    }
}
