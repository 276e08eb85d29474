use super::*;
use std::path::PathBuf;

fn cases() -> Vec<(String, PathBuf)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../conformance/import");
    let mut out = vec![];
    for d in std::fs::read_dir(&root).expect("conformance/import") {
        let d = d.expect("dir entry").path();
        let Some(name) = d.file_name().and_then(|n| n.to_str()).map(str::to_string) else {
            continue;
        };
        let f = d.join(format!("{name}.hlo"));
        if f.is_file() {
            out.push((name, f));
        }
    }
    out.sort();
    out
}

fn unsupported(e: &ImportError) -> bool {
    e.0.stage == xlet_core::diag::Stage::Check
}

/// Every case's HLO converts, and the MLIR reader reads the result; the
/// translator takes it or refuses an op it cannot run yet (listed).
#[test]
fn conformance_hlo_converts() {
    let cases = cases();
    assert!(cases.len() >= 30, "found {} .hlo cases", cases.len());
    let dump = std::env::var("XLET_HLO_DUMP").ok();
    let mut translated = 0;
    let mut refused = vec![];
    for (name, f) in &cases {
        let hlo = std::fs::read_to_string(f).expect("read");
        let c = to_mlir(&hlo).unwrap_or_else(|e| panic!("{name}: {}", e.0.message));
        if let Some(d) = &dump {
            std::fs::write(format!("{d}/{name}.mlir"), &c.mlir).expect("dump");
        }
        crate::mlir::module::read(&c.mlir, 0)
            .unwrap_or_else(|e| panic!("{name}: {} at {:?}\n{}", e.0.message, e.0.span, c.mlir));
        match crate::translate_mlir(&c.mlir, 0) {
            Ok(_) => translated += 1,
            Err(e) => {
                let line = c
                    .locate(e.0.span.start)
                    .map(|s| hlo[s].to_string())
                    .unwrap_or_default();
                assert!(
                    unsupported(&e),
                    "{name}: {} at MLIR {:?} (HLO `{line}`)",
                    e.0.message,
                    e.0.span
                );
                refused.push(format!("{name}: {} (HLO `{line}`)", e.0.message));
            }
        }
    }
    eprintln!("{translated} of {} translate; refused:", cases.len());
    for r in &refused {
        eprintln!("  {r}");
    }
}

const SMALL: &str = "HloModule m, entry_computation_layout={(f32[4]{0})->f32[]}

%add.1 (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(f32[] %a, f32[] %b)
}

ENTRY %main.2 (x: f32[4]) -> f32[] {
  %x = f32[4]{0} parameter(0)
  %c = f32[] constant(0)
  %k = f32[2,2]{1,0} constant({ {1, 2}, {nan, -inf} })
  ROOT %r = f32[] reduce(f32[4]{0} %x, f32[] %c), dimensions={0}, to_apply=%add.1, metadata={op_name=\"x\"}
}
";

#[test]
fn old_dialect_and_locate() {
    let c = to_mlir(SMALL).unwrap_or_else(|e| panic!("{}", e.0.message));
    crate::translate_mlir(&c.mlir, 0).unwrap_or_else(|e| panic!("{}\n{}", e.0.message, c.mlir));
    assert!(
        c.mlir.contains("dense<[[1, 2], [nan, -inf]]>"),
        "{}",
        c.mlir
    );
    let at = c.mlir.find("\"stablehlo.reduce\"").expect("reduce");
    let s = c.locate(at).expect("located");
    assert!(SMALL[s].starts_with("ROOT %r = f32[] reduce("));
    let at = c.mlir.find("\"stablehlo.add\"").expect("add");
    let s = c.locate(at).expect("located");
    assert!(SMALL[s].starts_with("ROOT %s = f32[] add("));
}

fn err(hlo: &str) -> ImportError {
    match to_mlir(hlo) {
        Ok(c) => panic!("converted:\n{}", c.mlir),
        Err(e) => e,
    }
}

#[test]
fn refusals() {
    let e = err(
        "HloModule m\nENTRY e {\n  x = f32[] parameter(0)\n  ROOT y = f32[] frobnicate(x)\n}\n",
    );
    assert!(
        unsupported(&e) && e.0.message.contains("frobnicate"),
        "{}",
        e.0.message
    );
    let e = err(
        "HloModule m\nENTRY e {\n  x = f32[] parameter(0)\n  ROOT y = f32[4] broadcast(x), dimensions={}, mystery=1\n}\n",
    );
    assert!(
        unsupported(&e) && e.0.message.contains("mystery"),
        "{}",
        e.0.message
    );
    let e = err("HloModule m\nENTRY e {\n  x = token[] after-all()\n}\n");
    assert!(unsupported(&e), "{}", e.0.message);
    // Unbalanced and truncated text.
    for bad in [
        "HloModule m\nENTRY e {\n  x = f32[] parameter(0)\n",
        "HloModule m\nENTRY e {\n  x = f32[] parameter(0\n}",
        "HloModule m\nENTRY e {\n  x = f32[2]{0} constant({1, 2)\n}\n",
        "HloModule m\nENTRY e {\n  ROOT x = f32[2]{0} broadcast(y), dimensions={0\n}\n",
        "HloModule",
        "",
        "HloModule m\nENTRY e {\n  x = f32[\n",
    ] {
        let e = err(bad);
        assert!(!e.0.message.is_empty());
    }
    // A computation that applies itself.
    let e = err(
        "HloModule m\nr {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT c = f32[] reduce(a, b), dimensions={}, to_apply=r\n}\nENTRY e {\n  x = f32[] parameter(0)\n  ROOT y = f32[] reduce(x, x), dimensions={}, to_apply=r\n}\n",
    );
    assert!(unsupported(&e), "{}", e.0.message);
}

#[test]
fn entry_tuple_flattens_and_while_keeps_its_tuple() {
    let hlo = "HloModule m
cond {
  s = (s32[], f32[2]{0}) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(3)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], f32[2]{0}) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  x = f32[2]{0} get-tuple-element(s), index=1
  one = s32[] constant(1)
  j = s32[] add(i, one)
  y = f32[2]{0} add(x, x)
  ROOT t = (s32[], f32[2]{0}) tuple(j, y)
}
ENTRY e {
  x = f32[2]{0} parameter(0)
  z = s32[] constant(0)
  t = (s32[], f32[2]{0}) tuple(z, x)
  w = (s32[], f32[2]{0}) while(t), condition=cond, body=body
}
";
    let c = to_mlir(hlo).unwrap_or_else(|e| panic!("{}", e.0.message));
    let t = crate::translate_mlir(&c.mlir, 0)
        .unwrap_or_else(|e| panic!("{} at {:?}\n{}", e.0.message, e.0.span, c.mlir));
    assert_eq!(t.results.len(), 2, "{}", c.mlir);
}
