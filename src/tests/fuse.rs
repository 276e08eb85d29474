use crate::session::Session;
use std::sync::atomic::Ordering;
use xlet_check::Limits;
use xlet_core::value::Value;
use xlet_eval::{Output, eval_top};
use xlet_ir as ir;
use xlet_kernels::strided::stream;

struct Quiet;
impl Output for Quiet {
    fn print(&mut self, _: &Value, _: &ir::Expr) {}
}

/// Evaluates the last expression of `src` with fusion on and off.
fn both(src: &str, expr: &str) -> (Value, Value) {
    let mut s = Session::new(Limits::default());
    s.run(src, &mut Quiet)
        .unwrap_or_else(|f| panic!("{:?}", f.diags));
    let (prog, _) = s.check(expr).unwrap_or_else(|f| panic!("{:?}", f.diags));
    let ir::StmtKind::Print(e) = &prog.stmts[0].kind else {
        panic!("not an expression")
    };
    let fused = eval_top(e, &s.env).unwrap();
    let mut unfused = s.env.clone();
    unfused.config.fuse = false;
    let plain = eval_top(e, &unfused);
    (fused, plain.unwrap())
}

fn bits(v: &Value) -> Vec<u32> {
    v.as_array()
        .unwrap()
        .to_vec::<f32>()
        .iter()
        .map(|x| x.to_bits())
        .collect()
}

#[test]
fn fused_matches_unfused_bit_for_bit() {
    // 300x257 is over the parallel grain; v broadcasts into the fused tree as a leaf.
    let src = "let x = Reshape(ConvertElementType(Iota(s32[77100], 0), f32), {300, 257}) * 0.001\n\
               let v = Reshape(ConvertElementType(Iota(s32[257], 0), f32), {257}) - 100\n";
    let (f, p) = both(
        src,
        "Tanh(x * x - Add(x, v, broadcast_dimensions={1}) / 3) + Neg(x)",
    );
    assert_eq!(f.ty(), p.ty());
    assert_eq!(bits(&f), bits(&p));
    // Transposed leaves take the tiled walk (fused and unfused alike); v is a
    // stride-0 leaf beside them.
    let (f, p) = both(
        src,
        "Tanh(Transpose(Reshape(x, {257, 300}), {1, 0}) * x - Add(x, v, broadcast_dimensions={1}))",
    );
    assert_eq!(bits(&f), bits(&p));
    let plain_store = bits(&p);
    let src3 =
        "let w = Reshape(ConvertElementType(Iota(s32[80000], 0), f32), {40, 50, 40}) * 0.01\n";
    for perm in [
        "{1, 0, 2}",
        "{2, 1, 0}",
        "{0, 2, 1}",
        "{1, 2, 0}",
        "{2, 0, 1}",
    ] {
        let (f, p) = both(
            src3,
            &format!("Neg(Transpose(w, {perm}) * 3 + Transpose(w, {perm}) * Transpose(w, {perm}))"),
        );
        assert_eq!(bits(&f), bits(&p), "{perm}");
    }
    // The streamed tile path (outputs of 16 MiB and more), fused and not.
    stream::ALWAYS.store(true, Ordering::Relaxed);
    let (f, p) = both(
        src,
        "Tanh(Transpose(Reshape(x, {257, 300}), {1, 0}) * x - Add(x, v, broadcast_dimensions={1}))",
    );
    stream::ALWAYS.store(false, Ordering::Relaxed);
    assert_eq!(bits(&f), bits(&p));
    assert_eq!(bits(&f), plain_store);
    let (f, p) = both(src, "Lt(x * 2, x + 1)");
    assert_eq!(
        f.as_array().unwrap().to_vec::<u8>(),
        p.as_array().unwrap().to_vec::<u8>()
    );
}
