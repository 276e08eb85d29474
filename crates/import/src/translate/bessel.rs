//! `chlo.bessel_i1e(x)`, exp(-|x|) I1(x), as CHLO's legalisation and XLA
//! compute it: Cephes' Chebyshev series, coefficient set A in (|x|/2 - 2)
//! times |x| for |x| <= 8, set B in (32/|x| - 2) over sqrt|x| above, times
//! sign(x). f16, bf16 and f32 compute in f32 with Cephes' single-precision
//! sets (17 and 7 terms), f64 with the double sets (29 and 25 terms).
//! Accuracy: spec/import.md §6.

use super::Cx;
use super::gamma::konst;
use super::special::{define, one, real_compute};
use crate::error::Result;
use crate::mlir::op::Op;
use xlet_core::types::ElemType;

const A32: [&str; 17] = [
    "9.38153738649577178388E-9",
    "-4.44505912879632808065E-8",
    "2.00329475355213526229E-7",
    "-8.56872026469545474066E-7",
    "3.47025130813767847674E-6",
    "-1.32731636560394358279E-5",
    "4.78156510755005422638E-5",
    "-1.61760815825896745588E-4",
    "5.12285956168575772895E-4",
    "-1.51357245063125314899E-3",
    "4.15642294431288815669E-3",
    "-1.05640848946261981558E-2",
    "2.47264490306265168283E-2",
    "-5.29459812080949914269E-2",
    "1.02643658689847095384E-1",
    "-1.76416518357834055153E-1",
    "2.52587186443633654823E-1",
];

const B32: [&str; 7] = [
    "-3.83538038596423702205E-9",
    "-2.63146884688951950684E-8",
    "-2.51223623787020892529E-7",
    "-3.88256480887769039346E-6",
    "-1.10588938762623716291E-4",
    "-9.76109749136146840777E-3",
    "7.78576235018280120474E-1",
];

/// The double set A: twelve more leading terms, then A32's.
const A64_HEAD: [&str; 12] = [
    "2.77791411276104639959E-18",
    "-2.11142121435816608115E-17",
    "1.55363195773620046921E-16",
    "-1.10559694773538630805E-15",
    "7.60068429473540693410E-15",
    "-5.04218550472791168711E-14",
    "3.22379336594557470981E-13",
    "-1.98397439776494371520E-12",
    "1.17361862988909016308E-11",
    "-6.66348972350202774223E-11",
    "3.62559028155211703701E-10",
    "-1.88724975172282928790E-9",
];

/// The double set B: eighteen more leading terms, then B32's.
const B64_HEAD: [&str; 18] = [
    "7.51729631084210481353E-18",
    "4.41434832307170791151E-18",
    "-4.65030536848935832153E-17",
    "-3.20952592199342395980E-17",
    "2.96262899764595013876E-16",
    "3.30820231092092828324E-16",
    "-1.88035477551078244854E-15",
    "-3.81440307243700780478E-15",
    "1.04202769841288027642E-14",
    "4.27244001671195135429E-14",
    "-2.10154184277266431302E-14",
    "-4.08355111109219731823E-13",
    "-7.19855177624590851209E-13",
    "2.03562854414708950722E-12",
    "1.41258074366137813316E-11",
    "3.25260358301548823856E-11",
    "-1.89749581235054123450E-11",
    "-5.58974346219658380687E-10",
];

/// `chlo.bessel_i1e(x)` as a call of a new comp.
pub fn expr(cx: &mut Cx, op: &Op, v: &[String]) -> Result<String> {
    let x = one(op, v)?;
    let ty = cx.operand_array(op)?;
    let c = real_compute(op, &ty)?;
    let (a, b): (Vec<&str>, Vec<&str>) = if c == ElemType::F64 {
        (
            A64_HEAD.iter().chain(A32.iter()).copied().collect(),
            B64_HEAD.iter().chain(B32.iter()).copied().collect(),
        )
    } else {
        (A32.to_vec(), B32.to_vec())
    };
    let k = konst(&ty, c);
    let mut body = format!(
        "  let x: {ct} = ConvertElementType(x0, {c})
  let z = Abs(x)
  let ta = Sub(Mul({half}, z), {two})
  let tb = Sub(Div({k32}, z), {two})
",
        ct = ty.with_elem(c),
        half = k("0.5"),
        two = k("2"),
        k32 = k("32"),
    );
    body.push_str(&chebyshev(&k, "ta", "a", &a));
    body.push_str(&chebyshev(&k, "tb", "b", &b));
    body.push_str(&format!(
        "  let small = Mul(z, a)
  let large = Div(b, Sqrt(z))
  let r = Mul(Sign(x), Select(Le(z, {eight}), small, large))
  ConvertElementType(r, {elem})
",
        eight = k("8"),
        elem = ty.elem,
    ));
    let name = define(cx, op, "bessel_i1e", &[("x0", &ty)], &ty, &body);
    Ok(format!("{name}({x})"))
}

/// Cephes' `chbevl`, as CHLO writes it: b0 = t b1 - b2 + c over the
/// coefficients (b1, b2 the two previous b0, starting at 0), then
/// (b0 - b2) / 2, bound to `out`. The first two steps drop the terms that are
/// 0 (same value wherever the series is used: t is finite there).
fn chebyshev(k: &dyn Fn(&str) -> String, t: &str, out: &str, cs: &[&str]) -> String {
    let mut s = format!("  let {out}_0 = {}\n", k(cs[0]));
    s.push_str(&format!(
        "  let {out}_1 = Add(Mul({t}, {out}_0), {})\n",
        k(cs[1])
    ));
    for (i, c) in cs.iter().enumerate().skip(2) {
        s.push_str(&format!(
            "  let {out}_{i} = Add(Sub(Mul({t}, {out}_{}), {out}_{}), {})\n",
            i - 1,
            i - 2,
            k(c)
        ));
    }
    let n = cs.len();
    s.push_str(&format!(
        "  let {out} = Mul(Sub({out}_{}, {out}_{}), {})\n",
        n - 1,
        n - 3,
        k("0.5")
    ));
    s
}
