//! The op-table types each op module names in its `OPS` (the table itself is
//! assembled in the xlet-ops crate, from every family's modules).

pub use xlet_check::table::{Checked, OpDef, OpTable, ShapeRule, params, spec_section, summary};
pub use xlet_core::OpId;
pub use xlet_syntax::names::*;
