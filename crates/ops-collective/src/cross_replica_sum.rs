//! CrossReplicaSum (spec/ops/cross_replica_sum.md): `CrossReplicaSum(operand,
//! replica_groups)`, AllReduce with `add` (src/ops/all_reduce.rs).

use super::registry::{OpDef, OpId};

const SPEC: &str = include_str!("../../../spec/ops/cross_replica_sum.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::CrossReplicaSum,
    aliases: &[],
    signature: "CrossReplicaSum(operand, replica_groups)",
    spec: SPEC,
    rule: super::all_reduce::sum_rule,
}];
