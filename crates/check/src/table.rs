//! The op table: every op the checker may call (`call::OpDef`, what an op
//! gives the checker: its name, call form, spec and shape rule). The ops crate fills a table with every op and the
//! session hands it down (`Limits::ops`); the checker looks ops up in it and
//! imports none.

pub use crate::call::{Checked, OpDef, ShapeRule, params};
use xlet_core::OpId;
use xlet_syntax::names::{edit_distance, stablehlo};

/// Every op the checker may call, in the order `:help` lists them.
pub struct OpTable {
    ops: Vec<&'static OpDef>,
}

impl std::fmt::Debug for OpTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "OpTable({} ops)", self.ops.len())
    }
}

/// The table of a checker given none: no op (only unit tests of the checker
/// itself use it; the session always hands down the full table).
pub static EMPTY: OpTable = OpTable { ops: Vec::new() };

impl OpTable {
    pub fn new(ops: Vec<&'static OpDef>) -> Self {
        OpTable { ops }
    }

    pub fn all(&self) -> &[&'static OpDef] {
        &self.ops
    }

    /// The op `id`, if the table has it.
    pub fn get(&self, id: OpId) -> Option<&'static OpDef> {
        self.ops.iter().copied().find(|op| op.id == id)
    }

    /// Finds an op by name or alias, ignoring case.
    pub fn lookup(&self, name: &str) -> Option<&'static OpDef> {
        self.ops.iter().copied().find(|op| {
            op.name().eq_ignore_ascii_case(name)
                || op.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
        })
    }

    /// The prelude computation (`add`, `mul`, `max`, `min`, `and`, `or`) that an op
    /// name or a foreign name stands for, passed where a computation goes:
    /// `maximum` → `max`, `Add` → `add`, `sum` → `add`.
    pub fn prelude_name_for(&self, name: &str) -> Option<String> {
        let op = self
            .lookup(name)
            .map(|o| o.name())
            .or_else(|| stablehlo(name).map(|(_, xla, _)| xla))
            .or_else(|| match name.to_ascii_lowercase().as_str() {
                "sum" | "plus" => Some("Add"),
                "prod" | "product" | "times" => Some("Mul"),
                "amax" => Some("Max"),
                "amin" => Some("Min"),
                "logical_and" | "all" => Some("And"),
                "logical_or" | "any" => Some("Or"),
                _ => None,
            })?;
        Some(op.to_ascii_lowercase())
    }

    /// The op an infix or prefix operator stands for (`+` → Add), for `:help +`.
    pub fn by_operator(&self, symbol: &str) -> Option<&'static OpDef> {
        let id = match symbol {
            "+" => OpId::Add,
            "-" => OpId::Sub,
            "*" => OpId::Mul,
            "/" => OpId::Div,
            "%" => OpId::Rem,
            "==" => OpId::Eq,
            "!=" => OpId::Ne,
            "<" => OpId::Lt,
            "<=" => OpId::Le,
            ">" => OpId::Gt,
            ">=" => OpId::Ge,
            "&&" => OpId::And,
            "||" => OpId::Or,
            "!" => OpId::Not,
            _ => return None,
        };
        self.get(id)
    }

    /// Names close to `name` (for "did you mean"): case-insensitive edit distance at most 2.
    pub fn similar(&self, name: &str) -> Vec<&'static str> {
        let lower = name.to_ascii_lowercase();
        let mut out: Vec<(usize, &'static str)> = self
            .ops
            .iter()
            .flat_map(|op| std::iter::once(op.name()).chain(op.aliases.iter().copied()))
            .map(|n| (edit_distance(&lower, &n.to_ascii_lowercase()), n))
            .filter(|(d, _)| *d <= 2)
            .collect();
        out.sort();
        out.into_iter().map(|(_, n)| n).take(3).collect()
    }
}

impl xlet_syntax::OpIndex for OpTable {
    fn call_form(&self, name: &str) -> Option<&'static str> {
        self.lookup(name).map(|op| op.signature)
    }
}

/// The section of an op's spec file about it: from its heading to the next heading
/// of the same or higher level.
pub fn spec_section(op: &OpDef) -> String {
    let lines: Vec<&str> = op.spec.lines().collect();
    let is_heading = |l: &str| l.starts_with('#');
    let level = |l: &str| l.chars().take_while(|&c| c == '#').count();
    let start = lines.iter().position(|l| {
        is_heading(l)
            && l.trim_start_matches('#')
                .trim()
                .eq_ignore_ascii_case(op.name())
    });
    let Some(start) = start else {
        return op.spec.to_string();
    };
    let lvl = level(lines[start]);
    let end = lines[start + 1..]
        .iter()
        .position(|l| is_heading(l) && level(l) <= lvl)
        .map(|i| start + 1 + i)
        .unwrap_or(lines.len());
    lines[start..end].join("\n")
}

/// The first paragraph of an op's spec section: what `:help OP` prints under the signature.
pub fn summary(op: &OpDef) -> String {
    let section = spec_section(op);
    section
        .split("\n\n")
        .map(str::trim)
        .find(|p| {
            !p.is_empty() && !p.starts_with('#') && !p.starts_with('`') && !p.starts_with('|')
        })
        .unwrap_or("")
        .to_string()
}
