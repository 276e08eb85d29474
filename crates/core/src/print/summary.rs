//! Summary lines (spec/printing.md §6): an array in one line without its
//! elements, `f32[1000x1000] summary: min -4.87, max 4.92, mean 0.00103, nan 0`.
//! One pass over the elements, reading them where they are (no copy).

use super::{FormatElem, fmt_small_with};
use crate::small::SmallType;
use crate::value::{Array, Nd, Value};
use crate::with_array;

/// The summary lines of a value: one for an array, one per element of a
/// tuple (`[i] ` in front, nested tuples by their path).
pub fn lines(v: &Value, precision: Option<u32>) -> Vec<String> {
    fn walk(v: &Value, path: &str, precision: Option<u32>, out: &mut Vec<String>) {
        match v {
            Value::Array(a) if path.is_empty() => out.push(line(a, precision)),
            Value::Array(a) => out.push(format!("{path} {}", line(a, precision))),
            Value::Tuple(items) => {
                if items.is_empty() {
                    out.push(format!("{path} () (empty tuple)").trim_start().to_string());
                }
                for (i, item) in items.iter().enumerate() {
                    walk(item, &format!("{path}[{i}]"), precision, out);
                }
            }
        }
    }
    let mut out = vec![];
    walk(v, "", precision, &mut out);
    out
}

/// The summary line of an array.
pub fn line(a: &Array, precision: Option<u32>) -> String {
    let small = a.elem().small();
    let body = with_array!(a, x => stats(x, small, precision));
    let t = a.array_type();
    // A scalar's type is its element type, as values print (`s32 5`).
    let head = if t.dims.is_empty() {
        t.elem.to_string()
    } else {
        t.to_string()
    };
    format!("{head} summary: {body}")
}

/// What kind of numbers the elements are.
#[derive(PartialEq)]
enum Kind {
    Pred,
    Int,
    Float,
    Complex,
}

fn stats<T: FormatElem>(x: &Nd<T>, small: Option<SmallType>, precision: Option<u32>) -> String {
    if x.is_empty() {
        return "empty".into();
    }
    let kind = match (small, T::TYPE) {
        (Some(t), _) if t.is_float() => Kind::Float,
        (Some(_), _) => Kind::Int,
        (None, crate::types::ElemType::Pred) => Kind::Pred,
        (None, t) if t.is_complex() => Kind::Complex,
        (None, t) if t.is_float() => Kind::Float,
        _ => Kind::Int,
    };
    // A small type's byte as its value; any other element as its parts.
    let parts = |v: T| -> (f64, f64) {
        match (small, v.byte()) {
            (Some(t), Some(b)) if t.is_float() => (t.to_f64(b), 0.0),
            (Some(t), Some(b)) => (t.to_i64(b) as f64, 0.0),
            _ => v.parts(),
        }
    };
    let show = |v: T| match (small, v.byte()) {
        (Some(t), Some(b)) => fmt_small_with(t, b, precision),
        _ => v.fmt_with(precision),
    };
    let num = |f: f64| f.fmt_with(precision);
    if kind == Kind::Pred {
        let t = x.iter().filter(|v| parts(**v).0 != 0.0).count();
        return format!("true {t}, false {}", x.len() - t);
    }
    let mut nan = 0usize;
    let mut count = 0usize;
    let (mut sum_re, mut sum_im) = (0.0f64, 0.0f64);
    // The least and greatest element by value (by |x| for complex).
    let mut lo: Option<(f64, T)> = None;
    let mut hi: Option<(f64, T)> = None;
    for &v in x.iter() {
        let (re, im) = parts(v);
        if re.is_nan() || im.is_nan() {
            nan += 1;
            continue;
        }
        count += 1;
        sum_re += re;
        sum_im += im;
        let key = if kind == Kind::Complex {
            re.hypot(im)
        } else {
            re
        };
        if lo.is_none_or(|(k, _)| key < k) {
            lo = Some((key, v));
        }
        if hi.is_none_or(|(k, _)| key > k) {
            hi = Some((key, v));
        }
    }
    let n = count as f64;
    match kind {
        Kind::Complex => {
            let (min, max, mean) = match (lo, hi) {
                (Some((l, _)), Some((h, _))) => (
                    num(l),
                    num(h),
                    format!("({}, {})", num(sum_re / n), num(sum_im / n)),
                ),
                _ => ("nan".into(), "nan".into(), "(nan, nan)".into()),
            };
            format!("min |x| {min}, max |x| {max}, mean {mean}, nan {nan}")
        }
        _ => {
            let (min, max, mean) = match (lo, hi) {
                (Some((_, l)), Some((_, h))) => (show(l), show(h), num(sum_re / n)),
                _ => ("nan".into(), "nan".into(), "nan".into()),
            };
            if kind == Kind::Float {
                format!("min {min}, max {max}, mean {mean}, nan {nan}")
            } else {
                format!("min {min}, max {max}, mean {mean}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{ArrayD, IxDyn};

    fn arr<T: crate::value::Elem>(v: Vec<T>) -> Array {
        let n = v.len();
        Array::from_nd(ArrayD::from_shape_vec(IxDyn(&[n]), v).unwrap())
    }

    #[test]
    fn lines_by_kind() {
        assert_eq!(
            line(&arr(vec![1.0f32, f32::NAN, -3.5, 4.0]), None),
            "f32[4] summary: min -3.5, max 4, mean 0.5, nan 1"
        );
        assert_eq!(
            line(&arr(vec![1.0f32, f32::NAN, -3.25, 4.0]), Some(2)),
            "f32[4] summary: min -3.2, max 4, mean 0.58, nan 1"
        );
        assert_eq!(
            line(&arr(vec![0i32, 9, 4]), None),
            "s32[3] summary: min 0, max 9, mean 4.333333333333333"
        );
        assert_eq!(
            line(&arr(vec![true, false, true]), None),
            "pred[3] summary: true 2, false 1"
        );
        assert_eq!(
            line(
                &arr(vec![
                    crate::value::c64::new(1.0, 0.0),
                    crate::value::c64::new(0.0, 2.0)
                ]),
                None
            ),
            "c64[2] summary: min |x| 1, max |x| 2, mean (0.5, 1), nan 0"
        );
        assert_eq!(
            line(&arr(vec![f64::NAN]), None),
            "f64[1] summary: min nan, max nan, mean nan, nan 1"
        );
        assert_eq!(line(&arr(Vec::<f32>::new()), None), "f32[0] summary: empty");
        let t = Value::tuple(vec![
            Value::Array(arr(vec![1u8, 3])),
            Value::Array(arr(vec![2.0f64])),
        ]);
        assert_eq!(
            lines(&t, None),
            vec![
                "[0] u8[2] summary: min 1, max 3, mean 2",
                "[1] f64[1] summary: min 2, max 2, mean 2, nan 0"
            ]
        );
    }
}
