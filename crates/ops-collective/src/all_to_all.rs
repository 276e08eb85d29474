//! AllToAll (spec/ops/all_to_all.md): `AllToAll(operand, split_dimension,
//! concat_dimension, split_count, replica_groups)`. Each replica splits its
//! operand into `split_count` blocks along `split_dimension`; the member at
//! position i of a group receives block i of every member and concatenates
//! them, in the group's order, along `concat_dimension`.

use super::collective::{
    Groups, array_operand, arrays_of, block, concat, dimension, meet, replica_groups, site,
};
use super::registry::{Checked, OpDef, OpId};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::Type;
use xlet_core::value::{Array, Value};
use xlet_ir::replica::Site;
use xlet_ir::{EvalCx, Kernel, KernelError};

const SPEC: &str = include_str!("../../../spec/ops/all_to_all.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::AllToAll,
    aliases: &[],
    signature: "AllToAll(operand, split_dimension, concat_dimension, split_count, replica_groups)",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let (_, t) = array_operand(cx, 0, "C1")?;
    let split = dimension(cx, 1, "split_dimension", &t, "C2")?;
    let concat_dim = dimension(cx, 2, "concat_dimension", &t, "C2")?.value;
    let count = super::collective::non_negative(cx, 3, "split_count", "C3")?;
    let groups = replica_groups(cx, Some(4), "C4", true)?;
    let n = groups.value.static_size(cx.ck.limits.replicas);
    if count.value != n {
        let what = if groups.value.groups.is_empty() {
            format!("the run has {}", xlet_core::english::count(n, "replica"))
        } else {
            format!(
                "each replica group has {}",
                xlet_core::english::count(n, "replica")
            )
        };
        return Err(cx
            .err(
                "C3",
                format!("split_count {} must be the group size: {what}", count.value),
                count.span,
            )
            .with_label(format!("should be {n}")));
    }
    let size = t.dims[split.value];
    if size % n != 0 {
        return Err(cx
            .err(
                "C3",
                format!(
                    "split_dimension {} of the operand {t} has size {size}, which does not split into {n} equal blocks",
                    split.value
                ),
                split.span,
            )
            .with_label(format!("{size} is not a multiple of {n}")));
    }
    let mut out = t.clone();
    out.dims[split.value] = size / n;
    out.dims[concat_dim] = out.dims[concat_dim].checked_mul(n).ok_or_else(|| {
        cx.err(
            "size",
            format!("AllToAll of {t} is too large"),
            cx.span.clone(),
        )
    })?;
    Ok(Checked {
        ty: Type::Array(out),
        kernel: Arc::new(AllToAllKernel {
            site: site(cx),
            groups: groups.value,
            split: split.value,
            concat: concat_dim,
            n,
        }),
    })
}

struct AllToAllKernel {
    site: Site,
    groups: Groups,
    split: usize,
    concat: usize,
    n: usize,
}

impl Kernel for AllToAllKernel {
    fn run(&self, args: &[Value], cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let [x] = args else {
            return Err(super::common::internal("AllToAll expects one operand"));
        };
        let (id, count, all) = meet(cx, &self.site, x.clone())?;
        let group = self.groups.of_size(id, count, self.n)?;
        let me = group.iter().position(|&j| j == id).unwrap_or(0);
        let blocks: Vec<Array> = arrays_of(&all.values, &group)?
            .into_iter()
            .map(|a| block(a, self.split, self.n, me))
            .collect::<Result<_, _>>()?;
        let refs: Vec<&Array> = blocks.iter().collect();
        concat(&refs, self.concat).map(Value::Array)
    }
}
