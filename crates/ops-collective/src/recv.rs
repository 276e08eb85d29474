//! Recv (spec/ops/recv.md): `Recv(shape, channel_id, source)` waits for the
//! oldest value replica `source` sent to this one on `channel_id`; it must
//! have the type `shape`.

use super::collective::{existing, non_negative, replica_attr, site};
use super::registry::{Checked, OpDef, OpId};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::{ArrayType, Type};
use xlet_core::value::Value;
use xlet_ir::replica::Site;
use xlet_ir::{EvalCx, Kernel, KernelError};

const SPEC: &str = include_str!("../../../spec/ops/recv.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::Recv,
    aliases: &[],
    signature: "Recv(shape, channel_id, source)",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let shape = cx.array_type(Some(0), "shape")?.value;
    let channel = non_negative(cx, 1, "channel_id", "C2")?.value;
    let source = replica_attr(cx, 2, "source", "C3")?.value;
    Ok(Checked {
        ty: Type::Array(shape.clone()),
        kernel: Arc::new(RecvKernel {
            site: site(cx),
            shape,
            channel,
            source,
            code: cx.code("C3"),
            type_code: cx.code("C4"),
        }),
    })
}

struct RecvKernel {
    site: Site,
    shape: ArrayType,
    channel: usize,
    source: usize,
    code: xlet_core::diag::Code,
    type_code: xlet_core::diag::Code,
}

impl Kernel for RecvKernel {
    fn run(&self, _args: &[Value], cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let r = cx.replica();
        let source = existing(&self.code, "source", self.source, r.count())?;
        let channel = i64::try_from(self.channel).unwrap_or(i64::MAX);
        let v = r.hub.recv(r.id, channel, source, &self.site)?;
        let want = Type::Array(self.shape.clone());
        if v.ty() != want {
            return Err(KernelError::new(
                self.type_code.clone(),
                format!(
                    "{}: Recv expects {want} on channel {} from replica {source}, but it sent {}",
                    self.type_code,
                    self.channel,
                    v.ty()
                ),
            ));
        }
        Ok(v)
    }
    fn allocates(&self) -> bool {
        false
    }
}
