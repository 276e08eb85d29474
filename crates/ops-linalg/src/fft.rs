//! Fft (spec/ops/fft.md): `Fft(operand, fft_type, fft_length)`, the forward
//! and inverse discrete Fourier transforms over the last one to three
//! dimensions: FFT and IFFT complex to complex, RFFT real to complex (keeping
//! the n/2 + 1 non-redundant frequencies of the last dimension), IRFFT back.
//! The kernels are kernels::fft (rustfft and realfft).

use super::fft_type::FftType;
use super::registry::{Checked, OpDef, OpId};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::alloc::{try_filled, try_output_vec};
use xlet_core::diag::Diag;
use xlet_core::error::internal;
use xlet_core::types::{ArrayType, ElemType, Type, fmt_dims};
use xlet_core::value::{Array, Elem, Value};
use xlet_ir::{EvalCx, Kernel, KernelError};
use xlet_kernels::contiguous;
use xlet_kernels::fft::{FftFloat, along, irfft_rows, rfft_rows};

const SPEC: &str = include_str!("../../../spec/ops/fft.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::Fft,
    aliases: &[],
    signature: "Fft(operand, fft_type, fft_length)  (fft_type: FFT, IFFT, RFFT, IRFFT)",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let o = cx.operand(0, "operand")?;
    let Some(kind) = cx.keyword(Some(1), "fft_type", &["FFT", "IFFT", "RFFT", "IRFFT"])? else {
        return Err(Diag::check(
            cx.code("arity"),
            format!("{}: missing argument `fft_type`", cx.name()),
            cx.span.clone(),
        )
        .with_label("`fft_type` is missing")
        .with_help("write Fft(x, FFT, {8}): the type is FFT, IFFT, RFFT or IRFFT"));
    };
    let fft_type = match kind.value {
        "FFT" => FftType::Fft,
        "IFFT" => FftType::Ifft,
        "RFFT" => FftType::Rfft,
        _ => FftType::Irfft,
    };
    let lengths = cx.require_int_list(Some(2), "fft_length")?;
    let t = cx.array(&o, "C1", "the operand")?.clone();
    let l = lengths.value.len();
    // C3: one to three lengths.
    if !(1..=3).contains(&l) {
        return Err(cx
            .err(
                "C3",
                format!("fft_length has {l} entries; XLA transforms 1 to 3 dimensions"),
                lengths.span.clone(),
            )
            .with_label(format!("{l} lengths"))
            .with_help(
                "give the sizes of the last one, two or three dimensions, e.g. {8} or {4, 8}",
            ));
    }
    // C1: no more lengths than dimensions.
    if l > t.rank() {
        return Err(cx
            .err(
                "C1",
                format!(
                    "fft_length has {l} entries but the operand {t} has rank {}",
                    t.rank()
                ),
                lengths.span.clone(),
            )
            .with_label(format!("{l} lengths"))
            .with_secondary(o.span.clone(), format!("{t}")));
    }
    // C2: the operand's element type for this fft_type.
    let (want, out_elem) = match (fft_type, t.elem) {
        (FftType::Rfft, ElemType::F32) => (true, ElemType::C64),
        (FftType::Rfft, ElemType::F64) => (true, ElemType::C128),
        (FftType::Irfft, e) if e.is_complex() => (true, e.component()),
        (FftType::Fft | FftType::Ifft, e) if e.is_complex() => (true, e),
        _ => (false, t.elem),
    };
    if !want {
        let takes = if fft_type == FftType::Rfft {
            "f32 or f64 (real numbers)"
        } else {
            "c64 or c128 (complex numbers)"
        };
        let help = if fft_type == FftType::Rfft {
            format!(
                "for a complex operand use FFT: Fft({}, FFT, ...)",
                cx.text(&o.span)
            )
        } else if t.elem == ElemType::F32 || t.elem == ElemType::F64 {
            format!(
                "for a real operand use RFFT, or make it complex first: Complex({}, 0)",
                cx.text(&o.span)
            )
        } else {
            "convert the operand to f32, f64, c64 or c128 first".to_string()
        };
        return Err(cx
            .err(
                "C2",
                format!("{} takes {takes}, but the operand is {t}", kind.value),
                o.span.clone(),
            )
            .with_label(format!("{t}"))
            .with_help(help));
    }
    // C4: the lengths are the operand's last dimensions (for IRFFT, the last is n/2 + 1).
    let rank = t.rank();
    let tail = &t.dims[rank - l..];
    // The dimension each length asks for; None for a negative length.
    let fits = lengths
        .value
        .iter()
        .zip(tail)
        .enumerate()
        .all(|(i, (&n, &d))| {
            usize::try_from(n).is_ok_and(|n| {
                let want = if fft_type == FftType::Irfft && i == l - 1 && n > 0 {
                    n / 2 + 1
                } else {
                    n
                };
                want == d
            })
        });
    if !fits {
        let note = if fft_type == FftType::Irfft {
            "for IRFFT the last dimension holds fft_length's last entry / 2 + 1 frequencies"
        } else {
            "the transformed dimensions are the operand's last ones"
        };
        return Err(cx
            .err(
                "C4",
                format!(
                    "fft_length {{{}}} does not match the operand {t}: its last {l} dimensions are [{}]",
                    lengths.value.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(", "),
                    fmt_dims(tail)
                ),
                lengths.span.clone(),
            )
            .with_label("these lengths")
            .with_secondary(o.span.clone(), format!("{t}"))
            .with_help(note));
    }
    let mut out_dims = t.dims.clone();
    let n_last = usize::try_from(*lengths.value.last().unwrap_or(&0)).unwrap_or(0);
    match fft_type {
        FftType::Rfft => out_dims[rank - 1] = if n_last == 0 { 0 } else { n_last / 2 + 1 },
        FftType::Irfft => out_dims[rank - 1] = n_last,
        _ => {}
    }
    let out = ArrayType::new(out_elem, out_dims);
    Ok(Checked {
        ty: Type::Array(out.clone()),
        kernel: Arc::new(FftKernel {
            fft_type,
            axes: l,
            n_last,
            out,
        }),
    })
}

struct FftKernel {
    fft_type: FftType,
    /// How many innermost dimensions are transformed.
    axes: usize,
    /// The last fft_length (the real signal's length for RFFT and IRFFT).
    n_last: usize,
    out: ArrayType,
}

impl FftKernel {
    /// The transform computed in float type `T` (f32 for f32/c64 operands).
    fn run_in<T: FftFloat + Elem>(&self, a: &Array) -> Result<Array, KernelError>
    where
        num_complex::Complex<T>: Elem,
    {
        let rank = self.out.dims.len();
        let first = rank - self.axes;
        let count = self
            .out
            .num_elements()
            .ok_or_else(|| internal("Fft result size"))?;
        match self.fft_type {
            FftType::Fft | FftType::Ifft => {
                let x = num_complex::Complex::<T>::unwrap(a)
                    .ok_or_else(|| internal("Fft operand type"))?;
                let x = contiguous(x.clone())?;
                let mut data = try_output_vec::<num_complex::Complex<T>>(count, &self.out)?;
                data.extend_from_slice(x.as_slice().ok_or_else(|| internal("Fft operand layout"))?);
                let inverse = self.fft_type == FftType::Ifft;
                for axis in (first..rank).rev() {
                    along(&mut data, &self.out.dims, axis, inverse)?;
                }
                shaped(data, &self.out.dims)
            }
            FftType::Rfft => {
                let x = T::unwrap(a).ok_or_else(|| internal("RFFT operand type"))?;
                let x = contiguous(x.clone())?;
                let mut data = try_filled(
                    count,
                    num_complex::Complex::new(T::zero(), T::zero()),
                    &self.out,
                )?;
                let input = x
                    .as_slice()
                    .ok_or_else(|| internal("RFFT operand layout"))?;
                rfft_rows(input, &mut data, self.n_last)?;
                for axis in (first..rank - 1).rev() {
                    along(&mut data, &self.out.dims, axis, false)?;
                }
                shaped(data, &self.out.dims)
            }
            FftType::Irfft => {
                let x = num_complex::Complex::<T>::unwrap(a)
                    .ok_or_else(|| internal("IRFFT operand type"))?;
                let x = contiguous(x.clone())?;
                let dims = x.shape().to_vec();
                let mut spec = try_output_vec::<num_complex::Complex<T>>(
                    x.len(),
                    &ArrayType::new(T::COMPLEX, dims.clone()),
                )?;
                spec.extend_from_slice(
                    x.as_slice()
                        .ok_or_else(|| internal("IRFFT operand layout"))?,
                );
                for axis in first..rank - 1 {
                    along(&mut spec, &dims, axis, true)?;
                }
                let mut data = try_filled(count, T::zero(), &self.out)?;
                irfft_rows(&spec, &mut data, self.n_last)?;
                shaped(data, &self.out.dims)
            }
        }
    }
}

fn shaped<T: Elem>(data: Vec<T>, dims: &[usize]) -> Result<Array, KernelError> {
    ndarray::ArrayD::from_shape_vec(ndarray::IxDyn(dims), data)
        .map(Array::from_nd)
        .map_err(|_| internal("Fft result shape"))
}

impl Kernel for FftKernel {
    fn vjp(&self, cx: &mut xlet_ir::rule::RuleCx) -> Result<(), xlet_ir::rule::NoRule> {
        crate::fft_grad::rule(cx, self.fft_type, self.axes)
    }
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let [Value::Array(a)] = args else {
            return Err(internal("Fft expects one array"));
        };
        let out = match a.elem() {
            ElemType::C64 | ElemType::F32 => self.run_in::<f32>(a),
            ElemType::C128 | ElemType::F64 => self.run_in::<f64>(a),
            _ => Err(internal("Fft operand type")),
        }?;
        Ok(Value::Array(out))
    }
}
