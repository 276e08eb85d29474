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
