//! Expressions: atoms, prefix operators and the five infix levels.

use super::*;

pub(super) fn expr<'t>(
    ty: Boxed<'t, 't, In<'t>, TypeExpr, Extra>,
) -> Boxed<'t, 't, In<'t>, Expr, Extra> {
    exprs(ty).0
}

pub(super) type ExprParser<'t> = Boxed<'t, 't, In<'t>, Expr, Extra>;

/// The expression parser, and the one for the left side of a `then` assertion: the
/// same grammar except that a top-level `==` is not `Eq` there, because the
/// assertion's `==` binds loosest of all (`then p && q == r` compares `p && q`
/// with `r`). Inside brackets, `==` is `Eq` as everywhere.
pub(super) fn exprs<'t>(
    ty: Boxed<'t, 't, In<'t>, TypeExpr, Extra>,
) -> (ExprParser<'t>, ExprParser<'t>) {
    let mut expr = Recursive::declare();
    let (full, then_lhs) = {
        let number = select_ref! {
            Tok::Int(text) = e => Expr {
                kind: ExprKind::Number(NumLit { text: text.clone(), is_integer: true }),
                span: e.span(),
            },
            Tok::Float(text) = e => Expr {
                kind: ExprKind::Number(NumLit { text: text.clone(), is_integer: false }),
                span: e.span(),
            },
        };
        let boolean = select_ref! {
            Tok::True = e => Expr { kind: ExprKind::Bool(true), span: e.span() },
            Tok::False = e => Expr { kind: ExprKind::Bool(false), span: e.span() },
        };
        let string = select_ref! {
            Tok::Str(s) = e => Expr { kind: ExprKind::Str(s.clone()), span: e.span() },
        };

        // `{a, b, ...}`, trailing comma allowed.
        let brace = number_list()
            .or(just(Tok::LBrace)
                .ignore_then(
                    expr.clone()
                        .separated_by(just(Tok::Comma))
                        .allow_trailing()
                        .collect::<Vec<_>>(),
                )
                .then_ignore(just(Tok::RBrace))
                .map_with(|items, e| Expr {
                    kind: ExprKind::Brace(items),
                    span: e.span(),
                })
                .labelled(Ctx::Brace)
                .as_context())
            .boxed();

        // `()`, `(a)`, `(a,)`, `(a, b, ...)`.
        let items = expr
            .clone()
            .then(
                just(Tok::Comma)
                    .ignore_then(expr.clone())
                    .repeated()
                    .collect::<Vec<_>>(),
            )
            .then(just(Tok::Comma).or_not());
        let paren = just(Tok::LParen)
            .ignore_then(items.or_not())
            .then_ignore(just(Tok::RParen))
            .map_with(|items, e| {
                let span = e.span();
                match items {
                    None => Expr {
                        kind: ExprKind::Tuple(vec![]),
                        span,
                    },
                    Some(((first, rest), None)) if rest.is_empty() => Expr { span, ..first },
                    Some(((first, rest), _)) => {
                        let mut items = vec![first];
                        items.extend(rest);
                        Expr {
                            kind: ExprKind::Tuple(items),
                            span,
                        }
                    }
                }
            })
            .labelled(Ctx::Paren)
            .as_context()
            .boxed();

        // A typed tuple: a tuple type directly followed by a parenthesised value,
        // `(f32[2], s32) ({1, 2}, 5)`, as tuples print. Anything else that starts like
        // a tuple type is an ordinary parenthesis, and this attempt says nothing.
        let typed_tuple = ty
            .filter(|t| matches!(t.kind, TypeExprKind::Tuple(_)))
            .then_ignore(just(Tok::LParen).rewind())
            .map_err(SyntaxError::quieted)
            .then(paren.clone())
            .map(|(ty, value)| Expr {
                span: ty.span.start..value.span.end,
                kind: ExprKind::Typed {
                    ty,
                    value: Box::new(value),
                },
            });

        // At an element type name: a typed literal (`f32[2] {1, 2}`, `s32 -1`) or a type alone.
        // `s32 -1` is a literal, `f32 - 1` a subtraction.
        let negative = just(Tok::Minus)
            .map_with(|_, e| e.span())
            .then(number)
            .filter(|(minus, n): &(Span, Expr)| minus.end == n.span.start)
            .map(|(minus, n)| Expr {
                span: minus.start..n.span.end,
                kind: ExprKind::Unary {
                    op: UnOp::Neg,
                    operand: Box::new(n),
                },
            });
        // A complex scalar's value: `c64 (1, -2)`, a pair of (possibly negative) numbers.
        let signed = choice((number, negative.clone()));
        let complex_pair = just(Tok::LParen)
            .map_with(|_, e| e.span())
            .then(signed.clone())
            .then_ignore(just(Tok::Comma))
            .then(signed)
            .then(just(Tok::RParen).map_with(|_, e| e.span()))
            .map(
                |(((open, re), im), close): (((Span, Expr), Expr), Span)| Expr {
                    span: open.start..close.end,
                    kind: ExprKind::Tuple(vec![re, im]),
                },
            );
        let value = choice((brace.clone(), number, boolean, negative, complex_pair));
        let typed = array_type()
            .then(value.labelled(Expect::Quiet).or_not())
            .map(|(ty, value)| match value {
                Some(value) => Expr {
                    span: ty.span.start..value.span.end,
                    kind: ExprKind::Typed {
                        ty,
                        value: Box::new(value),
                    },
                },
                None => Expr {
                    span: ty.span.clone(),
                    kind: ExprKind::Type(ty),
                },
            });

        // `name` or `name(positional..., key=value...)`.
        let arg = arg_name()
            .then(expr.clone().labelled(Expect::ArgValue))
            .map(|(name, value)| Arg { name, value })
            .labelled(Expect::Argument);
        let args = just(Tok::LParen)
            .ignore_then(
                arg.separated_by(just(Tok::Comma))
                    .allow_trailing()
                    .collect::<Vec<_>>(),
            )
            .then(just(Tok::RParen).map_with(|_, e| e.span()))
            .labelled(Ctx::Call)
            .as_context();
        let var_or_call =
            ident()
                .then(args.labelled(Expect::Quiet).or_not())
                .map(|(callee, args)| match args {
                    Some((args, close)) => Expr {
                        span: callee.span.start..close.end,
                        kind: ExprKind::Call { callee, args },
                    },
                    None => Expr {
                        span: callee.span.clone(),
                        kind: ExprKind::Var(callee.name),
                    },
                });

        // Ctrl-C or the memory budget exceeded: from then on every atom fails
        // before it is read, quietly, so a huge expression is passed over at
        // once; `parse_with` then reports why instead of these failures (lib.rs).
        let alive = empty().try_map(|(), span: Span| {
            if crate::must_stop() {
                Err(SyntaxError::quiet(span))
            } else {
                Ok(())
            }
        });
        let atom = alive
            .ignore_then(choice((
                typed,
                number,
                boolean,
                string,
                brace,
                typed_tuple,
                paren,
                var_or_call,
            )))
            .boxed();

        let unary = recursive(|unary| {
            let op = select_ref! {
                Tok::Minus = e => (UnOp::Neg, e.span()),
                Tok::Bang = e => (UnOp::Not, e.span()),
            };
            let prefixed = op
                .then(unary)
                .map(|((op, at), operand): ((UnOp, Span), Expr)| Expr {
                    span: at.start..operand.span.end,
                    kind: ExprKind::Unary {
                        op,
                        operand: Box::new(operand),
                    },
                });
            nest(
                "an expression",
                choice((prefixed, atom)).labelled(Expect::Expression),
            )
        })
        .boxed();

        let product = infix(
            unary,
            select_ref! { Tok::Star => BinOp::Mul, Tok::Slash => BinOp::Div, Tok::Percent => BinOp::Rem },
        )
        .boxed();
        let sum = infix(
            product,
            select_ref! { Tok::Plus => BinOp::Add, Tok::Minus => BinOp::Sub },
        )
        .boxed();
        let comparison = infix(
            sum.clone(),
            select_ref! {
                Tok::EqEq => BinOp::Eq,
                Tok::NotEq => BinOp::Ne,
                Tok::Lt => BinOp::Lt,
                Tok::Le => BinOp::Le,
                Tok::Gt => BinOp::Gt,
                Tok::Ge => BinOp::Ge,
            },
        )
        .boxed();
        let conjunction = infix(comparison, select_ref! { Tok::AndAnd => BinOp::And }).boxed();
        let full = infix(conjunction, select_ref! { Tok::OrOr => BinOp::Or }).boxed();

        let comparison_no_eq = infix(
            sum,
            select_ref! {
                Tok::NotEq => BinOp::Ne,
                Tok::Lt => BinOp::Lt,
                Tok::Le => BinOp::Le,
                Tok::Gt => BinOp::Gt,
                Tok::Ge => BinOp::Ge,
            },
        )
        .boxed();
        let conjunction_no_eq =
            infix(comparison_no_eq, select_ref! { Tok::AndAnd => BinOp::And }).boxed();
        let then_lhs = infix(conjunction_no_eq, select_ref! { Tok::OrOr => BinOp::Or }).boxed();
        (full, then_lhs)
    };
    expr.define(full);
    (expr.boxed(), then_lhs)
}

/// `name =` before a call's argument, if it is there. Read by looking two
/// tokens ahead and failing never, so that an argument that is not named
/// leaves no error behind: an error one token into `f(` (no `=` after `f`)
/// would be further along than the nesting limit's error at `f` itself, and
/// would win over it ("found '(' but expected something else" for 5000
/// nested calls, where nested parentheses say "nested less deeply").
fn arg_name<'t>() -> impl Parser<'t, In<'t>, Option<Ident>, Extra> + Clone {
    custom(|inp: &mut InputRef<'t, '_, In<'t>, Extra>| {
        let checkpoint = inp.save();
        let before = inp.cursor();
        if let Some(Tok::Ident(name)) = inp.next_ref().cloned() {
            let span = inp.span_since(&before);
            if let Some(Tok::Assign) = inp.next_ref() {
                return Ok(Some(Ident { name, span }));
            }
        }
        inp.rewind(checkpoint);
        Ok(None)
    })
}
