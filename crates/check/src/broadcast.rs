//! XLA's explicit broadcasting for binary elementwise ops (spec/broadcasting.md).
//!
//! Scalars broadcast to anything. Operands of equal rank broadcast where each
//! pair of sizes is equal or one of them is 1 (degenerate). Operands of
//! different rank need `broadcast_dimensions`, mapping each dimension of the
//! lower-rank operand to a dimension of the higher-rank one; after that map the
//! degenerate rule applies too. There is no implicit rank promotion.

use xlet_core::diag::Diag;
use xlet_core::span::Span;
use xlet_core::types::{ArrayType, fmt_dims};

/// How each operand's dimensions sit in the output.
#[derive(Clone, Debug, PartialEq)]
pub struct BinaryShape {
    pub out_dims: Vec<usize>,
    /// `lhs_map[i]` is the output dimension of lhs dimension `i`.
    pub lhs_map: Vec<usize>,
    pub rhs_map: Vec<usize>,
}

/// One operand as the rule sees it: its type, its span, and its text for suggestions.
pub struct Side<'a> {
    pub ty: &'a ArrayType,
    pub span: Span,
    pub text: &'a str,
}

/// The broadcast_dimensions attribute as written.
pub struct BroadcastDims<'a> {
    pub dims: &'a [i64],
    pub span: Span,
}

/// Applies the rule for op `op` (its name goes into every message with the
/// constraint label of spec/ops/binary.md).
pub fn binary_shape(
    op: &str,
    lhs: &Side,
    rhs: &Side,
    bdims: Option<BroadcastDims>,
    call_span: &Span,
) -> Result<BinaryShape, Diag> {
    let (lr, rr) = (lhs.ty.rank(), rhs.ty.rank());
    let identity = |r: usize| (0..r).collect::<Vec<_>>();

    // Scalars broadcast to anything, with no broadcast_dimensions needed.
    if lr == 0 || rr == 0 {
        if let Some(b) = &bdims
            && !b.dims.is_empty()
        {
            return Err(Diag::check(
                format!("{op}: C5"),
                format!("{op}: broadcast_dimensions must be empty when an operand is a scalar"),
                b.span.clone(),
            )
            .with_label("a scalar needs no broadcast_dimensions")
            .with_help("remove broadcast_dimensions: a scalar combines with every element"));
        }
        let out = if lr == 0 {
            rhs.ty.dims.clone()
        } else {
            lhs.ty.dims.clone()
        };
        return Ok(BinaryShape {
            lhs_map: identity(lr),
            rhs_map: identity(rr),
            out_dims: out,
        });
    }

    let (hi, lo, lhs_is_hi) = if lr >= rr {
        (lhs, rhs, true)
    } else {
        (rhs, lhs, false)
    };
    let lo_map: Vec<usize> = match &bdims {
        None if lr == rr => identity(lr),
        None => {
            let mut d = Diag::check(
                format!("{op}: C4"),
                format!(
                    "{op}: operands have different ranks ({} is rank {}, {} is rank {}) and no broadcast_dimensions",
                    lhs.ty, lr, rhs.ty, rr
                ),
                call_span.clone(),
            )
            .with_label("XLA does not promote ranks implicitly")
            .with_secondary(lhs.span.clone(), format!("{}", lhs.ty))
            .with_secondary(rhs.span.clone(), format!("{}", rhs.ty));
            let fits = fitting_maps(&lo.ty.dims, &hi.ty.dims);
            if let Some(first) = fits.first() {
                let list = |m: &Vec<usize>| {
                    m.iter()
                        .map(|x| x.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                d = d.with_help(format!(
                    "say which dimensions of the rank-{} operand the rank-{} operand's dimensions match: {}({}, {}, broadcast_dimensions={{{}}})",
                    hi.ty.rank(),
                    lo.ty.rank(),
                    op,
                    lhs.text,
                    rhs.text,
                    list(first)
                ));
                if fits.len() > 1 {
                    d = d.with_note(format!(
                        "other broadcast_dimensions that fit: {}",
                        fits[1..]
                            .iter()
                            .take(4)
                            .map(|m| format!("{{{}}}", list(m)))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
            } else {
                d = d.with_note(format!(
                    "no broadcast_dimensions can fit [{}] into [{}]: each dimension must match a size that is equal or 1",
                    fmt_dims(&lo.ty.dims),
                    fmt_dims(&hi.ty.dims)
                ));
            }
            return Err(d);
        }
        Some(b) => {
            check_map(op, b, lo.ty, hi.ty).map_err(|d| match fit_help(op, lhs, rhs, lo, hi) {
                Some(h) if lr != rr => d.with_help(h),
                _ => d,
            })?
        }
    };

    // Place the low-rank operand's sizes in the high rank, 1 elsewhere, then
    // apply the degenerate-dimension rule dimension by dimension.
    let mut placed = vec![1usize; hi.ty.rank()];
    for (i, &d) in lo_map.iter().enumerate() {
        placed[d] = lo.ty.dims[i];
    }
    let mut out = Vec::with_capacity(hi.ty.rank());
    for (d, (&h, &l)) in hi.ty.dims.iter().zip(&placed).enumerate() {
        if h == l || l == 1 || h == 1 {
            out.push(if h == 1 { l } else { h });
        } else {
            let lo_dim = lo_map.iter().position(|&x| x == d);
            let mut diag = Diag::check(
                format!("{op}: C6"),
                format!(
                    "{op}: dimension {d} of the result cannot be both {h} and {l} ({} and {} are not compatible)",
                    lhs.ty, rhs.ty
                ),
                call_span.clone(),
            )
            .with_label(format!("sizes {h} and {l} differ and neither is 1"))
            .with_secondary(hi.span.clone(), format!("{}: dimension {d} is {h}", hi.ty));
            if let Some(ld) = lo_dim {
                if lr != rr {
                    diag = diag.with_secondary(
                        lo.span.clone(),
                        format!("{}: dimension {ld} (mapped to {d}) is {l}", lo.ty),
                    );
                } else {
                    diag = diag.with_secondary(
                        lo.span.clone(),
                        format!("{}: dimension {d} is {l}", lo.ty),
                    );
                }
            }
            // `Add(x, v, broadcast_dimensions={1})` with v's size at dimension 0.
            if lr != rr
                && let Some(h) = fit_help(op, lhs, rhs, lo, hi)
            {
                diag = diag.with_help(h);
            }
            return Err(diag.with_note(
                "two sizes are compatible when they are equal or one of them is 1 (a degenerate dimension)",
            ));
        }
    }
    let hi_map = identity(hi.ty.rank());
    let (lhs_map, rhs_map) = if lhs_is_hi {
        (hi_map, lo_map)
    } else {
        (lo_map, hi_map)
    };
    Ok(BinaryShape {
        out_dims: out,
        lhs_map,
        rhs_map,
    })
}

/// The broadcast_dimensions that fit the lower-rank operand `lo` into `hi`
/// (exact sizes first), as a corrected call.
fn fit_help(op: &str, lhs: &Side, rhs: &Side, lo: &Side, hi: &Side) -> Option<String> {
    let fits = fitting_maps(&lo.ty.dims, &hi.ty.dims);
    let first = fits.first()?;
    let list = |m: &Vec<usize>| {
        m.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let sizes = first
        .iter()
        .enumerate()
        .map(|(i, &d)| format!("size {} to dimension {d}", lo.ty.dims[i]))
        .collect::<Vec<_>>()
        .join(", ");
    let mut h = format!(
        "broadcast_dimensions={{{}}} fits ({sizes} of {}): {op}({}, {}, broadcast_dimensions={{{}}})",
        list(first),
        hi.ty,
        lhs.text,
        rhs.text,
        list(first)
    );
    if fits.len() > 1 {
        h.push_str(&format!(
            "; also {}",
            fits[1..]
                .iter()
                .take(3)
                .map(|m| format!("{{{}}}", list(m)))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Some(h)
}

/// Validates a written broadcast_dimensions against the two ranks (C5).
fn check_map(
    op: &str,
    b: &BroadcastDims,
    lo: &ArrayType,
    hi: &ArrayType,
) -> Result<Vec<usize>, Diag> {
    let err = |msg: String, label: String| {
        Diag::check(format!("{op}: C5"), format!("{op}: {msg}"), b.span.clone()).with_label(label)
    };
    if lo.rank() == hi.rank() {
        let identity: Vec<i64> = (0..hi.rank() as i64).collect();
        if b.dims.is_empty() || b.dims == identity.as_slice() {
            return Ok((0..hi.rank()).collect());
        }
        return Err(err(
            format!(
                "operands have the same rank {}, so broadcast_dimensions can only be {{}} or the identity",
                hi.rank()
            ),
            "not the identity".into(),
        ));
    }
    if b.dims.len() != lo.rank() {
        return Err(err(
            format!(
                "broadcast_dimensions has {} but the lower-rank operand {} has rank {}",
                plural(b.dims.len(), "entry", "entries"),
                lo,
                lo.rank()
            ),
            format!(
                "needs {}, one per dimension of {}",
                xlet_core::english::count(lo.rank(), "entry"),
                lo
            ),
        ));
    }
    let mut map = Vec::with_capacity(b.dims.len());
    for (i, &d) in b.dims.iter().enumerate() {
        if d < 0 || d as usize >= hi.rank() {
            return Err(err(
                format!(
                    "broadcast_dimensions entry {d} is out of range for {hi} (rank {})",
                    hi.rank()
                ),
                format!("must be in 0..{}", hi.rank()),
            ));
        }
        if i > 0 && d <= b.dims[i - 1] {
            return Err(err(
                "broadcast_dimensions must be strictly increasing".into(),
                format!("{} then {d}", b.dims[i - 1]),
            ));
        }
        map.push(d as usize);
    }
    Ok(map)
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Every strictly increasing map of `lo`'s dims into `hi`'s dims under which each
/// pair of sizes is compatible, numpy's trailing alignment first when it fits.
pub fn fitting_maps(lo: &[usize], hi: &[usize]) -> Vec<Vec<usize>> {
    fn go(
        lo: &[usize],
        hi: &[usize],
        start: usize,
        cur: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        if out.len() >= 256 {
            return;
        }
        let i = cur.len();
        if i == lo.len() {
            out.push(cur.clone());
            return;
        }
        for d in start..hi.len() {
            if lo[i] == hi[d] || lo[i] == 1 || hi[d] == 1 {
                cur.push(d);
                go(lo, hi, d + 1, cur, out);
                cur.pop();
            }
        }
    }
    let mut out = vec![];
    go(lo, hi, 0, &mut vec![], &mut out);
    // Prefer exact size matches, then the trailing alignment (what numpy would have inferred).
    let trailing: Vec<usize> = (hi.len() - lo.len()..hi.len()).collect();
    let exact = |m: &Vec<usize>| m.iter().enumerate().all(|(i, &d)| lo[i] == hi[d]);
    out.sort_by_key(|m| (!exact(m), *m != trailing));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use xlet_core::types::ElemType::F32;

    fn side(t: &ArrayType) -> Side<'_> {
        Side {
            ty: t,
            span: 0..1,
            text: "x",
        }
    }
    fn shape(a: &[usize], b: &[usize], bd: Option<&[i64]>) -> Result<Vec<usize>, String> {
        let (x, y) = (
            ArrayType::new(F32, a.to_vec()),
            ArrayType::new(F32, b.to_vec()),
        );
        binary_shape(
            "Add",
            &side(&x),
            &side(&y),
            bd.map(|d| BroadcastDims {
                dims: d,
                span: 0..1,
            }),
            &(0..1),
        )
        .map(|s| s.out_dims)
        .map_err(|d| d.code.to_string())
    }

    #[test]
    fn seed_examples() {
        assert_eq!(shape(&[2, 1], &[2, 3], None), Ok(vec![2, 3]));
        assert_eq!(shape(&[1, 2, 5], &[7, 2, 5], None), Ok(vec![7, 2, 5]));
        assert_eq!(shape(&[7, 2, 5], &[7, 1, 5], None), Ok(vec![7, 2, 5]));
        assert_eq!(shape(&[7, 2, 5], &[7, 2, 6], None), Err("Add: C6".into()));
        assert_eq!(shape(&[2, 1], &[1, 3], None), Ok(vec![2, 3]));
        assert_eq!(shape(&[4], &[1, 2], Some(&[0])), Ok(vec![4, 2]));
        assert_eq!(shape(&[4, 3, 1], &[1, 2], Some(&[1, 2])), Ok(vec![4, 3, 2]));
        assert_eq!(shape(&[2, 3], &[3], None), Err("Add: C4".into()));
        assert_eq!(shape(&[2, 3], &[3], Some(&[1])), Ok(vec![2, 3]));
        assert_eq!(shape(&[3, 3], &[3], Some(&[0])), Ok(vec![3, 3]));
        assert_eq!(
            shape(&[2, 3, 4], &[3, 4], Some(&[2, 1])),
            Err("Add: C5".into())
        );
        assert_eq!(shape(&[2, 3], &[], None), Ok(vec![2, 3]));
    }

    #[test]
    fn suggestions_prefer_exact_then_trailing() {
        assert_eq!(fitting_maps(&[3], &[2, 3])[0], vec![1]);
        assert_eq!(fitting_maps(&[3], &[3, 3])[0], vec![1]);
        assert_eq!(fitting_maps(&[3, 4], &[2, 3, 4])[0], vec![1, 2]);
    }
}
