use super::*;

fn render(r: &Result<crate::ast::Program, Vec<Diag>>) -> String {
    match r {
        Ok(p) => format!("OK {:?}", p),
        Err(ds) => ds.iter().map(|d| format!("{:?} {} | {} | {:?} | {:?}\n", d.span, d.message, d.label, d.secondary, d.help)).collect(),
    }
}
fn render_e(r: &Result<crate::ast::Expr, Vec<Diag>>) -> String {
    match r {
        Ok(p) => format!("OK {:?}", p),
        Err(ds) => ds.iter().map(|d| format!("{:?} {} | {} | {:?} | {:?}\n", d.span, d.message, d.label, d.secondary, d.help)).collect(),
    }
}

const SAMPLES: &[&str] = &[
    "let operand: s32[3] = {-1, 5, 9};\nlet min: s32 = 0;\nlet max: s32 = 6;\n==>\nClamp(min, operand, max) = s32[3]{0, 5, 6};\n",
    "let a = {\n  {1, 2},\n  {3, 4},\n};\nConcat({a, b}, 0)\n>>> {\n  {1, 2},\n}",
    "let a = {0.0, 1.0}\nlet s = {2}\n\nDynamicSlice(a, s, {2}) produces:\n  {2.0, 3.0}\n",
    "comp body(t: (s32, f32[2]),) -> (s32, f32[2]) {\n  let i = GetTupleElement(t, 0)\n  let v: f32[2] = GetTupleElement(t, 1);\n  let w = v *\n     2\n\n  (i + 1, f(w,\n            v))\n}\nlet x = 1",
    "then a + b ~= f32[2] {1, 2} within 0.5\nthen (a == b)\nthen x == y && z",
    "let v: f32[10] = f32[10]{0, 1, 2};\nlet t: (f32[10], s32) = tuple(v, s);\nReshape(5, {}, {1,1}) == f32[1x1] {{5}};\nCustomCall(\"myfunc\", {x, y}, f32[3x3])",
    "comp lt(a: f32, b: f32) -> pred\n{\n  Lt(a, b)\n}\nSort({k, v}, comparator=lt, dimension=0, is_stable=true)",
    "let a = s32 -1 + f32 - 1 * -x / !y % 3 <= 4 || q != r\nlet b = f(a=1, 2,)",
];

const PIECES: &[&str] = &[
    "let", "comp", "then", "within", "produces:", "==>", ">>>", "~=", "=", "==", "(", ")", "{", "}",
    "[", "]", ",", ";", "\n", ":", "->", "-", "!", "+", "*", "f32", "f32[2x3]", "s32[", "x", "f",
    "1", "2.5", "1e", "2x", "3x4", "\"s", "\"ok\"", "/*", "*/", "//", "@", "é", "&", "|", "true",
    "inf", ".", "\\", "\t", "\r", "<", "&&", "f(", "a=", "pred", "{1, 2}", "(1,)", "99999999999999999999",
];

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn mutate(rng: &mut Rng, s: &str) -> String {
    let mut s = s.to_string();
    let n = 1 + rng.below(3);
    for _ in 0..n {
        let mut pos = rng.below(s.len() + 1);
        while !s.is_char_boundary(pos) { pos -= 1; }
        match rng.below(3) {
            0 => {
                let mut end = (pos + 1 + rng.below(4)).min(s.len());
                while !s.is_char_boundary(end) { end += 1; }
                s.replace_range(pos..end, "");
            }
            1 => s.insert_str(pos, PIECES[rng.below(PIECES.len())]),
            _ => {
                let mut end = (pos + 1 + rng.below(3)).min(s.len());
                while !s.is_char_boundary(end) { end += 1; }
                s.replace_range(pos..end, PIECES[rng.below(PIECES.len())]);
            }
        }
    }
    s
}

#[test]
fn differential() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut diffs = 0;
    let mut total = 0;
    let limit: usize = std::env::var("DIFF_N").ok().and_then(|v| v.parse().ok()).unwrap_or(20000);
    for i in 0..limit {
        let src = if i % 2 == 0 {
            let mut s = String::new();
            let len = rng.below(16);
            for _ in 0..len {
                s += PIECES[rng.below(PIECES.len())];
                if rng.below(3) == 0 { s.push(' '); }
            }
            s
        } else {
            let base = SAMPLES[rng.below(SAMPLES.len())];
            mutate(&mut rng, base)
        };
        total += 1;
        let a = render(&super::old::parse(&src));
        let b = render(&parse(&src));
        let ae = render_e(&super::old::parse_expr(&src));
        let be = render_e(&parse_expr(&src));
        let an = super::old::needs_more_input(&src);
        let bn = needs_more_input(&src);
        if a != b || ae != be || an != bn {
            diffs += 1;
            if diffs <= 400 {
                eprintln!("==== {src:?}");
                if a != b { eprintln!("-- old parse:\n{a}\n-- new parse:\n{b}"); }
                if ae != be { eprintln!("-- old expr:\n{ae}\n-- new expr:\n{be}"); }
                if an != bn { eprintln!("-- needs_more old {an} new {bn}"); }
            }
        }
    }
    eprintln!("{diffs} of {total} differ");
}

#[test]
fn timing() {
    let mut prog = String::new();
    for i in 0..3000 {
        prog += &format!("let a{i}: f32[2x3] = f32[2,3] {{{{1, 2, 3}}, {{4, 5, -6}}}} + b * c - Dot(x, y, lhs_contracting_dimensions={{1}})\n");
        if i % 10 == 0 {
            prog += "comp f(x: f32, y: (s32, f32[2])) -> f32 {\n let z = x * 2.5e3\n z }\nthen f(a) ~= {1} within 1e-3\n";
        }
    }
    let cases: Vec<(&str, String)> = vec![
        ("big program", prog),
        ("long chain", format!("let a = {}1", "1 + ".repeat(20000))),
        ("nested braces err", format!("let a = {}1 2{}", "f32[1] {".repeat(120), "}".repeat(120))),
        ("nested calls err", format!("let a = {}1 2{}", "f(".repeat(120), ")".repeat(120))),
        ("nested parens err", format!("let a = {}1 2{}", "(".repeat(120), ")".repeat(120))),
        ("nested mixed", format!("let a = {}1{}", "f(x=1, (g, {-".repeat(40), "})))".repeat(40))),
        ("deep body", format!("comp f() -> f32 {{ {}1{} }}", "(".repeat(120), ")".repeat(120))),
        ("deep body err", format!("comp f() -> f32 {{ {}1 2{} }}", "(".repeat(120), ")".repeat(120))),
        ("many errors", "let a = (1 2\n".repeat(5000)),
        ("junk", "@ ) ] } ;\n".repeat(5000)),
    ];
    for (name, src) in &cases {
        let which = std::env::var("WHICH").unwrap_or_default();
        if !which.is_empty() && !name.contains(which.as_str()) { continue; }
        let t = std::time::Instant::now();
        let a = super::old::parse(src);
        let t_old = t.elapsed();
        eprintln!("{name:20} old {t_old:?}");
        let t = std::time::Instant::now();
        let b = parse(src);
        let t_new = t.elapsed();
        let same = match (&a, &b) { (Err(x), Err(y)) => format!("{x:?}") == format!("{y:?}"), (Ok(_), Ok(_)) => true, _ => false };
        eprintln!("{name:20} old {t_old:?} new {t_new:?} same={same}");
        std::mem::forget(a); std::mem::forget(b);
    }
}

#[test]
fn timing_new() {
    let mut prog = String::new();
    for i in 0..300 {
        prog += &format!("let a{i}: f32[2x3] = f32[2,3] {{{{1, 2, 3}}, {{4, 5, -6}}}} + b * c - Dot(x, y, lhs_contracting_dimensions={{1}})\n");
        if i % 10 == 0 {
            prog += "comp f(x: f32, y: (s32, f32[2])) -> f32 {\n let z = x * 2.5e3\n z }\nthen f(a) ~= {1} within 1e-3\n";
        }
    }
    let t = std::time::Instant::now();
    let lexed = lexer::lex(&prog);
    eprintln!("lex {:?}", t.elapsed());
    let toks = lexer::layout(lexed.toks);
    let t = std::time::Instant::now();
    let r = parser::run(parser::program(), &toks, prog.len());
    eprintln!("parse {:?} {}", t.elapsed(), r.1.len());
}
