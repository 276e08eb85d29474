//! Dimension numbers shared by Gather and Scatter (spec/ops/gather.md,
//! spec/ops/scatter.md): reading the keyword-only attributes (with the seed's
//! older names as aliases), the sorted / unique / in-range rules with errors
//! that name the attribute and echo it, and at run time the start index of
//! each batch position read out of the index array.

use xlet_check::call::{Attr, CallCtx};
use xlet_core::diag::Diag;
use xlet_core::value::Array;
use xlet_ir::KernelError;
use xlet_syntax::ast::{ExprKind, Span};

/// A list of dimension numbers as written, with the name it was written under.
#[derive(Clone, Debug)]
pub struct Dims {
    pub name: &'static str,
    pub v: Vec<i64>,
    pub span: Span,
}

impl Dims {
    /// The entries as indices (only after `in_range` has passed).
    pub fn idx(&self) -> Vec<usize> {
        self.v.iter().map(|&d| d as usize).collect()
    }
    pub fn contains(&self, d: usize) -> bool {
        self.v.contains(&(d as i64))
    }
}

/// `{1, 2}` as the user would write it.
pub fn show(v: &[i64]) -> String {
    let s: Vec<String> = v.iter().map(|d| d.to_string()).collect();
    format!("{{{}}}", s.join(", "))
}

pub fn show_usize(v: &[usize]) -> String {
    let s: Vec<String> = v.iter().map(|d| d.to_string()).collect();
    format!("{{{}}}", s.join(", "))
}

/// Reads the attribute given under any of `names` (the first is the current
/// name, the others the seed's) with `read`, by keyword only; two of them at
/// once is an error.
fn read_named<T>(
    cx: &mut CallCtx,
    names: &[&'static str],
    mut read: impl FnMut(&mut CallCtx, &'static str) -> Result<Option<Attr<T>>, Diag>,
) -> Result<Option<(&'static str, Attr<T>)>, Diag> {
    let mut found: Option<(&'static str, Attr<T>)> = None;
    for &n in names {
        if let Some(a) = read(cx, n)? {
            if let Some((first, fa)) = &found {
                return Err(Diag::check(
                    cx.code("arity"),
                    format!(
                        "{}: `{n}` and `{first}` are two names of one attribute; give it once",
                        cx.name()
                    ),
                    a.span.clone(),
                )
                .with_label("given again here")
                .with_secondary(fa.span.clone(), "first given here"));
            }
            found = Some((n, a));
        }
    }
    Ok(found)
}

/// A keyword list of dimensions; absent is `{}` unless `required`.
pub fn dims(cx: &mut CallCtx, names: &[&'static str], required: bool) -> Result<Dims, Diag> {
    match read_named(cx, names, |cx, n| cx.int_list(None, n))? {
        Some((name, a)) => Ok(Dims {
            name,
            v: a.value,
            span: a.span,
        }),
        None if required => Err(missing(cx, names[0])),
        None => Ok(Dims {
            name: names[0],
            v: vec![],
            span: cx.span.clone(),
        }),
    }
}

/// A required keyword integer (`index_vector_dim=1`).
pub fn int(cx: &mut CallCtx, names: &[&'static str]) -> Result<(i64, Span), Diag> {
    match read_named(cx, names, |cx, n| cx.int(None, n))? {
        Some((_, a)) => Ok((a.value, a.span)),
        None => Err(missing(cx, names[0])),
    }
}

/// An optional keyword flag (`indices_are_sorted=true`); false when absent.
pub fn flag(cx: &mut CallCtx, name: &'static str) -> Result<bool, Diag> {
    flag_at(cx, None, name, false)
}

/// An optional `true`/`false` attribute, at position `pos` or by name
/// (`is_stable`, `largest`); `default` when absent.
pub fn flag_at(
    cx: &mut CallCtx,
    pos: Option<usize>,
    name: &'static str,
    default: bool,
) -> Result<bool, Diag> {
    let Some(e) = cx.take(pos, name)? else {
        return Ok(default);
    };
    match &e.kind {
        ExprKind::Bool(b) => Ok(*b),
        ExprKind::Var(v) if v.eq_ignore_ascii_case("true") => Ok(true),
        ExprKind::Var(v) if v.eq_ignore_ascii_case("false") => Ok(false),
        _ => Err(Diag::check(
            cx.code("attr"),
            format!("{}: `{name}` must be true or false", cx.name()),
            e.span.clone(),
        )
        .with_label("expected true or false")
        .with_help(format!("{} is called as {}", cx.name(), cx.op.signature))),
    }
}

fn missing(cx: &CallCtx, name: &str) -> Diag {
    Diag::check(
        cx.code("arity"),
        format!("{}: missing attribute `{name}`", cx.name()),
        cx.span.clone(),
    )
    .with_label(format!("`{name}=...` is missing"))
    .with_help(format!(
        "dimension numbers are given by name: {} is called as {}",
        cx.name(),
        cx.op.signature
    ))
}

/// Dimension numbers are keyword-only: more than `n` positional arguments is
/// an error that says so (the orders of XLA's builder, the seed's table and
/// StableHLO differ, so positions would be a trap).
pub fn no_positional_attrs(cx: &CallCtx, n: usize) -> Result<(), Diag> {
    if cx.positional_count() <= n {
        return Ok(());
    }
    Err(Diag::check(
        cx.code("arity"),
        format!(
            "{}: takes {n} arguments by position, found {}; its dimension numbers are given by name",
            cx.name(),
            cx.positional_count()
        ),
        cx.span.clone(),
    )
    .with_label("too many positional arguments")
    .with_help(format!("{} is called as {}", cx.name(), cx.op.signature)))
}

/// Constraint `c`: every entry of `d` is in `0..bound` (`what` names the bound).
pub fn in_range(cx: &CallCtx, c: &str, d: &Dims, bound: usize, what: &str) -> Result<(), Diag> {
    if let Some(&bad) = d.v.iter().find(|&&x| x < 0 || x as u64 >= bound as u64) {
        let range = if bound == 0 {
            "there are none".to_string()
        } else {
            format!("0..{}", bound - 1)
        };
        return Err(cx
            .err(
                c,
                format!(
                    "`{}` = {} holds {bad}, which is not a dimension of {what}: {what} has rank {bound}, so its dimensions are {range}",
                    d.name,
                    show(&d.v)
                ),
                d.span.clone(),
            )
            .with_label(format!("{bad} is out of range")));
    }
    Ok(())
}

/// Constraint `c`: no entry of `d` repeats.
pub fn unique(cx: &CallCtx, c: &str, d: &Dims) -> Result<(), Diag> {
    for (i, x) in d.v.iter().enumerate() {
        if d.v[..i].contains(x) {
            return Err(cx
                .err(
                    c,
                    format!("`{}` = {} repeats dimension {x}", d.name, show(&d.v)),
                    d.span.clone(),
                )
                .with_label(format!("{x} appears twice"))
                .with_help("list each dimension once"));
        }
    }
    Ok(())
}

/// Constraint `c`: `d` is in ascending order.
pub fn sorted(cx: &CallCtx, c: &str, d: &Dims) -> Result<(), Diag> {
    if d.v.windows(2).all(|w| w[0] < w[1]) {
        return Ok(());
    }
    let mut s = d.v.clone();
    s.sort_unstable();
    Err(cx
        .err(
            c,
            format!("`{}` = {} must be in ascending order", d.name, show(&d.v)),
            d.span.clone(),
        )
        .with_label("not ascending")
        .with_help(format!("write {}={}", d.name, show(&s))))
}

/// Constraint `c`: `a` and `b` share no dimension.
pub fn disjoint(cx: &CallCtx, c: &str, a: &Dims, b: &Dims, what: &str) -> Result<(), Diag> {
    if let Some(&x) = b.v.iter().find(|x| a.v.contains(x)) {
        return Err(cx
            .err(
                c,
                format!(
                    "operand dimension {x} is in both `{}` = {} and `{}` = {}; {what}",
                    a.name,
                    show(&a.v),
                    b.name,
                    show(&b.v)
                ),
                b.span.clone(),
            )
            .with_label(format!("{x} is also in `{}`", a.name))
            .with_secondary(a.span.clone(), format!("{x} is here too")));
    }
    Ok(())
}

/// How a batch position of the index array names a place in the operand.
#[derive(Clone, Debug)]
pub struct IndexSpace {
    /// The index array's dimensions.
    pub idx_dims: Vec<usize>,
    /// Which of them holds the index vectors; `idx_dims.len()` means an implicit
    /// trailing dimension of size 1.
    pub ivd: usize,
    /// Component k of an index vector is the start in operand dimension `start_map[k]`.
    pub start_map: Vec<usize>,
    /// (operand dimension, index-array dimension) pairs of batching dimensions.
    pub batching: Vec<(usize, usize)>,
    pub operand_rank: usize,
}

impl IndexSpace {
    /// The sizes of the batch space: the index array's dimensions but `ivd`.
    pub fn batch_dims(&self) -> Vec<usize> {
        (0..self.idx_dims.len())
            .filter(|&d| d != self.ivd)
            .map(|d| self.idx_dims[d])
            .collect()
    }

    /// The unclamped start index in every operand dimension for the batch
    /// position `bpos` (one entry per batch dimension): index vector components
    /// at their `start_map` dimensions, batch coordinates at batching
    /// dimensions, 0 elsewhere. `idx` is the index array in row-major order.
    pub fn starts(&self, idx: &[i64], bpos: &[usize], out: &mut [i64]) {
        let r = self.idx_dims.len();
        let mut stride = 1usize;
        let mut base = 0usize;
        let mut vec_stride = 0usize;
        for d in (0..r).rev() {
            if d == self.ivd {
                vec_stride = stride;
            } else {
                let j = if d < self.ivd { d } else { d - 1 };
                base += bpos[j] * stride;
            }
            stride *= self.idx_dims[d];
        }
        out.iter_mut().for_each(|x| *x = 0);
        for (k, &od) in self.start_map.iter().enumerate() {
            out[od] = idx.get(base + k * vec_stride).copied().unwrap_or(0);
        }
        for &(od, id) in &self.batching {
            let j = if id < self.ivd { id } else { id - 1 };
            out[od] = bpos[j] as i64;
        }
    }
}

/// Row-major strides of `dims`.
pub fn row_major(dims: &[usize]) -> Vec<usize> {
    let mut s = vec![1usize; dims.len()];
    for d in (0..dims.len().saturating_sub(1)).rev() {
        s[d] = s[d + 1] * dims[d + 1];
    }
    s
}

/// Advances a row-major odometer over `dims`.
pub fn step(pos: &mut [usize], dims: &[usize]) {
    for d in (0..dims.len()).rev() {
        pos[d] += 1;
        if pos[d] < dims[d] {
            return;
        }
        pos[d] = 0;
    }
}

/// The multi-index of flat position `p` in row-major `dims`.
pub fn unflatten(mut p: usize, dims: &[usize], out: &mut [usize]) {
    for d in (0..dims.len()).rev() {
        let n = dims[d].max(1);
        out[d] = p % n;
        p /= n;
    }
}

/// The index array's values in row-major order as i64, of any integer type
/// (u64 values beyond i64::MAX saturate: every start that large is clamped or
/// out of bounds alike). Admitted under the memory budget first.
pub fn index_values(a: &Array) -> Result<Vec<i64>, KernelError> {
    fn go<T: xlet_core::value::Elem + Copy + Into<i128>>(
        a: &Array,
    ) -> Result<Vec<i64>, KernelError> {
        let x = T::unwrap(a).ok_or_else(|| crate::common::internal("index array type"))?;
        xlet_core::alloc::try_collect(
            x.iter()
                .map(|&v| i64::try_from(v.into()).unwrap_or(i64::MAX)),
            &"the start indices as 64-bit",
        )
    }
    crate::for_class!(a.elem(), T, [int] => go::<T>(a)).unwrap_or_else(|| {
        Err(crate::common::internal(
            "start indices of a non-integer type",
        ))
    })
}
