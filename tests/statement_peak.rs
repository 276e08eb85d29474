//! Peak memory (and time) of a statement-heavy program: 10 MB of short `let`s
//! and `comp`s, checked. A file of its own (one test) because it reads the peak
//! resident size of all waited-for children.

mod common;

use std::time::Duration;

/// ~150,000 `let`s (as a pasted program has them) and 20,000 small comps: about 10 MB.
fn program() -> String {
    let mut src = String::from("let a0 = f32[4] {1, 2, 3, 4}\n");
    for i in 1..150_000 {
        let op = ["Add", "Sub", "Mul", "Max"][i % 4];
        src.push_str(&format!(
            "let a{i} = {op}(a{}, f32[4] {{{}, 2.5, -1, {}}})  // step {i}\n",
            i - 1,
            i % 7,
            i % 3
        ));
    }
    for i in 0..20_000 {
        src.push_str(&format!(
            "comp g{i}(x: f32[4]) -> f32[4] {{ Add(x, a{i}) }}\n"
        ));
    }
    src
}

#[cfg(target_os = "linux")]
#[test]
fn a_statement_heavy_program_checks_in_linear_time_and_little_memory() {
    let src = program();
    let mb = src.len() >> 20;
    let t = common::run_xlet(&["check", "-"], src);
    // About 2 s on a loaded 2-core machine (spec/performance.md §7); CI machines are loaded.
    assert!(
        t < Duration::from_secs(30),
        "{mb} MB of statements took {t:?}"
    );
    let peak_kib = common::children_peak_kib();
    // About 460 MB for lets10mb.xlet (spec/performance.md §7); twice that
    // catches a regression to owned token texts or a second copy of the tree.
    assert!(
        peak_kib < PEAK_BOUND_MIB * 1024,
        "peak {peak_kib} KiB for {mb} MB of statements"
    );
}

/// The peak allowed, in MiB.
const PEAK_BOUND_MIB: usize = 1000;
