//! AllGather (spec/ops/all_gather.md): `AllGather(operand,
//! all_gather_dimension, replica_groups)`: the operands of a group,
//! concatenated along `all_gather_dimension` in the group's listed order.

use super::collective::{
    Groups, array_operand, arrays_of, concat, dimension, meet, replica_groups, site,
};
use super::registry::{Checked, OpDef, OpId};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::Type;
use xlet_core::value::Value;
use xlet_ir::replica::Site;
use xlet_ir::{EvalCx, Kernel, KernelError};

const SPEC: &str = include_str!("../../../spec/ops/all_gather.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::AllGather,
    aliases: &[],
    signature: "AllGather(operand, all_gather_dimension, replica_groups)",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let (_, t) = array_operand(cx, 0, "C1")?;
    let dim = dimension(cx, 1, "all_gather_dimension", &t, "C2")?.value;
    let groups = replica_groups(cx, Some(2), "C3", true)?.value;
    let n = groups.static_size(cx.ck.limits.replicas);
    let mut out = t.clone();
    out.dims[dim] = t.dims[dim].checked_mul(n).ok_or_else(|| {
        cx.err(
            "size",
            format!(
                "AllGather of {t} over {} is too large",
                xlet_core::english::count(n, "replica")
            ),
            cx.span.clone(),
        )
    })?;
    Ok(Checked {
        ty: Type::Array(out),
        kernel: Arc::new(AllGatherKernel {
            site: site(cx),
            groups,
            dim,
            n,
        }),
    })
}

struct AllGatherKernel {
    site: Site,
    groups: Groups,
    dim: usize,
    n: usize,
}

impl Kernel for AllGatherKernel {
    fn run(&self, args: &[Value], cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let [x] = args else {
            return Err(super::common::internal("AllGather expects one operand"));
        };
        let (id, count, all) = meet(cx, &self.site, x.clone())?;
        let group = self.groups.of_size(id, count, self.n)?;
        all.once(&group, || {
            concat(&arrays_of(&all.values, &group)?, self.dim).map(Value::Array)
        })
    }
}
