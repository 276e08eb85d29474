//! No code. This crate only exists for its Cargo.toml: it pins the features of
//! two dependencies so that the test build and the Python build compile each
//! xlet crate once (spec/build.md).
