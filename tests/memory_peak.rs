//! Peak memory of one big op: the result is the only buffer. A file of its own
//! (one test) because it reads the peak resident size of all waited-for children.

use std::process::Command;

#[cfg(target_os = "linux")]
#[test]
fn iota_builds_its_result_in_place() {
    // 256 MiB of f32. Iota used to build a table of its converted indices
    // beside the output (here as large as it): a peak of 512 MiB.
    let out = Command::new(env!("CARGO_BIN_EXE_xlet"))
        .args(["run", "-", "--max-memory", "400M"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            use std::io::Write;
            c.stdin
                .take()
                .map(|mut i| i.write_all(b"let x = Iota(f32[67108864], 0)\n"));
            c.wait_with_output()
        })
        .expect("xlet runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // SAFETY: getrusage fills the struct it is given.
    let peak_kib = unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut u);
        u.ru_maxrss as usize
    };
    assert!(
        peak_kib < 380 * 1024,
        "peak {peak_kib} KiB for a 256 MiB result"
    );
}
