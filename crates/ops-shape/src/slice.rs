//! Slice (spec/ops/slice.md): `Slice(operand, start_indices, limit_indices[, strides])`.
//! Result dimension `d` holds operand indices `start[d], start[d] + stride[d], ...`
//! below `limit[d]`. The result is a view of the operand's storage with the
//! offset and strides of the slice (no copy); materialising it later copies
//! contiguous runs (spec/performance.md).

use super::common::internal;
use super::registry::{Checked, OpDef, OpId};
use std::sync::Arc;
use xlet_check::call::{Attr, CallCtx};
use xlet_core::diag::Diag;
use xlet_core::types::Type;
use xlet_core::value::{Array, Elem, Nd, Value};
use xlet_core::with_array;
use xlet_ir::{EvalCx, Kernel, KernelError};

const SPEC: &str = include_str!("../../../spec/ops/slice.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::Slice,
    aliases: &[],
    signature: "Slice(operand, start_indices, limit_indices, strides)",
    spec: SPEC,
    rule,
}];

/// One dimension of a checked slice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    pub start: usize,
    pub limit: usize,
    pub stride: usize,
}

impl Range {
    /// How many indices the range holds: ceil((limit - start) / stride).
    pub fn len(&self) -> usize {
        (self.limit - self.start).div_ceil(self.stride)
    }
}

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let o = cx.operand(0, "operand")?;
    let t = cx.array(&o, "C1", "operand")?.clone();
    let start = cx.require_int_list(Some(1), "start_indices")?;
    let limit = cx.require_int_list(Some(2), "limit_indices")?;
    let strides = cx.int_list(Some(3), "strides")?;
    let shape = format!("{}", Type::Array(t.clone()));
    for (what, list) in [("start_indices", &start), ("limit_indices", &limit)]
        .into_iter()
        .chain(strides.as_ref().map(|s| ("strides", s)))
    {
        if list.value.len() != t.rank() {
            return Err(cx
                .err(
                    "C2",
                    format!(
                        "`{what}` has {} entries but the operand {shape} has rank {}: one per dimension",
                        list.value.len(),
                        t.rank()
                    ),
                    list.span.clone(),
                )
                .with_secondary(o.span.clone(), shape.clone()));
        }
    }
    let mut ranges = Vec::with_capacity(t.rank());
    for d in 0..t.rank() {
        let (s, l) = (start.value[d], limit.value[d]);
        let dim = t.dims[d];
        let r = range(cx, d, dim, s, l, strides.as_ref(), &start, &limit, &shape)?;
        ranges.push(r);
    }
    let dims = ranges.iter().map(Range::len).collect();
    Ok(Checked {
        ty: Type::array(t.elem, dims),
        kernel: Arc::new(SliceKernel { ranges }),
    })
}

/// Dimension `d`'s range, checked against C3–C5.
#[allow(clippy::too_many_arguments)]
fn range(
    cx: &CallCtx,
    d: usize,
    dim: usize,
    s: i64,
    l: i64,
    strides: Option<&Attr<Vec<i64>>>,
    start: &Attr<Vec<i64>>,
    limit: &Attr<Vec<i64>>,
    shape: &str,
) -> Result<Range, Diag> {
    let stride = strides.map_or(1, |st| st.value[d]);
    if s < 0 {
        return Err(cx
            .err(
                "C3",
                format!("start index {s} of dimension {d} is negative"),
                start.span.clone(),
            )
            .with_help("start indices count from 0"));
    }
    if l > dim as i64 {
        return Err(cx
            .err(
                "C3",
                format!(
                    "limit {l} of dimension {d} is beyond the operand {shape}, whose dimension {d} has size {dim}"
                ),
                limit.span.clone(),
            )
            .with_help(format!(
                "limits are exclusive: the largest for dimension {d} is {dim}"
            )));
    }
    if s > l {
        return Err(cx
            .err(
                "C4",
                format!("start {s} of dimension {d} is after its limit {l}"),
                start.span.clone(),
            )
            .with_secondary(limit.span.clone(), "limits")
            .with_help("a start equal to its limit gives an empty dimension"));
    }
    if stride < 1 {
        let span = strides.map_or(start.span.clone(), |st| st.span.clone());
        return Err(cx
            .err(
                "C5",
                format!("stride {stride} of dimension {d} is not positive"),
                span,
            )
            .with_help("strides are at least 1; Rev reverses a dimension"));
    }
    Ok(Range {
        start: s as usize,
        limit: l as usize,
        stride: stride as usize,
    })
}

struct SliceKernel {
    ranges: Vec<Range>,
}

/// The slice as a view of `a`'s storage.
pub fn slice_view<T: Elem>(a: &Nd<T>, ranges: &[Range]) -> Result<Nd<T>, KernelError> {
    // ndarray panics on a range outside the axis; the checker proved the ranges
    // against the operand's type, so only a value of another shape could fail.
    let fits = a.ndim() == ranges.len()
        && a.shape()
            .iter()
            .zip(ranges)
            .all(|(&n, r)| r.start <= r.limit && r.limit <= n && r.stride >= 1);
    if !fits {
        return Err(internal("slice outside the operand"));
    }
    let mut v = a.clone();
    v.slice_each_axis_inplace(|ax| {
        let r = ranges[ax.axis.index()];
        ndarray::Slice::new(r.start as isize, Some(r.limit as isize), r.stride as isize)
    });
    Ok(v)
}

impl Kernel for SliceKernel {
    fn movement(&self) -> Option<xlet_ir::movement::Movement> {
        Some(xlet_ir::movement::Movement::Slice {
            starts: self.ranges.iter().map(|r| r.start).collect(),
            strides: self.ranges.iter().map(|r| r.stride).collect(),
        })
    }
    fn vjp(&self, cx: &mut xlet_ir::rule::RuleCx) -> Result<(), xlet_ir::rule::NoRule> {
        let r: Vec<(usize, usize, usize)> = self
            .ranges
            .iter()
            .map(|r| (r.start, r.limit, r.stride))
            .collect();
        xlet_grad::structural::slice(cx, &r)
    }
    fn allocates(&self) -> bool {
        false // a view with the slice's offset and strides
    }
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let [Value::Array(a)] = args else {
            return Err(internal("Slice expects one array"));
        };
        let out: Array = with_array!(a, x => slice_view(x, &self.ranges).map(Elem::wrap)?);
        Ok(Value::Array(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{ArrayD, IxDyn};

    /// The definition, index by index: result[r] = operand[start + r * stride].
    fn reference(a: &ArrayD<i32>, ranges: &[Range]) -> ArrayD<i32> {
        let dims: Vec<usize> = ranges.iter().map(Range::len).collect();
        ArrayD::from_shape_fn(IxDyn(&dims), |r| {
            let idx: Vec<usize> = (0..dims.len())
                .map(|d| ranges[d].start + r[d] * ranges[d].stride)
                .collect();
            a[IxDyn(&idx)]
        })
    }

    #[test]
    fn view_matches_definition_on_every_layout() {
        let base = ArrayD::from_shape_fn(IxDyn(&[5, 7, 4]), |i| {
            (i[0] * 100 + i[1] * 10 + i[2]) as i32
        });
        let ranges = [
            Range {
                start: 1,
                limit: 5,
                stride: 2,
            },
            Range {
                start: 0,
                limit: 7,
                stride: 3,
            },
            Range {
                start: 2,
                limit: 2,
                stride: 1,
            },
        ];
        let ranges2 = [
            Range {
                start: 1,
                limit: 5,
                stride: 2,
            },
            Range {
                start: 6,
                limit: 7,
                stride: 5,
            },
            Range {
                start: 0,
                limit: 4,
                stride: 1,
            },
        ];
        // Plain, transposed and reversed operands.
        let plain = base.clone().into_shared();
        let transposed = base
            .clone()
            .permuted_axes(IxDyn(&[2, 0, 1]))
            .as_standard_layout()
            .into_owned()
            .permuted_axes(IxDyn(&[1, 2, 0]))
            .into_shared();
        let mut reversed = base.clone().into_shared();
        reversed.invert_axis(ndarray::Axis(1));
        for a in [plain, transposed, reversed] {
            for r in [&ranges[..], &ranges2[..]] {
                let got = slice_view(&a, r).unwrap();
                assert_eq!(got.to_owned(), reference(&a.to_owned(), r));
            }
        }
    }

    #[test]
    fn range_lengths_round_up() {
        assert_eq!(
            Range {
                start: 0,
                limit: 5,
                stride: 2
            }
            .len(),
            3
        );
        assert_eq!(
            Range {
                start: 3,
                limit: 3,
                stride: 1
            }
            .len(),
            0
        );
        assert_eq!(
            Range {
                start: 1,
                limit: 2,
                stride: 9
            }
            .len(),
            1
        );
    }
}
