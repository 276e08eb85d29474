//! What the collective ops share (spec/distributed.md): where a call is (its
//! `Site`), reading and checking `replica_groups`, meeting the other replicas
//! at the hub, the reduction by a computation in replica-id order, and moving
//! blocks of arrays (concatenate, split).

use super::common::{contiguous, internal};
use ndarray::{Axis, IxDyn};
use std::sync::Arc;
use xlet_check::call::{Attr, CallCtx, Operand};
use xlet_core::diag::Diag;
use xlet_core::types::ArrayType;
use xlet_core::value::{Array, Elem, Nd, Value};
use xlet_core::{with_array, with_elem_type};
use xlet_eval::comp::Vectorized;
use xlet_ir::replica::Site;
use xlet_ir::{Comp, EvalCx, KernelError};
use xlet_kernels::reduce::generic::scalar_at;
use xlet_kernels::strided::{interrupt_error, interrupted};
use xlet_syntax::ast::{Expr, ExprKind};

/// The call's place, for matching the replicas' collectives and for errors.
pub fn site(cx: &CallCtx) -> Site {
    Site {
        op: cx.op.id,
        span: cx.span.clone(),
        line: xlet_core::diag::line_col(cx.ck.src, cx.span.start).0,
    }
}

/// An array operand (constraint `c`: collectives move arrays, not tuples).
pub fn array_operand(cx: &mut CallCtx, pos: usize, c: &str) -> Result<(Operand, ArrayType), Diag> {
    let o = cx.operand(pos, "operand")?;
    let t = cx.array(&o, c, "operand")?;
    let t = t.clone();
    Ok((o, t))
}

/// `replica_groups`: disjoint groups of replica ids; empty means one group of
/// every replica.
#[derive(Clone, Debug)]
pub struct Groups {
    pub groups: Vec<Vec<usize>>,
    /// The constraint label for errors found at run time (`AllReduce: C3`).
    pub code: xlet_core::diag::Code,
}

impl Groups {
    /// The size of every group, as the checker knows it: the first group's, or
    /// the replica count (1 when unknown: the kernel checks it when it runs).
    pub fn static_size(&self, count: Option<usize>) -> usize {
        self.groups.first().map_or(count.unwrap_or(1), |g| g.len())
    }

    /// The group replica `id` belongs to, in the order listed, checking what
    /// the checker could not (that the groups partition `count` replicas).
    pub fn of(&self, id: usize, count: usize) -> Result<Vec<usize>, KernelError> {
        if self.groups.is_empty() {
            return Ok((0..count).collect());
        }
        let listed: usize = self.groups.iter().map(Vec::len).sum();
        let out_of_range = self.groups.iter().flatten().find(|&&j| j >= count);
        if let Some(j) = out_of_range {
            return Err(KernelError::new(
                self.code.clone(),
                format!(
                    "{}: replica_groups names replica {j}, but {}",
                    self.code,
                    run_has(count)
                ),
            ));
        }
        if listed != count {
            return Err(KernelError::new(
                self.code.clone(),
                format!(
                    "{}: replica_groups must put each of the {count} replicas in one group, but it lists {listed}",
                    self.code
                ),
            ));
        }
        self.groups
            .iter()
            .find(|g| g.contains(&id))
            .cloned()
            .ok_or_else(|| internal("replica in no group"))
    }

    /// Like `of`, and the group must have the size the checker assumed.
    pub fn of_size(&self, id: usize, count: usize, size: usize) -> Result<Vec<usize>, KernelError> {
        let g = self.of(id, count)?;
        if g.len() != size {
            return Err(KernelError::new(
                self.code.clone(),
                format!(
                    "{}: the program was checked for groups of {size} replicas, but this run's group has {}; \
                     give --replicas when checking, or list replica_groups",
                    self.code,
                    g.len()
                ),
            ));
        }
        Ok(g)
    }
}

/// Reads `replica_groups` (absent or `{}`: every replica) and checks
/// constraint `c`: ids are at least 0, none is listed twice, no group is
/// empty, with `uniform` all groups have one size, and when the replica
/// count is known, the groups partition the replicas.
pub fn replica_groups(
    cx: &mut CallCtx,
    pos: Option<usize>,
    c: &str,
    uniform: bool,
) -> Result<Attr<Groups>, Diag> {
    let code = cx.code(c);
    let Some(e) = cx.take(pos, "replica_groups")? else {
        let span = cx.span.clone();
        return Ok(Attr {
            value: Groups {
                groups: vec![],
                code,
            },
            span,
        });
    };
    let span = e.span.clone();
    let example = "replica_groups={{0, 1}, {2, 3}}";
    let items: Vec<&Expr> = match &inner(e).kind {
        ExprKind::Brace(items) => items.iter().collect(),
        ExprKind::Numbers(n) if n.is_empty() => vec![],
        _ => {
            return Err(cx
                .err(
                    c,
                    "replica_groups must be a list of lists of replica ids",
                    span,
                )
                .with_help(format!(
                    "e.g. {example}, or {{}} for one group of all replicas"
                )));
        }
    };
    let mut groups: Vec<Vec<usize>> = vec![];
    let mut seen = std::collections::HashSet::new();
    for item in items {
        if !matches!(inner(item).kind, ExprKind::Brace(_) | ExprKind::Numbers(_)) {
            return Err(cx
                .err(
                    c,
                    "each replica group must be a list of replica ids",
                    item.span.clone(),
                )
                .with_label("not a list")
                .with_help(format!("e.g. {example}")));
        }
        let ids = cx.ints_of(item, "replica_groups")?;
        if ids.value.is_empty() {
            return Err(cx
                .err(c, "a replica group must not be empty", item.span.clone())
                .with_label("empty group"));
        }
        let mut g = vec![];
        for &v in &ids.value {
            let Ok(j) = usize::try_from(v) else {
                return Err(cx
                    .err(
                        c,
                        format!("replica ids are at least 0, found {v}"),
                        item.span.clone(),
                    )
                    .with_label("negative id"));
            };
            if !seen.insert(j) {
                return Err(cx
                    .err(
                        c,
                        format!("replica {j} is in more than one place in replica_groups"),
                        item.span.clone(),
                    )
                    .with_label(format!("{j} again"))
                    .with_help("the groups must be disjoint: each replica in exactly one group"));
            }
            g.push(j);
        }
        if uniform && groups.first().is_some_and(|f| f.len() != g.len()) {
            return Err(cx
                .err(
                    c,
                    format!(
                        "every replica group must have the same size here: the first has {}, this one {}",
                        groups[0].len(),
                        g.len()
                    ),
                    item.span.clone(),
                )
                .with_label(xlet_core::english::count(g.len(), "replica")));
        }
        groups.push(g);
    }
    if let (Some(n), false) = (cx.ck.limits.replicas, groups.is_empty()) {
        if let Some(&j) = seen.iter().filter(|&&j| j >= n).min() {
            return Err(cx
                .err(
                    c,
                    format!("replica_groups names replica {j}, but {}", run_has(n)),
                    span,
                )
                .with_label(format!("replica {j} does not exist"))
                .with_help("run with more --replicas, or list only existing replicas"));
        }
        if seen.len() != n {
            let missing: Vec<String> = (0..n)
                .filter(|j| !seen.contains(j))
                .map(|j| j.to_string())
                .collect();
            return Err(cx
                .err(
                    c,
                    format!(
                        "replica_groups must put each of the run's {} in one group; missing: {}",
                        xlet_core::english::count(n, "replica"),
                        missing.join(", ")
                    ),
                    span,
                )
                .with_label("does not cover every replica")
                .with_help(
                    "add the missing replicas to a group, or write {} for one group of all",
                ));
        }
    }
    Ok(Attr {
        value: Groups { groups, code },
        span,
    })
}

fn inner(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Typed { value, .. } => value,
        _ => e,
    }
}

/// This replica's id, the replica count, and every replica's operand by id.
pub fn meet(
    cx: &dyn EvalCx,
    site: &Site,
    value: Value,
) -> Result<(usize, usize, Arc<xlet_ir::replica::Gathered>), KernelError> {
    let r = cx.replica();
    let all = r.hub.exchange(r.id, site, value)?;
    Ok((r.id, r.count(), all))
}

/// The arrays of `ids`, in that order.
pub fn arrays_of<'v>(all: &'v [Value], ids: &[usize]) -> Result<Vec<&'v Array>, KernelError> {
    ids.iter()
        .map(|&j| {
            all.get(j)
                .and_then(Value::as_array)
                .ok_or_else(|| internal("collective operand missing"))
        })
        .collect()
}

/// A reduction computation: compiled to whole-array form when it can be
/// (every monoid and any elementwise comp), else called per element.
#[derive(Debug)]
pub struct Combiner {
    pub comp: Arc<Comp>,
    pub fast: Option<Vectorized>,
}

impl Combiner {
    pub fn new(comp: Arc<Comp>) -> Combiner {
        let fast = Vectorized::compile(&comp).filter(|v| v.inputs() == 2 && v.outputs() == 1);
        Combiner { comp, fast }
    }

    /// Whether the whole-array form runs (a comp with no calls, no collectives).
    pub fn is_fast(&self) -> bool {
        self.fast.is_some()
    }

    /// ((v0 ∘ v1) ∘ v2) ∘ ...: the left fold in the order given (the callers
    /// give replica-id order, so the result is the same bits on every run).
    pub fn fold(&self, vals: &[&Array], cx: &dyn EvalCx) -> Result<Array, KernelError> {
        match &self.fast {
            Some(v) => fold_fast(v, vals),
            None => self.fold_reference(vals, cx),
        }
    }

    /// The reference path: the comp called on one element pair at a time.
    pub fn fold_reference(&self, vals: &[&Array], cx: &dyn EvalCx) -> Result<Array, KernelError> {
        let first = vals.first().ok_or_else(|| internal("empty group"))?;
        let dims = first.dims().to_vec();
        let elem = first.elem();
        let flat: Vec<Array> = vals.iter().map(|a| standard(a)).collect::<Result<_, _>>()?;
        let mut out = xlet_kernels::reduce::generic::Results::new(&[elem], first.len())?;
        for i in 0..first.len() {
            if interrupted() {
                return Err(interrupt_error());
            }
            let mut acc = scalar_at(&flat[0], i)?;
            for a in &flat[1..] {
                acc = cx.call_comp(&self.comp, &[acc, scalar_at(a, i)?])?;
            }
            out.push(&[acc])?;
        }
        out.finish(&dims)?
            .pop()
            .ok_or_else(|| internal("no result"))
    }
}

/// The fast path: the compiled comp applied to whole arrays, once per replica.
pub fn fold_fast(v: &Vectorized, vals: &[&Array]) -> Result<Array, KernelError> {
    let (first, rest) = vals.split_first().ok_or_else(|| internal("empty group"))?;
    let mut acc = (*first).clone();
    for a in rest {
        if interrupted() {
            return Err(interrupt_error());
        }
        acc = v
            .run(&[acc, (*a).clone()])?
            .pop()
            .ok_or_else(|| internal("the computation gave no result"))?;
    }
    Ok(acc)
}

/// `a` in row-major order (a copy only when it is a strided view).
pub fn standard(a: &Array) -> Result<Array, KernelError> {
    with_array!(a, v => contiguous(v.clone()).map(Elem::wrap))
}

/// The arrays joined along `dim` (all of one type, equal elsewhere).
pub fn concat(arrays: &[&Array], dim: usize) -> Result<Array, KernelError> {
    let first = arrays
        .first()
        .ok_or_else(|| internal("nothing to concatenate"))?;
    with_elem_type!(first.elem(), T => concat_typed::<T>(arrays, dim))
}

fn concat_typed<T: Elem>(arrays: &[&Array], dim: usize) -> Result<Array, KernelError> {
    let views: Vec<_> = arrays
        .iter()
        .map(|a| T::unwrap(a).map(|v| v.view()))
        .collect::<Option<_>>()
        .ok_or_else(|| internal("collective operands of different types"))?;
    ndarray::concatenate(Axis(dim), &views)
        .map(|a| T::wrap(a.into_shared()))
        .map_err(|_| internal("collective operands of different shapes"))
}

/// Block `k` of `n` equal blocks of `a` along `dim` (a view, no copy).
pub fn block(a: &Array, dim: usize, n: usize, k: usize) -> Result<Array, KernelError> {
    with_array!(a, v => block_typed(v, dim, n, k))
}

fn block_typed<T: Elem>(a: &Nd<T>, dim: usize, n: usize, k: usize) -> Result<Array, KernelError> {
    let size = a
        .shape()
        .get(dim)
        .copied()
        .ok_or_else(|| internal("block dimension"))?;
    let len = size / n.max(1);
    let mut v = a.clone();
    v.slice_axis_inplace(Axis(dim), ndarray::Slice::from(k * len..(k + 1) * len));
    Ok(T::wrap(v))
}

/// An array of zeros (false) of type `t`.
pub fn zeros(t: &ArrayType) -> Result<Array, KernelError> {
    with_elem_type!(t.elem, T => Ok(T::wrap(Nd::from_elem(IxDyn(&t.dims), T::default()))))
}

/// A required static dimension number of a rank-`rank` operand (`t`), else the
/// `c` error.
pub fn dimension(
    cx: &mut CallCtx,
    pos: usize,
    name: &str,
    t: &ArrayType,
    c: &str,
) -> Result<Attr<usize>, Diag> {
    let Some(d) = cx.int(Some(pos), name)? else {
        return Err(missing(cx, name));
    };
    let rank = t.rank();
    match usize::try_from(d.value).ok().filter(|&k| k < rank) {
        Some(k) => Ok(Attr {
            value: k,
            span: d.span,
        }),
        None => Err(cx
            .err(
                c,
                format!("{name} {} is not a dimension of the operand {t}", d.value),
                d.span,
            )
            .with_label(if rank == 0 {
                "a scalar has no dimension".to_string()
            } else {
                format!("must be in 0..{rank}")
            })),
    }
}

/// A required static integer at least 0 (channel ids, replica ids).
pub fn non_negative(
    cx: &mut CallCtx,
    pos: usize,
    name: &str,
    c: &str,
) -> Result<Attr<usize>, Diag> {
    let Some(d) = cx.int(Some(pos), name)? else {
        return Err(missing(cx, name));
    };
    match usize::try_from(d.value) {
        Ok(k) => Ok(Attr {
            value: k,
            span: d.span,
        }),
        Err(_) => Err(cx
            .err(
                c,
                format!("{name} must be at least 0, found {}", d.value),
                d.span,
            )
            .with_label("negative")),
    }
}

/// A replica id attribute (`target=`, `source=`): at least 0 and, when the
/// replica count is known, below it.
pub fn replica_attr(
    cx: &mut CallCtx,
    pos: usize,
    name: &str,
    c: &str,
) -> Result<Attr<usize>, Diag> {
    let a = non_negative(cx, pos, name, c)?;
    if let Some(n) = cx.ck.limits.replicas.filter(|&n| a.value >= n) {
        return Err(cx
            .err(
                c,
                format!("{name} is replica {}, but {}", a.value, run_has(n)),
                a.span.clone(),
            )
            .with_label(format!("replica {} does not exist", a.value))
            .with_help("run with more --replicas"));
    }
    Ok(a)
}

/// A run-time replica id check (when the checker did not know the count).
pub fn existing(
    code: &xlet_core::diag::Code,
    what: &str,
    j: usize,
    count: usize,
) -> Result<usize, KernelError> {
    if j < count {
        Ok(j)
    } else {
        Err(KernelError::new(
            code.clone(),
            format!("{code}: {what} is replica {j}, but the run has {count} replicas"),
        ))
    }
}

fn missing(cx: &CallCtx, name: &str) -> Diag {
    Diag::check(
        cx.code("arity"),
        format!("{}: missing argument `{name}`", cx.name()),
        cx.span.clone(),
    )
    .with_label(format!("`{name}` is missing"))
    .with_help(format!("{} is called as {}", cx.name(), cx.op.signature))
}

/// "the run has 4 replicas (0 to 3)", or "the run has one replica (replica 0)".
pub fn run_has(n: usize) -> String {
    match n {
        1 => "the run has one replica (replica 0)".to_string(),
        _ => format!("the run has {n} replicas (0 to {})", n.saturating_sub(1)),
    }
}
