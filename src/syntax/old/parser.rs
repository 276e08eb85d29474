//! Tokens → AST: recursive descent with precedence climbing for the infix operators.
//!
//! Each parse function returns `Err(())` after recording a diagnostic; statements
//! (and the statements of a `comp` body) are the recovery points, so one run
//! reports every independent error.

use super::lexer::Tok;
use crate::ast::*;
use crate::diag::Diag;
use crate::types::ElemType;

pub(crate) type PResult<T> = Result<T, ()>;

/// Deeper nesting than this is reported instead of risking the stack.
const MAX_DEPTH: usize = 128;

pub(crate) struct Parser<'a> {
    toks: &'a [(Tok, Span)],
    pos: usize,
    /// End of the last token consumed.
    last_end: usize,
    depth: usize,
    pub errors: Vec<Diag>,
    /// The lexer already reported a comment running to the end: say nothing more about the end.
    pub quiet_at_eof: bool,
}

fn binop(tok: &Tok) -> Option<(BinOp, u8)> {
    Some(match tok {
        Tok::OrOr => (BinOp::Or, 1),
        Tok::AndAnd => (BinOp::And, 2),
        Tok::EqEq => (BinOp::Eq, 3),
        Tok::NotEq => (BinOp::Ne, 3),
        Tok::Lt => (BinOp::Lt, 3),
        Tok::Le => (BinOp::Le, 3),
        Tok::Gt => (BinOp::Gt, 3),
        Tok::Ge => (BinOp::Ge, 3),
        Tok::Plus => (BinOp::Add, 4),
        Tok::Minus => (BinOp::Sub, 4),
        Tok::Star => (BinOp::Mul, 5),
        Tok::Slash => (BinOp::Div, 5),
        Tok::Percent => (BinOp::Rem, 5),
        _ => return None,
    })
}

fn can_start_expr(tok: &Tok) -> bool {
    matches!(
        tok,
        Tok::Int(_)
            | Tok::Float(_)
            | Tok::Ident(_)
            | Tok::Str(_)
            | Tok::True
            | Tok::False
            | Tok::LBrace
            | Tok::LParen
            | Tok::Minus
            | Tok::Bang
    )
}

fn elem_type(tok: &Tok) -> Option<ElemType> {
    match tok {
        Tok::Ident(name) => ElemType::parse(name),
        _ => None,
    }
}

fn bad_char_help(c: char) -> Option<&'static str> {
    Some(match c {
        '&' => "logical and is written '&&'",
        '|' => "logical or is written '||'",
        '~' => "approximate equality is written '~='",
        '.' => "a number needs a digit before its point: write 0.5, not .5",
        '\'' => "strings are written with double quotes",
        _ => return None,
    })
}

impl<'a> Parser<'a> {
    /// `toks` must end with `Tok::Eof`.
    pub(crate) fn new(toks: &'a [(Tok, Span)]) -> Self {
        Parser {
            toks,
            pos: 0,
            last_end: 0,
            depth: 0,
            errors: Vec::new(),
            quiet_at_eof: false,
        }
    }

    // ---- token access -------------------------------------------------

    fn peek(&self) -> &Tok {
        self.toks.get(self.pos).map(|t| &t.0).unwrap_or(&Tok::Eof)
    }

    fn peek_at(&self, n: usize) -> &Tok {
        self.toks
            .get(self.pos + n)
            .map(|t| &t.0)
            .unwrap_or(&Tok::Eof)
    }

    fn span(&self) -> Span {
        match self.toks.get(self.pos) {
            Some(t) => t.1.clone(),
            None => {
                let end = self.toks.last().map(|t| t.1.end).unwrap_or(0);
                end..end
            }
        }
    }

    fn at(&self, tok: &Tok) -> bool {
        self.peek() == tok
    }

    fn at_eof(&self) -> bool {
        self.at(&Tok::Eof)
    }

    /// Consumes the current token (never past the end) and returns it.
    fn bump(&mut self) -> (Tok, Span) {
        match self.toks.get(self.pos) {
            Some(t) if t.0 != Tok::Eof => {
                self.pos += 1;
                self.last_end = t.1.end;
                t.clone()
            }
            _ => (Tok::Eof, self.span()),
        }
    }

    fn eat(&mut self, tok: &Tok) -> Option<Span> {
        if self.at(tok) {
            Some(self.bump().1)
        } else {
            None
        }
    }

    fn skip_seps(&mut self) {
        while self.peek().is_sep() {
            self.bump();
        }
    }

    // ---- diagnostics --------------------------------------------------

    /// Records "found X but expected `expected`" at the current token and fails.
    fn fail<T>(&mut self, expected: &str) -> PResult<T> {
        self.report(expected, None, None);
        Err(())
    }

    fn report(&mut self, expected: &str, secondary: Option<(Span, String)>, help: Option<String>) {
        let tok = self.peek().clone();
        let span = self.span();
        // Already reported by the lexer.
        if tok == Tok::Error || (tok == Tok::Eof && self.quiet_at_eof) {
            return;
        }
        // One error per place: later complaints about the same token are noise.
        if self.errors.iter().any(|d| d.span.start == span.start) {
            return;
        }
        let found = tok.describe();
        let label = match &tok {
            Tok::Bad(_) => format!("unexpected character {found}"),
            _ => format!("unexpected {found}"),
        };
        let mut d =
            Diag::syntax(format!("found {found} but expected {expected}"), span).with_label(label);
        if let Some((s, l)) = secondary {
            d = d.with_secondary(s, l);
        }
        let char_help = match tok {
            Tok::Bad(c) => bad_char_help(c).map(str::to_string),
            _ => None,
        };
        let help = char_help.or(help);
        if let Some(h) = help {
            d = d.with_help(h);
        }
        self.errors.push(d);
    }

    /// Expects a closing bracket; on failure points back at the opener.
    fn close(
        &mut self,
        closer: &Tok,
        expected: &str,
        open: &Span,
        open_text: &str,
    ) -> PResult<Span> {
        if let Some(s) = self.eat(closer) {
            return Ok(s);
        }
        let secondary = (
            open.clone(),
            format!("the '{open_text}' opened here is not closed"),
        );
        self.report(expected, Some(secondary), None);
        Err(())
    }

    /// Skips to where the next statement can begin: a separator or a statement keyword
    /// outside any bracket opened while skipping (or the end; or, in a body, its `}`).
    fn sync(&mut self, in_block: bool) {
        let mut depth = 0usize;
        loop {
            let tok = self.peek();
            match tok {
                Tok::Eof => return,
                Tok::Semi | Tok::Newline | Tok::Let | Tok::Comp | Tok::Then | Tok::Implies
                    if depth == 0 =>
                {
                    return;
                }
                Tok::RBrace if depth == 0 && in_block => return,
                Tok::LParen | Tok::LBrace | Tok::LBracket => depth += 1,
                Tok::RParen | Tok::RBrace | Tok::RBracket => depth = depth.saturating_sub(1),
                _ => {}
            }
            self.bump();
        }
    }

    // ---- programs and statements --------------------------------------

    pub(crate) fn program(&mut self) -> Program {
        let mut stmts = Vec::new();
        loop {
            self.skip_seps();
            if self.at_eof() {
                break;
            }
            let before = self.pos;
            match self.statement() {
                Ok(stmt) => {
                    let tok = self.peek();
                    if tok.is_sep() || *tok == Tok::Eof || *tok == Tok::Implies {
                        stmts.push(stmt);
                    } else {
                        self.missing_separator(&stmt);
                        self.sync(false);
                    }
                }
                Err(()) => self.sync(false),
            }
            if self.pos == before {
                self.bump();
            }
        }
        Program { stmts }
    }

    fn missing_separator(&mut self, stmt: &Stmt) {
        let ends_in_expr = !matches!(stmt.kind, StmtKind::Comp(_));
        let expected = if ends_in_expr {
            "an operator, ';' or a new line"
        } else {
            "';' or a new line"
        };
        let help = match (&stmt.kind, self.peek()) {
            (
                StmtKind::Expr(Expr {
                    kind: ExprKind::Var(name),
                    ..
                }),
                Tok::Assign,
            ) => Some(format!("to bind a name, write 'let {name} = ...'")),
            (_, Tok::Assign) => Some("to compare values, write '=='".to_string()),
            _ => Some("statements are separated by ';' or new lines".to_string()),
        };
        self.report(expected, None, help);
    }

    fn statement(&mut self) -> PResult<Stmt> {
        let start = self.span().start;
        let kind = match self.peek() {
            Tok::Let => {
                self.bump();
                StmtKind::Let(self.binding_rest()?)
            }
            Tok::Comp => StmtKind::Comp(self.comp()?),
            Tok::Then => {
                self.bump();
                StmtKind::Assert(self.then_rest()?)
            }
            Tok::Implies => {
                self.bump();
                let actual = self.expr()?;
                if self.eat(&Tok::Assign).is_none() {
                    let help = "the docs' form is '==> ACTUAL = EXPECTED'".to_string();
                    self.report("an operator or '='", None, Some(help));
                    return Err(());
                }
                let expected = self.expr()?;
                StmtKind::Assert(Assertion::Equal { actual, expected })
            }
            tok if can_start_expr(tok) => {
                let actual = self.expr()?;
                if self.eat(&Tok::Chevrons).is_some() || self.eat(&Tok::Produces).is_some() {
                    let expected = self.expr()?;
                    StmtKind::Assert(Assertion::Equal { actual, expected })
                } else {
                    StmtKind::Expr(actual)
                }
            }
            _ => return self.fail("a statement ('let', 'comp', 'then' or an expression)"),
        };
        Ok(Stmt {
            kind,
            span: start..self.last_end.max(start),
        })
    }

    fn ident(&mut self, expected: &str) -> PResult<Ident> {
        match self.peek() {
            Tok::Ident(name) => {
                let name = name.clone();
                let (_, span) = self.bump();
                Ok(Ident { name, span })
            }
            _ => self.fail(expected),
        }
    }

    /// After `let`: `NAME [: TYPE] = EXPR`.
    fn binding_rest(&mut self) -> PResult<Binding> {
        let name = self.ident("a name after 'let'")?;
        let ty = if self.eat(&Tok::Colon).is_some() {
            Some(self.ty()?)
        } else {
            None
        };
        if self.eat(&Tok::Assign).is_none() {
            return self.fail(if ty.is_some() { "'='" } else { "':' or '='" });
        }
        let value = self.expr()?;
        Ok(Binding { name, ty, value })
    }

    /// After `then`: `A == B`, `A ~= B [within T]` or a predicate.
    fn then_rest(&mut self) -> PResult<Assertion> {
        let e = self.expr()?;
        if self.eat(&Tok::Approx).is_some() {
            let expected = self.expr()?;
            let tol = if self.eat(&Tok::Within).is_some() {
                Some(self.expr()?)
            } else {
                None
            };
            return Ok(Assertion::Close {
                actual: e,
                expected,
                tol,
            });
        }
        // A top-level `==` (not inside parentheses: `(a == b)` carries the parentheses' span).
        if let ExprKind::Binary {
            op: BinOp::Eq,
            lhs,
            rhs,
        } = &e.kind
            && e.span.start == lhs.span.start
            && e.span.end == rhs.span.end
        {
            return Ok(Assertion::Equal {
                actual: (**lhs).clone(),
                expected: (**rhs).clone(),
            });
        }
        Ok(Assertion::Holds(e))
    }

    fn comp(&mut self) -> PResult<CompDef> {
        self.bump(); // comp
        let name = self.ident("the computation's name after 'comp'")?;
        let Some(open) = self.eat(&Tok::LParen) else {
            return self.fail("'(' and the computation's parameters");
        };
        let mut params = Vec::new();
        loop {
            if self.eat(&Tok::RParen).is_some() {
                break;
            }
            let p = self.ident("a parameter name or ')'")?;
            if self.eat(&Tok::Colon).is_none() {
                let help = format!("parameters are written '{}: TYPE'", p.name);
                self.report("':' and the parameter's type", None, Some(help));
                return Err(());
            }
            let t = self.ty()?;
            params.push((p, t));
            if self.eat(&Tok::Comma).is_some() {
                continue;
            }
            self.close(&Tok::RParen, "',' or ')'", &open, "(")?;
            break;
        }
        if self.eat(&Tok::Arrow).is_none() {
            return self.fail("'->' and the result type");
        }
        let ret = self.ty()?;
        let Some(open) = self.eat(&Tok::LBrace) else {
            return self.fail("'{' and the computation's body");
        };
        let (body, result) = self.comp_body(&open)?;
        Ok(CompDef {
            name,
            params,
            ret,
            body,
            result,
        })
    }

    /// After the body's `{`: bindings, then the result, then `}`.
    fn comp_body(&mut self, open: &Span) -> PResult<(Vec<Binding>, Expr)> {
        let mut body = Vec::new();
        let mut result: Option<Expr> = None;
        let mut failed = false;
        loop {
            self.skip_seps();
            if self.at(&Tok::RBrace) {
                break;
            }
            if self.at_eof() {
                if !failed {
                    let secondary = (
                        open.clone(),
                        "the body's '{' opened here is not closed".to_string(),
                    );
                    let expected = if result.is_some() {
                        "'}'"
                    } else {
                        "'let', an expression or '}'"
                    };
                    self.report(expected, Some(secondary), None);
                }
                return Err(());
            }
            let before = self.pos;
            let ok = if result.is_some() {
                let help = "the result expression must be the last thing in the body".to_string();
                self.report("'}'", None, Some(help));
                false
            } else if self.eat(&Tok::Let).is_some() {
                match self.binding_rest() {
                    Ok(b) => {
                        body.push(b);
                        true
                    }
                    Err(()) => false,
                }
            } else if can_start_expr(self.peek()) {
                match self.expr() {
                    Ok(e) => {
                        result = Some(e);
                        true
                    }
                    Err(()) => false,
                }
            } else {
                self.report("'let', an expression or '}'", None, None);
                false
            };
            if ok && !(self.peek().is_sep() || self.at(&Tok::RBrace)) {
                let expected = "an operator, ';', a new line or '}'";
                self.report(expected, None, None);
                failed = true;
                self.sync(true);
            } else if !ok {
                failed = true;
                self.sync(true);
            }
            if self.pos == before {
                self.bump();
            }
        }
        let close = self.bump().1; // the `}`
        if failed {
            return Err(());
        }
        match result {
            Some(r) => Ok((body, r)),
            None => {
                let d = Diag::syntax(
                    "found '}' but expected the computation's result expression",
                    close,
                )
                .with_label("the body ends without a result")
                .with_help("a computation's body ends with the expression it returns");
                self.errors.push(d);
                Err(())
            }
        }
    }

    // ---- types --------------------------------------------------------

    pub(crate) fn ty(&mut self) -> PResult<TypeExpr> {
        if self.depth >= MAX_DEPTH {
            return self.fail("a type nested less deeply");
        }
        self.depth += 1;
        let r = self.ty_inner();
        self.depth -= 1;
        r
    }

    fn ty_inner(&mut self) -> PResult<TypeExpr> {
        if let Some(elem) = elem_type(self.peek()) {
            return self.array_type(elem);
        }
        let Some(open) = self.eat(&Tok::LParen) else {
            let help = match self.peek() {
                Tok::Ident(_) => Some(
                    "element types are pred s8 s16 s32 s64 u8 u16 u32 u64 f16 bf16 f32 f64"
                        .to_string(),
                ),
                _ => None,
            };
            self.report(
                "a type such as 'f32', 'f32[2x3]' or '(f32, s32)'",
                None,
                help,
            );
            return Err(());
        };
        let mut elems = Vec::new();
        loop {
            if self.eat(&Tok::RParen).is_some() {
                break;
            }
            elems.push(self.ty()?);
            if self.eat(&Tok::Comma).is_some() {
                continue;
            }
            self.close(&Tok::RParen, "',' or ')'", &open, "(")?;
            break;
        }
        Ok(TypeExpr {
            kind: TypeExprKind::Tuple(elems),
            span: open.start..self.last_end,
        })
    }

    /// At an element type name: `f32`, `f32[]`, `f32[4x2x3]`, `f32[4,2,3]`.
    fn array_type(&mut self, elem: ElemType) -> PResult<TypeExpr> {
        let (_, name_span) = self.bump();
        let dims = match self.eat(&Tok::LBracket) {
            None => None,
            Some(open) => Some(self.dims(&open)?),
        };
        Ok(TypeExpr {
            kind: TypeExprKind::Array { elem, dims },
            span: name_span.start..self.last_end,
        })
    }

    fn dim_value(&mut self, text: &str, span: Span) -> PResult<u64> {
        match text.parse::<u64>() {
            Ok(v) => Ok(v),
            Err(_) => {
                let d = Diag::syntax(
                    format!(
                        "found the dimension '{text}' but expected a size that fits in 64 bits"
                    ),
                    span,
                )
                .with_label("dimension too large");
                self.errors.push(d);
                Err(())
            }
        }
    }

    /// After `[`: the sizes and the `]`.
    fn dims(&mut self, open: &Span) -> PResult<Vec<u64>> {
        let mut dims = Vec::new();
        let mut expected = "',' or ']'";
        match self.peek().clone() {
            Tok::RBracket => {}
            Tok::Dims(text) => {
                let (_, span) = self.bump();
                for part in text.split('x') {
                    dims.push(self.dim_value(part, span.clone())?);
                }
                expected = "']'";
            }
            Tok::Int(_) => loop {
                let Tok::Int(text) = self.peek().clone() else {
                    return self.fail("a dimension size or ']'");
                };
                let (_, span) = self.bump();
                dims.push(self.dim_value(&text, span)?);
                if self.eat(&Tok::Comma).is_none() {
                    break;
                }
                if self.at(&Tok::RBracket) {
                    break;
                }
            },
            _ => return self.fail("dimension sizes such as '2x3' or '2,3', or ']'"),
        }
        self.close(&Tok::RBracket, expected, open, "[")?;
        Ok(dims)
    }

    // ---- expressions --------------------------------------------------

    pub(crate) fn expr(&mut self) -> PResult<Expr> {
        self.binary(1)
    }

    fn binary(&mut self, min_prec: u8) -> PResult<Expr> {
        let mut lhs = self.unary()?;
        while let Some((op, prec)) = binop(self.peek()) {
            if prec < min_prec {
                break;
            }
            self.bump();
            let rhs = self.binary(prec + 1)?;
            let span = lhs.span.start..rhs.span.end;
            lhs = Expr {
                kind: ExprKind::Binary {
                    op,
                    lhs: Box::new(lhs),
                    rhs: Box::new(rhs),
                },
                span,
            };
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> PResult<Expr> {
        if self.depth >= MAX_DEPTH {
            return self.fail("an expression nested less deeply");
        }
        self.depth += 1;
        let r = self.unary_inner();
        self.depth -= 1;
        r
    }

    fn unary_inner(&mut self) -> PResult<Expr> {
        let op = match self.peek() {
            Tok::Minus => UnOp::Neg,
            Tok::Bang => UnOp::Not,
            _ => return self.primary(),
        };
        let (_, s) = self.bump();
        let operand = self.unary()?;
        let span = s.start..operand.span.end;
        Ok(Expr {
            kind: ExprKind::Unary {
                op,
                operand: Box::new(operand),
            },
            span,
        })
    }

    fn number(&mut self) -> Expr {
        let (tok, span) = self.bump();
        let kind = match tok {
            Tok::Int(text) => ExprKind::Number(NumLit {
                text,
                is_integer: true,
            }),
            Tok::Float(text) => ExprKind::Number(NumLit {
                text,
                is_integer: false,
            }),
            // Only called at a number.
            _ => ExprKind::Tuple(vec![]),
        };
        Expr { kind, span }
    }

    fn primary(&mut self) -> PResult<Expr> {
        if let Some(elem) = elem_type(self.peek()) {
            return self.typed(elem);
        }
        match self.peek().clone() {
            Tok::Int(_) | Tok::Float(_) => Ok(self.number()),
            Tok::True | Tok::False => {
                let (tok, span) = self.bump();
                Ok(Expr {
                    kind: ExprKind::Bool(tok == Tok::True),
                    span,
                })
            }
            Tok::Str(s) => {
                let (_, span) = self.bump();
                Ok(Expr {
                    kind: ExprKind::Str(s),
                    span,
                })
            }
            Tok::LBrace => self.brace(),
            Tok::LParen => self.paren(),
            Tok::Ident(name) => {
                let (_, span) = self.bump();
                if self.at(&Tok::LParen) {
                    self.call(Ident { name, span })
                } else {
                    Ok(Expr {
                        kind: ExprKind::Var(name),
                        span,
                    })
                }
            }
            _ => self.fail("an expression"),
        }
    }

    /// At an element type name: a typed literal (`f32[2] {1, 2}`, `s32 -1`) or a type alone.
    fn typed(&mut self, elem: ElemType) -> PResult<Expr> {
        let ty = self.array_type(elem)?;
        let value_follows = match self.peek() {
            Tok::LBrace | Tok::Int(_) | Tok::Float(_) | Tok::True | Tok::False => true,
            // `s32 -1`, but not `f32 - 1`.
            Tok::Minus => {
                matches!(self.peek_at(1), Tok::Int(_) | Tok::Float(_))
                    && self.toks.get(self.pos + 1).map(|t| t.1.start) == Some(self.span().end)
            }
            _ => false,
        };
        if !value_follows {
            let span = ty.span.clone();
            return Ok(Expr {
                kind: ExprKind::Type(ty),
                span,
            });
        }
        let value = match self.peek() {
            Tok::LBrace => self.brace()?,
            Tok::Minus => {
                let (_, s) = self.bump();
                let n = self.number();
                let span = s.start..n.span.end;
                Expr {
                    kind: ExprKind::Unary {
                        op: UnOp::Neg,
                        operand: Box::new(n),
                    },
                    span,
                }
            }
            Tok::True | Tok::False => {
                let (tok, span) = self.bump();
                Expr {
                    kind: ExprKind::Bool(tok == Tok::True),
                    span,
                }
            }
            _ => self.number(),
        };
        let span = ty.span.start..value.span.end;
        Ok(Expr {
            kind: ExprKind::Typed {
                ty,
                value: Box::new(value),
            },
            span,
        })
    }

    /// `{a, b, ...}`, trailing comma allowed.
    fn brace(&mut self) -> PResult<Expr> {
        let (_, open) = self.bump();
        let mut items = Vec::new();
        loop {
            if self.at(&Tok::RBrace) {
                break;
            }
            if !can_start_expr(self.peek()) {
                let expected = if items.is_empty() {
                    "an expression or '}'"
                } else {
                    "an expression or '}' after ','"
                };
                let secondary = (open.clone(), "in the '{' opened here".to_string());
                self.report(expected, Some(secondary), None);
                return Err(());
            }
            items.push(self.expr()?);
            if self.eat(&Tok::Comma).is_none() {
                break;
            }
        }
        let close = self.close(&Tok::RBrace, "',' or '}'", &open, "{")?;
        Ok(Expr {
            kind: ExprKind::Brace(items),
            span: open.start..close.end,
        })
    }

    /// `()`, `(a)`, `(a,)`, `(a, b, ...)`.
    fn paren(&mut self) -> PResult<Expr> {
        let (_, open) = self.bump();
        let mut items = Vec::new();
        let mut trailing_comma = false;
        loop {
            if self.at(&Tok::RParen) {
                break;
            }
            if !can_start_expr(self.peek()) {
                let secondary = (open.clone(), "in the '(' opened here".to_string());
                self.report("an expression or ')'", Some(secondary), None);
                return Err(());
            }
            items.push(self.expr()?);
            trailing_comma = self.eat(&Tok::Comma).is_some();
            if !trailing_comma {
                break;
            }
        }
        let close = self.close(&Tok::RParen, "',' or ')'", &open, "(")?;
        let span = open.start..close.end;
        if items.len() == 1 && !trailing_comma {
            let mut inner = items.pop().ok_or(())?;
            inner.span = span;
            return Ok(inner);
        }
        Ok(Expr {
            kind: ExprKind::Tuple(items),
            span,
        })
    }

    /// At `(` after a name: positional and `name=value` arguments.
    fn call(&mut self, callee: Ident) -> PResult<Expr> {
        let (_, open) = self.bump();
        let mut args = Vec::new();
        loop {
            if self.at(&Tok::RParen) {
                break;
            }
            let name = match (self.peek(), self.peek_at(1)) {
                (Tok::Ident(n), Tok::Assign) => {
                    let name = n.clone();
                    let (_, span) = self.bump();
                    self.bump(); // =
                    Some(Ident { name, span })
                }
                _ => None,
            };
            if !can_start_expr(self.peek()) {
                let expected = if name.is_some() {
                    "an expression"
                } else {
                    "an argument or ')'"
                };
                let secondary = (
                    open.clone(),
                    format!("in the arguments of '{}'", callee.name),
                );
                self.report(expected, Some(secondary), None);
                return Err(());
            }
            let value = self.expr()?;
            args.push(Arg { name, value });
            if self.eat(&Tok::Comma).is_none() {
                break;
            }
        }
        let close = self.close(&Tok::RParen, "',' or ')'", &open, "(")?;
        let span = callee.span.start..close.end;
        Ok(Expr {
            kind: ExprKind::Call { callee, args },
            span,
        })
    }

    /// For `parse_expr`: one expression and nothing after it.
    pub(crate) fn lone_expr(&mut self) -> PResult<Expr> {
        self.skip_seps();
        let e = self.expr()?;
        self.skip_seps();
        if !self.at_eof() {
            return self.fail("an operator or the end of the expression");
        }
        Ok(e)
    }
}
