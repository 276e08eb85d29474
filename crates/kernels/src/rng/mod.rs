//! Counter-based random numbers (Salmon et al., "Parallel random numbers: as
//! easy as 1, 2, 3", SC 2011): Philox4x32-10 and Threefry2x32-20 map a counter
//! and a key to random words with no state in between, so any chunk of an
//! output can be made on any thread, in any order, with the same result.
//!
//! - `philox4x32` / `threefry2x32`: the two block functions, checked against
//!   Random123's published known-answer vectors (tests.rs).
//! - `bits`: current XLA's RngBitGenerator layouts (which counter feeds which
//!   element, how the state advances), checked against jax/XLA (tests.rs).
//! - `dist`: xlet's own RngUniform and RngNormal, Philox-keyed by the run's seed
//!   and a per-run draw number (`RngState`).

pub mod bits;
pub mod dist;
#[cfg(test)]
mod tests;

use std::sync::atomic::{AtomicU64, Ordering};

/// The seed of a run without `--seed` (spec/commands.md).
pub const DEFAULT_SEED: u64 = 0;

/// A run's random state: its seed and how many Rng op evaluations it has made.
/// Each evaluation takes the next draw number, so successive calls (in a While
/// body too) give different values, and the same program with the same seed
/// gives the same values: statements and computation calls run one at a time,
/// in program order, so draw numbers are handed out in the same order whatever
/// the thread count.
#[derive(Debug)]
pub struct RngState {
    seed: u64,
    draws: AtomicU64,
}

impl RngState {
    pub fn new(seed: u64) -> RngState {
        RngState {
            seed,
            draws: AtomicU64::new(0),
        }
    }
    pub fn seed(&self) -> u64 {
        self.seed
    }
    /// The stream for one Rng op evaluation.
    pub fn next_stream(&self) -> Stream {
        Stream {
            seed: self.seed,
            draw: self.draws.fetch_add(1, Ordering::Relaxed),
        }
    }
}

impl Default for RngState {
    fn default() -> Self {
        RngState::new(DEFAULT_SEED)
    }
}

/// A copy carries on from the same draw number (the REPL runs an input on a
/// copy of its session and keeps it only if the input succeeds).
impl Clone for RngState {
    fn clone(&self) -> Self {
        RngState {
            seed: self.seed,
            draws: AtomicU64::new(self.draws.load(Ordering::Relaxed)),
        }
    }
}

/// The random words of one Rng op evaluation: word `w` is lane `w % 4` of
/// Philox4x32-10 with key = the seed (low word first) and counter =
/// (`w / 4` as two words, `draw` as two words), low words first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stream {
    pub seed: u64,
    pub draw: u64,
}

impl Stream {
    /// Words `4 * block .. 4 * block + 4`.
    #[inline(always)]
    pub fn block(&self, block: u64) -> [u32; 4] {
        let [c0, c1] = split(block);
        let [c2, c3] = split(self.draw);
        philox4x32([c0, c1, c2, c3], split(self.seed))
    }
}

/// Philox blocks computed together: the loop over lanes vectorizes (AVX-512's
/// vpmuludq does 8 of the 32x32 -> 64-bit products at once).
pub const LANES: usize = 16;

impl Stream {
    /// Words `4 * first .. 4 * (first + LANES)` in stream order: the same words
    /// as `block(first)`, `block(first + 1)`, ... (tests.rs checks it).
    #[inline(always)]
    pub fn blocks(&self, first: u64, out: &mut [u32; 4 * LANES]) {
        let mut c0 = [0u32; LANES];
        let mut c1 = [0u32; LANES];
        for l in 0..LANES {
            let b = first.wrapping_add(l as u64);
            c0[l] = b as u32;
            c1[l] = (b >> 32) as u32;
        }
        let [d0, d1] = split(self.draw);
        let (mut c2, mut c3) = ([d0; LANES], [d1; LANES]);
        let [mut k0, mut k1] = split(self.seed);
        for round in 0..10 {
            if round > 0 {
                k0 = k0.wrapping_add(PHILOX_W0);
                k1 = k1.wrapping_add(PHILOX_W1);
            }
            for l in 0..LANES {
                let p0 = PHILOX_M0 * u64::from(c0[l]);
                let p1 = PHILOX_M1 * u64::from(c2[l]);
                c0[l] = (p1 >> 32) as u32 ^ c1[l] ^ k0;
                c1[l] = p1 as u32;
                c2[l] = (p0 >> 32) as u32 ^ c3[l] ^ k1;
                c3[l] = p0 as u32;
            }
        }
        for l in 0..LANES {
            out[4 * l] = c0[l];
            out[4 * l + 1] = c1[l];
            out[4 * l + 2] = c2[l];
            out[4 * l + 3] = c3[l];
        }
    }
}

/// A u64 as (low word, high word).
#[inline(always)]
pub fn split(x: u64) -> [u32; 2] {
    [x as u32, (x >> 32) as u32]
}

/// (low word, high word) as a u64.
#[inline(always)]
pub fn join(lo: u32, hi: u32) -> u64 {
    u64::from(lo) | (u64::from(hi) << 32)
}

const PHILOX_M0: u64 = 0xD251_1F53;
const PHILOX_M1: u64 = 0xCD9E_8D57;
const PHILOX_W0: u32 = 0x9E37_79B9;
const PHILOX_W1: u32 = 0xBB67_AE85;

/// Philox4x32 with 10 rounds (Random123's `philox4x32_R(10, ctr, key)`).
#[inline(always)]
pub fn philox4x32(ctr: [u32; 4], key: [u32; 2]) -> [u32; 4] {
    let [mut c0, mut c1, mut c2, mut c3] = ctr;
    let [mut k0, mut k1] = key;
    for round in 0..10 {
        if round > 0 {
            k0 = k0.wrapping_add(PHILOX_W0);
            k1 = k1.wrapping_add(PHILOX_W1);
        }
        let p0 = PHILOX_M0 * u64::from(c0);
        let p1 = PHILOX_M1 * u64::from(c2);
        (c0, c1, c2, c3) = (
            (p1 >> 32) as u32 ^ c1 ^ k0,
            p1 as u32,
            (p0 >> 32) as u32 ^ c3 ^ k1,
            p0 as u32,
        );
    }
    [c0, c1, c2, c3]
}

/// Threefry2x32's rotation distances (Random123's R_32x2).
const THREEFRY_ROT: [u32; 8] = [13, 15, 26, 6, 17, 29, 16, 24];

/// Threefry2x32 with 20 rounds (Random123's `threefry2x32_R(20, ctr, key)`):
/// five groups of four rounds, the key schedule injected after each group.
#[inline(always)]
pub fn threefry2x32(ctr: [u32; 2], key: [u32; 2]) -> [u32; 2] {
    let ks = [key[0], key[1], 0x1BD1_1BDA ^ key[0] ^ key[1]];
    let mut x0 = ctr[0].wrapping_add(ks[0]);
    let mut x1 = ctr[1].wrapping_add(ks[1]);
    for group in 0..5usize {
        for j in 0..4 {
            x0 = x0.wrapping_add(x1);
            x1 = x1.rotate_left(THREEFRY_ROT[(group % 2) * 4 + j]) ^ x0;
        }
        let s = group + 1;
        x0 = x0.wrapping_add(ks[s % 3]);
        x1 = x1.wrapping_add(ks[(s + 1) % 3]).wrapping_add(s as u32);
    }
    [x0, x1]
}

/// Elements per parallel chunk (a multiple of 4, so that chunks start on Philox
/// block boundaries); Ctrl-C is checked once per chunk.
pub const CHUNK: usize = 1 << 16;

/// Makes `n` elements in parallel chunks: `write(first_index, chunk)` must write
/// every element of `chunk`. The output is admitted under the memory budget
/// (`try_output_vec`) before anything is made.
pub fn par_fill<T: Send>(
    n: usize,
    what: &dyn std::fmt::Display,
    write: impl Fn(usize, &mut [std::mem::MaybeUninit<T>]) + Sync,
) -> Result<Vec<T>, xlet_core::error::KernelError> {
    use rayon::prelude::*;
    use std::sync::atomic::AtomicBool;
    let mut out: Vec<T> = xlet_core::alloc::try_output_vec(n, what)?;
    let stopped = AtomicBool::new(false);
    out.spare_capacity_mut()[..n]
        .par_chunks_mut(CHUNK)
        .enumerate()
        .for_each(|(c, chunk)| {
            if stopped.load(Ordering::Relaxed) {
                return;
            }
            if xlet_core::config::interrupted() {
                stopped.store(true, Ordering::Relaxed);
                return;
            }
            write(c * CHUNK, chunk);
        });
    if stopped.load(Ordering::Relaxed) {
        return Err(xlet_core::error::KernelError::new(
            "interrupted",
            "interrupted",
        ));
    }
    // SAFETY: every chunk of the first n elements was written (`write`'s contract)
    // unless the run stopped, which returned above.
    unsafe { out.set_len(n) };
    Ok(out)
}
