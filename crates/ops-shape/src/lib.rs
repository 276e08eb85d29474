//! Ops that move elements without arithmetic: reshapes, broadcasts, slices,
//! Pad, Concatenate, tuples, OptimizationBarrier, GetDimensionSize (ARCHITECTURE.md, the ops layer): one module per
//! op, each with its spec in spec/ops/ and its cases in conformance/.

pub use xlet_ops_common::{common, for_class, index_dims, reduction, registry, small, window_grad};

pub mod broadcast;
pub mod broadcast_in_dim;
pub mod collapse;
pub mod concatenate;
pub mod dynamic_slice;
pub mod dynamic_update_slice;
pub mod get_dimension_size;
pub mod get_tuple_element;
pub mod optimization_barrier;
pub mod pad;
pub mod reshape;
pub mod rev;
pub mod slice;
pub mod transpose;
pub mod tuple;
