//! One op call being checked: the op's shape rule reads its arguments through
//! this, by position or by keyword, as operands (checked expressions) or as
//! static attributes (literals), and every argument must be used exactly once.

use super::Checker;
use super::literal::{flatten, has_float_text, is_weak};
use std::sync::Arc;
use xlet_core::OpId;
use xlet_core::diag::Diag;
use xlet_core::types::{ArrayType, ElemType, Type};
use xlet_core::value::literal::Atom;
use xlet_ir as ir;
use xlet_ir::Kernel;
use xlet_syntax::ast::{Expr, ExprKind, Ident, Span, TypeExprKind, UnOp};
use xlet_syntax::names;

/// What an op's shape rule returns: the result type and the kernel, with the
/// static attributes it validated baked in.
pub struct Checked {
    pub ty: Type,
    pub kernel: Arc<dyn Kernel>,
}

/// A shape rule: reads its arguments from the call, applies the op's numbered
/// constraints (spec/ops/*.md), and builds the kernel.
pub type ShapeRule = fn(&mut CallCtx) -> Result<Checked, Diag>;

pub struct OpDef {
    /// Which op: its canonical name (`id.name()`), as in the docs and in spec/ops/.
    pub id: OpId,
    /// Other names it answers to (matched case-insensitively, like `name`).
    pub aliases: &'static [&'static str],
    /// The call form(s), for `:help` and error messages.
    pub signature: &'static str,
    /// The spec file that documents it; `:help` shows its section for this op.
    pub spec: &'static str,
    pub rule: ShapeRule,
}

impl OpDef {
    /// The canonical name, as in the docs and in spec/ops/.
    pub const fn name(&self) -> &'static str {
        self.id.name()
    }
}

/// The names an op's arguments go by, read from its signature: the lowercase
/// identifiers that are not attribute values (`Compare`'s `type=FLOAT|...`).
/// These are what keyword arguments may be called, and what Tab completes.
pub fn params(op: &OpDef) -> Vec<&'static str> {
    let sig = op.signature;
    let args = sig.find('(').map_or("", |i| &sig[i + 1..]);
    let mut out: Vec<&'static str> = vec![];
    let mut after_eq = false;
    let mut start = None;
    for (i, c) in args
        .char_indices()
        .chain(std::iter::once((args.len(), ' ')))
    {
        if c.is_ascii_alphanumeric() || c == '_' {
            start.get_or_insert(i);
            continue;
        }
        if let Some(s) = start.take() {
            let word = &args[s..i];
            let is_name = word.starts_with(|c: char| c.is_ascii_lowercase());
            if is_name && !after_eq && !out.contains(&word) {
                out.push(word);
            }
        }
        match c {
            '=' => after_eq = true,
            ',' | '[' | ']' | ')' => after_eq = false,
            _ => {}
        }
    }
    out
}

/// An argument as written: a keyword name if it had one.
pub struct ArgRef<'a> {
    pub name: Option<&'a Ident>,
    pub expr: &'a Expr,
}

/// An operand the rule has checked: its index in the kernel's argument list.
#[derive(Clone, Debug)]
pub struct Operand {
    pub index: usize,
    pub ty: Type,
    pub span: Span,
}

/// A static attribute's value with where it was written.
#[derive(Clone, Debug)]
pub struct Attr<T> {
    pub value: T,
    pub span: Span,
}

pub struct CallCtx<'c, 's, 'a> {
    pub ck: &'c mut Checker<'s>,
    pub op: &'static OpDef,
    /// The whole call, and the name as written.
    pub span: Span,
    pub callee_span: Span,
    positional: Vec<&'a Expr>,
    named: Vec<(&'a Ident, &'a Expr)>,
    used_pos: Vec<bool>,
    used_named: Vec<bool>,
    /// Operands checked so far, in the order the kernel receives them.
    pub args: Vec<ir::Expr>,
}

impl<'c, 's, 'a> CallCtx<'c, 's, 'a> {
    pub fn new(
        ck: &'c mut Checker<'s>,
        op: &'static OpDef,
        span: Span,
        callee_span: Span,
        args: Vec<ArgRef<'a>>,
    ) -> Self {
        let mut positional = vec![];
        let mut named = vec![];
        for a in args {
            match a.name {
                Some(n) => named.push((n, a.expr)),
                None => positional.push(a.expr),
            }
        }
        CallCtx {
            ck,
            op,
            span,
            callee_span,
            used_pos: vec![false; positional.len()],
            used_named: vec![false; named.len()],
            positional,
            named,
            args: vec![],
        }
    }

    pub fn name(&self) -> &'static str {
        self.op.name()
    }

    /// The diagnostic code for constraint `c` of this op: `Reshape: C2`.
    pub fn code(&self, c: &str) -> xlet_core::diag::Code {
        let rule = xlet_core::code::Rule::parse(c);
        xlet_core::diag::Code::new(Some(self.op.name()), rule)
    }

    /// A check error for constraint `c`, message prefixed with the op name.
    pub fn err(&self, c: &str, message: impl std::fmt::Display, span: Span) -> Diag {
        Diag::check(
            self.code(c),
            format!("{}: {}", self.op.name(), message),
            span,
        )
    }

    /// The one message for a keyword argument the op does not have: the
    /// nearest real one, and the op's call form.
    fn unknown_argument(&self, n: &Ident, params: &[&str]) -> Diag {
        let d = Diag::check(
            self.code("arity"),
            format!("{}: unknown argument `{}`", self.op.name(), n.name),
            n.span.clone(),
        )
        .with_label("not an argument of this op");
        let call = format!("{} is called as {}", self.op.name(), self.op.signature);
        match names::nearest(&n.name, params) {
            Some(near) => d.with_help(format!("did you mean `{near}`? {call}")),
            None => d.with_help(call),
        }
    }

    /// Rejects keyword arguments the op does not have (naming the nearest real
    /// one) and keywords given twice, before the rule reads anything: otherwise
    /// `Transpose(x, perm={1,0})` would only say that `permutation` is missing.
    pub fn check_keywords(&self) -> Result<(), Diag> {
        if self.named.is_empty() {
            return Ok(());
        }
        let params = params(self.op);
        for (k, (n, _)) in self.named.iter().enumerate() {
            if let Some((first, _)) = self.named[..k].iter().find(|(m, _)| m.name == n.name) {
                return Err(Diag::check(
                    self.code("arity"),
                    format!("{}: argument `{}` is given twice", self.op.name(), n.name),
                    n.span.clone(),
                )
                .with_label("given again here")
                .with_secondary(first.span.clone(), "first given here"));
            }
            if params.contains(&n.name.as_str()) {
                continue;
            }
            return Err(self.unknown_argument(n, &params));
        }
        Ok(())
    }

    pub fn positional_count(&self) -> usize {
        self.positional.len()
    }

    /// The text the user wrote for a span (for suggestions).
    pub fn text(&self, span: &Span) -> &'s str {
        self.ck.src.get(span.clone()).unwrap_or("…")
    }

    /// The positional argument `i` as written, without taking it (for
    /// suggestions made before the rule reads its arguments).
    pub fn peek(&self, i: usize) -> Option<&'a Expr> {
        self.positional.get(i).copied()
    }

    /// The keyword argument `name` as written, without taking it.
    pub fn peek_named(&self, name: &str) -> Option<&'a Expr> {
        self.named
            .iter()
            .find(|(n, _)| n.name == name)
            .map(|(_, e)| *e)
    }

    /// The call as written, with the positional arguments rearranged: position
    /// `k` of the result is the argument written at `order[k]` (the others
    /// keep their place), and the keyword arguments after them.
    pub fn text_reordered(&self, order: &[usize]) -> String {
        let mut args: Vec<String> = (0..self.positional.len())
            .map(|k| {
                let from = order.get(k).copied().unwrap_or(k);
                let e = self.positional.get(from).unwrap_or(&self.positional[k]);
                self.text(&e.span).to_string()
            })
            .collect();
        args.extend(
            self.named
                .iter()
                .map(|(n, e)| format!("{}={}", n.name, self.text(&e.span))),
        );
        format!("{}({})", self.text(&self.callee_span), args.join(", "))
    }

    /// An `arity` error for positional arguments `i` and `j` written in each
    /// other's places, with the call in the right order.
    pub fn swapped(&self, i: usize, j: usize) -> Diag {
        let params = params(self.op);
        let name = |k: usize| {
            params
                .get(k)
                .map_or("argument".into(), |p| p.replace('_', " "))
        };
        let mut order: Vec<usize> = (0..self.positional.len()).collect();
        if i < order.len() && j < order.len() {
            order.swap(i, j);
        }
        let span_of = |k: usize| {
            self.positional
                .get(k)
                .map_or(self.span.clone(), |e| e.span.clone())
        };
        Diag::check(
            self.code("arity"),
            format!(
                "{}: the {} and the {} are swapped",
                self.op.name(),
                name(i),
                name(j)
            ),
            span_of(i),
        )
        .with_label(format!("this is the {}", name(j)))
        .with_secondary(span_of(j), format!("this is the {}", name(i)))
        .with_help(format!(
            "{} is called as {}: did you mean {}?",
            self.op.name(),
            self.op.signature,
            self.text_reordered(&order)
        ))
    }

    /// Takes the argument at position `pos` or named `name` (either may be absent).
    pub fn take(&mut self, pos: Option<usize>, name: &str) -> Result<Option<&'a Expr>, Diag> {
        let by_pos = pos.filter(|&p| p < self.positional.len());
        let by_name = self.named.iter().position(|(n, _)| n.name == name);
        match (by_pos, by_name) {
            (Some(p), Some(k)) => Err(Diag::check(
                self.code("arity"),
                format!(
                    "{}: `{name}` is given twice, by position and by name",
                    self.op.name()
                ),
                self.named[k].0.span.clone(),
            )
            .with_secondary(self.positional[p].span.clone(), "given by position here")),
            (Some(p), None) => {
                self.used_pos[p] = true;
                Ok(Some(self.positional[p]))
            }
            (None, Some(k)) => {
                self.used_named[k] = true;
                Ok(Some(self.named[k].1))
            }
            (None, None) => Ok(None),
        }
    }

    /// Like `take`, but the argument must be there.
    pub fn require(&mut self, pos: Option<usize>, name: &str) -> Result<&'a Expr, Diag> {
        self.take(pos, name)?.ok_or_else(|| {
            Diag::check(
                self.code("arity"),
                format!("{}: missing argument `{name}`", self.op.name()),
                self.span.clone(),
            )
            .with_label(format!("`{name}` is missing"))
            .with_help(format!(
                "{} is called as {}",
                self.op.name(),
                self.op.signature
            ))
        })
    }

    /// Checks an expression as an operand (with an element-type hint for untyped literals).
    pub fn push_operand(&mut self, e: &Expr, hint: Option<ElemType>) -> Result<Operand, Diag> {
        let checked = self.ck.check_expr(e, hint)?;
        let op = Operand {
            index: self.args.len(),
            ty: checked.ty.clone(),
            span: checked.span.clone(),
        };
        self.args.push(checked);
        Ok(op)
    }

    /// A required operand.
    pub fn operand(&mut self, pos: usize, name: &str) -> Result<Operand, Diag> {
        let e = self.require(Some(pos), name)?;
        self.push_operand(e, None)
    }

    /// Several operands that share an element type: typed ones are checked first,
    /// and untyped literals among them take the element type of the first typed one.
    /// `hint` applies when all of them are untyped (or `None` for the defaults).
    pub fn operands_alike(
        &mut self,
        params: &[(usize, &str)],
        hint: Option<ElemType>,
    ) -> Result<Vec<Operand>, Diag> {
        let exprs: Vec<&'a Expr> = params
            .iter()
            .map(|&(p, n)| self.require(Some(p), n))
            .collect::<Result<_, _>>()?;
        self.exprs_alike(&exprs, hint)
    }

    /// `operands_alike` for expressions the rule took itself (Concatenate's
    /// variadic operands).
    pub fn exprs_alike(
        &mut self,
        exprs: &[&Expr],
        hint: Option<ElemType>,
    ) -> Result<Vec<Operand>, Diag> {
        let mut typed: Vec<Option<ir::Expr>> = vec![None; exprs.len()];
        let mut elem = None;
        for (i, e) in exprs.iter().enumerate() {
            if !is_weak(e) {
                let c = self.ck.check_expr(e, None)?;
                if elem.is_none() {
                    elem = c.ty.as_array().map(|a| a.elem);
                }
                typed[i] = Some(c);
            }
        }
        // All untyped: `{1, 2.5} + {1, 2}` reads both as f32, as one literal would.
        let any_float = || exprs.iter().any(|e| is_weak(e) && has_float_text(e));
        let hint = elem
            .or(hint)
            .or_else(|| any_float().then_some(ElemType::F32));
        let mut out = vec![];
        for (i, e) in exprs.iter().enumerate() {
            let c = match typed[i].take() {
                Some(c) => c,
                None => self.ck.check_expr(e, hint)?,
            };
            out.push(Operand {
                index: self.args.len(),
                ty: c.ty.clone(),
                span: c.span.clone(),
            });
            self.args.push(c);
        }
        Ok(out)
    }

    /// The operand's array type when it is an array of floats; otherwise the
    /// error naming constraint `c`, with `help` (how to convert it).
    pub fn float_array(&self, operand: &Operand, c: &str, help: String) -> Result<ArrayType, Diag> {
        let t = self.array(operand, c, "operand")?.clone();
        if t.elem.is_float() {
            return Ok(t);
        }
        Err(self
            .err(
                c,
                format!("the operand must be an array of floats (f16, bf16, f32, f64), found {t}"),
                operand.span.clone(),
            )
            .with_label(format!("{t}"))
            .with_help(help))
    }

    /// The operand's array type, or an error naming constraint `c` if it is a tuple.
    pub fn array<'o>(
        &self,
        operand: &'o Operand,
        c: &str,
        what: &str,
    ) -> Result<&'o ArrayType, Diag> {
        operand.ty.as_array().ok_or_else(|| {
            self.err(
                c,
                format!("{what} must be an array, found the tuple {}", operand.ty),
                operand.span.clone(),
            )
            .with_label(format!("{}", operand.ty))
        })
    }

    /// A static list of integers: `{0, 1}`, `{}`; a lone integer is a list of one.
    pub fn int_list(
        &mut self,
        pos: Option<usize>,
        name: &str,
    ) -> Result<Option<Attr<Vec<i64>>>, Diag> {
        let Some(e) = self.take(pos, name)? else {
            return Ok(None);
        };
        static_ints(self, e, name).map(Some)
    }

    /// A required static list of integers.
    pub fn require_int_list(
        &mut self,
        pos: Option<usize>,
        name: &str,
    ) -> Result<Attr<Vec<i64>>, Diag> {
        let e = self.require(pos, name)?;
        static_ints(self, e, name)
    }

    /// A static list of one integer ≥ 1 per dimension (window sizes, strides,
    /// dilations): `n` entries, one per `what` ("operand dimension (3)"), else
    /// the `len_c` error; an entry below 1 is the `pos_c` error. Absent, it is
    /// all ones, unless `required`.
    pub fn positive_per_dim(
        &mut self,
        pos: Option<usize>,
        name: &str,
        (n, what): (usize, &str),
        (len_c, pos_c): (&str, &str),
        required: bool,
    ) -> Result<Vec<usize>, Diag> {
        let attr = if required {
            Some(self.require_int_list(pos, name)?)
        } else {
            self.int_list(pos, name)?
        };
        let Some(a) = attr else {
            return Ok(vec![1; n]);
        };
        if a.value.len() != n {
            return Err(self
                .err(
                    len_c,
                    format!(
                        "`{name}` must have one entry per {what}, found {}",
                        a.value.len()
                    ),
                    a.span.clone(),
                )
                .with_label(format!("expected {n} entries")));
        }
        if let Some(&bad) = a.value.iter().find(|&&v| v < 1) {
            return Err(self
                .err(
                    pos_c,
                    format!("every entry of `{name}` must be at least 1, found {bad}"),
                    a.span.clone(),
                )
                .with_label("must be at least 1"));
        }
        Ok(a.value.iter().map(|&v| v as usize).collect())
    }

    /// A static list of integers from an argument the rule took itself.
    pub fn ints_of(&self, e: &Expr, name: &str) -> Result<Attr<Vec<i64>>, Diag> {
        static_ints(self, e, name)
    }

    /// A static integer.
    pub fn int(&mut self, pos: Option<usize>, name: &str) -> Result<Option<Attr<i64>>, Diag> {
        let Some(e) = self.take(pos, name)? else {
            return Ok(None);
        };
        let v = static_int(self, e, name)?;
        Ok(Some(Attr {
            value: v,
            span: e.span.clone(),
        }))
    }

    /// A static element type: `f32`.
    pub fn elem_type(&mut self, pos: Option<usize>, name: &str) -> Result<Attr<ElemType>, Diag> {
        let e = self.require(pos, name)?;
        self.elem_type_of(e, name)
    }

    /// An optional static element type (`preferred_element_type=f32`).
    pub fn opt_elem_type(
        &mut self,
        pos: Option<usize>,
        name: &str,
    ) -> Result<Option<Attr<ElemType>>, Diag> {
        match self.take(pos, name)? {
            Some(e) => self.elem_type_of(e, name).map(Some),
            None => Ok(None),
        }
    }

    fn elem_type_of(&self, e: &Expr, name: &str) -> Result<Attr<ElemType>, Diag> {
        match &e.kind {
            ExprKind::Type(t) => match &t.kind {
                TypeExprKind::Array { elem, dims: None } => Ok(Attr {
                    value: *elem,
                    span: e.span.clone(),
                }),
                _ => Err(self.attr_err(name, "an element type such as f32", e)),
            },
            ExprKind::Var(v) => ElemType::parse(v)
                .map(|t| Attr {
                    value: t,
                    span: e.span.clone(),
                })
                .ok_or_else(|| {
                    let d = self.attr_err(name, "an element type such as f32", e);
                    // `int32`, `float16`: numpy's spelling of an xlet type.
                    match ElemType::from_foreign(v) {
                        Some(t) => {
                            d.with_help(format!("xlet writes the element type `{v}` as `{t}`"))
                        }
                        None => d,
                    }
                }),
            _ => Err(self.attr_err(name, "an element type such as f32", e)),
        }
    }

    /// A static array type: `s32[4x8]`.
    pub fn array_type(&mut self, pos: Option<usize>, name: &str) -> Result<Attr<ArrayType>, Diag> {
        let e = self.require(pos, name)?;
        if let ExprKind::Type(t) = &e.kind
            && let TypeExprKind::Array { elem, dims } = &t.kind
        {
            let dims = dims.clone().unwrap_or_default();
            let dims = self.ck.dims_from_u64(&dims, &e.span)?;
            return Ok(Attr {
                value: ArrayType::new(*elem, dims),
                span: e.span.clone(),
            });
        }
        Err(self.attr_err(name, "an array type such as s32[4x8]", e))
    }

    /// A keyword attribute such as `TOTALORDER` or `SAME`, one of `allowed` (any case).
    pub fn keyword(
        &mut self,
        pos: Option<usize>,
        name: &str,
        allowed: &[&'static str],
    ) -> Result<Option<Attr<&'static str>>, Diag> {
        let Some(e) = self.take(pos, name)? else {
            return Ok(None);
        };
        let word = match &e.kind {
            ExprKind::Var(v) => Some(v.as_str()),
            ExprKind::Str(s) => Some(s.as_str()),
            _ => None,
        };
        let found = word.and_then(|w| allowed.iter().copied().find(|a| a.eq_ignore_ascii_case(w)));
        match found {
            Some(a) => Ok(Some(Attr {
                value: a,
                span: e.span.clone(),
            })),
            None => Err(self.attr_err(name, &format!("one of {}", allowed.join(", ")), e)),
        }
    }

    fn attr_err(&self, name: &str, wanted: &str, e: &Expr) -> Diag {
        Diag::check(
            self.code("attr"),
            format!("{}: `{name}` must be {wanted}", self.op.name()),
            e.span.clone(),
        )
        .with_label(format!("expected {wanted}"))
        .with_help(format!(
            "{} is called as {}",
            self.op.name(),
            self.op.signature
        ))
    }

    /// Ends the call: any argument no rule asked for is an error.
    pub fn finish(self) -> Result<Vec<ir::Expr>, Diag> {
        if let Some(p) = self.used_pos.iter().position(|u| !u) {
            let n = self.used_pos.iter().filter(|u| **u).count();
            return Err(Diag::check(
                self.code("arity"),
                format!(
                    "{}: too many arguments: {} given by position, {} used",
                    self.op.name(),
                    self.positional.len(),
                    n
                ),
                self.positional[p].span.clone(),
            )
            .with_label("unexpected argument")
            .with_help(format!(
                "{} is called as {}",
                self.op.name(),
                self.op.signature
            )));
        }
        if let Some(k) = self.used_named.iter().position(|u| !u) {
            let (n, _) = self.named[k];
            return Err(self.unknown_argument(n, &params(self.op)));
        }
        Ok(self.args)
    }
}

fn static_int(cx: &CallCtx, e: &Expr, name: &str) -> Result<i64, Diag> {
    let (text, neg) = match &e.kind {
        ExprKind::Number(n) if n.is_integer => (&n.text, false),
        ExprKind::Unary {
            op: UnOp::Neg,
            operand,
        } => match &operand.kind {
            ExprKind::Number(n) if n.is_integer => (&n.text, true),
            _ => return Err(cx.attr_err(name, "an integer", e)),
        },
        ExprKind::Typed { value, .. } => return static_int(cx, value, name),
        _ => return Err(cx.attr_err(name, "an integer written as a literal", e)),
    };
    xlet_core::value::literal::signed_i64(text, neg).ok_or_else(|| {
        cx.attr_err(
            name,
            "an integer in the 64-bit range -9223372036854775808..=9223372036854775807",
            e,
        )
    })
}

fn static_ints(cx: &CallCtx, e: &Expr, name: &str) -> Result<Attr<Vec<i64>>, Diag> {
    let inner = match &e.kind {
        ExprKind::Typed { value, .. } => value.as_ref(),
        _ => e,
    };
    match &inner.kind {
        ExprKind::Brace(_) | ExprKind::Numbers(_) => {
            let flat = flatten(inner)
                .map_err(|_| cx.attr_err(name, "a list of integers such as {0, 1}", e))?;
            if flat.dims.len() != 1 {
                return Err(cx.attr_err(name, "a flat list of integers such as {0, 1}", e));
            }
            let mut out = vec![];
            for (a, span) in flat.atoms() {
                match a {
                    Atom::Num {
                        text,
                        is_integer: true,
                        negative,
                    } => {
                        let v = xlet_core::value::literal::signed_i64(text, negative).ok_or_else(|| {
                            Diag::check(
                                cx.code("attr"),
                                format!(
                                    "{}: `{name}` entry {}{text} is outside the 64-bit integer range -9223372036854775808..=9223372036854775807",
                                    cx.op.name(),
                                    if negative { "-" } else { "" }
                                ),
                                span.clone(),
                            )
                            .with_label("does not fit in 64 bits")
                        })?;
                        out.push(v);
                    }
                    _ => return Err(cx.attr_err(name, "a list of integers such as {0, 1}", e)),
                }
            }
            Ok(Attr {
                value: out,
                span: e.span.clone(),
            })
        }
        ExprKind::Number(_) | ExprKind::Unary { .. } => {
            let v = static_int(cx, inner, name)?;
            Ok(Attr {
                value: vec![v],
                span: e.span.clone(),
            })
        }
        ExprKind::Var(v) => Err(cx
            .attr_err(name, "a literal list of integers such as {0, 1}", e)
            .with_note(format!(
                "`{v}` is a runtime value; static attributes are written in place, as in the docs"
            ))),
        _ => Err(cx.attr_err(name, "a list of integers such as {0, 1}", e)),
    }
}
