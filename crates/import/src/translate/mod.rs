//! A read module as an xlet program (spec/import.md §6): the entry function's
//! body as top-level `let`s (so `--trace` and the REPL see every value), every
//! other function and every region as a `comp`, check ops as `then`.
//! The program is text that the ordinary parser and checker then verify, so
//! an imported op is checked exactly as a hand-written one.

mod attrs;
mod bessel;
mod captures;
mod check;
mod chlo;
mod complex_trig;
mod erf64;
mod gamma;
mod ops;
mod ops_misc;
mod ops_more;
mod scope;
mod special;
mod zeta;

use crate::error::{ImportError, Result};
use crate::mlir::items::Region;
use crate::mlir::module::{Func, Module};
use crate::mlir::op::{Op, Use, normalize};
use crate::mlir::types::parse_type;
use scope::{Bound, Scopes};
use std::collections::{HashMap, HashSet};
use xlet_core::span::Span;
use xlet_core::types::Type;

/// One statement of the translated program and the module text it comes from.
#[derive(Clone, Debug)]
pub struct Stmt {
    pub text: String,
    pub span: Span,
    /// The name a top-level `let` binds (what `--trace` prints).
    pub binds: Option<String>,
}

/// The translated program.
#[derive(Clone, Debug, Default)]
pub struct Translation {
    /// The entry function's parameters: xlet name, type.
    pub params: Vec<(String, Type)>,
    pub stmts: Vec<Stmt>,
    /// The names bound to the entry function's results, in order.
    pub results: Vec<(String, Type)>,
    /// The entry function's name in the module.
    pub entry: String,
    /// Constants bound as values rather than written as literals (the large
    /// ones): their name, value and the module text they come from.
    pub consts: Vec<(String, xlet_core::value::Value, Span)>,
    /// `mhlo.num_replicas`, when the module sets it.
    pub replicas: Option<usize>,
    /// For each comp the translation defines, the module text of each line
    /// of its definition (line 0 is the `comp` header, so entry k is the
    /// body's k-th line; `None` where a line has no op of its own, as the
    /// unpacking of a tuple parameter): `--trace` names the module line of a
    /// value bound inside a function or region with it.
    pub comp_lines: HashMap<String, Vec<Option<Span>>>,
}

impl Translation {
    /// The program as one text: the statements in order, one per line or block.
    pub fn body_text(&self) -> String {
        let mut s = String::new();
        for st in &self.stmts {
            s.push_str(&st.text);
            s.push('\n');
        }
        s
    }
}

/// What the entry function's signature needs from a function of the module.
#[derive(Clone, Debug)]
struct FuncSig {
    comp: String,
}

pub(crate) struct Cx {
    /// Reserved words, comp names and top-level names.
    used: HashSet<String>,
    /// Every local name given in any comp (new comps avoid them).
    all_locals: HashSet<String>,
    stmts: Vec<Stmt>,
    funcs: HashMap<String, FuncSig>,
    scopes: Scopes,
    consts: Vec<(String, xlet_core::value::Value, Span)>,
    /// The REPL's `:import ... as NAME`: every comp's name starts `NAME_`.
    prefix: Option<String>,
    /// `Translation::comp_lines`, as the comps are written.
    comp_lines: HashMap<String, Vec<Option<Span>>>,
    /// The `loc` names of the parameters of the function whose comp is
    /// written next (taken by `comp_text_in_scope`).
    param_hints: Vec<Option<String>>,
}

/// The lines of a comp's body being written (or, at the top level, nothing:
/// statements go straight to the program).
pub(crate) struct Body {
    top: bool,
    lines: Vec<String>,
    /// The module text each of `lines` comes from, where it has one.
    spans: Vec<Option<Span>>,
    ret: Option<(Vec<String>, Vec<Option<Type>>)>,
}

/// Translates a module. With `as_comps`, every function becomes a comp (the
/// entry function the comp named `as_comps`, the others and the regions
/// `AS_COMPS_name`) and nothing runs: the REPL's `:import FILE as NAME`.
pub fn translate(m: &Module, as_comps: Option<&str>) -> Result<Translation> {
    let mut t = Translation::default();
    let replicas = m
        .attrs
        .iter()
        .find(|(k, _)| k == "mhlo.num_replicas")
        .and_then(|(_, v)| v.int());
    t.replicas = replicas.map(|r| r.max(1) as usize);
    if let Some(p) = m
        .attrs
        .iter()
        .find(|(k, _)| k == "mhlo.num_partitions")
        .and_then(|(_, v)| v.int())
        && p > 1
    {
        let span = m.funcs.first().map_or(0..0, |f| f.span.clone());
        return Err(ImportError::unsupported(
            span,
            format!("mhlo.num_partitions = {p}: xlet runs replicas, not partitions (SPMD)"),
        ));
    }
    let Some(entry) = m
        .funcs
        .iter()
        .find(|f| f.name == "main")
        .or_else(|| m.funcs.first())
    else {
        return Err(ImportError::at(0..0, "the module has no function".into()));
    };
    let mut cx = Cx {
        used: scope::reserved(),
        all_locals: HashSet::new(),
        consts: vec![],
        stmts: vec![],
        funcs: HashMap::new(),
        scopes: Scopes::default(),
        prefix: as_comps.map(str::to_string),
        comp_lines: HashMap::new(),
        param_hints: vec![],
    };
    // Every function gets its comp name first: functions may call ones defined later.
    for f in &m.funcs {
        let comp = match as_comps {
            Some(p) if f.name == entry.name => {
                cx.used.insert(p.to_string());
                p.to_string()
            }
            _ => cx.fresh_comp(&f.name),
        };
        cx.funcs.insert(f.name.clone(), FuncSig { comp });
    }
    // Comps in an order where each is defined before its callers.
    let order = call_order(m)?;
    for name in order {
        if name == entry.name && as_comps.is_none() {
            continue;
        }
        if let Some(f) = m.funcs.iter().find(|f| f.name == name) {
            cx.func_comp(f)?;
        }
    }
    t.entry = entry.name.clone();
    if as_comps.is_some() {
        t.params = entry.params.clone();
        t.results = entry
            .results
            .iter()
            .map(|ty| (String::new(), ty.clone()))
            .collect();
        t.stmts = cx.stmts;
        t.consts = cx.consts;
        t.comp_lines = cx.comp_lines;
        return Ok(t);
    }
    cx.scopes.push(true);
    for (i, (n, ty)) in entry.params.iter().enumerate() {
        let hint = entry.param_names.get(i).cloned().flatten();
        let x = cx.fresh(hint.as_deref().unwrap_or(n));
        cx.scopes.bind(n, Bound::value(&x, Some(ty.clone())));
        t.params.push((x, ty.clone()));
    }
    let mut body = Body {
        top: true,
        lines: vec![],
        spans: vec![],
        ret: None,
    };
    for raw in &entry.body.ops {
        let op = normalize(raw.clone())?;
        cx.emit_op(&op, &mut body)?;
    }
    if let Some((exprs, tys)) = body.ret.take() {
        for (i, (e, ty)) in exprs.iter().zip(tys).enumerate() {
            let ty = ty.or_else(|| entry.results.get(i).cloned());
            let name = cx.fresh(&format!("result{i}"));
            let ann = ty.as_ref().map(|t| format!(": {t}")).unwrap_or_default();
            cx.stmts.push(Stmt {
                text: format!("let {name}{ann} = {e}"),
                span: entry.span.clone(),
                binds: None,
            });
            t.results.push((name, ty.unwrap_or(Type::Tuple(vec![]))));
        }
    }
    t.stmts = cx.stmts;
    t.consts = cx.consts;
    t.comp_lines = cx.comp_lines;
    Ok(t)
}

/// The functions in an order where each comes after the ones it calls; a
/// recursive call is an error (XLA has no recursion).
fn call_order(m: &Module) -> Result<Vec<String>> {
    let mut calls: HashMap<&str, Vec<(String, Span)>> = HashMap::new();
    for f in &m.funcs {
        let mut c = vec![];
        callees(&f.body, &mut c);
        calls.insert(&f.name, c);
    }
    let mut done: Vec<String> = vec![];
    let mut visiting: HashSet<String> = HashSet::new();
    fn visit(
        n: &str,
        calls: &HashMap<&str, Vec<(String, Span)>>,
        done: &mut Vec<String>,
        visiting: &mut HashSet<String>,
        depth: usize,
    ) -> Result<()> {
        if done.iter().any(|d| d == n) {
            return Ok(());
        }
        visiting.insert(n.to_string());
        for (c, sp) in calls.get(n).into_iter().flatten() {
            if visiting.contains(c) || depth > 1000 {
                return Err(ImportError::unsupported(
                    sp.clone(),
                    format!("a recursive call of @{c}"),
                ));
            }
            if calls.contains_key(c.as_str()) {
                visit(c, calls, done, visiting, depth + 1)?;
            } else {
                return Err(ImportError::at(
                    sp.clone(),
                    format!("no function @{c} in the module"),
                ));
            }
        }
        visiting.remove(n);
        done.push(n.to_string());
        Ok(())
    }
    for f in &m.funcs {
        visit(&f.name, &calls, &mut done, &mut visiting, 0)?;
    }
    Ok(done)
}

/// Every `@name` in an item, through its brackets but not its regions.
fn symbols_in(item: &crate::mlir::items::Item, f: &mut dyn FnMut(&str)) {
    use crate::mlir::items::Item;
    match item {
        Item::Tok(t) => {
            if let crate::mlir::lexer::Tok::Symbol(s) = &t.tok {
                f(s);
            }
        }
        Item::Group { items, .. } => {
            for i in items {
                symbols_in(i, f);
            }
        }
        Item::Region(_) => {}
    }
}

fn callees(r: &Region, out: &mut Vec<(String, Span)>) {
    for op in &r.ops {
        if matches!(
            op.name.as_str(),
            "func.call" | "call" | "stablehlo.composite"
        ) {
            // A composite names its function inside its attribute dictionary.
            for it in &op.items {
                symbols_in(it, &mut |s| out.push((s.to_string(), op.span.clone())));
            }
        }
        for it in &op.items {
            scope::regions_in(it, &mut |r| callees(r, out));
        }
    }
}

impl Cx {
    /// A new xlet name for the module's `name` in the current scope: `%0` is
    /// `v0`, `%cst` `cst`; taken names get a `_N` suffix. A local avoids the
    /// comps' names and the top level's; names may repeat across comps.
    pub(crate) fn fresh(&mut self, name: &str) -> String {
        let top = self.scopes.is_top();
        let n = {
            let scope = self.scopes.names();
            pick(name, |n| {
                self.used.contains(n) || scope.is_some_and(|s| s.contains(n))
            })
        };
        self.all_locals.insert(n.clone());
        if top {
            self.used.insert(n.clone());
        }
        self.scopes.take_name(&n);
        n
    }

    /// A new comp name: unlike every name given so far.
    pub(crate) fn fresh_comp(&mut self, name: &str) -> String {
        let name = match &self.prefix {
            Some(p) => format!("{p}_{name}"),
            None => name.to_string(),
        };
        let n = pick(&name, |n| {
            self.used.contains(n) || self.all_locals.contains(n)
        });
        self.used.insert(n.clone());
        n
    }

    /// A `dense<...>` constant of type `ty` as an expression: a literal when
    /// small (or a splat), else a name bound to its value before the program
    /// runs, so that a large constant is never written out and read back as
    /// text (spec/import.md §4).
    pub(crate) fn constant(
        &mut self,
        body: &str,
        ty: &xlet_core::types::ArrayType,
        span: Span,
        hint: &str,
    ) -> Result<String> {
        let n = ty.num_elements().unwrap_or(0);
        let b = body.trim();
        let splat = !b.starts_with('"') && !b.starts_with('[')
            || b.len() <= 2 + 2 * ty.elem.byte_size().max(1) + 2 && n > 1;
        if n <= 16 || splat {
            return crate::mlir::dense::literal(body, ty, span);
        }
        let bytes = crate::mlir::dense::le_bytes(body, ty, span.clone())?;
        let array =
            xlet_npy::from_le_bytes(ty, &bytes).map_err(|e| ImportError::at(span.clone(), e))?;
        drop(bytes);
        let name = self.fresh_comp(hint);
        self.consts
            .push((name.clone(), xlet_core::value::Value::Array(array), span));
        Ok(name)
    }

    /// Adds a statement (a helper comp) before the one being written.
    pub(crate) fn push_stmt(&mut self, st: Stmt) {
        self.stmts.push(st);
    }

    /// The comp a module function became.
    pub(crate) fn func_comp_name(&self, f: &str) -> Option<String> {
        self.funcs.get(f).map(|s| s.comp.clone())
    }

    /// A use of a value as an expression.
    pub(crate) fn value(&self, u: &Use) -> Result<String> {
        let Some((b, visible)) = self.scopes.find(&u.name) else {
            return Err(ImportError::at(
                u.span.clone(),
                format!("%{} is used before it is defined", u.name),
            ));
        };
        if !visible {
            return Err(ImportError::unsupported(
                u.span.clone(),
                format!("%{} is captured from an enclosing region here", u.name),
            ));
        }
        b.expr(u.index).ok_or_else(|| {
            ImportError::at(
                u.span.clone(),
                format!("%{} has no result #{}", u.name, u.index.unwrap_or(0)),
            )
        })
    }

    pub(crate) fn value_type(&self, u: &Use) -> Option<Type> {
        let (b, _) = self.scopes.find(&u.name)?;
        b.type_of(u.index)
    }

    /// The array type of `op`'s first operand, or an error naming the op.
    pub(crate) fn operand_array(&self, op: &Op) -> Result<xlet_core::types::ArrayType> {
        op.operands
            .first()
            .and_then(|u| self.value_type(u))
            .and_then(|t| t.as_array().cloned())
            .ok_or_else(|| {
                ImportError::at(
                    op.span.clone(),
                    format!("the operand type of `{}` is not known", op.name),
                )
            })
    }

    pub(crate) fn values(&self, us: &[Use]) -> Result<Vec<String>> {
        us.iter().map(|u| self.value(u)).collect()
    }

    /// A non-entry function as a comp.
    fn func_comp(&mut self, f: &Func) -> Result<()> {
        let sig =
            self.funcs.get(&f.name).cloned().ok_or_else(|| {
                ImportError::at(f.span.clone(), format!("@{} is not known", f.name))
            })?;
        // A parameter takes its `loc("x")` name where the module gives one
        // (JAX's `as_text(debug_info=True)`), as the entry's do at top level.
        let params: Vec<(String, Type)> = f.params.clone();
        self.param_hints = f.param_names.clone();
        let text = self.comp_text(
            &sig.comp,
            &params,
            &f.body,
            Some(&f.results),
            f.span.clone(),
            false,
        )?;
        self.stmts.push(Stmt {
            text,
            span: f.span.clone(),
            binds: None,
        });
        Ok(())
    }

    /// The text of `comp NAME(params) -> T { body }` for `region` whose block
    /// arguments are `params` (names from the module). With `tuple_param`, the
    /// comp takes one tuple and unpacks it (While's state).
    pub(crate) fn comp_text(
        &mut self,
        comp: &str,
        params: &[(String, Type)],
        region: &Region,
        results: Option<&[Type]>,
        span: Span,
        tuple_param: bool,
    ) -> Result<String> {
        self.scopes.push(false);
        let out = self.comp_text_in_scope(comp, params, region, results, span, tuple_param);
        self.scopes.pop();
        out
    }

    fn comp_text_in_scope(
        &mut self,
        comp: &str,
        params: &[(String, Type)],
        region: &Region,
        results: Option<&[Type]>,
        span: Span,
        tuple_param: bool,
    ) -> Result<String> {
        let hints = std::mem::take(&mut self.param_hints);
        let mut head = vec![];
        let mut lines = vec![];
        if tuple_param {
            let t = self.fresh("state");
            let tys: Vec<Type> = params.iter().map(|(_, t)| t.clone()).collect();
            head.push(format!("{t}: {}", Type::Tuple(tys)));
            for (i, (n, ty)) in params.iter().enumerate() {
                let x = self.fresh(n);
                lines.push(format!("let {x}: {ty} = GetTupleElement({t}, {i})"));
                self.scopes.bind(n, Bound::value(&x, Some(ty.clone())));
            }
        } else {
            for (i, (n, ty)) in params.iter().enumerate() {
                let hint = hints.get(i).cloned().flatten();
                let x = self.fresh(hint.as_deref().unwrap_or(n));
                head.push(format!("{x}: {ty}"));
                self.scopes.bind(n, Bound::value(&x, Some(ty.clone())));
            }
        }
        self.comp_from_body(comp, head, lines, region, results, span)
    }

    /// A branch of a case or if as a comp taking its captures as one tuple
    /// (see captures.rs); defined before the statement that uses it.
    pub(crate) fn captured_comp(
        &mut self,
        hint: &str,
        region: &Region,
        caps: &[captures::Capture],
        results: &[Type],
    ) -> Result<String> {
        let comp = self.fresh_comp(hint);
        self.scopes.push(false);
        let p = self.fresh("captured");
        let tys: Vec<Type> = caps.iter().map(|c| c.ty.clone()).collect();
        let head = vec![format!("{p}: {}", Type::Tuple(tys))];
        let mut lines = vec![];
        for (i, c) in caps.iter().enumerate() {
            let x = self.fresh(&c.name);
            lines.push(format!("let {x}: {} = GetTupleElement({p}, {i})", c.ty));
            self.scopes.bind(&c.name, c.bound.renamed(&x));
        }
        let results = (!results.is_empty()).then_some(results);
        let text = self.comp_from_body(&comp, head, lines, region, results, region.span.clone());
        self.scopes.pop();
        self.stmts.push(Stmt {
            text: text?,
            span: region.span.clone(),
            binds: None,
        });
        Ok(comp)
    }

    /// `comp NAME(head) -> T { lines; region's ops; return }`.
    fn comp_from_body(
        &mut self,
        comp: &str,
        head: Vec<String>,
        lines: Vec<String>,
        region: &Region,
        results: Option<&[Type]>,
        span: Span,
    ) -> Result<String> {
        let mut body = Body {
            top: false,
            spans: vec![None; lines.len()],
            lines,
            ret: None,
        };
        for raw in &region.ops {
            let op = normalize(raw.clone())?;
            self.emit_op(&op, &mut body)?;
        }
        let Some((exprs, tys)) = body.ret else {
            return Err(ImportError::at(span, "the region has no return".into()));
        };
        let tys: Vec<Type> = match results {
            Some(r) if r.len() == exprs.len() => r.to_vec(),
            _ => tys.into_iter().collect::<Option<Vec<_>>>().ok_or_else(|| {
                ImportError::at(
                    span.clone(),
                    "the types this region returns are not written".into(),
                )
            })?,
        };
        let (ret_ty, ret) = match exprs.len() {
            1 => (tys[0].to_string(), exprs[0].clone()),
            _ => (Type::Tuple(tys).to_string(), tuple_expr(&exprs)),
        };
        let mut s = format!("comp {comp}({}) -> {ret_ty} {{\n", head.join(", "));
        let mut spans = vec![Some(span)];
        spans.append(&mut body.spans);
        self.comp_lines.insert(comp.to_string(), spans);
        for l in &body.lines {
            s.push_str("  ");
            s.push_str(l);
            s.push('\n');
        }
        s.push_str("  ");
        s.push_str(&ret);
        s.push_str("\n}");
        Ok(s)
    }

    /// A region as a new comp (its block arguments typed `arg_types` when the
    /// block does not say), defined before the statement that uses it.
    pub(crate) fn region_comp(
        &mut self,
        hint: &str,
        region: &Region,
        arg_types: &[Type],
        tuple_param: bool,
    ) -> Result<String> {
        let comp = self.fresh_comp(hint);
        let mut params = vec![];
        for (i, (n, items)) in region.args.iter().enumerate() {
            let ty = if items.is_empty() {
                arg_types.get(i).cloned().ok_or_else(|| {
                    ImportError::at(
                        region.span.clone(),
                        format!("the type of block argument %{n} is not written"),
                    )
                })?
            } else {
                parse_type(items, items[0].span())?
            };
            params.push((n.clone(), ty));
        }
        let text = self.comp_text(
            &comp,
            &params,
            region,
            None,
            region.span.clone(),
            tuple_param,
        )?;
        self.stmts.push(Stmt {
            text,
            span: region.span.clone(),
            binds: None,
        });
        Ok(comp)
    }

    /// Binds the op's results to `expr`; `ty` the types (several for a tuple).
    pub(crate) fn define(&mut self, op: &Op, expr: String, body: &mut Body) {
        let tys = &op.out_types;
        let count = op.result_count();
        if count == 0 {
            let n = self.fresh("effect");
            self.line(body, format!("let {n} = {expr}"), op.span.clone(), None);
            return;
        }
        let ann = |tys: &[Type]| -> String {
            match tys.len() {
                0 => String::new(),
                1 if count == 1 => format!(": {}", tys[0]),
                n if n == count => format!(": {}", Type::Tuple(tys.to_vec())),
                _ => String::new(),
            }
        };
        // One `let` of the whole result (a tuple when there are several),
        // named after the module's result (or its several names joined).
        let joined: Vec<&str> = op.results.iter().map(|(n, _)| n.as_str()).collect();
        let x = self.fresh(&joined.join("_"));
        let text = format!("let {x}{} = {expr}", ann(tys));
        self.line(body, text, op.span.clone(), Some(x.clone()));
        match op.results.as_slice() {
            // One result: its type is the last one written (`select`'s pretty
            // form writes the predicate's type first).
            [(mname, _)] if count == 1 => self
                .scopes
                .bind(mname, Bound::value(&x, tys.last().cloned())),
            // `%7:3 = ...`: uses read `%7#i` from the tuple.
            [(mname, _)] => self
                .scopes
                .bind(mname, Bound::tuple(&x, count, tys.to_vec())),
            // `%a, %b = ...`: each name is bound to its element.
            names => {
                for (i, (mname, _)) in names.iter().enumerate() {
                    let e = self.fresh(mname);
                    let ty = tys.get(i).cloned();
                    let a = ty.as_ref().map(|t| format!(": {t}")).unwrap_or_default();
                    let text = format!("let {e}{a} = GetTupleElement({x}, {i})");
                    self.line(body, text, op.span.clone(), Some(e.clone()));
                    self.scopes.bind(mname, Bound::value(&e, ty));
                }
            }
        }
    }

    pub(crate) fn line(
        &mut self,
        body: &mut Body,
        text: String,
        span: Span,
        binds: Option<String>,
    ) {
        if body.top {
            self.stmts.push(Stmt { text, span, binds });
        } else {
            body.lines.push(text);
            body.spans.push(Some(span));
        }
    }

    /// One op of a body.
    fn emit_op(&mut self, op: &Op, body: &mut Body) -> Result<()> {
        match op.name.as_str() {
            "stablehlo.return" | "func.return" | "return" => {
                let exprs = self.values(&op.operands)?;
                let tys: Vec<Option<Type>> = op
                    .operands
                    .iter()
                    .enumerate()
                    .map(|(i, u)| op.out_types.get(i).cloned().or_else(|| self.value_type(u)))
                    .collect();
                body.ret = Some((exprs, tys));
                Ok(())
            }
            n if n.starts_with("check.") => check::emit(self, op, body),
            "stablehlo.custom_call"
                if custom_call_target(op).is_some_and(|t| t.starts_with("check.")) =>
            {
                check::emit(self, op, body)
            }
            _ => {
                let expr = ops::expr(self, op)?;
                self.define(op, expr, body);
                Ok(())
            }
        }
    }
}

pub(crate) fn custom_call_target(op: &Op) -> Option<String> {
    match op.attr("callee").or_else(|| op.attr("call_target_name"))? {
        crate::mlir::attr::Attr::Symbol(s) | crate::mlir::attr::Attr::Str(s) => Some(s.clone()),
        _ => None,
    }
}

/// `name` made an xlet identifier, with a `_N` suffix while `taken`.
fn pick(name: &str, taken: impl Fn(&str) -> bool) -> String {
    let mut base: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if base.is_empty() || !base.starts_with(|c: char| c.is_ascii_alphabetic()) {
        base = format!("v{base}");
    }
    let mut n = base.clone();
    let mut k = 1;
    while taken(&n) || taken(&n.to_ascii_lowercase()) {
        n = format!("{base}_{k}");
        k += 1;
    }
    n
}

/// A tuple of any size, `()` included.
pub(crate) fn tuple_expr_any(exprs: &[String]) -> String {
    match exprs.len() {
        0 => "()".into(),
        _ => tuple_expr(exprs),
    }
}

pub(crate) fn tuple_expr(exprs: &[String]) -> String {
    match exprs.len() {
        1 => format!("({},)", exprs[0]),
        _ => format!("({})", exprs.join(", ")),
    }
}
