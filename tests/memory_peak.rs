//! Peak memory of one big op: the result is the only buffer. A file of its own
//! (one test) because it reads the peak resident size of all waited-for children.

mod common;

#[cfg(target_os = "linux")]
#[test]
fn iota_builds_its_result_in_place() {
    // 256 MiB of f32. Iota used to build a table of its converted indices
    // beside the output (here as large as it): a peak of 512 MiB.
    common::run_xlet(
        &["run", "-", "--max-memory", "400M"],
        "let x = Iota(f32[67108864], 0)\n".into(),
    );
    let peak_kib = common::children_peak_kib();
    assert!(
        peak_kib < 380 * 1024,
        "peak {peak_kib} KiB for a 256 MiB result"
    );
}
