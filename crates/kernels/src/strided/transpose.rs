//! Copying a block of a view into a row-major buffer, across the view's rows
//! when it is transposed (register transposes where the CPU has them).

/// Copies a `rows` x `cols` block of elements of `size` bytes, element (r, c) at
/// `src + (r * rs + c * cs) * size`, into `dst` in row-major order. Elements are
/// moved as plain bits of their size, so one copy serves every element type.
///
/// # Safety
/// Every source element must be readable and `dst` must hold rows * cols elements.
pub unsafe fn gather_tile(
    src: *const u8,
    size: usize,
    rs: isize,
    cs: isize,
    rows: usize,
    cols: usize,
    dst: *mut u8,
) {
    unsafe fn go<W: Copy>(
        src: *const W,
        rs: isize,
        cs: isize,
        rows: usize,
        cols: usize,
        dst: *mut W,
    ) {
        // SAFETY: the caller's contract (`gather_tile`): every element read is
        // readable and `dst` holds `rows * cols` elements of `W`.
        unsafe {
            if rs.abs() <= cs.abs() {
                // Read down each column: contiguous (or nearly) in the source.
                for c in 0..cols {
                    let s = src.offset(c as isize * cs);
                    for r in 0..rows {
                        *dst.add(r * cols + c) = *s.offset(r as isize * rs);
                    }
                }
            } else if cs == 1 {
                // Rows are source runs (a contiguous leaf of a tiled fused op).
                for r in 0..rows {
                    std::ptr::copy_nonoverlapping(
                        src.offset(r as isize * rs),
                        dst.add(r * cols),
                        cols,
                    );
                }
            } else {
                for r in 0..rows {
                    let s = src.offset(r as isize * rs);
                    let d = dst.add(r * cols);
                    for c in 0..cols {
                        *d.add(c) = *s.offset(c as isize * cs);
                    }
                }
            }
        }
    }
    // SAFETY: `gather_tile`'s contract, passed on; each branch reads and
    // writes elements of exactly `size` bytes, and the blocked kernels run only
    // where `simd::AVAILABLE` says the CPU has their instructions.
    unsafe {
        match size {
            1 => go(src, rs, cs, rows, cols, dst),
            2 => go(src as *const u16, rs, cs, rows, cols, dst as *mut u16),
            4 if rs == 1 && simd::AVAILABLE => blocked::<u32, 8>(
                src as *const u32,
                cs,
                rows,
                cols,
                dst as *mut u32,
                simd::transpose8x8_u32,
                go::<u32>,
            ),
            4 => go(src as *const u32, rs, cs, rows, cols, dst as *mut u32),
            _ if rs == 1 && simd::AVAILABLE => blocked::<u64, 4>(
                src as *const u64,
                cs,
                rows,
                cols,
                dst as *mut u64,
                simd::transpose4x4_u64,
                go::<u64>,
            ),
            _ => go(src as *const u64, rs, cs, rows, cols, dst as *mut u64),
        }
    }
}

/// Whether the tile copy prefetches the source rows it reads next. A constant,
/// not a setting of a run: it was a process-wide switch for comparing both in
/// the benches, and on is the tuned default; flip it here to measure again.
const PREFETCH: bool = true;

/// The transpose proper of `gather_tile` (a column of the block is a source run,
/// `rs == 1`) in `B` x `B` register blocks `kernel`; the ragged right and bottom
/// edges go through `edge` (the element-by-element copy).
///
/// Source rows (block columns) are read `B` at a time, each once from end to
/// end; before a group is read, the rows of the group after next are
/// prefetched, so that several source lines are in flight while registers
/// transpose the current group (the rows are far apart, which the hardware
/// prefetcher does not follow).
///
/// # Safety
/// As `gather_tile`, with `rs == 1`.
#[inline(always)]
unsafe fn blocked<W: Copy, const B: usize>(
    src: *const W,
    cs: isize,
    rows: usize,
    cols: usize,
    dst: *mut W,
    kernel: unsafe fn(*const W, isize, *mut W, usize),
    edge: unsafe fn(*const W, isize, isize, usize, usize, *mut W),
) {
    let (rb, cb) = (rows / B * B, cols / B * B);
    let prefetch = PREFETCH;
    let row_bytes = rows * std::mem::size_of::<W>();
    // SAFETY: `gather_tile`'s contract with `rs == 1`: the blocks and the
    // edges together read exactly the `rows x cols` source elements and write
    // the `rows * cols` of `dst`; prefetches never fault.
    unsafe {
        for c in (0..cb).step_by(B) {
            if prefetch {
                for k in (c + 2 * B)..(c + 3 * B).min(cols) {
                    prefetch_bytes(src.offset(k as isize * cs) as *const u8, row_bytes);
                }
            }
            for r in (0..rb).step_by(B) {
                kernel(
                    src.offset(c as isize * cs + r as isize),
                    cs,
                    dst.add(r * cols + c),
                    cols,
                );
            }
        }
        if rb < rows {
            edge(src.add(rb), 1, cs, rows - rb, cols, dst.add(rb * cols));
        }
        if cb < cols {
            for r in 0..rb {
                for c in cb..cols {
                    *dst.add(r * cols + c) = *src.offset(r as isize + c as isize * cs);
                }
            }
        }
    }
}

/// Asks for the cache lines of `len` bytes at `p` (a hint: never faults).
#[inline(always)]
fn prefetch_bytes(p: *const u8, len: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        let mut b = 0;
        while b < len {
            // SAFETY: a prefetch is a hint and never faults, whatever the address.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    p.wrapping_add(b) as *const i8,
                )
            };
            b += 64;
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (p, len);
}

/// Register transposes: 8x8 of 4-byte elements and 4x4 of 8-byte elements in
/// AVX registers (the scalar transpose costs a few cycles per element, which
/// made a transposed read 4x a copy). Chosen when the crate is compiled for a
/// CPU with AVX (`target-cpu=native` in .cargo/config.toml); the code uses no
/// AVX-512 instruction, so an AVX2-only build runs them too, and a build
/// without AVX uses the element-by-element copy.
mod simd {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx"))]
    pub const AVAILABLE: bool = true;
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx")))]
    pub const AVAILABLE: bool = false;

    /// Row i of the 8x8 block at `src` (rows `ss` elements apart) becomes column i
    /// of the block at `dst` (rows `ds` apart).
    ///
    /// # Safety
    /// Both blocks must be valid for their reads and writes.
    #[cfg(all(target_arch = "x86_64", target_feature = "avx"))]
    #[inline(always)]
    pub unsafe fn transpose8x8_u32(src: *const u32, ss: isize, dst: *mut u32, ds: usize) {
        use std::arch::x86_64::*;
        // SAFETY: the caller's contract (both 8x8 blocks valid); AVX is enabled for this build.
        unsafe {
            let ld = |i: isize| _mm256_loadu_ps(src.offset(i * ss) as *const f32);
            let (r0, r1, r2, r3) = (ld(0), ld(1), ld(2), ld(3));
            let (r4, r5, r6, r7) = (ld(4), ld(5), ld(6), ld(7));
            let t0 = _mm256_unpacklo_ps(r0, r1);
            let t1 = _mm256_unpackhi_ps(r0, r1);
            let t2 = _mm256_unpacklo_ps(r2, r3);
            let t3 = _mm256_unpackhi_ps(r2, r3);
            let t4 = _mm256_unpacklo_ps(r4, r5);
            let t5 = _mm256_unpackhi_ps(r4, r5);
            let t6 = _mm256_unpacklo_ps(r6, r7);
            let t7 = _mm256_unpackhi_ps(r6, r7);
            let u0 = _mm256_shuffle_ps::<0x44>(t0, t2);
            let u1 = _mm256_shuffle_ps::<0xEE>(t0, t2);
            let u2 = _mm256_shuffle_ps::<0x44>(t1, t3);
            let u3 = _mm256_shuffle_ps::<0xEE>(t1, t3);
            let u4 = _mm256_shuffle_ps::<0x44>(t4, t6);
            let u5 = _mm256_shuffle_ps::<0xEE>(t4, t6);
            let u6 = _mm256_shuffle_ps::<0x44>(t5, t7);
            let u7 = _mm256_shuffle_ps::<0xEE>(t5, t7);
            let st = |i: usize, v| _mm256_storeu_ps(dst.add(i * ds) as *mut f32, v);
            st(0, _mm256_permute2f128_ps::<0x20>(u0, u4));
            st(1, _mm256_permute2f128_ps::<0x20>(u1, u5));
            st(2, _mm256_permute2f128_ps::<0x20>(u2, u6));
            st(3, _mm256_permute2f128_ps::<0x20>(u3, u7));
            st(4, _mm256_permute2f128_ps::<0x31>(u0, u4));
            st(5, _mm256_permute2f128_ps::<0x31>(u1, u5));
            st(6, _mm256_permute2f128_ps::<0x31>(u2, u6));
            st(7, _mm256_permute2f128_ps::<0x31>(u3, u7));
        }
    }

    /// Row i of the 4x4 block of 8-byte elements at `src` (rows `ss` elements
    /// apart) becomes column i of the block at `dst` (rows `ds` apart).
    ///
    /// # Safety
    /// Both blocks must be valid for their reads and writes.
    #[cfg(all(target_arch = "x86_64", target_feature = "avx"))]
    #[inline(always)]
    pub unsafe fn transpose4x4_u64(src: *const u64, ss: isize, dst: *mut u64, ds: usize) {
        use std::arch::x86_64::*;
        // SAFETY: the caller's contract (both 4x4 blocks valid); AVX is enabled for this build.
        unsafe {
            let ld = |i: isize| _mm256_loadu_pd(src.offset(i * ss) as *const f64);
            let (r0, r1, r2, r3) = (ld(0), ld(1), ld(2), ld(3));
            // t0 = r0[0] r1[0] r0[2] r1[2], t1 = r0[1] r1[1] r0[3] r1[3], ...
            let t0 = _mm256_unpacklo_pd(r0, r1);
            let t1 = _mm256_unpackhi_pd(r0, r1);
            let t2 = _mm256_unpacklo_pd(r2, r3);
            let t3 = _mm256_unpackhi_pd(r2, r3);
            let st = |i: usize, v| _mm256_storeu_pd(dst.add(i * ds) as *mut f64, v);
            st(0, _mm256_permute2f128_pd::<0x20>(t0, t2));
            st(1, _mm256_permute2f128_pd::<0x20>(t1, t3));
            st(2, _mm256_permute2f128_pd::<0x31>(t0, t2));
            st(3, _mm256_permute2f128_pd::<0x31>(t1, t3));
        }
    }

    /// Never called: `AVAILABLE` is false where there is no AVX.
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx")))]
    pub unsafe fn transpose4x4_u64(src: *const u64, ss: isize, dst: *mut u64, ds: usize) {
        for i in 0..4 {
            for j in 0..4 {
                // SAFETY: the caller passes a 4x4 (8x8) block of source and
                // destination, as for the AVX form.
                unsafe { *dst.add(j * ds + i) = *src.offset(i as isize * ss + j as isize) };
            }
        }
    }

    /// Never called: `AVAILABLE` is false where there is no AVX.
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx")))]
    pub unsafe fn transpose8x8_u32(src: *const u32, ss: isize, dst: *mut u32, ds: usize) {
        for i in 0..8 {
            for j in 0..8 {
                // SAFETY: the caller passes a 4x4 (8x8) block of source and
                // destination, as for the AVX form.
                unsafe { *dst.add(j * ds + i) = *src.offset(i as isize * ss + j as isize) };
            }
        }
    }
}
