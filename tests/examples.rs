//! Every script in `examples/` runs, and its assertions hold (the README
//! points users at them, so they must not rot).

use xlet::check::Limits;
use xlet::eval::Output;
use xlet::ir;
use xlet::session::Session;
use xlet::value::Value;

struct Quiet;
impl Output for Quiet {
    fn print(&mut self, _: &Value, _: &ir::Expr) {}
}

#[test]
fn examples_run() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    let mut ran = 0;
    for entry in std::fs::read_dir(&dir).expect("examples/") {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|e| e == "xlet") {
            let src = std::fs::read_to_string(&path).expect("readable");
            let mut s = Session::new(Limits::default());
            if let Err(f) = s.run(&src, &mut Quiet) {
                panic!("{}: {:?}", path.display(), f.diags);
            }
            ran += 1;
        }
    }
    assert!(ran >= 2, "only {ran} examples found");
}
