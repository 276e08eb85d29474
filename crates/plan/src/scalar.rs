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

/// One typed scalar instruction: `o = f(a, b)`, with its op and element type
/// resolved into `f` when the plan is lowered, so that running it is one
/// call and no dispatch.
#[derive(Clone, Copy)]
pub struct ScalarIns {
    f: fn(u64, u64) -> u64,
    a: usize,
    b: usize,
    o: usize,
}

impl std::fmt::Debug for ScalarIns {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "r{} = f(r{}, r{})", self.o, self.a, self.b)
    }
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
                f: function(*n, *e)?,
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

/// `n` on two words holding values of type `T`: the typed instruction's
/// arithmetic (`exec::Num`: wrapping integers, IEEE floats) and compares.
fn typed<T: Num + Bits, const N: u8>(a: u64, b: u64) -> u64 {
    let (x, y) = (T::from_word(a), T::from_word(b));
    match N {
        ADD => x.add(y).word(),
        SUB => x.sub(y).word(),
        MUL => x.mul(y).word(),
        LT => (x < y) as u64,
        LE => (x <= y) as u64,
        GT => (x > y) as u64,
        GE => (x >= y) as u64,
        EQ => (x == y) as u64,
        _ => (x != y) as u64,
    }
}

const ADD: u8 = 0;
const SUB: u8 = 1;
const MUL: u8 = 2;
const LT: u8 = 3;
const LE: u8 = 4;
const GT: u8 = 5;
const GE: u8 = 6;
const EQ: u8 = 7;
const NE: u8 = 8;

/// The function of `n` on type `T`, one monomorphic copy per pair.
fn of_type<T: Num + Bits>(n: Native) -> fn(u64, u64) -> u64 {
    match n {
        Native::Add => typed::<T, ADD>,
        Native::Sub => typed::<T, SUB>,
        Native::Mul => typed::<T, MUL>,
        Native::Lt => typed::<T, LT>,
        Native::Le => typed::<T, LE>,
        Native::Gt => typed::<T, GT>,
        Native::Ge => typed::<T, GE>,
        Native::Eq => typed::<T, EQ>,
        Native::Ne => typed::<T, NE>,
    }
}

/// The function of `n` on element type `e`, if the scalar tier has one.
fn function(n: Native, e: ElemType) -> Option<fn(u64, u64) -> u64> {
    Some(match e {
        ElemType::S32 => of_type::<i32>(n),
        ElemType::S64 => of_type::<i64>(n),
        ElemType::U32 => of_type::<u32>(n),
        ElemType::U64 => of_type::<u64>(n),
        ElemType::F32 => of_type::<f32>(n),
        ElemType::F64 => of_type::<f64>(n),
        _ => return None,
    })
}

/// A While on the word file: the condition's and the body's instructions,
/// the register holding the verdict, and the pairs of registers swapped at
/// the end of an iteration (state leaf, the scratch holding its next value).
pub struct WordLoop<'a> {
    pub cond: &'a [ScalarIns],
    pub body: &'a [ScalarIns],
    pub verdict: usize,
    pub pairs: &'a [(usize, usize)],
}

/// Why a loop on the word file stopped early.
pub enum Stop {
    /// Ctrl-C.
    Interrupted,
    /// More iterations than the step limit.
    Steps,
}

/// Runs `code` on `file`.
///
/// # Safety
/// Every register index of `code` is below `file.len()`.
#[inline(always)]
unsafe fn run(code: &[ScalarIns], file: &mut [u64]) {
    for s in code {
        // SAFETY: the caller guarantees that every index of `code` is in
        // bounds (`WordLoop::run` checks them all before the loop).
        unsafe {
            let v = (s.f)(*file.get_unchecked(s.a), *file.get_unchecked(s.b));
            *file.get_unchecked_mut(s.o) = v;
        }
    }
}

impl WordLoop<'_> {
    /// Every register index the loop touches is below `len`.
    fn in_bounds(&self, len: usize) -> bool {
        let ins = |s: &ScalarIns| s.a < len && s.b < len && s.o < len;
        self.cond.iter().all(ins)
            && self.body.iter().all(ins)
            && self.verdict < len
            && self.pairs.iter().all(|&(s, r)| s < len && r < len)
    }

    /// Runs the loop on `file` until the condition fails, every iteration
    /// counted against `max`. One function
    /// with no call but the instructions' own, because at a few nanoseconds
    /// an iteration the calls and their `Result`s were the cost.
    pub fn run(&self, file: &mut [u64], max: u64) -> Result<Result<(), Stop>, KernelError> {
        if !self.in_bounds(file.len()) {
            return Err(internal("scalar register"));
        }
        // Ctrl-C is polled once per `POLL` instructions run (and on the first
        // iteration): at a nanosecond or two an instruction that is every few
        // microseconds, and the poll, a call into core, no longer costs a
        // tenth of a short loop's iteration.
        const POLL: usize = 4096;
        let per_iteration = self.cond.len() + self.body.len() + 1;
        let mut until_poll: usize = 0;
        let mut steps: u64 = 0;
        loop {
            if until_poll == 0 {
                if xlet_core::config::interrupted() {
                    return Ok(Err(Stop::Interrupted));
                }
                until_poll = POLL;
            }
            until_poll = until_poll.saturating_sub(per_iteration);
            // SAFETY: `in_bounds` checked every index against `file.len()`,
            // and `file` is not resized while the loop runs.
            unsafe { run(self.cond, file) };
            // SAFETY: as above (`verdict` was checked).
            if unsafe { *file.get_unchecked(self.verdict) } == 0 {
                return Ok(Ok(()));
            }
            steps += 1;
            if steps > max {
                return Ok(Err(Stop::Steps));
            }
            // SAFETY: as above.
            unsafe { run(self.body, file) };
            for &(s, r) in self.pairs {
                file.swap(s, r);
            }
        }
    }
}
