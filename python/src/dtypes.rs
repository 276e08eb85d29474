//! numpy dtypes and xlet element types, both ways (spec/python.md §2).
//!
//! numpy's own types map by kind and size; bf16 and the small types (f8, f6,
//! f4, s4, u4, s2, u2) are `ml_dtypes`' types, which numpy knows only by name
//! (kind `V`). Their bytes are already what xlet stores: bf16's bits, and one
//! bit pattern per byte in the low bits for the small types.

use numpy::{PyArrayDescr, PyArrayDescrMethods};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyModule;
use xlet_core::small::SmallType;
use xlet_core::types::ElemType;

/// The element type of a numpy dtype, or why xlet has none.
pub fn elem_of(py: Python<'_>, d: &Bound<'_, PyArrayDescr>) -> Result<ElemType, String> {
    let native = d.is_native_byteorder().unwrap_or(true);
    let size = d.itemsize();
    // ml_dtypes' types are kind `V` (bfloat16, int4 ...) or `f` of one byte
    // (the float8 types): known by name, before numpy's own kinds.
    let ml = match (d.kind(), size) {
        (b'V' | b'f', 1) | (b'V', 2) if !d.has_fields() && !d.has_subarray() => {
            ml_dtypes_elem(&dtype_name(d))
        }
        _ => None,
    };
    let t = ml.or(match (d.kind(), size) {
        (b'b', 1) => Some(ElemType::Pred),
        (b'i', 1) => Some(ElemType::S8),
        (b'i', 2) => Some(ElemType::S16),
        (b'i', 4) => Some(ElemType::S32),
        (b'i', 8) => Some(ElemType::S64),
        (b'u', 1) => Some(ElemType::U8),
        (b'u', 2) => Some(ElemType::U16),
        (b'u', 4) => Some(ElemType::U32),
        (b'u', 8) => Some(ElemType::U64),
        (b'f', 2) => Some(ElemType::F16),
        (b'f', 4) => Some(ElemType::F32),
        (b'f', 8) => Some(ElemType::F64),
        (b'c', 8) => Some(ElemType::C64),
        (b'c', 16) => Some(ElemType::C128),
        _ => None,
    });
    match t {
        Some(_) if !native && size > 1 => Err(format!(
            "xlet reads arrays in the machine's byte order; this one is {} \
             (convert it with a.astype(a.dtype.newbyteorder('=')))",
            dtype_str(py, d)
        )),
        Some(t) => Ok(t),
        None => Err(format!(
            "xlet has no element type for numpy dtype {} (it has bool, int8-64, \
             uint8-64, float16/32/64, complex64/128, and ml_dtypes' bfloat16, \
             float8/6/4 and int4/uint4/int2/uint2)",
            dtype_str(py, d)
        )),
    }
}

fn dtype_name(d: &Bound<'_, PyArrayDescr>) -> String {
    d.getattr("name")
        .and_then(|n| n.extract::<String>())
        .unwrap_or_default()
}

fn dtype_str(_py: Python<'_>, d: &Bound<'_, PyArrayDescr>) -> String {
    let name = dtype_name(d);
    let s = d
        .getattr("str")
        .and_then(|n| n.extract::<String>())
        .unwrap_or_default();
    if name.is_empty() {
        format!("'{s}'")
    } else {
        format!("{name} ('{s}')")
    }
}

/// xlet's type for an `ml_dtypes` type name (`bfloat16`, `float8_e4m3fn`, `int4`).
pub fn ml_dtypes_elem(name: &str) -> Option<ElemType> {
    if name == "bfloat16" {
        return Some(ElemType::BF16);
    }
    SmallType::ALL
        .into_iter()
        .find(|t| ml_dtypes_name(*t) == name)
        .map(ElemType::Small)
}

/// The `ml_dtypes` name of a small type: `f8e4m3fn` is `float8_e4m3fn`,
/// `s4` is `int4`, `u2` is `uint2`.
pub fn ml_dtypes_name(t: SmallType) -> String {
    let n = t.name();
    match n.as_bytes() {
        [b'f', w, rest @ ..] => format!("float{}_{}", *w as char, String::from_utf8_lossy(rest)),
        [b's', rest @ ..] => format!("int{}", String::from_utf8_lossy(rest)),
        [b'u', rest @ ..] => format!("uint{}", String::from_utf8_lossy(rest)),
        _ => n.to_string(),
    }
}

/// numpy's dtype for an `ml_dtypes` type, importing `ml_dtypes` (an error
/// that says to install it when it is missing).
pub fn ml_dtype<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    static ML: PyOnceLock<Py<PyModule>> = PyOnceLock::new();
    let m = ML
        .get_or_try_init(py, || {
            PyModule::import(py, "ml_dtypes")
                .map(Bound::unbind)
                .map_err(|_| {
                    pyo3::exceptions::PyImportError::new_err(format!(
                        "an xlet value of type {name} is returned as an ml_dtypes array: \
                     install ml_dtypes (pip install ml_dtypes)"
                    ))
                })
        })?
        .bind(py);
    let numpy = PyModule::import(py, "numpy")?;
    numpy.getattr("dtype")?.call1((m.getattr(name)?,))
}
