//! `xlet run --replicas N` as a user runs it (spec/distributed.md §1): the
//! binary, each run under a time limit, so a hang fails the test instead of
//! the suite. Bad counts, groups that do not partition the replicas,
//! collectives some replicas never reach, a replica that fails while others
//! wait, and Ctrl-C while replicas wait.

use std::io::Write;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// No replicated run here should take more than a few seconds.
const LIMIT: Duration = Duration::from_secs(30);

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

fn spawn(args: &[&str], src: &str) -> Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_xlet"))
        .args(["--no-color"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start xlet");
    let mut stdin = child.stdin.take().expect("stdin");
    // A usage error (a bad --replicas) ends xlet before it reads its input: a
    // closed pipe is then expected, and the exit code tells.
    if let Err(e) = stdin.write_all(src.as_bytes()) {
        assert_eq!(
            e.kind(),
            std::io::ErrorKind::BrokenPipe,
            "write the program: {e}"
        );
    }
    drop(stdin);
    child
}

/// Waits for `child` at most `LIMIT`; a run past it is killed and fails the test.
fn finish(mut child: Child) -> Run {
    let start = Instant::now();
    loop {
        if let Some(_status) = child.try_wait().expect("wait") {
            let out = child.wait_with_output().expect("output");
            return Run {
                code: out.status.code(),
                stdout: String::from_utf8_lossy(&out.stdout).into(),
                stderr: String::from_utf8_lossy(&out.stderr).into(),
            };
        }
        if start.elapsed() > LIMIT {
            let _ = child.kill();
            panic!("xlet hung (killed after {} s)", LIMIT.as_secs());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `xlet run --replicas N -` on `src`.
fn run(n: &str, src: &str) -> Run {
    finish(spawn(&["run", &format!("--replicas={n}"), "-"], src))
}

#[test]
fn seed_example_prints_per_replica_in_order() {
    let src = "let x = Select(Eq(ReplicaId(), u32 0), f32[2] {1.0, 2.5}, f32[2] {3.0, 5.25})\n\
               ReplicaId()\nCrossReplicaSum(x)\n";
    let r = run("2", src);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(
        r.stdout,
        "[replica 0] u32 0\n[replica 0] f32[2] {4, 7.75}\n\
         [replica 1] u32 1\n[replica 1] f32[2] {4, 7.75}\n"
    );
}

#[test]
fn same_output_on_every_run() {
    // Eight replicas, each printing while the others run: the output is
    // buffered per replica and shown in replica order, so it never varies.
    let src = "let x = ConvertElementType(ReplicaId(), f32) * 0.1\nx\nCrossReplicaSum(x)\n";
    let first = run("8", src);
    assert_eq!(first.code, Some(0), "{}", first.stderr);
    for _ in 0..3 {
        assert_eq!(run("8", src).stdout, first.stdout);
    }
}

#[test]
fn a_failed_assertion_in_one_replica_fails_the_run_and_names_it() {
    let r = run("3", "then ReplicaId() != u32 2\n");
    assert_eq!(r.code, Some(1));
    assert!(r.stderr.contains("replica 2:"), "{}", r.stderr);
    assert!(!r.stderr.contains("replica 0:"), "{}", r.stderr);
}

#[test]
fn bad_counts_are_usage_errors() {
    for n in ["0", "1025", "99999999999999999999", "-1", "two"] {
        let r = run(n, "ReplicaId()\n");
        assert_eq!(r.code, Some(3), "--replicas {n}: {}", r.stderr);
        assert!(r.stderr.contains("--replicas"), "{}", r.stderr);
    }
    // The largest count is allowed.
    let r = run("1024", "then CrossReplicaSum(u32 1) == u32 1024\n");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
}

#[test]
fn groups_that_do_not_partition_are_check_errors() {
    for groups in [
        "{{0, 1}, {2}}",
        "{{0, 1}, {1, 2, 3}}",
        "{{0, 1}, {2, 3, 4}}",
    ] {
        let src = format!("AllReduce(f32 1, add, replica_groups={groups})\n");
        let r = run("4", &src);
        assert_eq!(r.code, Some(2), "{groups}: {}", r.stderr);
        assert!(r.stderr.contains("AllReduce: C3"), "{}", r.stderr);
    }
}

#[test]
fn an_extra_collective_is_reported_not_waited_on() {
    let src = "comp more(x: f32) -> f32 { CrossReplicaSum(x) }\n\
               comp none(x: f32) -> f32 { x }\n\
               let y = Conditional(Eq(ReplicaId(), u32 2), f32 1, more, f32 1, none)\n";
    let r = run("3", src);
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(
        r.stderr.contains(
            "CrossReplicaSum (line 1) needs every replica, but it cannot complete: replica 2 arrived; \
             replica 0 finished the program without reaching it; replica 1 finished"
        ),
        "{}",
        r.stderr
    );
}

#[test]
fn a_failing_replica_releases_the_others() {
    let src = "let n = Select(Eq(ReplicaId(), u32 0), s32 0, s32 5)\n\
               let x = RngUniform(s32 0, n, s32[2])\n\
               let y = CrossReplicaSum(x)\n";
    let r = run("3", src);
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(
        r.stderr.contains("replica 0: RngUniform: C4"),
        "{}",
        r.stderr
    );
    assert!(
        r.stderr
            .contains("replica 1: CrossReplicaSum (line 3) needs every replica"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains("replica 0 failed"), "{}", r.stderr);
}

#[test]
fn a_recv_nobody_sends_to_is_a_deadlock_report() {
    let r = run("2", "let r = Recv(f32, channel_id=1, source=1)\n");
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(r.stderr.contains("Recv (line 1)"), "{}", r.stderr);
    assert!(r.stderr.contains("none will come"), "{}", r.stderr);
}

#[cfg(unix)]
#[test]
fn ctrl_c_interrupts_waiting_replicas() {
    // Replica 1 loops for ever; replica 0 waits for it in CrossReplicaSum.
    let src = "comp c(x: s32) -> pred { true }\ncomp b(x: s32) -> s32 { x + 1 }\n\
               comp spin(x: s32) -> s32 { While(c, b, x) }\ncomp id(x: s32) -> s32 { x }\n\
               let y = Conditional(Eq(ReplicaId(), u32 1), s32 0, spin, s32 0, id)\n\
               let z = CrossReplicaSum(y)\n";
    let child = spawn(&["run", "--replicas", "2", "-"], src);
    std::thread::sleep(Duration::from_millis(700));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(killed.success());
    let r = finish(child);
    assert_eq!(r.code, Some(130), "{}", r.stderr);
}

#[test]
fn the_sum_is_the_same_bits_on_every_run() {
    // 16 replicas adding values of very different sizes: any change of the
    // association order changes the low bits; the fold is by replica id.
    let src = "let i = ConvertElementType(ReplicaId(), f32)\n\
               let x = Pow(f32 -1.37, i) * Exp(i * 1.1)\n\
               BitcastConvertType(CrossReplicaSum(x), u32)\n";
    let first = run("16", src);
    assert_eq!(first.code, Some(0), "{}", first.stderr);
    for _ in 0..3 {
        assert_eq!(run("16", src).stdout, first.stdout);
    }
}

/// The programs of spec/language.md §8.4 at `levels` of nesting: a chain of
/// additions, and a chain of comps each calling the one before.
fn chain(levels: usize) -> String {
    format!(
        "let a = 1{}\nthen a == {levels}\n",
        " + 1".repeat(levels - 1)
    )
}

/// `n` comps, each calling the one before (named k0, k1, ...: c64 and c128
/// are element types).
fn comps(n: usize) -> String {
    let mut s = String::from("comp k0(x: f32) -> f32 { x + 1 }\n");
    for k in 1..n {
        s += &format!("comp k{k}(x: f32) -> f32 {{ k{}(x) + 1 }}\n", k - 1);
    }
    s + &format!("let a = k{}(f32 0)\nthen a == f32 {n}\n", n - 1)
}

#[test]
fn nesting_is_bounded_by_the_replicas_stacks() {
    // Issue 21: 5,000 levels ran on one replica but overflowed a replica's
    // 16 MiB stack with --replicas 256 (SIGABRT), as did 9,990 chained comps.
    // Each replica count has its own limit (spec/distributed.md §1): a
    // program at it runs on every replica, and one past it is one clean
    // `size` error (exit 2) before any replica starts.
    for n in [2usize, 64, 256] {
        let limit = xlet::check::depth_for_stack(xlet::replica::replica_stack(n));
        let r = run(&n.to_string(), &chain(limit));
        assert_eq!(
            r.code,
            Some(0),
            "{n} replicas, {limit} levels: {}",
            r.stderr
        );
        let r = run(&n.to_string(), &chain(limit + 1));
        assert_eq!(r.code, Some(2), "{n} replicas: {}", r.stderr);
        assert!(
            r.stderr
                .contains(&format!("nested more than {limit} levels")),
            "{}",
            r.stderr
        );
    }
    let r = run("256", &chain(5000));
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    // One error, before any replica starts (not one per replica).
    assert_eq!(
        r.stderr
            .matches("Error: expression nested more than 128 levels")
            .count(),
        1,
        "{}",
        r.stderr
    );
    // Chained comps: each link nests two levels (the call and the `+`), so
    // 63 comps (k62 called) run at 256 replicas (128 levels) and 9990 are
    // refused at the call of k63.
    let r = run("256", &comps(63));
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let r = run("256", &comps(9990));
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("calling `k63`"), "{}", r.stderr);
    // `xlet check --replicas N` checks against the same limit.
    let r = finish(spawn(&["--replicas", "256", "check", "-"], &chain(129)));
    assert_eq!(r.code, Some(2), "{}", r.stderr);
}
