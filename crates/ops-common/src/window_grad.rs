//! The padding arithmetic the gradient rules of the windowed ops share (the
//! convolutions' and ReduceWindow's, spec/grad.md §4.7).

/// The padding (low, high) that makes a stride-1 window of dilated size `wd`
/// over the cotangent (spread out to `dil_out` = (y - 1)·s + 1 elements) give
/// one result per position of the dilated input (`dil_in` positions), each
/// window covering the outputs that read that position (forward low padding
/// `lo`). Input position p is read by output t with window position k when
/// t = p + lo - k·r, so p's window starts wd - 1 - lo before it, and the
/// high side pads to dil_in + wd - 1 positions in all. Either may be negative.
pub fn lhs_padding(dil_in: i64, wd: i64, dil_out: i64, lo: i64) -> (i64, i64) {
    let before = wd - 1 - lo;
    (before, dil_in + wd - 1 - dil_out - before)
}

/// (n - 1)·k + 1 for n ≥ 1: n elements with k - 1 holes between neighbours.
pub fn dilated(n: usize, k: usize) -> i64 {
    (n as i64 - 1) * k as i64 + 1
}

/// `{{lo, hi}, ...}`, or VALID when every count is 0 (or there are no
/// dimensions).
pub fn pairs<T: std::fmt::Display>(p: &[(T, T)]) -> String {
    let items: Vec<String> = p.iter().map(|(l, h)| format!("{{{l}, {h}}}")).collect();
    if items.iter().all(|t| t == "{0, 0}") {
        return "VALID".into();
    }
    format!("{{{}}}", items.join(", "))
}
