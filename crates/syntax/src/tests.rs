use super::*;
use crate::ast::*;

// ---- a compact rendering of the tree, so that tests read like the source ----

fn ty(t: &TypeExpr) -> String {
    match &t.kind {
        TypeExprKind::Array { elem, dims: None } => elem.name().to_string(),
        TypeExprKind::Array {
            elem,
            dims: Some(d),
        } => {
            let d: Vec<String> = d.iter().map(|x| x.to_string()).collect();
            format!("{}[{}]", elem.name(), d.join("x"))
        }
        TypeExprKind::Tuple(ts) => {
            let ts: Vec<String> = ts.iter().map(ty).collect();
            format!("({})", ts.join(" "))
        }
    }
}

fn ex(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Number(n) => {
            if n.is_integer {
                n.text.clone()
            } else {
                format!("~{}", n.text)
            }
        }
        ExprKind::Bool(b) => b.to_string(),
        ExprKind::Str(s) => format!("{s:?}"),
        ExprKind::Brace(items) => {
            let items: Vec<String> = items.iter().map(ex).collect();
            format!("{{{}}}", items.join(" "))
        }
        // Rendered as the `Brace` it stands for, so that both read the same.
        ExprKind::Numbers(run) => {
            let items: Vec<String> = run
                .iter()
                .map(|n| {
                    let num = if n.is_integer {
                        n.text.to_string()
                    } else {
                        format!("~{}", n.text)
                    };
                    if n.negative {
                        format!("(Neg {num})")
                    } else {
                        num
                    }
                })
                .collect();
            format!("{{{}}}", items.join(" "))
        }
        ExprKind::Typed { ty: t, value } => format!("<{} {}>", ty(t), ex(value)),
        ExprKind::Type(t) => format!("<{}>", ty(t)),
        ExprKind::Var(v) => v.clone(),
        ExprKind::Call { callee, args } => {
            let mut s = format!("{}(", callee.name);
            let args: Vec<String> = args
                .iter()
                .map(|a| match &a.name {
                    Some(n) => format!("{}={}", n.name, ex(&a.value)),
                    None => ex(&a.value),
                })
                .collect();
            s += &args.join(" ");
            s + ")"
        }
        ExprKind::Tuple(items) => {
            let items: Vec<String> = items.iter().map(ex).collect();
            format!("(tuple {})", items.join(" ")).replace("(tuple )", "(tuple)")
        }
        ExprKind::Unary { op, operand } => format!("({} {})", op.op_name(), ex(operand)),
        ExprKind::Binary { op, lhs, rhs } => format!("({} {} {})", op.op_name(), ex(lhs), ex(rhs)),
    }
}

fn binding(b: &Binding) -> String {
    match &b.ty {
        Some(t) => format!("let {}: {} = {}", b.name.name, ty(t), ex(&b.value)),
        None => format!("let {} = {}", b.name.name, ex(&b.value)),
    }
}

fn stmt(s: &Stmt) -> String {
    match &s.kind {
        StmtKind::Let(b) => binding(b),
        StmtKind::Comp(c) => {
            let params: Vec<String> = c
                .params
                .iter()
                .map(|(p, t)| format!("{}: {}", p.name, ty(t)))
                .collect();
            let body: Vec<String> = c.body.iter().map(binding).collect();
            let mut inner = body.join("; ");
            if !inner.is_empty() {
                inner += "; ";
            }
            format!(
                "comp {}({}) -> {} {{ {}{} }}",
                c.name.name,
                params.join(", "),
                ty(&c.ret),
                inner,
                ex(&c.result)
            )
        }
        StmtKind::Assert(Assertion::Equal { actual, expected }) => {
            format!("equal {} {}", ex(actual), ex(expected))
        }
        StmtKind::Assert(Assertion::Close {
            actual,
            expected,
            tol,
        }) => match tol {
            Some(t) => format!("close {} {} within {}", ex(actual), ex(expected), ex(t)),
            None => format!("close {} {}", ex(actual), ex(expected)),
        },
        StmtKind::Assert(Assertion::Holds(e)) => format!("holds {}", ex(e)),
        StmtKind::Expr(e) => format!("expr {}", ex(e)),
    }
}

fn ok(src: &str) -> Vec<String> {
    match parse(src) {
        Ok(p) => p.stmts.iter().map(stmt).collect(),
        Err(errs) => panic!(
            "unexpected errors for {src:?}:\n{}",
            errs.iter()
                .map(|d| format!("  {:?} {}\n", d.span, d.message))
                .collect::<String>()
        ),
    }
}

fn one(src: &str) -> String {
    let v = ok(src);
    assert_eq!(v.len(), 1, "expected one statement in {src:?}, got {v:?}");
    v[0].clone()
}

fn e(src: &str) -> String {
    match parse_expr(src) {
        Ok(e) => ex(&e),
        Err(errs) => panic!(
            "unexpected errors for {src:?}: {:?}",
            errs.iter().map(|d| &d.message).collect::<Vec<_>>()
        ),
    }
}

fn errs(src: &str) -> Vec<Diag> {
    match parse(src) {
        Ok(p) => panic!(
            "expected errors for {src:?}, parsed {:?}",
            p.stmts.iter().map(stmt).collect::<Vec<_>>()
        ),
        Err(errs) => errs,
    }
}

/// The errors as `(source text under the span, message)`.
fn err_list(src: &str) -> Vec<(String, String)> {
    errs(src)
        .into_iter()
        .map(|d| {
            (
                src.get(d.span.clone()).unwrap_or("<bad span>").to_string(),
                d.message,
            )
        })
        .collect()
}

// ---- the docs' examples, verbatim ----

#[test]
fn doc_clamp() {
    let src = "let operand: s32[3] = {-1, 5, 9};
let min: s32 = 0;
let max: s32 = 6;
==>
Clamp(min, operand, max) = s32[3]{0, 5, 6};
";
    assert_eq!(
        ok(src),
        vec![
            "let operand: s32[3] = {(Neg 1) 5 9}",
            "let min: s32 = 0",
            "let max: s32 = 6",
            "equal Clamp(min operand max) <s32[3] {0 5 6}>",
        ]
    );
}

#[test]
fn doc_select() {
    let src = "let pred: PRED[4] = {true, false, false, true};
let v1: s32[4] = {1, 2, 3, 4};
let v2: s32[4] = {100, 200, 300, 400};
==>
Select(pred, v1, v2) = s32[4]{1, 200, 300, 4};

let pred: PRED = true;
";
    let v = ok(src);
    assert_eq!(v[0], "let pred: pred[4] = {true false false true}");
    // `pred` the binding reads back as the bare type `pred`; the checker resolves it.
    assert_eq!(v[3], "equal Select(<pred> v1 v2) <s32[4] {1 200 300 4}>");
    assert_eq!(v[4], "let pred: pred = true");
}

#[test]
fn doc_concat() {
    let src = "let a = {
  {1, 2},
  {3, 4},
  {5, 6},
};
let b = {
  {7, 8},
};
Concat({a, b}, 0)
>>> {
  {1, 2},
  {3, 4},
  {5, 6},
  {7, 8},
}";
    assert_eq!(
        ok(src),
        vec![
            "let a = {{1 2} {3 4} {5 6}}",
            "let b = {{7 8}}",
            "equal Concat({a b} 0) {{1 2} {3 4} {5 6} {7 8}}",
        ]
    );
    assert_eq!(
        one("Concat({{2, 3}, {4, 5}, {6, 7}}, 0)\n>>> {2, 3, 4, 5, 6, 7}\n"),
        "equal Concat({{2 3} {4 5} {6 7}} 0) {2 3 4 5 6 7}"
    );
}

#[test]
fn doc_dynamic_slice() {
    let src = "let a = {0.0, 1.0, 2.0, 3.0, 4.0}
let s = {2}

DynamicSlice(a, s, {2}) produces:
  {2.0, 3.0}

let b =
 { {0.0,  1.0,  2.0},
   {3.0,  4.0,  5.0},
   {6.0,  7.0,  8.0},
   {9.0, 10.0, 11.0} }
let s = {2, 1}

DynamicSlice(b, s, {2, 2}) produces:
  { { 7.0,  8.0},
    {10.0, 11.0} }
";
    assert_eq!(
        ok(src),
        vec![
            "let a = {~0.0 ~1.0 ~2.0 ~3.0 ~4.0}",
            "let s = {2}",
            "equal DynamicSlice(a s {2}) {~2.0 ~3.0}",
            "let b = {{~0.0 ~1.0 ~2.0} {~3.0 ~4.0 ~5.0} {~6.0 ~7.0 ~8.0} {~9.0 ~10.0 ~11.0}}",
            "let s = {2 1}",
            "equal DynamicSlice(b s {2 2}) {{~7.0 ~8.0} {~10.0 ~11.0}}",
        ]
    );
}

#[test]
fn doc_collapse() {
    let src = "let v = f32[4x2x3] {{{10, 11, 12},  {15, 16, 17}},
                    {{20, 21, 22},  {25, 26, 27}},
                    {{30, 31, 32},  {35, 36, 37}},
                    {{40, 41, 42},  {45, 46, 47}}};

// 折叠至一个维度,即只留下一个维度
let v012 = Collapse(v, {0,1,2});
then v012 == f32[24] {10, 11, 12, 15, 16, 17,
                      20, 21, 22, 25, 26, 27,
                      30, 31, 32, 35, 36, 37,
                      40, 41, 42, 45, 46, 47};

let v12 = Collapse(v, {1,2});
then v12 == f32[8x3] {{10, 11, 12},
                      {15, 16, 17},
                      {20, 21, 22},
                      {25, 26, 27},
                      {30, 31, 32},
                      {35, 36, 37},
                      {40, 41, 42},
                      {45, 46, 47}};
";
    let v = ok(src);
    assert_eq!(v.len(), 5);
    assert!(
        v[0].starts_with("let v = <f32[4x2x3] {{{10 11 12} {15 16 17}} {{20 21 22}"),
        "{}",
        v[0]
    );
    assert_eq!(v[1], "let v012 = Collapse(v {0 1 2})");
    assert!(
        v[2].starts_with("equal v012 <f32[24] {10 11 12 15 16 17 20"),
        "{}",
        v[2]
    );
    assert!(
        v[4].starts_with("equal v12 <f32[8x3] {{10 11 12} {15 16 17}"),
        "{}",
        v[4]
    );
}

#[test]
fn doc_tuple_and_reshape_and_convert() {
    let src = "let v: f32[10] = f32[10]{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
let s: s32 = 5;
let t: (f32[10], s32) = tuple(v, s);
let element_1: s32 = gettupleelement(t, 1);  // 推断出的形状匹配 s32.
Reshape(5, {}, {1,1}) == f32[1x1] {{5}};
let a: s32[3] = {0, 1, 2};
let b: f32[3] = convert(a, f32);
then b == f32[3]{0.0, 1.0, 2.0}
let x = f32[2] {1,2};
let y = f32[2x3] {{10, 20, 30}, {40, 50, 60}};

CustomCall(\"myfunc\", {x, y}, f32[3x3])
";
    assert_eq!(
        ok(src),
        vec![
            "let v: f32[10] = <f32[10] {0 1 2 3 4 5 6 7 8 9}>",
            "let s: s32 = 5",
            "let t: (f32[10] s32) = tuple(v s)",
            "let element_1: s32 = gettupleelement(t 1)",
            "expr (Eq Reshape(5 {} {1 1}) <f32[1x1] {{5}}>)",
            "let a: s32[3] = {0 1 2}",
            "let b: f32[3] = convert(a <f32>)",
            "equal b <f32[3] {~0.0 ~1.0 ~2.0}>",
            "let x = <f32[2] {1 2}>",
            "let y = <f32[2x3] {{10 20 30} {40 50 60}}>",
            "expr CustomCall(\"myfunc\" {x y} <f32[3x3]>)",
        ]
    );
}

// ---- literals ----

#[test]
fn numbers() {
    assert_eq!(e("5"), "5");
    assert_eq!(e("2.5"), "~2.5");
    assert_eq!(e("1e-3"), "~1e-3");
    assert_eq!(e("1.5E+10"), "~1.5E+10");
    assert_eq!(e("5."), "~5.");
    assert_eq!(e("inf"), "~inf");
    assert_eq!(e("nan"), "~nan");
    assert_eq!(e("-inf"), "(Neg ~inf)");
    assert_eq!(e("-1"), "(Neg 1)");
    assert_eq!(e("18446744073709551615"), "18446744073709551615");
    assert_eq!(e("true"), "true");
    assert_eq!(e("false"), "false");
    assert_eq!(e(r#""a\"b\\c""#), r#""a\"b\\c""#);
    match parse_expr("1e5").map(|e| e.kind) {
        Ok(ExprKind::Number(n)) => assert_eq!(
            n,
            NumLit {
                text: "1e5".into(),
                is_integer: false
            }
        ),
        other => panic!("{other:?}"),
    }
}

#[test]
fn braces() {
    assert_eq!(e("{}"), "{}");
    assert_eq!(e("{1, 2,}"), "{1 2}");
    assert_eq!(e("{{1, 2}, {3, 4}}"), "{{1 2} {3 4}}");
    assert_eq!(e("{{}, {}}"), "{{} {}}");
    assert_eq!(e("{a, b}"), "{a b}");
}

#[test]
fn typed_literals() {
    assert_eq!(
        e("f32[2x3] {{1, 2, 3}, {4, 5, 6}}"),
        "<f32[2x3] {{1 2 3} {4 5 6}}>"
    );
    assert_eq!(e("PRED[4] {true, false}"), "<pred[4] {true false}>");
    assert_eq!(e("s32[3]{0, 5, 6}"), "<s32[3] {0 5 6}>");
    assert_eq!(e("s64 5"), "<s64 5>");
    assert_eq!(e("f32 2.5"), "<f32 ~2.5>");
    assert_eq!(e("f32[] 2.5"), "<f32[] ~2.5>");
    assert_eq!(e("pred true"), "<pred true>");
    assert_eq!(e("s32 -1"), "<s32 (Neg 1)>");
    assert_eq!(e("f32 -inf"), "<f32 (Neg ~inf)>");
    assert_eq!(e("f32 nan"), "<f32 ~nan>");
    assert_eq!(e("f32[0] {}"), "<f32[0] {}>");
    assert_eq!(e("f32[2x0] {{}, {}}"), "<f32[2x0] {{} {}}>");
    assert_eq!(e("f32[4,2,3] {}"), "<f32[4x2x3] {}>");
    assert_eq!(e("bf16[2] {1, 2} + f16 1"), "(Add <bf16[2] {1 2}> <f16 1>)");
    // Types alone.
    assert_eq!(e("convert(a, f32)"), "convert(a <f32>)");
    assert_eq!(e("Iota(s32[4x8], 1)"), "Iota(<s32[4x8]> 1)");
    assert_eq!(
        e("DotGeneral(a, b, preferred_element_type=f32)"),
        "DotGeneral(a b preferred_element_type=<f32>)"
    );
    assert_eq!(e("f32[]"), "<f32[]>");
    assert_eq!(e("f32 - 1"), "(Sub <f32> 1)");
    assert_eq!(e("f32 -1"), "<f32 (Neg 1)>");
    match parse_expr("f32[]").map(|e| e.kind) {
        Ok(ExprKind::Type(t)) => assert_eq!(
            t.kind,
            TypeExprKind::Array {
                elem: xlet_core::types::ElemType::F32,
                dims: Some(vec![])
            }
        ),
        other => panic!("{other:?}"),
    }
}

#[test]
fn types_in_annotations() {
    assert_eq!(one("let x: f32 = 1"), "let x: f32 = 1");
    assert_eq!(one("let x: f32[] = 1"), "let x: f32[] = 1");
    assert_eq!(one("let x: f32[4x2x3] = y"), "let x: f32[4x2x3] = y");
    assert_eq!(one("let x: f32[4,2,3] = y"), "let x: f32[4x2x3] = y");
    assert_eq!(one("let x: f32[4] = y"), "let x: f32[4] = y");
    assert_eq!(one("let x: u64[1,] = y"), "let x: u64[1] = y");
    assert_eq!(one("let x: (f32[10], s32) = y"), "let x: (f32[10] s32) = y");
    assert_eq!(one("let x: (f32[2],) = y"), "let x: (f32[2]) = y");
    assert_eq!(one("let x: () = y"), "let x: () = y");
    assert_eq!(
        one("let x: ((s8, u8), pred) = y"),
        "let x: ((s8 u8) pred) = y"
    );
    for t in [
        "pred", "PRED", "s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64", "f16", "bf16", "f32",
        "f64",
    ] {
        ok(&format!("let x: {t}[2] = {t}[2] {{1, 2}}"));
    }
}

// ---- calls, tuples, operators ----

#[test]
fn calls() {
    assert_eq!(e("f()"), "f()");
    assert_eq!(e("f(1, 2,)"), "f(1 2)");
    assert_eq!(
        e("Add(x, v, broadcast_dimensions={1})"),
        "Add(x v broadcast_dimensions={1})"
    );
    assert_eq!(
        e("Sort({keys, values}, comparator=lt, dimension=0, is_stable=true)"),
        "Sort({keys values} comparator=lt dimension=0 is_stable=true)"
    );
    assert_eq!(e("f(a=1, 2)"), "f(a=1 2)");
    assert_eq!(
        e(r#"Conv(l, r, dimension_numbers="b01f_01io->b01f", x == y)"#),
        r#"Conv(l r dimension_numbers="b01f_01io->b01f" (Eq x y))"#
    );
    assert_eq!(
        e("ReduceWindow(x, init, max, window_dimensions={2, 3}, padding=VALID)"),
        "ReduceWindow(x init max window_dimensions={2 3} padding=VALID)"
    );
    assert_eq!(e("f(g(h(1)))"), "f(g(h(1)))");
    assert_eq!(e("Add (1, 2)"), "Add(1 2)");
}

#[test]
fn tuples_and_parens() {
    assert_eq!(e("(a, b)"), "(tuple a b)");
    assert_eq!(e("(a,)"), "(tuple a)");
    assert_eq!(e("(a)"), "a");
    assert_eq!(e("()"), "(tuple)");
    assert_eq!(e("((a, b), c)"), "(tuple (tuple a b) c)");
    let x = parse_expr(" (a) ").unwrap();
    assert_eq!(x.span, 1..4);
}

#[test]
fn precedence() {
    assert_eq!(e("1 + 2 * 3"), "(Add 1 (Mul 2 3))");
    assert_eq!(e("1 * 2 + 3"), "(Add (Mul 1 2) 3)");
    assert_eq!(e("1 - 2 - 3"), "(Sub (Sub 1 2) 3)");
    assert_eq!(e("8 / 4 / 2 % 3"), "(Rem (Div (Div 8 4) 2) 3)");
    assert_eq!(e("a || b && c"), "(Or a (And b c))");
    assert_eq!(e("a && b || c"), "(Or (And a b) c)");
    assert_eq!(e("a == b && c != d"), "(And (Eq a b) (Ne c d))");
    assert_eq!(e("a + 1 < b * 2"), "(Lt (Add a 1) (Mul b 2))");
    assert_eq!(e("a <= b"), "(Le a b)");
    assert_eq!(e("a > b"), "(Gt a b)");
    assert_eq!(e("a >= b"), "(Ge a b)");
    assert_eq!(e("-a * b"), "(Mul (Neg a) b)");
    assert_eq!(e("-f(x)"), "(Neg f(x))");
    assert_eq!(e("!a && b"), "(And (Not a) b)");
    assert_eq!(e("--a"), "(Neg (Neg a))");
    assert_eq!(e("a - -1"), "(Sub a (Neg 1))");
    assert_eq!(e("(1 + 2) * 3"), "(Mul (Add 1 2) 3)");
    assert_eq!(e("x*-y"), "(Mul x (Neg y))");
}

#[test]
fn spans() {
    let src = "let abc = f(x, 1 + 2)";
    let p = parse(src).unwrap();
    let s = &p.stmts[0];
    assert_eq!(s.span, 0..src.len());
    let StmtKind::Let(b) = &s.kind else { panic!() };
    assert_eq!(&src[b.name.span.clone()], "abc");
    assert_eq!(&src[b.value.span.clone()], "f(x, 1 + 2)");
    let ExprKind::Call { callee, args } = &b.value.kind else {
        panic!()
    };
    assert_eq!(&src[callee.span.clone()], "f");
    assert_eq!(&src[args[1].value.span.clone()], "1 + 2");

    let src = "let t: (f32[10], s32) = s64[2] {1, 2};  // c";
    let p = parse(src).unwrap();
    let StmtKind::Let(b) = &p.stmts[0].kind else {
        panic!()
    };
    assert_eq!(&src[b.ty.as_ref().unwrap().span.clone()], "(f32[10], s32)");
    assert_eq!(&src[b.value.span.clone()], "s64[2] {1, 2}");
    let ExprKind::Typed { ty, value } = &b.value.kind else {
        panic!()
    };
    assert_eq!(&src[ty.span.clone()], "s64[2]");
    assert_eq!(&src[value.span.clone()], "{1, 2}");
    assert_eq!(p.stmts[0].span, 0..37);

    let src = "==>\nf(x) = 1";
    let p = parse(src).unwrap();
    assert_eq!(p.stmts[0].span, 0..src.len());
}

// ---- statements ----

#[test]
fn then_forms() {
    assert_eq!(one("then a == b"), "equal a b");
    assert_eq!(one("then a + 1 == b * 2"), "equal (Add a 1) (Mul b 2)");
    assert_eq!(one("then (a) == (b)"), "equal a b");
    assert_eq!(one("then (a == b)"), "holds (Eq a b)");
    // The assertion's `==` binds loosest of all (surface.md).
    assert_eq!(one("then a == b && c"), "equal a (And b c)");
    assert_eq!(one("then p && q == r"), "equal (And p q) r");
    assert_eq!(one("then p || q == r"), "equal (Or p q) r");
    assert_eq!(one("then a < b == c"), "equal (Lt a b) c");
    assert_eq!(one("then p && (q == r)"), "holds (And p (Eq q r))");
    assert_eq!(one("then a != b"), "holds (Ne a b)");
    assert_eq!(one("then f(a == b) == c"), "equal f((Eq a b)) c");
    assert_eq!(one("then a < b"), "holds (Lt a b)");
    assert_eq!(one("then ok"), "holds ok");
    assert_eq!(one("then a ~= b"), "close a b");
    assert_eq!(one("then a ~= b within 1e-3"), "close a b within ~1e-3");
    assert_eq!(
        one("then a + b ~= f32[2] {1, 2} within 0.5"),
        "close (Add a b) <f32[2] {1 2}> within ~0.5"
    );
    assert_eq!(one("then x\n  ~= y\n  within 2"), "close x y within 2");
}

#[test]
fn doc_forms() {
    assert_eq!(one("f(x) produces: {1}"), "equal f(x) {1}");
    assert_eq!(one("f(x) produces : {1}"), "equal f(x) {1}");
    assert_eq!(one("f(x)\nproduces:\n{1}"), "equal f(x) {1}");
    assert_eq!(one("f(x) >>> {1}"), "equal f(x) {1}");
    assert_eq!(one("==> f(x) = {1}"), "equal f(x) {1}");
    assert_eq!(one("==>\nf(x) = {1}"), "equal f(x) {1}");
    assert_eq!(one("==>\nf(x)\n= {1}"), "equal f(x) {1}");
    // `produces` without a colon is a plain name.
    assert_eq!(one("let produces = 1"), "let produces = 1");
    // `==>` needs no separator before it.
    assert_eq!(ok("let a = 1 ==> a = 1"), vec!["let a = 1", "equal a 1"]);
}

#[test]
fn separators_and_comments() {
    assert_eq!(ok(""), Vec::<String>::new());
    assert_eq!(
        ok("\n\n;;\n  // only a comment\n/* and\nanother */"),
        Vec::<String>::new()
    );
    assert_eq!(ok("let a = 1; let b = 2;"), vec!["let a = 1", "let b = 2"]);
    assert_eq!(ok("let a = 1;; let b = 2"), vec!["let a = 1", "let b = 2"]);
    assert_eq!(
        ok("let a = 1\n\n\nlet b = 2\n"),
        vec!["let a = 1", "let b = 2"]
    );
    assert_eq!(
        ok("let a = 1 // x\nlet b = 2"),
        vec!["let a = 1", "let b = 2"]
    );
    assert_eq!(
        ok("let a = /* inline */ 1 /* multi\nline */ let b = 2"),
        vec!["let a = 1", "let b = 2"]
    );
    assert_eq!(ok("a\nb"), vec!["expr a", "expr b"]);
    assert_eq!(
        ok("let a = 1\r\nlet b = 2\r\n"),
        vec!["let a = 1", "let b = 2"]
    );
}

#[test]
fn newline_rules() {
    // After a continuation token.
    assert_eq!(one("let a =\n 1"), "let a = 1");
    assert_eq!(one("let a = 1 +\n 2"), "let a = (Add 1 2)");
    assert_eq!(one("let a = x &&\n y"), "let a = (And x y)");
    assert_eq!(one("let a:\n f32 = 1"), "let a: f32 = 1");
    assert_eq!(one("let\na = 1"), "let a = 1");
    assert_eq!(one("then\n a"), "holds a");
    // Inside brackets.
    assert_eq!(one("let a = f(1,\n 2\n)"), "let a = f(1 2)");
    assert_eq!(one("let a = (1\n + 2)"), "let a = (Add 1 2)");
    assert_eq!(
        one("let a: f32[\n2] = {\n1,\n2\n}"),
        "let a: f32[2] = {1 2}"
    );
    // Before a token no statement starts with.
    assert_eq!(one("let a = 1\n + 2"), "let a = (Add 1 2)");
    assert_eq!(one("let a = x\n == y"), "let a = (Eq x y)");
    // A typed literal's braces on the line after its type.
    assert_eq!(
        one("let v = f32[2x2]\n  {{1, 2}, {3, 4}}"),
        "let v = <f32[2x2] {{1 2} {3 4}}>"
    );
    // But `-` may start a statement.
    assert_eq!(ok("let a = 1\n-2"), vec!["let a = 1", "expr (Neg 2)"]);
}

#[test]
fn comps() {
    assert_eq!(one("comp f() -> f32 { 1 }"), "comp f() -> f32 { 1 }");
    assert_eq!(
        one("comp add2(a: f32, b: f32) -> f32 { a + b }"),
        "comp add2(a: f32, b: f32) -> f32 { (Add a b) }"
    );
    let src = "comp body(t: (s32, f32[2]),) -> (s32, f32[2]) {
  let i = GetTupleElement(t, 0)
  let v: f32[2] = GetTupleElement(t, 1);
  let w = v *
     2

  (i + 1, f(w,
            v))
}
let x = 1";
    assert_eq!(
        ok(src),
        vec![
            "comp body(t: (s32 f32[2])) -> (s32 f32[2]) { let i = GetTupleElement(t 0); let v: f32[2] = GetTupleElement(t 1); let w = (Mul v 2); (tuple (Add i 1) f(w v)) }",
            "let x = 1",
        ]
    );
    // The body's brace on the next line, and a one-line body with `;`.
    assert_eq!(
        one("comp lt(a: f32, b: f32) -> pred\n{\n  Lt(a, b)\n}"),
        "comp lt(a: f32, b: f32) -> pred { Lt(a b) }"
    );
    assert_eq!(
        one("comp g(x: s32) -> s32 { let y = x * 2; y + 1; }"),
        "comp g(x: s32) -> s32 { let y = (Mul x 2); (Add y 1) }"
    );
    assert_eq!(
        ok("comp c(x: f32) -> f32 { x }; comp d(x: f32) -> f32 { {x} }\nc(1)"),
        vec![
            "comp c(x: f32) -> f32 { x }",
            "comp d(x: f32) -> f32 { {x} }",
            "expr c(1)"
        ]
    );
}

// ---- errors ----

#[test]
fn several_errors_in_one_run() {
    let src = "let a = ;\nlet b = (1, ;\nlet c = 3";
    let v = err_list(src);
    assert_eq!(
        v,
        vec![
            (
                ";".to_string(),
                "found ';' but expected an expression".to_string()
            ),
            (
                ";".to_string(),
                "found ';' but expected an expression or ')'".to_string()
            ),
        ]
    );
    let d = errs(src);
    assert_eq!(d[0].span, 8..9);
    assert_eq!(d[1].span, 22..23);
    assert_eq!(d[1].secondary[0].0, 18..19);
    assert!(!d[0].label.is_empty());
    assert!(d.iter().all(|d| d.stage == xlet_core::diag::Stage::Syntax));

    // Without the `;` the `let` on the next line still resynchronises.
    let src = "let b = (1,\nlet c = 3 +\nlet d = )";
    let v = err_list(src);
    assert_eq!(v.len(), 3, "{v:?}");
    assert_eq!(
        v[0],
        (
            "let".to_string(),
            "found 'let' but expected an expression or ')'".to_string()
        )
    );
    assert_eq!(
        v[1],
        (
            "let".to_string(),
            "found 'let' but expected an expression".to_string()
        )
    );
    assert_eq!(
        v[2],
        (
            ")".to_string(),
            "found ')' but expected an expression".to_string()
        )
    );
}

#[test]
fn error_messages() {
    assert_eq!(
        err_list("f(1 }"),
        vec![(
            "}".to_string(),
            "found '}' but expected ',' or ')'".to_string()
        )]
    );
    assert_eq!(
        err_list("let x = 1 2"),
        vec![(
            "2".to_string(),
            "found '2' but expected an operator, ';' or a new line".to_string()
        )]
    );
    assert_eq!(
        err_list("let = 1"),
        vec![(
            "=".to_string(),
            "found '=' but expected a name after 'let'".to_string()
        )]
    );
    assert_eq!(
        err_list("let x f32 = 1"),
        vec![(
            "f32".to_string(),
            "found 'f32' but expected ':' or '='".to_string()
        )]
    );
    assert_eq!(
        err_list("let x: float = 1"),
        vec![(
            "float".to_string(),
            "found 'float' but expected a type such as 'f32', 'f32[2x3]' or '(f32, s32)'"
                .to_string()
        )]
    );
    assert_eq!(
        err_list("}"),
        vec![(
            "}".to_string(),
            "found '}' but expected a statement ('let', 'comp', 'then' or an expression)"
                .to_string()
        )]
    );
    assert_eq!(
        err_list("let x = \"abc\" \"d"),
        vec![(
            "\"d".to_string(),
            "found a string that is never closed but expected '\"' before the end of the line"
                .to_string()
        )]
    );
    let d = errs("then a = b");
    assert!(
        d[0].help.as_deref().unwrap_or("").contains("=="),
        "{:?}",
        d[0]
    );
    let d = errs("let a = f32[2] {1, 2}\na[0]");
    assert!(
        d[0].help.as_deref().unwrap_or("").contains("no indexing"),
        "{:?}",
        d[0]
    );
    let d = errs("x = 1");
    assert!(
        d[0].help.as_deref().unwrap_or("").contains("let x ="),
        "{:?}",
        d[0]
    );
    // The unclosed brace.
    let src = "let a = {1, 2\n";
    let d = errs(src);
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].message, "found end of input but expected ',' or '}'");
    assert_eq!(d[0].span, src.len()..src.len());
    assert_eq!(d[0].secondary[0].0, 8..9);
    // An unclosed brace followed by more statements.
    let v = err_list("let a = {1, 2\nlet b = 3\n");
    assert_eq!(
        v,
        vec![(
            "let".to_string(),
            "found 'let' but expected ',' or '}'".to_string()
        )]
    );
    // Unclosed comment.
    let v = err_list("let a = 1 /* never closed\nlet b = ");
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].0, "/*");
}

#[test]
fn bad_tokens() {
    let v = err_list("let a = @");
    assert_eq!(
        v,
        vec![(
            "@".to_string(),
            "found '@' but expected an expression".to_string()
        )]
    );
    let d = errs("let a = 1 @ 2\nlet b = @");
    assert_eq!(d.len(), 2);
    assert_eq!(d[0].span, 10..11);
    assert_eq!(d[0].label, "unexpected character '@'");
    assert_eq!(d[1].span, 22..23);
    // Skipped over in a broken statement: still reported.
    let v = err_list("let a = (1 2 @)");
    assert_eq!(v.len(), 2, "{v:?}");
    assert_eq!(v[1].0, "@");
    let d = errs("let a = b & c");
    assert!(d[0].help.as_deref().unwrap_or("").contains("&&"));
    let d = errs("let a = .5");
    assert!(d[0].help.as_deref().unwrap_or("").contains("0.5"));
    // `x.shape` is not a number missing its digit.
    let d = errs("let x = 1\nx.shape");
    let help = d[0].help.as_deref().unwrap_or("");
    assert!(!help.contains("0.5"), "{help}");
    assert!(help.contains("member access"), "{help}");
    // Non-ASCII characters get whole-character spans.
    let src = "let a = é";
    let d = errs(src);
    assert_eq!(&src[d[0].span.clone()], "é");
}

#[test]
fn bad_numbers_and_dims() {
    let v = err_list("let a: f32[2x] = b");
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].0, "2x");
    assert!(
        v[0].1.contains("expected a size after the last 'x'"),
        "{}",
        v[0].1
    );
    let v = err_list("let a = f32[2x] {1, 2}\nlet b = 1");
    assert_eq!(v.len(), 1, "{v:?}");
    let v = err_list("let a = 1e+");
    assert_eq!(v[0].0, "1e+");
    let v = err_list("let a = 12abc");
    assert_eq!(v[0].0, "12abc");
    let v = err_list("let a: f32[2.5] = b");
    assert_eq!(
        v[0].1,
        "found '2.5' but expected dimension sizes such as '2x3' or '2,3', or ']'"
    );
    let v = err_list("let a: f32[99999999999999999999] = b");
    assert!(v[0].1.contains("64 bits"), "{v:?}");
    let v = err_list("let a: f32[2x3, 4] = b");
    assert_eq!(
        v,
        vec![(",".to_string(), "found ',' but expected ']'".to_string())]
    );
    let v = err_list("let a = 4x2");
    assert_eq!(v[0].1, "found '4x2' but expected an expression");
}

#[test]
fn comp_errors() {
    // Errors in a body are recovered statement by statement, and parsing goes on after the body.
    let src = "comp f(x: f32) -> f32 {\n  let y = \n  let z = )\n  x\n}\nlet after = 1 +";
    let v = err_list(src);
    assert_eq!(v.len(), 3, "{v:?}");
    assert_eq!(v[0].0, "let");
    assert_eq!(v[1].0, ")");
    assert_eq!(v[2].1, "found end of input but expected an expression");
    // No result.
    let v = err_list("comp f(x: f32) -> f32 { let y = x }");
    assert_eq!(
        v,
        vec![(
            "}".to_string(),
            "found '}' but expected the computation's result expression".to_string()
        )]
    );
    // Something after the result.
    let v = err_list("comp f(x: f32) -> f32 { x\n let y = x }");
    assert_eq!(v[0].1, "found 'let' but expected '}'");
    // Broken header: the body is skipped as a whole.
    let v = err_list("comp f(x f32) -> f32 {\n let y = x\n y\n}\nlet ok = 1");
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(
        v[0].1,
        "found 'f32' but expected ':' and the parameter's type"
    );
    // Unclosed body.
    let d = errs("comp f(x: f32) -> f32 {\n x\n");
    assert_eq!(d.len(), 1, "{:?}", d);
    assert_eq!(d[0].message, "found end of input but expected '}'");
    assert_eq!(d[0].secondary[0].0, 22..23);
    // Missing body.
    let v = err_list("comp f(x: f32) -> f32\nlet a = 1");
    assert_eq!(
        v,
        vec![(
            "\n".to_string(),
            "found end of line but expected '{' and the computation's body".to_string()
        )]
    );
}

#[test]
fn then_errors() {
    let v = err_list("then a ~= b within\nlet c = 1");
    assert_eq!(
        v,
        vec![(
            "let".to_string(),
            "found 'let' but expected an expression".to_string()
        )]
    );
    let v = err_list("==> a + b\nlet c = 1");
    assert_eq!(v.len(), 1);
    assert_eq!(v[0].1, "found end of line but expected an operator or '='");
    let v = err_list("a >>> ");
    assert_eq!(v[0].1, "found end of input but expected an expression");
}

#[test]
fn parse_expr_api() {
    assert_eq!(e("  f(x) + 1  "), "(Add f(x) 1)");
    assert_eq!(e("\nf(x)\n"), "f(x)");
    let d = parse_expr("f(x) g").unwrap_err();
    assert_eq!(
        d[0].message,
        "found 'g' but expected an operator or the end of the expression"
    );
    let d = parse_expr("").unwrap_err();
    assert_eq!(
        d[0].message,
        "found end of input but expected an expression"
    );
    assert!(parse_expr("let a = 1").is_err());
    assert!(parse_expr("a @").is_err());
}

#[test]
fn needs_more() {
    for s in [
        "let a = (1,",
        "let a = {",
        "let a = {{1, 2},\n{3",
        "let a: f32[",
        "/* open comment",
        "let a =",
        "let a = 1 +",
        "f(x) >>>",
        "f(x) produces:",
        "==>",
        "let a = x &&",
        "let a = x,",
        "then a ==",
        "then a ~=",
        "comp f(x: f32) -> f32",
        "comp f(x: f32) -> f32 {",
        "comp f(x: f32) -> f32 {\n let y = x\n",
        "let a = 1 // comment\nlet b =",
    ] {
        assert!(needs_more_input(s), "{s:?}");
    }
    for s in [
        "",
        "let a = 1",
        "let a = {1, 2}",
        "f(x) >>> {1}",
        "let a = (1))",
        "let a = (1]",
        "let a = \"abc",
        "let a = 1 // (",
        "/* closed */",
        "comp f(x: f32) -> f32 { x }",
        "let a = @(",
        "let a = -1",
    ] {
        assert!(!needs_more_input(s), "{s:?}");
    }
}

// ---- robustness ----

#[test]
fn never_panics() {
    let pieces = [
        "let",
        "comp",
        "then",
        "within",
        "produces:",
        "==>",
        ">>>",
        "~=",
        "=",
        "==",
        "(",
        ")",
        "{",
        "}",
        "[",
        "]",
        ",",
        ";",
        "\n",
        ":",
        "->",
        "-",
        "!",
        "+",
        "*",
        "f32",
        "f32[2x3]",
        "s32[",
        "x",
        "f",
        "1",
        "2.5",
        "1e",
        "2x",
        "3x4",
        "\"s",
        "\"ok\"",
        "/*",
        "*/",
        "//",
        "@",
        "é",
        "&",
        "|",
        "true",
        "inf",
        ".",
        "\\",
        "\t",
        "\r",
    ];
    // A small deterministic generator.
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..3000 {
        let len = (next() % 24) as usize;
        let mut s = String::new();
        for _ in 0..len {
            s += pieces[(next() % pieces.len() as u64) as usize];
            if next() % 3 == 0 {
                s.push(' ');
            }
        }
        let r = parse(&s);
        if let Err(errs) = &r {
            assert!(!errs.is_empty());
            for d in errs {
                assert!(
                    d.span.start <= d.span.end && d.span.end <= s.len(),
                    "{s:?}: {d:?}"
                );
                assert!(
                    s.is_char_boundary(d.span.start) && s.is_char_boundary(d.span.end),
                    "{s:?}: {d:?}"
                );
                assert!(!d.message.is_empty() && !d.label.is_empty(), "{s:?}: {d:?}");
            }
        }
        let _ = parse_expr(&s);
        let _ = needs_more_input(&s);
    }
    // Every prefix of a real program.
    let prog = "comp f(x: f32, y: (s32, f32[2])) -> f32 {\n let z = x * 2.5e3\n z }\nlet a: f32[2x3] = f32[2,3] {{1,2,3},{4,5,6}}; then f(a) ~= {1} within 1e-3\nf(a) produces: (1, \"s\", -inf)";
    for i in 0..=prog.len() {
        if prog.is_char_boundary(i) {
            let _ = parse(&prog[..i]);
            let _ = needs_more_input(&prog[..i]);
        }
    }
    assert!(parse(prog).is_ok());
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    // Run on a thread with a modest stack, as a REPL might.
    let h = std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(|| {
            let deep = format!("let a = {}1{}", "(".repeat(5000), ")".repeat(5000));
            let d = parse(&deep).unwrap_err();
            assert!(d[0].message.contains("nested less deeply"), "{:?}", d[0]);
            let deep = format!("let a = {}1", "-".repeat(5000));
            assert!(parse(&deep).is_err());
            let deep = format!("let a: {}f32{} = 1", "(".repeat(5000), ",)".repeat(5000));
            assert!(parse(&deep).is_err());
            let deep = format!(
                "let a = {}1{}",
                "1||1&&1==1+1*-(".repeat(5000),
                ")".repeat(5000)
            );
            assert!(parse(&deep).is_err());
            let deep = format!(
                "let a = {}1{}",
                "f(x, 1||1&&1==1+1*-{".repeat(40),
                "})".repeat(40)
            );
            assert!(parse(&deep).is_ok());
            // The deepest accepted nesting, with every precedence level on the stack.
            let deepest = format!(
                "let a = {}1{}",
                "1||1&&1==1+1*-(".repeat(63),
                ")".repeat(63)
            );
            assert!(parse(&deepest).is_ok());
            let ok_depth = format!("let a = {}1{}", "{".repeat(50), "}".repeat(50));
            assert!(parse(&ok_depth).is_ok());
        })
        .unwrap();
    h.join().unwrap();
}

// ---- recovery inside comp bodies, and the lexer ----

#[test]
fn body_recovery_goes_on() {
    // A statement that fails, even one that starts like the result, is skipped and the
    // body goes on: each independent error is reported once.
    let src = "comp f(x: f32) -> f32 {\n  x y\n  let z = @\n  z\n}\nlet w = )";
    assert_eq!(
        err_list(src),
        vec![
            (
                "y".to_string(),
                "found 'y' but expected an operator, ';', a new line or '}'".to_string()
            ),
            (
                "@".to_string(),
                "found '@' but expected an expression".to_string()
            ),
            (
                ")".to_string(),
                "found ')' but expected an expression".to_string()
            ),
        ]
    );
    // Something that starts no statement.
    let v = err_list("comp f() -> f32 {\n  ==>\n  let a = @\n  1\n}");
    assert_eq!(
        v,
        vec![
            (
                "==>".to_string(),
                "found '==>' but expected 'let', an expression or '}'".to_string()
            ),
            (
                "@".to_string(),
                "found '@' but expected an expression".to_string()
            ),
        ]
    );
    // After a body with errors, the rest of its line is skipped without complaint.
    let v = err_list("comp f() -> f32 { let y = 1 } junk junk\nlet a = @");
    assert_eq!(v.len(), 2, "{v:?}");
    assert_eq!(
        v[0].1,
        "found '}' but expected the computation's result expression"
    );
    assert_eq!(v[1].0, "@");
    // An unclosed body is reported along with the errors inside it.
    let src = "comp f() -> f32 {\n let y = )\n y\n";
    let d = errs(src);
    assert_eq!(d.len(), 2, "{d:?}");
    assert_eq!(d[0].message, "found ')' but expected an expression");
    assert_eq!(d[1].message, "found end of input but expected '}'");
    assert_eq!(d[1].secondary[0].0, 16..17);
    // A body that parses is still accepted after a comp whose body did not.
    assert_eq!(
        ok("comp f() -> f32 {\n let y = 1\n y }\ncomp g() -> f32 { 2 }").len(),
        2
    );
}

#[test]
fn recovery_starts_where_the_statement_failed() {
    // The `;` inside the unclosed parenthesis still ends the broken statement.
    let v = err_list("let a = (1 2; let b = @");
    assert_eq!(v.len(), 2, "{v:?}");
    assert_eq!(
        v[0],
        (
            "2".to_string(),
            "found '2' but expected ',' or ')'".to_string()
        )
    );
    assert_eq!(v[1].0, "@");
    // A failed operand after an operator is reported where it failed.
    let v = err_list("let a = 1 + (2 ;\nlet b = @");
    assert_eq!(v.len(), 2, "{v:?}");
    assert_eq!(v[0].0, ";");
    assert_eq!(v[1].0, "@");
}

#[test]
fn lexer_tokens() {
    let kinds = |src: &str| -> Vec<String> {
        lexer::lex(src)
            .toks
            .iter()
            .map(|(t, s)| format!("{}@{}", t.describe(), s.start))
            .collect()
    };
    assert_eq!(
        kinds("produces :x ==> a>>>b<=c"),
        vec![
            "'produces:'@0",
            "'x'@10",
            "'==>'@12",
            "'a'@16",
            "'>>>'@17",
            "'b'@20",
            "'<='@21",
            "'c'@23"
        ]
    );
    assert_eq!(
        kinds("4x2x3 1e-3 5. 007 inf"),
        vec!["'4x2x3'@0", "'1e-3'@6", "'5.'@11", "'007'@14", "'inf'@18"]
    );
    // A line break inside a block comment still ends a line; one inside a string does not exist.
    assert_eq!(
        kinds("a /* x\n */ b"),
        vec!["'a'@0", "end of line@2", "'b'@11"]
    );
    let lexed = lexer::lex(r#""a\qb" "c"#);
    let msgs: Vec<&str> = lexed.errors.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        msgs,
        vec![
            "found the escape '\\q' but expected one of \\\" \\\\ \\n \\t",
            "found a string that is never closed but expected '\"' before the end of the line",
        ]
    );
    assert_eq!(lexed.errors[0].span, 2..4);
    let lexed = lexer::lex("2x3x 1.5x2 0x1F");
    let msgs: Vec<&str> = lexed.errors.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        msgs,
        vec![
            "found the dimensions '2x3x' but expected a size after the last 'x'",
            "found '1.5x2' but expected a number, dimensions such as 4x2 or a name",
            "found '0x1F' but expected a number, dimensions such as 4x2 or a name",
        ]
    );
}

#[test]
fn typed_tuples() {
    // A tuple type directly followed by a parenthesised value, as tuples print.
    assert_eq!(
        e("(f32[2], s32) ({1, 2}, 5)"),
        "<(f32[2] s32) (tuple {1 2} 5)>"
    );
    assert_eq!(e("(f32[2],) ({1, 2},)"), "<(f32[2]) (tuple {1 2})>");
    assert_eq!(
        e("((s32, s32), pred) ((1, 2), true)"),
        "<((s32 s32) pred) (tuple (tuple 1 2) true)>"
    );
    assert_eq!(e("() ()"), "<() (tuple)>");
    // Without the value it is an ordinary tuple (of types), and a parenthesis that is
    // not all types is an ordinary parenthesis.
    assert_eq!(e("(f32, s32)"), "(tuple <f32> <s32>)");
    assert_eq!(
        err_list("(a) (b)"),
        vec![(
            "(".to_string(),
            "found '(' but expected an operator, ';' or a new line".to_string()
        )]
    );
    assert_eq!(
        err_list("let t = (f32, s32) (1, @)"),
        vec![(
            "@".to_string(),
            "found '@' but expected an expression or ')'".to_string()
        )]
    );
    let src = "then (f32, s32) (1, 2) == x";
    let StmtKind::Assert(Assertion::Equal { actual, .. }) = &parse(src).unwrap().stmts[0].kind
    else {
        panic!()
    };
    assert_eq!(&src[actual.span.clone()], "(f32, s32) (1, 2)");
}

#[test]
fn comp_may_not_take_an_element_type_name() {
    for name in ["f32", "PRED", "s64"] {
        let d = errs(&format!("comp {name}(x: f32) -> f32 {{ x }}"));
        assert!(
            d[0].message.contains("element type name"),
            "{name}: {:?}",
            d[0]
        );
        assert_eq!(d[0].span, 5..5 + name.len());
    }
    assert!(parse("comp f32_fn(x: f32) -> f32 { x }").is_ok());
}

#[test]
fn number_lists_read_like_any_brace() {
    // Plain number lists take a fast path; the tree and spans must be the general ones.
    let fast = "{1, -2, 3.5e1,}";
    let general = "{1, -2, 3.5e1, x}";
    assert_eq!(e(fast), "{1 (Neg 2) ~3.5e1}");
    // A brace of plain numbers is one compact node whose items have the general spans.
    let (ExprKind::Numbers(a), ExprKind::Brace(b)) = (
        parse_expr(fast).unwrap().kind,
        parse_expr(general).unwrap().kind,
    ) else {
        panic!("not a run and a brace")
    };
    assert_eq!(a.len(), 3);
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(x.span(), y.span);
        assert_eq!(x.negative, matches!(y.kind, ExprKind::Unary { .. }));
    }
    // Where a brace of numbers cannot stand (a comp body), the plain tokens are parsed.
    assert!(parse("comp f() -> s32 {1}").is_ok());
    assert!(parse("comp f() -> s32[2] {\n{1, 2}\n}").is_ok());
    assert!(needs_more_input("comp f() -> s32"));
    assert!(!needs_more_input("comp f() -> s32 {1}"));
    assert_eq!(e("{{1, 2}, {-3, 4}}"), "{{1 2} {(Neg 3) 4}}");
    assert_eq!(e("{}"), "{}");
    assert_eq!(e("{1, 2 + 3}"), "{1 (Add 2 3)}");
    // Errors inside a number list are still the general parser's.
    assert!(parse_expr("{1, 2 3}").is_err());
    assert!(parse_expr("{1,, 2}").is_err());
}
