//! Arguments that ops taking computations need (spec/computations.md): a
//! computation passed by name, either a user `comp` or a prelude comp
//! synthesised at the scalar types the op asks for; and brace lists of
//! operands (`Map({a, b}, f)`, `Reduce({x, y}, {0, 0}, f, {1})`).

use super::call::{Attr, CallCtx, Operand};
use super::literal::is_weak;
use super::{Checker, Local, POISONED};
use crate::table::OpDef;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use xlet_core::OpId;
use xlet_core::diag::Diag;
use xlet_core::types::{ElemType, Type};
use xlet_ir::Comp;
use xlet_syntax::ast::{Expr, ExprKind, NumLit, Span, UnOp};
use xlet_syntax::names;

/// The prelude: computations every program has, at every element type their op
/// accepts, typed by the op they are passed to.
pub const PRELUDE: &[(&str, OpId)] = &[
    ("add", OpId::Add),
    ("mul", OpId::Mul),
    ("max", OpId::Max),
    ("min", OpId::Min),
    ("and", OpId::And),
    ("or", OpId::Or),
];

fn prelude_op(name: &str) -> Option<OpId> {
    PRELUDE.iter().find(|(n, _)| *n == name).map(|(_, op)| *op)
}

/// A list of operands as the op received it.
pub struct OperandList {
    pub items: Vec<Operand>,
    /// Written as `{a, b}` (a one-item brace too), rather than as one expression.
    pub braced: bool,
    pub span: Span,
}

/// `comp gt(a: f32, b: f32) -> pred { a > b }`: a comparator for `params`
/// (the first two compare; any others are named and ignored).
fn comparator_text(cname: &str, params: &[Type]) -> String {
    let valid = !cname.is_empty()
        && cname.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !cname.starts_with(|c: char| c.is_ascii_digit());
    let name = if valid { cname } else { "gt" };
    let letters = ["a", "b", "c", "d", "e", "f", "g", "h"];
    let ps: Vec<String> = params
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let n = letters.get(i).map_or(format!("p{i}"), |l| l.to_string());
            let ty = match t.as_array() {
                Some(a) if a.dims.is_empty() => a.elem.to_string(),
                _ => t.to_string(),
            };
            format!("{n}: {ty}")
        })
        .collect();
    let lower = name.to_ascii_lowercase();
    let ascending = ["lt", "le", "less", "asc", "min", "smaller"]
        .iter()
        .any(|w| lower.starts_with(w) || lower.contains(&format!("_{w}")));
    let cmp = if ascending { "<" } else { ">" };
    format!("`comp {name}({}) -> pred {{ a {cmp} b }}`", ps.join(", "))
}

/// The items of a brace of plain numbers as the expressions they stand for
/// (a number, or `Neg` of one), to read the brace as a list of operands.
pub fn number_items(run: &xlet_syntax::ast::NumRun) -> Vec<Expr> {
    run.iter()
        .map(|n| {
            let num = Expr {
                kind: ExprKind::Number(NumLit {
                    text: n.text.to_string(),
                    is_integer: n.is_integer,
                }),
                span: n.span(),
            };
            if n.negative {
                Expr {
                    kind: ExprKind::Unary {
                        op: UnOp::Neg,
                        operand: Box::new(num),
                    },
                    span: n.span(),
                }
            } else {
                num
            }
        })
        .collect()
}

/// `(f32[], f32[]) -> f32[]`: the types an op needs of a computation.
pub fn wanted_signature(params: &[Type], ret: Option<&Type>) -> String {
    let ps: Vec<String> = params.iter().map(|t| t.to_string()).collect();
    match ret {
        Some(r) => format!("({}) -> {r}", ps.join(", ")),
        None => format!("({}) -> any type", ps.join(", ")),
    }
}

impl<'a> CallCtx<'_, '_, 'a> {
    /// A computation argument (see the module comment), whose parameters must have
    /// the types `params` and, when `ret` is given, its result that type. Errors
    /// carry constraint `c` of the op and show both signatures.
    pub fn computation(
        &mut self,
        pos: Option<usize>,
        name: &str,
        params: &[Type],
        ret: Option<&Type>,
        c: &str,
    ) -> Result<Attr<Arc<Comp>>, Diag> {
        let e = self.require(pos, name)?;
        self.computation_of(e, name, params, ret, c)
    }

    /// Whether `e` is the name of a computation (a user `comp` or the
    /// prelude's), not of a value.
    pub fn names_computation(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Var(v) => {
                !self.ck.is_bound(v)
                    && (self.ck.env.comps.contains_key(v) || prelude_op(v).is_some())
            }
            _ => false,
        }
    }

    /// Whether `e` is a value rather than a name of a computation or an unknown
    /// name: any expression but a name, or a name bound by a `let` or parameter.
    pub fn names_value(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Var(v) => self.ck.is_bound(v),
            _ => true,
        }
    }

    /// Catches the computation written at position `value` and the value at
    /// `comp` (`Reduce(x, add, 0.0, {1})`): an `arity` error with the call in
    /// the right order. Nothing is taken.
    pub fn check_comp_not_swapped(&self, value: usize, comp: usize) -> Result<(), Diag> {
        match (self.peek(value), self.peek(comp)) {
            (Some(v), Some(c)) if self.names_computation(v) && !self.names_computation(c) => {
                Err(self.swapped(value, comp))
            }
            _ => Ok(()),
        }
    }

    /// Like `computation`, for an expression the rule took itself (an item of a
    /// list of computations).
    pub fn computation_of(
        &mut self,
        e: &Expr,
        name: &str,
        params: &[Type],
        ret: Option<&Type>,
        c: &str,
    ) -> Result<Attr<Arc<Comp>>, Diag> {
        let want = wanted_signature(params, ret);
        let cname = match &e.kind {
            ExprKind::Var(v) => v.clone(),
            _ => {
                return Err(self
                    .err(
                        c,
                        format!("`{name}` must be a computation {want}"),
                        e.span.clone(),
                    )
                    .with_label("not a computation")
                    .with_help(
                        "pass a `comp` by name, or one of the prelude's add mul max min and or",
                    ));
            }
        };
        let span = e.span.clone();
        let comp = if let Some(comp) = self.ck.env.comps.get(&cname).cloned() {
            comp
        } else if let Some(op) = prelude_op(&cname) {
            Arc::new(self.prelude(&cname, op, params, &span, c)?)
        } else if self.ck.poisoned.contains(&cname) {
            return Err(Diag::check(
                POISONED,
                format!("`{cname}` failed to check"),
                span,
            ));
        } else {
            return Err(self.unknown_comp(&cname, name, params, ret, span, c));
        };
        self.check_signature(&comp, params, ret, &span, c)?;
        self.ck.reach_through(&comp, &span)?;
        Ok(Attr { value: comp, span })
    }

    fn unknown_comp(
        &self,
        cname: &str,
        name: &str,
        params: &[Type],
        ret: Option<&Type>,
        span: Span,
        c: &str,
    ) -> Diag {
        let want = wanted_signature(params, ret);
        let what = if self.ck.is_bound(cname) {
            format!(
                "`{cname}` is a value, not a computation; `{name}` must be a computation {want}"
            )
        } else {
            format!("unknown computation `{cname}`; `{name}` must be a computation {want}")
        };
        let mut d = self.err(c, what, span).with_label("not a comp");
        let user: Vec<&str> = self.ck.env.comps.keys().map(String::as_str).collect();
        let pred = Type::scalar(ElemType::Pred);
        if ret == Some(&pred) {
            // A comparator (Sort, SelectAndScatter's select): the prelude's comps
            // combine values and none returns pred, so only user comps are near.
            let help = match names::nearest(cname, &user) {
                Some(n) => format!("did you mean `{n}`?"),
                None => format!(
                    "{name} is a comp returning pred, and the prelude has none (add mul max min and or combine values); define one: {}",
                    comparator_text(cname, params)
                ),
            };
            return d.with_help(help);
        }
        // `maximum` (StableHLO, jax.numpy) for the prelude's `max`.
        if let Some(p) = self
            .ck
            .limits
            .ops
            .prelude_name_for(cname)
            .filter(|p| prelude_op(p).is_some())
        {
            let p = p.as_str();
            return d.with_help(format!("did you mean the prelude's `{p}`?"));
        }
        let mut names = user;
        names.extend(PRELUDE.iter().map(|(n, _)| *n));
        d = match names::nearest(cname, &names) {
            Some(n) => d.with_help(format!("did you mean `{n}`?")),
            None => d.with_help(
                "define one with `comp NAME(a: T, b: T) -> T { ... }`, or use the prelude's add mul max min and or",
            ),
        };
        d
    }

    fn check_signature(
        &self,
        comp: &Comp,
        params: &[Type],
        ret: Option<&Type>,
        span: &Span,
        c: &str,
    ) -> Result<(), Diag> {
        let got: Vec<&Type> = comp.params.iter().map(|(_, t)| t).collect();
        let params_ok = got.len() == params.len() && got.iter().zip(params).all(|(a, b)| *a == b);
        let ret_ok = ret.is_none_or(|r| &comp.ret == r);
        if params_ok && ret_ok {
            return Ok(());
        }
        let want = wanted_signature(params, ret);
        let why = if got.len() != params.len() {
            format!(
                "it takes {}, not {}",
                xlet_core::english::count(got.len(), "parameter"),
                params.len()
            )
        } else if let Some(((pname, t), w)) =
            comp.params.iter().zip(params).find(|((_, t), w)| t != *w)
        {
            format!("its parameter `{pname}` is {t}, not {w}")
        } else {
            format!(
                "it returns {}, not {}",
                comp.ret,
                ret.map_or(String::new(), |r| r.to_string())
            )
        };
        Err(self
            .err(
                c,
                format!(
                    "computation `{}` is {} but {} needs {want} here: {why}",
                    comp.name,
                    comp.signature(),
                    self.name()
                ),
                span.clone(),
            )
            .with_label(format!("{} {}", comp.name, comp.signature()))
            .with_secondary(comp.span.clone(), "defined here")
            .with_help(format!("the computation must be {want}")))
    }

    /// The prelude computation `name` (`add`, ...) on two scalars of type `t`,
    /// for an op whose computation is implied (CrossReplicaSum's `add`).
    pub fn prelude_computation(
        &mut self,
        name: &str,
        t: &Type,
        c: &str,
    ) -> Result<Arc<Comp>, Diag> {
        let span = self.span.clone();
        let Some(op) = prelude_op(name) else {
            return Err(Diag::check(
                "internal",
                format!("internal: no prelude `{name}`"),
                span,
            ));
        };
        let comp = Arc::new(self.prelude(name, op, &[t.clone(), t.clone()], &span, c)?);
        self.ck.reach_through(&comp, &span)?;
        Ok(comp)
    }

    /// A prelude comp `name` (the op `op` on two parameters) at `params`.
    fn prelude(
        &mut self,
        name: &str,
        op: OpId,
        params: &[Type],
        span: &Span,
        c: &str,
    ) -> Result<Comp, Diag> {
        let ok = match params {
            [a, b] => a == b && a.as_array().is_some_and(|t| t.dims.is_empty()),
            _ => false,
        };
        if !ok {
            return Err(self
                .err(
                    c,
                    format!(
                        "the prelude's `{name}` takes two scalars of one type, but {} needs a computation {}",
                        self.name(),
                        wanted_signature(params, None)
                    ),
                    span.clone(),
                )
                .with_label(format!("`{name}` does not fit here"))
                .with_help("write a `comp` with the parameters the op needs"));
        }
        let op_def = self.ck.limits.ops.get(op).ok_or_else(|| {
            Diag::check("internal", format!("internal: no op {op}"), span.clone())
        })?;
        self.ck
            .synthesize_binary(name, op_def, &params[0], span)
            .map_err(|d| {
                d.with_note(format!(
                    "in the prelude computation `{name}` at {}, passed to {}",
                    params[0],
                    self.name()
                ))
            })
    }

    /// Operands written as a brace list `{a, b}` or as one expression (a list of
    /// one). A brace of plain numbers is one literal array unless `count` says
    /// how many operands the list holds (init values: `{0, 0}`). `hints[i]`
    /// types untyped literal item `i`.
    pub fn operand_list(
        &mut self,
        pos: usize,
        name: &str,
        count: Option<usize>,
        hints: &[Option<ElemType>],
    ) -> Result<OperandList, Diag> {
        let e = self.require(Some(pos), name)?;
        let hint = |i: usize| hints.get(i).copied().flatten();
        let owned: Vec<Expr>;
        let items: Option<&[Expr]> = match &e.kind {
            ExprKind::Brace(items) if count.is_some() || !is_weak(e) => Some(items),
            ExprKind::Numbers(run) if count.is_some() => {
                owned = number_items(run);
                Some(&owned)
            }
            _ => None,
        };
        let span = e.span.clone();
        let Some(items) = items else {
            let op = self.push_operand(e, hint(0))?;
            return Ok(OperandList {
                items: vec![op],
                braced: false,
                span,
            });
        };
        let mut out = vec![];
        for (i, item) in items.iter().enumerate() {
            out.push(self.push_operand(item, hint(i))?);
        }
        Ok(OperandList {
            items: out,
            braced: true,
            span,
        })
    }
}

impl Checker<'_> {
    /// A comp `name(a: T, b: T) { op(a, b) }` checked as if written by the user
    /// at `span` (the prelude's comps; each use makes its own).
    pub(super) fn synthesize_binary(
        &mut self,
        name: &str,
        op: &'static OpDef,
        t: &Type,
        span: &Span,
    ) -> Result<Comp, Diag> {
        let var = |n: &str| Expr {
            kind: ExprKind::Var(n.to_string()),
            span: span.clone(),
        };
        let (a, b) = (var("a"), var("b"));
        let mut names = HashMap::new();
        names.insert("a".to_string(), (0, t.clone()));
        names.insert("b".to_string(), (1, t.clone()));
        // The comp has its own scope, like a `comp` statement: the enclosing one (if
        // the op is inside a comp body) is put back afterwards.
        let outer = self.local.replace(Local { names, next: 2 });
        let outer_depth = std::mem::replace(&mut self.depth, 0);
        let outer_reach = std::mem::replace(&mut self.reach, 0);
        let args = vec![
            super::call::ArgRef {
                name: None,
                expr: &a,
            },
            super::call::ArgRef {
                name: None,
                expr: &b,
            },
        ];
        let result = self.call_op(op, span.clone(), span.clone(), args);
        let reach = self.reach;
        self.local = outer;
        self.depth = outer_depth;
        self.reach = outer_reach;
        let result = result?;
        let id = super::NEXT_COMP_ID.fetch_add(1, Ordering::Relaxed);
        Ok(Comp {
            id,
            captures_of: id,
            names: vec!["a".into(), "b".into()],
            text: "".into(),
            text_at: 0,
            name: name.to_string(),
            params: vec![("a".into(), t.clone()), ("b".into(), t.clone())],
            ret: result.ty.clone(),
            reads: xlet_ir::local_reads(2, &[], &result),
            body: vec![],
            result,
            slots: 2,
            span: span.clone(),
            depth: reach,
        })
    }
}
