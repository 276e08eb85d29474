//! Concatenate (spec/ops/concatenate.md): `Concatenate({a, b, ...}, dimension)`
//! or `Concatenate(a, b, ..., dimension)`, aliases `Concat` and `ConcatInDim`.
//!
//! The output is written once, in order: it is cut into tasks of consecutive
//! elements (run in parallel above `GRAIN`), and each task walks its range as
//! runs that come from one operand each. Seen from the output, every operand is
//! `outer` blocks of `size_k * inner` consecutive elements, where `outer` is the
//! product of the dimensions before `dimension` and `inner` of those after, so a
//! row-major operand is copied a whole block at a time (a memcpy) and a strided
//! one (a transposed or broadcast view) is read through the strided engine.

use super::common::{internal, typed};
use super::registry::{Checked, OpDef, OpId};
use ndarray::{ArrayD, IxDyn};
use rayon::prelude::*;
use std::mem::MaybeUninit;
use std::sync::Arc;
use xlet_check::call::{Attr, CallCtx};
use xlet_core::alloc;
use xlet_core::diag::Diag;
use xlet_core::types::{ArrayType, Type};
use xlet_core::value::{Array, Elem, Value};
use xlet_core::with_array;
use xlet_ir::{EvalCx, Kernel, KernelError};
use xlet_kernels::strided::{GRAIN, Gather, Src, TASK, interrupt_error, interrupted};
use xlet_syntax::ast::Expr;

const SPEC: &str = include_str!("../../../spec/ops/concatenate.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::Concatenate,
    aliases: &["Concat", "ConcatInDim"],
    signature: "Concatenate(operands..., dimension)",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let (exprs, dim, list_span) = read_args(cx)?;
    let ops = cx.exprs_alike(&exprs, None)?;
    let Some(first) = ops.first() else {
        return Err(cx
            .err("C1", "there must be at least one operand", list_span)
            .with_label("no operands")
            .with_help("write Concatenate({a, b}, 0)"));
    };
    let first = first.clone();
    // C2: arrays only.
    let mut types: Vec<ArrayType> = vec![];
    for op in &ops {
        types.push(cx.array(op, "C2", "each operand of Concatenate")?.clone());
    }
    let t0 = types[0].clone();
    // C3: one element type.
    for (op, t) in ops.iter().zip(&types).skip(1) {
        if t.elem != t0.elem {
            return Err(cx
                .err(
                    "C3",
                    format!(
                        "operands must have one element type, found {} and {}",
                        t0.elem, t.elem
                    ),
                    op.span.clone(),
                )
                .with_label(format!("{t}"))
                .with_secondary(first.span.clone(), format!("{t0}"))
                .with_help(format!(
                    "convert it first: ConvertElementType({}, {})",
                    cx.text(&op.span),
                    t0.elem
                )));
        }
    }
    // C4: no scalars (there is no dimension to join them along).
    for (op, t) in ops.iter().zip(&types) {
        if t.rank() == 0 {
            return Err(cx
                .err(
                    "C4",
                    format!("scalars cannot be concatenated (there is no dimension to join along), found {t}"),
                    op.span.clone(),
                )
                .with_label("a scalar")
                .with_help(format!(
                    "make it a vector first: Reshape({}, {{1}})",
                    cx.text(&op.span)
                )));
        }
    }
    // C5: one rank.
    for (op, t) in ops.iter().zip(&types).skip(1) {
        if t.rank() != t0.rank() {
            return Err(cx
                .err(
                    "C5",
                    format!(
                        "operands must have one rank, found {t0} (rank {}) and {t} (rank {})",
                        t0.rank(),
                        t.rank()
                    ),
                    op.span.clone(),
                )
                .with_label(format!("{t}"))
                .with_secondary(first.span.clone(), format!("{t0}")));
        }
    }
    // C6: `dimension` names one of them.
    let rank = t0.rank();
    let Some(d) = usize::try_from(dim.value).ok().filter(|&d| d < rank) else {
        return Err(cx
            .err(
                "C6",
                format!(
                    "dimension {} is not a dimension of the operands (rank {rank}: 0..{})",
                    dim.value,
                    rank - 1
                ),
                dim.span.clone(),
            )
            .with_label(format!("must be in 0..{}", rank - 1))
            .with_secondary(first.span.clone(), format!("{t0}")));
    };
    // C7: every other dimension agrees.
    for (op, t) in ops.iter().zip(&types).skip(1) {
        if let Some(k) = (0..rank).find(|&k| k != d && t.dims[k] != t0.dims[k]) {
            return Err(cx
                .err(
                    "C7",
                    format!(
                        "operands may differ only in dimension {d}, but {t0} and {t} differ in dimension {k} ({} vs {})",
                        t0.dims[k], t.dims[k]
                    ),
                    op.span.clone(),
                )
                .with_label(format!("{t}"))
                .with_secondary(first.span.clone(), format!("{t0}")));
        }
    }
    let mut out_dims = t0.dims.clone();
    out_dims[d] = types
        .iter()
        .try_fold(0usize, |s, t| s.checked_add(t.dims[d]))
        .ok_or_else(|| {
            Diag::check(
                "size",
                format!(
                    "{}: the concatenated dimension is too large to count",
                    cx.name()
                ),
                cx.span.clone(),
            )
        })?;
    Ok(Checked {
        ty: Type::array(t0.elem, out_dims.clone()),
        kernel: Arc::new(ConcatKernel { dim: d, out_dims }),
    })
}

/// The operand expressions and `dimension`. A lone brace list before the
/// dimension is the list of operands (typed or not: `{{2, 3}, {4, 5}}` is two
/// operands, as in the docs); otherwise each positional argument but the last is
/// one operand. `dimension=` may be given by name, after the operands.
fn read_args<'a>(
    cx: &mut CallCtx<'_, '_, 'a>,
) -> Result<(Vec<&'a Expr>, Attr<i64>, xlet_core::span::Span), Diag> {
    let n = cx.positional_count();
    let dim = match cx.int(None, "dimension")? {
        Some(d) => (d, n),
        None => {
            if n < 2 {
                // No room for both operands and a dimension: name what is missing.
                let missing = if n == 0 { "operands" } else { "dimension" };
                return Err(match cx.require(Some(n.max(1)), missing) {
                    Err(d) => d,
                    Ok(e) => cx
                        .err("arity", "missing argument `dimension`", e.span.clone())
                        .with_help(format!("{} is called as {}", cx.name(), cx.op.signature)),
                });
            }
            let d = cx
                .int(Some(n - 1), "dimension")?
                .ok_or_else(|| cx.err("arity", "missing argument `dimension`", cx.span.clone()))?;
            (d, n - 1)
        }
    };
    let (dim, count) = dim;
    let mut exprs = vec![];
    if count == 0 {
        // Only keywords: `Concatenate(operands={a, b}, dimension=0)`.
        exprs.push(cx.require(None, "operands")?);
    }
    for p in 0..count {
        match cx.take(Some(p), "operands")? {
            Some(e) => exprs.push(e),
            None => return Err(cx.err("arity", "an operand could not be read", cx.span.clone())),
        }
    }
    let span = exprs[0].span.clone();
    if exprs.len() == 1 {
        use xlet_syntax::ast::ExprKind;
        match &exprs[0].kind {
            ExprKind::Brace(items) => return Ok((items.iter().collect(), dim, span)),
            ExprKind::Numbers(_) => {
                return Err(cx
                    .err(
                        "C4",
                        "scalars cannot be concatenated: a brace list here is the list of operands, and these are numbers",
                        span,
                    )
                    .with_label("a list of scalars")
                    .with_help(format!(
                        "to join vectors write each one, e.g. Concatenate({{{{1, 2}}, {{3}}}}, 0); a single literal array needs its type: s32[2] {}",
                        cx.text(&exprs[0].span)
                    )));
            }
            _ => {}
        }
    }
    Ok((exprs, dim, span))
}

struct ConcatKernel {
    dim: usize,
    out_dims: Vec<usize>,
}

impl Kernel for ConcatKernel {
    fn movement(&self) -> Option<xlet_ir::movement::Movement> {
        Some(xlet_ir::movement::Movement::Concatenate { dim: self.dim })
    }
    fn vjp(&self, cx: &mut xlet_ir::rule::RuleCx) -> Result<(), xlet_ir::rule::NoRule> {
        xlet_grad::structural::concatenate(cx, self.dim)
    }
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let arrays: Vec<&Array> = args.iter().filter_map(Value::as_array).collect();
        let Some(first) = arrays.first() else {
            return Err(internal("Concatenate without operands"));
        };
        if arrays.len() != args.len() {
            return Err(internal("Concatenate expects arrays"));
        }
        with_array!(first, x => concat_as(x, &arrays, self.dim, &self.out_dims)).map(Value::Array)
    }
}

fn concat_as<T: Elem + Send + Sync>(
    _witness: &xlet_core::value::Nd<T>,
    arrays: &[&Array],
    dim: usize,
    out_dims: &[usize],
) -> Result<Array, KernelError> {
    let xs = arrays
        .iter()
        .map(|a| typed::<T>(a))
        .collect::<Result<Vec<_>, _>>()?;
    concat(&xs, dim, out_dims)
}

/// Where one operand's elements come from: a row-major slice, or a strided view.
enum Source<'a, T> {
    Slice(&'a [T]),
    View(Gather<'a, T>),
}

/// One operand seen from the output: its block of `len` elements starts at
/// `off` in every output row of `row` elements.
struct Part<'a, T> {
    src: Source<'a, T>,
    off: usize,
    len: usize,
}

/// The concatenation of `xs` along `dim` (the checker proved the shapes fit;
/// they are checked again here because the copy trusts them).
pub fn concat<T: Elem + Send + Sync>(
    xs: &[&xlet_core::value::Nd<T>],
    dim: usize,
    out_dims: &[usize],
) -> Result<Array, KernelError> {
    let fits = xs.iter().all(|x| {
        x.ndim() == out_dims.len()
            && x.shape()
                .iter()
                .zip(out_dims)
                .enumerate()
                .all(|(k, (a, b))| k == dim || a == b)
    }) && xs.iter().map(|x| x.shape()[dim]).sum::<usize>() == out_dims[dim];
    if !fits || dim >= out_dims.len() {
        return Err(internal(
            "Concatenate operands do not have the checked shapes",
        ));
    }
    let inner: usize = out_dims[dim + 1..].iter().product();
    let row = out_dims[dim] * inner;
    let mut off = 0;
    let parts: Vec<Part<T>> = xs
        .iter()
        .map(|x| -> Result<Part<T>, KernelError> {
            let g = Gather::new(x.shape(), Src::of(x))?;
            let src = match g.contiguous() {
                Some(s) => Source::Slice(s),
                None => Source::View(g),
            };
            let len = x.shape()[dim] * inner;
            off += len;
            Ok(Part {
                src,
                off: off - len,
                len,
            })
        })
        .collect::<Result<_, _>>()?;
    let n: usize = out_dims.iter().product();
    let mut out: Vec<T> = alloc::try_output_vec(n, &"the concatenation")?;
    let buf = &mut out.spare_capacity_mut()[..n];
    let task = |(i, chunk): (usize, &mut [MaybeUninit<T>])| {
        if interrupted() {
            return Err(interrupt_error());
        }
        fill(&parts, row, i * TASK, chunk);
        Ok(())
    };
    if n < GRAIN {
        buf.chunks_mut(TASK).enumerate().try_for_each(task)?;
    } else {
        buf.par_chunks_mut(TASK).enumerate().try_for_each(task)?;
    }
    // SAFETY: the tasks wrote every one of the n elements (`fill` covers its range).
    unsafe { out.set_len(n) };
    ArrayD::from_shape_vec(IxDyn(out_dims), out)
        .map(|a| T::wrap(a.into_shared()))
        .map_err(|_| internal("Concatenate element count does not match its shape"))
}

/// Writes output elements `start..start + out.len()`, one operand run at a time.
fn fill<T: Copy>(parts: &[Part<T>], row: usize, start: usize, out: &mut [MaybeUninit<T>]) {
    let end = start + out.len();
    let (mut pos, mut w) = (start, 0);
    while pos < end {
        let (o, p) = (pos / row, pos % row);
        // The operand whose block holds position p (empty operands are skipped).
        let k = parts.partition_point(|q| q.off + q.len <= p);
        let Some(q) = parts.get(k) else { return };
        let within = p - q.off;
        let n = (q.len - within).min(end - pos);
        let from = o * q.len + within;
        let dst = &mut out[w..w + n];
        match &q.src {
            Source::Slice(s) => {
                let src = &s[from..from + n];
                // SAFETY: MaybeUninit<T> has T's layout; `dst` and `src` have n
                // elements and do not overlap (the output is a fresh buffer).
                unsafe {
                    std::ptr::copy_nonoverlapping(src.as_ptr(), dst.as_mut_ptr() as *mut T, n)
                };
            }
            Source::View(g) => g.fill(from, dst),
        }
        pos += n;
        w += n;
    }
}

/// The reference form: output element by element from its index (for tests).
#[cfg(test)]
fn reference<T: Copy + Default>(xs: &[ndarray::ArrayViewD<T>], dim: usize) -> ndarray::ArrayD<T> {
    let mut dims = xs[0].shape().to_vec();
    dims[dim] = xs.iter().map(|x| x.shape()[dim]).sum();
    let mut out = ndarray::ArrayD::from_elem(IxDyn(&dims), T::default());
    for (idx, v) in out.indexed_iter_mut() {
        let mut i = ndarray::Dimension::slice(&idx).to_vec();
        for x in xs {
            if i[dim] < x.shape()[dim] {
                *v = x[IxDyn(&i)];
                break;
            }
            i[dim] -= x.shape()[dim];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arr(dims: &[usize], start: i32) -> xlet_core::value::Nd<i32> {
        let n: usize = dims.iter().product();
        ArrayD::from_shape_vec(IxDyn(dims), (start..start + n as i32).collect())
            .unwrap()
            .into_shared()
    }

    fn check(xs: Vec<xlet_core::value::Nd<i32>>, dim: usize) {
        let views: Vec<_> = xs.iter().map(|x| x.view()).collect();
        let want = reference(&views, dim);
        let refs: Vec<&xlet_core::value::Nd<i32>> = xs.iter().collect();
        let got = concat(&refs, dim, want.shape()).unwrap();
        let got = i32::unwrap(&got).unwrap();
        assert_eq!(got.shape(), want.shape());
        assert!(got.iter().eq(want.iter()), "dim {dim}");
    }

    #[test]
    fn matches_reference_on_layouts() {
        // Contiguous, transposed, sliced (stepped), reversed and empty operands,
        // small and above the parallel grain, on every dimension.
        for dim in 0..3 {
            let mut a_dims = [3, 4, 5];
            a_dims[dim] = 2;
            let a = arr(&a_dims, 0);
            let mut t_dims = [5, 4, 3];
            t_dims[2 - dim] = 3;
            let t = arr(&t_dims, 1000).permuted_axes(IxDyn(&[2, 1, 0]));
            // Every other element of a larger array: a strided view of its storage.
            let mut s_dims = [6, 8, 10];
            s_dims[dim] = 4;
            let mut stepped = arr(&s_dims, 5000);
            stepped.slice_each_axis_inplace(|_| ndarray::Slice::new(0, None, 2));
            let mut e_dims = [3, 4, 5];
            e_dims[dim] = 0;
            let e = arr(&e_dims, 0);
            // Reversed along dimension 0: a negative stride.
            let mut r_dims = [3, 4, 5];
            r_dims[dim] = 1;
            let mut rev = arr(&r_dims, 7000);
            rev.invert_axis(ndarray::Axis(0));
            check(vec![a, t, stepped, e, rev], dim);
        }
        // Large enough for the parallel path, with a strided operand.
        let a = arr(&[300, 200], 0);
        let b = arr(&[200, 300], 1).reversed_axes();
        check(vec![a.clone(), b.clone()], 1);
        check(vec![a, b.clone(), b], 0);
    }
}
