//! The fast path of the parser: plain recursive descent over the tokens for
//! programs without syntax errors.
//!
//! The chumsky grammar in `parser` is the definition of the language: it tracks
//! every alternative it tries so that an error can say what was expected, which
//! costs far more than the parse itself (ordinary statements ran at about
//! 2 MB/s). This parser reads the same grammar in the same order of
//! alternatives and builds exactly the tree the grammar builds, spans included.
//! It never reports anything: wherever the grammar would fail, backtrack into
//! an error, or recover, it gives up (`None`), and `syntax::parse` runs the
//! grammar over the same tokens, which reports the errors as it always has.
//! Tests hold the two against each other on every conformance file and every
//! syntax test input.

use super::lexer::Tok;
use crate::ast::*;
use xlet_core::types::ElemType;

/// Nesting deeper than this gives up (the grammar reports nesting past its own,
/// larger, limit): the fast path never accepts what the grammar rejects.
const MAX_DEPTH: usize = 100;

/// Why a piece did not parse: `No` where the grammar's alternative fails and it
/// tries the next one (only in the speculative tuple type of a typed tuple);
/// `GiveUp` everywhere else.
#[derive(Debug)]
enum Miss {
    No,
    GiveUp,
}

type R<T> = Result<T, Miss>;

struct P<'t> {
    /// The text the tokens were read from: names and numbers are read from
    /// it at their spans (`lexer::lex_runs_bare` gives them no text).
    src: &'t str,
    toks: &'t mut [(Tok, Span)],
    pos: usize,
}

/// The whole program read from `src`, or `None` (the grammar decides). `toks`
/// are the tokens of `src` (from `lexer::lex_runs_bare`); the texts of
/// strings are moved out of them into the tree, so after `None` the tokens
/// must be made again before the grammar reads them.
pub(crate) fn program(src: &str, toks: &mut [(Tok, Span)]) -> Option<Program> {
    let mut p = P { src, toks, pos: 0 };
    let mut stmts = Vec::new();
    p.seps();
    while p.pos < p.toks.len() {
        // Ctrl-C: give up; `syntax::parse` reports the interrupt.
        if crate::must_stop() {
            return None;
        }
        stmts.push(p.statement().ok()?);
        p.seps();
    }
    Some(Program { stmts })
}

/// One expression and nothing after it (`syntax::parse_expr`), or `None`; as
/// `program`, it takes the texts out of `toks`.
pub(crate) fn lone_expr(src: &str, toks: &mut [(Tok, Span)]) -> Option<Expr> {
    let mut p = P { src, toks, pos: 0 };
    p.seps();
    let e = p.expr(0, true).ok()?;
    p.seps();
    (p.pos == toks.len()).then_some(e)
}

/// Expressions one after another, separators optional (`syntax::parse_value_run`),
/// or `None`; as `program`, it takes the texts out of `toks`.
pub(crate) fn values(src: &str, toks: &mut [(Tok, Span)]) -> Option<Vec<Expr>> {
    let mut p = P { src, toks, pos: 0 };
    let mut out = Vec::new();
    p.seps();
    while p.pos < p.toks.len() {
        if crate::must_stop() {
            return None;
        }
        out.push(p.expr(0, true).ok()?);
        p.seps();
    }
    Some(out)
}

fn give_up<T>() -> R<T> {
    Err(Miss::GiveUp)
}

impl<'t> P<'t> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.0)
    }
    fn peek_at(&self, k: usize) -> Option<&Tok> {
        self.toks.get(self.pos + k).map(|t| &t.0)
    }
    fn span_at(&self, i: usize) -> Span {
        self.toks[i].1.clone()
    }
    /// The text of the token at `i` (a name, number or dimensions) as written;
    /// empty past the end.
    fn text_at(&self, i: usize) -> &'t str {
        let src: &'t str = self.src;
        self.toks
            .get(i)
            .and_then(|(_, span)| src.get(span.clone()))
            .unwrap_or("")
    }
    /// The text of the token at `i`: a string's (moved out of the token, as
    /// escapes make it differ from the source), or a name's or number's.
    fn take_text(&mut self, i: usize) -> String {
        match &mut self.toks[i].0 {
            Tok::Str(s) => std::mem::take(s),
            _ => self.text_at(i).to_string(),
        }
    }
    /// From the start of token `from` to the end of the last token read.
    fn since(&self, from: usize) -> Span {
        self.toks[from].1.start..self.toks[self.pos - 1].1.end
    }
    fn eat(&mut self, t: &Tok) -> bool {
        if self.peek() == Some(t) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, t: &Tok) -> R<()> {
        if self.eat(t) { Ok(()) } else { give_up() }
    }
    fn seps(&mut self) {
        while matches!(self.peek(), Some(Tok::Semi | Tok::Newline)) {
            self.pos += 1;
        }
    }
    fn ident(&mut self) -> R<Ident> {
        match self.peek() {
            Some(Tok::Ident(_)) => {
                let span = self.span_at(self.pos);
                let name = self.take_text(self.pos);
                self.pos += 1;
                Ok(Ident { name, span })
            }
            _ => give_up(),
        }
    }

    // ---- statements -----------------------------------------------------

    fn statement(&mut self) -> R<Stmt> {
        let start = self.pos;
        if self.peek() == Some(&Tok::Comp) {
            let def = self.comp()?;
            let span = self.since(start);
            self.end_of_statement()?;
            return Ok(Stmt {
                kind: StmtKind::Comp(def),
                span,
            });
        }
        let kind = match self.peek() {
            Some(Tok::Let) => {
                self.pos += 1;
                StmtKind::Let(self.binding()?)
            }
            Some(Tok::Then) => {
                self.pos += 1;
                let actual = self.expr(0, false)?;
                StmtKind::Assert(if self.eat(&Tok::EqEq) {
                    Assertion::Equal {
                        actual,
                        expected: self.expr(0, true)?,
                    }
                } else if self.eat(&Tok::Approx) {
                    let expected = self.expr(0, true)?;
                    let tol = if self.eat(&Tok::Within) {
                        Some(self.expr(0, true)?)
                    } else {
                        None
                    };
                    Assertion::Close {
                        actual,
                        expected,
                        tol,
                    }
                } else {
                    Assertion::Holds(actual)
                })
            }
            Some(Tok::Implies) => {
                self.pos += 1;
                let actual = self.expr(0, true)?;
                self.expect(&Tok::Assign)?;
                let expected = self.expr(0, true)?;
                StmtKind::Assert(Assertion::Equal { actual, expected })
            }
            _ => {
                let actual = self.expr(0, true)?;
                if matches!(self.peek(), Some(Tok::Chevrons | Tok::Produces)) {
                    self.pos += 1;
                    let expected = self.expr(0, true)?;
                    StmtKind::Assert(Assertion::Equal { actual, expected })
                } else {
                    StmtKind::Expr(actual)
                }
            }
        };
        let span = self.since(start);
        self.end_of_statement()?;
        Ok(Stmt { kind, span })
    }

    /// A separator (read), the end, or a `==>` starting the next statement (not read).
    fn end_of_statement(&mut self) -> R<()> {
        match self.peek() {
            Some(Tok::Semi | Tok::Newline) => {
                self.pos += 1;
                Ok(())
            }
            None | Some(Tok::Implies) => Ok(()),
            _ => give_up(),
        }
    }

    /// After `let`: `NAME [: TYPE] = EXPR`.
    fn binding(&mut self) -> R<Binding> {
        let name = self.ident()?;
        let ty = if self.eat(&Tok::Colon) {
            Some(self.ty(0)?)
        } else {
            None
        };
        self.expect(&Tok::Assign)?;
        let value = self.expr(0, true)?;
        Ok(Binding { name, ty, value })
    }

    /// `comp NAME(P: TYPE, ...) -> TYPE { bindings; result }`.
    fn comp(&mut self) -> R<CompDef> {
        self.expect(&Tok::Comp)?;
        let name = self.ident()?;
        if ElemType::parse(&name.name).is_some() {
            return give_up();
        }
        self.expect(&Tok::LParen)?;
        let mut params = Vec::new();
        while !self.eat(&Tok::RParen) {
            let p = self.ident()?;
            self.expect(&Tok::Colon)?;
            params.push((p, self.ty(0)?));
            if !self.eat(&Tok::Comma) {
                self.expect(&Tok::RParen)?;
                break;
            }
        }
        self.expect(&Tok::Arrow)?;
        let ret = self.ty(0)?;
        self.expect(&Tok::LBrace)?;
        self.seps();
        let mut body = Vec::new();
        while self.eat(&Tok::Let) {
            body.push(self.binding()?);
            self.item_end()?;
            self.seps();
        }
        if self.peek() == Some(&Tok::RBrace) {
            return give_up(); // no result: the grammar reports it
        }
        let result = self.expr(0, true)?;
        self.item_end()?;
        self.seps();
        self.expect(&Tok::RBrace)?;
        Ok(CompDef {
            name,
            params,
            ret,
            body,
            result,
        })
    }

    /// The end of a body statement: a separator (read) or the body's `}` (not read).
    fn item_end(&mut self) -> R<()> {
        match self.peek() {
            Some(Tok::Semi | Tok::Newline) => {
                self.pos += 1;
                Ok(())
            }
            Some(Tok::RBrace) => Ok(()),
            _ => give_up(),
        }
    }

    // ---- types ----------------------------------------------------------

    /// A type (`ty` in the grammar: one nesting level).
    fn ty(&mut self, depth: usize) -> R<TypeExpr> {
        if depth >= MAX_DEPTH {
            return give_up();
        }
        if self.peek() == Some(&Tok::LParen) {
            let start = self.pos;
            self.pos += 1;
            let mut elems = Vec::new();
            while !self.eat(&Tok::RParen) {
                elems.push(self.ty(depth + 1)?);
                if !self.eat(&Tok::Comma) {
                    if !self.eat(&Tok::RParen) {
                        return Err(Miss::No);
                    }
                    break;
                }
            }
            return Ok(TypeExpr {
                kind: TypeExprKind::Tuple(elems),
                span: self.since(start),
            });
        }
        self.array_type()
    }

    /// `f32`, `f32[]`, `f32[4x2x3]`, `f32[4,2,3]`; `No` when not at an element type.
    fn array_type(&mut self) -> R<TypeExpr> {
        let start = self.pos;
        let elem = match self.peek() {
            Some(Tok::Ident(_)) => ElemType::parse(self.text_at(self.pos)).ok_or(Miss::No)?,
            _ => return Err(Miss::No),
        };
        self.pos += 1;
        let dims = if self.eat(&Tok::LBracket) {
            let mut dims = Vec::new();
            match self.peek() {
                Some(Tok::Dims(_)) => {
                    for part in self.text_at(self.pos).split('x') {
                        dims.push(part.parse::<u64>().map_err(|_| Miss::GiveUp)?);
                    }
                    self.pos += 1;
                }
                Some(Tok::Int(_)) => {
                    while let Some(Tok::Int(_)) = self.peek() {
                        let text = self.text_at(self.pos);
                        dims.push(text.parse::<u64>().map_err(|_| Miss::GiveUp)?);
                        self.pos += 1;
                        if !self.eat(&Tok::Comma) {
                            break;
                        }
                    }
                }
                _ => {}
            }
            self.expect(&Tok::RBracket)?;
            Some(dims)
        } else {
            None
        };
        Ok(TypeExpr {
            kind: TypeExprKind::Array { elem, dims },
            span: self.since(start),
        })
    }

    // ---- expressions ----------------------------------------------------

    /// An expression; `eq` false for the left side of `then`, where a top-level
    /// `==` belongs to the assertion.
    fn expr(&mut self, depth: usize, eq: bool) -> R<Expr> {
        let mut lhs = self.conjunction(depth, eq)?;
        while self.eat(&Tok::OrOr) {
            let rhs = self.conjunction(depth, eq)?;
            lhs = binary(BinOp::Or, lhs, rhs);
        }
        Ok(lhs)
    }

    fn conjunction(&mut self, depth: usize, eq: bool) -> R<Expr> {
        let mut lhs = self.comparison(depth, eq)?;
        while self.eat(&Tok::AndAnd) {
            let rhs = self.comparison(depth, eq)?;
            lhs = binary(BinOp::And, lhs, rhs);
        }
        Ok(lhs)
    }

    fn comparison(&mut self, depth: usize, eq: bool) -> R<Expr> {
        let mut lhs = self.sum(depth)?;
        loop {
            let op = match self.peek() {
                Some(Tok::EqEq) if eq => BinOp::Eq,
                Some(Tok::NotEq) => BinOp::Ne,
                Some(Tok::Lt) => BinOp::Lt,
                Some(Tok::Le) => BinOp::Le,
                Some(Tok::Gt) => BinOp::Gt,
                Some(Tok::Ge) => BinOp::Ge,
                _ => return Ok(lhs),
            };
            self.pos += 1;
            let rhs = self.sum(depth)?;
            lhs = binary(op, lhs, rhs);
        }
    }

    fn sum(&mut self, depth: usize) -> R<Expr> {
        let mut lhs = self.product(depth)?;
        loop {
            let op = match self.peek() {
                Some(Tok::Plus) => BinOp::Add,
                Some(Tok::Minus) => BinOp::Sub,
                _ => return Ok(lhs),
            };
            self.pos += 1;
            let rhs = self.product(depth)?;
            lhs = binary(op, lhs, rhs);
        }
    }

    fn product(&mut self, depth: usize) -> R<Expr> {
        let mut lhs = self.unary(depth)?;
        loop {
            let op = match self.peek() {
                Some(Tok::Star) => BinOp::Mul,
                Some(Tok::Slash) => BinOp::Div,
                Some(Tok::Percent) => BinOp::Rem,
                _ => return Ok(lhs),
            };
            self.pos += 1;
            let rhs = self.unary(depth)?;
            lhs = binary(op, lhs, rhs);
        }
    }

    /// Prefix `-` / `!` or an atom: one nesting level.
    fn unary(&mut self, depth: usize) -> R<Expr> {
        if depth >= MAX_DEPTH {
            return give_up();
        }
        let op = match self.peek() {
            Some(Tok::Minus) => UnOp::Neg,
            Some(Tok::Bang) => UnOp::Not,
            _ => return self.atom(depth + 1),
        };
        let start = self.pos;
        self.pos += 1;
        let operand = self.unary(depth + 1)?;
        Ok(Expr {
            span: self.span_at(start).start..operand.span.end,
            kind: ExprKind::Unary {
                op,
                operand: Box::new(operand),
            },
        })
    }

    fn atom(&mut self, depth: usize) -> R<Expr> {
        // Ctrl-C inside one long statement: give up at the next atom, as
        // between statements.
        if crate::must_stop() {
            return give_up();
        }
        let start = self.pos;
        match self.peek() {
            Some(Tok::Ident(_)) if ElemType::parse(self.text_at(start)).is_some() => {
                self.typed(depth)
            }
            Some(Tok::Int(_) | Tok::Float(_)) => self.number(),
            Some(Tok::True | Tok::False) => self.boolean(),
            Some(Tok::Str(_)) => {
                let s = self.take_text(start);
                self.pos += 1;
                Ok(Expr {
                    kind: ExprKind::Str(s),
                    span: self.since(start),
                })
            }
            Some(Tok::LBrace | Tok::NumRun(_)) => self.brace(depth),
            Some(Tok::LParen) => {
                // A typed tuple if a tuple type followed by `(` is here, else a parenthesis.
                match self.ty(depth) {
                    Ok(ty)
                        if matches!(ty.kind, TypeExprKind::Tuple(_))
                            && self.peek() == Some(&Tok::LParen) =>
                    {
                        let value = self.paren(depth)?;
                        return Ok(Expr {
                            span: ty.span.start..value.span.end,
                            kind: ExprKind::Typed {
                                ty,
                                value: Box::new(value),
                            },
                        });
                    }
                    Err(Miss::GiveUp) => return give_up(),
                    _ => {}
                }
                self.pos = start;
                self.paren(depth)
            }
            Some(Tok::Ident(_)) => {
                let callee = self.ident()?;
                if self.peek() != Some(&Tok::LParen) {
                    return Ok(Expr {
                        span: callee.span.clone(),
                        kind: ExprKind::Var(callee.name),
                    });
                }
                self.pos += 1;
                let mut args = Vec::new();
                while !self.eat(&Tok::RParen) {
                    let name = match (self.peek(), self.peek_at(1)) {
                        (Some(Tok::Ident(_)), Some(Tok::Assign)) => {
                            let name = self.ident()?;
                            self.pos += 1;
                            Some(name)
                        }
                        _ => None,
                    };
                    let value = self.expr(depth, true)?;
                    args.push(Arg { name, value });
                    if !self.eat(&Tok::Comma) {
                        self.expect(&Tok::RParen)?;
                        break;
                    }
                }
                Ok(Expr {
                    span: callee.span.start..self.span_at(self.pos - 1).end,
                    kind: ExprKind::Call { callee, args },
                })
            }
            _ => give_up(),
        }
    }

    fn number(&mut self) -> R<Expr> {
        let is_integer = match self.peek() {
            Some(Tok::Int(_)) => true,
            Some(Tok::Float(_)) => false,
            _ => return give_up(),
        };
        let text = self.take_text(self.pos);
        self.pos += 1;
        Ok(Expr {
            kind: ExprKind::Number(NumLit { text, is_integer }),
            span: self.span_at(self.pos - 1),
        })
    }

    fn boolean(&mut self) -> R<Expr> {
        let b = match self.peek() {
            Some(Tok::True) => true,
            Some(Tok::False) => false,
            _ => return give_up(),
        };
        self.pos += 1;
        Ok(Expr {
            kind: ExprKind::Bool(b),
            span: self.span_at(self.pos - 1),
        })
    }

    /// At an element type name: a typed literal (`f32[2] {1, 2}`, `s32 -1`) or the
    /// type alone. `s32 -1` is a literal, `f32 - 1` a subtraction.
    fn typed(&mut self, depth: usize) -> R<Expr> {
        let ty = self.array_type().map_err(|_| Miss::GiveUp)?;
        let value = match self.peek() {
            Some(Tok::LBrace | Tok::NumRun(_)) => Some(self.brace(depth)?),
            Some(Tok::Int(_) | Tok::Float(_)) => Some(self.number()?),
            Some(Tok::True | Tok::False) => Some(self.boolean()?),
            Some(Tok::Minus)
                if matches!(self.peek_at(1), Some(Tok::Int(_) | Tok::Float(_)))
                    && self.span_at(self.pos).end == self.span_at(self.pos + 1).start =>
            {
                let minus = self.span_at(self.pos);
                self.pos += 1;
                let n = self.number()?;
                Some(Expr {
                    span: minus.start..n.span.end,
                    kind: ExprKind::Unary {
                        op: UnOp::Neg,
                        operand: Box::new(n),
                    },
                })
            }
            _ => None,
        };
        Ok(match value {
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
        })
    }

    /// `{a, b, ...}` (trailing comma allowed), or a brace the lexer read whole.
    fn brace(&mut self, depth: usize) -> R<Expr> {
        let start = self.pos;
        if let Some(Tok::NumRun(run)) = self.peek() {
            let run = run.clone();
            self.pos += 1;
            return Ok(Expr {
                kind: ExprKind::Numbers(run),
                span: self.since(start),
            });
        }
        self.expect(&Tok::LBrace)?;
        let mut items = Vec::new();
        while !self.eat(&Tok::RBrace) {
            items.push(self.expr(depth, true)?);
            if !self.eat(&Tok::Comma) {
                self.expect(&Tok::RBrace)?;
                break;
            }
        }
        Ok(Expr {
            kind: ExprKind::Brace(items),
            span: self.since(start),
        })
    }

    /// `()`, `(a)` (which is `a`, with the parenthesis' span), `(a,)`, `(a, b, ...)`.
    fn paren(&mut self, depth: usize) -> R<Expr> {
        let start = self.pos;
        self.expect(&Tok::LParen)?;
        let mut items = Vec::new();
        let mut trailing = false;
        while !self.eat(&Tok::RParen) {
            items.push(self.expr(depth, true)?);
            trailing = self.eat(&Tok::Comma);
            if !trailing {
                self.expect(&Tok::RParen)?;
                break;
            }
        }
        let span = self.since(start);
        if items.len() == 1 && !trailing {
            let first = items.pop().ok_or(Miss::GiveUp)?;
            return Ok(Expr { span, ..first });
        }
        Ok(Expr {
            kind: ExprKind::Tuple(items),
            span,
        })
    }
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

#[cfg(test)]
mod tests;
