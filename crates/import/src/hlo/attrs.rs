//! Reading an instruction's attributes (`dimensions={0,1}`, `slice={[0:2]}`,
//! `window={size=2x2 stride=2x2 pad=0_0x0_0}`, `dim_labels=b01f_01io->b01f`),
//! remembering which were read: one that no op reads and that is not in
//! `IGNORED` may change values, and is refused.

use super::lexer::{Tok, Token};
use super::reader::{Attr, Instr, bare};
use crate::error::{ImportError, Result};
use std::cell::RefCell;
use std::collections::HashSet;

/// Attributes that do not change values.
pub const IGNORED: &[&str] = &[
    "metadata",
    "frontend_attributes",
    "sharding",
    "backend_config",
    "operand_precision",
    "precision_config",
    "algorithm",
    "statistics_viz",
    "result_accuracy",
    "control-predecessors",
    "channel_id",
    "use_global_device_ids",
    "api_version",
    "custom_call_has_side_effect",
    "output_to_operand_aliasing",
    "operand_layout_constraints",
    "schedule",
    "indices_are_sorted",
    "unique_indices",
    "origin",
    "execution_thread",
    "custom_call_schedule",
    "is_cross_program_prefetch",
];

pub struct Ctx<'a> {
    ins: &'a Instr,
    used: RefCell<HashSet<String>>,
}

#[derive(Clone, Debug)]
pub struct Window {
    pub size: Vec<i64>,
    pub stride: Vec<i64>,
    pub pad: Vec<(i64, i64)>,
    pub lhs_dilate: Vec<i64>,
    pub rhs_dilate: Vec<i64>,
    pub reversal: Vec<bool>,
}

impl Window {
    pub fn default_for(n: usize) -> Window {
        Window {
            size: vec![1; n],
            stride: vec![1; n],
            pad: vec![(0, 0); n],
            lhs_dilate: vec![1; n],
            rhs_dilate: vec![1; n],
            reversal: vec![false; n],
        }
    }
}

fn words(toks: &[Token]) -> impl Iterator<Item = &str> {
    toks.iter().filter_map(Token::word)
}

impl<'a> Ctx<'a> {
    pub fn new(ins: &'a Instr) -> Ctx<'a> {
        Ctx {
            ins,
            used: RefCell::new(HashSet::new()),
        }
    }

    pub fn used(&self, key: &str) -> bool {
        self.used.borrow().contains(key)
    }

    pub fn has(&self, key: &str) -> bool {
        self.ins.attr(key).is_some()
    }

    fn get(&self, key: &str) -> Option<&'a Attr> {
        let a = self.ins.attr(key)?;
        self.used.borrow_mut().insert(key.to_string());
        Some(a)
    }

    fn need(&self, key: &str) -> Result<&'a Attr> {
        self.get(key).ok_or_else(|| {
            ImportError::at(
                self.ins.span.clone(),
                format!("`{}` needs its attribute `{key}`", self.ins.opcode),
            )
        })
    }

    fn bad(&self, a: &Attr, what: &str) -> ImportError {
        ImportError::at(
            a.span.clone(),
            format!(
                "`{}`'s attribute `{}` should be {what}",
                self.ins.opcode, a.key
            ),
        )
    }

    pub fn string(&self, key: &str) -> Option<String> {
        let a = self.get(key)?;
        a.toks.iter().find_map(|t| match &t.tok {
            Tok::Str(s) | Tok::Word(s) => Some(s.clone()),
            _ => None,
        })
    }

    pub fn opt_word(&self, key: &str) -> Option<String> {
        self.string(key)
    }

    pub fn word(&self, key: &str) -> Result<String> {
        let a = self.need(key)?;
        match a.toks.as_slice() {
            [t] => match &t.tok {
                Tok::Word(w) | Tok::Str(w) => Ok(w.clone()),
                _ => Err(self.bad(a, "a word")),
            },
            _ => Err(self.bad(a, "a word")),
        }
    }

    /// A `true`/`false` attribute, false when absent.
    pub fn flag(&self, key: &str) -> bool {
        self.opt_word(key).is_some_and(|w| w == "true")
    }

    pub fn int(&self, key: &str) -> Result<i64> {
        let a = self.need(key)?;
        let w: Vec<&str> = words(&a.toks).collect();
        match w.as_slice() {
            [n] => n.parse().map_err(|_| self.bad(a, "an integer")),
            _ => Err(self.bad(a, "an integer")),
        }
    }

    pub fn opt_int(&self, key: &str) -> Result<Option<i64>> {
        if self.has(key) {
            self.int(key).map(Some)
        } else {
            Ok(None)
        }
    }

    /// `{1,2}` (or a bare `1`).
    pub fn ints(&self, key: &str) -> Result<Vec<i64>> {
        let a = self.need(key)?;
        self.ints_of(a)
    }

    fn ints_of(&self, a: &Attr) -> Result<Vec<i64>> {
        for t in &a.toks {
            if !(t.is("{") || t.is("}") || t.is(",") || t.word().is_some()) {
                return Err(self.bad(a, "a list of integers `{1,2}`"));
            }
        }
        words(&a.toks)
            .map(|w| w.parse().map_err(|_| self.bad(a, "a list of integers")))
            .collect()
    }

    pub fn ints_or_empty(&self, key: &str) -> Result<Vec<i64>> {
        match self.get(key) {
            Some(a) => self.ints_of(a),
            None => Ok(vec![]),
        }
    }

    /// A computation's name.
    pub fn comp(&self, key: &str) -> Result<String> {
        let a = self.need(key)?;
        let w: Vec<&str> = words(&a.toks).collect();
        match w.as_slice() {
            [n] => Ok(bare(n).to_string()),
            _ => Err(self.bad(a, "a computation's name")),
        }
    }

    /// `{a, b}`.
    pub fn comps(&self, key: &str) -> Result<Vec<String>> {
        let a = self.need(key)?;
        Ok(words(&a.toks).map(|w| bare(w).to_string()).collect())
    }

    /// `{[0:2], [1:3:1]}`: starts, limits, strides.
    #[allow(clippy::type_complexity)]
    pub fn slice(&self, key: &str) -> Result<(Vec<i64>, Vec<i64>, Vec<i64>)> {
        let a = self.need(key)?;
        let (mut s, mut l, mut st) = (vec![], vec![], vec![]);
        let mut cur: Option<Vec<i64>> = None;
        for t in &a.toks {
            if t.is("[") {
                cur = Some(vec![]);
            } else if t.is("]") {
                match cur.take().as_deref() {
                    Some([a, b]) => {
                        s.push(*a);
                        l.push(*b);
                        st.push(1);
                    }
                    Some([a, b, c]) => {
                        s.push(*a);
                        l.push(*b);
                        st.push(*c);
                    }
                    _ => return Err(self.bad(a, "ranges `[start:limit:stride]`")),
                }
            } else if let Some(w) = t.word() {
                let n = w
                    .parse()
                    .map_err(|_| self.bad(a, "ranges `[start:limit:stride]`"))?;
                match cur.as_mut() {
                    Some(c) => c.push(n),
                    None => return Err(self.bad(a, "ranges `[start:limit:stride]`")),
                }
            }
        }
        Ok((s, l, st))
    }

    /// `lo_hi_interior` per dimension, `x`-separated.
    pub fn padding(&self, key: &str, rank: usize) -> Result<Vec<(i64, i64, i64)>> {
        let a = self.need(key)?;
        let w: Vec<&str> = words(&a.toks).collect();
        let text = match w.as_slice() {
            [] => return Ok(vec![(0, 0, 0); rank]),
            [t] => *t,
            _ => return Err(self.bad(a, "`lo_hi_interior` per dimension")),
        };
        let mut out = vec![];
        for d in text.split('x') {
            let n: Vec<i64> = d
                .split('_')
                .map(|v| v.parse::<i64>())
                .collect::<std::result::Result<_, _>>()
                .map_err(|_| self.bad(a, "`lo_hi_interior` per dimension"))?;
            match n.as_slice() {
                [l, h] => out.push((*l, *h, 0)),
                [l, h, i] => out.push((*l, *h, *i)),
                _ => return Err(self.bad(a, "`lo_hi_interior` per dimension")),
            }
        }
        if out.len() != rank {
            return Err(self.bad(a, &format!("{rank} dimensions' padding")));
        }
        Ok(out)
    }

    /// `{size=2x2 stride=2x2 pad=0_0x0_0 lhs_dilate=1x1 rhs_dilate=1x1 rhs_reversal=0x1}`.
    pub fn window(&self, key: &str, rank: usize) -> Result<Window> {
        let a = self.need(key)?;
        let mut w = Window::default_for(rank);
        let t = &a.toks;
        let mut i = 0;
        let nums = |s: &str| -> Result<Vec<i64>> {
            let v: Vec<i64> = s
                .split('x')
                .map(|p| p.parse::<i64>())
                .collect::<std::result::Result<_, _>>()
                .map_err(|_| self.bad(a, "a window `{size=.. stride=.. pad=..}`"))?;
            if v.len() != rank {
                return Err(self.bad(a, &format!("a window of {rank} dimensions")));
            }
            Ok(v)
        };
        while i < t.len() {
            if let (Some(k), Some(eq), Some(v)) = (t[i].word(), t.get(i + 1), t.get(i + 2))
                && eq.is("=")
                && let Some(v) = v.word()
            {
                match k {
                    "size" => w.size = nums(v)?,
                    "stride" => w.stride = nums(v)?,
                    "lhs_dilate" => w.lhs_dilate = nums(v)?,
                    "rhs_dilate" => w.rhs_dilate = nums(v)?,
                    "rhs_reversal" => w.reversal = nums(v)?.iter().map(|x| *x != 0).collect(),
                    "pad" => {
                        let mut p = vec![];
                        for d in v.split('x') {
                            let (l, h) = d
                                .split_once('_')
                                .and_then(|(l, h)| Some((l.parse().ok()?, h.parse().ok()?)))
                                .ok_or_else(|| self.bad(a, "a window pad `lo_hi`"))?;
                            p.push((l, h));
                        }
                        if p.len() != rank {
                            return Err(self.bad(a, &format!("a window of {rank} dimensions")));
                        }
                        w.pad = p;
                    }
                    _ => {
                        return Err(ImportError::unsupported(
                            a.span.clone(),
                            format!("the window's `{k}`"),
                        ));
                    }
                }
                i += 3;
            } else {
                i += 1;
            }
        }
        Ok(w)
    }

    /// `b01f_01io->b01f`: the letters of the input, kernel and output.
    #[allow(clippy::type_complexity)]
    pub fn dim_labels(&self, key: &str) -> Result<(Vec<char>, Vec<char>, Vec<char>)> {
        let a = self.need(key)?;
        let w: Vec<&str> = words(&a.toks).collect();
        let (lhs, rhs, out) = match w.as_slice() {
            [io, out] => match io.split_once('_') {
                Some((l, r)) => (l, r, *out),
                None => return Err(self.bad(a, "`b01f_01io->b01f`")),
            },
            _ => return Err(self.bad(a, "`b01f_01io->b01f`")),
        };
        let ok = |s: &str, letters: &str| {
            s.chars()
                .all(|c| c.is_ascii_digit() || letters.contains(c))
                .then(|| s.chars().collect::<Vec<char>>())
        };
        match (ok(lhs, "bf"), ok(rhs, "io"), ok(out, "bf")) {
            (Some(l), Some(r), Some(o)) => Ok((l, r, o)),
            _ => Err(self.bad(a, "`b01f_01io->b01f`")),
        }
    }

    /// `{{0,1},{2,3}}` as `dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>`; `{}`
    /// is every replica (when the module says how many).
    pub fn groups(&self, key: &str, all: Option<i64>) -> Result<String> {
        let a = self.need(key)?;
        let mut groups: Vec<Vec<i64>> = vec![];
        let mut depth = 0;
        for t in &a.toks {
            if t.is("{") {
                depth += 1;
                if depth == 2 {
                    groups.push(vec![]);
                }
            } else if t.is("}") {
                depth -= 1;
            } else if let Some(w) = t.word() {
                let n = w
                    .parse()
                    .map_err(|_| self.bad(a, "groups `{{0,1},{2,3}}`"))?;
                match groups.last_mut() {
                    Some(g) if depth == 2 => g.push(n),
                    _ => return Err(self.bad(a, "groups `{{0,1},{2,3}}`")),
                }
            } else if !t.is(",") {
                return Err(ImportError::unsupported(
                    a.span.clone(),
                    format!("`{}` written this way", a.key),
                ));
            }
        }
        if groups.is_empty() {
            let n = all.unwrap_or(1).max(1);
            groups.push((0..n).collect());
        }
        let w = groups.iter().map(Vec::len).max().unwrap_or(0);
        if groups.iter().any(|g| g.len() != w) {
            return Err(self.bad(a, "groups of one size"));
        }
        let rows: Vec<String> = groups.iter().map(|g| super::to_mlir::list(g)).collect();
        Ok(format!(
            "dense<[{}]> : tensor<{}x{}xi64>",
            rows.join(", "),
            groups.len(),
            w
        ))
    }
}
