//! Operations: one module per op (or per family of ops that share one rule),
//! each with its spec in spec/ops/ and its cases in conformance/.

pub mod common;
pub mod registry;

pub mod batch_norm_args;
pub mod batch_norm_grad;
pub mod batch_norm_inference;
pub mod batch_norm_training;
pub mod binary;
pub mod bitcast_convert_type;
pub mod broadcast;
pub mod broadcast_in_dim;
pub mod call;
pub mod clamp;
pub mod collapse;
pub mod compare;
pub mod concatenate;
pub mod conditional;
pub mod convert_element_type;
pub mod dynamic_slice;
pub mod dynamic_update_slice;
pub mod gather;
pub mod get_tuple_element;
pub mod index_dims;
pub mod iota;
pub mod map;
pub mod pad;
pub mod reduce;
pub mod reduce_precision;
pub mod reduce_window;
pub mod reshape;
pub mod rev;
pub mod scatter;
pub mod select;
pub mod select_and_scatter;
pub mod slice;
pub mod sort;
pub mod transpose;
pub mod tuple;
pub mod unary;
#[path = "while.rs"]
pub mod while_loop;
