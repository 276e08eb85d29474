//! Copying a block of a view into a row-major buffer, across the view's rows
//! when it is transposed (register transposes where the CPU has them).

/// Copies a `rows` x `cols` block of elements of `size` bytes, element (r, c) at
/// `src + (r * rs + c * cs) * size`, into `dst` in row-major order. Elements are
/// moved as plain bits of their size, so one copy serves every element type.
///
/// # Safety
/// Every source element must be readable and `dst` must hold rows * cols elements.
pub(crate) unsafe fn gather_tile(
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
    unsafe {
        match size {
            1 => go(src, rs, cs, rows, cols, dst),
            2 => go(src as *const u16, rs, cs, rows, cols, dst as *mut u16),
            4 => {
                let (src, dst) = (src as *const u32, dst as *mut u32);
                // The transpose proper (a column of the block is a source run) in 8x8
                // register blocks; the ragged right and bottom edges element by element.
                let (r8, c8) = if rs == 1 && simd::AVAILABLE {
                    (rows / 8 * 8, cols / 8 * 8)
                } else {
                    (0, 0)
                };
                for c in (0..c8).step_by(8) {
                    for r in (0..r8).step_by(8) {
                        simd::transpose8x8_u32(
                            src.offset(c as isize * cs + r as isize),
                            cs,
                            dst.add(r * cols + c),
                            cols,
                        );
                    }
                }
                if r8 < rows {
                    go(
                        src.offset(r8 as isize * rs),
                        rs,
                        cs,
                        rows - r8,
                        cols,
                        dst.add(r8 * cols),
                    );
                }
                if c8 < cols {
                    for r in 0..r8 {
                        for c in c8..cols {
                            *dst.add(r * cols + c) = *src.offset(r as isize * rs + c as isize * cs);
                        }
                    }
                }
            }
            _ => go(src as *const u64, rs, cs, rows, cols, dst as *mut u64),
        }
    }
}

/// An 8x8 transpose of 4-byte elements in AVX registers: the scalar transpose
/// costs a few cycles per element, which made a transposed read 4x a copy.
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

    /// Never called: `AVAILABLE` is false where there is no AVX.
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx")))]
    pub unsafe fn transpose8x8_u32(src: *const u32, ss: isize, dst: *mut u32, ds: usize) {
        for i in 0..8 {
            for j in 0..8 {
                unsafe { *dst.add(j * ds + i) = *src.offset(i as isize * ss + j as isize) };
            }
        }
    }
}
