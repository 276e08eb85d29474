//! Tree reductions: Reduce, ReduceWindow and SelectAndScatter kernels.
//!
//! `order` is the one reduction order, written plainly (spec/ops/reduce.md);
//! `native` the monoid kernels (rows and columns, SIMD-friendly, parallel);
//! `monoid` the element functions they run; `layout` how an operand is
//! arranged for them; `vectorized` the whole-array path for elementwise comps;
//! `generic` the comp-call-per-element path; `window` and `scatter` the window
//! ops. Every path gives the same bits as `order` (tests below).

pub mod generic;
pub mod layout;
pub mod monoid;
pub mod native;
pub mod order;
pub mod scatter;
pub mod vectorized;
pub mod window;
pub mod window_small;

#[cfg(test)]
mod tests;
