//! Tokens → AST, with chumsky combinators over the token slice.
//!
//! Infix operators are five `foldl` levels (`||`, `&&`, comparisons, `+ -`, `* / %`),
//! all left-associative; prefix `-` and `!` bind tighter. Statements (and the
//! statements of a `comp` body) are the recovery points: a statement that fails is
//! skipped from the token it failed at to the next separator or statement keyword
//! outside brackets, so one run reports every independent error.
//!
//! The parser's context is the nesting depth: every prefix operator, operand and
//! type counts one level, and deeper nesting than `MAX_DEPTH` is reported
//! rather than risking the stack (here and in every later pass over the tree).
//! The parser's state (`Recovery`) tells the recoveries where the last failure was.

use super::error::{Ctx, Expect, SyntaxError, unexpected};
use super::lexer::Tok;
use crate::ast::*;
use crate::diag::Diag;
use crate::types::ElemType;
use chumsky::extra::SimpleState;
use chumsky::input::{InputRef, MappedInput};
use chumsky::prelude::*;

/// The token slice, each token with its byte span.
pub(crate) type In<'t> = MappedInput<'t, Tok, Span, &'t [(Tok, Span)]>;
/// Errors; what the recovery needs to know; the nesting depth.
pub(crate) type Extra = extra::Full<SyntaxError, SimpleState<Recovery>, usize>;

/// What the recoveries need to know about the parse so far.
#[derive(Default)]
pub(crate) struct Recovery {
    /// Byte offset of the token the latest failed statement failed at.
    failed_at: usize,
    /// The `comp` just parsed had errors in its body: what follows it on its line is
    /// skipped without complaint, as when any other statement fails.
    body_failed: bool,
}

/// Deeper nesting than this is reported instead of risking the stack.
const MAX_DEPTH: usize = 128;

fn split(tok: &(Tok, Span)) -> (&Tok, &Span) {
    (&tok.0, &tok.1)
}

/// Runs `parser` over `toks`; `len` is the length of the text, where the end of input is.
pub(crate) fn run<'t, O>(
    parser: impl Parser<'t, In<'t>, O, Extra>,
    toks: &'t [(Tok, Span)],
    len: usize,
) -> (Option<O>, Vec<SyntaxError>) {
    let split: fn(&'t (Tok, Span)) -> (&'t Tok, &'t Span) = split;
    let input = toks.map(len..len, split);
    let mut recovery = SimpleState(Recovery::default());
    parser
        .parse_with_state(input, &mut recovery)
        .into_output_errors()
}

// ---- recovery ---------------------------------------------------------

/// The next token and its span, without consuming it.
fn peek_spanned<'t>(inp: &mut InputRef<'t, '_, In<'t>, Extra>) -> (Option<Tok>, Span) {
    let checkpoint = inp.save();
    let before = inp.cursor();
    let found = inp.next_ref().cloned();
    let span = inp.span_since(&before);
    inp.rewind(checkpoint);
    (found, span)
}

/// A failure of a `custom` parser that names nothing, at the next token.
fn nothing_here<'t>(inp: &mut InputRef<'t, '_, In<'t>, Extra>) -> SyntaxError {
    let (_, span) = peek_spanned(inp);
    SyntaxError::quiet(span)
}

/// How a recovery skips.
#[derive(Clone, Copy)]
struct Skip {
    /// In a `comp` body, whose `}` also ends a statement.
    in_block: bool,
    /// Recover even when the parser failed at its first token.
    at_first_token: bool,
    /// Fail unless at least one token is skipped.
    need_progress: bool,
    /// Skip one token if there is no other way forward.
    bump_if_stuck: bool,
}

const STATEMENT: Skip = Skip {
    in_block: false,
    at_first_token: true,
    need_progress: true,
    bump_if_stuck: false,
};
const AFTER_STATEMENT: Skip = Skip {
    in_block: false,
    at_first_token: true,
    need_progress: false,
    bump_if_stuck: false,
};
const BODY_BINDING: Skip = Skip {
    in_block: true,
    at_first_token: true,
    need_progress: false,
    bump_if_stuck: false,
};
const BODY_RESULT: Skip = Skip {
    in_block: true,
    at_first_token: false,
    need_progress: true,
    bump_if_stuck: false,
};
/// Something in a body that starts no statement.
const BODY_JUNK: Skip = Skip {
    in_block: true,
    at_first_token: true,
    need_progress: true,
    bump_if_stuck: true,
};

/// The recovery: skips the tokens the failed parser read up to where it failed, then
/// on to where the next statement can begin: a separator or a statement keyword
/// outside any bracket opened while skipping (or the end; or, in a body, its `}`).
fn skip_to_statement<'t>(how: Skip) -> impl Parser<'t, In<'t>, (), Extra> + Clone {
    custom(move |inp: &mut InputRef<'t, '_, In<'t>, Extra>| {
        let start = inp.save();
        let failed_at = inp.state().failed_at;
        loop {
            let checkpoint = inp.save();
            let before = inp.cursor();
            if inp.next_ref().is_none() {
                break;
            }
            if inp.span_since(&before).start >= failed_at {
                inp.rewind(checkpoint);
                break;
            }
        }
        if !how.at_first_token && inp.cursor() == *start.cursor() {
            inp.rewind(start);
            return Err(nothing_here(inp));
        }
        skip_to_boundary(inp, how.in_block);
        if how.bump_if_stuck && inp.cursor() == *start.cursor() {
            inp.skip();
        }
        if how.need_progress && inp.cursor() == *start.cursor() {
            inp.rewind(start);
            return Err(nothing_here(inp));
        }
        Ok(())
    })
}

/// Skips to a separator or statement keyword outside any bracket opened while
/// skipping, or the end (or, `in_block`, a `}` that closes nothing skipped).
fn skip_to_boundary<'t>(inp: &mut InputRef<'t, '_, In<'t>, Extra>, in_block: bool) {
    let mut depth = 0usize;
    while let Some(tok) = inp.peek_ref() {
        match tok {
            Tok::Semi | Tok::Newline | Tok::Let | Tok::Comp | Tok::Then | Tok::Implies
                if depth == 0 =>
            {
                break;
            }
            Tok::RBrace if depth == 0 && in_block => break,
            Tok::LParen | Tok::LBrace | Tok::LBracket => depth += 1,
            Tok::RParen | Tok::RBrace | Tok::RBracket => depth = depth.saturating_sub(1),
            _ => {}
        }
        inp.skip();
    }
}

/// After a `comp` whose body had errors: skips the rest of the statement silently.
fn skip_after_failed_body<'t>() -> impl Parser<'t, In<'t>, (), Extra> + Clone {
    custom(|inp: &mut InputRef<'t, '_, In<'t>, Extra>| {
        if !std::mem::take(&mut inp.state().body_failed) {
            return Err(nothing_here(inp));
        }
        skip_to_boundary(inp, false);
        Ok(())
    })
}

/// `parser`, which on failure reports its error and skips as `how` says, giving `fallback`.
fn recovering<'t, O, P>(
    parser: P,
    how: Skip,
    fallback: O,
) -> impl Parser<'t, In<'t>, O, Extra> + Clone
where
    P: Parser<'t, In<'t>, O, Extra> + Clone,
    O: Clone,
{
    parser
        .map_err_with_state(
            |err: SyntaxError, _, recovery: &mut SimpleState<Recovery>| {
                recovery.failed_at = err.span.start;
                err
            },
        )
        .recover_with(via_parser(skip_to_statement(how).to(fallback)))
}

/// After a `comp` body's `{`: skips to its `}` (inclusive) or the end.
fn skip_rest_of_body<'t>() -> impl Parser<'t, In<'t>, (), Extra> + Clone {
    custom(|inp: &mut InputRef<'t, '_, In<'t>, Extra>| {
        let mut depth = 0usize;
        while let Some(tok) = inp.next_ref() {
            match tok {
                Tok::LBrace => depth += 1,
                Tok::RBrace if depth == 0 => break,
                Tok::RBrace => depth -= 1,
                _ => {}
            }
        }
        Ok(())
    })
}

// ---- small pieces -------------------------------------------------------

/// `{1, -2.5, 3e-3, ...}`: a brace of plain numbers (pasted weights), or of rows the
/// lexer read whole (`NumRun`), read in one loop instead of through the whole
/// expression grammar for every element. It
/// builds exactly the tree the general grammar would (`-x` is `Neg` of the number).
/// Anything else fails quietly without consuming, and the general brace parser
/// reads the text (and reports any error).
fn number_list<'t>() -> impl Parser<'t, In<'t>, Expr, Extra> + Clone {
    custom(|inp: &mut InputRef<'t, '_, In<'t>, Extra>| {
        let start = inp.save();
        match read_number_list(inp) {
            Some(list) => Ok(list),
            None => {
                inp.rewind(start);
                Err(nothing_here(inp))
            }
        }
    })
}

/// The loop of `number_list`; `None` where the text is anything else.
fn read_number_list<'t>(inp: &mut InputRef<'t, '_, In<'t>, Extra>) -> Option<Expr> {
    let begin = inp.cursor();
    match inp.next_ref() {
        Some(Tok::LBrace) => {}
        // The lexer has read the whole brace already.
        Some(Tok::NumRun(run)) => {
            let run = run.clone();
            return Some(Expr {
                kind: ExprKind::Numbers(run),
                span: inp.span_since(&begin),
            });
        }
        _ => return None,
    }
    let mut items = Vec::new();
    loop {
        // An item, or the closing brace (at the start, or after a trailing comma).
        let at = inp.cursor();
        let mut negative = false;
        let mut num_at = inp.cursor();
        let mut tok = inp.next_ref();
        match tok {
            Some(Tok::RBrace) => break,
            Some(Tok::Minus) => {
                negative = true;
                num_at = inp.cursor();
                tok = inp.next_ref();
            }
            _ => {}
        }
        let number = match tok {
            // A row of a nested literal, read whole by the lexer.
            Some(Tok::NumRun(run)) if !negative => {
                items.push(Expr {
                    kind: ExprKind::Numbers(run.clone()),
                    span: inp.span_since(&num_at),
                });
                match inp.next_ref() {
                    Some(Tok::Comma) => continue,
                    Some(Tok::RBrace) => break,
                    _ => return None,
                }
            }
            Some(Tok::Int(text)) => NumLit {
                text: text.clone(),
                is_integer: true,
            },
            Some(Tok::Float(text)) => NumLit {
                text: text.clone(),
                is_integer: false,
            },
            _ => return None,
        };
        let mut item = Expr {
            kind: ExprKind::Number(number),
            span: inp.span_since(&num_at),
        };
        if negative {
            item = Expr {
                kind: ExprKind::Unary {
                    op: UnOp::Neg,
                    operand: Box::new(item),
                },
                span: inp.span_since(&at),
            };
        }
        items.push(item);
        match inp.next_ref() {
            Some(Tok::Comma) => {}
            Some(Tok::RBrace) => break,
            _ => return None,
        }
    }
    Some(Expr {
        kind: ExprKind::Brace(items),
        span: inp.span_since(&begin),
    })
}

/// `parser` one level deeper, or an error if that is too deep.
fn nest<'t, O, P>(what: &'static str, parser: P) -> impl Parser<'t, In<'t>, O, Extra> + Clone
where
    P: Parser<'t, In<'t>, O, Extra> + Clone,
{
    let check = custom(move |inp: &mut InputRef<'t, '_, In<'t>, Extra>| {
        if *inp.ctx() < MAX_DEPTH {
            return Ok(());
        }
        let (found, span) = peek_spanned(inp);
        let desc = super::error::describe(found.as_ref());
        let diag = Diag::syntax(
            format!("found {desc} but expected {what} nested less deeply"),
            span,
        )
        .with_label(unexpected(found.as_ref()));
        Err(SyntaxError::fatal(diag))
    });
    check.ignore_then(map_ctx::<_, _, _, Extra, Extra, _>(
        |depth: &usize| depth + 1,
        parser,
    ))
}

fn sep<'t>() -> impl Parser<'t, In<'t>, (), Extra> + Clone {
    choice((just(Tok::Semi), just(Tok::Newline))).ignored()
}

fn seps<'t>() -> impl Parser<'t, In<'t>, (), Extra> + Clone {
    sep().labelled(Expect::Quiet).repeated()
}

fn ident<'t>() -> impl Parser<'t, In<'t>, Ident, Extra> + Clone {
    select_ref! { Tok::Ident(name) = e => Ident { name: name.clone(), span: e.span() } }
}

fn binary(op: BinOp, lhs: Expr, rhs: Expr) -> Expr {
    Expr {
        span: lhs.span.start..rhs.span.end,
        kind: ExprKind::Binary {
            op,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        },
    }
}

/// One precedence level: `next (op next)*`, folded to the left.
fn infix<'t, P, O>(next: P, ops: O) -> impl Parser<'t, In<'t>, Expr, Extra> + Clone
where
    P: Parser<'t, In<'t>, Expr, Extra> + Clone,
    O: Parser<'t, In<'t>, BinOp, Extra> + Clone,
{
    next.clone().foldl(
        ops.labelled(Expect::Operator).then(next).repeated(),
        |lhs, (op, rhs)| binary(op, lhs, rhs),
    )
}

// ---- types --------------------------------------------------------------

fn dim_size(text: &str, span: Span) -> Result<u64, SyntaxError> {
    text.parse::<u64>().map_err(|_| {
        let diag = Diag::syntax(
            format!("found the dimension '{text}' but expected a size that fits in 64 bits"),
            span,
        )
        .with_label("dimension too large");
        SyntaxError::fatal(diag)
    })
}

/// An element type name with optional dimensions: `f32`, `f32[]`, `f32[4x2x3]`, `f32[4,2,3]`.
fn array_type<'t>() -> impl Parser<'t, In<'t>, TypeExpr, Extra> + Clone {
    let elem = select_ref! { Tok::Ident(name) => name.as_str() }.filter_map(ElemType::parse);
    let dims_word = select_ref! { Tok::Dims(text) => text.as_str() }.try_map(|text, span: Span| {
        text.split('x')
            .map(|part| dim_size(part, span.clone()))
            .collect::<Result<Vec<u64>, _>>()
    });
    let size = select_ref! { Tok::Int(text) => text.as_str() }
        .labelled(Expect::DimSize)
        .try_map(dim_size);
    let sizes = size
        .separated_by(just(Tok::Comma))
        .allow_trailing()
        .at_least(1)
        .collect::<Vec<u64>>();
    let dims = just(Tok::LBracket)
        .ignore_then(
            choice((dims_word, sizes))
                .labelled(Expect::DimSizes)
                .or_not(),
        )
        .then_ignore(just(Tok::RBracket))
        .map(Option::unwrap_or_default)
        .labelled(Ctx::Dims)
        .as_context();
    elem.then(dims.labelled(Expect::Quiet).or_not())
        .map_with(|(elem, dims), e| TypeExpr {
            kind: TypeExprKind::Array { elem, dims },
            span: e.span(),
        })
}

/// A type: an array type or a tuple of types.
fn ty<'t>() -> Boxed<'t, 't, In<'t>, TypeExpr, Extra> {
    recursive(|ty| {
        let tuple = just(Tok::LParen)
            .ignore_then(
                ty.separated_by(just(Tok::Comma))
                    .allow_trailing()
                    .collect::<Vec<_>>(),
            )
            .then_ignore(just(Tok::RParen))
            .map_with(|elems, e| TypeExpr {
                kind: TypeExprKind::Tuple(elems),
                span: e.span(),
            })
            .labelled(Ctx::TypeTuple)
            .as_context();
        nest(
            "a type",
            choice((array_type(), tuple)).labelled(Expect::Type),
        )
    })
    .boxed()
}

// ---- expressions ----------------------------------------------------------

fn expr<'t>(ty: Boxed<'t, 't, In<'t>, TypeExpr, Extra>) -> Boxed<'t, 't, In<'t>, Expr, Extra> {
    exprs(ty).0
}

type ExprParser<'t> = Boxed<'t, 't, In<'t>, Expr, Extra>;

/// The expression parser, and the one for the left side of a `then` assertion: the
/// same grammar except that a top-level `==` is not `Eq` there, because the
/// assertion's `==` binds loosest of all (`then p && q == r` compares `p && q`
/// with `r`). Inside brackets, `==` is `Eq` as everywhere.
fn exprs<'t>(ty: Boxed<'t, 't, In<'t>, TypeExpr, Extra>) -> (ExprParser<'t>, ExprParser<'t>) {
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
        let value = choice((brace.clone(), number, boolean, negative));
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
        let arg = ident()
            .then_ignore(just(Tok::Assign).labelled(Expect::Quiet))
            .or_not()
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

        let atom = choice((
            typed,
            number,
            boolean,
            string,
            brace,
            typed_tuple,
            paren,
            var_or_call,
        ))
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

// ---- statements -----------------------------------------------------------

/// After `let`: `NAME [: TYPE] = EXPR`.
fn binding<'t>(
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
enum BodyItem {
    /// `None`: it failed and was skipped.
    Binding(Option<Binding>),
    /// Not a binding and not the result: reported and skipped.
    Broken,
}

/// `comp NAME(P: TYPE, ...) -> TYPE { bindings; result }`.
fn comp<'t>(
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
