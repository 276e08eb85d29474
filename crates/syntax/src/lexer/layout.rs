//! The newline pass: which line breaks end a statement.

use super::*;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Frame {
    Paren,
    Bracket,
    /// An expression brace: a literal or a list.
    Brace,
    /// A `comp` body: line breaks separate its statements.
    Block,
}

fn closer_frame(tok: &Tok) -> Option<&'static [Frame]> {
    match tok {
        Tok::RParen => Some(&[Frame::Paren]),
        Tok::RBracket => Some(&[Frame::Bracket]),
        Tok::RBrace => Some(&[Frame::Brace, Frame::Block]),
        _ => None,
    }
}

/// Tracks open brackets and pending `comp` headers over a token stream.
#[derive(Default)]
pub(crate) struct Nesting {
    pub stack: Vec<Frame>,
    /// Depth at which a `comp` was seen whose body brace has not opened yet.
    pub comp_pending: Option<usize>,
    /// A closer matched nothing or the wrong opener.
    pub mismatched: bool,
}

impl Nesting {
    pub(crate) fn step(&mut self, tok: &Tok) {
        match tok {
            Tok::Comp => self.comp_pending = Some(self.stack.len()),
            Tok::LParen => self.stack.push(Frame::Paren),
            Tok::LBracket => self.stack.push(Frame::Bracket),
            Tok::LBrace => {
                if self.comp_pending == Some(self.stack.len()) {
                    self.comp_pending = None;
                    self.stack.push(Frame::Block);
                } else {
                    self.stack.push(Frame::Brace);
                }
            }
            Tok::Semi if self.comp_pending == Some(self.stack.len()) => self.comp_pending = None,
            // A whole balanced brace: opens and closes the pending body, if any.
            Tok::NumRun(_) if self.comp_pending == Some(self.stack.len()) => {
                self.comp_pending = None
            }
            _ => {
                if let Some(kinds) = closer_frame(tok) {
                    match self.stack.iter().rposition(|f| kinds.contains(f)) {
                        Some(p) => {
                            if p + 1 != self.stack.len() {
                                self.mismatched = true;
                            }
                            self.stack.truncate(p);
                        }
                        None => self.mismatched = true,
                    }
                    if self.comp_pending.is_some_and(|d| d > self.stack.len()) {
                        self.comp_pending = None;
                    }
                }
            }
        }
    }

    /// Whether a line break here may separate statements.
    fn at_statement_level(&self) -> bool {
        matches!(self.stack.last(), None | Some(Frame::Block))
    }
}

/// The newline pass: keeps a `Newline` token only where it separates statements.
/// Compacts the tokens in place (kept ones move down), so no second list is built.
pub(crate) fn layout(mut toks: Vec<(Tok, Span)>) -> Vec<(Tok, Span)> {
    let mut kept: usize = 0;
    let mut nest = Nesting::default();
    for idx in 0..toks.len() {
        if toks[idx].0 == Tok::Newline {
            if !nest.at_statement_level() {
                continue;
            }
            // Collapse runs of separators, and none at the very start.
            let Some(prev) = kept.checked_sub(1).map(|k| &toks[k].0) else {
                continue;
            };
            if prev.is_sep() || prev.continues_after() {
                continue;
            }
            let next = toks[idx + 1..]
                .iter()
                .map(|(t, _)| t)
                .find(|t| **t != Tok::Newline);
            if next.is_some_and(Tok::continues_before) {
                continue;
            }
            // `comp f(x: f32) -> f32` followed by the body brace on the next line,
            // and `f32[2x2]` followed by its literal (`]` only ever closes a type).
            if next.is_some_and(|t| matches!(t, Tok::LBrace | Tok::NumRun(_)))
                && (nest.comp_pending == Some(nest.stack.len()) || *prev == Tok::RBracket)
            {
                continue;
            }
        } else {
            nest.step(&toks[idx].0);
        }
        // Only tokens at `idx` and after are looked at from here on, and kept <= idx.
        toks.swap(kept, idx);
        kept += 1;
    }
    toks.truncate(kept);
    toks
}
