//! s4, u4, s2, u2 against XLA (float -> int, Div, Rem, shifts: jax.jit on CPU)
//! and numpy/ml_dtypes (int -> int, Add, Sub, Mul), tables/*.txt.

use xlet_small_float::*;

fn rows<'a>(table: &'a str, tag: &'a str) -> impl Iterator<Item = (&'a str, i64, i64)> + 'a {
    table.lines().filter_map(move |l| {
        let w: Vec<&str> = l.split_whitespace().collect();
        if w.first() != Some(&tag) {
            return None;
        }
        match tag {
            "f" => Some((w[1], 0, w[2].parse().expect("int"))),
            "i" => Some(("", w[1].parse().expect("int"), w[2].parse().expect("int"))),
            _ => Some((w[1], w[2].parse().expect("int"), w[3].parse().expect("int"))),
        }
    })
}

macro_rules! int_tests {
    ($($modname:ident: $ty:ident, $file:literal;)*) => {$(
        mod $modname {
            use super::*;
            const TABLE: &str = include_str!(concat!("../tables/", $file, ".txt"));

            #[test]
            fn from_float_truncates_and_saturates_as_xla() {
                let mut n = 0;
                for (bits, _, want) in rows(TABLE, "f") {
                    let x = f32::from_bits(u32::from_str_radix(bits, 16).expect("hex"));
                    assert_eq!($ty::from_f32(x).get(), want, "{} from {x:e}", $ty::NAME);
                    assert_eq!($ty::from_f64(f64::from(x)).get(), want, "{} from {x:e}", $ty::NAME);
                    n += 1;
                }
                assert!(n > 100);
            }

            #[test]
            fn from_int_wraps() {
                let mut n = 0;
                for (_, v, want) in rows(TABLE, "i") {
                    assert_eq!($ty::wrap(v).get(), want, "{} from {v}", $ty::NAME);
                    assert_eq!($ty::from_i64(v).get(), want);
                    assert_eq!($ty::from_u64(v as u64).get(), want);
                    n += 1;
                }
                assert!(n > 600);
            }

            #[test]
            fn arithmetic_and_shifts_match() {
                for op in ["add", "sub", "mul", "div", "rem", "shl", "sra", "srl"] {
                    let mut n = 0;
                    for (_, a, want) in rows(TABLE, op) {
                        let _ = a;
                        n += 1;
                        let _ = want;
                    }
                    let pairs = 1usize << (2 * $ty::BITS);
                    assert_eq!(n, pairs, "{op}");
                }
                for line in TABLE.lines() {
                    let w: Vec<&str> = line.split_whitespace().collect();
                    if w.len() != 4 {
                        continue;
                    }
                    let p = |s: &str| s.parse::<i64>().expect("int");
                    let (a, b, want) = ($ty::wrap(p(w[1])), $ty::wrap(p(w[2])), p(w[3]));
                    assert_eq!((a.get(), b.get()), (p(w[1]), p(w[2])), "operands stay in range");
                    let got = match w[0] {
                        "add" => a.wrapping_add(b),
                        "sub" => a.wrapping_sub(b),
                        "mul" => a.wrapping_mul(b),
                        "div" => a.xla_div(b),
                        "rem" => a.xla_rem(b),
                        "shl" => a.shl(b),
                        "sra" => a.shr_arithmetic(b),
                        "srl" => a.shr_logical(b),
                        other => panic!("unknown op {other}"),
                    };
                    assert_eq!(got.get(), want, "{} {} {a:?} {b:?}", $ty::NAME, w[0]);
                }
            }

            #[test]
            fn bits_and_limits() {
                for p in 0..=255u8 {
                    let v = $ty::from_bits(p);
                    assert_eq!(v.to_bits(), p & ((1u16 << $ty::BITS) - 1) as u8);
                    assert!($ty::MIN <= v && v <= $ty::MAX);
                    assert_eq!($ty::from_bits(v.to_bits()), v);
                    assert_eq!(v.to_f32() as i64, v.get());
                    assert_eq!(v.to_f64() as i64, v.get());
                    assert_eq!(v.wrapping_neg().wrapping_add(v).get(), 0);
                }
                assert_eq!($ty::MAX.get() - $ty::MIN.get(), (1i64 << $ty::BITS) - 1);
            }
        }
    )*};
}

int_tests! {
    s4: S4, "s4";
    u4: U4, "u4";
    s2: S2, "s2";
    u2: U2, "u2";
}

#[test]
fn small_floats_convert_to_small_ints_through_f32() {
    assert_eq!(S4::from_f32(F8E4M3FN::from_f32(448.0).to_f32()).get(), 7);
    assert_eq!(U4::from_f32(F8E4M3FN::from_f32(-3.5).to_f32()).get(), 0);
    assert_eq!(S4::from_f32(F8E5M2::from_f32(f32::NAN).to_f32()).get(), 0);
    assert_eq!(F4E2M1FN::from_f32(S4::wrap(-7).to_f32()).to_f32(), -6.0);
}
