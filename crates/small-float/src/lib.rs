//! XLA's small element types as bit-level conversions: the eleven f8/f6/f4
//! float formats (one `#[repr(transparent)]` byte each, the bits in the low
//! bits) and the narrow integers s4, u4, s2, u2.
//!
//! This crate depends on no other xlet crate. The conversion rules are
//! ml_dtypes' (and XLA's `ConvertElementType`), stated in
//! spec/small_types.md and tested exhaustively against tables that
//! `tables/gen_tables.py` writes from ml_dtypes and JAX.

pub mod codec;
mod formats;
mod small_int;

pub use codec::{Kind, Spec};
pub use formats::{
    F4E2M1FN, F6E2M3FN, F6E3M2FN, F8E3M4, F8E4M3, F8E4M3B11FNUZ, F8E4M3FN, F8E4M3FNUZ, F8E5M2,
    F8E5M2FNUZ, F8E8M0FNU,
};
pub use small_int::{S2, S4, U2, U4};

/// Every float format's description, in the order of the HLO type list.
pub const FLOAT_SPECS: [Spec; 11] = [
    F8E4M3FN::SPEC,
    F8E5M2::SPEC,
    F8E4M3FNUZ::SPEC,
    F8E5M2FNUZ::SPEC,
    F8E4M3B11FNUZ::SPEC,
    F8E4M3::SPEC,
    F8E3M4::SPEC,
    F8E8M0FNU::SPEC,
    F6E2M3FN::SPEC,
    F6E3M2FN::SPEC,
    F4E2M1FN::SPEC,
];
