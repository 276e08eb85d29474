//! What the tests of the binary share: running `xlet` on a program fed through
//! stdin, and the peak resident size of the children waited for.
//!
//! Each peak test is a test binary of its own (one test per file): the kernel
//! reports one peak over every child a process has waited for, so two tests in
//! one binary would see each other's peaks.

#![allow(dead_code)] // each test binary uses part of this

use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Runs `xlet` with `args`, `src` on its stdin (fed from a thread, so a big
/// program cannot fill the pipe while xlet writes), and asserts exit code 0.
/// Returns the wall time.
pub fn run_xlet(args: &[&str], src: String) -> Duration {
    let t = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_xlet"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("xlet starts");
    let mut input = child.stdin.take().expect("stdin");
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(src.as_bytes());
    });
    let out = child.wait_with_output().expect("xlet runs");
    let _ = feeder.join();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    t.elapsed()
}

/// Runs `xlet --no-color ARGS...` with `stdin` fed from a thread (so a big
/// program cannot fill the pipe while xlet writes), whatever its exit status.
/// Returns its output and the wall time.
pub fn xlet_output(args: &[&str], stdin: &str) -> (Output, Duration) {
    let t = Instant::now();
    let (child, feeder) = spawn_fed(args, stdin);
    let out = child.wait_with_output().expect("xlet runs");
    let _ = feeder.join();
    (out, t.elapsed())
}

/// Starts `xlet --no-color ARGS...` with its output streams piped and `stdin`
/// fed from a thread (so a big program cannot fill the pipe while xlet writes).
fn spawn_fed(args: &[&str], stdin: &str) -> (std::process::Child, std::thread::JoinHandle<()>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_xlet"))
        .arg("--no-color")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("xlet starts");
    let mut input = child.stdin.take().expect("stdin");
    let src = stdin.to_string();
    let feeder = std::thread::spawn(move || {
        let _ = input.write_all(src.as_bytes());
    });
    (child, feeder)
}

/// `xlet_output` as (exit code, -1 for a signal; stdout; stderr; wall time).
pub fn xlet_run(args: &[&str], stdin: &str) -> (i32, String, String, Duration) {
    let (out, t) = xlet_output(args, stdin);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        t,
    )
}

/// The largest resident size, in KiB, of any child this process has waited for.
#[cfg(target_os = "linux")]
pub fn children_peak_kib() -> usize {
    // SAFETY: getrusage fills the struct it is given.
    unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut u);
        u.ru_maxrss as usize
    }
}

/// `xlet_run`, and the child's own peak resident size in KiB (wait4 reports
/// it per child, so tests measured this way can share a test binary).
#[cfg(target_os = "linux")]
pub fn xlet_run_peak(args: &[&str], stdin: &str) -> (i32, String, String, usize) {
    use std::io::Read;
    let (mut child, feeder) = spawn_fed(args, stdin);
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut s = Vec::new();
            let _ = r.read_to_end(&mut s);
            String::from_utf8_lossy(&s).into_owned()
        })
    };
    let out = drain(Box::new(child.stdout.take().expect("stdout")));
    let err = drain(Box::new(child.stderr.take().expect("stderr")));
    let mut status = 0;
    // SAFETY: wait4 fills the status and the struct it is given; the child is
    // ours and not yet reaped (std's `Child` is not waited on after this).
    let peak_kib = unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut u);
        u.ru_maxrss as usize
    };
    let _ = feeder.join();
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    (
        code,
        out.join().unwrap_or_default(),
        err.join().unwrap_or_default(),
        peak_kib,
    )
}
