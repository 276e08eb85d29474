//! Turning the numbers a user wrote into elements of a given type, exactly.

use super::{Array, CastFrom, Elem};
use crate::types::{ElemType, SmallType};
use half::{bf16, f16};
use ndarray::{ArrayD, IxDyn};

/// One literal element as written: sign folded in, text kept for exact parsing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Atom<'a> {
    Num {
        text: &'a str,
        is_integer: bool,
        negative: bool,
    },
    Bool(bool),
    /// `(re, im)`: a complex element, each part a number.
    Complex(Part<'a>, Part<'a>),
}

/// One part of a complex element, as written.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Part<'a> {
    pub text: &'a str,
    pub is_integer: bool,
    pub negative: bool,
}

impl<'a> Part<'a> {
    fn atom(self) -> Atom<'a> {
        Atom::Num {
            text: self.text,
            is_integer: self.is_integer,
            negative: self.negative,
        }
    }
}

/// Zero, the imaginary part of a real number written in a complex literal.
const ZERO: Atom<'static> = Atom::Num {
    text: "0",
    is_integer: true,
    negative: false,
};

impl Atom<'_> {
    /// The value of an integer literal that fits in 64 bits (magnitude and sign
    /// read apart, as static attributes are; `-9223372036854775808` is
    /// i64::MIN); None for anything else.
    pub fn integer(&self) -> Option<i64> {
        match self {
            Atom::Num {
                text,
                is_integer: true,
                negative,
            } => signed_i64(text, *negative),
            _ => None,
        }
    }
    /// Whether the atom is an integer literal (whether or not it fits in 64 bits).
    pub fn is_integer_text(&self) -> bool {
        matches!(
            self,
            Atom::Num {
                is_integer: true,
                ..
            }
        )
    }
    pub fn is_float_text(&self) -> bool {
        matches!(
            self,
            Atom::Num {
                is_integer: false,
                ..
            }
        )
    }
}

/// The integer whose magnitude is written `text` (decimal digits) and whose
/// sign is `negative`, if it is in i64's range. The magnitude is read as i128
/// so that `-9223372036854775808` (i64::MIN, whose magnitude is not an i64) is
/// read exactly.
pub fn signed_i64(text: &str, negative: bool) -> Option<i64> {
    let m = text.parse::<i128>().ok()?;
    i64::try_from(if negative { -m } else { m }).ok()
}

/// The range of an integer element type.
pub fn int_bounds(elem: ElemType) -> Option<(i128, i128)> {
    Some(match elem {
        ElemType::S8 => (i8::MIN as i128, i8::MAX as i128),
        ElemType::S16 => (i16::MIN as i128, i16::MAX as i128),
        ElemType::S32 => (i32::MIN as i128, i32::MAX as i128),
        ElemType::S64 => (i64::MIN as i128, i64::MAX as i128),
        ElemType::U8 => (0, u8::MAX as i128),
        ElemType::U16 => (0, u16::MAX as i128),
        ElemType::U32 => (0, u32::MAX as i128),
        ElemType::U64 => (0, u64::MAX as i128),
        _ => return None,
    })
}

fn shown(atom: &Atom) -> String {
    match atom {
        Atom::Num {
            text,
            negative: true,
            ..
        } => format!("-{text}"),
        Atom::Num { text, .. } => text.to_string(),
        Atom::Bool(b) => b.to_string(),
        Atom::Complex(re, im) => format!("({}, {})", shown(&re.atom()), shown(&im.atom())),
    }
}

/// Whether the literal is the word `inf` (possibly negated), the one way to write infinity.
fn written_inf(atom: &Atom) -> bool {
    matches!(atom, Atom::Num { text, .. } if *text == "inf")
}

/// The largest finite value of a float type, as printed.
fn largest_finite(elem: ElemType) -> &'static str {
    match elem {
        ElemType::F16 => "65504",
        ElemType::BF16 => "3.3895314e38",
        ElemType::F32 => "3.4028235e38",
        _ => "1.7976931348623157e308",
    }
}

/// Converts one atom to element type `elem`, exactly: integers through i128, floats
/// parsed from the text once (f32 and f64 straight to the type, so they round once;
/// f16 and bf16 from the f64). Messages are only formatted on failure: this runs
/// once per element of a pasted weight array.
fn convert<T: Elem>(atom: Atom, elem: ElemType) -> Result<T, String> {
    if elem.is_complex() {
        return convert_complex(atom, elem);
    }
    let (text, is_integer, negative) = match atom {
        Atom::Bool(b) => {
            return if elem.is_pred() {
                Ok(T::cast_from(b))
            } else {
                Err(format!(
                    "`{b}` is not {} value",
                    crate::english::a(elem.name())
                ))
            };
        }
        Atom::Num {
            text,
            is_integer,
            negative,
        } => (text, is_integer, negative),
        Atom::Complex(..) => {
            return Err(format!(
                "`{}` is a complex number, so it is not {} value (c64 and c128 hold complex numbers)",
                shown(&atom),
                crate::english::a(elem.name())
            ));
        }
    };
    if elem.is_pred() {
        return Err(format!(
            "`{}` is not a pred value (write true or false)",
            shown(&atom)
        ));
    }
    if let Some((lo, hi)) = int_bounds(elem) {
        if !is_integer {
            return Err(format!(
                "`{}` is not an integer, so it is not {} value",
                shown(&atom),
                crate::english::a(elem.name())
            ));
        }
        let out_of_range = || {
            format!(
                "`{}` is out of range for {elem} ({lo} to {hi})",
                shown(&atom)
            )
        };
        let v: i128 = text.parse::<i128>().map_err(|_| out_of_range())?;
        let v = if negative { -v } else { v };
        if v < lo || v > hi {
            return Err(out_of_range());
        }
        return Ok(if elem.is_unsigned_int() {
            T::cast_from(v as u64)
        } else {
            T::cast_from(v as i64)
        });
    }
    let not_a_number = || format!("`{}` is not a number", shown(&atom));
    let v: T = if elem == ElemType::F32 {
        // Parsing straight to f32 rounds once; going through f64 could round twice.
        let f: f32 = text.parse().map_err(|_| not_a_number())?;
        T::cast_from(if negative { -f } else { f })
    } else {
        let f: f64 = text.parse().map_err(|_| not_a_number())?;
        let f = if negative { -f } else { f };
        match elem {
            ElemType::F16 => T::cast_from(f16::cast_from(f)),
            ElemType::BF16 => T::cast_from(bf16::cast_from(f)),
            _ => T::cast_from(f),
        }
    };
    // Any number but `inf` that rounds to infinity does not fit the type, whether
    // f64 can hold it (`f32 1e39`, `f16 70000`) or not (`f32 1e400`).
    if v.to_f64().is_infinite() && !written_inf(&atom) {
        return Err(format!(
            "`{}` is out of range for {elem} (its largest finite value is {}); write inf for infinity",
            shown(&atom),
            largest_finite(elem)
        ));
    }
    Ok(v)
}

/// A complex element: `(re, im)`, or a real number `x` meaning `(x, 0)`. Each
/// part is read as the component type (f32 for c64), so it rounds once.
fn convert_complex<T: Elem>(atom: Atom, elem: ElemType) -> Result<T, String> {
    let (re, im) = match atom {
        Atom::Complex(re, im) => (re.atom(), im.atom()),
        Atom::Num { .. } => (atom, ZERO),
        Atom::Bool(b) => {
            return Err(format!(
                "`{b}` is not {} value",
                crate::english::a(elem.name())
            ));
        }
    };
    if elem == ElemType::C64 {
        let (r, i) = (
            convert::<f32>(re, ElemType::F32)?,
            convert::<f32>(im, ElemType::F32)?,
        );
        Ok(T::cast_from(super::c64::new(r, i)))
    } else {
        let (r, i) = (
            convert::<f64>(re, ElemType::F64)?,
            convert::<f64>(im, ElemType::F64)?,
        );
        Ok(T::cast_from(super::c128::new(r, i)))
    }
}

/// One atom as a pattern of small type `t`. Integers read exactly and must fit;
/// floats are read as f64 and rounded to the format once more (f64 holds far
/// more than twice the digits of any small format, so the second rounding
/// agrees with rounding the decimal directly except within 2^-53 of a
/// midpoint). A number that rounds to no finite value is out of range; `inf`
/// and `nan` need a format that has them.
fn convert_small(atom: Atom, t: SmallType) -> Result<u8, String> {
    let elem = ElemType::Small(t);
    let (text, is_integer, negative) = match atom {
        Atom::Num {
            text,
            is_integer,
            negative,
        } => (text, is_integer, negative),
        _ => {
            return Err(format!(
                "`{}` is not {} value",
                shown(&atom),
                crate::english::a(elem.name())
            ));
        }
    };
    if let Some((lo, hi)) = t.int_bounds() {
        let out_of_range = || {
            format!(
                "`{}` is out of range for {elem} ({lo} to {hi})",
                shown(&atom)
            )
        };
        if !is_integer {
            return Err(format!(
                "`{}` is not an integer, so it is not {} value",
                shown(&atom),
                crate::english::a(elem.name())
            ));
        }
        let v: i128 = text.parse::<i128>().map_err(|_| out_of_range())?;
        let v = if negative { -v } else { v };
        if v < lo || v > hi {
            return Err(out_of_range());
        }
        return Ok(t.from_i64(v as i64));
    }
    let f: f64 = text
        .parse()
        .map_err(|_| format!("`{}` is not a number", shown(&atom)))?;
    let f = if negative { -f } else { f };
    let b = t.from_f64(f);
    let max = match t.largest_finite() {
        m if m < 1e6 => format!("{m}"),
        m => format!("{m:e}"),
    };
    if f.is_nan() {
        if !t.is_nan(b) {
            return Err(format!("{elem} has no NaN (its values are finite)"));
        }
    } else if written_inf(&atom) {
        if !t.is_inf(b) {
            return Err(format!(
                "{elem} has no infinity (its largest finite value is {max})"
            ));
        }
    } else if t.is_nan(b) || t.is_inf(b) {
        return Err(format!(
            "`{}` is out of range for {elem} (its largest finite value is {max})",
            shown(&atom)
        ));
    }
    Ok(b)
}

/// Builds an array of `elem` with `dims` from row-major atoms, converting each
/// straight into the (accounted) output buffer.
/// On failure returns the index of the offending atom and why.
pub fn build_array<'a, I>(
    elem: ElemType,
    dims: &[usize],
    atoms: I,
) -> Result<Array, (usize, String)>
where
    I: IntoIterator<Item = Atom<'a>>,
{
    fn build<'a, T: Elem>(
        elem: ElemType,
        dims: &[usize],
        atoms: impl Iterator<Item = Atom<'a>>,
    ) -> Result<Array, (usize, String)> {
        let ty = crate::types::ArrayType::new(elem, dims.to_vec());
        let count = dims.iter().product::<usize>();
        let mut out: Vec<T> =
            crate::alloc::try_output_vec(count, &ty).map_err(|e| (0, e.message))?;
        for (i, a) in atoms.enumerate() {
            out.push(convert::<T>(a, elem).map_err(|e| (i, e))?);
        }
        ArrayD::from_shape_vec(IxDyn(dims), out)
            .map(Array::from_nd)
            .map_err(|e| (0, format!("literal does not fill its shape: {e}")))
    }
    let atoms = atoms.into_iter();
    if let ElemType::Small(t) = elem {
        let ty = crate::types::ArrayType::new(elem, dims.to_vec());
        let count = dims.iter().product::<usize>();
        let mut out: Vec<u8> =
            crate::alloc::try_output_vec(count, &ty).map_err(|e| (0, e.message))?;
        for (i, a) in atoms.enumerate() {
            out.push(convert_small(a, t).map_err(|e| (i, e))?);
        }
        return ArrayD::from_shape_vec(IxDyn(dims), out)
            .map(|a| Array::Small(t, a.into_shared()))
            .map_err(|e| (0, format!("literal does not fill its shape: {e}")));
    }
    crate::with_elem_type!(elem, T => build::<T>(elem, dims, atoms))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(text: &str, negative: bool) -> [Atom<'_>; 1] {
        [Atom::Num {
            text,
            is_integer: !text.contains(['.', 'e']) && text != "inf",
            negative,
        }]
    }

    /// spec/numerics.md §4: a literal that does not fit its type is an error, whether
    /// f64 can represent it or not; only `inf` is infinite.
    #[test]
    fn float_literals_beyond_the_range_are_errors_by_one_rule() {
        for (elem, text) in [
            (ElemType::F16, "70000"),
            (ElemType::F16, "65520"),
            (ElemType::BF16, "1e39"),
            (ElemType::F32, "1e39"),
            (ElemType::F32, "1e400"),
            (ElemType::F64, "1e400"),
        ] {
            for negative in [false, true] {
                let e = build_array(elem, &[], num(text, negative)).unwrap_err();
                assert!(e.1.contains("out of range"), "{elem} {text}: {}", e.1);
            }
        }
        // In range after rounding, or written as inf: fine.
        assert!(build_array(ElemType::F16, &[], num("65519", false)).is_ok());
        assert!(build_array(ElemType::F32, &[], num("inf", true)).is_ok());
        assert!(build_array(ElemType::F32, &[], num("1e-50", false)).is_ok());
    }
}
