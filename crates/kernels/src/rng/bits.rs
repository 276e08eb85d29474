//! Current XLA's RngBitGenerator, bit for bit: which counter feeds which output
//! element and how the state advances, as XLA's `RngBitGeneratorExpander`
//! lowers it (xla/hlo/builder/lib/prng.cc). Facts, restated:
//!
//! - The state is `u64[k]`; `state[0]` is the key (low word first).
//! - THREE_FRY (`k = 2`): the counter is `state[1]`. 64-bit elements: element
//!   `i` is Threefry2x32-20 of the counter `state[1] + i` (split into low, high
//!   words), output words joined low first. Narrower elements: the shape is
//!   halved along one dimension (the first of even size, else the first of the
//!   largest size; a scalar counts as `[1]`), one Threefry block per element of
//!   the halved shape (row-major, counter `state[1] + index`), its first word
//!   going to the even and its second to the odd position along that
//!   dimension. 8- and 16-bit elements are the low bits of those 32-bit words.
//!   The new state is `state[1]` plus the number of blocks used.
//! - PHILOX (`k = 3`: the 128-bit counter is `state[1]` low, `state[2]` high;
//!   `k = 2`: `state[1]` low, the key `state[0]` high): block `j` is
//!   Philox4x32-10 of the counter plus `j`. 32-bit (and narrower) elements take
//!   the blocks' words in order; 64-bit element `2j` joins words 0, 1 of block
//!   `j` and element `2j + 1` words 2, 3. The counter advances by the number of
//!   blocks used; with `k = 2` only its low half is kept.
//! - DEFAULT is PHILOX on XLA's CPU backend.

use super::{join, par_fill, philox4x32, split, threefry2x32};
use ndarray::{ArrayD, IxDyn};
use xlet_core::error::KernelError;
use xlet_core::types::{ArrayType, ElemType};
use xlet_core::value::Array;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    ThreeFry,
    Philox,
}

/// The unsigned element type RngBitGenerator returns for a requested type of
/// `bits` bits (XLA's builder rule: same width, unsigned).
pub fn unsigned_of_width(bits: usize) -> Option<ElemType> {
    match bits {
        8 => Some(ElemType::U8),
        16 => Some(ElemType::U16),
        32 => Some(ElemType::U32),
        64 => Some(ElemType::U64),
        _ => None,
    }
}

/// Runs RngBitGenerator: the new state and the values (unsigned, `bits` wide).
pub fn generate(
    alg: Algorithm,
    state: &[u64],
    dims: &[usize],
    bits: usize,
) -> Result<(Vec<u64>, Array), KernelError> {
    let bad = || KernelError::new("internal", "RngBitGenerator: state of the wrong size");
    let key = split(*state.first().ok_or_else(bad)?);
    let n: usize = dims.iter().product();
    let elem = unsigned_of_width(bits).ok_or_else(bad)?;
    let what = ArrayType::new(elem, dims.to_vec());
    let (new_state, word): (Vec<u64>, Box<dyn Fn(usize) -> u64 + Sync>) = match alg {
        Algorithm::ThreeFry => {
            let &[k, counter] = state else {
                return Err(bad());
            };
            if bits == 64 {
                let word = move |i: usize| {
                    let [x0, x1] = threefry2x32(split(counter.wrapping_add(i as u64)), key);
                    join(x0, x1)
                };
                (vec![k, counter.wrapping_add(n as u64)], Box::new(word))
            } else {
                let h = Halves::of(dims);
                let word = move |i: usize| {
                    let (block, lane) = h.block_of(i);
                    u64::from(threefry2x32(split(counter.wrapping_add(block)), key)[lane])
                };
                (vec![k, counter.wrapping_add(h.blocks)], Box::new(word))
            }
        }
        Algorithm::Philox => {
            let (lo, hi) = match *state {
                [k, lo] => (lo, k),
                [_, lo, hi] => (lo, hi),
                _ => return Err(bad()),
            };
            let ctr = move |j: u64| {
                let (l, carry) = lo.overflowing_add(j);
                let h = hi.wrapping_add(u64::from(carry));
                let [c0, c1] = split(l);
                let [c2, c3] = split(h);
                philox4x32([c0, c1, c2, c3], key)
            };
            let blocks = if bits == 64 {
                n.div_ceil(2)
            } else {
                n.div_ceil(4)
            } as u64;
            let (l, carry) = lo.overflowing_add(blocks);
            let new_state = match state.len() {
                2 => vec![state[0], l],
                _ => vec![state[0], l, hi.wrapping_add(u64::from(carry))],
            };
            let word: Box<dyn Fn(usize) -> u64 + Sync> = if bits == 64 {
                Box::new(move |i: usize| {
                    let b = ctr((i / 2) as u64);
                    let p = 2 * (i % 2);
                    join(b[p], b[p + 1])
                })
            } else {
                Box::new(move |i: usize| u64::from(ctr((i / 4) as u64)[i % 4]))
            };
            (new_state, word)
        }
    };
    // Narrow elements keep the low bits (XLA converts u32 → u16/u8).
    macro_rules! fill {
        ($t:ty) => {{
            let v: Vec<$t> = par_fill(n, &what, |start, chunk| {
                for (k, x) in chunk.iter_mut().enumerate() {
                    x.write(word(start + k) as $t);
                }
            })?;
            ArrayD::from_shape_vec(IxDyn(dims), v).map(Array::from_nd)
        }};
    }
    let values = match bits {
        8 => fill!(u8),
        16 => fill!(u16),
        32 => fill!(u32),
        _ => fill!(u64),
    }
    .map_err(|_| KernelError::new("internal", "RngBitGenerator: shape mismatch"))?;
    Ok((new_state, values))
}

/// THREE_FRY's halving of the shape for elements narrower than 64 bits.
#[derive(Clone, Copy, Debug)]
struct Halves {
    /// The size of the halved dimension, its half (rounded up), and the product
    /// of the dimensions after it.
    size: usize,
    half: usize,
    inner: usize,
    /// Threefry blocks used: the element count of the halved shape.
    blocks: u64,
}

impl Halves {
    fn of(dims: &[usize]) -> Halves {
        if dims.is_empty() {
            return Halves {
                size: 1,
                half: 1,
                inner: 1,
                blocks: 1,
            };
        }
        let d = dims.iter().position(|&x| x % 2 == 0).unwrap_or_else(|| {
            // No even dimension: the first of the largest.
            let max = dims.iter().copied().max().unwrap_or(0);
            dims.iter().position(|&x| x == max).unwrap_or(0)
        });
        let size = dims[d];
        let half = size.div_ceil(2);
        let inner: usize = dims[d + 1..].iter().product();
        let outer: usize = dims[..d].iter().product();
        Halves {
            size,
            half,
            inner,
            blocks: (outer * half * inner) as u64,
        }
    }

    /// The block (row-major index in the halved shape) and word feeding element `i`.
    #[inline(always)]
    fn block_of(&self, i: usize) -> (u64, usize) {
        let row = self.size * self.inner;
        let (outer, rest) = (i / row, i % row);
        let (j, k) = (rest / self.inner, rest % self.inner);
        let block = (outer * self.half + j / 2) * self.inner + k;
        (block as u64, j % 2)
    }
}
