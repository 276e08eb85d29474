//! The import conformance runner (spec/import.md §9): one trial per
//! `conformance/import/CASE/CASE.mlir` (JAX-lowered modules with their
//! arguments and jax's results, written by `conformance/import/gen_cases.py`)
//! and one per `conformance/import_ops/*.mlir` (hand-written modules whose
//! `check.*` ops are the assertions).
//!
//! A case module is translated, checked and run in process; each result is
//! compared with `expectedN.npy` by xlet's own assertion (`==`, NaN matching
//! NaN, or `~= within TOL` from `tol.txt`), on values jax computed.

use libtest_mimic::{Arguments, Failed, Trial};
use std::path::{Path, PathBuf};
use xlet::eval::Output;
use xlet::import::{Part, bind_args, locate_failure, results, translate};
use xlet::ir;
use xlet::value::Value;

struct Quiet;

impl Output for Quiet {
    fn print(&mut self, _value: &Value, _expr: &ir::Expr) {}
}

fn main() {
    let args = Arguments::from_args();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("conformance");
    let mut trials = vec![];
    let mut cases: Vec<PathBuf> = std::fs::read_dir(root.join("import"))
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    cases.sort();
    // Cases that need an op the importer refuses today: each must still be
    // refused as unsupported (and is taken off the list once it passes).
    let pending: Vec<String> = std::fs::read_to_string(root.join("import/PENDING.txt"))
        .unwrap_or_default()
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim().to_string())
        .filter(|l| !l.is_empty())
        .collect();
    for dir in cases {
        let name = dir
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("?")
            .to_string();
        if !dir.join("expected0.npy").is_file() {
            continue; // mlp256: arguments only, for the benchmarks.
        }
        for (ext, translated) in [("mlir", false), ("hlo", false), ("mlir", true)] {
            if !dir.join(format!("{name}.{ext}")).is_file() {
                continue;
            }
            let label = if translated {
                format!("{ext}.translated")
            } else {
                ext.to_string()
            };
            let (dir, name) = (dir.clone(), name.clone());
            let pending = pending.contains(&format!("{name}.{ext}"));
            trials.push(Trial::test(
                format!("import/{name}.{label}"),
                move || {
                    match (
                case(&dir, &name, ext, translated),
                pending,
            ) {
                (r, false) => r,
                (Ok(()), true) => Err(format!(
                    "{name}.{ext} now passes: take {name}.{ext} off conformance/import/PENDING.txt"
                )
                .into()),
                (Err(e), true) if e.message().is_some_and(|m| m.contains("[unsupported]")) => {
                    Ok(())
                }
                (Err(e), true) => Err(format!(
                    "{name}.{ext} is pending an op, but failed otherwise: {}",
                    e.message().unwrap_or("")
                )
                .into()),
            }
                },
            ));
        }
    }
    let mut ops: Vec<PathBuf> = std::fs::read_dir(root.join("import_ops"))
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    ops.retain(|p| p.extension().is_some_and(|e| e == "mlir"));
    ops.sort();
    for file in ops {
        let name = file
            .file_stem()
            .and_then(|n| n.to_str())
            .unwrap_or("?")
            .to_string();
        trials.push(Trial::test(format!("import_ops/{name}"), move || {
            checks(&file)
        }));
    }
    trials.push(Trial::test("import_cli/commands", cli));
    libtest_mimic::run(&args, trials).exit();
}

/// The commands as a user runs them: `--out`, `--trace`, `translate`, the
/// replicas a module asks for, and the exit codes of bad input.
fn cli() -> Result<(), Failed> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let xlet = env!("CARGO_BIN_EXE_xlet");
    let case = root.join("conformance/import/mlp");
    let run = |args: &[&str]| -> Result<(i32, String, String), Failed> {
        let o = std::process::Command::new(xlet)
            .args(args)
            .output()
            .map_err(|e| format!("cannot run xlet: {e}"))?;
        Ok((
            o.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        ))
    };
    let p = |f: &str| case.join(f).display().to_string();
    let out = std::env::temp_dir().join(format!("xlet-import-cli-{}", std::process::id()));
    let outs = out.display().to_string();
    let (code, stdout, stderr) = run(&[
        "run",
        &p("mlp.mlir"),
        "--arg",
        &p("arg0.npy"),
        "--arg",
        &p("arg1.npy"),
        "--arg",
        &p("arg2.npy"),
        "--out",
        &outs,
    ])?;
    if code != 0 || !stdout.starts_with("f32[8x16]") || !out.join("result0.npy").is_file() {
        return Err(format!("run --out: exit {code}, stdout {stdout:.80}, stderr {stderr}").into());
    }
    let _ = std::fs::remove_dir_all(&out);
    let (code, stdout, _) = run(&[
        "run",
        "--trace",
        &p("mlp.mlir"),
        "--arg",
        &p("arg0.npy"),
        "--arg",
        &p("arg1.npy"),
        "--arg",
        &p("arg2.npy"),
    ])?;
    if code != 0
        || !stdout
            .lines()
            .any(|l| l.starts_with("line ") && l.contains(" = f32[8x16]"))
    {
        return Err(format!("--trace: exit {code}, stdout {stdout:.300}").into());
    }
    // Inside functions and regions: @closed_call (module lines 40-52 of
    // fori_loop.mlir) runs as the while body's callee, 10 times; its first 3
    // calls are shown, each value with its module line.
    let fl = |f: &str| root.join("conformance/import/fori_loop").join(f);
    let (code, stdout, _) = run(&[
        "run",
        "--trace",
        &fl("fori_loop.mlir").display().to_string(),
        "--arg",
        &fl("arg0.npy").display().to_string(),
        "--arg",
        &fl("arg1.npy").display().to_string(),
    ])?;
    let callee_line = |l: &&str| {
        l.strip_prefix("line ")
            .and_then(|r| r.split_once(" in closed_call (call 3): "))
            .and_then(|(n, _)| n.parse::<usize>().ok())
            .is_some_and(|n| (41..=52).contains(&n))
    };
    if code != 0
        || !stdout.lines().any(|l| callee_line(&l))
        || stdout.contains("(call 4)")
        || !stdout.contains("closed_call: later calls not traced")
    {
        return Err(format!("--trace in a callee: exit {code}, stdout {stdout:.600}").into());
    }
    let (code, stdout, _) = run(&["translate", &p("mlp.mlir")])?;
    if code != 0 || !stdout.contains("LoadNpy(\"arg0.npy\")") || !stdout.contains("DotGeneral(") {
        return Err(format!("translate: exit {code}, stdout {stdout:.300}").into());
    }
    // One argument short; a mistyped argument: exit 2, naming the parameter.
    let (code, _, stderr) = run(&["run", &p("mlp.mlir"), "--arg", &p("arg0.npy")])?;
    if code != 2 || !stderr.contains("takes 3 arguments") {
        return Err(format!("missing --arg: exit {code}, stderr {stderr}").into());
    }
    let (code, _, stderr) = run(&[
        "run",
        &p("mlp.mlir"),
        "--arg",
        &p("arg1.npy"),
        "--arg",
        &p("arg1.npy"),
        "--arg",
        &p("arg2.npy"),
    ])?;
    if code != 2 || !stderr.contains("parameter `arg0`") {
        return Err(format!("mistyped --arg: exit {code}, stderr {stderr}").into());
    }
    // The REPL: `:import` makes the module a comp that runs on bound arrays,
    // an HLO module too; a bad module imports nothing and says where.
    let input = format!(
        ":import {mlp} as m\n:npy x {a0}\n:npy w {a1}\n:npy b {a2}\n\
         then m(x, w, b) ~= LoadNpy(\"{e0}\") within 1e-5\n:import {hlo}\n\
         then mlp(x, w, b) ~= m(x, w, b)\n:type m\n:import /no/such.mlir\n",
        mlp = p("mlp.mlir"),
        hlo = p("mlp.hlo"),
        a0 = p("arg0.npy"),
        a1 = p("arg1.npy"),
        a2 = p("arg2.npy"),
        e0 = p("expected0.npy"),
    );
    let mut child = std::process::Command::new(xlet)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run xlet: {e}"))?;
    if let Some(mut i) = child.stdin.take() {
        use std::io::Write as _;
        i.write_all(input.as_bytes()).map_err(|e| e.to_string())?;
    }
    let o = child.wait_with_output().map_err(|e| e.to_string())?;
    let (so, se) = (
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr),
    );
    let ok = so.contains("comp m(arg0: f32[8x16], arg1: f32[16x16], arg2: f32[16]) -> f32[8x16]")
        && so.contains("comp mlp(")
        && se.contains("/no/such.mlir")
        && !se.contains("does not hold");
    if !ok {
        return Err(format!(":import in the REPL: stdout {so}\nstderr {se}").into());
    }
    // mhlo.num_replicas = 2 runs two replicas.
    let ar = root
        .join("tests/import_cli/all_reduce_replicas.mlir")
        .display()
        .to_string();
    let arg = std::env::temp_dir().join(format!("xlet-import-a4-{}.npy", std::process::id()));
    let a = xlet::value::Value::Array(xlet::value::Array::from_nd(
        ndarray::ArrayD::from_shape_vec(ndarray::IxDyn(&[4]), vec![0f32, 1.0, 2.0, 3.0])
            .map_err(|e| e.to_string())?,
    ));
    if let Value::Array(arr) = &a {
        xlet::npy::write(&arg, arr).map_err(|e| e.to_string())?;
    }
    let (code, stdout, stderr) = run(&["run", &ar, "--arg", &arg.display().to_string()])?;
    let _ = std::fs::remove_file(&arg);
    if code != 0 || !stdout.contains("[replica 1] f32[4] {1, 3, 5, 7}") {
        return Err(format!("replicas: exit {code}, stdout {stdout}, stderr {stderr}").into());
    }
    Ok(())
}

fn read(path: &Path) -> Result<String, Failed> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()).into())
}

fn render(f: &xlet::session::Failure, name: &str, src: &str) -> String {
    f.diags
        .iter()
        .map(|d| xlet::diag::render(d, name, src, false))
        .collect()
}

/// Translates and checks one part, runs it; the session holds its values.
fn run_part(
    part: &Part,
    src: &str,
    name: &str,
    args: &[PathBuf],
) -> Result<xlet::session::Session, Failed> {
    let mut s = xlet::session::Session::default();
    bind_args(&mut s, &part.translation, args)?;
    s.run(&part.text, &mut Quiet)
        .map_err(|f| render(&locate_failure(part, f), name, src))?;
    Ok(s)
}

fn case(dir: &Path, name: &str, ext: &str, translated: bool) -> Result<(), Failed> {
    let file = dir.join(format!("{name}.{ext}"));
    let src = read(&file)?;
    let parts = translate(&src)
        .map_err(|d| xlet::diag::render(&d, &file.display().to_string(), &src, false))?;
    let [part] = parts.as_slice() else {
        return Err("a case module is one program".into());
    };
    let mut args = vec![];
    for i in 0.. {
        let p = dir.join(format!("arg{i}.npy"));
        if !p.is_file() {
            break;
        }
        args.push(p);
    }
    let (mut s, values) = if translated {
        // The program `xlet translate` prints, run as a script: the round trip.
        let text = xlet::import::program_text(name, &parts, &args);
        let mut s = xlet::session::Session::default();
        s.run(&text, &mut Quiet)
            .map_err(|f| render(&f, "translated program", &text))?;
        let values = results(&s, &part.translation);
        (s, values)
    } else {
        let s = run_part(part, &src, &file.display().to_string(), &args)?;
        let values = results(&s, &part.translation);
        (s, values)
    };
    let mut flat = vec![];
    for v in values {
        flatten(v, &mut flat);
    }
    let tol = std::fs::read_to_string(dir.join("tol.txt"))
        .ok()
        .map(|t| t.trim().to_string());
    for (i, v) in flat.into_iter().enumerate() {
        let expected = dir.join(format!("expected{i}.npy"));
        if !expected.is_file() {
            return Err(format!("result {i} has no expected{i}.npy").into());
        }
        let float = v
            .ty()
            .as_array()
            .is_some_and(|a| a.elem.is_float() || a.elem.is_complex());
        let got = format!("got_result_{i}");
        s.types.globals.insert(got.clone(), v.ty());
        s.env.values.insert(got.clone(), v);
        let assertion = match tol.as_ref().filter(|_| float) {
            Some(t) => format!(
                "then {got} ~= LoadNpy({:?}) within {t}",
                expected.display().to_string()
            ),
            None => format!(
                "then {got} == LoadNpy({:?})",
                expected.display().to_string()
            ),
        };
        s.run(&assertion, &mut Quiet)
            .map_err(|f| format!("result {i}: {}", render(&f, "assertion", &assertion)))?;
    }
    Ok(())
}

fn flatten(v: Value, out: &mut Vec<Value>) {
    match v {
        Value::Tuple(vs) => vs.iter().cloned().for_each(|v| flatten(v, out)),
        a => out.push(a),
    }
}

/// A module whose `check.*` ops must all hold (every `// -----` part).
fn checks(file: &Path) -> Result<(), Failed> {
    let src = read(file)?;
    let name = file.display().to_string();
    let parts = translate(&src).map_err(|d| xlet::diag::render(&d, &name, &src, false))?;
    for part in &parts {
        run_part(part, &src, &name, &[])?;
    }
    Ok(())
}
