//! Operations: one module per op (or per family of ops that share one rule),
//! each with its spec in spec/ops/ and its cases in conformance/.

pub mod common;
pub mod registry;

pub mod binary;
pub mod compare;
pub mod reshape;
pub mod unary;
