//! The surface syntax tree: what the parser produces and the checker consumes.
//!
//! Nothing here knows chumsky; spans are byte ranges into the source text.

use xlet_core::types::ElemType;

/// A byte range into one source text.
pub use xlet_core::span::Span;

/// A name with the place it was written.
#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

#[derive(Clone, Debug, Default)]
pub struct Program {
    pub stmts: Vec<Stmt>,
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    /// `let NAME = EXPR` or `let NAME: TYPE = EXPR`.
    Let(Binding),
    /// `comp NAME(P: TYPE, ...) -> TYPE { bindings; EXPR }`.
    Comp(CompDef),
    /// `then ...` and the docs' `produces:` / `>>>` / `==>` forms.
    Assert(Assertion),
    /// A bare expression: evaluate and print.
    Expr(Expr),
}

#[derive(Clone, Debug)]
pub struct Binding {
    pub name: Ident,
    pub ty: Option<TypeExpr>,
    pub value: Expr,
}

#[derive(Clone, Debug)]
pub struct CompDef {
    pub name: Ident,
    pub params: Vec<(Ident, TypeExpr)>,
    pub ret: TypeExpr,
    pub body: Vec<Binding>,
    pub result: Expr,
}

#[derive(Clone, Debug)]
pub enum Assertion {
    /// `then A == B`: same element type, shape and values (NaN matches NaN, -0 == 0).
    Equal { actual: Expr, expected: Expr },
    /// `then A ~= B [within T]`: same type and shape, values close.
    Close {
        actual: Expr,
        expected: Expr,
        tol: Option<Expr>,
    },
    /// `then EXPR`: a pred scalar that must be true.
    Holds(Expr),
}

/// A type as written: `f32`, `f32[]`, `f32[4x2x3]`, `f32[4,2,3]`, `(f32[10], s32)`.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeExpr {
    pub kind: TypeExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TypeExprKind {
    /// `dims` is `None` for a bare element type (`f32`), `Some(vec![])` for `f32[]`.
    Array {
        elem: ElemType,
        dims: Option<Vec<u64>>,
    },
    Tuple(Vec<TypeExpr>),
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    /// A number as written (`5`, `2.5`, `1e-3`, `inf`, `nan`); the sign is a separate `Neg`.
    Number(NumLit),
    Bool(bool),
    /// A string, as in `CustomCall("myfunc", ...)` or `dimension_numbers="b01f_01io->b01f"`.
    Str(String),
    /// `{a, b, ...}`: an array literal, a list of operands or a static list, by context.
    Brace(Vec<Expr>),
    /// `{1, -2.5, 3e-3, ...}`: a brace of plain numbers held compactly (pasted weights
    /// have millions). It means exactly the `Brace` of `Number` / `Neg`-of-`Number` items.
    Numbers(std::sync::Arc<NumRun>),
    /// `f32[2x3] {...}`, `s64 5`, `f32[] 2.5`, `pred true`.
    Typed {
        ty: TypeExpr,
        value: Box<Expr>,
    },
    /// A type standing alone, as an attribute: `convert(a, f32)`, `Iota(s32[4x8], 1)`.
    Type(TypeExpr),
    /// A name: a binding, a computation, or a keyword attribute such as `SAME` or `TOTALORDER`.
    Var(String),
    /// `Name(positional..., key=value...)`.
    Call {
        callee: Ident,
        args: Vec<Arg>,
    },
    /// `(a, b)` or `(a,)`; `(a)` is just `a` and never reaches here.
    Tuple(Vec<Expr>),
    Unary {
        op: UnOp,
        operand: Box<Expr>,
    },
    Binary {
        op: BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
}

/// A numeric literal keeps its text so that 64-bit integers stay exact.
#[derive(Clone, Debug, PartialEq)]
pub struct NumLit {
    pub text: String,
    /// True when written without a point or exponent (and not inf/nan).
    pub is_integer: bool,
}

/// The items of a brace of plain numbers: their texts side by side in one string
/// and, per item, its span (from the `-`, if any) and where its text ends.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NumRun {
    text: String,
    items: Vec<RunItem>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
struct RunItem {
    start: u32,
    end: u32,
    text_end: u32,
}

/// One item of a `NumRun`, as the general tree would hold it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunNumber<'a> {
    /// The number as written, without the sign.
    pub text: &'a str,
    pub is_integer: bool,
    pub negative: bool,
    pub span: (usize, usize),
}

impl RunNumber<'_> {
    pub fn span(&self) -> Span {
        self.span.0..self.span.1
    }
}

impl NumRun {
    /// Adds an item: its span (from the `-`) and the number's text. `false` when the
    /// offsets do not fit the compact form (texts over 4 GB), and nothing is added.
    pub fn push(&mut self, span: Span, text: &str) -> bool {
        let text_end = self.text.len() + text.len();
        let (Ok(start), Ok(end), Ok(text_end)) = (
            u32::try_from(span.start),
            u32::try_from(span.end),
            u32::try_from(text_end),
        ) else {
            return false;
        };
        self.text.push_str(text);
        self.items.push(RunItem {
            start,
            end,
            text_end,
        });
        true
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The `i`th item; `i < len()`.
    pub fn get(&self, i: usize) -> Option<RunNumber<'_>> {
        let item = self.items.get(i)?;
        let from = match i {
            0 => 0,
            _ => self.items[i - 1].text_end as usize,
        };
        let text = self.text.get(from..item.text_end as usize)?;
        let (start, end) = (item.start as usize, item.end as usize);
        Some(RunNumber {
            text,
            // Integers are digits only; floats have a point or exponent, or are inf/nan.
            is_integer: text.bytes().all(|b| b.is_ascii_digit()),
            // Only a `-` (and spaces after it) make the span longer than the text.
            negative: end - start > text.len(),
            span: (start, end),
        })
    }

    pub fn iter(&self) -> impl Iterator<Item = RunNumber<'_>> + '_ {
        (0..self.len()).filter_map(move |i| self.get(i))
    }
}

#[derive(Clone, Debug)]
pub struct Arg {
    pub name: Option<Ident>,
    pub value: Expr,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Not,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
}

impl BinOp {
    /// The operation an infix operator stands for.
    pub fn op_name(self) -> &'static str {
        match self {
            BinOp::Add => "Add",
            BinOp::Sub => "Sub",
            BinOp::Mul => "Mul",
            BinOp::Div => "Div",
            BinOp::Rem => "Rem",
            BinOp::Eq => "Eq",
            BinOp::Ne => "Ne",
            BinOp::Lt => "Lt",
            BinOp::Le => "Le",
            BinOp::Gt => "Gt",
            BinOp::Ge => "Ge",
            BinOp::And => "And",
            BinOp::Or => "Or",
        }
    }
}

impl UnOp {
    pub fn op_name(self) -> &'static str {
        match self {
            UnOp::Neg => "Neg",
            UnOp::Not => "Not",
        }
    }
}
