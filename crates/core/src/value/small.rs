//! Arrays of the small types: converting them to and from other types, and
//! the widening and narrowing around an op that computes on their values
//! (spec/small_types.md §5).
//!
//! An op on small types computes as XLA:CPU does: each operand is widened
//! exactly to the type's compute type (f32, s8 or u8), the op runs there, and
//! its result is rounded (floats) or wrapped (integers) back, once per op.

use super::{Array, CastFrom, Nd, Scalar, Value};
use crate::alloc::try_output_vec;
use crate::error::KernelError;
use crate::small::{SmallType, decode_f32, encode_f32, map_into};
use crate::types::{ArrayType, ElemType, Type};
use crate::with_array;
use ndarray::{ArrayD, IxDyn};
use std::sync::OnceLock;

/// How an operand of a small integer type is widened to a byte. `Value`
/// (every op but the bit ops): sign- or zero-extended, floats to f32.
/// The bit ops see the pattern instead: `Pattern` zero-extends it (logical
/// shifts, population count, shift amounts); `High` puts it in the byte's
/// high bits (arithmetic shift right, whose result is read from there);
/// `HighSentinel` also sets the bit below it, so that counting leading zeros
/// of the byte counts those of the pattern (zero gives the width).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Widen {
    Value,
    Pattern,
    High,
    HighSentinel,
}

/// How a result is brought back: `Value` rounds or wraps the value; `High`
/// takes the pattern from the byte's high bits (after `Widen::High`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Narrow {
    Value,
    High,
}

impl Array {
    /// A `U8` array of bytes (what an element-moving kernel returns for small
    /// operands) as an array of small type `t`; any other array as it is.
    pub fn retag(self, t: SmallType) -> Array {
        match self {
            Array::U8(a) | Array::Small(_, a) => Array::Small(t, a),
            other => other,
        }
    }
}

/// Gives every array in `v` whose checked type in `ty` is small that type
/// (the evaluator's last step after a kernel, and its first when binding a
/// computation's parameters). Free for values without small types.
pub fn retag_value(v: Value, ty: &Type) -> Value {
    match (v, ty) {
        (Value::Array(a), Type::Array(t)) => match t.elem {
            ElemType::Small(s) => Value::Array(a.retag(s)),
            _ => Value::Array(a),
        },
        (Value::Tuple(vs), Type::Tuple(ts)) if has_small(ty) => Value::tuple(
            vs.iter()
                .zip(ts)
                .map(|(v, t)| retag_value(v.clone(), t))
                .collect(),
        ),
        (v, _) => v,
    }
}

/// Whether any array of `ty` has a small element type.
pub fn has_small(ty: &Type) -> bool {
    match ty {
        Type::Array(a) => a.elem.small().is_some(),
        Type::Tuple(ts) => ts.iter().any(has_small),
    }
}

/// `f` over `x`'s elements in logical (row-major) order into a new array of
/// the same shape, in parallel where `x` is contiguous.
fn map_nd<S: Copy + Sync, D: Copy + Send>(
    x: &Nd<S>,
    elem: ElemType,
    f: impl Fn(S) -> D + Sync,
) -> Result<ArrayD<D>, KernelError> {
    match x.as_slice() {
        Some(src) => written(x.shape(), elem, |dst| map_into(src, dst, f)),
        None => {
            let dims = x.shape().to_vec();
            let mut out: Vec<D> = try_output_vec(x.len(), &ArrayType::new(elem, dims.clone()))?;
            out.extend(x.iter().map(|&s| f(s)));
            ArrayD::from_shape_vec(IxDyn(&dims), out)
                .map_err(|e| KernelError::new("internal", format!("internal error: {e}")))
        }
    }
}

/// A new (accounted) array of `dims` whose every element `fill` writes.
fn written<D: Copy>(
    dims: &[usize],
    elem: ElemType,
    fill: impl FnOnce(&mut [D]),
) -> Result<ArrayD<D>, KernelError> {
    let n: usize = dims.iter().product();
    let mut out: Vec<D> = try_output_vec(n, &ArrayType::new(elem, dims.to_vec()))?;
    // SAFETY: `out` has capacity `n` (try_output_vec); `D` is a plain number
    // type, and every caller's `fill` writes all `n` elements (an element-wise
    // map over a source of length `n`) before anything reads one.
    let dst = unsafe {
        out.set_len(n);
        &mut out[..]
    };
    fill(dst);
    ArrayD::from_shape_vec(IxDyn(dims), out)
        .map_err(|e| KernelError::new("internal", format!("internal error: {e}")))
}

/// The small array `a` widened for an op that computes on it (`Widen`); any
/// other array as it is.
pub fn widen(a: &Array, mode: Widen) -> Result<Array, KernelError> {
    let Array::Small(t, x) = a else {
        return Ok(a.clone());
    };
    let t = *t;
    let shift = 8 - t.bits();
    Ok(match mode {
        Widen::Value if ElemType::Small(t).compute() == ElemType::F16 => {
            // Exact: every small float but e8m0 lies in f16's range and
            // precision. One lookup per element in a 256-entry table.
            let mut table = [half::f16::ZERO; 256];
            for (b, v) in table.iter_mut().enumerate() {
                *v = half::f16::from_f32(t.to_f64(b as u8) as f32);
            }
            Array::F16(map_nd(x, ElemType::F16, |b| table[usize::from(b)])?.into_shared())
        }
        Widen::Value if t.is_float() => small_to_f32(a)?,
        Widen::Value if t.is_signed_int() => {
            Array::S8(map_nd(x, ElemType::S8, |b| t.to_i64(b) as i8)?.into_shared())
        }
        // An unsigned pattern is its value.
        Widen::Value | Widen::Pattern => Array::U8(x.clone()),
        Widen::High => Array::U8(map_nd(x, ElemType::U8, |b| b << shift)?.into_shared()),
        Widen::HighSentinel => {
            let sentinel = 1u8 << (shift - 1);
            Array::U8(map_nd(x, ElemType::U8, |b| (b << shift) | sentinel)?.into_shared())
        }
    })
}

/// The result `a` of an op computed on widened operands, as small type `t`.
pub fn narrow(a: &Array, t: SmallType, mode: Narrow) -> Result<Array, KernelError> {
    match (mode, a) {
        (Narrow::High, Array::U8(x)) => {
            let shift = 8 - t.bits();
            Ok(Array::Small(
                t,
                map_nd(x, a.elem(), |b| b >> shift)?.into_shared(),
            ))
        }
        _ => convert_to_small(a, t),
    }
}

/// XLA's ConvertElementType of `a` to small type `t`: floats round to nearest
/// even once (from f64 directly, not through f32), integers wrap to the width,
/// a float converted to a small integer truncates and saturates, pred is 0 or
/// 1, a complex value gives its real part.
pub fn convert_to_small(a: &Array, t: SmallType) -> Result<Array, KernelError> {
    let elem = ElemType::Small(t);
    let bytes = match a {
        Array::Small(s, x) if s.is_float() => {
            let s = *s;
            map_nd(x, elem, |b| t.from_f64(s.to_f64(b)))?
        }
        Array::Small(s, x) => {
            let s = *s;
            map_nd(x, elem, |b| t.from_i64(s.to_i64(b)))?
        }
        Array::F32(x) if t.is_float() => match x.as_slice() {
            Some(src) => written(x.shape(), elem, |dst| encode_f32(t, src, dst))?,
            None => map_nd(x, elem, |v| t.from_f32(v))?,
        },
        Array::F16(x) if t.is_float() => {
            // An op's f16 result back to the format (§6.2): one lookup per
            // element in the format's table of every f16.
            let table = f16_table(t);
            map_nd(x, elem, |v| table[usize::from(v.to_bits())])?
        }
        Array::U64(x) => map_nd(x, elem, |v| t.from_u64(v))?,
        _ => with_array!(a, x => to_small(x, a.elem(), t)?),
    };
    Ok(Array::Small(t, bytes.into_shared()))
}

/// Every f16 (by its bits) rounded to small float `t`, made on first use:
/// 64 KiB per format, for the narrowing after every op computed in f16.
fn f16_table(t: SmallType) -> &'static [u8; 65536] {
    static TABLES: [OnceLock<Box<[u8; 65536]>>; 15] = [const { OnceLock::new() }; 15];
    // `SmallType` is a fieldless enum whose discriminants are 0..15 (`ALL`).
    TABLES[t as usize].get_or_init(|| {
        let mut table = Box::new([0u8; 65536]);
        for (bits, out) in table.iter_mut().enumerate() {
            *out = t.from_f32(half::f16::from_bits(bits as u16).to_f32());
        }
        table
    })
}

/// One source type to `t`: integer sources keep their low bits for the small
/// integers (through i64), everything else goes through its f64 value.
fn to_small<S: Scalar + Sync>(
    x: &Nd<S>,
    from: ElemType,
    t: SmallType,
) -> Result<ArrayD<u8>, KernelError>
where
    i64: CastFrom<S>,
{
    let elem = ElemType::Small(t);
    if from.is_int() || from.is_pred() {
        map_nd(x, elem, |v| t.from_i64(i64::cast_from(v)))
    } else {
        map_nd(x, elem, |v| t.from_f64(v.to_f64()))
    }
}

/// A small float array as f32 (exact): ConvertElementType's fast path.
pub fn small_to_f32(a: &Array) -> Result<Array, KernelError> {
    let Array::Small(t, x) = a else {
        return Err(KernelError::new(
            "internal",
            "internal error: not a small float",
        ));
    };
    let t = *t;
    let out = match x.as_slice() {
        Some(src) => written(x.shape(), ElemType::F32, |dst| decode_f32(t, src, dst))?,
        None => map_nd(x, ElemType::F32, |b| t.to_f64(b) as f32)?,
    };
    Ok(Array::F32(out.into_shared()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::ArrayD;

    fn small(t: SmallType, bytes: Vec<u8>) -> Array {
        let n = bytes.len();
        Array::Small(
            t,
            ArrayD::from_shape_vec(IxDyn(&[n]), bytes)
                .unwrap()
                .into_shared(),
        )
    }

    /// The table paths (f16 widening, f16 narrowing, f8 → f32) against the
    /// per-element reference (`SmallType::to_f64`, `from_f32`) on every pattern
    /// and every f16.
    #[test]
    fn table_paths_match_the_reference() {
        for t in SmallType::ALL.into_iter().filter(|t| t.is_float()) {
            let pats: Vec<u8> = (0..1u16 << t.bits()).map(|b| b as u8).collect();
            let a = small(t, pats.clone());
            let Array::F32(f) = small_to_f32(&a).unwrap() else {
                panic!()
            };
            for (&b, &v) in pats.iter().zip(f.iter()) {
                let r = t.to_f64(b) as f32;
                assert!(
                    v.to_bits() == r.to_bits() || (v.is_nan() && r.is_nan()),
                    "{t:?} {b}"
                );
            }
            if ElemType::Small(t).compute() == ElemType::F16 {
                let Array::F16(h) = widen(&a, Widen::Value).unwrap() else {
                    panic!()
                };
                for (&b, &v) in pats.iter().zip(h.iter()) {
                    let r = t.to_f64(b);
                    assert!(
                        f64::from(v.to_f32()) == r || (v.is_nan() && r.is_nan()),
                        "{t:?} {b}"
                    );
                }
                let all: Vec<half::f16> = (0..=u16::MAX).map(half::f16::from_bits).collect();
                let wide = Array::F16(
                    ArrayD::from_shape_vec(IxDyn(&[all.len()]), all.clone())
                        .unwrap()
                        .into_shared(),
                );
                let Array::Small(_, got) = convert_to_small(&wide, t).unwrap() else {
                    panic!()
                };
                for (&h, &g) in all.iter().zip(got.iter()) {
                    assert_eq!(
                        g,
                        t.from_f32(h.to_f32()),
                        "{t:?} from f16 {:#06x}",
                        h.to_bits()
                    );
                }
            }
        }
    }

    /// Widening then narrowing gives every small integer pattern back, in each
    /// of the bit operations' modes.
    #[test]
    fn integer_modes_round_trip() {
        for t in SmallType::ALL.into_iter().filter(|t| t.is_int()) {
            let pats: Vec<u8> = (0..1u8 << t.bits()).collect();
            let a = small(t, pats.clone());
            for (w, n) in [
                (Widen::Value, Narrow::Value),
                (Widen::Pattern, Narrow::Value),
                (Widen::High, Narrow::High),
            ] {
                let back = narrow(&widen(&a, w).unwrap(), t, n).unwrap();
                let Array::Small(_, got) = back else { panic!() };
                assert_eq!(got.iter().copied().collect::<Vec<_>>(), pats, "{t:?} {w:?}");
            }
        }
    }
}
