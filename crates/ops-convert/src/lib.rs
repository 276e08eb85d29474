//! Conversions, Iota, Map and the random-number ops (ARCHITECTURE.md, the ops
//! layer): one module per op, each with its spec in spec/ops/ and its cases in
//! conformance/.

pub use xlet_ops_common::{common, for_class, index_dims, reduction, registry, small, window_grad};

pub mod bitcast_convert_type;
pub mod convert_element_type;
pub mod iota;
pub mod map;
pub mod reduce_precision;
pub mod rng_bit_generator;
pub mod rng_normal;
pub mod rng_uniform;
