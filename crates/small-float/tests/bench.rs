//! Conversion speed against a plain copy of the f32 buffer (the larger side).
//! Run: cargo test -p xlet-small-float --release --test bench -- --ignored --nocapture

use std::hint::black_box;
use std::time::Instant;
use xlet_small_float::*;

const N: usize = 16 << 20;

fn best_ms(mut f: impl FnMut()) -> f64 {
    f();
    (0..7)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e3
        })
        .fold(f64::INFINITY, f64::min)
}

macro_rules! bench_formats {
    ($src:ident, $copy:ident, $($ty:ident),*) => {$({
        let mut small = vec![$ty::default(); N];
        let enc = best_ms(|| {
            $ty::from_f32_slice(black_box(&$src), &mut small);
            black_box(&small);
        });
        let mut back = vec![0f32; N];
        let dec = best_ms(|| {
            $ty::to_f32_slice(black_box(&small), &mut back);
            black_box(&back);
        });
        for (i, (&x, &y)) in $src.iter().zip(&back).enumerate().step_by(4097) {
            assert_eq!(y.to_bits(), $ty::from_f32(x).to_f32().to_bits(), "{i}");
        }
        println!(
            "{:>14}: f32->fmt {enc:6.2} ms ({:.2}x copy)  fmt->f32 {dec:6.2} ms ({:.2}x copy)",
            $ty::NAME, enc / $copy, dec / $copy
        );
    })*};
}

#[test]
#[ignore = "timing; run by hand"]
fn conversion_speed_vs_copy() {
    // Values across f8e4m3fn's range and past it, a few subnormals and NaNs.
    let src: Vec<f32> = (0..N as u32)
        .map(|i| {
            let h = i.wrapping_mul(0x9e37_79b9) >> 8;
            let x = (h as f32 / (1 << 24) as f32 - 0.5) * 1200.0;
            if i % 1000 == 7 {
                f32::NAN
            } else if i % 100 == 3 {
                x * 1e-6
            } else {
                x
            }
        })
        .collect();
    let mut dst = vec![0f32; N];
    let copy = best_ms(|| {
        dst.copy_from_slice(black_box(&src));
        black_box(&dst);
    });
    println!("copy of f32[{N}]: {copy:.2} ms");
    bench_formats!(
        src,
        copy,
        F8E4M3FN,
        F8E5M2,
        F8E4M3FNUZ,
        F8E5M2FNUZ,
        F8E4M3B11FNUZ,
        F8E4M3,
        F8E3M4,
        F8E8M0FNU,
        F6E2M3FN,
        F6E3M2FN,
        F4E2M1FN
    );
}
