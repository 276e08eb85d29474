//! The fast parser against the grammar: wherever the fast path accepts a
//! program, the grammar accepts it too and builds the same tree, spans included.

use crate::{fast, lexer, parser};

/// `Some(tree)` from each parser (as `Debug` text), on the same tokens.
fn both(src: &str) -> Option<(Option<String>, Option<String>)> {
    let lexed = lexer::lex_runs(src);
    if !lexed.errors.is_empty() || lexed.open_comment {
        return None;
    }
    let toks = lexer::layout(lexed.toks);
    // The fast parser reads the tokens `syntax::parse` gives it: without texts.
    let mut bare = lexer::layout(lexer::lex_runs_bare(src).toks);
    let fast = fast::program(src, &mut bare).map(|p| format!("{p:?}"));
    let (found, errors) = parser::run(parser::program(), &toks, src.len());
    let bad = toks.iter().any(|(t, _)| matches!(t, lexer::Tok::Bad(_)));
    let slow = found
        .filter(|_| errors.is_empty() && !bad)
        .map(|p| format!("{p:?}"));
    Some((fast, slow))
}

fn corpus() -> Vec<(String, String)> {
    let mut out = vec![];
    let mut dirs = vec![std::path::PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../conformance"
    ))];
    while let Some(d) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "xlet")
                && let Ok(src) = std::fs::read_to_string(&p)
            {
                out.push((p.display().to_string(), src));
            }
        }
    }
    out.sort();
    out
}

/// Small programs at the corners of the grammar.
const CASES: &[&str] = &[
    "",
    "\n;\n",
    "let x = f32[2] {1, 2}\nthen x == f32[2] {1, 2}",
    "then a && b == c\nthen a == (b == c)\nthen a ~= b within 1e-3",
    "==> Add(1, 2) = 3\nNeg(x) >>> y\nNeg(x) produces: y",
    "s32 -1\nf32 - 1\nf32 -x\nf32[] 2.5\npred true\nf32[2,3,] {{1,2,3},{4,5,6}}",
    "(f32, s32) (1, 2)\n(f32) (5)\n(f32, s32)\n(a)\n(a,)\n()\n(a, b,)\n((1, 2), 3)",
    "f(x, y=2, z={1, x},)\nf()\nf\n-!-x\n!a || b && c < d <= e > f >= g != h",
    "a + b * c - d / e % f\n{1, -2, x}\n{- 1, 2,}\n{}\n{{1, 2}, {3, x}}",
    "comp f(x: f32[2x2], y: (s32, pred),) -> f32 {\n  let z = x * 2\n  let w: f32 = z\n  w / 3\n}",
    "comp g() -> () { () }; g()\ncomp h(a: f32) -> f32 { a; }",
    "let t: (f32[2], (s32, pred[])) = ((f32[2] {1, 2}), (s32 1, pred[] true))",
    "\"str\" ; Call(\"x\", dimension_numbers=\"b01f_01io->b01f\")",
    "f32[0] {}\nf32[2x0] {{}, {}}\nu64 18446744073709551615\nf32 inf\nf32 -nan",
    // Ones the fast path must leave to the grammar.
    "comp f32(x: f32) -> f32 { x }",
    "comp f(x: f32) -> f32 { }",
    "comp f(x: f32) -> f32 { x } y",
    "let = 3\nthen\nf(,)\n(,)\nf32[99999999999999999999] {1}",
    "a b\nf32[2 {1, 2}\n{1, 2\n1 +\n-",
];

/// Runs `f` on a thread with the stack the binary gives its parser (some
/// conformance files nest deeply, and the grammar's frames are large).
fn big_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(f)
        .and_then(|h| h.join().map_err(|_| std::io::Error::other("test panicked")))
        .unwrap();
}

#[test]
fn fast_path_builds_what_the_grammar_builds() {
    big_stack(builds_the_same);
}

fn builds_the_same() {
    let mut sources: Vec<(String, String)> = CASES
        .iter()
        .enumerate()
        .map(|(i, s)| (format!("case {i}"), s.to_string()))
        .collect();
    sources.extend(corpus());
    assert!(sources.len() > 200, "conformance files not found");
    let (mut accepted, mut valid, mut complex) = (0, 0, 0);
    for (name, src) in &sources {
        let Some((fast, slow)) = both(src) else {
            continue;
        };
        valid += slow.is_some() as usize;
        complex += (slow.is_some()
            && fast.is_none()
            && (src.contains("c64") || src.contains("c128"))) as usize;
        if let Some(fast) = fast {
            accepted += 1;
            assert_eq!(Some(&fast), slow.as_ref(), "{name}:\n{src}");
        }
    }
    // The fast path reads every valid program here but the deliberately deep
    // ones and those with complex literals (`(re, im)` elements, which it
    // leaves to the grammar).
    assert!(accepted + 3 + complex >= valid, "{accepted} of {valid}");
}

#[test]
fn fast_path_agrees_on_mutated_programs() {
    big_stack(agrees_on_mutations);
}

fn agrees_on_mutations() {
    // Deterministic damage to every conformance file: a byte deleted, a line
    // doubled, a token's neighbour swapped in. Whatever the fast path accepts,
    // the grammar accepts with the same tree.
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n.max(1) as u64) as usize
    };
    let inserts = [
        "(", ")", "{", "}", ",", "-", "=", "==", "\n", "f32", "x", "1", ";", "[", "]",
    ];
    let mut checked = 0;
    for (name, src) in corpus() {
        for _ in 0..12 {
            let mut s = src.clone();
            let at = next(s.len());
            if !s.is_char_boundary(at) {
                continue;
            }
            match next(3) {
                0 => {
                    let end = (at + 1..=s.len())
                        .find(|&e| s.is_char_boundary(e))
                        .unwrap_or(s.len());
                    s.replace_range(at..end, "");
                }
                1 => s.insert_str(at, inserts[next(inserts.len())]),
                _ => {
                    let line = s[at..].lines().next().unwrap_or("").to_string();
                    s.insert_str(at, &format!("{line}\n"));
                }
            }
            let Some((fast, slow)) = both(&s) else {
                continue;
            };
            if let Some(fast) = fast {
                checked += 1;
                assert_eq!(Some(&fast), slow.as_ref(), "{name} mutated:\n{s}");
            }
        }
    }
    assert!(
        checked > 100,
        "only {checked} mutated programs were accepted"
    );
}
