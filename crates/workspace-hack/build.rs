// Empty on purpose: cargo resolves a crate's [build-dependencies] only when
// the crate has a build script, and the pin on syn's features lives there.
fn main() {}
