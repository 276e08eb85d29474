use crate::session::Session;
use xlet_check::Limits;
use xlet_eval::Output;

struct Quiet;
impl Output for Quiet {
    fn print(&mut self, _: &xlet_core::value::Value, _: &xlet_ir::Expr) {}
}

/// The help of the failed assertion `src`'s run reports.
fn help_of(src: &str) -> Option<String> {
    let f = Session::new(Limits::default())
        .run(src, &mut Quiet)
        .expect_err("the assertion fails");
    assert_eq!(f.diags.len(), 1, "{:?}", f.diags);
    assert_eq!(f.diags[0].code.to_string(), "assert", "{:?}", f.diags);
    f.diags[0].help.clone()
}

#[test]
fn rounding_differences_suggest_approx_and_others_do_not() {
    let h = help_of("then f64 0.1 + f64 0.2 == f64 0.3").unwrap_or_default();
    assert!(h.contains("`~=`") && h.contains("1e-9"), "{h}");
    // One ulp of f32 apart.
    let h = help_of("then f32[2] {1.0000001, 2} == f32[2] {1, 2}").unwrap_or_default();
    assert!(h.contains("`~=`") && h.contains("f32"), "{h}");
    // One pair close, one far: not a rounding difference.
    assert_eq!(help_of("then f32[2] {1.0000001, 3} == f32[2] {1, 2}"), None);
    assert_eq!(help_of("then f64 0.31 == f64 0.3"), None);
    // Integers are exact: there is no rounding to forgive.
    assert_eq!(help_of("then s32 1 == s32 2"), None);
    assert_eq!(help_of("then f32 inf == f32 3e38"), None);
}
