use super::*;
use crate::session::Session;
use xlet_check::Limits;
use xlet_eval::Output;
use xlet_ir as ir;

struct Quiet;
impl Output for Quiet {
    fn print(&mut self, _: &Value, _: &ir::Expr) {}
}

fn scratch(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xlet-feed-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn text_files_hold_typed_literals() {
    let v = text::parse("// two on a line\ns32 7; f32[2] {1, 2}\n(f32[1], pred) ({3}, true)\n")
        .unwrap();
    let tys: Vec<String> = v.iter().map(|(v, _)| v.ty().to_string()).collect();
    assert_eq!(tys, ["s32", "f32[2]", "(f32[1], pred)"]);
    assert_eq!(v.iter().map(|x| x.1).collect::<Vec<_>>(), [2, 2, 3]);
    // Spaces alone between values (the surface contract's example).
    let v = text::parse("f32[2] {1, 2}  s32 7").unwrap();
    let tys: Vec<String> = v.iter().map(|(v, _)| v.ty().to_string()).collect();
    assert_eq!(tys, ["f32[2]", "s32"]);
}

#[test]
fn bad_text_files_say_which_line() {
    let e = text::parse("s32 1\nAdd(s32 1, s32 2)\n").unwrap_err();
    assert!(e.starts_with("2: is not a typed literal"), "{e}");
    let e = text::parse("s32 1\n\nf32[2] {1, 2, 3}\n").unwrap_err();
    assert!(e.starts_with("3: "), "{e}");
    let e = text::parse("s32 1\nf32[2] {1, \n").unwrap_err();
    assert!(e.starts_with("2: ") || e.starts_with("3: "), "{e}");
    let e = text::parse("// nothing\n").unwrap_err();
    assert!(e.contains("holds no value"), "{e}");
    let e = text::parse("let x = s32 1\n").unwrap_err();
    assert!(e.contains("is not a typed literal"), "{e}");
}

fn session(files: &[&PathBuf]) -> Session {
    let mut s = Session::new(Limits::default());
    for f in files {
        s.feeds().add_infeed((*f).clone());
    }
    s
}

#[test]
fn the_queue_runs_across_files_and_inputs() {
    let a = scratch("a.txt", "s32 1\ns32 2\n");
    let b = scratch("b.txt", "s32 3\n");
    let mut s = session(&[&a, &b]);
    s.run("let x = Infeed(s32)\nthen x == 1", &mut Quiet)
        .unwrap();
    // A failing input (its assertion fails after the Infeed ran) takes nothing.
    assert!(
        s.run("let y = Infeed(s32)\nthen y == 99", &mut Quiet)
            .is_err()
    );
    s.run("let y = Infeed(s32)\nthen y == 2", &mut Quiet)
        .unwrap();
    s.run("then Infeed(s32) == 3", &mut Quiet).unwrap();
    let e = s.run("let z = Infeed(s32)", &mut Quiet).unwrap_err();
    let m = &e.diags[0].message;
    assert!(
        m.contains("the infeed is empty") && m.contains("a.txt"),
        "{m}"
    );
}

#[test]
fn a_wrong_type_names_the_file_and_both_types() {
    let a = scratch("w.txt", "s32 1\nf32[2] {1, 2}\n");
    let mut s = session(&[&a]);
    let e = s
        .run("let x = Infeed(s32)\nlet y = Infeed(f32[3])", &mut Quiet)
        .unwrap_err();
    let m = &e.diags[0].message;
    assert!(m.contains("Infeed wants f32[3]"), "{m}");
    assert!(
        m.contains("value 2 of") && m.contains("w.txt, line 2") && m.ends_with("is f32[2]"),
        "{m}"
    );
}

#[test]
fn outfeed_numbers_are_never_reused() {
    let buf = Arc::new(Mutex::new(String::new()));
    let mut s = Session::new(Limits::default());
    s.feeds().set_sink(OutfeedSink::Buffer(buf.clone()));
    s.run("let t = Outfeed(s32 1, s32)", &mut Quiet).unwrap();
    assert!(
        s.run("let t = Outfeed(s32 2, s32)\nthen 1 == 2", &mut Quiet)
            .is_err()
    );
    s.run("let t = Outfeed(f32[2] {1, 2}, f32[2])", &mut Quiet)
        .unwrap();
    let text = buf.lock().unwrap().clone();
    assert_eq!(
        text,
        "outfeed 0: s32 1\noutfeed 1: s32 2\noutfeed 2: f32[2] {1, 2}\n"
    );
}

#[test]
fn outfeed_to_a_directory_writes_numbered_npy_files() {
    let dir = std::env::temp_dir().join(format!("xlet-outfeed-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut s = Session::new(Limits::default());
    s.feeds().set_sink(OutfeedSink::Dir(dir.clone()));
    s.run(
        "let a = Outfeed(s32[2] {5, 6}, s32[2])\nlet b = Outfeed((pred true, bf16 1.5), (pred, bf16))",
        &mut Quiet,
    )
    .unwrap();
    let a = xlet_npy::read(&dir.join("0.npy")).unwrap();
    assert_eq!(a.to_vec::<i64>(), vec![5, 6]);
    assert_eq!(
        xlet_npy::read(&dir.join("1.0.npy"))
            .unwrap()
            .to_vec::<f64>(),
        vec![1.0]
    );
    let b = xlet_npy::read(&dir.join("1.1.npy")).unwrap();
    assert_eq!(b.array_type().to_string(), "bf16");
    assert_eq!(b.to_vec::<f64>(), vec![1.5]);
}

#[test]
fn a_missing_or_directory_infeed_file_is_reported_before_running() {
    let e = check_files(&[PathBuf::from("/no/such/file.npy")]).unwrap_err();
    assert!(e.contains("cannot open"), "{e}");
    let e = check_files(&[std::env::temp_dir()]).unwrap_err();
    assert!(e.contains("is a directory"), "{e}");
}
