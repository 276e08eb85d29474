//! The scalar tier: a plan whose every register is a scalar and every
//! instruction a typed scalar one runs on a file of 64-bit words (each value's
//! bits), with no buffer behind any register: a loop counter costs a few
//! nanoseconds an iteration. The arithmetic is `exec`'s `Num` (wrapping
//! integers, IEEE floats), so results are the same bits.

use crate::compile::{Ins, Native, Op};
use crate::exec::{Num, internal};
use xlet_core::error::KernelError;
use xlet_core::types::ElemType;
use xlet_kernels::fused::Chunk;

/// One typed scalar instruction: `o = n(a, b)` on values of type `e`.
#[derive(Clone, Copy, Debug)]
pub struct ScalarIns {
    n: Native,
    e: ElemType,
    a: usize,
    b: usize,
    o: usize,
}

/// A value's bits in a word, and back.
trait Bits: Copy {
    fn from_word(w: u64) -> Self;
    fn word(self) -> u64;
}

macro_rules! bits {
    ($($t:ty => $u:ty),*) => {$(
        impl Bits for $t {
            #[inline(always)]
            fn from_word(w: u64) -> Self { w as $u as $t }
            #[inline(always)]
            fn word(self) -> u64 { self as $u as u64 }
        }
    )*};
}
bits!(i32 => u32, i64 => u64, u32 => u32, u64 => u64);

impl Bits for f32 {
    #[inline(always)]
    fn from_word(w: u64) -> Self {
        f32::from_bits(w as u32)
    }
    #[inline(always)]
    fn word(self) -> u64 {
        self.to_bits() as u64
    }
}

impl Bits for f64 {
    #[inline(always)]
    fn from_word(w: u64) -> Self {
        f64::from_bits(w)
    }
    #[inline(always)]
    fn word(self) -> u64 {
        self.to_bits()
    }
}

impl Bits for bool {
    #[inline(always)]
    fn from_word(w: u64) -> Self {
        w != 0
    }
    #[inline(always)]
    fn word(self) -> u64 {
        self as u64
    }
}

/// The element types a scalar register may hold.
fn scalar_type(e: ElemType) -> bool {
    use ElemType::*;
    matches!(e, Pred | S32 | S64 | U32 | U64 | F32 | F64)
}

/// `code` as scalar instructions, if every instruction is a typed scalar one
/// and every register it touches a scalar of a word-sized type.
pub fn lower(code: &[Ins<usize>], regs: &[(ElemType, bool)]) -> Option<Vec<ScalarIns>> {
    let ok = |r: usize| {
        regs.get(r)
            .is_some_and(|&(e, scalar)| scalar && scalar_type(e))
    };
    code.iter()
        .map(|ins| match (&ins.op, &ins.ins[..]) {
            (Op::Native(n, e), &[a, b]) if ok(a) && ok(b) && ok(ins.out) => Some(ScalarIns {
                n: *n,
                e: *e,
                a,
                b,
                o: ins.out,
            }),
            _ => None,
        })
        .collect()
}

/// A register's value as a word (its one element; 0 for a scratch register
/// not written yet).
pub fn word_of(c: &Chunk) -> Option<u64> {
    Some(match c {
        Chunk::Pred(v) => v.first().map_or(0, |x| x.word()),
        Chunk::S32(v) => v.first().map_or(0, |x| x.word()),
        Chunk::S64(v) => v.first().map_or(0, |x| x.word()),
        Chunk::U32(v) => v.first().map_or(0, |x| x.word()),
        Chunk::U64(v) => v.first().map_or(0, |x| x.word()),
        Chunk::F32(v) => v.first().map_or(0, |x| x.word()),
        Chunk::F64(v) => v.first().map_or(0, |x| x.word()),
        _ => return None,
    })
}

/// Writes a word back into a one-element register of its type.
pub fn set_word(c: &mut Chunk, w: u64) -> Option<()> {
    fn one<T: Bits>(v: &mut Vec<T>, w: u64) {
        v.clear();
        v.push(T::from_word(w));
    }
    match c {
        Chunk::Pred(v) => one(v, w),
        Chunk::S32(v) => one(v, w),
        Chunk::S64(v) => one(v, w),
        Chunk::U32(v) => one(v, w),
        Chunk::U64(v) => one(v, w),
        Chunk::F32(v) => one(v, w),
        Chunk::F64(v) => one(v, w),
        _ => return None,
    }
    Some(())
}

#[inline(always)]
fn typed<T: Num + Bits>(n: Native, a: u64, b: u64) -> u64 {
    let (x, y) = (T::from_word(a), T::from_word(b));
    match n {
        Native::Add => x.add(y).word(),
        Native::Sub => x.sub(y).word(),
        Native::Mul => x.mul(y).word(),
        Native::Lt => (x < y) as u64,
        Native::Le => (x <= y) as u64,
        Native::Gt => (x > y) as u64,
        Native::Ge => (x >= y) as u64,
        Native::Eq => (x == y) as u64,
        Native::Ne => (x != y) as u64,
    }
}

/// Runs `code` on the word file.
#[inline]
pub fn run(code: &[ScalarIns], file: &mut [u64]) -> Result<(), KernelError> {
    for s in code {
        let (Some(&a), Some(&b)) = (file.get(s.a), file.get(s.b)) else {
            return Err(internal("scalar register"));
        };
        let v = match s.e {
            ElemType::S32 => typed::<i32>(s.n, a, b),
            ElemType::S64 => typed::<i64>(s.n, a, b),
            ElemType::U32 => typed::<u32>(s.n, a, b),
            ElemType::U64 => typed::<u64>(s.n, a, b),
            ElemType::F32 => typed::<f32>(s.n, a, b),
            ElemType::F64 => typed::<f64>(s.n, a, b),
            _ => return Err(internal("scalar type")),
        };
        *file
            .get_mut(s.o)
            .ok_or_else(|| internal("scalar register"))? = v;
    }
    Ok(())
}
