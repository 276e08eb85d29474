//! AllReduce (spec/ops/all_reduce.md): `AllReduce(operand, computation,
//! replica_groups)`: every replica of a group gets the reduction, by the
//! computation, of the group's operands, folded in replica-id order
//! (((r0 ∘ r1) ∘ r2) ...), so the result is the same bits on every run.
//! CrossReplicaSum is AllReduce with `add`.

use super::collective::{Combiner, Groups, array_operand, arrays_of, meet, replica_groups, site};
use super::registry::{Checked, OpDef, OpId};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::{ElemType, Type};
use xlet_core::value::Value;
use xlet_ir::replica::Site;
use xlet_ir::{EvalCx, Kernel, KernelError};

const SPEC: &str = include_str!("../../../spec/ops/all_reduce.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::AllReduce,
    aliases: &[],
    signature: "AllReduce(operand, computation, replica_groups)",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let (_, t) = array_operand(cx, 0, "C1")?;
    let comp = super::reduction::reduction_comp(cx, 1, &[t.elem], "C2")?;
    let groups = replica_groups(cx, Some(2), "C3", false)?;
    Ok(Checked {
        ty: Type::Array(t),
        kernel: Arc::new(AllReduceKernel {
            site: site(cx),
            groups: groups.value,
            combiner: Combiner::new(comp),
        }),
    })
}

/// CrossReplicaSum's rule: AllReduce with the prelude's `add` (C2: numbers only).
pub fn sum_rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let (o, t) = array_operand(cx, 0, "C1")?;
    if t.elem == ElemType::Pred {
        return Err(cx
            .err(
                "C2",
                format!("{} adds numbers, not pred", cx.name()),
                o.span.clone(),
            )
            .with_label(format!("{t}"))
            .with_help("for a logical or across replicas use AllReduce(x, or)"));
    }
    let scalar = Type::array(t.elem, vec![]);
    let comp = cx.prelude_computation("add", &scalar, "C2")?;
    let groups = replica_groups(cx, Some(1), "C3", false)?;
    Ok(Checked {
        ty: Type::Array(t),
        kernel: Arc::new(AllReduceKernel {
            site: site(cx),
            groups: groups.value,
            combiner: Combiner::new(comp),
        }),
    })
}

struct AllReduceKernel {
    site: Site,
    groups: Groups,
    combiner: Combiner,
}

impl Kernel for AllReduceKernel {
    fn run(&self, args: &[Value], cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let [x] = args else {
            return Err(super::common::internal("AllReduce expects one operand"));
        };
        let (id, count, all) = meet(cx, &self.site, x.clone())?;
        let mut group = self.groups.of(id, count)?;
        // Association order: by replica id, whatever order the group lists.
        group.sort_unstable();
        let fold = || {
            let vals = arrays_of(&all.values, &group)?;
            self.combiner.fold(&vals, cx).map(Value::Array)
        };
        if self.combiner.is_fast() {
            // Computed once per group, shared by its members.
            all.once(&group, fold)
        } else {
            // A comp called per element may itself hold a collective, which
            // every replica must run: each replica folds for itself.
            fold()
        }
    }
}
