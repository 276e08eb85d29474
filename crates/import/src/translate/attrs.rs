//! Reading the attributes an op mapping needs, with errors that name them.

use crate::error::{ImportError, Result};
use crate::mlir::attr::Attr;
use crate::mlir::items::{Item, split_commas};
use crate::mlir::lexer::Tok;
use crate::mlir::op::Op;

pub fn need<'a>(op: &'a Op, key: &str) -> Result<&'a Attr> {
    op.attr(key).ok_or_else(|| {
        ImportError::at(
            op.span.clone(),
            format!("`{}` needs its attribute `{key}`", op.name),
        )
    })
}

pub fn ints(op: &Op, key: &str) -> Result<Vec<i128>> {
    need(op, key)?
        .ints()
        .ok_or_else(|| bad(op, key, "a list of integers"))
}

pub fn int(op: &Op, key: &str) -> Result<i128> {
    need(op, key)?
        .int()
        .ok_or_else(|| bad(op, key, "an integer"))
}

pub fn bad(op: &Op, key: &str, what: &str) -> ImportError {
    ImportError::at(
        op.span.clone(),
        format!("`{}`'s attribute `{key}` should be {what}", op.name),
    )
}

/// `{1, 2}`.
pub fn brace(v: &[i128]) -> String {
    let s: Vec<String> = v.iter().map(|i| i.to_string()).collect();
    format!("{{{}}}", s.join(", "))
}

/// `[1] x [0]` (the pretty dot's dimension pairs) as the two lists.
pub fn pair(a: &Attr) -> Option<(Vec<i128>, Vec<i128>)> {
    match a {
        Attr::Items(items) => {
            let lists: Vec<Vec<i128>> = items
                .iter()
                .filter(|i| i.ident() != Some("x"))
                .map(list_of)
                .collect::<Option<_>>()?;
            match lists.as_slice() {
                [l, r] => Some((l.clone(), r.clone())),
                _ => None,
            }
        }
        _ => None,
    }
}

/// `[1, 2]` as integers.
pub fn list_of(item: &Item) -> Option<Vec<i128>> {
    match item {
        Item::Group {
            open: '[', items, ..
        } => split_commas(items)
            .into_iter()
            .map(|p| match p.first().and_then(Item::tok) {
                Some(Tok::Number(n)) => n.parse().ok(),
                _ => None,
            })
            .collect(),
        _ => None,
    }
}
