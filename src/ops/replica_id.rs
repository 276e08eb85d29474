//! ReplicaId (spec/ops/replica_id.md): `ReplicaId()`, this replica's id as a
//! u32 scalar (0 without `--replicas`).

use super::registry::{Checked, OpDef};
use crate::check::call::CallCtx;
use crate::diag::Diag;
use crate::ir::{EvalCx, Kernel, KernelError};
use crate::types::{ElemType, Type};
use crate::value::{Array, Value};
use ndarray::{ArcArray, IxDyn};
use std::sync::Arc;

const SPEC: &str = include_str!("../../spec/ops/replica_id.md");

pub const OPS: &[OpDef] = &[OpDef {
    name: "ReplicaId",
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
