//! Recovery: after a failed statement, skip to where the next one can begin.

use super::*;

/// The next token and its span, without consuming it.
pub(super) fn peek_spanned<'t>(inp: &mut InputRef<'t, '_, In<'t>, Extra>) -> (Option<Tok>, Span) {
    let checkpoint = inp.save();
    let before = inp.cursor();
    let found = inp.next_ref().cloned();
    let span = inp.span_since(&before);
    inp.rewind(checkpoint);
    (found, span)
}

/// A failure of a `custom` parser that names nothing, at the next token.
pub(super) fn nothing_here<'t>(inp: &mut InputRef<'t, '_, In<'t>, Extra>) -> SyntaxError {
    let (_, span) = peek_spanned(inp);
    SyntaxError::quiet(span)
}

/// How a recovery skips.
#[derive(Clone, Copy)]
pub(super) struct Skip {
    /// In a `comp` body, whose `}` also ends a statement.
    in_block: bool,
    /// Recover even when the parser failed at its first token.
    at_first_token: bool,
    /// Fail unless at least one token is skipped.
    need_progress: bool,
    /// Skip one token if there is no other way forward.
    bump_if_stuck: bool,
}

pub(super) const STATEMENT: Skip = Skip {
    in_block: false,
    at_first_token: true,
    need_progress: true,
    bump_if_stuck: false,
};
pub(super) const AFTER_STATEMENT: Skip = Skip {
    in_block: false,
    at_first_token: true,
    need_progress: false,
    bump_if_stuck: false,
};
pub(super) const BODY_BINDING: Skip = Skip {
    in_block: true,
    at_first_token: true,
    need_progress: false,
    bump_if_stuck: false,
};
pub(super) const BODY_RESULT: Skip = Skip {
    in_block: true,
    at_first_token: false,
    need_progress: true,
    bump_if_stuck: false,
};
/// Something in a body that starts no statement.
pub(super) const BODY_JUNK: Skip = Skip {
    in_block: true,
    at_first_token: true,
    need_progress: true,
    bump_if_stuck: true,
};

/// The recovery: skips the tokens the failed parser read up to where it failed, then
/// on to where the next statement can begin: a separator or a statement keyword
/// outside any bracket opened while skipping (or the end; or, in a body, its `}`).
pub(super) fn skip_to_statement<'t>(how: Skip) -> impl Parser<'t, In<'t>, (), Extra> + Clone {
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
pub(super) fn skip_to_boundary<'t>(inp: &mut InputRef<'t, '_, In<'t>, Extra>, in_block: bool) {
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
pub(super) fn skip_after_failed_body<'t>() -> impl Parser<'t, In<'t>, (), Extra> + Clone {
    custom(|inp: &mut InputRef<'t, '_, In<'t>, Extra>| {
        if !std::mem::take(&mut inp.state().body_failed) {
            return Err(nothing_here(inp));
        }
        skip_to_boundary(inp, false);
        Ok(())
    })
}

/// `parser`, which on failure reports its error and skips as `how` says, giving `fallback`.
pub(super) fn recovering<'t, O, P>(
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
pub(super) fn skip_rest_of_body<'t>() -> impl Parser<'t, In<'t>, (), Extra> + Clone {
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
