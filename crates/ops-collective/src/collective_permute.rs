//! CollectivePermute (spec/ops/collective_permute.md):
//! `CollectivePermute(operand, source_target_pairs)`: replica `t` of a pair
//! `{s, t}` gets replica `s`'s operand; a replica that is no pair's target
//! gets zeros (as XLA).

use super::collective::{array_operand, meet, site, zeros};
use super::registry::{Checked, OpDef, OpId};
use std::collections::HashSet;
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::{ArrayType, Type};
use xlet_core::value::Value;
use xlet_ir::replica::Site;
use xlet_ir::{EvalCx, Kernel, KernelError};
use xlet_syntax::ast::ExprKind;

const SPEC: &str = include_str!("../../../spec/ops/collective_permute.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::CollectivePermute,
    aliases: &[],
    signature: "CollectivePermute(operand, source_target_pairs)",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let (_, t) = array_operand(cx, 0, "C1")?;
    let e = cx.require(Some(1), "source_target_pairs")?;
    let example = "source_target_pairs={{0, 1}, {1, 0}}";
    let items: Vec<&xlet_syntax::ast::Expr> = match &e.kind {
        ExprKind::Brace(items) => items.iter().collect(),
        ExprKind::Numbers(n) if n.is_empty() => vec![],
        _ => {
            return Err(cx
                .err(
                    "C2",
                    "source_target_pairs must be a list of {source, target} pairs",
                    e.span.clone(),
                )
                .with_help(format!("e.g. {example}")));
        }
    };
    let (mut sources, mut targets) = (HashSet::new(), HashSet::new());
    let mut pairs = vec![];
    for item in items {
        let ok = matches!(item.kind, ExprKind::Brace(_) | ExprKind::Numbers(_));
        let ids = if ok {
            Some(cx.ints_of(item, "source_target_pairs")?.value)
        } else {
            None
        };
        let Some([s, t]) = ids.as_deref().and_then(|v| <[i64; 2]>::try_from(v).ok()) else {
            return Err(cx
                .err(
                    "C2",
                    "each entry of source_target_pairs must be a pair {source, target}",
                    item.span.clone(),
                )
                .with_label("not a pair")
                .with_help(format!("e.g. {example}")));
        };
        let (Ok(s), Ok(t)) = (usize::try_from(s), usize::try_from(t)) else {
            return Err(cx
                .err("C3", "replica ids are at least 0", item.span.clone())
                .with_label("negative id"));
        };
        if let Some(n) = cx.ck.limits.replicas.filter(|&n| s >= n || t >= n) {
            return Err(cx
                .err(
                    "C3",
                    format!(
                        "the pair {{{s}, {t}}} names replica {}, but {}",
                        s.max(t),
                        super::collective::run_has(n)
                    ),
                    item.span.clone(),
                )
                .with_label("no such replica")
                .with_help("run with more --replicas"));
        }
        if !sources.insert(s) {
            return Err(cx
                .err(
                    "C4",
                    format!("replica {s} is the source of more than one pair"),
                    item.span.clone(),
                )
                .with_label(format!("{s} again"))
                .with_help("each replica sends to at most one other"));
        }
        if !targets.insert(t) {
            return Err(cx
                .err(
                    "C4",
                    format!("replica {t} is the target of more than one pair"),
                    item.span.clone(),
                )
                .with_label(format!("{t} again"))
                .with_help("each replica receives from at most one other"));
        }
        pairs.push((s, t));
    }
    Ok(Checked {
        ty: Type::Array(t.clone()),
        kernel: Arc::new(PermuteKernel {
            site: site(cx),
            pairs,
            ty: t,
            code: cx.code("C3"),
        }),
    })
}

struct PermuteKernel {
    site: Site,
    pairs: Vec<(usize, usize)>,
    ty: ArrayType,
    code: xlet_core::diag::Code,
}

impl Kernel for PermuteKernel {
    fn run(&self, args: &[Value], cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let [x] = args else {
            return Err(super::common::internal(
                "CollectivePermute expects one operand",
            ));
        };
        let (id, count, all) = meet(cx, &self.site, x.clone())?;
        for &(s, t) in &self.pairs {
            super::collective::existing(
                &self.code,
                "a source_target_pairs entry",
                s.max(t),
                count,
            )?;
        }
        match self.pairs.iter().find(|(_, t)| *t == id) {
            Some(&(s, _)) => all
                .values
                .get(s)
                .cloned()
                .ok_or_else(|| super::common::internal("permute source missing")),
            None => zeros(&self.ty).map(Value::Array),
        }
    }
}
