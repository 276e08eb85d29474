//! Small edges of the command line and the reader (issue 21): `--max-memory 0`,
//! a byte-order mark at the start of a file or of stdin, and deeply nested
//! calls, each run through the built binary.

mod common;

use std::process::Output;

fn xlet(args: &[&str], stdin: &str) -> Output {
    common::xlet_output(args, stdin).0
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn max_memory_0_is_a_budget_of_0_bytes() {
    // Used to say "the budget is 1 bytes". Nothing fits a budget of 0 bytes
    // (the interpreter's own bytes are live): checking already stops with a
    // `memory` error (spec/language.md §8.5), exit 2.
    let o = xlet(
        &["--max-memory", "0", "run", "-"],
        "let x = Iota(f32[4], 0)\n",
    );
    let e = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(e.contains("[memory]"), "{e}");
    assert!(e.contains("the budget is 0 bytes"), "{e}");
    assert!(!e.contains("the budget is 1 bytes"), "{e}");
}

#[test]
fn a_byte_order_mark_is_skipped_in_files_and_stdin() {
    let prog = "\u{feff}let x = s32[2] {1, 2}\nthen x + 1 == s32[2] {2, 3}\n";
    let o = xlet(&["run", "-"], prog);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let dir = std::env::temp_dir().join(format!("xlet-bom-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bom.xlet");
    std::fs::write(&file, prog).unwrap();
    let o = xlet(&["run", file.to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let o = xlet(&["check", file.to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let _ = std::fs::remove_dir_all(&dir);
    // Elsewhere it is an ordinary non-ASCII character: a syntax error.
    let o = xlet(&["run", "-"], "let x = 1\n\u{feff}let y = 2\n");
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
}

#[test]
fn deeply_nested_calls_say_nested_less_deeply() {
    // 5000 nested calls of Tuple (and of Add) get the message that 5000
    // nested parentheses get, not "found '(' but expected something else".
    for prog in [
        format!("let a = {}1{}\n", "(".repeat(5000), ")".repeat(5000)),
        format!("let a = {}1{}\n", "Tuple(".repeat(5000), ")".repeat(5000)),
        format!("let a = {}1{}\n", "Add(1, ".repeat(5000), ")".repeat(5000)),
    ] {
        let o = xlet(&["run", "-"], &prog);
        let e = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{e}");
        assert!(e.contains("nested less deeply"), "{}: {e}", &prog[..20]);
    }
}
