//! Elementwise functions in two forms: over whole (broadcast) arrays, and over
//! small contiguous chunks. The chunk form lets the evaluator fuse a tree of
//! elementwise ops (`Tanh(X * Y + Z)`) into one pass over the output: each
//! chunk of a few thousand elements goes through every op while it is still in
//! cache, instead of every op writing a whole intermediate array to memory.
//! Either way the per-element function is monomorphic; dynamic dispatch
//! happens once per op call or once per chunk, never per element.

use super::strided::{Gather, Src, blocks_from_slice, gather_tile, map1, map1_blocks, map2, map3};
use half::{bf16, f16};
use std::marker::PhantomData;
use std::mem::MaybeUninit;
use std::sync::Arc;
use xlet_core::error::KernelError;
use xlet_core::types::ElemType;
use xlet_core::value::{Array, Elem, Nd, c64, c128};

/// Elements per chunk in fused evaluation: 4096 f32 is 16 KiB, so a handful of
/// chunk buffers stay in L1/L2.
pub const CHUNK: usize = 4096;

/// A contiguous run of elements of one type.
pub enum Chunk {
    Pred(Vec<bool>),
    S8(Vec<i8>),
    S16(Vec<i16>),
    S32(Vec<i32>),
    S64(Vec<i64>),
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
    U64(Vec<u64>),
    F16(Vec<f16>),
    BF16(Vec<bf16>),
    F32(Vec<f32>),
    F64(Vec<f64>),
    C64(Vec<c64>),
    C128(Vec<c128>),
}

/// A borrowed run of elements of one type: a chunk buffer, or a contiguous stretch
/// of an operand read in place.
#[derive(Clone, Copy)]
pub enum Slice<'a> {
    Pred(&'a [bool]),
    S8(&'a [i8]),
    S16(&'a [i16]),
    S32(&'a [i32]),
    S64(&'a [i64]),
    U8(&'a [u8]),
    U16(&'a [u16]),
    U32(&'a [u32]),
    U64(&'a [u64]),
    F16(&'a [f16]),
    BF16(&'a [bf16]),
    F32(&'a [f32]),
    F64(&'a [f64]),
    C64(&'a [c64]),
    C128(&'a [c128]),
}

/// An element type that can live in a `Chunk`.
pub trait ChunkElem: Elem {
    fn empty_chunk() -> Chunk;
    fn chunk(c: &Chunk) -> Option<&Vec<Self>>;
    fn chunk_mut(c: &mut Chunk) -> Option<&mut Vec<Self>>;
    fn slice<'a>(s: &Slice<'a>) -> Option<&'a [Self]>;
    fn wrap_slice(s: &[Self]) -> Slice<'_>;
    fn wrap_chunk(v: Vec<Self>) -> Chunk;
}

macro_rules! chunk_elem {
    ($($t:ty => $v:ident),*) => {$(
        impl ChunkElem for $t {
            fn empty_chunk() -> Chunk { Chunk::$v(Vec::with_capacity(CHUNK)) }
            fn chunk(c: &Chunk) -> Option<&Vec<Self>> {
                match c { Chunk::$v(v) => Some(v), _ => None }
            }
            fn chunk_mut(c: &mut Chunk) -> Option<&mut Vec<Self>> {
                match c { Chunk::$v(v) => Some(v), _ => None }
            }
            fn slice<'a>(s: &Slice<'a>) -> Option<&'a [Self]> {
                match s { Slice::$v(v) => Some(v), _ => None }
            }
            fn wrap_slice(s: &[Self]) -> Slice<'_> { Slice::$v(s) }
            fn wrap_chunk(v: Vec<Self>) -> Chunk { Chunk::$v(v) }
        }
    )*};
}
chunk_elem!(bool => Pred, i8 => S8, i16 => S16, i32 => S32, i64 => S64, u8 => U8, u16 => U16,
    u32 => U32, u64 => U64, f16 => F16, bf16 => BF16, f32 => F32, f64 => F64, c64 => C64,
    c128 => C128);

impl Chunk {
    /// An empty buffer with room for `n` elements of `elem`, admitted under the
    /// memory budget first (`what` names the value for the error).
    pub fn try_with_capacity(
        elem: ElemType,
        n: usize,
        what: &dyn std::fmt::Display,
    ) -> Result<Chunk, KernelError> {
        xlet_core::with_elem_type!(elem, T => Ok(T::wrap_chunk(xlet_core::alloc::try_output_vec::<T>(n, what)?)))
    }

    /// The start of the buffer's allocation, for filling it from several threads.
    pub fn base_ptr(&mut self) -> *mut u8 {
        macro_rules! arms {
            ($($v:ident),*) => { match self { $(Chunk::$v(x) => x.as_mut_ptr() as *mut u8,)* } };
        }
        arms!(
            Pred, S8, S16, S32, S64, U8, U16, U32, U64, F16, BF16, F32, F64, C64, C128
        )
    }

    /// Declares the first `n` elements written.
    ///
    /// # Safety
    /// `n` is at most the capacity and every one of the `n` elements was written.
    pub unsafe fn set_len(&mut self, n: usize) {
        macro_rules! arms {
            // SAFETY: the caller's contract, passed on to the variant's vector.
            ($($v:ident),*) => { match self { $(Chunk::$v(x) => unsafe { x.set_len(n) },)* } };
        }
        arms!(
            Pred, S8, S16, S32, S64, U8, U16, U32, U64, F16, BF16, F32, F64, C64, C128
        )
    }

    /// The buffer as an array of shape `dims` (its length must be their product).
    pub fn into_array(self, dims: &[usize]) -> Result<Array, KernelError> {
        macro_rules! arms {
            ($($v:ident),*) => { match self { $(Chunk::$v(x) => ndarray::ArrayD::from_shape_vec(ndarray::IxDyn(dims), x).map(Array::from_nd),)* } };
        }
        arms!(
            Pred, S8, S16, S32, S64, U8, U16, U32, U64, F16, BF16, F32, F64, C64, C128
        )
        .map_err(|_| mismatch())
    }

    /// A one-element buffer holding the first element of `a`.
    pub fn from_scalar(a: &Array) -> Option<Chunk> {
        xlet_core::with_array!(a, x => x.iter().next().map(|&e| ChunkElem::wrap_chunk(vec![e])))
    }

    /// The first element as a rank-0 array.
    pub fn to_scalar(&self) -> Option<Array> {
        macro_rules! arms {
            ($($v:ident),*) => {
                match self {
                    $(Chunk::$v(x) => x.first().map(|&e| Array::from_nd(ndarray::arr0(e).into_dyn())),)*
                }
            };
        }
        arms!(
            Pred, S8, S16, S32, S64, U8, U16, U32, U64, F16, BF16, F32, F64, C64, C128
        )
    }

    /// Replaces the contents with the elements of `s` (of the same type).
    pub fn set_from(&mut self, s: Slice) -> bool {
        macro_rules! arms {
            ($($v:ident),*) => {
                match (self, s) {
                    $((Chunk::$v(d), Slice::$v(x)) => { d.clear(); d.extend_from_slice(x); true })*
                    _ => false,
                }
            };
        }
        arms!(
            Pred, S8, S16, S32, S64, U8, U16, U32, U64, F16, BF16, F32, F64, C64, C128
        )
    }

    pub fn as_slice(&self) -> Slice<'_> {
        macro_rules! arms {
            ($($v:ident),*) => { match self { $(Chunk::$v(x) => Slice::$v(x),)* } };
        }
        arms!(
            Pred, S8, S16, S32, S64, U8, U16, U32, U64, F16, BF16, F32, F64, C64, C128
        )
    }
}

impl<'a> Slice<'a> {
    /// Elements `at..at + len`, if they are all there.
    pub fn sub(&self, at: usize, len: usize) -> Option<Slice<'a>> {
        let end = at.checked_add(len)?;
        macro_rules! arms {
            ($($v:ident),*) => { match *self { $(Slice::$v(x) => Slice::$v(x.get(at..end)?),)* } };
        }
        Some(arms!(
            Pred, S8, S16, S32, S64, U8, U16, U32, U64, F16, BF16, F32, F64, C64, C128
        ))
    }
}

impl Slice<'_> {
    /// The elements' address and their size in bytes (for type-agnostic copies).
    pub fn bytes(&self) -> (*const u8, usize) {
        macro_rules! arms {
            ($($v:ident),*) => { match self { $(Slice::$v(x) => (x.as_ptr() as *const u8, std::mem::size_of_val(*x)),)* } };
        }
        arms!(
            Pred, S8, S16, S32, S64, U8, U16, U32, U64, F16, BF16, F32, F64, C64, C128
        )
    }

    pub fn len(&self) -> usize {
        macro_rules! arms {
            ($($v:ident),*) => { match self { $(Slice::$v(x) => x.len(),)* } };
        }
        arms!(
            Pred, S8, S16, S32, S64, U8, U16, U32, U64, F16, BF16, F32, F64, C64, C128
        )
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// An empty chunk buffer for elements of `elem`.
pub fn empty_chunk(elem: ElemType) -> Chunk {
    xlet_core::with_elem_type!(elem, T => <T as ChunkElem>::empty_chunk())
}

fn mismatch() -> KernelError {
    KernelError::new(
        "internal",
        "internal error: elementwise operand of unexpected type",
    )
}

/// An elementwise function of one element type (fixed when the op was checked).
pub trait ElementwiseFn: Send + Sync {
    /// Whole arrays: operand `i` sits in the output as `maps[i]` says (BroadcastInDim).
    fn run(
        &self,
        args: &[&Array],
        maps: &[Vec<usize>],
        out_dims: &[usize],
    ) -> Result<Array, KernelError>;
    /// One chunk: every input holds the same `len` output positions.
    fn run_chunk(&self, ins: &[Slice], out: &mut Chunk) -> Result<(), KernelError>;
}

struct Un<T, O, F>(F, PhantomData<fn(T) -> O>);
struct Bin<T, O, F>(F, PhantomData<fn(T, T) -> O>);

/// The elementwise function `f` of one operand.
pub fn unary<T: ChunkElem, O: ChunkElem, F>(f: F) -> Arc<dyn ElementwiseFn>
where
    F: Fn(T) -> O + Send + Sync + Copy + 'static,
{
    Arc::new(Un(f, PhantomData))
}

struct UnBlocks<T, O, const L: usize, G>(G, PhantomData<fn(T) -> O>);

/// The elementwise function of one operand given `L` elements at a time: `g`
/// maps a block of operands to a block of results lane for lane (lane `i` of
/// its result depends on lane `i` of its operand alone), so that it can be a
/// loop the compiler vectorizes. A shorter run is padded with copies of its
/// last element, whose results are dropped, so every element's result is the
/// same however the array is cut into runs.
pub fn unary_blocks<T: ChunkElem, O: ChunkElem, const L: usize, G>(g: G) -> Arc<dyn ElementwiseFn>
where
    G: Fn(&[T; L]) -> [O; L] + Send + Sync + Copy + 'static,
{
    Arc::new(UnBlocks::<T, O, L, G>(g, PhantomData))
}

/// The elementwise function `f` of two operands of one type.
pub fn binary<T: ChunkElem, O: ChunkElem, F>(f: F) -> Arc<dyn ElementwiseFn>
where
    F: Fn(T, T) -> O + Send + Sync + Copy + 'static,
{
    Arc::new(Bin(f, PhantomData))
}

/// Replaces the contents of `o` with `n` elements written by `write` (which must
/// write every slot it is given). A plain loop over the spare capacity, which the
/// compiler vectorizes where `Vec::extend` through an iterator adaptor may not.
#[inline(always)]
fn refill<O>(o: &mut Vec<O>, n: usize, write: impl FnOnce(&mut [MaybeUninit<O>])) {
    o.clear();
    o.reserve(n);
    let spare = &mut o.spare_capacity_mut()[..n];
    write(spare);
    // SAFETY: `write` filled all n slots (each caller zips over exactly n inputs,
    // or hands n inputs to `blocks_from_slice`, which writes one slot per input).
    unsafe { o.set_len(n) };
}

fn nd<T: Elem>(a: &Array) -> Result<&Nd<T>, KernelError> {
    T::unwrap(a).ok_or_else(mismatch)
}

impl<T: ChunkElem, O: ChunkElem, F: Fn(T) -> O + Send + Sync + Copy> ElementwiseFn for Un<T, O, F> {
    fn run(
        &self,
        args: &[&Array],
        maps: &[Vec<usize>],
        out_dims: &[usize],
    ) -> Result<Array, KernelError> {
        let (Some(a), Some(m)) = (args.first(), maps.first()) else {
            return Err(mismatch());
        };
        let x = nd::<T>(a)?;
        if let Some(xs) = small_in_order(x, out_dims) {
            return small_result(out_dims, xs.iter().map(|&v| (self.0)(v)));
        }
        let src = placed(x, m, out_dims)?;
        Ok(Array::from_nd(map1(out_dims, &src, self.0)?))
    }
    fn run_chunk(&self, ins: &[Slice], out: &mut Chunk) -> Result<(), KernelError> {
        let a = ins.first().and_then(T::slice).ok_or_else(mismatch)?;
        let o = O::chunk_mut(out).ok_or_else(mismatch)?;
        refill(o, a.len(), |d| {
            for (d, &x) in d.iter_mut().zip(a) {
                d.write((self.0)(x));
            }
        });
        Ok(())
    }
}

impl<T: ChunkElem, O: ChunkElem, const L: usize, G> ElementwiseFn for UnBlocks<T, O, L, G>
where
    G: Fn(&[T; L]) -> [O; L] + Send + Sync + Copy,
{
    fn run(
        &self,
        args: &[&Array],
        maps: &[Vec<usize>],
        out_dims: &[usize],
    ) -> Result<Array, KernelError> {
        let (Some(a), Some(m)) = (args.first(), maps.first()) else {
            return Err(mismatch());
        };
        let x = nd::<T>(a)?;
        if let Some(xs) = small_in_order(x, out_dims) {
            let g = self.0;
            return small_result(
                out_dims,
                xs.chunks(L).flat_map(move |c| {
                    let last = c.len().saturating_sub(1);
                    let padded: [T; L] = std::array::from_fn(|i| c[i.min(last)]);
                    g(&padded).into_iter().take(c.len())
                }),
            );
        }
        let src = placed(x, m, out_dims)?;
        Ok(Array::from_nd(map1_blocks(out_dims, &src, self.0)?))
    }
    fn run_chunk(&self, ins: &[Slice], out: &mut Chunk) -> Result<(), KernelError> {
        let a = ins.first().and_then(T::slice).ok_or_else(mismatch)?;
        let o = O::chunk_mut(out).ok_or_else(mismatch)?;
        refill(o, a.len(), |d| blocks_from_slice(a, d, &self.0));
        Ok(())
    }
}

impl<T: ChunkElem, O: ChunkElem, F: Fn(T, T) -> O + Send + Sync + Copy> ElementwiseFn
    for Bin<T, O, F>
{
    fn run(
        &self,
        args: &[&Array],
        maps: &[Vec<usize>],
        out_dims: &[usize],
    ) -> Result<Array, KernelError> {
        let ([a, b], [ma, mb]) = (args, maps) else {
            return Err(mismatch());
        };
        let (x, y) = (nd::<T>(a)?, nd::<T>(b)?);
        if let (Some(xs), Some(ys)) = (small_in_order(x, out_dims), small_in_order(y, out_dims)) {
            let f = self.0;
            return small_result(out_dims, xs.iter().zip(ys).map(|(&u, &v)| f(u, v)));
        }
        let sa = placed(x, ma, out_dims)?;
        let sb = placed(y, mb, out_dims)?;
        Ok(Array::from_nd(map2(out_dims, &sa, &sb, self.0)?))
    }
    fn run_chunk(&self, ins: &[Slice], out: &mut Chunk) -> Result<(), KernelError> {
        let [a, b] = ins else {
            return Err(mismatch());
        };
        let (a, b) = (
            T::slice(a).ok_or_else(mismatch)?,
            T::slice(b).ok_or_else(mismatch)?,
        );
        let o = O::chunk_mut(out).ok_or_else(mismatch)?;
        if a.len() != b.len() {
            return Err(mismatch());
        }
        refill(o, a.len(), |d| {
            for ((d, &x), &y) in d.iter_mut().zip(a).zip(b) {
                d.write((self.0)(x, y));
            }
        });
        Ok(())
    }
}

/// Arrays up to this many elements skip the strided engine's planning when they
/// are plain contiguous arrays of the output's shape: in a While body over small
/// state, planning would cost more than the arithmetic.
const SMALL: usize = 1024;

/// `a`'s elements as a slice, if it is small, contiguous in row-major order and
/// of exactly the output's shape.
fn small_in_order<'a, T>(a: &'a Nd<T>, out_dims: &[usize]) -> Option<&'a [T]> {
    if a.len() > SMALL || a.shape() != out_dims {
        return None;
    }
    a.as_slice()
}

fn small_result<O: Elem>(
    out_dims: &[usize],
    it: impl Iterator<Item = O>,
) -> Result<Array, KernelError> {
    let v: Vec<O> = it.collect();
    ndarray::ArrayD::from_shape_vec(ndarray::IxDyn(out_dims), v)
        .map(Array::from_nd)
        .map_err(|_| mismatch())
}

/// A leaf of a fused evaluation: an array read through its broadcast map.
pub trait LeafFill: Send + Sync {
    /// Output elements `start..start + len` of this operand: read in place when the
    /// operand is contiguous in output order, else gathered into `scratch`.
    fn get<'s>(
        &'s self,
        start: usize,
        len: usize,
        scratch: &'s mut Chunk,
    ) -> Result<Slice<'s>, KernelError>;
    /// The operand's strides over the output dimensions (0 where broadcast).
    fn strides(&self) -> &[isize];
    /// Bytes per element.
    fn elem_size(&self) -> usize;
    /// A `rows` x `cols` block in row-major order into `scratch`: element (r, c)
    /// is the operand's element at `off + r * rs + c * cs`. The caller has the
    /// block from a `Tiling` over this operand's strides, so it lies inside it.
    fn tile<'s>(
        &'s self,
        off: isize,
        rows: usize,
        cols: usize,
        rs: isize,
        cs: isize,
        scratch: &'s mut Chunk,
    ) -> Result<Slice<'s>, KernelError>;
}

struct TypedLeaf<'a, T>(Gather<'a, T>);

impl<T: ChunkElem> LeafFill for TypedLeaf<'_, T> {
    fn get<'s>(
        &'s self,
        start: usize,
        len: usize,
        scratch: &'s mut Chunk,
    ) -> Result<Slice<'s>, KernelError> {
        if let Some(all) = self.0.contiguous() {
            return all
                .get(start..start + len)
                .map(T::wrap_slice)
                .ok_or_else(mismatch);
        }
        let v = T::chunk_mut(scratch).ok_or_else(mismatch)?;
        v.clear();
        v.reserve(len);
        let spare: &mut [MaybeUninit<T>] = &mut v.spare_capacity_mut()[..len];
        self.0.fill(start, spare);
        // SAFETY: `Gather::fill` wrote all `len` elements.
        unsafe { v.set_len(len) };
        Ok(T::wrap_slice(v))
    }
    fn strides(&self) -> &[isize] {
        self.0.src().strides()
    }
    fn elem_size(&self) -> usize {
        std::mem::size_of::<T>()
    }
    fn tile<'s>(
        &'s self,
        off: isize,
        rows: usize,
        cols: usize,
        rs: isize,
        cs: isize,
        scratch: &'s mut Chunk,
    ) -> Result<Slice<'s>, KernelError> {
        let v = T::chunk_mut(scratch).ok_or_else(mismatch)?;
        let len = rows * cols;
        v.clear();
        v.reserve(len);
        // SAFETY: the block lies inside the operand (see the trait), and `v` has
        // room for all rows * cols elements, which `gather_tile` writes.
        unsafe {
            gather_tile(
                self.0.src().ptr().wrapping_offset(off) as *const u8,
                std::mem::size_of::<T>(),
                rs,
                cs,
                rows,
                cols,
                v.as_mut_ptr() as *mut u8,
            );
            v.set_len(len);
        }
        Ok(T::wrap_slice(v))
    }
}

/// A leaf over `a`, placed into `out_dims` by `map`.
pub fn leaf<'a>(
    a: &'a Array,
    map: &[usize],
    out_dims: &[usize],
) -> Result<Box<dyn LeafFill + 'a>, KernelError> {
    xlet_core::with_array!(a, x => Ok(Box::new(TypedLeaf(Gather::new(out_dims, placed(x, map, out_dims)?)?))))
}

/// The kernel of every elementwise op: its function and where each operand sits
/// in the output. The evaluator may fuse trees of these (see `eval::fuse`).
pub struct ElementwiseKernel {
    pub f: Arc<dyn ElementwiseFn>,
    /// `maps[i][d]` is the output dimension of operand `i`'s dimension `d`.
    pub maps: Vec<Vec<usize>>,
    pub out_dims: Vec<usize>,
    pub out_elem: ElemType,
}

impl ElementwiseKernel {
    /// Runs the op on its operand values (the evaluator's `Kernel::run`).
    pub fn run_values(
        &self,
        args: &[xlet_core::value::Value],
    ) -> Result<xlet_core::value::Value, KernelError> {
        let arrays: Vec<&Array> = args.iter().filter_map(|v| v.as_array()).collect();
        if arrays.len() != args.len() {
            return Err(mismatch());
        }
        self.f
            .run(&arrays, &self.maps, &self.out_dims)
            .map(xlet_core::value::Value::Array)
    }
}

/// Operand `a` read over `out_dims`, placed by `map`; checks the placement first
/// (the view reads memory by it).
fn placed<'a, T>(
    a: &'a Nd<T>,
    map: &[usize],
    out_dims: &[usize],
) -> Result<Src<'a, T>, KernelError> {
    let fits = a.ndim() == map.len()
        && a.shape()
            .iter()
            .zip(map)
            .all(|(&s, &d)| out_dims.get(d).is_some_and(|&o| s == 1 || s == o));
    if fits {
        Ok(Src::broadcast_in_dim(a, out_dims.len(), map))
    } else {
        Err(mismatch())
    }
}

struct Tern<A, B, C, O, F>(F, PhantomData<fn(A, B, C) -> O>);

/// The elementwise function `f` of three operands (types fixed at check time).
pub fn ternary<A: ChunkElem, B: ChunkElem, C: ChunkElem, O: ChunkElem, F>(
    f: F,
) -> Arc<dyn ElementwiseFn>
where
    F: Fn(A, B, C) -> O + Send + Sync + Copy + 'static,
{
    Arc::new(Tern(f, PhantomData))
}

impl<A, B, C, O, F> ElementwiseFn for Tern<A, B, C, O, F>
where
    A: ChunkElem,
    B: ChunkElem,
    C: ChunkElem,
    O: ChunkElem,
    F: Fn(A, B, C) -> O + Send + Sync + Copy,
{
    fn run(
        &self,
        args: &[&Array],
        maps: &[Vec<usize>],
        out_dims: &[usize],
    ) -> Result<Array, KernelError> {
        let ([a, b, c], [ma, mb, mc]) = (args, maps) else {
            return Err(mismatch());
        };
        let a = A::unwrap(a).ok_or_else(mismatch)?;
        let b = B::unwrap(b).ok_or_else(mismatch)?;
        let c = C::unwrap(c).ok_or_else(mismatch)?;
        let (sa, sb, sc) = (
            placed(a, ma, out_dims)?,
            placed(b, mb, out_dims)?,
            placed(c, mc, out_dims)?,
        );
        Ok(Array::from_nd(map3(out_dims, &sa, &sb, &sc, self.0)?))
    }

    fn run_chunk(&self, ins: &[Slice], out: &mut Chunk) -> Result<(), KernelError> {
        let [a, b, c] = ins else {
            return Err(mismatch());
        };
        let a = A::slice(a).ok_or_else(mismatch)?;
        let b = B::slice(b).ok_or_else(mismatch)?;
        let c = C::slice(c).ok_or_else(mismatch)?;
        if a.len() != b.len() || b.len() != c.len() {
            return Err(mismatch());
        }
        let o = O::chunk_mut(out).ok_or_else(mismatch)?;
        refill(o, a.len(), |d| {
            for (((d, &x), &y), &z) in d.iter_mut().zip(a).zip(b).zip(c) {
                d.write((self.0)(x, y, z));
            }
        });
        Ok(())
    }
}
