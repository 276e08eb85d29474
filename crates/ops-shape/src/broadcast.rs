//! Broadcast (spec/ops/broadcast.md): `Broadcast(operand, broadcast_sizes)`.
//! The new dimensions go on the left (major side); the operand's dimensions
//! follow unchanged. Runs on the BroadcastInDim kernel.

use super::broadcast_in_dim::{BroadcastKernel, sizes};
use super::registry::{Checked, OpDef, OpId};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::Type;

const SPEC: &str = include_str!("../../../spec/ops/broadcast.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::Broadcast,
    aliases: &[],
    signature: "Broadcast(operand, broadcast_sizes)",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let o = cx.operand(0, "operand")?;
    let t = cx.array(&o, "C1", "operand")?.clone();
    let attr = cx.require_int_list(Some(1), "broadcast_sizes")?;
    let new = sizes(cx, "C2", "broadcast_sizes", &attr)?;
    let mut out = new.clone();
    out.extend_from_slice(&t.dims);
    let map = (new.len()..out.len()).collect();
    Ok(Checked {
        ty: Type::array(t.elem, out.clone()),
        kernel: Arc::new(BroadcastKernel { out, map }),
    })
}
