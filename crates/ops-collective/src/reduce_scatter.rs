//! ReduceScatter (spec/ops/reduce_scatter.md): `ReduceScatter(operand,
//! computation, scatter_dimension, replica_groups)`: the group's reduction (as
//! AllReduce, in replica-id order) split into equal blocks along
//! `scatter_dimension`; the member at position i of the group gets block i.

use super::collective::{
    Combiner, Groups, array_operand, arrays_of, block, dimension, meet, replica_groups, site,
};
use super::registry::{Checked, OpDef, OpId};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::Type;
use xlet_core::value::Value;
use xlet_ir::replica::Site;
use xlet_ir::{EvalCx, Kernel, KernelError};

const SPEC: &str = include_str!("../../../spec/ops/reduce_scatter.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::ReduceScatter,
    aliases: &[],
    signature: "ReduceScatter(operand, computation, scatter_dimension, replica_groups)",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let (_, t) = array_operand(cx, 0, "C1")?;
    let comp = super::reduction::reduction_comp(cx, 1, &[t.elem], "C2")?;
    let dim = dimension(cx, 2, "scatter_dimension", &t, "C3")?;
    let groups = replica_groups(cx, Some(3), "C4", true)?.value;
    let n = groups.static_size(cx.ck.limits.replicas);
    let size = t.dims[dim.value];
    if size % n != 0 {
        return Err(cx
            .err(
                "C3",
                format!(
                    "scatter_dimension {} of the operand {t} has size {size}, which does not split into {n} equal blocks (one per replica of a group)",
                    dim.value
                ),
                dim.span,
            )
            .with_label(format!("{size} is not a multiple of {n}")));
    }
    let mut out = t.clone();
    out.dims[dim.value] = size / n;
    Ok(Checked {
        ty: Type::Array(out),
        kernel: Arc::new(ReduceScatterKernel {
            site: site(cx),
            groups,
            combiner: Combiner::new(comp),
            dim: dim.value,
            n,
        }),
    })
}

struct ReduceScatterKernel {
    site: Site,
    groups: Groups,
    combiner: Combiner,
    dim: usize,
    n: usize,
}

impl Kernel for ReduceScatterKernel {
    fn run(&self, args: &[Value], cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let [x] = args else {
            return Err(super::common::internal("ReduceScatter expects one operand"));
        };
        let (id, count, all) = meet(cx, &self.site, x.clone())?;
        let group = self.groups.of_size(id, count, self.n)?;
        let me = group.iter().position(|&j| j == id).unwrap_or(0);
        let mut by_id = group.clone();
        by_id.sort_unstable();
        // Only this replica's block is reduced: views of each operand's block.
        let blocks: Vec<_> = arrays_of(&all.values, &by_id)?
            .into_iter()
            .map(|a| block(a, self.dim, self.n, me))
            .collect::<Result<_, _>>()?;
        let refs: Vec<_> = blocks.iter().collect();
        let mine = self.combiner.fold(&refs, cx)?;
        super::collective::standard(&mine).map(Value::Array)
    }
}
