//! The CustomCall ABI checked without a C compiler: Rust `extern "C"` targets
//! registered by name, called through whole programs (so the views xlet's own
//! ops make reach the marshalling) and through `marshal::call` directly on
//! hand-made views.

use crate::session::Session;
use ndarray::{ArcArray, IxDyn, s};
use std::ffi::c_void;
use xlet_check::Limits;
use xlet_core::types::{ArrayType, ElemType, Type};
use xlet_core::value::{Array, Value};
use xlet_custom_call::{Libraries, Unresolved, marshal, register};
use xlet_eval::Output;
use xlet_ir as ir;

struct Quiet;
impl Output for Quiet {
    fn print(&mut self, _: &Value, _: &ir::Expr) {}
}

/// out = in[1]'s first `n` bytes, `n` the s64 scalar in[0]: shows exactly
/// the bytes a target receives, for any element type and layout.
unsafe extern "C" fn copy_bytes(out: *mut c_void, ins: *mut *mut c_void) {
    // SAFETY: the CustomCall contract (spec/ops/custom_call.md): `ins` holds a
    // pointer per operand and `out` the result buffer, of the checked types;
    // the tests call this only with an s64 count no larger than both buffers.
    unsafe {
        let n = *(*ins as *const i64) as usize;
        std::ptr::copy_nonoverlapping(*ins.add(1) as *const u8, out as *mut u8, n);
    }
}

/// The seed's example: z[0][0] = x[1] + y[1][0], with x f32[2], y f32[2x3];
/// the rest of z is in[0] then in[1] (argument order, row-major).
unsafe extern "C" fn myfunc(out: *mut c_void, ins: *mut *mut c_void) {
    // SAFETY: the CustomCall contract, with the types the test declares
    // (f32[2], f32[2x3] in; f32[9] out).
    unsafe {
        let x = *ins as *const f32;
        let y = *ins.add(1) as *const f32;
        let z = out as *mut f32;
        *z = *x.add(1) + *y.add(3);
        for i in 0..2 {
            *z.add(1 + i) = *x.add(i);
        }
        for i in 0..6 {
            *z.add(3 + i) = *y.add(i);
        }
    }
}

/// A tuple result (s32[], f64[2]): out is a table of two buffer pointers.
unsafe extern "C" fn pair(out: *mut c_void, _ins: *mut *mut c_void) {
    // SAFETY: a tuple result is a table of its elements' buffers (the
    // CustomCall contract), here s32[] and f64[2].
    unsafe {
        let table = out as *mut *mut c_void;
        *(*table as *mut i32) = 7;
        let v = *table.add(1) as *mut f64;
        *v = 1.5;
        *v.add(1) = 2.5;
    }
}

/// A nested tuple result ((s8[], s32[]), u16[]): nested tables.
unsafe extern "C" fn nested(out: *mut c_void, _ins: *mut *mut c_void) {
    // SAFETY: nested tables for the nested tuple type the test declares.
    unsafe {
        let table = out as *mut *mut c_void;
        let inner = *table as *mut *mut c_void;
        *(*inner as *mut i8) = -3;
        *(*table.add(1) as *mut u16) = 65535;
    }
}

/// Writes nothing: the result shows the buffer's initial contents.
unsafe extern "C" fn noop(_out: *mut c_void, _ins: *mut *mut c_void) {}

/// Writes bytes 0, 1, 2, 255 into a pred[4].
unsafe extern "C" fn odd_preds(out: *mut c_void, _ins: *mut *mut c_void) {
    // SAFETY: the result is a pred[4]: four bytes.
    unsafe {
        for (i, b) in [0u8, 1, 2, 255].into_iter().enumerate() {
            *(out as *mut u8).add(i) = b;
        }
    }
}

fn setup() {
    register("xlet_test_copy_bytes", copy_bytes);
    register("xlet_test_myfunc", myfunc);
    register("xlet_test_pair", pair);
    register("xlet_test_nested", nested);
    register("xlet_test_noop", noop);
    register("xlet_test_odd_preds", odd_preds);
}

/// Runs a program whose assertions must hold (no library named).
fn holds(src: &str) {
    setup();
    let mut s = Session::new(Limits::default());
    if let Err(f) = s.run(src, &mut Quiet) {
        panic!("{src}\n{:?}", f.diags);
    }
}

#[test]
fn seed_example_gets_arguments_in_order_and_row_major() {
    holds(
        "let x = f32[2] {1, 2}\n\
         let y = f32[2x3] {{10, 20, 30}, {40, 50, 60}}\n\
         let z = CustomCall(\"xlet_test_myfunc\", {x, y}, f32[9])\n\
         then z == f32[9] {42, 1, 2, 10, 20, 30, 40, 50, 60}",
    );
}

#[test]
fn views_arrive_materialised_in_row_major_order() {
    // Each argument is a view some op made (transposed, strided slice,
    // reversed, broadcast); the bytes the target sees must be the value's
    // elements in row-major order.
    holds(
        "let y = s32[2x3] {{1, 2, 3}, {4, 5, 6}}\n\
         let t = Transpose(y, {1, 0})\n\
         then CustomCall(\"xlet_test_copy_bytes\", {s64 24, t}, s32[3x2]) == t\n\
         let sl = Slice(y, {0, 0}, {2, 3}, {1, 2})\n\
         then CustomCall(\"xlet_test_copy_bytes\", {s64 16, sl}, s32[2x2]) == s32[2x2] {{1, 3}, {4, 6}}\n\
         let r = Rev(y, {1})\n\
         then CustomCall(\"xlet_test_copy_bytes\", {s64 24, r}, s32[2x3]) == s32[2x3] {{3, 2, 1}, {6, 5, 4}}\n\
         let b = BroadcastInDim(s32[3] {7, 8, 9}, {2, 3}, {1})\n\
         then CustomCall(\"xlet_test_copy_bytes\", {s64 24, b}, s32[2x3]) == s32[2x3] {{7, 8, 9}, {7, 8, 9}}",
    );
}

#[test]
fn element_types_arrive_in_their_own_layout() {
    holds(
        "let a = s8[3] {-1, 2, -128}\n\
         then CustomCall(\"xlet_test_copy_bytes\", {s64 3, a}, s8[3]) == a\n\
         let b = u16[2] {1, 65535}\n\
         then CustomCall(\"xlet_test_copy_bytes\", {s64 4, b}, u16[2]) == b\n\
         let c = f16[2] {0.5, -2}\n\
         then CustomCall(\"xlet_test_copy_bytes\", {s64 4, c}, f16[2]) == c\n\
         let d = bf16[2] {1.5, 3}\n\
         then CustomCall(\"xlet_test_copy_bytes\", {s64 4, d}, bf16[2]) == d\n\
         let e = f64[2] {0.1, 1e300}\n\
         then CustomCall(\"xlet_test_copy_bytes\", {s64 16, e}, f64[2]) == e\n\
         let f = s64[2] {-9000000000, 5}\n\
         then CustomCall(\"xlet_test_copy_bytes\", {s64 16, f}, s64[2]) == f\n\
         let g = pred[3] {true, false, true}\n\
         then CustomCall(\"xlet_test_copy_bytes\", {s64 3, g}, pred[3]) == g\n\
         // the bytes of f32 1.0 (0x3f800000, little-endian) seen as u8\n\
         then CustomCall(\"xlet_test_copy_bytes\", {s64 4, f32[1] {1}}, u8[4]) == u8[4] {0, 0, 128, 63}",
    );
}

#[test]
fn tuple_results_get_a_table_of_buffers() {
    holds(
        "let p = CustomCall(\"xlet_test_pair\", {}, (s32[], f64[2]))\n\
         then GetTupleElement(p, 0) == s32 7\n\
         then GetTupleElement(p, 1) == f64[2] {1.5, 2.5}\n\
         let q = CustomCall(\"xlet_test_nested\", {}, ((s8[], s32[]), u16[]))\n\
         then GetTupleElement(GetTupleElement(q, 0), 0) == s8 -3\n\
         then GetTupleElement(q, 1) == u16 65535",
    );
}

#[test]
fn the_result_starts_zeroed_and_preds_read_any_nonzero_byte_as_true() {
    holds(
        "then CustomCall(\"xlet_test_noop\", {}, f32[4]) == f32[4] {0, 0, 0, 0}\n\
         then CustomCall(\"xlet_test_noop\", {1.0}, pred[2]) == pred[2] {false, false}\n\
         then CustomCall(\"xlet_test_odd_preds\", {}, pred[4]) == pred[4] {false, true, true, true}",
    );
}

#[test]
fn marshal_materialises_hand_made_views() {
    setup();
    let base = ArcArray::from_shape_vec(IxDyn(&[2, 3]), vec![1.0f32, 2., 3., 4., 5., 6.]).unwrap();
    let t = base.clone().reversed_axes();
    let sl = base.clone().slice_move(s![.., ..;2]).into_dyn();
    for (view, want) in [
        (t, vec![1.0f32, 4., 2., 5., 3., 6.]),
        (sl, vec![1.0f32, 3., 4., 6.]),
    ] {
        assert!(
            !view.is_standard_layout(),
            "the test needs a non-standard view"
        );
        let n = view.len();
        let shape = view.shape().to_vec();
        let bytes = Value::Array(Array::S64(ArcArray::from_elem(IxDyn(&[]), 4 * n as i64)));
        let out = marshal::call(
            "copy_bytes",
            copy_bytes,
            &[bytes, Value::Array(Array::F32(view))],
            &Type::Array(ArrayType::new(ElemType::F32, shape)),
        )
        .unwrap();
        assert_eq!(out.as_array().unwrap().to_vec::<f32>(), want);
    }
}

#[test]
fn without_a_library_native_names_are_a_check_error() {
    setup();
    let s = Session::new(Limits::default());
    let f = s
        .check("let z = CustomCall(\"not_registered_anywhere\", {1.0}, f32[2])")
        .expect_err("a check error");
    let d = &f.diags[0];
    assert_eq!(d.code.to_string(), "CustomCall: C2");
    let help = format!("{:?}", d);
    assert!(help.contains("--custom-call-lib"), "{help}");
    assert!(help.contains(":lib"), "{help}");
    // Registered targets need no library.
    assert_eq!(
        Libraries::default().resolve("xlet_test_noop").err(),
        None::<Unresolved>
    );
    assert_eq!(
        Libraries::default()
            .resolve("not_registered_anywhere")
            .err(),
        Some(Unresolved::NoLibrary)
    );
}

#[test]
fn loading_tells_a_missing_file_from_a_non_library() {
    let e = Libraries::load_all(&["/nonexistent/libx.so".into()]).unwrap_err();
    assert!(e.0.contains("no such file"), "{e}");
    let e = Libraries::load_all(&["Cargo.toml".into()]).unwrap_err();
    assert!(e.0.contains("could not be loaded"), "{e}");
    let e = Libraries::load_all(&["src".into()]).unwrap_err();
    assert!(e.0.contains("not a file"), "{e}");
}
