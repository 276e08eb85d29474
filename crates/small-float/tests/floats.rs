//! Every float format against ml_dtypes' facts (tables/*.txt, written by
//! tables/gen_tables.py): every bit pattern's value, f32 and f64 probes at
//! and one ulp around every representable value and every rounding midpoint,
//! the specials, and round trips.

use xlet_small_float::*;

/// The lines of a table whose first word is `tag`, split into hex numbers.
fn rows<'a>(table: &'a str, tag: &'a str) -> impl Iterator<Item = Vec<u64>> + 'a {
    table.lines().filter_map(move |l| {
        let mut w = l.split_whitespace();
        (w.next() == Some(tag)).then(|| {
            w.map(|x| u64::from_str_radix(x, 16).expect("hex"))
                .collect()
        })
    })
}

macro_rules! format_tests {
    ($($modname:ident: $ty:ident, $file:literal;)*) => {$(
        mod $modname {
            use super::*;
            const TABLE: &str = include_str!(concat!("../tables/", $file, ".txt"));
            const N: u32 = 1 << $ty::BITS;

            #[test]
            fn every_pattern_decodes_as_ml_dtypes() {
                let mut n = 0;
                for r in rows(TABLE, "d") {
                    let (p, want) = (r[0] as u8, r[1] as u32);
                    let got = $ty::from_bits(p).to_f32();
                    assert_eq!(got.to_bits(), want, "{} {p:#04x}", $ty::NAME);
                    assert_eq!($ty::from_bits(p).is_nan(), f32::from_bits(want).is_nan());
                    assert_eq!($ty::from_bits(p).is_inf(), f32::from_bits(want).is_infinite());
                    assert_eq!(got.to_bits(), ($ty::from_bits(p).to_f64() as f32).to_bits());
                    n += 1;
                }
                assert_eq!(n, N);
            }

            #[test]
            fn f32_probes_round_as_ml_dtypes() {
                let mut n = 0;
                for r in rows(TABLE, "f") {
                    let x = f32::from_bits(r[0] as u32);
                    let got = $ty::from_f32(x).to_bits();
                    assert_eq!(got, r[1] as u8, "{} from f32 {x:e} ({:#010x})", $ty::NAME, r[0]);
                    n += 1;
                }
                assert!(n > 100);
            }

            #[test]
            fn f64_probes_round_once_as_ml_dtypes() {
                let mut n = 0;
                for r in rows(TABLE, "g") {
                    let x = f64::from_bits(r[0]);
                    let got = $ty::from_f64(x).to_bits();
                    assert_eq!(got, r[1] as u8, "{} from f64 {x:e} ({:#018x})", $ty::NAME, r[0]);
                    n += 1;
                }
                assert!(n > 100);
            }

            #[test]
            fn constants_match_finfo_and_the_patterns() {
                let c = rows(TABLE, "c").next().expect("c line");
                assert_eq!($ty::MAX.to_bits(), c[0] as u32);
                assert_eq!($ty::MIN_POSITIVE_NORMAL.to_bits(), c[1] as u32);
                assert_eq!($ty::MIN_POSITIVE_SUBNORMAL.to_bits(), c[2] as u32);
                assert_eq!($ty::NAME, $file);
                let vals: Vec<f32> = (0..N).map(|p| $ty::from_bits(p as u8).to_f32()).collect();
                assert_eq!($ty::HAS_INF, vals.iter().any(|v| v.is_infinite()));
                assert_eq!($ty::HAS_NAN, vals.iter().any(|v| v.is_nan()));
                assert_eq!($ty::HAS_NEG_ZERO, vals.iter().any(|v| v.to_bits() == 0x8000_0000));
                let max = vals.iter().copied().filter(|v| v.is_finite()).fold(0.0, f32::max);
                assert_eq!($ty::MAX, max);
            }

            #[test]
            fn non_nan_patterns_round_trip() {
                for p in 0..N {
                    let v = $ty::from_bits(p as u8);
                    if v.is_nan() {
                        assert!($ty::from_f32(v.to_f32()).is_nan());
                        continue;
                    }
                    assert_eq!($ty::from_f32(v.to_f32()), v, "{} {p:#04x}", $ty::NAME);
                    assert_eq!($ty::from_f64(v.to_f64()), v, "{} {p:#04x}", $ty::NAME);
                    let h = half::f16::from_f32(v.to_f32());
                    if h.to_f32() == v.to_f32() {
                        assert_eq!($ty::from_f16(h), v);
                    }
                    let b = half::bf16::from_f32(v.to_f32());
                    if b.to_f32() == v.to_f32() {
                        assert_eq!($ty::from_bf16(b), v);
                    }
                }
            }

            #[test]
            fn high_bits_are_dropped_not_a_panic() {
                for p in 0..=255u8 {
                    let low = p & (N - 1) as u8;
                    assert_eq!($ty::from_bits(p).to_bits(), low);
                    assert_eq!($ty(p).to_f32().to_bits(), $ty(low).to_f32().to_bits());
                }
            }

            /// Conversion is monotone: a sweep over the f32 line (every
            /// 4099th pattern, both signs) never decodes to a smaller value
            /// for a larger input, and always lands within the format's range
            /// or on its overflow result.
            #[test]
            fn f32_sweep_is_monotone() {
                for sign in [0u32, 0x8000_0000] {
                    let mut last: Option<f32> = None;
                    let mut u = 0u32;
                    while u < 0x7f80_0000 {
                        let x = f32::from_bits(u | sign);
                        let y = $ty::from_f32(x).to_f32();
                        let yd = $ty::from_f64(f64::from(x)).to_f32();
                        assert_eq!(y.to_bits(), yd.to_bits(), "f32 and f64 paths differ at {x:e}");
                        if !y.is_nan() {
                            if let Some(l) = last {
                                assert!(y.abs() >= l.abs(), "{}: {x:e} -> {y:e} after {l:e}", $ty::NAME);
                            }
                            last = Some(y);
                        }
                        u += 4099;
                    }
                }
            }
        }
    )*};
}

format_tests! {
    f8e4m3fn: F8E4M3FN, "f8e4m3fn";
    f8e5m2: F8E5M2, "f8e5m2";
    f8e4m3fnuz: F8E4M3FNUZ, "f8e4m3fnuz";
    f8e5m2fnuz: F8E5M2FNUZ, "f8e5m2fnuz";
    f8e4m3b11fnuz: F8E4M3B11FNUZ, "f8e4m3b11fnuz";
    f8e4m3: F8E4M3, "f8e4m3";
    f8e3m4: F8E3M4, "f8e3m4";
    f8e8m0fnu: F8E8M0FNU, "f8e8m0fnu";
    f6e2m3fn: F6E2M3FN, "f6e2m3fn";
    f6e3m2fn: F6E3M2FN, "f6e3m2fn";
    f4e2m1fn: F4E2M1FN, "f4e2m1fn";
}

#[test]
fn specs_list_every_format_once() {
    let names: Vec<&str> = FLOAT_SPECS.iter().map(|s| s.name).collect();
    assert_eq!(
        names,
        [
            "f8e4m3fn",
            "f8e5m2",
            "f8e4m3fnuz",
            "f8e5m2fnuz",
            "f8e4m3b11fnuz",
            "f8e4m3",
            "f8e3m4",
            "f8e8m0fnu",
            "f6e2m3fn",
            "f6e3m2fn",
            "f4e2m1fn"
        ]
    );
}

/// Values just past a midpoint in f64 that f32 would round onto the midpoint:
/// one rounding from f64 goes up, two (through f32) would go to even.
#[test]
fn f64_rounds_once() {
    let up = 1.0625 + 2f64.powi(-40);
    assert_eq!(F8E4M3FN::from_f64(up).to_f32(), 1.125);
    assert_eq!(F8E4M3FN::from_f32(up as f32).to_f32(), 1.0);
    assert_eq!(F8E4M3FN::from_f64(1.0625).to_f32(), 1.0);
    assert_eq!(F8E5M2::from_f64(1.125 + 2f64.powi(-40)).to_f32(), 1.25);
    assert_eq!(F4E2M1FN::from_f64(2.5 + 2f64.powi(-40)).to_f32(), 3.0);
}
