//! Send (spec/ops/send.md): `Send(operand, channel_id, target)` puts the
//! operand in the mailbox (channel, this replica, target) and returns `()` at
//! once; Recv on the target takes it (spec/distributed.md §2).

use super::collective::{array_operand, existing, non_negative, replica_attr};
use super::registry::{Checked, OpDef, OpId};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::Type;
use xlet_core::value::Value;
use xlet_ir::{EvalCx, Kernel, KernelError};

const SPEC: &str = include_str!("../../../spec/ops/send.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::Send,
    aliases: &[],
    signature: "Send(operand, channel_id, target)",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    array_operand(cx, 0, "C1")?;
    let channel = non_negative(cx, 1, "channel_id", "C2")?.value;
    let target = replica_attr(cx, 2, "target", "C3")?.value;
    Ok(Checked {
        ty: Type::Tuple(vec![]),
        kernel: Arc::new(SendKernel {
            channel,
            target,
            code: cx.code("C3"),
        }),
    })
}

struct SendKernel {
    channel: usize,
    target: usize,
    code: xlet_core::diag::Code,
}

impl Kernel for SendKernel {
    fn run(&self, args: &[Value], cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let [x] = args else {
            return Err(super::common::internal("Send expects one operand"));
        };
        let r = cx.replica();
        let target = existing(&self.code, "target", self.target, r.count())?;
        let channel = i64::try_from(self.channel).unwrap_or(i64::MAX);
        r.hub.send(r.id, channel, target, x.clone());
        Ok(Value::tuple(vec![]))
    }
    fn allocates(&self) -> bool {
        false
    }
}
