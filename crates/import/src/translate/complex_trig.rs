//! `chlo.asin`, `acos`, `asinh`, `acosh`, `atan` and `atanh` on complex64
//! and complex128, as StableHLO's CHLO legalisation writes them
//! (`ChloDecompositionPatternsMath.td`, made by the functional_algorithms
//! tool), computing on the real and imaginary parts in f32 or f64:
//!
//! - asin, acos, asinh, acosh through one kernel, w = sqrt(a² - x²) +
//!   i log(a + sqrt(a² - 1)) with a = (|z + 1| + |z - 1|)/2: Hull et al.'s
//!   algorithm with its regions merged (3 for the real part, 4 for the
//!   imaginary), on |x|, |y|; each op is then w's parts under atan2 and signs
//!   (asinh and atan by their identities with i z).
//! - atanh: (log1p(z) - log1p(-z))/2 written as a real part
//!   log1p(4|x| / ((1 - |x|)² + y²))/4 and an imaginary part
//!   atan2(2y, (1 - |x|)(1 + |x|) - y²)/2, with the large-magnitude forms
//!   past 1/ε² (ε the spacing below 1); atan(z) = -i atanh(i z).
//!
//! Accuracy: spec/import.md §6. Real arguments are `chlo`'s.

use super::Cx;
use super::gamma::konst;
use super::special::{define, lit, one};
use crate::error::Result;
use crate::mlir::op::Op;
use xlet_core::types::ElemType;

/// The op on complex numbers as a call of a new comp; `None` for real types.
pub fn expr(cx: &mut Cx, op: &Op, short: &str, v: &[String]) -> Result<Option<String>> {
    let ty = cx.operand_array(op)?;
    let part = match ty.elem {
        ElemType::C64 => ElemType::F32,
        ElemType::C128 => ElemType::F64,
        _ => return Ok(None),
    };
    let z = one(op, v)?;
    let k = konst(&ty, part);
    let c = Consts::of(part);
    let mut body = String::from("  let sx = Real(z)\n  let sy = Imag(z)\n");
    let neg = |cond: &str, v: &str| format!("Select({cond}, Neg({v}), {v})");
    let below = |v: &str| format!("Lt({v}, {})", k("0"));
    let result = match short {
        "asin" => {
            body.push_str(&kernel(&k, &c, "sx", "sy"));
            format!("Complex(Atan2(sx, wr), {})", neg(&below("sy"), "wi"))
        }
        "acos" => {
            body.push_str(&kernel(&k, &c, "sx", "sy"));
            format!(
                "Complex(Atan2(wr, sx), Select({}, wi, Neg(wi)))",
                below("sy")
            )
        }
        "acosh" => {
            body.push_str(&kernel(&k, &c, "sx", "sy"));
            format!("Complex(wi, {})", neg(&below("sy"), "Atan2(wr, sx)"))
        }
        // asinh(z) = -i asin(i z), i z = (-y, x).
        "asinh" => {
            body.push_str("  let ny = Neg(sy)\n");
            body.push_str(&kernel(&k, &c, "ny", "sx"));
            format!("Complex({}, Atan2(sy, wr))", neg(&below("sx"), "wi"))
        }
        "atanh" => {
            body.push_str(&atanh(&k, &c, "sx", "sy"));
            "Complex(hr, hi)".to_string()
        }
        // atan(z) = -i atanh(i z).
        _ => {
            body.push_str("  let ny = Neg(sy)\n");
            body.push_str(&atanh(&k, &c, "ny", "sx"));
            "Complex(hi, Neg(hr))".to_string()
        }
    };
    body.push_str(&format!("  {result}\n"));
    let name = define(cx, op, short, &[("z", &ty)], &ty, &body);
    Ok(Some(format!("{name}({z})")))
}

/// The part type's limits, as CHLO's patterns use them.
struct Consts {
    /// sqrt(largest finite) / 8: past it, a ~ hypot(x, y).
    safe_max: String,
    /// sqrt(smallest normal) * 4: below it, y² is lost against 1.
    safe_min: String,
    /// 1 / (1 - nextafter(1, 0)) rounded as CHLO writes it.
    inv_negeps: &'static str,
}

impl Consts {
    fn of(part: ElemType) -> Consts {
        if part == ElemType::F64 {
            Consts {
                safe_max: lit(f64::MAX.sqrt() / 8.0),
                safe_min: lit(f64::MIN_POSITIVE.sqrt() * 4.0),
                inv_negeps: "9007199254740994.0",
            }
        } else {
            Consts {
                safe_max: lit((f32::MAX.sqrt() / 8.0) as f64),
                safe_min: lit((f32::MIN_POSITIVE.sqrt() * 4.0) as f64),
                inv_negeps: "16777218.0",
            }
        }
    }
}

/// hypot(p, y) as the kernel computes it (`mx` and `mn` the larger and the
/// smaller of |p| and y), bound to `out`.
fn hypot(k: &dyn Fn(&str) -> String, out: &str, p: &str) -> String {
    format!(
        "  let {out}_ap = Abs({p})
  let {out}_mx = Max({out}_ap, y)
  let {out}_mn = Min({out}_ap, y)
  let {out}_q = Div({out}_mn, {out}_mx)
  let {out}_r = Mul({out}_q, {out}_q)
  let {out}_sqa = Sqrt(Add({one}, {out}_r))
  let {out} = Select(Eq({out}_mx, {out}_mn), Mul({sqrt2}, {out}_mx), Select(And(Eq({out}_sqa, {one}), Gt({out}_r, {zero})), Add({out}_mx, Div(Mul({out}_mx, {out}_r), {two})), Mul({out}_mx, {out}_sqa)))
",
        one = k("1"),
        zero = k("0"),
        two = k("2"),
        sqrt2 = k("1.4142135623730951"),
    )
}

/// The asin/acos kernel on (sx, sy), binding `wr` and `wi` (both >= 0).
fn kernel(k: &dyn Fn(&str) -> String, c: &Consts, sx: &str, sy: &str) -> String {
    let mut s = format!("  let x = Abs({sx})\n  let y = Abs({sy})\n");
    s.push_str(&format!(
        "  let xp1 = Add(x, {one})\n  let xm1 = Sub(x, {one})\n",
        one = k("1")
    ));
    s.push_str(&hypot(k, "r", "xp1"));
    s.push_str(&hypot(k, "s", "xm1"));
    s.push_str(&format!(
        "  let a = Mul({half}, Add(r, s))
  let half_apx = Mul({half}, Add(a, x))
  let yy = Mul(y, y)
  let rpxp1 = Add(r, xp1)
  let smxm1 = Sub(s, xm1)
  let spxm1 = Add(s, xm1)
  let safe_max = {safe_max}
  let wr = Select(Ge(Max(x, y), safe_max), y, Select(Le(x, {one}), Sqrt(Mul(half_apx, Add(Div(yy, rpxp1), smxm1))), Mul(y, Sqrt(Add(Div(half_apx, rpxp1), Div(half_apx, spxm1))))))
  let safe_max_opt = Select(Lt(x, Mul(safe_max, {e12})), Mul(safe_max, {em6}), Mul(safe_max, {e2}))
  let y_big = Ge(y, safe_max_opt)
  let mx = Select(y_big, y, x)
  let xoy = Select(And(y_big, Ne(y, {inf})), Div(x, y), {zero})
  let huge = Add(Add(Log({two}), Log(mx)), Mul({half}, Log1p(Mul(xoy, xoy))))
  let tiny = And(Lt(y, {safe_min}), Lt(x, {one}))
  let half_yy = Mul({half}, yy)
  let hyr = Div(half_yy, rpxp1)
  let am1 = Select(tiny, Neg(Div(Mul(xp1, xm1), Add(a, {one}))), Select(Ge(x, {one}), Add(hyr, Mul({half}, spxm1)), Select(Le(a, {k15}), Add(hyr, Div(half_yy, smxm1)), Sub(a, {one}))))
  let sq = Sqrt(Mul(am1, Add(a, {one})))
  let wi = Select(Ge(mx, Select(y_big, safe_max_opt, safe_max)), huge, Select(tiny, Div(y, sq), Log1p(Add(am1, sq))))
",
        half = k("0.5"),
        one = k("1"),
        zero = k("0"),
        two = k("2"),
        inf = k("inf"),
        k15 = k("1.5"),
        e12 = k("1e12"),
        em6 = k("1e-6"),
        e2 = k("100"),
        safe_max = k(&c.safe_max),
        safe_min = k(&c.safe_min),
    ));
    s
}

/// atanh on (x, y), binding `hr` and `hi`.
fn atanh(k: &dyn Fn(&str) -> String, c: &Consts, x: &str, y: &str) -> String {
    format!(
        "  let ax = Abs({x})
  let ay = Abs({y})
  let inv_negeps = {inv}
  let safe_max = Mul(inv_negeps, inv_negeps)
  let safe = And(Lt(ax, safe_max), Lt(ay, safe_max))
  let naxm1 = Sub({one}, ax)
  let y2 = Mul({y}, {y})
  let arg = Select(safe, Div(ax, Add(Mul(naxm1, naxm1), y2)), Select(Lt(Mul(ay, inv_negeps), ax), Div({one}, ax), Select(Or(Eq(Abs({x}), {inf}), Eq(Abs({y}), {inf})), {zero}, Div(Div({one}, Add(Div(ax, {y}), Div({y}, ax))), {y}))))
  let hr = Mul(Mul(Select(Ge({x}, {zero}), {one}, {m1}), Log1p(Mul({four}, arg))), {quarter})
  let hi = Mul(Select(safe, Atan2(Add({y}, {y}), Sub(Mul(naxm1, Add({one}, ax)), y2)), Mul(Select(Ge({y}, {zero}), {one}, {m1}), {pi})), {half})
",
        inv = k(c.inv_negeps),
        one = k("1"),
        m1 = k("-1"),
        zero = k("0"),
        four = k("4"),
        quarter = k("0.25"),
        half = k("0.5"),
        inf = k("inf"),
        pi = k("3.141592653589793"),
    )
}
