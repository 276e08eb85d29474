//! The generic shape of MLIR text: tokens grouped by their brackets, with
//! regions (`{ ^bb0(...): ops }`) read as lists of ops. What an op's items
//! mean is decided later, per op (`op`), which is how both the generic form
//! (`"stablehlo.add"(%a, %b) : ...`) and each op's pretty form are read.

use super::lexer::{Tok, Token};
use crate::error::{ImportError, Result};
use xlet_core::span::Span;

/// How deeply regions and brackets may nest (each level is a native call).
pub const MAX_DEPTH: usize = 200;

#[derive(Clone, Debug)]
pub enum Item {
    Tok(Token),
    /// `( ... )`, `[ ... ]`, `{ ... }` (an attribute dictionary), `<{ ... }>`
    /// (properties, open `<`) or a bare `< ... >` (open `a`), by `open`.
    Group {
        open: char,
        items: Vec<Item>,
        span: Span,
    },
    Region(Region),
}

impl Item {
    pub fn span(&self) -> Span {
        match self {
            Item::Tok(t) => t.start..t.end,
            Item::Group { span, .. } => span.clone(),
            Item::Region(r) => r.span.clone(),
        }
    }
    pub fn tok(&self) -> Option<&Tok> {
        match self {
            Item::Tok(t) => Some(&t.tok),
            _ => None,
        }
    }
    pub fn is_punct(&self, p: &str) -> bool {
        matches!(self.tok(), Some(Tok::Punct(q)) if *q == p)
    }
    /// A bare identifier without an angle body.
    pub fn ident(&self) -> Option<&str> {
        match self.tok() {
            Some(Tok::Ident { name, angle: None }) => Some(name),
            _ => None,
        }
    }
}

/// A region: its block's arguments and its ops (one block; a second block is
/// refused where it is met).
#[derive(Clone, Debug, Default)]
pub struct Region {
    pub args: Vec<(String, Vec<Item>)>,
    pub ops: Vec<RawOp>,
    pub span: Span,
}

/// One op as written: its result names, its name, and the rest as items.
#[derive(Clone, Debug)]
pub struct RawOp {
    /// `%a, %b = ...` gives two names; `%7:3 = ...` gives `7` with count 3.
    pub results: Vec<(String, usize)>,
    pub name: String,
    /// Quoted, as in the generic form.
    pub generic: bool,
    pub items: Vec<Item>,
    pub span: Span,
}

pub struct Reader<'a> {
    pub toks: &'a [Token],
    pub pos: usize,
    pub text_len: usize,
}

/// Words that continue an op on a new line (`cond { } do { }`, `} else {`,
/// the pretty reduce's `reducer(...)`), rather than start the next op.
const CONTINUATIONS: [&str; 6] = ["cond", "do", "else", "reducer", "applies", "across"];

impl<'a> Reader<'a> {
    pub fn new(toks: &'a [Token], text_len: usize) -> Self {
        Reader {
            toks,
            pos: 0,
            text_len,
        }
    }

    pub fn peek(&self) -> Option<&'a Token> {
        self.toks.get(self.pos)
    }
    pub fn peek_at(&self, k: usize) -> Option<&'a Token> {
        self.toks.get(self.pos + k)
    }
    pub fn at_punct(&self, p: &str) -> bool {
        matches!(self.peek(), Some(Token { tok: Tok::Punct(q), .. }) if *q == p)
    }
    pub fn eof_span(&self) -> Span {
        self.text_len..self.text_len
    }
    pub fn here(&self) -> Span {
        self.peek().map_or(self.eof_span(), |t| t.start..t.end)
    }
    pub fn bump(&mut self) -> Option<&'a Token> {
        let t = self.toks.get(self.pos);
        self.pos += 1;
        t
    }
    pub fn expect(&mut self, p: &str) -> Result<()> {
        if self.at_punct(p) {
            self.pos += 1;
            Ok(())
        } else {
            Err(ImportError::at(self.here(), format!("expected `{p}` here")))
        }
    }

    /// Does the token at `pos` start an op (or end a region)? Only asked at
    /// the start of a line.
    fn starts_op(&self) -> bool {
        let Some(t) = self.peek() else { return true };
        // A line after a comma continues the op (`batching_dims = [0] x [0],`
        // then `contracting_dims = ...` on the next line), as does a line that
        // starts `name = ...`.
        let after_comma = self.pos > 0
            && matches!(
                self.toks.get(self.pos - 1).map(|t| &t.tok),
                Some(Tok::Punct(","))
            );
        let attr_line = matches!(t.tok, Tok::Ident { .. })
            && matches!(self.peek_at(1).map(|t| &t.tok), Some(Tok::Punct("=")));
        if after_comma || attr_line {
            return false;
        }
        match &t.tok {
            Tok::Value { .. } | Tok::Str(_) | Tok::Block(_) => true,
            Tok::Punct("}") => true,
            Tok::Ident { name, angle: None } => !CONTINUATIONS.contains(&name.as_str()),
            Tok::Hash { .. } => {
                // `#loc1 = loc(...)`: an alias definition at the top level.
                matches!(
                    self.peek_at(1),
                    Some(Token {
                        tok: Tok::Punct("="),
                        ..
                    })
                )
            }
            _ => false,
        }
    }

    /// Items up to the end of the op: the next line that starts an op, or the
    /// `}` that closes the region.
    pub fn op_items(&mut self, depth: usize) -> Result<Vec<Item>> {
        let mut out = vec![];
        while let Some(t) = self.peek() {
            if t.line_start && self.starts_op() {
                break;
            }
            if matches!(t.tok, Tok::Punct("}")) {
                break;
            }
            out.push(self.item(depth)?);
        }
        Ok(out)
    }

    /// Every item up to the end of the tokens (a dialect attribute's body).
    pub fn items_to_end(&mut self) -> Result<Vec<Item>> {
        let mut out = vec![];
        while self.peek().is_some() {
            out.push(self.item(0)?);
        }
        Ok(out)
    }

    /// One item: a token, a bracketed group or a region.
    fn item(&mut self, depth: usize) -> Result<Item> {
        if depth > MAX_DEPTH {
            return Err(ImportError::at(
                self.here(),
                format!("brackets and regions nest more than {MAX_DEPTH} deep"),
            ));
        }
        let t = self
            .bump()
            .ok_or_else(|| ImportError::at(self.eof_span(), "the text ends inside an op".into()))?;
        let open = match t.tok {
            Tok::Punct("(") => '(',
            Tok::Punct("[") => '[',
            Tok::Punct("{") => '{',
            Tok::Punct("<") if self.at_punct("{") => {
                self.pos += 1;
                '<'
            }
            // A bare `< ... >` attribute value, as the pretty dot_general's
            // `algorithm = <lhs_precision_type = tf32, ...>` spread over lines.
            Tok::Punct("<") => 'a',
            Tok::Punct(p @ (")" | "]" | "}" | ">")) => {
                return Err(ImportError::at(
                    t.start..t.end,
                    format!("unbalanced `{p}`: nothing open here closes with it"),
                ));
            }
            _ => return Ok(Item::Tok(t.clone())),
        };
        if open == '{' && self.region_follows() {
            return Ok(Item::Region(self.region_body(
                t.start,
                vec![],
                depth + 1,
            )?));
        }
        let close = match open {
            '(' => ")",
            '[' => "]",
            'a' => ">",
            _ => "}",
        };
        let mut items = vec![];
        loop {
            match self.peek() {
                None => {
                    return Err(ImportError::at(
                        t.start..t.end,
                        format!(
                            "unbalanced `{}`: the text ends before its `{close}`",
                            t_text(&t.tok)
                        ),
                    ));
                }
                Some(Token {
                    tok: Tok::Punct(p), ..
                }) if *p == close => {
                    let end = self.bump().map_or(t.end, |c| c.end);
                    let mut end = end;
                    if open == '<' {
                        self.expect(">")?;
                        end += 1;
                    }
                    return Ok(Item::Group {
                        open,
                        items,
                        span: t.start..end,
                    });
                }
                _ => items.push(self.item(depth + 1)?),
            }
        }
    }

    /// After a `{`: does a region's body follow (a block label or an op), not
    /// an attribute dictionary?
    fn region_follows(&self) -> bool {
        let Some(t) = self.peek() else { return false };
        match &t.tok {
            Tok::Block(_) | Tok::Str(_) => true,
            Tok::Value { .. } => {
                // `%x = op`, `%x:2 = op`, `%a, %b = op`.
                matches!(
                    self.peek_at(1).map(|t| &t.tok),
                    Some(Tok::Punct("=" | ":" | ","))
                )
            }
            Tok::Ident { name, angle: None } => {
                (name.contains('.') || name == "return" || name == "call")
                    && !matches!(self.peek_at(1).map(|t| &t.tok), Some(Tok::Punct("=")))
            }
            _ => false,
        }
    }

    /// One item (a token or a bracketed group) at the top level.
    pub fn op_items_one(&mut self) -> Result<Item> {
        self.item(0)
    }

    /// A region's body after its `{`: an optional `^bb0(args):`, then ops up to
    /// the `}`. `args` are block arguments written outside (`reducer(...)`).
    pub fn region_body(
        &mut self,
        start: usize,
        args: Vec<(String, Vec<Item>)>,
        depth: usize,
    ) -> Result<Region> {
        let mut region = Region {
            args,
            ops: vec![],
            span: start..start,
        };
        if let Some(Token {
            tok: Tok::Block(_), ..
        }) = self.peek()
        {
            self.pos += 1;
            if self.at_punct("(") {
                let g = self.item(depth)?;
                region.args = block_args(&g)?;
            }
            self.expect(":")?;
        }
        loop {
            match self.peek() {
                None => {
                    return Err(ImportError::at(
                        start..start + 1,
                        "unbalanced `{`: the text ends before this region's `}`".into(),
                    ));
                }
                Some(Token {
                    tok: Tok::Punct("}"),
                    end,
                    ..
                }) => {
                    region.span = start..*end;
                    self.pos += 1;
                    return Ok(region);
                }
                Some(Token {
                    tok: Tok::Block(_),
                    start: s,
                    end,
                    ..
                }) => {
                    return Err(ImportError::unsupported(
                        *s..*end,
                        "a region with more than one block".into(),
                    ));
                }
                Some(_) => {
                    let op = self.op(depth)?;
                    region.ops.push(op);
                }
            }
        }
    }

    /// One op: its results, its name and its items.
    pub fn op(&mut self, depth: usize) -> Result<RawOp> {
        let start = self.here().start;
        let mut results = vec![];
        if let Some(Token {
            tok: Tok::Value { .. },
            ..
        }) = self.peek()
        {
            loop {
                let Some(Token {
                    tok: Tok::Value { name, index: None },
                    ..
                }) = self.bump()
                else {
                    return Err(ImportError::at(
                        self.here(),
                        "expected a result name".into(),
                    ));
                };
                let mut count = 1;
                if self.at_punct(":") {
                    self.pos += 1;
                    count = match self.bump().map(|t| &t.tok) {
                        Some(Tok::Number(n)) => {
                            n.parse().ok().filter(|c| *c >= 1).ok_or_else(|| {
                                ImportError::at(self.here(), format!("bad result count `{n}`"))
                            })?
                        }
                        _ => {
                            return Err(ImportError::at(
                                self.here(),
                                "expected a result count".into(),
                            ));
                        }
                    };
                }
                results.push((name.clone(), count));
                if self.at_punct(",") {
                    self.pos += 1;
                    continue;
                }
                self.expect("=")?;
                break;
            }
        }
        let (name, generic) = match self.bump().map(|t| &t.tok) {
            Some(Tok::Str(s)) => (s.clone(), true),
            Some(Tok::Ident { name, angle: None }) => (name.clone(), false),
            _ => {
                let at = self
                    .toks
                    .get(self.pos.saturating_sub(1))
                    .map_or(self.eof_span(), |t| t.start..t.end);
                return Err(ImportError::at(at, "expected an op name".into()));
            }
        };
        let items = self.op_items(depth)?;
        let end = items.last().map_or(start, |i| i.span().end);
        Ok(RawOp {
            results,
            name,
            generic,
            items,
            span: start..end.max(start),
        })
    }
}

fn t_text(t: &Tok) -> &str {
    match t {
        Tok::Punct(p) => p,
        _ => "?",
    }
}

/// `(%a: tensor<f32>, %b: tensor<f32> loc(...))` as names and type items.
pub fn block_args(g: &Item) -> Result<Vec<(String, Vec<Item>)>> {
    let Item::Group { items, .. } = g else {
        return Ok(vec![]);
    };
    let mut out = vec![];
    for part in split_commas(items) {
        let Some(Item::Tok(Token {
            tok: Tok::Value { name, .. },
            ..
        })) = part.first()
        else {
            return Err(ImportError::at(
                part.first().map_or(g.span(), Item::span),
                "expected a block argument `%name: type`".into(),
            ));
        };
        let ty: Vec<Item> = part.iter().skip(2).cloned().collect();
        out.push((name.clone(), ty));
    }
    Ok(out)
}

/// Splits items at top-level commas.
pub fn split_commas(items: &[Item]) -> Vec<&[Item]> {
    if items.is_empty() {
        return vec![];
    }
    items.split(|i| i.is_punct(",")).collect()
}
