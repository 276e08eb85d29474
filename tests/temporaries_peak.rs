//! Peak memory of temporaries (issue 21): a rank-1 window reduction kept 16
//! lane rows as long as the whole output row (64 bytes per f32 element, 3.2 GB
//! beside a 200 MB result), and printing a one-element array of rank R held R
//! separator strings of up to R bytes each (rank 20,000: 1.07 GB). A file of
//! its own: the kernel reports one peak over every child waited for.

mod common;

#[cfg(target_os = "linux")]
#[test]
fn window_and_print_temporaries_stay_small() {
    // Operand and result: 200 MB each.
    common::run_xlet(
        &["run", "-", "--max-memory", "1G"],
        "let x = ReduceWindow(Iota(f32[50000000], 0), f32 0, add, {3}, {1}, SAME)\n".into(),
    );
    let window_kib = common::children_peak_kib();
    // One element, rank 20,000, printed (a .npy of shape (1,)*20000 gives the same).
    let ones = vec!["1"; 20_000].join(", ");
    common::run_xlet(
        &["run", "-", "--max-memory", "100M"],
        format!("let x = Broadcast(f32 1, {{{ones}}})\nx\n"),
    );
    let peak_kib = common::children_peak_kib();
    assert!(
        window_kib < 600 * 1024,
        "window: peak {window_kib} KiB for 400 MB of operand and result"
    );
    assert!(
        peak_kib < 600 * 1024,
        "printing a rank-20000 array: peak {peak_kib} KiB"
    );
}
