//! The surface syntax tree: what the parser produces and the checker consumes.
//!
//! Nothing here knows chumsky; spans are byte ranges into the source text.

use crate::types::ElemType;

/// A byte range into one source text.
pub type Span = std::ops::Range<usize>;

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
