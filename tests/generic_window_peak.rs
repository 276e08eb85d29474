//! Peak memory of ReduceWindow's generic path (a comp that is not elementwise:
//! a Reshape inside): every output's result scalars stayed alive, boxed, until
//! the op ended (80 MB of operand took 6.4 GB). Now each output's scalars go
//! into the typed result at once. A file of its own: the kernel reports one
//! peak over every child waited for.

mod common;

#[cfg(target_os = "linux")]
#[test]
fn the_generic_window_path_keeps_no_per_output_values() {
    // 10^6 outputs (a 4 MB result): 320 bytes each were kept.
    let src = "comp f(a: f32, b: f32) -> f32 { Reshape(Add(a, b), {}) }\n\
               let x = ReduceWindow(Iota(f32[1000000], 0), f32 0, f, {2}, {1}, SAME)\n";
    common::run_xlet(&["run", "-"], src.into());
    let peak_kib = common::children_peak_kib();
    assert!(
        peak_kib < 150 * 1024,
        "peak {peak_kib} KiB for a 4 MB result"
    );
}
