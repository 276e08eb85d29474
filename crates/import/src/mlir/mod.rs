//! MLIR text: tokens, items, attributes, types, ops and the module.

pub mod attr;
pub mod dense;
pub mod items;
pub mod lexer;
pub mod module;
pub mod op;
pub mod types;
