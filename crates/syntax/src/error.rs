//! The parser's error type and its translation into `Diag`s.
//!
//! `SyntaxError` implements chumsky's `Error` and `LabelError` traits, so chumsky
//! merges the alternatives that failed at the same token into one "expected" set.
//! The labels are ours (`Expect`, `Ctx`) rather than strings, which lets
//! `into_diag` phrase the set the way the language's messages read ("found X but
//! expected Y"), and lets a complete diagnostic (`fatal`: nesting too deep, a
//! dimension too large) survive both merging and relabelling.
//!
//! Parsers fail and backtrack all the time, so an error is cheap to make: the
//! expected set is a bit set and the found token is looked up only when a
//! diagnostic is made.

use super::lexer::Tok;
use crate::ast::Span;
use chumsky::DefaultExpected;
use chumsky::error::{Error, LabelError};
use chumsky::input::Input;
use chumsky::util::MaybeRef;
use xlet_core::diag::Diag;
use xlet_core::types::ElemType;

/// A described thing the parser would have accepted at the error (a token it
/// would have accepted is named by the token itself).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Expect {
    /// An alternative not worth naming (an optional suffix, a lookahead).
    Quiet,
    /// The end of the text.
    End,
    Statement,
    LetName,
    CompName,
    CompParams,
    ParamName,
    ParamColon,
    ResultArrow,
    BodyOpen,
    Type,
    DimSizes,
    DimSize,
    Operator,
    Expression,
    Argument,
    /// The value after `name=` in a call.
    ArgValue,
    /// `parse_expr`: the end of the text.
    ExprEnd,
}

const LABELS: [Expect; 18] = [
    Expect::Quiet,
    Expect::End,
    Expect::Statement,
    Expect::LetName,
    Expect::CompName,
    Expect::CompParams,
    Expect::ParamName,
    Expect::ParamColon,
    Expect::ResultArrow,
    Expect::BodyOpen,
    Expect::Type,
    Expect::DimSizes,
    Expect::DimSize,
    Expect::Operator,
    Expect::Expression,
    Expect::Argument,
    Expect::ArgValue,
    Expect::ExprEnd,
];

/// The tokens the grammar asks for by name (`just`), in the order a list of
/// them is written in, closing brackets last.
const TOKENS: [Tok; 36] = [
    Tok::Let,
    Tok::Comp,
    Tok::Then,
    Tok::Within,
    Tok::True,
    Tok::False,
    Tok::Produces,
    Tok::LParen,
    Tok::LBrace,
    Tok::LBracket,
    Tok::Colon,
    Tok::Comma,
    Tok::Semi,
    Tok::Newline,
    Tok::Assign,
    Tok::Arrow,
    Tok::Plus,
    Tok::Minus,
    Tok::Star,
    Tok::Slash,
    Tok::Percent,
    Tok::EqEq,
    Tok::NotEq,
    Tok::Lt,
    Tok::Le,
    Tok::Gt,
    Tok::Ge,
    Tok::AndAnd,
    Tok::OrOr,
    Tok::Bang,
    Tok::Approx,
    Tok::Implies,
    Tok::Chevrons,
    Tok::RParen,
    Tok::RBracket,
    Tok::RBrace,
];

/// A set of `Expect`s and `TOKENS`, one bit each.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct ExpectSet(u64);

impl ExpectSet {
    fn label_bit(e: Expect) -> u64 {
        1 << (e as u32)
    }

    fn tok_bit(t: &Tok) -> u64 {
        match TOKENS.iter().position(|x| x == t) {
            Some(i) => 1 << (LABELS.len() + i),
            None => Self::label_bit(Expect::Quiet),
        }
    }

    fn has(self, e: Expect) -> bool {
        self.0 & Self::label_bit(e) != 0
    }

    fn has_tok(self, t: &Tok) -> bool {
        self.0 & Self::tok_bit(t) != 0
    }

    fn items(self) -> impl Iterator<Item = Item> {
        let labels = LABELS
            .into_iter()
            .filter(move |e| self.has(*e))
            .map(Item::Label);
        let toks = TOKENS
            .iter()
            .enumerate()
            .filter(move |(i, _)| self.0 & (1 << (LABELS.len() + i)) != 0)
            .map(|(_, t)| Item::Tok(t));
        labels.chain(toks)
    }
}

/// One entry of an expected set, for phrasing.
#[derive(Clone, Copy, PartialEq)]
enum Item {
    Label(Expect),
    Tok(&'static Tok),
}

impl Item {
    fn text(self) -> String {
        let s = match self {
            Item::Tok(Tok::Newline) => "a new line",
            Item::Tok(t) => return t.describe(),
            Item::Label(e) => match e {
                Expect::Quiet => "",
                Expect::End => "the end of the input",
                Expect::Statement => "a statement ('let', 'comp', 'then' or an expression)",
                Expect::LetName => "a name after 'let'",
                Expect::CompName => "the computation's name after 'comp'",
                Expect::CompParams => "'(' and the computation's parameters",
                Expect::ParamName => "a parameter name",
                Expect::ParamColon => "':' and the parameter's type",
                Expect::ResultArrow => "'->' and the result type",
                Expect::BodyOpen => "'{' and the computation's body",
                Expect::Type => "a type such as 'f32', 'f32[2x3]' or '(f32, s32)'",
                Expect::DimSizes => "dimension sizes such as '2x3' or '2,3'",
                Expect::DimSize => "a dimension size",
                Expect::Operator => "an operator",
                Expect::Expression | Expect::ArgValue => "an expression",
                Expect::Argument => "an argument",
                // After a whole expression, an operator could always continue it.
                Expect::ExprEnd => "an operator or the end of the expression",
            },
        };
        s.to_string()
    }

    /// Where the item goes in a list: `'let'` first, then described things, then
    /// punctuation (closing brackets last), then the end.
    fn rank(self) -> usize {
        match self {
            Item::Tok(Tok::Let) => 0,
            Item::Label(Expect::End | Expect::ExprEnd) => 1000,
            Item::Label(e) => 1 + e as usize,
            Item::Tok(t) => 100 + TOKENS.iter().position(|x| x == t).unwrap_or(0),
        }
    }
}

/// A construct whose opening token an error may point back to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Ctx {
    Paren,
    Brace,
    /// A call's argument list, from its `(`.
    Call,
    TypeTuple,
    Params,
    Dims,
    /// A `comp` body, from its `{`.
    Body,
}

#[derive(Clone, Debug)]
pub(crate) struct SyntaxError {
    /// The token found (or the empty span at the end).
    pub span: Span,
    expected: ExpectSet,
    /// A complete diagnostic that outranks any "expected" set at the same place.
    fatal: Option<Box<Diag>>,
    /// The constructs the error is inside, innermost first, with the span from their start.
    contexts: Vec<(Ctx, Span)>,
}

impl SyntaxError {
    fn new(expected: ExpectSet, span: Span) -> Self {
        SyntaxError {
            span,
            expected,
            fatal: None,
            contexts: Vec::new(),
        }
    }

    /// An error that is already a finished diagnostic (about the token at its span).
    pub(crate) fn fatal(diag: Diag) -> Self {
        SyntaxError {
            span: diag.span.clone(),
            expected: ExpectSet::default(),
            fatal: Some(Box::new(diag)),
            contexts: Vec::new(),
        }
    }

    /// This failure, turned into one that names nothing: for an attempt whose
    /// failure only means "not this way".
    pub(crate) fn quieted(self) -> Self {
        SyntaxError::quiet(self.span)
    }

    /// A failure at `span` that names nothing: it only adds to what the other
    /// alternatives there expected.
    pub(crate) fn quiet(span: Span) -> Self {
        SyntaxError::new(ExpectSet(ExpectSet::label_bit(Expect::Quiet)), span)
    }
}

impl<'src, I> Error<'src, I> for SyntaxError
where
    I: Input<'src, Token = Tok, Span = Span>,
{
    fn merge(mut self, other: Self) -> Self {
        if self.fatal.is_some() {
            return self;
        }
        if other.fatal.is_some() {
            return other;
        }
        self.expected.0 |= other.expected.0;
        for c in other.contexts {
            if !self.contexts.contains(&c) {
                self.contexts.push(c);
            }
        }
        self
    }
}

impl<'src, I> LabelError<'src, I, DefaultExpected<'src, Tok>> for SyntaxError
where
    I: Input<'src, Token = Tok, Span = Span>,
{
    fn expected_found<E: IntoIterator<Item = DefaultExpected<'src, Tok>>>(
        expected: E,
        _: Option<MaybeRef<'src, Tok>>,
        span: Span,
    ) -> Self {
        let mut set = ExpectSet::default();
        for e in expected {
            set.0 |= match e {
                DefaultExpected::Token(t) => ExpectSet::tok_bit(&t),
                DefaultExpected::EndOfInput => ExpectSet::label_bit(Expect::End),
                _ => ExpectSet::label_bit(Expect::Quiet),
            };
        }
        SyntaxError::new(set, span)
    }
}

impl<'src, I> LabelError<'src, I, Expect> for SyntaxError
where
    I: Input<'src, Token = Tok, Span = Span>,
{
    fn expected_found<E: IntoIterator<Item = Expect>>(
        expected: E,
        _: Option<MaybeRef<'src, Tok>>,
        span: Span,
    ) -> Self {
        let set = expected
            .into_iter()
            .fold(0, |set, e| set | ExpectSet::label_bit(e));
        SyntaxError::new(ExpectSet(set), span)
    }

    fn label_with(&mut self, label: Expect) {
        if self.fatal.is_none() {
            self.expected = ExpectSet(ExpectSet::label_bit(label));
        }
    }
}

impl<'src, I> LabelError<'src, I, Ctx> for SyntaxError
where
    I: Input<'src, Token = Tok, Span = Span>,
{
    fn expected_found<E: IntoIterator<Item = Ctx>>(
        _: E,
        _: Option<MaybeRef<'src, Tok>>,
        span: Span,
    ) -> Self {
        SyntaxError::new(ExpectSet::default(), span)
    }

    fn in_context(&mut self, ctx: Ctx, span: Span) {
        self.contexts.push((ctx, span));
    }
}

pub(crate) fn describe(found: Option<&Tok>) -> String {
    found.map_or_else(|| "end of input".to_string(), Tok::describe)
}

pub(crate) fn unexpected(found: Option<&Tok>) -> String {
    match found {
        Some(Tok::Bad(_)) => format!("unexpected character {}", describe(found)),
        _ => format!("unexpected {}", describe(found)),
    }
}

fn bad_char_help(c: char) -> Option<&'static str> {
    Some(match c {
        '&' => "logical and is written '&&'",
        '|' => "logical or is written '||'",
        '~' => "approximate equality is written '~='",
        '\'' => "strings are written with double quotes",
        _ => return None,
    })
}

/// A stray '.': the start of a number written without its leading digit (`.5`),
/// a module's function (`jnp.sum(x)`), a method (`x.sum()`), numpy's transpose
/// (`x.T`), or an attempt at member access (`x.shape`).
fn dot_help(around: &Around, ops: &dyn crate::OpIndex) -> Option<String> {
    let member = match around.touching_after {
        Some(Tok::Ident(m)) => Some(m.as_str()),
        _ => None,
    };
    let value_before = matches!(
        around.before,
        Some(Tok::Ident(_) | Tok::RParen | Tok::RBrace | Tok::RBracket)
    );
    let operand = match around.before {
        Some(Tok::Ident(name)) => name.as_str(),
        _ => "x",
    };
    match (around.before, member) {
        (Some(Tok::Ident(module)), Some(_)) if is_module(module) => {
            // `jax.lax.sum`: the function is the last name of the chain.
            let mut names = vec![module.as_str()];
            let mut i = around.idx;
            while let (Some((Tok::Bad('.'), _)), Some((Tok::Ident(n), _))) =
                (around.toks.get(i), around.toks.get(i + 1))
            {
                names.push(n);
                i += 2;
            }
            let dotted = names.join(".");
            let function = names.last().copied().unwrap_or(module);
            Some(format!(
                "xlet has no modules: `{dotted}` is written as an XLA operation; {}",
                xla_way(function, ops)
            ))
        }
        (_, Some("T")) if value_before => Some(format!(
            "xlet has no '.T': transpose with Transpose({operand}, {{1, 0}}) (for a rank-2 {operand})"
        )),
        (_, Some(m))
            if value_before
                && around.toks.get(around.idx + 2).map(|(t, _)| t) == Some(&Tok::LParen) =>
        {
            Some(format!(
                "xlet has no methods: `.{m}(...)` is written as an XLA operation that takes {operand} as an operand; {}",
                xla_way(m, ops)
            ))
        }
        (_, Some(_)) if value_before => Some(
            "xlet has no '.' member access; a value's shape is part of its type \
             (the REPL's `:type x` shows it)"
                .to_string(),
        ),
        _ => match around.touching_after {
            Some(Tok::Int(_) | Tok::Float(_)) => {
                Some("a number needs a digit before its point: write 0.5, not .5".to_string())
            }
            _ => None,
        },
    }
}

/// Names of Python modules whose functions people call out of habit.
fn is_module(name: &str) -> bool {
    matches!(
        name,
        "jnp" | "np" | "numpy" | "jax" | "lax" | "torch" | "tf" | "F" | "nn" | "math"
    )
}

/// How XLA says what the numpy/jax/PyTorch function `name` does: the foreign-name
/// table's answer, else the XLA operation of (nearly) that name, else a pointer
/// to the list of operations.
fn xla_way(name: &str, ops: &dyn crate::OpIndex) -> String {
    use crate::names;
    // numpy's names for elementwise ops XLA spells shorter, and its reductions
    // that share a name with an elementwise op.
    let name = match name {
        "maximum" => "Max",
        "minimum" => "Min",
        "multiply" => "Mul",
        "subtract" => "Sub",
        "divide" | "true_divide" => "Div",
        "power" | "pow" => "Pow",
        "negative" => "Neg",
        "absolute" => "Abs",
        "max" => "ReduceMax",
        "min" => {
            return "XLA takes a minimum with Reduce and the `min` computation: \
                    Reduce(x, inf, min, {0})"
                .to_string();
        }
        other => other,
    };
    // `np.float32(1)`: a dtype used as a constructor.
    if let Some(t) = ElemType::from_foreign(name) {
        return format!(
            "a value of a type is a typed literal such as `{t} 1`, or ConvertElementType(x, {t})"
        );
    }
    let squashed = name.replace('_', "");
    if let Some(how) = names::foreign(name).or_else(|| names::foreign(&squashed)) {
        return how.to_string();
    }
    if let Some(form) = ops.call_form(name).or_else(|| ops.call_form(&squashed)) {
        return format!("call it by its XLA name: {form}");
    }
    "call XLA's operations by name, such as Add(x, y) (`:help` in the REPL lists them)".to_string()
}

/// A line starting with `:` in a script: a REPL command, which a script cannot
/// run. What a script writes instead, where there is something.
fn repl_command_help(cmd: &str) -> String {
    let instead = match cmd {
        "type" | "t" => {
            "; in a script, state a type with an annotation, which the checker verifies: \
             let y: f32[2x3] = EXPR"
        }
        "load" | "l" => "; a script cannot include another file",
        "npy" => "; in a script, write let NAME = LoadNpy(\"FILE\")",
        "save" => "; in a script, write SaveNpy(EXPR, \"FILE\")",
        "precision" => "; give it on the command line: xlet run --precision N SCRIPT",
        "summary" | "stats" => "; give --summary on the command line: xlet run --summary SCRIPT",
        "infeed" => "; give the file on the command line: xlet run --infeed FILE SCRIPT",
        "lib" => "; give the library on the command line: xlet run --custom-call-lib PATH SCRIPT",
        "time" => "; time a script's statements with xlet run --profile SCRIPT",
        "quit" | "q" => "; a script ends at its last line",
        _ => "",
    };
    format!("`:{cmd}` is a REPL command (xlet repl); a script has no commands{instead}")
}

/// Joins "a", "a or b", "a, b or c"; with a comma before the last "or" when an item
/// has an "or" of its own.
fn join(items: &[String]) -> String {
    let Some((last, init)) = items.split_last() else {
        return "something else".to_string();
    };
    if init.is_empty() {
        return last.clone();
    }
    let or = if items.iter().any(|s| s.contains(" or ")) {
        ", or "
    } else {
        " or "
    };
    format!("{}{or}{last}", init.join(", "))
}

/// The token at byte offset `pos`, and the two before it.
struct Around<'a> {
    found: Option<&'a Tok>,
    before: Option<&'a Tok>,
    before2: Option<&'a Tok>,
    /// The token right after `found`, if it touches it (no space between).
    touching_after: Option<&'a Tok>,
    /// `before` ends where `found` starts (no space between).
    touching_before: bool,
    /// All the tokens, and where `found` is among them.
    toks: &'a [(Tok, Span)],
    idx: usize,
}

impl<'a> Around<'a> {
    fn at(toks: &'a [(Tok, Span)], pos: usize) -> Self {
        let idx = toks.partition_point(|(_, s)| s.start < pos);
        let tok = |i: Option<usize>| i.and_then(|i| toks.get(i)).map(|(t, _)| t);
        Around {
            toks,
            idx,
            touching_before: idx
                .checked_sub(1)
                .and_then(|i| toks.get(i))
                .is_some_and(|(_, s)| s.end == pos),
            found: toks
                .get(idx)
                .filter(|(_, s)| s.start == pos)
                .map(|(t, _)| t),
            before: tok(idx.checked_sub(1)),
            before2: tok(idx.checked_sub(2)),
            touching_after: toks
                .get(idx)
                .filter(|(_, s)| s.start == pos)
                .and_then(|(_, s)| toks.get(idx + 1).filter(|(_, n)| n.start == s.end))
                .map(|(t, _)| t),
        }
    }
}

impl SyntaxError {
    /// Whether this error is about a token the lexer has already reported, or about
    /// the end of a text whose unclosed comment has already been reported.
    pub(crate) fn already_reported(&self, toks: &[(Tok, Span)], open_comment: bool) -> bool {
        match Around::at(toks, self.span.start).found {
            Some(Tok::Error) => true,
            None => open_comment,
            Some(_) => false,
        }
    }

    pub(crate) fn into_diag(self, toks: &[(Tok, Span)], ops: &dyn crate::OpIndex) -> Diag {
        if let Some(diag) = self.fatal {
            return *diag;
        }
        let around = Around::at(toks, self.span.start);
        let found = around.found;
        let set = self.expected;
        let has = |t: Tok| set.has_tok(&t);

        let mut items: Vec<Item> = set
            .items()
            .filter(|item| match item {
                Item::Label(Expect::Quiet) => false,
                // Inside a list, after an item, the list's punctuation is what is missing.
                Item::Label(Expect::Operator) => !has(Tok::Comma) && !set.has(Expect::ExprEnd),
                // A type may always be followed by ')' in a tuple; no need to say so.
                Item::Tok(Tok::RParen) => !set.has(Expect::Type),
                _ => true,
            })
            .collect();
        items.sort_by_key(|item| item.rank());
        let only = |item: Item| items.len() == 1 && items[0] == item;
        let mut texts: Vec<String> = Vec::new();
        for item in &items {
            let t = item.text();
            if !texts.contains(&t) {
                texts.push(t);
            }
        }
        let mut expected = join(&texts);
        if texts.len() == 2
            && set.has(Expect::Expression)
            && has(Tok::RBrace)
            && around.before == Some(&Tok::Comma)
        {
            expected.push_str(" after ','");
        }

        let desc = describe(found);
        let mut diag = Diag::syntax(
            format!("found {desc} but expected {expected}"),
            self.span.clone(),
        )
        .with_label(unexpected(found));

        if let Some((span, label)) = self.secondary(toks, found) {
            diag = diag.with_secondary(span, label);
        }

        let separator = has(Tok::Semi) && !has(Tok::RBrace);
        let at_statement_start = matches!(around.before, None | Some(Tok::Semi | Tok::Newline));
        // A numpy/jax/PyTorch dtype where xlet's element type goes: `int32`, `float16`.
        let foreign_type = |tok: Option<&Tok>| match tok {
            Some(Tok::Ident(name)) if ElemType::parse(name).is_none() => {
                ElemType::from_foreign(name).map(|t| {
                    format!(
                        "xlet writes the element type `{name}` as `{t}`; element types are \
                         pred s8 s16 s32 s64 u8 u16 u32 u64 f16 bf16 f32 f64"
                    )
                })
            }
            _ => None,
        };
        let help = match found {
            Some(Tok::Bad('.')) => dot_help(&around, ops),
            // `x @ y`, Python's matrix product.
            Some(Tok::Bad('@')) => {
                let name = |t: Option<&Tok>, or: &'static str| match t {
                    Some(Tok::Ident(n)) => n.clone(),
                    _ => or.to_string(),
                };
                let lhs = name(around.before, "x");
                let rhs = name(around.toks.get(around.idx + 1).map(|(t, _)| t), "y");
                Some(format!(
                    "xlet has no '@': a matrix product is Dot({lhs}, {rhs}) \
                     (DotGeneral for batched or other contractions)"
                ))
            }
            Some(Tok::Bad(c)) => bad_char_help(*c).map(str::to_string),
            Some(Tok::Colon) if at_statement_start => match around.touching_after {
                Some(Tok::Ident(cmd)) => Some(repl_command_help(cmd)),
                _ => None,
            },
            // `x ** 2`, as in Python.
            Some(Tok::Star) if around.before == Some(&Tok::Star) && around.touching_before => {
                let base = match around.before2 {
                    Some(Tok::Ident(n)) => n.as_str(),
                    _ => "x",
                };
                let exp = match around.toks.get(around.idx + 1).map(|(t, _)| t) {
                    Some(Tok::Int(e) | Tok::Float(e)) => e.as_str(),
                    Some(Tok::Ident(e)) => e.as_str(),
                    _ => "2",
                };
                Some(format!("xlet has no '**': a power is Pow({base}, {exp})"))
            }
            // `int32[3] {1, 2, 3}`, `float32 1`: a dtype in front of a literal.
            Some(
                Tok::LBracket
                | Tok::LBrace
                | Tok::NumRun(_)
                | Tok::Int(_)
                | Tok::Float(_)
                | Tok::Minus
                | Tok::True
                | Tok::False,
            ) => foreign_type(around.before),
            Some(Tok::Ident(_)) if set.has(Expect::Type) => foreign_type(found),
            _ => None,
        }
        .or_else(|| {
            if set.has(Expect::Operator) && has(Tok::Assign) {
                Some("the docs' form is '==> ACTUAL = EXPECTED'".to_string())
            } else if separator && found == Some(&Tok::Assign) {
                match (around.before, around.before2) {
                    (Some(Tok::Ident(name)), None | Some(Tok::Semi | Tok::Newline))
                        if ElemType::parse(name).is_none() =>
                    {
                        Some(format!("to bind a name, write 'let {name} = ...'"))
                    }
                    _ => Some("to compare values, write '=='".to_string()),
                }
            } else if separator
                && found == Some(&Tok::LBracket)
                && matches!(around.before, Some(Tok::Ident(_) | Tok::RParen))
            {
                // `x[0]`, as in numpy: XLA has no indexing syntax.
                Some(
                    "xlet has no indexing: take elements with Slice(x, {start, ...}, {limit, ...}, {1, ...}), then Reshape to drop size-1 dimensions"
                        .to_string(),
                )
            } else if separator {
                Some("statements are separated by ';' or new lines".to_string())
            } else if only(Item::Label(Expect::Type)) && matches!(found, Some(Tok::Ident(_))) {
                Some(
                    "element types are pred s8 s16 s32 s64 u8 u16 u32 u64 f16 bf16 f32 f64"
                        .to_string(),
                )
            } else if only(Item::Label(Expect::ParamColon)) {
                match around.before {
                    Some(Tok::Ident(name)) => {
                        Some(format!("parameters are written '{name}: TYPE'"))
                    }
                    _ => None,
                }
            } else if only(Item::Tok(&Tok::RBrace)) && found.is_some() {
                Some("the result expression must be the last thing in the body".to_string())
            } else {
                None
            }
        });
        if let Some(h) = help {
            diag = diag.with_help(h);
        }
        diag
    }

    /// Points back at the bracket a list error belongs to: the innermost construct the
    /// error is in, when what is missing is that construct's next item or its closer.
    fn secondary(&self, toks: &[(Tok, Span)], found: Option<&Tok>) -> Option<(Span, String)> {
        let set = self.expected;
        let has = |t: Tok| set.has_tok(&t);
        let (ctx, span) = self.contexts.first()?;
        let open = span.start..span.start + 1;
        let not_closed = |text: &str| {
            (
                open.clone(),
                format!("the '{text}' opened here is not closed"),
            )
        };
        match ctx {
            Ctx::Paren | Ctx::Brace => {
                let (text, closer) = if *ctx == Ctx::Paren {
                    ("(", Tok::RParen)
                } else {
                    ("{", Tok::RBrace)
                };
                if !has(closer) {
                    None
                } else if set.has(Expect::Expression) {
                    Some((open, format!("in the '{text}' opened here")))
                } else {
                    Some(not_closed(text))
                }
            }
            Ctx::Call => {
                if set.has(Expect::Argument) || set.has(Expect::ArgValue) {
                    let name = match Around::at(toks, span.start).before {
                        Some(Tok::Ident(name)) => name.as_str(),
                        _ => "the call",
                    };
                    Some((open, format!("in the arguments of '{name}'")))
                } else if has(Tok::RParen) {
                    Some(not_closed("("))
                } else {
                    None
                }
            }
            Ctx::TypeTuple => (has(Tok::RParen) && !set.has(Expect::Type)).then(|| not_closed("(")),
            Ctx::Params => {
                (has(Tok::RParen) && !set.has(Expect::ParamName)).then(|| not_closed("("))
            }
            Ctx::Dims => {
                (has(Tok::RBracket) && !set.has(Expect::DimSize) && !set.has(Expect::DimSizes))
                    .then(|| not_closed("["))
            }
            Ctx::Body => (found.is_none() && has(Tok::RBrace)).then(|| {
                (
                    open.clone(),
                    "the body's '{' opened here is not closed".to_string(),
                )
            }),
        }
    }
}
