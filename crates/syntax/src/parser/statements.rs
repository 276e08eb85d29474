//! Statements, `comp` definitions and the whole program.

use super::*;

/// After `let`: `NAME [: TYPE] = EXPR`.
pub(super) fn binding<'t>(
    expr: Boxed<'t, 't, In<'t>, Expr, Extra>,
    ty: Boxed<'t, 't, In<'t>, TypeExpr, Extra>,
) -> impl Parser<'t, In<'t>, Binding, Extra> + Clone {
    ident()
        .labelled(Expect::LetName)
        .then(just(Tok::Colon).ignore_then(ty).or_not())
        .then_ignore(just(Tok::Assign))
        .then(expr)
        .map(|((name, ty), value)| Binding { name, ty, value })
}

/// A statement of a `comp` body before its result.
#[derive(Clone)]
pub(super) enum BodyItem {
    /// `None`: it failed and was skipped.
    Binding(Option<Binding>),
    /// Not a binding and not the result: reported and skipped.
    Broken,
}

/// `comp NAME(P: TYPE, ...) -> TYPE { bindings; result }`.
pub(super) fn comp<'t>(
    expr: Boxed<'t, 't, In<'t>, Expr, Extra>,
    ty: Boxed<'t, 't, In<'t>, TypeExpr, Extra>,
) -> impl Parser<'t, In<'t>, CompDef, Extra> + Clone {
    let param = ident()
        .labelled(Expect::ParamName)
        .then_ignore(just(Tok::Colon).labelled(Expect::ParamColon))
        .then(ty.clone());
    let params = just(Tok::LParen)
        .labelled(Expect::CompParams)
        .ignore_then(
            param
                .separated_by(just(Tok::Comma))
                .allow_trailing()
                .collect::<Vec<_>>(),
        )
        .then_ignore(just(Tok::RParen))
        .labelled(Ctx::Params)
        .as_context();

    // Each statement of the body recovers on its own. As long as the result has not
    // been read, a statement that fails (even one that starts like the result) is
    // reported and skipped, and the body goes on.
    let item_end = choice((sep(), just(Tok::RBrace).rewind().ignored()));
    let binding_item = just(Tok::Let)
        .ignore_then(recovering(
            binding(expr.clone(), ty.clone())
                .then_ignore(item_end.clone())
                .map(Some),
            BODY_BINDING,
            None,
        ))
        .map(BodyItem::Binding);
    let result = expr.clone().then_ignore(item_end);
    let broken_result = result.clone().not().ignore_then(recovering(
        result.clone().to(BodyItem::Broken),
        BODY_RESULT,
        BodyItem::Broken,
    ));
    let junk = none_of([Tok::RBrace])
        .rewind()
        .ignore_then(expr.clone().not())
        .ignore_then(recovering(
            choice((
                just(Tok::Let).ignored(),
                expr.ignored(),
                just(Tok::RBrace).ignored(),
            ))
            .to(BodyItem::Broken),
            BODY_JUNK,
            BodyItem::Broken,
        ));
    // After the result only `}` may follow; anything else is reported once and
    // skipped to the body's end.
    let close = just(Tok::RBrace)
        .map_with(|_, e| Some(e.span()))
        .recover_with(via_parser(skip_rest_of_body().to(None)));
    let body = just(Tok::LBrace)
        .labelled(Expect::BodyOpen)
        .ignore_then(seps())
        .ignore_then(
            choice((binding_item, broken_result, junk))
                .then_ignore(seps())
                .repeated()
                .collect::<Vec<_>>(),
        )
        .then(result.then_ignore(seps()).or_not())
        .then(close)
        .labelled(Ctx::Body)
        .as_context();

    just(Tok::Comp)
        .ignore_then(ident().labelled(Expect::CompName))
        .then(params)
        .then_ignore(just(Tok::Arrow).labelled(Expect::ResultArrow))
        .then(ty)
        .then(body)
        .validate(
            |(((name, params), ret), ((items, result), close)), e, emitter| {
                // `f32(...)` always reads as a type, so such a comp could never be called.
                if ElemType::parse(&name.name).is_some() {
                    let diag = Diag::syntax(
                        format!(
                            "found the element type name '{}' but expected a computation name",
                            name.name
                        ),
                        name.span.clone(),
                    )
                    .with_label("an element type's name")
                    .with_help(format!(
                        "element type names start a type wherever an expression is expected, so \
                         `{0}(...)` could never call it; choose another name, e.g. `{0}_fn`",
                        name.name
                    ));
                    emitter.emit(SyntaxError::fatal(diag));
                }
                let mut body = Vec::new();
                let mut failed = close.is_none();
                for item in items {
                    match item {
                        BodyItem::Binding(Some(b)) => body.push(b),
                        _ => failed = true,
                    }
                }
                e.state().body_failed = failed || result.is_none();
                let result = match result {
                    Some(result) => result,
                    None => {
                        if let (false, Some(close)) = (failed, close) {
                            let diag = Diag::syntax(
                                "found '}' but expected the computation's result expression",
                                close,
                            )
                            .with_label("the body ends without a result")
                            .with_help("a computation's body ends with the expression it returns");
                            emitter.emit(SyntaxError::fatal(diag));
                        }
                        // Never seen: the program is rejected.
                        Expr {
                            kind: ExprKind::Tuple(vec![]),
                            span: e.span(),
                        }
                    }
                };
                CompDef {
                    name,
                    params,
                    ret,
                    body,
                    result,
                }
            },
        )
}

/// A whole program: statements separated by `;` or line breaks.
pub(crate) fn program<'t>() -> impl Parser<'t, In<'t>, Program, Extra> {
    let ty = ty();
    let (expr, then_lhs) = exprs(ty.clone());

    // A statement ends at a separator, at the end, or where `==>` starts the next one.
    let end_of_statement = choice((
        sep(),
        end().labelled(Expect::Quiet),
        just(Tok::Implies)
            .rewind()
            .ignored()
            .labelled(Expect::Quiet),
    ));

    let let_stmt = just(Tok::Let)
        .ignore_then(binding(expr.clone(), ty.clone()))
        .map(StmtKind::Let);
    let approx = just(Tok::Approx)
        .labelled(Expect::Quiet)
        .ignore_then(expr.clone())
        .then(
            just(Tok::Within)
                .labelled(Expect::Quiet)
                .ignore_then(expr.clone())
                .or_not(),
        );
    let equal = just(Tok::EqEq)
        .labelled(Expect::Quiet)
        .ignore_then(expr.clone());
    let then_stmt = just(Tok::Then)
        .ignore_then(then_lhs)
        .then(
            choice((
                equal.map(|expected| (expected, None, false)),
                approx.map(|(expected, tol)| (expected, tol, true)),
            ))
            .or_not(),
        )
        .map(|(actual, cmp)| {
            StmtKind::Assert(match cmp {
                Some((expected, tol, true)) => Assertion::Close {
                    actual,
                    expected,
                    tol,
                },
                Some((expected, _, false)) => Assertion::Equal { actual, expected },
                None => Assertion::Holds(actual),
            })
        });
    let implies_stmt = just(Tok::Implies)
        .ignore_then(expr.clone())
        .then_ignore(just(Tok::Assign))
        .then(expr.clone())
        .map(|(actual, expected)| StmtKind::Assert(Assertion::Equal { actual, expected }));
    let expr_stmt = expr
        .clone()
        .then(
            choice((just(Tok::Chevrons), just(Tok::Produces)))
                .labelled(Expect::Quiet)
                .ignore_then(expr.clone())
                .or_not(),
        )
        .map(|(actual, expected)| match expected {
            Some(expected) => StmtKind::Assert(Assertion::Equal { actual, expected }),
            None => StmtKind::Expr(actual),
        });
    let simple = choice((let_stmt, then_stmt, implies_stmt, expr_stmt))
        .map_with(|kind, e| Stmt {
            kind,
            span: e.span(),
        })
        .then_ignore(end_of_statement.clone());
    // A `comp` ends at its `}`, so junk after it is skipped from there, keeping
    // whatever its body reported.
    let comp_stmt = comp(expr, ty)
        .map_with(|def, e| Stmt {
            kind: StmtKind::Comp(def),
            span: e.span(),
        })
        .then_ignore(skip_after_failed_body().or(recovering(
            end_of_statement,
            AFTER_STATEMENT,
            (),
        )));
    let statement = recovering(
        choice((comp_stmt, simple))
            .map(Some)
            .labelled(Expect::Statement),
        STATEMENT,
        None,
    );
    seps()
        .ignore_then(statement.then_ignore(seps()).repeated().collect::<Vec<_>>())
        .then_ignore(end())
        .map(|stmts| Program {
            stmts: stmts.into_iter().flatten().collect(),
        })
}

/// For `parse_expr`: one expression and nothing after it.
pub(crate) fn lone_expr<'t>() -> impl Parser<'t, In<'t>, Expr, Extra> {
    seps()
        .ignore_then(expr(ty()))
        .then_ignore(seps())
        .then_ignore(end().labelled(Expect::ExprEnd))
}
