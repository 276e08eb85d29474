//! `chlo.erf_inv` and `chlo.erfc` on f64, as CHLO's legalisation and XLA
//! compute them: erfinv by Giles' double-precision polynomials in
//! w = -log1p(-x²) (three ranges: w < 6.25, < 16, above), erfc by Cephes'
//! rational approximations (1 - x T(x²)/U(x²) below |x| = 1; exp(-x²) P/Q
//! below 8 and exp(-x²) R/S above; 2 - erfc(-x) for negative x). The
//! narrower types are `chlo`'s and `gamma`'s. Accuracy: spec/import.md §6.

use super::Cx;
use super::gamma::konst;
use super::special::{define, horner, one};
use crate::error::Result;
use crate::mlir::op::Op;
use xlet_core::types::ElemType;

/// Giles' coefficients for w < 6.25 (in w - 3.125), highest power first.
const W_LT_625: [&str; 23] = [
    "-3.6444120640178196996e-21",
    "-1.685059138182016589e-19",
    "1.2858480715256400167e-18",
    "1.115787767802518096e-17",
    "-1.333171662854620906e-16",
    "2.0972767875968561637e-17",
    "6.6376381343583238325e-15",
    "-4.0545662729752068639e-14",
    "-8.1519341976054721522e-14",
    "2.6335093153082322977e-12",
    "-1.2975133253453532498e-11",
    "-5.4154120542946279317e-11",
    "1.051212273321532285e-09",
    "-4.1126339803469836976e-09",
    "-2.9070369957882005086e-08",
    "4.2347877827932403518e-07",
    "-1.3654692000834678645e-06",
    "-1.3882523362786468719e-05",
    "0.0001867342080340571352",
    "-0.00074070253416626697512",
    "-0.0060336708714301490533",
    "0.24015818242558961693",
    "1.6536545626831027356",
];

/// For 6.25 <= w < 16 (in sqrt(w) - 3.25).
const W_LT_16: [&str; 19] = [
    "2.2137376921775787049e-09",
    "9.0756561938885390979e-08",
    "-2.7517406297064545428e-07",
    "1.8239629214389227755e-08",
    "1.5027403968909827627e-06",
    "-4.013867526981545969e-06",
    "2.9234449089955446044e-06",
    "1.2475304481671778723e-05",
    "-4.7318229009055733981e-05",
    "6.8284851459573175448e-05",
    "2.4031110387097893999e-05",
    "-0.0003550375203628474796",
    "0.00095328937973738049703",
    "-0.0016882755560235047313",
    "0.0024914420961078508066",
    "-0.0037512085075692412107",
    "0.005370914553590063617",
    "1.0052589676941592334",
    "3.0838856104922207635",
];

/// For w >= 16 (in sqrt(w) - 5).
const W_GE_16: [&str; 17] = [
    "-2.7109920616438573243e-11",
    "-2.5556418169965252055e-10",
    "1.5076572693500548083e-09",
    "-3.7894654401267369937e-09",
    "7.6157012080783393804e-09",
    "-1.4960026627149240478e-08",
    "2.9147953450901080826e-08",
    "-6.7711997758452339498e-08",
    "2.2900482228026654717e-07",
    "-9.9298272942317002539e-07",
    "4.5260625972231537039e-06",
    "-1.9681778105531670567e-05",
    "7.5995277030017761139e-05",
    "-0.00021503011930044477347",
    "-0.00013871931833623122026",
    "1.0103004648645343977",
    "4.8499064014085844221",
];

/// Cephes' erfc for 1 <= |x| < 8: exp(-x²) P(|x|) / Q(|x|).
const ERFC_P: [&str; 9] = [
    "2.46196981473530512524E-10",
    "5.64189564831068821977E-1",
    "7.46321056442269912687E0",
    "4.86371970985681366614E1",
    "1.96520832956077098242E2",
    "5.26445194995477358631E2",
    "9.34528527171957607540E2",
    "1.02755188689515710272E3",
    "5.57535335369399327526E2",
];
const ERFC_Q: [&str; 9] = [
    "1.00000000000000000000E0",
    "1.32281951154744992508E1",
    "8.67072140885989742329E1",
    "3.54937778887819891062E2",
    "9.75708501743205489753E2",
    "1.82390916687909736289E3",
    "2.24633760818710981792E3",
    "1.65666309194161350182E3",
    "5.57535340817727675546E2",
];
/// For |x| >= 8: exp(-x²) R(|x|) / S(|x|).
const ERFC_R: [&str; 6] = [
    "5.64189583547755073984E-1",
    "1.27536670759978104416E0",
    "5.01905042251180477414E0",
    "6.16021097993053585195E0",
    "7.40974269950448939160E0",
    "2.97886665372100240670E0",
];
const ERFC_S: [&str; 7] = [
    "1.00000000000000000000E0",
    "2.26052863220117276590E0",
    "9.39603524938001434673E0",
    "1.20489539808096656605E1",
    "1.70814450747565897222E1",
    "9.60896809063285878198E0",
    "3.36907645100081516050E0",
];
/// erf for |x| < 1: x T(x²) / U(x²).
const ERF_T: [&str; 5] = [
    "9.60497373987051638749E0",
    "9.00260197203842689217E1",
    "2.23200534594684319226E3",
    "7.00332514112805075473E3",
    "5.55923013010394962768E4",
];
const ERF_U: [&str; 6] = [
    "1.00000000000000000000E0",
    "3.35617141647503099647E1",
    "5.21357949780152679795E2",
    "4.59432382970980127987E3",
    "2.26290000613890934246E4",
    "4.92673942608635921086E4",
];

/// The op on f64 as a call of a new comp; `None` for the other types.
pub fn expr(cx: &mut Cx, op: &Op, short: &str, v: &[String]) -> Result<Option<String>> {
    let ty = cx.operand_array(op)?;
    if ty.elem != ElemType::F64 {
        return Ok(None);
    }
    let x = one(op, v)?;
    let k = konst(&ty, ElemType::F64);
    let body = if short == "erf_inv" {
        erf_inv(&k)
    } else {
        erfc(&k)
    };
    let name = define(cx, op, short, &[("x", &ty)], &ty, &body);
    Ok(Some(format!("{name}({x})")))
}

/// Each range's polynomial evaluated in full and the range's one selected:
/// the same values as CHLO's one polynomial with selected coefficients.
/// ±inf at ±1 (the polynomial is indeterminate there), NaN past 1.
fn erf_inv(k: &dyn Fn(&str) -> String) -> String {
    format!(
        "  let w = Neg(Log1p(Mul(x, Neg(x))))
  let sw = Sqrt(w)
  let p1 = {p1}
  let p2 = {p2}
  let p3 = {p3}
  let p = Select(Lt(w, {k625}), p1, Select(Lt(w, {k16}), p2, p3))
  Select(Eq(Abs(x), {one}), Mul(x, {inf}), Mul(p, x))
",
        p1 = horner(k, &format!("Sub(w, {})", k("3.125")), &W_LT_625),
        p2 = horner(k, &format!("Sub(sw, {})", k("3.25")), &W_LT_16),
        p3 = horner(k, &format!("Sub(sw, {})", k("5")), &W_GE_16),
        k625 = k("6.25"),
        k16 = k("16"),
        one = k("1"),
        inf = k("inf"),
    )
}

/// 0 once -x² is below -log(f64 max) (exp would underflow), 2 for the
/// negative side; NaN in gives NaN.
fn erfc(k: &dyn Fn(&str) -> String) -> String {
    format!(
        "  let ax = Abs(x)
  let xx = Mul(x, x)
  let e = Exp(Neg(xx))
  let mid = Div(Mul(e, {p}), {q})
  let far = Div(Mul(e, {r}), {s})
  let tail = Select(Lt(Neg(xx), {maxlog}), {zero}, Select(Lt(ax, {eight}), mid, far))
  let big = Select(Lt(x, {zero}), Sub({two}, tail), tail)
  let near = Sub({one}, Div(Mul(x, {t}), {u}))
  Select(Lt(ax, {one}), near, big)
",
        p = horner(k, "ax", &ERFC_P),
        q = horner(k, "ax", &ERFC_Q),
        r = horner(k, "ax", &ERFC_R),
        s = horner(k, "ax", &ERFC_S),
        t = horner(k, "xx", &ERF_T),
        u = horner(k, "xx", &ERF_U),
        maxlog = k("-7.09782712893383996843E2"),
        zero = k("0"),
        one = k("1"),
        two = k("2"),
        eight = k("8"),
    )
}
