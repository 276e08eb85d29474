//! Peak memory (and time) of pasted weights: a 5,000,000-element f32 literal (52 MB
//! of text) and a 10 MB nested one. A file of its own (one test) because it reads
//! the peak resident size of all waited-for children.

mod common;

use common::{children_peak_kib, run_xlet};
use std::time::Duration;

fn run(src: String) -> Duration {
    run_xlet(&["run", "-"], src)
}

fn numbers(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| format!("{:.6}", (i as f64 * 0.37).sin()))
        .collect()
}

#[cfg(target_os = "linux")]
#[test]
fn pasted_weights_parse_in_linear_time_and_little_memory() {
    // Each number used to become a token, a tree node and a flattened copy, each with
    // its own string: 7 s and 1.6 GB here; now ~1 s and ~175 MB (spec/performance.md).
    let n = 5_000_000;
    let flat = format!("let w = f32[{n}] {{{}}}\n", numbers(n).join(", "));
    let t = run(flat);
    assert!(t < Duration::from_secs(30), "52 MB literal took {t:?}");
    let rows: Vec<String> = numbers(1_000_000)
        .chunks(16)
        .map(|r| format!("{{{}}}", r.join(", ")))
        .collect();
    let nested = format!("let w = f32[62500x16] {{{}}}\n", rows.join(",\n"));
    let t = run(nested);
    assert!(
        t < Duration::from_secs(20),
        "10 MB nested literal took {t:?}"
    );
    let peak_kib = children_peak_kib();
    assert!(
        peak_kib < 500 * 1024,
        "peak {peak_kib} KiB for 52 MB of literal text (20 MB of f32)"
    );
}
