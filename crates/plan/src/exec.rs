//! Running instructions on the register file. Every register is a `Chunk`
//! buffer made when the loop starts; an instruction refills its result's
//! buffer in place, so an iteration allocates nothing.

use crate::compile::{Ins, MAX_RANK, Native, Op};
use xlet_core::error::KernelError;
use xlet_core::types::ElemType;
use xlet_kernels::fused::{Chunk, ChunkElem, Slice};

/// `$body` with `$x` the operand's elements and `$o` the result's buffer,
/// when they are of one type.
macro_rules! same {
    ($src:expr, $out:expr, $x:ident, $o:ident => $body:expr) => {
        same!(@arms $src, $out, $x, $o, $body;
            Pred, S8, S16, S32, S64, U8, U16, U32, U64, F16, BF16, F32, F64, C64, C128)
    };
    (@arms $src:expr, $out:expr, $x:ident, $o:ident, $body:expr; $($v:ident),*) => {
        match ($src, &mut *$out) {
            $((Slice::$v($x), Chunk::$v($o)) => $body,)*
            _ => return Err(mismatch()),
        }
    };
}

pub fn internal(what: &str) -> KernelError {
    KernelError::new("internal", format!("internal error: plan: {what}"))
}

fn mismatch() -> KernelError {
    internal("an operand of unexpected type")
}

/// Runs `code` on `file`.
pub fn run(code: &[Ins<usize>], file: &mut [Chunk]) -> Result<(), KernelError> {
    for ins in code {
        match ins.op {
            Op::Native(n, e) => native(n, e, &ins.ins, ins.out, file)?,
            _ => step(ins, file)?,
        }
    }
    Ok(())
}

/// Any instruction but a typed scalar one (kept out of line, so that the
/// loop over scalar instructions stays small).
#[inline(never)]
fn step(ins: &Ins<usize>, file: &mut [Chunk]) -> Result<(), KernelError> {
    let slot = file.get_mut(ins.out).ok_or_else(|| internal("register"))?;
    // The result's buffer is taken out while the operands are read (the
    // assignment never gives a result an operand's buffer, except the
    // operand DynamicUpdateSlice updates in place, which is this buffer).
    let mut out = std::mem::replace(slot, Chunk::Pred(Vec::new()));
    let r = op(ins, file, &mut out);
    if let Some(slot) = file.get_mut(ins.out) {
        *slot = out;
    }
    r
}

#[inline]
fn reg<'a>(file: &'a [Chunk], r: usize) -> Result<Slice<'a>, KernelError> {
    macro_rules! arms {
        ($c:expr; $($v:ident),*) => { match $c { $(Chunk::$v(x) => Slice::$v(x),)* } };
    }
    let c = file.get(r).ok_or_else(|| internal("register"))?;
    Ok(arms!(c; Pred, S8, S16, S32, S64, U8, U16, U32, U64, F16, BF16, F32, F64, C64, C128))
}

fn op(ins: &Ins<usize>, file: &[Chunk], out: &mut Chunk) -> Result<(), KernelError> {
    match &ins.op {
        Op::Native(..) => Err(internal("a native instruction off its path")),
        Op::Elementwise(f) => {
            let mut fixed = [Slice::Pred(&[]); 3];
            if ins.ins.len() <= fixed.len() {
                for (d, &r) in fixed.iter_mut().zip(&ins.ins) {
                    *d = reg(file, r)?;
                }
                f.run_chunk(&fixed[..ins.ins.len()], out)
            } else {
                let v = ins
                    .ins
                    .iter()
                    .map(|&r| reg(file, r))
                    .collect::<Result<Vec<_>, _>>()?;
                f.run_chunk(&v, out)
            }
        }
        Op::Broadcast { len } => {
            let src = reg(file, *ins.ins.first().ok_or_else(mismatch)?)?;
            same!(src, out, x, o => {
                o.clear();
                match x {
                    [one] => o.extend(std::iter::repeat_n(*one, *len)),
                    [] => {}
                    _ => {
                        while o.len() < *len {
                            o.extend_from_slice(x);
                        }
                    }
                }
            });
            Ok(())
        }
        Op::DynamicSlice { dims, sizes } => {
            let (&src, starts) = ins.ins.split_first().ok_or_else(mismatch)?;
            let at = clamped(file, starts, dims, sizes)?;
            let zero = [0; MAX_RANK];
            let n: usize = sizes.iter().product();
            let src = reg(file, src)?;
            same!(src, out, x, o => {
                if o.len() != n {
                    o.clear();
                    o.resize(n, Default::default());
                }
                copy_block(x, dims, &at[..dims.len()], o, sizes, &zero[..dims.len()], sizes)?;
            });
            Ok(())
        }
        Op::DynamicUpdateSlice { dims, update } => {
            let [operand, upd, ref starts @ ..] = ins.ins[..] else {
                return Err(mismatch());
            };
            let at = clamped(file, starts, dims, update)?;
            if operand != ins.out {
                // Not in place: the result starts as a copy of the operand.
                let src = reg(file, operand)?;
                same!(src, out, x, o => {
                    o.clear();
                    o.extend_from_slice(x);
                });
            }
            let zero = [0; MAX_RANK];
            let u = reg(file, upd)?;
            same!(u, out, x, o => {
                copy_block(x, update, &zero[..dims.len()], o, dims, &at[..dims.len()], update)?;
            });
            Ok(())
        }
        Op::Strided {
            dims,
            offset,
            strides,
        } => {
            let src = reg(file, *ins.ins.first().ok_or_else(mismatch)?)?;
            same!(src, out, x, o => gather(x, dims, *offset, strides, o))
        }
        Op::Concatenate { rows, blocks } => {
            let first = reg(file, *ins.ins.first().ok_or_else(mismatch)?)?;
            same!(first, out, _x, o => o.clear());
            for row in 0..*rows {
                for (&r, &b) in ins.ins.iter().zip(blocks) {
                    let part = || internal("a Concatenate operand of another size");
                    same!(reg(file, r)?, out, x, o => {
                        o.extend_from_slice(x.get(row * b..(row + 1) * b).ok_or_else(part)?)
                    });
                }
            }
            Ok(())
        }
        Op::Reduce { op, m, n } => {
            let [x, init] = ins.ins[..] else {
                return Err(mismatch());
            };
            let init = file.get(init).ok_or_else(|| internal("register"))?;
            same!(reg(file, x)?, out, x, o => crate::reduce::rows(*op, x, (*m, *n), init, o))
        }
    }
}

/// The starts of a slicing op, read from their registers (scalars, or one
/// vector) and clamped as DynamicSlice clamps them: into `0..=dim - size`, an
/// unsigned start above `i64::MAX` saturating first.
fn clamped(
    file: &[Chunk],
    starts: &[usize],
    dims: &[usize],
    sizes: &[usize],
) -> Result<[usize; MAX_RANK], KernelError> {
    let mut raw = [0i64; MAX_RANK];
    let mut k = 0;
    for &r in starts {
        macro_rules! take {
            ($x:expr, $conv:expr) => {
                for &v in $x {
                    *raw.get_mut(k).ok_or_else(|| internal("start indices"))? = $conv(v);
                    k += 1;
                }
            };
        }
        match reg(file, r)? {
            Slice::S8(x) => take!(x, i64::from),
            Slice::S16(x) => take!(x, i64::from),
            Slice::S32(x) => take!(x, i64::from),
            Slice::S64(x) => take!(x, |v| v),
            Slice::U8(x) => take!(x, i64::from),
            Slice::U16(x) => take!(x, i64::from),
            Slice::U32(x) => take!(x, i64::from),
            Slice::U64(x) => take!(x, |v: u64| i64::try_from(v).unwrap_or(i64::MAX)),
            _ => return Err(mismatch()),
        }
    }
    if k != dims.len() || sizes.len() != dims.len() {
        return Err(internal("start indices do not match the operand's rank"));
    }
    let mut at = [0usize; MAX_RANK];
    for d in 0..k {
        let hi = i64::try_from(dims[d].saturating_sub(sizes[d])).unwrap_or(i64::MAX);
        at[d] = raw[d].clamp(0, hi) as usize;
    }
    Ok(at)
}

/// Copies the `block`-shaped box at `from` of `src` (of `sdims`, row-major)
/// to `at` in `dst` (of `ddims`).
pub(crate) fn copy_block<T: Copy>(
    src: &[T],
    sdims: &[usize],
    from: &[usize],
    dst: &mut [T],
    ddims: &[usize],
    at: &[usize],
    block: &[usize],
) -> Result<(), KernelError> {
    let r = block.len();
    if sdims.len() != r || ddims.len() != r || from.len() != r || at.len() != r || r > MAX_RANK {
        return Err(internal("block rank"));
    }
    if r == 0 {
        let (Some(d), Some(s)) = (dst.first_mut(), src.first()) else {
            return Err(internal("scalar block"));
        };
        *d = *s;
        return Ok(());
    }
    if block.contains(&0) {
        return Ok(());
    }
    let stride = |dims: &[usize]| {
        let mut s = [1usize; MAX_RANK];
        for d in (0..r.saturating_sub(1)).rev() {
            s[d] = s[d + 1] * dims[d + 1];
        }
        s
    };
    let (ss, ds) = (stride(sdims), stride(ddims));
    let inner = block[r - 1];
    let mut idx = [0usize; MAX_RANK];
    loop {
        let (mut so, mut dof) = (0, 0);
        for d in 0..r {
            so += (from[d] + idx[d]) * ss[d];
            dof += (at[d] + idx[d]) * ds[d];
        }
        let s = src
            .get(so..so + inner)
            .ok_or_else(|| internal("block read"))?;
        dst.get_mut(dof..dof + inner)
            .ok_or_else(|| internal("block write"))?
            .copy_from_slice(s);
        // The next row of the block (the last dimension is copied whole).
        if !next_row(&mut idx[..r], block) {
            return Ok(());
        }
    }
}

/// Steps `idx` to the next row of `dims` in row-major order (the last
/// dimension is a row, taken whole, so it is not stepped); false after the
/// last row.
fn next_row(idx: &mut [usize], dims: &[usize]) -> bool {
    let mut d = idx.len().saturating_sub(1);
    loop {
        if d == 0 {
            return false;
        }
        d -= 1;
        idx[d] += 1;
        if idx[d] < dims[d] {
            return true;
        }
        idx[d] = 0;
    }
}

/// `Op::Strided` on one element type: `out` refilled (within its capacity)
/// with `src`'s elements at `offset + sum(idx[d] * strides[d])`, `idx`
/// row-major over `dims`.
pub(crate) fn gather<T: Copy>(
    src: &[T],
    dims: &[usize],
    offset: usize,
    strides: &[usize],
    out: &mut Vec<T>,
) -> Result<(), KernelError> {
    out.clear();
    let r = dims.len();
    let bad = || internal("a strided read outside its operand");
    if r == 0 {
        out.push(*src.get(offset).ok_or_else(bad)?);
        return Ok(());
    }
    if r > MAX_RANK || strides.len() != r {
        return Err(internal("strided rank"));
    }
    if dims.contains(&0) {
        return Ok(());
    }
    let (inner, step) = (dims[r - 1], strides[r - 1]);
    let mut idx = [0usize; MAX_RANK];
    loop {
        let base: usize = offset + (0..r - 1).map(|d| idx[d] * strides[d]).sum::<usize>();
        let row = src.get(base..).ok_or_else(bad)?;
        let before = out.len();
        match step {
            0 => out.extend(std::iter::repeat_n(*row.first().ok_or_else(bad)?, inner)),
            1 => out.extend_from_slice(row.get(..inner).ok_or_else(bad)?),
            _ => out.extend(row.iter().step_by(step).take(inner).copied()),
        }
        if out.len() != before + inner {
            return Err(bad());
        }
        // The next row (the last dimension is read whole).
        if !next_row(&mut idx[..r], dims) {
            return Ok(());
        }
    }
}

/// An element type of the typed scalar instructions: integer arithmetic
/// wraps and float arithmetic is IEEE, as the ops' own functions compute.
pub(crate) trait Num: ChunkElem + Copy + PartialOrd {
    fn add(self, y: Self) -> Self;
    fn sub(self, y: Self) -> Self;
    fn mul(self, y: Self) -> Self;
}

macro_rules! num {
    (int: $($t:ty),*; float: $($f:ty),*) => {
        $(impl Num for $t {
            #[inline(always)]
            fn add(self, y: Self) -> Self { self.wrapping_add(y) }
            #[inline(always)]
            fn sub(self, y: Self) -> Self { self.wrapping_sub(y) }
            #[inline(always)]
            fn mul(self, y: Self) -> Self { self.wrapping_mul(y) }
        })*
        $(impl Num for $f {
            #[inline(always)]
            fn add(self, y: Self) -> Self { self + y }
            #[inline(always)]
            fn sub(self, y: Self) -> Self { self - y }
            #[inline(always)]
            fn mul(self, y: Self) -> Self { self * y }
        })*
    };
}
num!(int: i32, i64, u32, u64; float: f32, f64);

#[inline(always)]
fn scalar<T: ChunkElem + Copy>(file: &[Chunk], r: usize) -> Result<T, KernelError> {
    file.get(r)
        .and_then(T::chunk)
        .and_then(|v| v.first())
        .copied()
        .ok_or_else(mismatch)
}

/// Writes `v` as the one element of register `o`.
#[inline(always)]
fn put<O: ChunkElem>(file: &mut [Chunk], o: usize, v: O) -> Result<(), KernelError> {
    let o = file
        .get_mut(o)
        .and_then(O::chunk_mut)
        .ok_or_else(mismatch)?;
    if o.len() == 1 {
        o[0] = v;
    } else {
        o.clear();
        o.push(v);
    }
    Ok(())
}

#[inline(always)]
fn typed<T: Num>(
    n: Native,
    file: &mut [Chunk],
    a: usize,
    b: usize,
    o: usize,
) -> Result<(), KernelError> {
    let (x, y) = (scalar::<T>(file, a)?, scalar::<T>(file, b)?);
    match n {
        Native::Add => put(file, o, x.add(y)),
        Native::Sub => put(file, o, x.sub(y)),
        Native::Mul => put(file, o, x.mul(y)),
        Native::Lt => put(file, o, x < y),
        Native::Le => put(file, o, x <= y),
        Native::Gt => put(file, o, x > y),
        Native::Ge => put(file, o, x >= y),
        Native::Eq => put(file, o, x == y),
        Native::Ne => put(file, o, x != y),
    }
}

/// A typed scalar instruction: operands read and the result written in their
/// registers, with no call through the op's function.
#[inline(always)]
fn native(
    n: Native,
    e: ElemType,
    ins: &[usize],
    o: usize,
    file: &mut [Chunk],
) -> Result<(), KernelError> {
    let [a, b] = *ins else {
        return Err(mismatch());
    };
    match e {
        ElemType::S32 => typed::<i32>(n, file, a, b, o),
        ElemType::S64 => typed::<i64>(n, file, a, b, o),
        ElemType::U32 => typed::<u32>(n, file, a, b, o),
        ElemType::U64 => typed::<u64>(n, file, a, b, o),
        ElemType::F32 => typed::<f32>(n, file, a, b, o),
        ElemType::F64 => typed::<f64>(n, file, a, b, o),
        _ => Err(mismatch()),
    }
}
