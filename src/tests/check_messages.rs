//! What check errors say: the wording tests (conformance cases cover codes and lines).

use crate::session::Session;
use xlet_core::diag::Diag;

/// Every diagnostic checking `src` gives (none if it checks).
fn diags(src: &str) -> Vec<Diag> {
    match Session::default().check(src) {
        Ok(_) => vec![],
        Err(f) => f.diags,
    }
}

fn one(src: &str) -> Diag {
    let mut d = diags(src);
    assert_eq!(d.len(), 1, "{src}: {d:#?}");
    d.remove(0)
}

#[test]
fn a_failed_let_is_reported_once() {
    let d = diags("let a = Add(f32 1, s32 2)\nlet b = a + 1\nthen b == a\nlet c = Neg(b)");
    assert_eq!(d.len(), 1, "{d:#?}");
    assert!(d[0].code.to_string().contains("Add"), "{d:#?}");
    // A comp that failed to check is not reported again at its calls.
    let d = diags("comp f(x: f32) -> f32 { Neg(x, x) }\nlet y = f(f32 1)");
    assert_eq!(d.len(), 1, "{d:#?}");
    // A name that was never bound is still an error of its own.
    let d = diags("let a = Add(f32 1, s32 2)\nlet b = zzz");
    assert_eq!(d.len(), 2, "{d:#?}");
}

#[test]
fn misspelled_keyword_names_the_real_one() {
    let d = one("let x = f32[2x2] {{1, 2}, {3, 4}}\nlet y = Transpose(x, perm={1, 0})");
    assert!(d.message.contains("unknown argument `perm`"), "{d:#?}");
    let help = d.help.unwrap_or_default();
    assert!(help.contains("did you mean `permutation`?"), "{help}");
    let d = one("let y = Add(f32[1] {1}, f32 2, broadcast_dims={})");
    assert!(
        d.help
            .unwrap_or_default()
            .contains("`broadcast_dimensions`")
    );
}

#[test]
fn duplicate_keyword_says_so() {
    let d = one("let y = Add(f32[1] {1}, f32 2, broadcast_dimensions={}, broadcast_dimensions={})");
    assert!(
        d.message.contains("`broadcast_dimensions` is given twice"),
        "{d:#?}"
    );
    assert_eq!(d.secondary.len(), 1);
}

#[test]
fn xla_ops_xlet_lacks_are_not_typos() {
    let d = one("let y = Fft(f32[4] {1, 2, 3, 4})");
    assert!(
        d.message
            .contains("`Fft` is an XLA operation that is not implemented in xlet yet"),
        "{d:#?}"
    );
    assert!(!d.help.unwrap_or_default().contains("Not"));
    let d = one("let y = Frobnicate(1)");
    assert!(d.message.contains("unknown operation"), "{d:#?}");
    // A numpy name gets XLA's way of saying it, not the nearest op name (`Sub`).
    let d = one("let y = Sum(f32[2] {1, 2})");
    let help = d.help.unwrap_or_default();
    assert!(help.contains("Reduce(x, 0, add, {0})"), "{help}");
    assert!(!help.contains("Sub"), "{help}");
}

#[test]
fn defaulted_literal_says_where_its_type_came_from() {
    let d = one("let x = f64[2] {1, 2}\nlet y = Add(x, Neg(1.5))");
    let notes = d.notes.join("\n");
    assert!(
        notes.contains("`1.5` has no type from context, so it defaulted to f32"),
        "{d:#?}"
    );
    assert!(notes.contains("write `f64 1.5`"), "{notes}");
    // A literal that took its type from context gets no such note.
    let d = one("let x = f64[2] {1, 2}\nlet y = Add(x, s32 1)");
    assert!(d.notes.iter().all(|n| !n.contains("defaulted")), "{d:#?}");
}

#[test]
fn clamp_in_numpy_order_hints_at_xla_order() {
    let d = one("let x = f32[3] {-2, 0, 2}\nlet y = Clamp(x, -1, 1)");
    let help = d.help.unwrap_or_default();
    assert!(help.contains("Clamp(min, operand, max)"), "{help}");
    assert!(help.contains("did you mean Clamp(-1, x, 1)?"), "{help}");
}

#[test]
fn messages_read_as_english() {
    let d = one("let z: s32[1] = {1.5}");
    let all = format!("{} {}", d.message, d.label);
    assert!(all.contains("an s32") && !all.contains("a s32"), "{all}");
    let d = one("let y = Iota(s32[3], 1)");
    let sec: Vec<&str> = d.secondary.iter().map(|(_, l)| l.as_str()).collect();
    assert!(sec.contains(&"s32[3] has 1 dimension"), "{sec:?}");
}
