//! `.npy` files (spec/npy.md): reading any xlet element type, writing them.
//!
//! The header (magic, version, the Python dict literal) is parsed here in one
//! linear pass (`header`: a general Python-literal parser took exponential time
//! on a list nested forty deep). The data is decoded here, for three reasons the crate's
//! own readers do not meet: bf16 arrives as numpy's raw `<V2` (how ml_dtypes
//! saves it), the array's memory must be admitted under the budget
//! (`kernels::alloc::admit`) before it is allocated, and the file's length is
//! checked against the header before anything is read, so a ten-byte file that
//! claims a [10^12] shape fails at once.

mod elem;
pub mod header;
pub mod npz;
#[cfg(test)]
mod tests;

use elem::NpyElem;
pub use elem::{descr, reinterpret};

use ndarray::{ArrayD, IxDyn, ShapeBuilder};
use ndarray_npy::npy::header::{Header, Layout};
use py_literal::Value as PyValue;
use std::fmt;
use std::io::{Read, Write};
use std::path::Path;
use xlet_core::alloc;
use xlet_core::types::{ArrayType, ElemType};
use xlet_core::value::{Array, Elem};

/// The longest header accepted. numpy writes 128 bytes or a little more for
/// any realistic rank, and itself refuses headers over 10000 bytes unless
/// asked; this allows ten times that and keeps a corrupt length from making
/// xlet allocate gigabytes before failing.
pub const MAX_HEADER_BYTES: usize = 100_000;

const MAGIC: &[u8] = b"\x93NUMPY";

/// What an `.npy` file holds, from its header.
#[derive(Clone, Debug, PartialEq)]
pub struct NpyInfo {
    pub ty: ArrayType,
    pub fortran: bool,
    pub big_endian: bool,
    /// Where the data starts (the header's length).
    pub data_offset: usize,
    /// The dtype as the file writes it, e.g. `<f4`.
    pub descr: String,
}

/// A file that cannot be read as an xlet array; the message says why.
#[derive(Clone, Debug, PartialEq)]
pub struct NpyError(pub String, pub Problem);

/// What kind of problem an `NpyError` is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    /// The file (or archive member) cannot be read as an array.
    File,
    /// The file is sound, but its elements' size is not the size of the
    /// element type it was asked to be read as (`type=`).
    TypeSize,
}

impl fmt::Display for NpyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

fn err(path: &Path, what: impl fmt::Display) -> NpyError {
    NpyError(format!("{}: {what}", path.display()), Problem::File)
}

/// Where an array is read from: a `.npy` file, or the array `key` of an
/// `.npz` archive; `as_type` reads its elements' bytes as that element type
/// (the small types, which numpy's files do not name; spec/npy.md).
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    pub path: &'a Path,
    pub key: Option<&'a str>,
    pub as_type: Option<ElemType>,
}

impl<'a> Source<'a> {
    pub fn file(path: &'a Path) -> Self {
        Source {
            path,
            key: None,
            as_type: None,
        }
    }

    /// How messages name the array: the file, or `FILE, array 'KEY'`.
    fn label(&self) -> std::path::PathBuf {
        match self.key {
            Some(k) => format!("{}, array '{k}'", self.path.display()).into(),
            None => self.path.to_path_buf(),
        }
    }

    /// The archive and its member, or an error when the key and the file's
    /// kind disagree.
    fn member(&self) -> Result<Option<(npz::Archive, npz::Entry)>, NpyError> {
        let zip = npz::is_zip(self.path)?;
        match (self.key, zip) {
            (Some(key), true) => {
                let a = npz::Archive::open(self.path)?;
                let e = a.find(key, self.path)?.clone();
                Ok(Some((a, e)))
            }
            (Some(_), false) => Err(err(
                self.path,
                "is not an .npz archive (a zip file), so it has no arrays by name; drop the name to read an .npy file",
            )),
            (None, true) => {
                let a = npz::Archive::open(self.path)?;
                Err(err(
                    self.path,
                    format!(
                        "is an .npz archive: name the array to read, one of {}",
                        a.key_list()
                    ),
                ))
            }
            (None, false) => Ok(None),
        }
    }
}

/// Reads `path`'s header: the array type it claims and where its data starts.
/// Checks the claimed size against the file's length.
pub fn read_info(path: &Path) -> Result<NpyInfo, NpyError> {
    read_info_from(Source::file(path))
}

/// `read_info` of a file or an archive member, read as `src.as_type` if given.
pub fn read_info_from(src: Source) -> Result<NpyInfo, NpyError> {
    let label = src.label();
    if let Some((mut archive, e)) = src.member()? {
        let head = archive.head(&e, 12 + MAX_HEADER_BYTES, src.path)?;
        return info_from(&mut &head[..], e.size, &label, src.as_type);
    }
    let path = src.path;
    let mut file = xlet_core::source::open_regular(path)
        .map_err(|e| err(path, format!("cannot open: {e}")))?;
    let file_len = file
        .metadata()
        .map_err(|e| err(path, format!("cannot read: {e}")))?
        .len();
    info_from(&mut file, file_len, path, src.as_type)
}

fn info_from(
    r: &mut impl Read,
    file_len: u64,
    path: &Path,
    as_type: Option<ElemType>,
) -> Result<NpyInfo, NpyError> {
    // Magic, version and the header length first, so that the length is
    // bounded before the crate allocates a buffer of it.
    let mut prefix = [0u8; 12];
    let got = read_up_to(r, &mut prefix[..10]).map_err(|e| err(path, e))?;
    if got < 10 || &prefix[..6] != MAGIC {
        return Err(err(
            path,
            "not an .npy file (it does not start with \\x93NUMPY and a version)",
        ));
    }
    let (prefix_len, header_len) = match prefix[6] {
        1 => (10, u16::from_le_bytes([prefix[8], prefix[9]]) as usize),
        2 | 3 => {
            if read_up_to(r, &mut prefix[10..12]).map_err(|e| err(path, e))? < 2 {
                return Err(err(path, "truncated inside its header"));
            }
            let n = u32::from_le_bytes([prefix[8], prefix[9], prefix[10], prefix[11]]);
            (12, usize::try_from(n).unwrap_or(usize::MAX))
        }
        v => {
            return Err(err(
                path,
                format!(
                    "unknown .npy format version {v}.{} (xlet reads 1.0, 2.0 and 3.0)",
                    prefix[7]
                ),
            ));
        }
    };
    if header_len > MAX_HEADER_BYTES {
        return Err(err(
            path,
            format!(
                "header of {header_len} bytes claimed; xlet reads headers up to {MAX_HEADER_BYTES} bytes"
            ),
        ));
    }
    let data_offset = prefix_len + header_len;
    if (data_offset as u64) > file_len {
        return Err(err(
            path,
            format!(
                "truncated inside its header ({file_len} bytes; the header says it is {data_offset})"
            ),
        ));
    }
    let mut head = prefix[..prefix_len].to_vec();
    head.resize(data_offset, 0);
    r.read_exact(&mut head[prefix_len..])
        .map_err(|e| err(path, format!("cannot read its header: {e}")))?;
    let header = header::parse(&head[prefix_len..])
        .map_err(|e| err(path, format!("malformed header: {e}")))?;
    let descr = match &header.descr {
        Ok(d) => d,
        Err(text) => {
            return Err(err(
                path,
                format!("holds a structured dtype {text}; xlet reads arrays of one element type"),
            ));
        }
    };
    let (elem, big_endian) = match as_type {
        Some(t) => elem::reinterpret(descr, t).map_err(|why| {
            let mut e = err(path, why);
            e.1 = Problem::TypeSize;
            e
        })?,
        None => elem::parse_descr(descr).ok_or_else(|| {
            err(
                path,
                format!(
                    "has dtype '{descr}', which is no xlet element type (xlet reads |b1, i1..i8, u1..u8, f2, f4, f8, c8, c16 and <V2 as bf16){}",
                    if descr.ends_with("V1") {
                        "; a 1-byte void is how ml_dtypes saves every f8/f6/f4 and 4- or 2-bit type, so the file does not say which: name the type, LoadNpy(\"FILE\", type=f8e4m3fn)"
                    } else {
                        ""
                    }
                ),
            )
        })?,
    };
    let ty = ArrayType::new(elem, header.shape.clone());
    let data_bytes = ty
        .num_elements()
        .and_then(|n| n.checked_mul(elem.byte_size()))
        .ok_or_else(|| {
            err(
                path,
                format!("claims shape {:?}, whose size overflows", header.shape),
            )
        })?;
    let have = file_len - data_offset as u64;
    if have != data_bytes as u64 {
        let how = if have < data_bytes as u64 {
            "truncated"
        } else {
            "too long"
        };
        return Err(err(
            path,
            format!(
                "{how}: its header claims {ty} ({data_bytes} bytes of data) but the file holds {have}"
            ),
        ));
    }
    Ok(NpyInfo {
        ty,
        fortran: header.fortran,
        big_endian,
        data_offset,
        descr: descr.clone(),
    })
}

/// Reads as much of `buf` as the reader has.
fn read_up_to(r: &mut impl Read, buf: &mut [u8]) -> Result<usize, String> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(format!("cannot read: {e}")),
        }
    }
    Ok(n)
}

/// Reads `path` whole: its header, then (after admitting its size under the
/// memory budget) its data. Fortran-order files give an array with Fortran
/// strides, big-endian files are byte-swapped.
pub fn read(path: &Path) -> Result<Array, NpyError> {
    read_from(Source::file(path))
}

/// `read` of a file or an archive member, read as `src.as_type` if given.
pub fn read_from(src: Source) -> Result<Array, NpyError> {
    let label = src.label();
    if let Some((mut archive, e)) = src.member()? {
        let size = e.size;
        return archive.with_content(&e, src.path, |r| {
            read_array(&mut std::io::BufReader::new(r), size, &label, src.as_type)
        });
    }
    let path = src.path;
    let file = xlet_core::source::open_regular(path)
        .map_err(|e| err(path, format!("cannot open: {e}")))?;
    let file_len = file
        .metadata()
        .map_err(|e| err(path, format!("cannot read: {e}")))?
        .len();
    read_array(
        &mut std::io::BufReader::new(file),
        file_len,
        path,
        src.as_type,
    )
}

/// The array of an `.npy` file's bytes, `len` of them, from `r`.
fn read_array(
    r: &mut impl Read,
    len: u64,
    path: &Path,
    as_type: Option<ElemType>,
) -> Result<Array, NpyError> {
    let info = info_from(r, len, path, as_type)?;
    let bytes = info
        .ty
        .num_elements()
        .and_then(|n| n.checked_mul(info.ty.elem.byte_size()))
        .unwrap_or(usize::MAX);
    alloc::admit(bytes, &info.ty).map_err(|e| err(path, e.message))?;
    let a = xlet_core::with_elem_type!(info.ty.elem, T => decode::<T>(r, &info, path))?;
    Ok(match info.ty.elem.small() {
        // The pattern is in the low bits; anything above them is dropped.
        Some(t) => mask_small(a, t),
        None => a,
    })
}

/// A byte array as small type `t`, each byte masked to `t`'s bits.
fn mask_small(a: Array, t: xlet_core::small::SmallType) -> Array {
    let m = t.mask();
    let a = match a {
        Array::U8(mut x) => {
            // The array was just made, so this changes it in place.
            x.mapv_inplace(|b| b & m);
            Array::U8(x)
        }
        other => other,
    };
    a.retag(t)
}

fn decode<T: NpyElem + Elem>(
    r: &mut impl Read,
    info: &NpyInfo,
    path: &Path,
) -> Result<Array, NpyError> {
    let n = info.ty.num_elements().unwrap_or(0);
    let size = std::mem::size_of::<T>().max(1);
    let mut out: Vec<T> = alloc::try_output_vec(n, &info.ty).map_err(|e| err(path, e.message))?;
    let mut chunk = vec![0u8; (1 << 16) * size];
    while out.len() < n {
        let k = (n - out.len()).min(1 << 16);
        let buf = &mut chunk[..k * size];
        r.read_exact(buf)
            .map_err(|e| err(path, format!("cannot read its data: {e}")))?;
        if info.big_endian {
            out.extend(buf.chunks_exact(size).map(T::from_be));
        } else {
            out.extend(buf.chunks_exact(size).map(T::from_le));
        }
    }
    let dims = IxDyn(&info.ty.dims);
    let a = if info.fortran {
        ArrayD::from_shape_vec(dims.f(), out)
    } else {
        ArrayD::from_shape_vec(dims, out)
    }
    .map_err(|e| err(path, format!("data does not fit its shape: {e}")))?;
    Ok(Array::from_nd(a))
}

/// Writes `a` to `path` as a little-endian, C-order `.npy` file (bf16 as
/// `<V2`, as ml_dtypes writes it).
pub fn write(path: &Path, a: &Array) -> Result<(), NpyError> {
    let header = Header {
        type_descriptor: PyValue::String(descr(a.elem()).into()),
        layout: Layout::Standard,
        shape: a.dims().to_vec(),
    };
    let bytes = header
        .to_bytes()
        .map_err(|e| err(path, format!("cannot make a header: {e}")))?;
    let file = std::fs::File::create(path).map_err(|e| err(path, format!("cannot create: {e}")))?;
    let mut w = std::io::BufWriter::new(file);
    let io = |e: std::io::Error| err(path, format!("cannot write: {e}"));
    w.write_all(&bytes).map_err(io)?;
    xlet_core::with_array!(a, x => {
        let mut buf = Vec::with_capacity(1 << 16);
        for v in x.iter() {
            v.put_le(&mut buf);
            if buf.len() >= 1 << 16 {
                w.write_all(&buf).map_err(io)?;
                buf.clear();
            }
        }
        w.write_all(&buf).map_err(io)?;
    });
    w.flush().map_err(io)
}

/// The element type a dtype string stands for, for messages.
pub fn elem_of(descr: &str) -> Option<ElemType> {
    elem::parse_descr(descr).map(|(e, _)| e)
}

/// An array of type `ty` from its elements' little-endian bytes in row-major
/// order (an imported module's constant, spec/import.md §4); `bytes` must hold
/// exactly the elements. The allocation is admitted under the memory budget.
pub fn from_le_bytes(ty: &ArrayType, bytes: &[u8]) -> Result<Array, String> {
    let n = ty.num_elements().ok_or("the array has too many elements")?;
    let size = ty.elem.byte_size().max(1);
    if n.checked_mul(size) != Some(bytes.len()) {
        return Err(format!(
            "{} bytes do not hold the {n} elements of {ty}",
            bytes.len()
        ));
    }
    let info = NpyInfo {
        ty: ty.clone(),
        fortran: false,
        big_endian: false,
        data_offset: 0,
        descr: String::new(),
    };
    let path = Path::new("<constant>");
    let mut reader = bytes;
    let a = xlet_core::with_elem_type!(ty.elem, T => decode::<T>(&mut reader, &info, path))
        .map_err(|e| e.to_string())?;
    Ok(match ty.elem.small() {
        Some(t) => a.retag(t),
        None => a,
    })
}
