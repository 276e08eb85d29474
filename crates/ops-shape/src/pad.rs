//! Pad (spec/ops/pad.md): `Pad(operand, padding_value, padding_config)` with
//! the config `{{low, high, interior}, ...}`, one triple per dimension.
//!
//! Operand element `i` lands at `low + i * (interior + 1)` in each dimension;
//! everything else is the padding value; positions outside `0..size` (negative
//! low or high) are cut off. The output is written once, row by row of its last
//! dimension: a row that no operand row lands on is filled, and a row that one
//! does is written left to right (padding, elements, the gaps between them),
//! copying a contiguous stretch at once when there is no interior padding.
//! Rows are split into tasks run in parallel above `GRAIN` elements. The operand
//! is read in place through its strides (a transposed view is not copied first).

use super::common::{internal, typed};
use super::registry::{Checked, OpDef, OpId};
use ndarray::{ArrayD, IxDyn};
use rayon::prelude::*;
use std::mem::MaybeUninit;
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_check::literal::flatten;
use xlet_core::alloc;
use xlet_core::diag::Diag;
use xlet_core::types::Type;
use xlet_core::value::{Array, Elem, Nd, Value};
use xlet_core::with_array;
use xlet_ir::{EvalCx, Kernel, KernelError};
use xlet_kernels::strided::{GRAIN, Src, TASK, interrupt_error, interrupted};
use xlet_syntax::ast::{ExprKind, Span};

const SPEC: &str = include_str!("../../../spec/ops/pad.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::Pad,
    aliases: &[],
    signature: "Pad(operand, padding_value, padding_config)",
    spec: SPEC,
    rule,
}];

/// One dimension's padding: elements added before, after, and between elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DimPad {
    pub low: i64,
    pub high: i64,
    pub interior: i64,
}

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    // `Pad(x, {{1, 1, 0}}, 0.0)`: the config where the value goes.
    let listy =
        |e: &xlet_syntax::ast::Expr| matches!(e.kind, ExprKind::Brace(_) | ExprKind::Numbers(_));
    if let (Some(v), Some(c)) = (cx.peek(1), cx.peek(2))
        && listy(v)
        && !listy(c)
    {
        return Err(cx.swapped(1, 2));
    }
    let ops = cx.operands_alike(&[(0, "operand"), (1, "padding_value")], None)?;
    let (o, v) = (&ops[0], &ops[1]);
    let t = cx.array(o, "C1", "operand")?.clone();
    let vt = cx.array(v, "C2", "padding_value")?.clone();
    if vt.rank() != 0 || vt.elem != t.elem {
        let what = if vt.rank() != 0 {
            "a scalar"
        } else {
            "of the operand's element type"
        };
        return Err(cx
            .err(
                "C2",
                format!(
                    "padding_value must be a scalar of the operand's element type {}, found {vt}",
                    t.elem
                ),
                v.span.clone(),
            )
            .with_label(format!("not {what}"))
            .with_secondary(o.span.clone(), format!("{t}")));
    }
    let e = cx.require(Some(2), "padding_config")?;
    let (cfg, spans) = read_config(cx, e, t.rank())?;
    let mut dims = vec![];
    for (k, (p, span)) in cfg.iter().zip(&spans).enumerate() {
        if p.interior < 0 {
            return Err(cx
                .err(
                    "C4",
                    format!(
                        "interior padding must be at least 0, found {} for dimension {k}",
                        p.interior
                    ),
                    span.clone(),
                )
                .with_label("interior < 0")
                .with_help("only edge padding (low, high) may be negative"));
        }
        let d = t.dims[k] as i128;
        let size = d + p.low as i128 + p.high as i128 + (d - 1).max(0) * p.interior as i128;
        if size < 0 {
            return Err(cx
                .err(
                    "C5",
                    format!(
                        "dimension {k} would have size {} + {} + {} + {} * {} = {size}; sizes cannot be negative",
                        p.low,
                        d,
                        p.high,
                        (d - 1).max(0),
                        p.interior
                    ),
                    span.clone(),
                )
                .with_label(format!("removes more than the {size_in} elements there are", size_in = size - p.low as i128 - p.high as i128))
                .with_secondary(o.span.clone(), format!("{t}")));
        }
        let size = usize::try_from(size).map_err(|_| {
            Diag::check(
                "size",
                format!("Pad: dimension {k} would have {size} elements, too many to count"),
                span.clone(),
            )
        })?;
        dims.push(size);
    }
    Ok(Checked {
        ty: Type::array(t.elem, dims.clone()),
        kernel: Arc::new(PadKernel {
            cfg,
            out_dims: dims,
        }),
    })
}

/// Reads `{{low, high, interior}, ...}` (C3: one triple per dimension), with the
/// span of each triple for later errors.
fn read_config(
    cx: &CallCtx,
    e: &xlet_syntax::ast::Expr,
    rank: usize,
) -> Result<(Vec<DimPad>, Vec<Span>), Diag> {
    let inner = match &e.kind {
        ExprKind::Typed { value, .. } => value.as_ref(),
        _ => e,
    };
    let example = match rank {
        0 => "{}".to_string(),
        r => format!("{{{}}}", vec!["{0, 0, 0}"; r].join(", ")),
    };
    let wrong = |what: String| {
        cx.err("C3", what, e.span.clone())
            .with_label(match rank {
                0 => "a scalar takes {}".to_string(),
                r => format!(
                    "needs {}",
                    xlet_core::english::count(r, "{low, high, interior} triple")
                ),
            })
            .with_help(format!("one triple per operand dimension, e.g. {example}"))
    };
    if !matches!(inner.kind, ExprKind::Brace(_) | ExprKind::Numbers(_)) {
        return Err(cx
            .err(
                "attr",
                "padding_config must be a literal list of {low, high, interior} triples",
                e.span.clone(),
            )
            .with_help(format!("e.g. {example}")));
    }
    let flat = flatten(inner).map_err(|_| {
        wrong("padding_config must be a list of {low, high, interior} triples".into())
    })?;
    let shape_ok = match flat.dims.as_slice() {
        [0] => rank == 0,
        [r, 3] => *r == rank,
        _ => false,
    };
    if !shape_ok {
        let found = match flat.dims.as_slice() {
            [0] => "an empty list".to_string(),
            [r, k] => format!("{} of {k} numbers", xlet_core::english::count(*r, "entry")),
            _ => "a list that is not of triples".to_string(),
        };
        return Err(wrong(format!(
            "padding_config must have one {{low, high, interior}} triple per dimension of the rank-{rank} operand, found {found}"
        )));
    }
    let mut vals = vec![];
    let mut spans: Vec<Span> = vec![];
    for (a, span) in flat.atoms() {
        let v = a.integer();
        let Some(v) = v else {
            if a.is_integer_text() {
                return Err(cx
                    .err(
                        "attr",
                        "padding_config entries must be in the 64-bit integer range -9223372036854775808..=9223372036854775807",
                        span.clone(),
                    )
                    .with_label("does not fit in 64 bits"));
            }
            return Err(cx
                .err(
                    "attr",
                    "padding_config entries must be integers",
                    span.clone(),
                )
                .with_label("not an integer"));
        };
        vals.push(v);
        spans.push(span.clone());
    }
    let cfg = vals
        .chunks(3)
        .map(|c| DimPad {
            low: c[0],
            high: c[1],
            interior: c[2],
        })
        .collect();
    let triple_spans = spans.chunks(3).map(|c| c[0].start..c[2].end).collect();
    Ok((cfg, triple_spans))
}

struct PadKernel {
    cfg: Vec<DimPad>,
    out_dims: Vec<usize>,
}

impl Kernel for PadKernel {
    fn vjp(&self, cx: &mut xlet_ir::rule::RuleCx) -> Result<(), xlet_ir::rule::NoRule> {
        let c: Vec<(i64, i64, i64)> = self
            .cfg
            .iter()
            .map(|p| (p.low, p.high, p.interior))
            .collect();
        xlet_grad::structural::pad(cx, &c)
    }
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let [Value::Array(a), Value::Array(v)] = args else {
            return Err(internal("Pad expects an operand and a padding value"));
        };
        with_array!(a, x => {
            let pv = typed(v)?
                .iter()
                .next()
                .copied()
                .ok_or_else(|| internal("Pad's padding value is empty"))?;
            pad(x, pv, &self.cfg, &self.out_dims)
        })
        .map(Value::Array)
    }
}

/// `x` padded with `pv` as `cfg` says, into an array of `out_dims`.
pub fn pad<T: Elem + Send + Sync>(
    x: &Nd<T>,
    pv: T,
    cfg: &[DimPad],
    out_dims: &[usize],
) -> Result<Array, KernelError> {
    let rank = x.ndim();
    if cfg.len() != rank || out_dims.len() != rank {
        return Err(internal("Pad operand does not have the checked rank"));
    }
    if rank == 0 {
        return Ok(T::wrap(x.clone()));
    }
    let n: usize = out_dims.iter().product();
    let mut out: Vec<T> = alloc::try_output_vec(n, &"the padded result")?;
    if n > 0 {
        let src = Src::of(x);
        let width = out_dims[rank - 1];
        let rows_per_task = (TASK / width).max(1);
        let buf = &mut out.spare_capacity_mut()[..n];
        let task = |(i, chunk): (usize, &mut [MaybeUninit<T>])| {
            if interrupted() {
                return Err(interrupt_error());
            }
            for (r, row) in chunk.chunks_mut(width).enumerate() {
                let base = operand_row(
                    i * rows_per_task + r,
                    x.shape(),
                    src.strides(),
                    cfg,
                    out_dims,
                );
                // SAFETY: `base` is the storage offset of an operand row (every
                // index in range), and `write_row` reads only that row's elements.
                unsafe { write_row(row, base, &src, x.shape()[rank - 1], cfg[rank - 1], pv) };
            }
            Ok(())
        };
        if n < GRAIN {
            buf.chunks_mut(rows_per_task * width)
                .enumerate()
                .try_for_each(task)?;
        } else {
            buf.par_chunks_mut(rows_per_task * width)
                .enumerate()
                .try_for_each(task)?;
        }
        // SAFETY: every row of every chunk was written in full by `write_row`.
        unsafe { out.set_len(n) };
    }
    ArrayD::from_shape_vec(IxDyn(out_dims), out)
        .map(|a| T::wrap(a.into_shared()))
        .map_err(|_| internal("Pad element count does not match its shape"))
}

/// The storage offset of the operand row that output row `r` holds, or `None`
/// when that row is all padding (some outer index falls on no operand element).
/// The index arithmetic is in i128: `low` and `interior` may be anywhere in
/// i64, and `pos - low` or `interior + 1` need not fit in it.
fn operand_row(
    r: usize,
    shape: &[usize],
    strides: &[isize],
    cfg: &[DimPad],
    out_dims: &[usize],
) -> Option<isize> {
    let rank = shape.len();
    let mut rest = r;
    let mut off = 0isize;
    for k in (0..rank - 1).rev() {
        let pos = (rest % out_dims[k]) as i128;
        rest /= out_dims[k];
        let i = source_index(pos, cfg[k], shape[k])?;
        off += i as isize * strides[k];
    }
    Some(off)
}

/// The operand index that lands at result position `pos` of a dimension of
/// `len` elements padded by `p`, or `None` for a padding position: Pad's
/// definition (`result[low + i * (interior + 1)] = operand[i]`) solved for `i`
/// exactly, in i128.
fn source_index(pos: i128, p: DimPad, len: usize) -> Option<usize> {
    let t = pos - p.low as i128;
    let step = p.interior as i128 + 1;
    if t < 0 || step <= 0 || t % step != 0 || t / step >= len as i128 {
        return None;
    }
    Some((t / step) as usize)
}

/// Writes one output row of the last dimension: the operand row at storage
/// offset `base` (of `len` elements) spread out by `p`, or all padding.
///
/// # Safety
/// `base` plus `j * stride` for `j < len` must be elements of `src`'s storage.
unsafe fn write_row<T: Copy>(
    row: &mut [MaybeUninit<T>],
    base: Option<isize>,
    src: &Src<T>,
    len: usize,
    p: DimPad,
    pv: T,
) {
    let fill = |xs: &mut [MaybeUninit<T>]| {
        for x in xs {
            x.write(pv);
        }
    };
    let Some(base) = base else {
        fill(row);
        return;
    };
    // Positions in i128: `low`, `interior + 1` and `j * step` are exact there
    // (|low|, step <= 2^63 and j <= len), and every slice bound used below is
    // a position `c` with `0 <= c <= width`.
    let width = row.len() as i128;
    let len = len as i128;
    let stride = src.strides().last().copied().unwrap_or(1);
    let step = p.interior as i128 + 1;
    let low = p.low as i128;
    // The first operand element that lands at or after position 0, and where.
    let mut j = if low >= 0 {
        0
    } else {
        (-low + step - 1) / step
    };
    let mut at = low + j * step;
    let mut c = 0i128;
    while c < width {
        if j < len && at == c {
            // A run of elements: one when there is interior padding, else as many
            // as fit (copied straight from a contiguous row).
            let k = if step == 1 {
                (len - j).min(width - c)
            } else {
                1
            };
            let dst = &mut row[c as usize..(c + k) as usize];
            // SAFETY: elements j..j+k of the operand row (caller's contract);
            // j + k <= len, so each offset is an element of that row.
            unsafe {
                let p0 = src.ptr().offset(base + j as isize * stride);
                if stride == 1 {
                    std::ptr::copy_nonoverlapping(p0, dst.as_mut_ptr() as *mut T, k as usize);
                } else {
                    for (i, d) in dst.iter_mut().enumerate() {
                        d.write(*p0.offset(i as isize * stride));
                    }
                }
            }
            j += k;
            at += k * step;
            c += k;
        } else {
            let next = if j < len { at.clamp(c, width) } else { width };
            fill(&mut row[c as usize..next as usize]);
            c = next;
        }
    }
}

/// The reference form, for tests: each output element from its index by Pad's
/// definition, `result[low + i * (interior + 1)] = operand[i]`, in i128 (for
/// every operand index `i`, where that position is inside the result; every
/// other position is padding).
#[cfg(test)]
fn reference<T: Copy>(
    x: &ndarray::ArrayViewD<T>,
    pv: T,
    cfg: &[DimPad],
    out_dims: &[usize],
) -> ArrayD<T> {
    let mut out = ArrayD::from_elem(IxDyn(out_dims), pv);
    for (src, &v) in x.indexed_iter() {
        let mut dst = vec![];
        for (k, p) in cfg.iter().enumerate() {
            let pos = p.low as i128 + src[k] as i128 * (p.interior as i128 + 1);
            if pos < 0 || pos >= out_dims[k] as i128 {
                break;
            }
            dst.push(pos as usize);
        }
        if dst.len() == cfg.len() {
            out[IxDyn(&dst)] = v;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn out_dims(shape: &[usize], cfg: &[DimPad]) -> Option<Vec<usize>> {
        shape
            .iter()
            .zip(cfg)
            .map(|(&d, p)| {
                let d = d as i128;
                let n = d + p.low as i128 + p.high as i128 + (d - 1).max(0) * p.interior as i128;
                usize::try_from(n).ok().filter(|&n| n <= 1 << 16)
            })
            .collect()
    }

    fn check(x: Nd<i32>, cfg: &[DimPad]) {
        let Some(dims) = out_dims(x.shape(), cfg) else {
            return;
        };
        let want = reference(&x.view(), -1, cfg, &dims);
        let got = pad(&x, -1, cfg, &dims).unwrap();
        let got = i32::unwrap(&got).unwrap();
        assert_eq!(got.shape(), want.shape(), "{cfg:?}");
        assert!(got.iter().eq(want.iter()), "{cfg:?}");
    }

    #[test]
    fn matches_reference() {
        let a = ArrayD::from_shape_vec(IxDyn(&[3, 4]), (0..12).collect())
            .unwrap()
            .into_shared();
        let t = a.clone().reversed_axes();
        let mut stepped = ArrayD::from_shape_vec(IxDyn(&[6, 8]), (0..48).collect())
            .unwrap()
            .into_shared();
        stepped.slice_each_axis_inplace(|_| ndarray::Slice::new(0, None, 2));
        let vals = [-5i64, -2, -1, 0, 1, 3];
        for x in [a, t, stepped] {
            for &l0 in &vals {
                for &h1 in &vals {
                    for i0 in 0..3 {
                        for i1 in 0..3 {
                            let cfg = [
                                DimPad {
                                    low: l0,
                                    high: 1,
                                    interior: i0,
                                },
                                DimPad {
                                    low: -l0,
                                    high: h1,
                                    interior: i1,
                                },
                            ];
                            check(x.clone(), &cfg);
                        }
                    }
                }
            }
        }
        // Above the parallel grain, transposed.
        let big = ArrayD::from_shape_vec(IxDyn(&[200, 300]), (0..60000).collect())
            .unwrap()
            .into_shared()
            .reversed_axes();
        check(
            big,
            &[
                DimPad {
                    low: 2,
                    high: -3,
                    interior: 1,
                },
                DimPad {
                    low: -1,
                    high: 4,
                    interior: 0,
                },
            ],
        );
        let row = ArrayD::from_shape_vec(IxDyn(&[50000]), (0..50000).collect())
            .unwrap()
            .into_shared();
        check(
            row,
            &[DimPad {
                low: 7,
                high: -9,
                interior: 2,
            }],
        );
    }

    fn pads(triples: &[(i64, i64, i64)]) -> Vec<DimPad> {
        triples
            .iter()
            .map(|&(low, high, interior)| DimPad {
                low,
                high,
                interior,
            })
            .collect()
    }

    /// Attributes at the ends of i64, where `interior + 1`, `-low + interior`
    /// and `pos - low` do not fit in 64 bits (issue 21): the fast path against
    /// the reference, and the cases by hand.
    #[test]
    fn extreme_attributes() {
        const MAX: i64 = i64::MAX;
        const MIN: i64 = i64::MIN;
        let v = |n: usize| {
            ArrayD::from_shape_vec(IxDyn(&[n]), (1..=n as i32).collect())
                .unwrap()
                .into_shared()
        };
        let run = |x: Nd<i32>, cfg: &[DimPad]| {
            let dims = out_dims(x.shape(), cfg).unwrap();
            i32::unwrap(&pad(&x, 0, cfg, &dims).unwrap())
                .unwrap()
                .iter()
                .copied()
                .collect::<Vec<_>>()
        };
        // {1, 2} with low = -(2^63 - 2), interior = 2^63 - 2: element i lands at
        // low + i * (2^63 - 1), so element 0 at -(2^63 - 2) (cut off) and
        // element 1 at 1; the size is 2 - (2^63 - 2) + 0 + 1 * (2^63 - 2) = 2.
        assert_eq!(run(v(2), &pads(&[(-(MAX - 1), 0, MAX - 1)])), [0, 2]);
        // low = -2^62, interior = 2^62: element 1 at -2^62 + 2^62 + 1 = 1.
        let h = 1i64 << 62;
        assert_eq!(run(v(2), &pads(&[(-h, 0, h)])), [0, 2]);
        // {1, 2, 3}, low = -(2^63 - 1), high = 2^63 - 1, interior 1: elements at
        // -(2^63 - 1) + 2i, all negative; size 3 + 2 = 5, all padding.
        assert_eq!(run(v(3), &pads(&[(-MAX, MAX, 1)])), [0; 5]);
        // interior = 2^63 - 1 (interior + 1 = 2^63), low = 1 - (2^63 - 1):
        // element 1 at 1 - (2^63 - 1) + 2^63 = 2; size 2 + 1 - (2^63 - 1) +
        // (2^63 - 1) + high 0 = 3.
        assert_eq!(run(v(2), &pads(&[(1 - MAX, 0, MAX)])), [0, 0, 2]);
        // Fast path against the reference over extreme triples, rank 1 and 2
        // (the outer dimension goes through `operand_row`).
        let ext = [
            MIN,
            MIN + 1,
            -MAX + 2,
            -(1 << 62),
            -3,
            -1,
            0,
            1,
            2,
            1 << 62,
            MAX - 2,
            MAX,
        ];
        let m = ArrayD::from_shape_vec(IxDyn(&[3, 2]), (1..=6).collect())
            .unwrap()
            .into_shared();
        // `high` is chosen so that the result has `size` elements (0 to 4).
        let high_for = |d: i128, low: i64, interior: i64, size: i128| {
            i64::try_from(size - d - low as i128 - (d - 1) * interior as i128).ok()
        };
        let mut cases = 0;
        for &low in &ext {
            for &interior in &[0, 1, 2, (1 << 62), MAX - 1, MAX] {
                for size in 0..5 {
                    let at = |high| DimPad {
                        low,
                        high,
                        interior,
                    };
                    if let Some(high) = high_for(3, low, interior, size) {
                        check(v(3), &[at(high)]);
                        check(
                            m.clone(),
                            &[
                                at(high),
                                DimPad {
                                    low: 1,
                                    high: 0,
                                    interior: 1,
                                },
                            ],
                        );
                        cases += 1;
                    }
                    if let Some(high) = high_for(2, low, interior, size) {
                        check(
                            m.clone(),
                            &[
                                DimPad {
                                    low: -1,
                                    high: 2,
                                    interior: 0,
                                },
                                at(high),
                            ],
                        );
                        cases += 1;
                    }
                }
            }
        }
        assert!(cases > 100, "{cases}");
    }
}
