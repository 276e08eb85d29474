//! Helpers shared by the unit tests of every layer: a deterministic generator
//! and a fixed-size thread pool. (The evaluation context for kernels that call
//! no computation is `xlet_ir::test_support::NoCalls`.)

/// A 64-bit linear congruential generator: the tests need variety and
/// repeatability, not statistical quality.
pub struct Rng(u64);

impl Rng {
    const MUL: u64 = 6364136223846793005;
    const INC: u64 = 1442695040888963407;

    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(Self::MUL).wrapping_add(Self::INC))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(Self::MUL).wrapping_add(Self::INC);
        self.0
    }

    /// Uniform-ish in 0..n (0 when n is 0).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() >> 11) % n.max(1) as u64) as usize
    }

    /// In [0, 1), from the top 53 bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// `f` run on a fresh rayon pool of `threads` threads (for the tests that
/// results do not depend on the thread count).
pub fn on_threads<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a test thread pool")
        .install(f)
}
