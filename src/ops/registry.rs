//! The one table of operations. Each op module exports `OPS: &[OpDef]`; adding
//! a module means adding it to `MODULES` below, and nothing else.

use crate::check::call::CallCtx;
use crate::diag::Diag;
use crate::ir::Kernel;
use crate::types::Type;
use std::sync::{Arc, LazyLock};

/// What an op's shape rule returns: the result type and the kernel, with the
/// static attributes it validated baked in.
pub struct Checked {
    pub ty: Type,
    pub kernel: Arc<dyn Kernel>,
}

/// A shape rule: reads its arguments from the call, applies the op's numbered
/// constraints (spec/ops/*.md), and builds the kernel.
pub type ShapeRule = fn(&mut CallCtx) -> Result<Checked, Diag>;

pub struct OpDef {
    /// The canonical name, as in the docs and in spec/ops/.
    pub name: &'static str,
    /// Other names it answers to (matched case-insensitively, like `name`).
    pub aliases: &'static [&'static str],
    /// The call form(s), for `:help` and error messages.
    pub signature: &'static str,
    /// The spec file that documents it; `:help` shows its section for this op.
    pub spec: &'static str,
    pub rule: ShapeRule,
}

const MODULES: &[&[OpDef]] = &[
    super::binary::OPS,
    super::compare::OPS,
    super::unary::OPS,
    super::reshape::OPS,
    super::broadcast::OPS,
    super::broadcast_in_dim::OPS,
    super::clamp::OPS,
    super::collapse::OPS,
    super::convert_element_type::OPS,
    super::get_tuple_element::OPS,
    super::iota::OPS,
    super::select::OPS,
    super::transpose::OPS,
    super::tuple::OPS,
];

static TABLE: LazyLock<Vec<&'static OpDef>> =
    LazyLock::new(|| MODULES.iter().flat_map(|m| m.iter()).collect());

pub fn all() -> &'static [&'static OpDef] {
    &TABLE
}

/// Finds an op by name or alias, ignoring case.
pub fn lookup(name: &str) -> Option<&'static OpDef> {
    all().iter().copied().find(|op| {
        op.name.eq_ignore_ascii_case(name)
            || op.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
    })
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
                .eq_ignore_ascii_case(op.name)
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

/// Names close to `name` (for "did you mean"): case-insensitive edit distance at most 2.
pub fn similar(name: &str) -> Vec<&'static str> {
    let lower = name.to_ascii_lowercase();
    let mut out: Vec<(usize, &'static str)> = all()
        .iter()
        .flat_map(|op| std::iter::once(op.name).chain(op.aliases.iter().copied()))
        .map(|n| (edit_distance(&lower, &n.to_ascii_lowercase()), n))
        .filter(|(d, _)| *d <= 2)
        .collect();
    out.sort();
    out.into_iter().map(|(_, n)| n).take(3).collect()
}

pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, &cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}
