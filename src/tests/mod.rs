//! Unit tests that run programs through a whole session, so they need every
//! layer: they live at the top of the house, one file per layer and topic
//! (`<layer>_<topic>.rs`, or `<layer>.rs`). Tests that need one layer only stay
//! beside its code as `tests.rs`.

mod assert;
mod check_messages;
mod collectives;
mod comp;
mod custom_call;
mod fuse;
mod grad;
mod grad_complex;
mod grad_control;
mod grad_linalg;
mod grad_window;
mod plan;
mod scatter;
