//! ReplicaId (spec/ops/replica_id.md): `ReplicaId()`, this replica's id as a
//! u32 scalar (0 without `--replicas`).

use super::registry::{Checked, OpDef, OpId};
use ndarray::{ArcArray, IxDyn};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::{ElemType, Type};
use xlet_core::value::{Array, Value};
use xlet_ir::{EvalCx, Kernel, KernelError};

const SPEC: &str = include_str!("../../../spec/ops/replica_id.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::ReplicaId,
    aliases: &[],
    signature: "ReplicaId()",
    spec: SPEC,
    rule,
}];

fn rule(_cx: &mut CallCtx) -> Result<Checked, Diag> {
    Ok(Checked {
        ty: Type::array(ElemType::U32, vec![]),
        kernel: Arc::new(ReplicaIdKernel),
    })
}

struct ReplicaIdKernel;

impl Kernel for ReplicaIdKernel {
    fn run(&self, _args: &[Value], cx: &dyn EvalCx) -> Result<Value, KernelError> {
        // MAX_REPLICAS keeps every id within u32.
        let id = u32::try_from(cx.replica().id)
            .map_err(|_| KernelError::new("internal", "internal error: replica id over u32"))?;
        Ok(Value::Array(Array::U32(ArcArray::from_elem(
            IxDyn(&[]),
            id,
        ))))
    }
}
