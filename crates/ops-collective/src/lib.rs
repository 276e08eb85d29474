//! ReplicaId and the collectives (ARCHITECTURE.md, the ops layer): one module
//! per op, each with its spec in spec/ops/ and its cases in conformance/.

pub use xlet_ops_common::{common, for_class, index_dims, reduction, registry, small, window_grad};

pub mod all_gather;
pub mod all_reduce;
pub mod all_to_all;
pub mod collective;
pub mod collective_permute;
pub mod cross_replica_sum;
pub mod recv;
pub mod reduce_scatter;
pub mod replica_id;
pub mod send;
