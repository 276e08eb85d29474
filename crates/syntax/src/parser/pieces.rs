//! Small parsers the others share: number lists, nesting, separators, names, infix levels.

use super::*;

/// `{1, -2.5, 3e-3, ...}`: a brace of plain numbers (pasted weights), or of rows the
/// lexer read whole (`NumRun`), read in one loop instead of through the whole
/// expression grammar for every element. It
/// builds exactly the tree the general grammar would (`-x` is `Neg` of the number).
/// Anything else fails quietly without consuming, and the general brace parser
/// reads the text (and reports any error).
pub(super) fn number_list<'t>() -> impl Parser<'t, In<'t>, Expr, Extra> + Clone {
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
pub(super) fn read_number_list<'t>(inp: &mut InputRef<'t, '_, In<'t>, Extra>) -> Option<Expr> {
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
pub(super) fn nest<'t, O, P>(
    what: &'static str,
    parser: P,
) -> impl Parser<'t, In<'t>, O, Extra> + Clone
where
    P: Parser<'t, In<'t>, O, Extra> + Clone,
{
    let check = custom(move |inp: &mut InputRef<'t, '_, In<'t>, Extra>| {
        if *inp.ctx() < MAX_DEPTH {
            return Ok(());
        }
        let (found, span) = peek_spanned(inp);
        let desc = crate::error::describe(found.as_ref());
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

pub(super) fn sep<'t>() -> impl Parser<'t, In<'t>, (), Extra> + Clone {
    choice((just(Tok::Semi), just(Tok::Newline))).ignored()
}

pub(super) fn seps<'t>() -> impl Parser<'t, In<'t>, (), Extra> + Clone {
    sep().labelled(Expect::Quiet).repeated()
}

pub(super) fn ident<'t>() -> impl Parser<'t, In<'t>, Ident, Extra> + Clone {
    select_ref! { Tok::Ident(name) = e => Ident { name: name.clone(), span: e.span() } }
}

pub(super) fn binary(op: BinOp, lhs: Expr, rhs: Expr) -> Expr {
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
pub(super) fn infix<'t, P, O>(next: P, ops: O) -> impl Parser<'t, In<'t>, Expr, Extra> + Clone
where
    P: Parser<'t, In<'t>, Expr, Extra> + Clone,
    O: Parser<'t, In<'t>, BinOp, Extra> + Clone,
{
    next.clone().foldl(
        ops.labelled(Expect::Operator).then(next).repeated(),
        |lhs, (op, rhs)| binary(op, lhs, rhs),
    )
}
