use super::*;
use half::{bf16, f16};
use ndarray::{ArrayD, IxDyn};
use xlet_core::value::{Value, c64, c128};

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("xlet-npy-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    dir.join(name)
}

fn arr<T: Elem>(dims: &[usize], v: Vec<T>) -> Array {
    Array::from_nd(ArrayD::from_shape_vec(IxDyn(dims), v).unwrap())
}

fn same(a: &Array, b: &Array) -> bool {
    // Through c128, so that complex values compare both parts.
    a.array_type() == b.array_type() && a.to_vec::<c128>() == b.to_vec::<c128>()
}

#[test]
fn every_element_type_round_trips() {
    let cases = vec![
        arr(&[3], vec![true, false, true]),
        arr(&[2], vec![i8::MIN, i8::MAX]),
        arr(&[2], vec![i16::MIN, i16::MAX]),
        arr(&[2], vec![i32::MIN, i32::MAX]),
        arr(&[2], vec![i64::MIN + 1, i64::MAX - 1]),
        arr(&[2], vec![0u8, u8::MAX]),
        arr(&[2], vec![0u16, u16::MAX]),
        arr(&[2], vec![0u32, u32::MAX]),
        arr(&[2], vec![0u64, 1 << 52]),
        arr(&[2], vec![f16::from_f32(0.5), f16::MAX]),
        arr(&[2], vec![bf16::from_f32(1.5), bf16::from_f32(-2.0)]),
        arr(&[2, 2], vec![0.1f32, -2.5, 1e30, 0.0]),
        arr(&[], vec![0.1f64]),
        arr(&[0, 3], Vec::<f32>::new()),
        arr(&[2], vec![c64::new(1.0, -2.5), c64::new(f32::MAX, 0.0)]),
        arr(&[1, 2], vec![c128::new(0.1, 1e300), c128::new(-0.0, 3.0)]),
    ];
    for (i, a) in cases.iter().enumerate() {
        let p = scratch(&format!("rt{i}.npy"));
        write(&p, a).unwrap();
        let b = read(&p).unwrap();
        assert!(same(a, &b), "{i}: {a:?} read back as {b:?}");
        assert_eq!(read_info(&p).unwrap().descr, descr(a.elem()));
    }
}

#[test]
fn s64_extremes_round_trip_exactly() {
    let a = arr(&[2], vec![i64::MIN, i64::MAX]);
    let p = scratch("s64.npy");
    write(&p, &a).unwrap();
    assert_eq!(read(&p).unwrap().to_vec::<i64>(), vec![i64::MIN, i64::MAX]);
}

/// A transposed (strided) array is written in its logical row-major order.
#[test]
fn strided_arrays_are_written_row_major() {
    let a = ArrayD::from_shape_vec(IxDyn(&[2, 3]), vec![0i32, 1, 2, 3, 4, 5]).unwrap();
    let t = Array::from_nd(a.reversed_axes());
    let p = scratch("t.npy");
    write(&p, &t).unwrap();
    let b = read(&p).unwrap();
    assert_eq!(b.dims(), &[3, 2]);
    assert_eq!(b.to_vec::<i64>(), vec![0, 3, 1, 4, 2, 5]);
}

/// Hand-made files: Fortran order, big-endian, bf16 as `<V2`.
fn file(descr: &str, fortran: bool, shape: &str, data: &[u8]) -> std::path::PathBuf {
    let dict = format!(
        "{{'descr': '{descr}', 'fortran_order': {}, 'shape': {shape}, }}",
        if fortran { "True" } else { "False" }
    );
    let mut h = dict.into_bytes();
    while (10 + h.len() + 1) % 64 != 0 {
        h.push(b' ');
    }
    h.push(b'\n');
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    bytes.extend_from_slice(&(h.len() as u16).to_le_bytes());
    bytes.extend_from_slice(&h);
    bytes.extend_from_slice(data);
    let p = scratch(&format!("f{}.npy", rand_name(&bytes)));
    std::fs::write(&p, bytes).unwrap();
    p
}

fn rand_name(b: &[u8]) -> u64 {
    b.iter().fold(1469598103934665603u64, |h, &x| {
        (h ^ x as u64).wrapping_mul(1099511628211)
    })
}

#[test]
fn fortran_order_and_big_endian_read_correctly() {
    let data: Vec<u8> = [0i32, 3, 1, 4, 2, 5]
        .iter()
        .flat_map(|x| x.to_be_bytes())
        .collect();
    let a = read(&file(">i4", true, "(2, 3)", &data)).unwrap();
    assert_eq!(a.dims(), &[2, 3]);
    assert_eq!(a.to_vec::<i64>(), vec![0, 1, 2, 3, 4, 5]);
    // 1.5 in bf16 is 0x3fc0: ml_dtypes writes c0 3f.
    let b = read(&file("<V2", false, "(1,)", &[0xc0, 0x3f])).unwrap();
    assert!(matches!(b, Array::BF16(_)));
    assert_eq!(b.to_vec::<f64>(), vec![1.5]);
    let h = read(&file(">f2", false, "()", &[0x3c, 0x00])).unwrap();
    assert_eq!(h.to_vec::<f64>(), vec![1.0]);
}

fn fails(p: &std::path::Path, needle: &str) {
    let e = read(p).expect_err("an error");
    assert!(e.0.contains(needle), "{e}");
    assert_eq!(read_info(p).err().map(|e| e.0.contains(needle)), Some(true));
}

#[test]
fn bad_files_are_clear_errors() {
    fails(
        &file("<M8[D]", false, "(1,)", &[0; 8]),
        "no xlet element type",
    );
    fails(&file(">V2", false, "(1,)", &[0; 2]), "no xlet element type");
    fails(&file("|i4", false, "(1,)", &[0; 4]), "no xlet element type");
    fails(&file("<f4", false, "(3,)", &[0; 8]), "truncated");
    fails(&file("<f4", false, "(1,)", &[0; 8]), "too long");
    // A 10^12-element claim with no data fails before anything is allocated.
    fails(&file("<f4", false, "(1000000000000,)", &[]), "truncated");
    fails(
        &file("<f8", false, "(4294967296, 4294967296, 2)", &[]),
        "overflows",
    );
    let p = scratch("notnpy.npy");
    std::fs::write(&p, b"hello world").unwrap();
    fails(&p, "not an .npy file");
    let p = scratch("short.npy");
    std::fs::write(&p, b"\x93NUM").unwrap();
    fails(&p, "not an .npy file");
    let p = scratch("bighead.npy");
    let mut b = b"\x93NUMPY\x02\x00".to_vec();
    b.extend_from_slice(&3_000_000_000u32.to_le_bytes());
    std::fs::write(&p, b).unwrap();
    fails(&p, "header of 3000000000 bytes");
    let p = scratch("headcut.npy");
    std::fs::write(&p, b"\x93NUMPY\x01\x00\x76\x00{'descr'").unwrap();
    fails(&p, "truncated inside its header");
    let p = scratch("baddict.npy");
    let mut b = b"\x93NUMPY\x01\x00\x0a\x00".to_vec();
    b.extend_from_slice(b"not dict \n");
    std::fs::write(&p, b).unwrap();
    fails(&p, "malformed header");
    fails(&scratch("does-not-exist.npy"), "cannot open");
}

/// A well-formed file bigger than the memory budget: a sparse 1 TiB file
/// (its length is right, its data holes) is refused by the budget before
/// anything is allocated; allocating first would abort the test process.
#[test]
fn memory_is_admitted_before_reading() {
    let p = file("<f4", false, "(274877906944,)", &[]);
    let f = std::fs::OpenOptions::new().write(true).open(&p).unwrap();
    let header = std::fs::metadata(&p).unwrap().len();
    if f.set_len(header + (1u64 << 40)).is_err() {
        return; // a file system without sparse files
    }
    let e = read(&p).expect_err("an error");
    assert!(e.0.contains("out of memory budget"), "{e}");
    assert!(read_info(&p).is_ok());
    let _ = std::fs::remove_file(&p);
}

#[test]
fn descr_table_reads_what_it_writes() {
    for e in ElemType::ALL {
        assert_eq!(elem_of(descr(e)), Some(e), "{e:?}");
    }
    assert_eq!(elem_of("|V2"), Some(ElemType::BF16));
    assert_eq!(elem_of("=f4"), Some(ElemType::F32));
    assert_eq!(elem_of("<U3"), None);
    let _ = Value::tuple(vec![]);
}

fn conformance(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../conformance/npy")
        .join(name)
}

fn member(file: &str, key: &str) -> Result<Array, NpyError> {
    let path = conformance(file);
    read_from(Source {
        path: &path,
        key: Some(key),
        as_type: None,
    })
}

#[test]
fn npz_stored_and_deflated_members_read() {
    // conformance/npy/make_npz.py: np.savez and np.savez_compressed.
    for file in ["arrays.npz", "arrays_deflate.npz"] {
        let a = member(file, "a").unwrap();
        assert!(same(
            &a,
            &arr(&[2, 3], vec![1.5f32, -2.0, 3.0, 4.0, 5.0, 6.25])
        ));
        let b = member(file, "b.npy").unwrap();
        assert!(same(&b, &arr(&[3], vec![7i64, -8, 9])));
        let h = member(file, "h").unwrap();
        assert_eq!(h.array_type().to_string(), "bf16[3]");
        let info = read_info_from(Source {
            path: &conformance(file),
            key: Some("c"),
            as_type: None,
        })
        .unwrap();
        assert_eq!(info.ty.to_string(), "c64[2]");
    }
}

#[test]
fn npz_missing_key_lists_the_keys() {
    let e = member("arrays.npz", "w").unwrap_err().0;
    assert!(
        e.contains("has no array 'w'; its arrays are 'a', 'b', 'c', 'h'"),
        "{e}"
    );
    // An archive without a key, and a key on a plain .npy file.
    let e = read(&conformance("arrays.npz")).unwrap_err().0;
    assert!(e.contains("name the array to read, one of 'a'"), "{e}");
    let e = member("f32.npy", "a").unwrap_err().0;
    assert!(e.contains("is not an .npz archive"), "{e}");
    // A file that is not there is that error, not "not an archive".
    let e = member("no_such_file.npz", "a").unwrap_err().0;
    assert!(e.contains("cannot open"), "{e}");
    assert!(!e.contains("is not an .npz archive"), "{e}");
}

#[test]
fn hostile_archives_are_errors() {
    // The bomb declares 1000 bytes and inflates to 800128: caught after 1001.
    let e = member("bomb.npz", "x").unwrap_err().0;
    assert!(e.contains("declares") || e.contains("header claims"), "{e}");
    let e = member("truncated.npz", "a").unwrap_err().0;
    assert!(
        e.contains("truncated.npz") && e.contains("no end-of-archive"),
        "{e}"
    );
    let e = member("bad_crc.npz", "x").unwrap_err().0;
    assert!(e.contains("checksum"), "{e}");
}

/// A one-member zip, stored, whose content is `data` but whose sizes say
/// `size`; its directory entry at the end.
fn zip_of(data: &[u8], size: u32, method: u16) -> Vec<u8> {
    let mut z = b"PK\x03\x04".to_vec();
    z.extend([20, 0, 0, 0]);
    z.extend(method.to_le_bytes());
    z.extend([0; 4]);
    z.extend((!npz::crc32(!0, data)).to_le_bytes());
    z.extend((data.len() as u32).to_le_bytes());
    z.extend(size.to_le_bytes());
    z.extend([5, 0, 0, 0]);
    z.extend(b"x.npy");
    z.extend(data);
    let cd = z.len() as u32;
    z.extend(b"PK\x01\x02");
    z.extend([20, 0, 20, 0, 0, 0]);
    z.extend(method.to_le_bytes());
    z.extend([0; 4]);
    z.extend((!npz::crc32(!0, data)).to_le_bytes());
    z.extend((data.len() as u32).to_le_bytes());
    z.extend(size.to_le_bytes());
    z.extend([5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    z.extend(b"x.npy");
    let cd_len = z.len() as u32 - cd;
    z.extend(b"PK\x05\x06");
    z.extend([0, 0, 0, 0, 1, 0, 1, 0]);
    z.extend(cd_len.to_le_bytes());
    z.extend(cd.to_le_bytes());
    z.extend([0, 0]);
    z
}

#[test]
fn hand_made_hostile_archives_are_errors() {
    let read_x = |bytes: &[u8], name: &str| {
        let p = scratch(name);
        std::fs::write(&p, bytes).unwrap();
        read_from(Source {
            path: &p,
            key: Some("x"),
            as_type: None,
        })
    };
    // A deflate member claiming 4 GB of content from 3 bytes: inflating it
    // needs the declared size admitted first, which fails cleanly (budget),
    // or the stream ends early.
    let e = read_x(&zip_of(&[3, 0, 0], u32::MAX - 1, 8), "claims.npz").unwrap_err();
    assert!(e.0.contains("claims.npz"), "{}", e.0);
    // Garbage deflate data.
    let e = read_x(&zip_of(&[0xFF; 16], 100, 8), "garbage.npz").unwrap_err();
    assert!(
        e.0.contains("corrupt") || e.0.contains("ends early"),
        "{}",
        e.0
    );
    // A stored member that is no .npy.
    let e = read_x(&zip_of(b"hello", 5, 0), "notnpy.npz").unwrap_err();
    assert!(e.0.contains("not an .npy file"), "{}", e.0);
    // An unknown method.
    let e = read_x(&zip_of(b"hello", 5, 12), "bzip.npz").unwrap_err();
    assert!(e.0.contains("method 12"), "{}", e.0);
    // Every prefix of a real archive is an error, never a panic.
    let z = std::fs::read(conformance("arrays_deflate.npz")).unwrap();
    for cut in (0..z.len()).step_by(7) {
        assert!(read_x(&z[..cut], "cut.npz").is_err());
    }
}

#[test]
fn small_types_read_with_a_type() {
    use xlet_core::small::SmallType;
    let path = conformance("f8e4m3fn.npy");
    let e = read(&path).unwrap_err().0;
    assert!(e.contains("type=f8e4m3fn"), "{e}");
    let t = ElemType::parse("f8e4m3fn").unwrap();
    let a = read_from(Source {
        path: &path,
        key: None,
        as_type: Some(t),
    })
    .unwrap();
    assert_eq!(a.to_vec::<f64>(), vec![1.5, -2.0, 448.0, 0.015625]);
    // s4: ml_dtypes keeps the pattern in the low 4 bits.
    let s4 = ElemType::parse("s4").unwrap();
    let a = read_from(Source {
        path: &conformance("s4.npy"),
        key: None,
        as_type: Some(s4),
    })
    .unwrap();
    assert_eq!(a.to_vec::<i64>(), vec![-8, -1, 7]);
    assert!(matches!(s4.small(), Some(SmallType::S4)));
    // A size that disagrees is its own kind of error.
    let e = read_from(Source {
        path: &conformance("f32.npy"),
        key: None,
        as_type: Some(t),
    })
    .unwrap_err();
    assert_eq!(e.1, Problem::TypeSize);
    // Same size: a reinterpretation of the bits (f32 as u32).
    let a = read_from(Source {
        path: &conformance("f32.npy"),
        key: None,
        as_type: Some(ElemType::U32),
    })
    .unwrap();
    assert_eq!(a.to_vec::<u64>()[1], (-2.5f32).to_bits() as u64);
    // And from an archive.
    let a = read_from(Source {
        path: &conformance("small.npz"),
        key: Some("e4m3"),
        as_type: Some(t),
    })
    .unwrap();
    assert_eq!(a.to_vec::<f64>(), vec![1.5, -2.0]);
}
