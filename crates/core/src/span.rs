//! Where in the input a piece of a program is: byte offsets, end exclusive.
//! Every layer's diagnostics point with it, so it lives on the floor.

pub type Span = std::ops::Range<usize>;
