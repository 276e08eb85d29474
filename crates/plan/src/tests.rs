use crate::exec::copy_block;

#[test]
fn copy_block_moves_a_box_between_row_major_arrays() {
    // src 3x4 = 0..12; the 2x2 box at (1, 2) is {6, 7, 10, 11}.
    let src: Vec<i32> = (0..12).collect();
    let mut dst = [0i32; 6];
    copy_block(&src, &[3, 4], &[1, 2], &mut dst, &[2, 3], &[0, 1], &[2, 2]).unwrap();
    assert_eq!(dst, [0, 6, 7, 0, 10, 11]);
}

#[test]
fn copy_block_of_rank_zero_and_empty_boxes() {
    let mut d = [0u8];
    copy_block(&[7u8], &[], &[], &mut d, &[], &[], &[]).unwrap();
    assert_eq!(d, [7]);
    let mut e = [1u8; 4];
    copy_block(
        &[9u8; 4],
        &[2, 2],
        &[0, 0],
        &mut e,
        &[2, 2],
        &[0, 0],
        &[0, 2],
    )
    .unwrap();
    assert_eq!(e, [1; 4]);
}

#[test]
fn copy_block_out_of_bounds_is_an_error_not_a_panic() {
    let mut d = [0u8; 4];
    assert!(
        copy_block(
            &[1u8; 4],
            &[2, 2],
            &[1, 1],
            &mut d,
            &[2, 2],
            &[0, 0],
            &[2, 2]
        )
        .is_err()
    );
}

#[test]
fn gather_reads_transposes_broadcasts_and_strided_slices() {
    let src: Vec<i32> = (0..12).collect(); // a 3x4 array
    let mut out = Vec::new();
    // Transpose to 4x3.
    crate::exec::gather(&src, &[4, 3], 0, &[1, 4], &mut out).unwrap();
    assert_eq!(out, [0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11]);
    // Row 1 repeated twice (a broadcast of a 4-vector into 2x4).
    crate::exec::gather(&src, &[2, 4], 4, &[0, 1], &mut out).unwrap();
    assert_eq!(out, [4, 5, 6, 7, 4, 5, 6, 7]);
    // Slice [1:3, 0:4:3].
    crate::exec::gather(&src, &[2, 2], 4, &[4, 3], &mut out).unwrap();
    assert_eq!(out, [4, 7, 8, 11]);
    // A read past the end is an error, not a panic.
    assert!(crate::exec::gather(&src, &[2, 4], 8, &[4, 1], &mut out).is_err());
    assert_eq!(crate::shape_ops::row_major(&[2, 3, 4]), [12, 4, 1]);
}
