//! BitcastConvertType (spec/ops/bitcast_convert_type.md):
//! `BitcastConvertType(operand, new_element_type)`. The bits stay, the type
//! changes. Between types of one width it is elementwise (an elementwise kernel,
//! so it fuses like ConvertElementType); between widths the last dimension
//! splits into or merges from the narrower elements, least significant part
//! first (XLA's little-endian order).

use super::common::{contiguous, internal};
use super::registry::{Checked, OpDef, OpId};
use half::{bf16, f16};
use ndarray::{ArrayD, IxDyn};
use rayon::prelude::*;
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::alloc;
use xlet_core::diag::Diag;
use xlet_core::types::{ElemType, Type};
use xlet_core::value::{Array, Elem, Nd, Value};
use xlet_ir::{EvalCx, Kernel, KernelError};
use xlet_kernels::fused::{ChunkElem, ElementwiseFn, ElementwiseKernel, unary};
use xlet_kernels::strided::{GRAIN, TASK, interrupt_error, interrupted};

const SPEC: &str = include_str!("../../../spec/ops/bitcast_convert_type.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::BitcastConvertType,
    aliases: &[],
    signature: "BitcastConvertType(operand, new_element_type)",
    spec: SPEC,
    rule,
}];

/// An element type seen as its bit pattern (every type but pred).
pub trait Bits: Copy + Send + Sync + 'static {
    /// Width in bits.
    const BITS: u32;
    /// The bit pattern, zero-extended.
    fn to_bits64(self) -> u64;
    /// The value with the low `BITS` bits of `b` as its pattern.
    fn from_bits64(b: u64) -> Self;
}

macro_rules! bits_int {
    ($($t:ty => $u:ty),*) => {$(
        impl Bits for $t {
            const BITS: u32 = <$u>::BITS;
            fn to_bits64(self) -> u64 { self as $u as u64 }
            fn from_bits64(b: u64) -> Self { b as $u as $t }
        }
    )*};
}
bits_int!(i8 => u8, i16 => u16, i32 => u32, i64 => u64, u8 => u8, u16 => u16, u32 => u32, u64 => u64);

macro_rules! bits_float {
    ($($t:ty => $u:ty),*) => {$(
        impl Bits for $t {
            const BITS: u32 = <$u>::BITS;
            fn to_bits64(self) -> u64 { self.to_bits() as u64 }
            fn from_bits64(b: u64) -> Self { <$t>::from_bits(b as $u) }
        }
    )*};
}
bits_float!(f16 => u16, bf16 => u16, f32 => u32, f64 => u64);

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let o = cx.operand(0, "operand")?;
    let t = cx.array(&o, "C1", "operand")?.clone();
    let to = cx.elem_type(Some(1), "new_element_type")?;
    let help = "pred has no bit pattern to reinterpret; compare with 0 (Ne(x, 0)) or Select between values instead";
    if t.elem == ElemType::Pred {
        return Err(cx
            .err(
                "C2",
                format!("the operand is {t}; pred cannot be bitcast"),
                o.span.clone(),
            )
            .with_label("pred operand")
            .with_help(help));
    }
    if to.value == ElemType::Pred {
        return Err(cx
            .err("C2", "pred is not a bitcast target", to.span.clone())
            .with_label("pred target")
            .with_help(help));
    }
    // C4: complex numbers bitcast only to themselves (XLA refuses a bitcast
    // between complex and real types).
    if (t.elem.is_complex() || to.value.is_complex()) && t.elem != to.value {
        return Err(cx
            .err(
                "C4",
                format!(
                    "cannot bitcast {t} to {}: complex types bitcast only to themselves",
                    to.value
                ),
                to.span.clone(),
            )
            .with_label(format!("{} target", to.value))
            .with_secondary(o.span.clone(), format!("{t}"))
            .with_help(
                "take the parts with Real(x) and Imag(x), or build from them with Complex(re, im)",
            ));
    }
    let (wi, wo) = (t.elem.bit_width(), to.value.bit_width());
    let small = t.elem.small().is_some() || to.value.small().is_some();
    // C5: a bitcast that changes the width splits or joins whole bytes; the
    // types narrower than a byte (and the 6-bit floats) bitcast only to types
    // of their own width (spec/small_types.md §5).
    if small && wi != wo && (wi % 8 != 0 || wo % 8 != 0) {
        let narrow = if wi % 8 != 0 { t.elem } else { to.value };
        return Err(cx
            .err(
                "C5",
                format!(
                    "cannot bitcast {t} to {}: {narrow} is {} bits, not whole bytes, so it bitcasts only to types of its own width",
                    to.value,
                    narrow.bit_width()
                ),
                to.span.clone(),
            )
            .with_label(format!("{} target: {wo} bits", to.value))
            .with_secondary(o.span.clone(), format!("{t}: {wi} bits"))
            .with_help("convert the values instead with ConvertElementType, or bitcast between types of one width (s4, u4 and f4e2m1fn are all 4 bits)"));
    }
    let mut dims = t.dims.clone();
    let kernel: Arc<dyn Kernel> = if small && wi == wo {
        if to.value == t.elem {
            Arc::new(SameType)
        } else {
            Arc::new(SmallSameWidth { to: to.value })
        }
    } else if wi == wo {
        if to.value == t.elem {
            Arc::new(SameType)
        } else {
            Arc::new(ElementwiseKernel {
                // Every pair of non-pred types of one width has a function.
                f: pick_same_width(t.elem, to.value)
                    .ok_or_else(|| cx.err("C2", "pred cannot be bitcast", to.span.clone()))?,
                maps: vec![(0..t.rank()).collect()],
                out_dims: t.dims.clone(),
                out_elem: to.value,
            })
        }
    } else {
        if wi > wo {
            // Narrowing: each element becomes wi/wo elements along a new last dimension.
            dims.push((wi / wo) as usize);
        } else {
            // Widening: the last dimension holds the wo/wi parts of one element.
            let k = (wo / wi) as usize;
            if dims.last() != Some(&k) {
                let found = match dims.last() {
                    None => "a scalar has no last dimension".to_string(),
                    Some(d) => format!("its last dimension is {d}"),
                };
                return Err(cx
                    .err(
                        "C3",
                        format!(
                            "bitcasting {t} to the wider {} needs a last dimension of {wo}/{wi} = {k} (the parts of one element); {found}",
                            to.value
                        ),
                        o.span.clone(),
                    )
                    .with_label(format!("{t}"))
                    .with_secondary(to.span.clone(), format!("{}: {wo} bits", to.value))
                    .with_help(format!(
                        "reshape the operand so that its last dimension is {k}, e.g. {}[...x{k}]",
                        t.elem
                    )));
            }
            dims.pop();
        }
        // A small type splits or joins as its bytes (the evaluator gives the
        // result its small type back).
        let bytes = |e: ElemType| if e.small().is_some() { ElemType::U8 } else { e };
        Arc::new(ResizeKernel {
            from: bytes(t.elem),
            to: bytes(to.value),
        })
    };
    Ok(Checked {
        ty: Type::array(to.value, dims),
        kernel,
    })
}

fn pick_same_width(from: ElemType, to: ElemType) -> Option<Arc<dyn ElementwiseFn>> {
    crate::for_class!(from, S, [int, float] =>
        crate::for_class!(to, D, [int, float] => same_width::<S, D>()))
    .flatten()
}

fn same_width<S: ChunkElem + Bits, D: ChunkElem + Bits>() -> Arc<dyn ElementwiseFn> {
    unary::<S, D, _>(|x: S| D::from_bits64(x.to_bits64()))
}

/// Bitcast to the operand's own type: the operand, unchanged and uncopied.
struct SameType;

impl Kernel for SameType {
    fn allocates(&self) -> bool {
        false
    }
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        match args {
            [v @ Value::Array(_)] => Ok(v.clone()),
            _ => Err(internal("BitcastConvertType expects one array")),
        }
    }
}

/// Bitcast of one width where a side is a small type: the patterns are the
/// bits (in the low bits of each byte), so this is a retag, or for s8 a copy.
struct SmallSameWidth {
    to: ElemType,
}

impl Kernel for SmallSameWidth {
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let [Value::Array(a)] = args else {
            return Err(internal("BitcastConvertType expects one array"));
        };
        let bytes = match a {
            Array::Small(_, x) | Array::U8(x) => x.clone(),
            Array::S8(x) => x.mapv(|v| v as u8).into_shared(),
            _ => return Err(internal("BitcastConvertType: no bytes")),
        };
        Ok(Value::Array(match self.to {
            ElemType::Small(t) => Array::Small(t, bytes),
            ElemType::S8 => Array::S8(bytes.mapv(|b| b as i8).into_shared()),
            _ => Array::U8(bytes),
        }))
    }
}

/// Bitcast between widths: splits or joins the last dimension.
struct ResizeKernel {
    from: ElemType,
    to: ElemType,
}

impl Kernel for ResizeKernel {
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let [Value::Array(a)] = args else {
            return Err(internal("BitcastConvertType expects one array"));
        };
        let to = self.to;
        let out = crate::for_class!(self.from, S, [int, float] => {
            match super::common::typed::<S>(a) {
                Ok(x) => crate::for_class!(to, D, [int, float] => resize::<S, D>(x.clone())),
                Err(e) => Some(Err(e)),
            }
        });
        match out {
            Some(Some(r)) => r.map(Value::Array),
            _ => Err(internal("BitcastConvertType between unsupported types")),
        }
    }
}

/// Reinterprets the operand's elements as elements of `D`, keeping their bits:
/// one `S` becomes `S::BITS / D::BITS` consecutive `D`s (its least significant
/// part first), or that many consecutive `S`s make one `D`.
fn resize<S: Bits + Elem, D: Bits + Elem>(x: Nd<S>) -> Result<Array, KernelError> {
    let x = contiguous(x)?;
    let xs = x
        .as_slice()
        .ok_or_else(|| internal("contiguous operand without a slice"))?;
    let mut dims = x.shape().to_vec();
    let (ws, wd) = (S::BITS, D::BITS);
    let n_out = xs.len() * ws as usize / wd as usize;
    if ws > wd {
        dims.push((ws / wd) as usize);
    } else if dims.pop() != Some((wd / ws) as usize) {
        return Err(internal(
            "bitcast operand's last dimension is not the width ratio",
        ));
    }
    let mut out: Vec<D> = alloc::try_output_vec(n_out, &"the bitcast result")?;
    let buf = &mut out.spare_capacity_mut()[..n_out];
    let fill = |(i, part): (usize, &mut [std::mem::MaybeUninit<D>])| {
        if interrupted() {
            return Err(interrupt_error());
        }
        let start = i * TASK;
        fill_range::<S, D>(xs, start, part);
        Ok(())
    };
    if n_out < GRAIN {
        buf.chunks_mut(TASK).enumerate().try_for_each(fill)?;
    } else {
        buf.par_chunks_mut(TASK).enumerate().try_for_each(fill)?;
    }
    // SAFETY: every chunk of the n_out elements was written by `fill_range`.
    unsafe { out.set_len(n_out) };
    ArrayD::from_shape_vec(IxDyn(&dims), out)
        .map(|a| D::wrap(a.into_shared()))
        .map_err(|_| internal("bitcast element count does not match its shape"))
}

/// Output elements `start..start + out.len()` of the bitcast of `xs`.
fn fill_range<S: Bits, D: Bits>(xs: &[S], start: usize, out: &mut [std::mem::MaybeUninit<D>]) {
    let (ws, wd) = (S::BITS, D::BITS);
    if ws > wd {
        let k = (ws / wd) as usize;
        let mask = if wd == 64 { u64::MAX } else { (1u64 << wd) - 1 };
        for (j, o) in out.iter_mut().enumerate() {
            let idx = start + j;
            let part = (idx % k) as u32;
            o.write(D::from_bits64(
                (xs[idx / k].to_bits64() >> (part * wd)) & mask,
            ));
        }
    } else {
        let k = (wd / ws) as usize;
        for (j, o) in out.iter_mut().enumerate() {
            let parts = &xs[(start + j) * k..(start + j + 1) * k];
            let b = parts
                .iter()
                .enumerate()
                .fold(0u64, |b, (p, v)| b | (v.to_bits64() << (p as u32 * ws)));
            o.write(D::from_bits64(b));
        }
    }
}

/// The reference form, element by element through the stated rule (for tests).
#[cfg(test)]
fn reference<S: Bits, D: Bits>(xs: &[S]) -> Vec<D> {
    let (ws, wd) = (S::BITS as usize, D::BITS as usize);
    // Lay the operand out as bits, least significant first, and read them back.
    let mut bits = vec![false; xs.len() * ws];
    for (i, x) in xs.iter().enumerate() {
        for b in 0..ws {
            bits[i * ws + b] = (x.to_bits64() >> b) & 1 == 1;
        }
    }
    bits.chunks(wd)
        .map(|c| {
            D::from_bits64(
                c.iter()
                    .enumerate()
                    .fold(0, |acc, (b, &on)| acc | (u64::from(on) << b)),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check<S: Bits + Elem, D: Bits + Elem + PartialEq + std::fmt::Debug>(
        xs: Vec<S>,
        dims: &[usize],
    ) {
        let a = ArrayD::from_shape_vec(IxDyn(dims), xs.clone())
            .unwrap()
            .into_shared();
        let got = resize::<S, D>(a).unwrap();
        let got: Vec<D> = D::unwrap(&got).unwrap().iter().copied().collect();
        let want = reference::<S, D>(&xs);
        let bits = |v: &[D]| v.iter().map(|x| x.to_bits64()).collect::<Vec<_>>();
        assert_eq!(bits(&got), bits(&want));
    }

    #[test]
    fn resize_matches_reference() {
        let xs: Vec<u64> = (0..40_000u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        check::<u64, u8>(xs.clone(), &[40_000]);
        check::<u64, f16>(xs.clone(), &[200, 200]);
        let xs8: Vec<u8> = xs.iter().map(|&x| (x >> 7) as u8).collect();
        check::<u8, u64>(xs8.clone(), &[5_000, 8]);
        check::<u8, f32>(xs8, &[10_000, 4]);
        let xf: Vec<f32> = (0..10_000).map(|i| i as f32 * -1.5e-3).collect();
        check::<f32, bf16>(xf, &[10_000]);
    }

    #[test]
    fn strided_operand_is_read_in_order() {
        // A transposed view: the bitcast reads it row-major in its own index order.
        let a = ArrayD::from_shape_vec(IxDyn(&[2, 2]), vec![0x0102u16, 0x0304, 0x0506, 0x0708])
            .unwrap()
            .into_shared();
        let t = a.reversed_axes();
        let got = resize::<u16, u8>(t).unwrap();
        let got: Vec<u8> = u8::unwrap(&got).unwrap().iter().copied().collect();
        // t = {{0x0102, 0x0506}, {0x0304, 0x0708}}, each split low byte first.
        assert_eq!(got, [2, 1, 6, 5, 4, 3, 8, 7]);
    }
}
