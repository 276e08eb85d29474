//! Statements: `let` bindings, `comp` definitions and `then` assertions.

use super::*;

impl Checker<'_> {
    pub(super) fn check_stmt(&mut self, s: &ast::Stmt) -> Result<ir::Stmt, Diag> {
        let kind = match &s.kind {
            ast::StmtKind::Let(b) => {
                let expr = match self.check_binding(b) {
                    Ok(e) => e,
                    Err(d) => {
                        self.poisoned.insert(b.name.name.clone());
                        self.env.globals.remove(&b.name.name);
                        return Err(d);
                    }
                };
                // Hashing the name costs more than the rest of a short `let`:
                // only when some definition failed is there anything to remove.
                if !self.poisoned.is_empty() {
                    self.poisoned.remove(&b.name.name);
                }
                self.env
                    .globals
                    .insert(b.name.name.clone(), expr.ty.clone());
                ir::StmtKind::Let {
                    name: b.name.name.clone(),
                    expr,
                }
            }
            ast::StmtKind::Comp(c) => {
                let comp = match self.check_comp(c) {
                    Ok(c) => Arc::new(c),
                    Err(d) => {
                        self.poisoned.insert(c.name.name.clone());
                        return Err(d);
                    }
                };
                self.env.comps.insert(comp.name.clone(), comp.clone());
                ir::StmtKind::Comp(comp)
            }
            ast::StmtKind::Assert(a) => ir::StmtKind::Assert(self.check_assert(a)?),
            ast::StmtKind::Expr(e) => ir::StmtKind::Print(self.check_expr(e, None)?),
        };
        Ok(ir::Stmt {
            kind,
            span: s.span.clone(),
        })
    }

    /// `let x[: T] = e`: an annotation gives untyped literals their type and must match.
    pub(super) fn check_binding(&mut self, b: &ast::Binding) -> Result<ir::Expr, Diag> {
        let Some(ann) = &b.ty else {
            return self.check_expr(&b.value, None);
        };
        let want = self.resolve_type(ann)?;
        let got = self.check_as(&b.value, &want)?;
        if got.ty != want {
            let what = format!(
                "`{}` is declared {want} but its value is {}",
                b.name.name, got.ty
            );
            return Err(declared_mismatch(
                "let",
                what,
                &got,
                &b.value.span,
                &ann.span,
                &want,
            ));
        }
        Ok(got)
    }

    pub(super) fn check_comp(&mut self, c: &ast::CompDef) -> Result<Comp, Diag> {
        if self.local.is_some() {
            return Err(Diag::check(
                "comp",
                "a comp cannot be defined inside another comp",
                c.name.span.clone(),
            ));
        }
        let mut local = Local {
            names: HashMap::new(),
            next: 0,
        };
        let mut params = vec![];
        for (name, t) in &c.params {
            let ty = self.resolve_type(t)?;
            if local.names.contains_key(&name.name) {
                return Err(Diag::check(
                    "comp",
                    format!("parameter `{}` is declared twice", name.name),
                    name.span.clone(),
                ));
            }
            local
                .names
                .insert(name.name.clone(), (local.next, ty.clone()));
            local.next += 1;
            params.push((name.name.clone(), ty));
        }
        let ret = self.resolve_type(&c.ret)?;
        self.local = Some(local);
        self.reach = 0;
        let result = self.check_comp_body(c, &ret);
        let local = self.local.take();
        let (body, result) = result?;
        if result.ty != ret {
            let what = format!(
                "computation `{}` is declared to return {ret} but its result is {}",
                c.name.name, result.ty
            );
            return Err(declared_mismatch(
                "comp",
                what,
                &result,
                &c.result.span,
                &c.ret.span,
                &ret,
            ));
        }
        let slots = local.map(|l| l.next).unwrap_or(0);
        let mut names: Vec<String> = params.iter().map(|(n, _)| n.clone()).collect();
        names.extend(c.body.iter().map(|b| b.name.name.clone()));
        let text_at = c.name.span.start;
        let text_end = c.result.span.end.max(text_at);
        let id = NEXT_COMP_ID.fetch_add(1, Ordering::Relaxed);
        Ok(Comp {
            id,
            captures_of: self.captures_of.get(&c.name.name).copied().unwrap_or(id),
            names,
            text: self.src.get(text_at..text_end).unwrap_or("").into(),
            text_at,
            name: c.name.name.clone(),
            params,
            ret,
            reads: ir::local_reads(slots, &body, &result),
            body,
            result,
            slots,
            span: c.name.span.clone(),
            depth: self.reach,
        })
    }

    pub(super) fn check_comp_body(
        &mut self,
        c: &ast::CompDef,
        ret: &Type,
    ) -> Result<(Vec<(usize, ir::Expr)>, ir::Expr), Diag> {
        let mut body = vec![];
        for b in &c.body {
            let e = self.check_binding(b)?;
            let local = self.local.as_mut().ok_or_else(|| {
                Diag::check("comp", "internal: no local scope", b.name.span.clone())
            })?;
            let slot = local.next;
            local.next += 1;
            local
                .names
                .insert(b.name.name.clone(), (slot, e.ty.clone()));
            body.push((slot, e));
        }
        let result = self.check_as(&c.result, ret)?;
        Ok((body, result))
    }

    pub(super) fn check_assert(&mut self, a: &ast::Assertion) -> Result<ir::Assert, Diag> {
        Ok(match a {
            ast::Assertion::Equal { actual, expected } => {
                let (actual, expected) = self.check_pair(actual, expected, "==")?;
                ir::Assert::Equal { actual, expected }
            }
            ast::Assertion::Close {
                actual,
                expected,
                tol,
            } => {
                let (actual, expected) = self.check_pair(actual, expected, "~=")?;
                if let Some(e) = non_float_leaf(&actual.ty) {
                    return Err(Diag::check(
                        "assert",
                        format!(
                            "`~=` compares floating-point (or complex) values, but {} holds {e} (use `==`)",
                            actual.ty
                        ),
                        actual.span.clone(),
                    )
                    .with_label(format!("{}", actual.ty)));
                }
                let tol = match tol {
                    Some(t) => Some(self.static_f64(t)?),
                    None => None,
                };
                ir::Assert::Close {
                    actual,
                    expected,
                    tol,
                }
            }
            ast::Assertion::Holds(e) => {
                let c = self.check_expr(e, None)?;
                if c.ty != Type::scalar(ElemType::Pred) {
                    return Err(Diag::check(
                        "assert",
                        format!("`then EXPR` needs a pred scalar, but this is {}", c.ty),
                        c.span.clone(),
                    )
                    .with_label(format!("{}", c.ty))
                    .with_help(
                        "to compare whole arrays write `then A == B` (or `~=` for floats)",
                    ));
                }
                ir::Assert::Holds(c)
            }
        })
    }

    /// Both sides of `==`/`~=`: an untyped literal takes the other side's element type.
    pub(super) fn check_pair(
        &mut self,
        a: &Expr,
        b: &Expr,
        how: &str,
    ) -> Result<(ir::Expr, ir::Expr), Diag> {
        let (ca, cb) = if literal::is_weak(a) && !literal::is_weak(b) {
            let cb = self.check_expr(b, None)?;
            let ca = self.check_expr(a, elem_of(&cb.ty))?;
            (ca, cb)
        } else {
            let ca = self.check_expr(a, None)?;
            let cb = self.check_expr(b, elem_of(&ca.ty))?;
            (ca, cb)
        };
        if ca.ty != cb.ty {
            return Err(Diag::check(
                "assert",
                format!(
                    "the two sides of `{how}` have different types: {} and {}",
                    ca.ty, cb.ty
                ),
                ca.span.start..cb.span.end,
            )
            .with_label("types differ")
            .with_secondary(ca.span.clone(), format!("{}", ca.ty))
            .with_secondary(cb.span.clone(), format!("{}", cb.ty)));
        }
        Ok((ca, cb))
    }

    pub(super) fn static_f64(&self, e: &Expr) -> Result<f64, Diag> {
        let bad = || {
            Diag::check(
                "assert",
                "the tolerance after `within` must be a number",
                e.span.clone(),
            )
        };
        match &e.kind {
            ExprKind::Number(n) => n.text.parse().map_err(|_| bad()),
            _ => Err(bad()),
        }
    }
}
