//! Computations as operands (Call, Grad, Vjp, While, Conditional), feeds and
//! CustomCall (ARCHITECTURE.md, the ops layer): one module per op, each with
//! its spec in spec/ops/ and its cases in conformance/.

pub use xlet_ops_common::{common, for_class, index_dims, reduction, registry, small, window_grad};

pub mod call;
pub mod composite_call;
pub mod conditional;
pub mod custom_call;
pub mod grad;
pub mod infeed;
pub mod load_npy;
pub mod outfeed;
pub mod save_npy;
pub mod vjp;
#[path = "while.rs"]
pub mod while_loop;
