//! Fft's gradient rule (spec/ops/fft.md, spec/grad.md §7): jax's transpose
//! rules for `jnp.fft` (jax/_src/lax/fft.py), written as xlet text.
//!
//! - FFT and IFFT are linear with a symmetric matrix (`exp(-2 pi i j k / n)`
//!   is symmetric in j and k), so each one's transpose is itself: the
//!   cotangent is `Fft(c, FFT)` (`IFFT`), unconjugated (jax's convention).
//! - RFFT is "convert to complex, FFT, keep the first n/2 + 1 frequencies";
//!   its transpose is the reverse: pad `c` with zeros to n, FFT, real part.
//! - IRFFT's transpose is the RFFT of the cotangent, scaled by 1/N (N the
//!   product of the lengths) and by 2 at the frequencies whose mirror image
//!   IRFFT adds too (all but frequency 0 and, for even n, n/2), conjugated
//!   (jax's convention for a real-to-complex rule).

use super::fft_type::FftType;
use xlet_ir::rule::{NoRule, RuleCx, brace, filled, scalar};

/// The rule of `Fft(x, fft_type, fft_length)` over the last `axes` dimensions.
pub(crate) fn rule(cx: &mut RuleCx, fft_type: FftType, axes: usize) -> Result<(), NoRule> {
    let x = cx.arg_array(0)?.clone();
    let out = cx.out_array()?.clone();
    let c = cx.ct.name.clone();
    let rank = x.rank();
    let empty = x.num_elements() == Some(0) || out.num_elements() == Some(0);
    if empty || axes == 0 || axes > rank {
        cx.send(0, filled(&x, 0.0));
        return Ok(());
    }
    // The time-domain lengths: the complex side's for FFT, IFFT and RFFT, the
    // result's for IRFFT.
    let lengths = match fft_type {
        FftType::Irfft => &out.dims[rank - axes..],
        _ => &x.dims[rank - axes..],
    };
    let l = brace(lengths);
    let text = match fft_type {
        FftType::Fft => format!("Fft({c}, FFT, {l})"),
        FftType::Ifft => format!("Fft({c}, IFFT, {l})"),
        FftType::Rfft => {
            // Frequencies n/2 + 1 .. n - 1 were dropped: they get zeros.
            let n = x.dims[rank - 1];
            let kept = out.dims[rank - 1];
            let config: Vec<String> = (0..rank)
                .map(|d| match d + 1 == rank {
                    true => format!("{{0, {}, 0}}", n - kept),
                    false => "{0, 0, 0}".to_string(),
                })
                .collect();
            let zero = scalar(out.elem, 0.0);
            let padded = cx.bind(format!(
                "Pad({c}, {zero}, padding_config={{{}}})",
                config.join(", ")
            ));
            format!("Real(Fft({padded}, FFT, {l}))")
        }
        FftType::Irfft => {
            let n = out.dims[rank - 1];
            let m = x.dims[rank - 1];
            let part = out.elem;
            let count: usize = lengths.iter().product();
            let s = 1.0 / count as f64;
            // Frequency 0 and, for even n, frequency n/2 appear once in the
            // signal; the others twice (with their mirrored conjugate).
            let i = format!("Iota(s32[{m}], 0)");
            let once = if n % 2 == 0 {
                format!("Or(Eq({i}, s32 0), Eq({i}, s32 {}))", m - 1)
            } else {
                format!("Eq({i}, s32 0)")
            };
            let w = cx.bind(format!(
                "BroadcastInDim(Select({once}, Broadcast({}, {{{m}}}), Broadcast({}, {{{m}}})), {}, {{{}}})",
                scalar(part, s),
                scalar(part, 2.0 * s),
                brace(&x.dims),
                rank - 1
            ));
            let r = cx.bind(format!("Fft({c}, RFFT, {l})"));
            format!("Complex(Mul(Real({r}), {w}), Neg(Mul(Imag({r}), {w})))")
        }
    };
    cx.send(0, text);
    Ok(())
}
