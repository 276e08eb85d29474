//! A numpy array (or anything `numpy.asarray` takes) as an xlet value.
//!
//! A C-contiguous, aligned array of at least `LEND_MIN_BYTES` is lent to xlet
//! without a copy (`xlet_core::lent`): the value's buffer is the array's
//! memory, and a reference to the array is held until xlet lets go of the
//! buffer. Smaller arrays are copied (a copy of a few KiB costs less than
//! registering the loan), and so are other layouts, after numpy makes them
//! contiguous.

use crate::dtypes::elem_of;
use numpy::{PyUntypedArray, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyModule;
use xlet_core::types::{ArrayType, ElemType, Type};
use xlet_core::value::{Array, Nd, Value, c64, c128};

/// Arrays below this many bytes are copied rather than lent.
pub const LEND_MIN_BYTES: usize = 16 << 10;

/// An input array as xlet holds it, and whether its memory is lent.
pub struct Input {
    pub value: Value,
    pub ty: Type,
    pub lent: bool,
}

/// Why an input could not become a value: a Python error to raise as is
/// (a `TypeError` for a dtype xlet lacks), or an xlet memory error.
pub fn to_value(py: Python<'_>, name: &str, obj: &Bound<'_, PyAny>) -> PyResult<Input> {
    let arr = match obj.cast::<PyUntypedArray>() {
        Ok(a) => a.clone(),
        Err(_) => numpy_fn(py, "asarray")?
            .call1((obj,))?
            .cast_into::<PyUntypedArray>()
            .map_err(PyErr::from)?,
    };
    let dtype = arr.dtype();
    let elem = elem_of(py, &dtype)
        .map_err(|m| pyo3::exceptions::PyTypeError::new_err(format!("argument `{name}`: {m}")))?;
    let arr = if arr.is_c_contiguous() && arr.is_aligned() {
        arr
    } else {
        numpy_fn(py, "ascontiguousarray")?
            .call1((arr,))?
            .cast_into::<PyUntypedArray>()
            .map_err(PyErr::from)?
    };
    let dims: Vec<usize> = arr.shape().to_vec();
    let ty = ArrayType::new(elem, dims.clone());
    let n: usize = dims.iter().product();
    let what = format!("argument `{name}` ({ty})");
    // SAFETY: the array is C-contiguous and aligned (checked or made so
    // above), so its data pointer addresses `n` elements of its dtype's
    // size, which is the size of the Rust type `elem` maps to below.
    let data = unsafe { (*arr.as_array_ptr()).fields.data } as *mut u8;
    let owner = arr.into_any().unbind();
    let (array, lent) = match elem {
        ElemType::Pred => {
            // A Rust `bool` must be 0 or 1; numpy reads any nonzero byte as
            // True, so other bytes (a raw view) are normalised, on a copy.
            // SAFETY: `n` bytes at `data`, as above.
            let bytes = unsafe { std::slice::from_raw_parts(data, n) };
            if bytes.iter().all(|b| *b <= 1) {
                wrap(py, data, n, &dims, &owner, &what, Array::Pred)?
            } else {
                let mut v = xlet_core::alloc::try_output_vec::<bool>(n, &what).map_err(memory)?;
                v.extend(bytes.iter().map(|b| *b != 0));
                (Array::Pred(shaped(v, &dims)?), false)
            }
        }
        ElemType::S8 => wrap(py, data, n, &dims, &owner, &what, Array::S8)?,
        ElemType::S16 => wrap(py, data, n, &dims, &owner, &what, Array::S16)?,
        ElemType::S32 => wrap(py, data, n, &dims, &owner, &what, Array::S32)?,
        ElemType::S64 => wrap(py, data, n, &dims, &owner, &what, Array::S64)?,
        ElemType::U8 => wrap(py, data, n, &dims, &owner, &what, Array::U8)?,
        ElemType::U16 => wrap(py, data, n, &dims, &owner, &what, Array::U16)?,
        ElemType::U32 => wrap(py, data, n, &dims, &owner, &what, Array::U32)?,
        ElemType::U64 => wrap(py, data, n, &dims, &owner, &what, Array::U64)?,
        ElemType::F16 => wrap(py, data, n, &dims, &owner, &what, Array::F16)?,
        ElemType::BF16 => wrap(py, data, n, &dims, &owner, &what, Array::BF16)?,
        ElemType::F32 => wrap(py, data, n, &dims, &owner, &what, Array::F32)?,
        ElemType::F64 => wrap(py, data, n, &dims, &owner, &what, Array::F64)?,
        ElemType::C64 => wrap::<c64>(py, data, n, &dims, &owner, &what, Array::C64)?,
        ElemType::C128 => wrap::<c128>(py, data, n, &dims, &owner, &what, Array::C128)?,
        ElemType::Small(t) => {
            // ml_dtypes keeps every pattern in the low bits; a byte with
            // higher bits set (a raw view, not ml_dtypes' own) is masked,
            // on a copy.
            // SAFETY: `n` bytes at `data`, as above.
            let bytes = unsafe { std::slice::from_raw_parts(data, n) };
            let mask = t.mask();
            if bytes.iter().all(|b| b & !mask == 0) {
                wrap(py, data, n, &dims, &owner, &what, |a| Array::Small(t, a))?
            } else {
                let mut v = xlet_core::alloc::try_output_vec::<u8>(n, &what).map_err(memory)?;
                v.extend(bytes.iter().map(|b| b & mask));
                (Array::Small(t, shaped(v, &dims)?), false)
            }
        }
    };
    Ok(Input {
        value: Value::Array(array),
        ty: Type::Array(ty),
        lent,
    })
}

/// The `n` elements at `data` as an xlet array: lent when large enough and
/// the table has room, else copied into a buffer of xlet's own.
fn wrap<T: Copy>(
    py: Python<'_>,
    data: *mut u8,
    n: usize,
    dims: &[usize],
    owner: &Py<PyAny>,
    what: &str,
    make: impl FnOnce(Nd<T>) -> Array,
) -> PyResult<(Array, bool)> {
    let ptr = data as *mut T;
    if n * std::mem::size_of::<T>() >= LEND_MIN_BYTES {
        let token = Box::into_raw(Box::new(owner.clone_ref(py))) as usize;
        // SAFETY: `ptr` addresses `n` initialised `T`s inside the numpy
        // array `token` keeps alive (a reference taken just above) until
        // `release` drops it; the session pins every lent value, so xlet
        // never holds the only reference and never writes into the buffer.
        if let Some(v) = unsafe { xlet_core::lent::lend(ptr, n, token, release) } {
            return Ok((make(shaped(v, dims)?), true));
        }
        release(token);
    }
    let mut v = xlet_core::alloc::try_output_vec::<T>(n, &what).map_err(memory)?;
    // SAFETY: `n` initialised elements at `ptr` (see `to_value`), read-only.
    v.extend_from_slice(unsafe { std::slice::from_raw_parts(ptr, n) });
    Ok((make(shaped(v, dims)?), false))
}

fn shaped<T>(v: Vec<T>, dims: &[usize]) -> PyResult<Nd<T>> {
    Nd::from_shape_vec(ndarray::IxDyn(dims), v)
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(format!("xlet: {e}")))
}

/// Gives a lent numpy array back: drops the reference `wrap` took. Without
/// an attached thread, pyo3 defers the decrement until one next is.
fn release(token: usize) {
    // SAFETY: `token` is the address of a `Box<Py<PyAny>>` that `wrap` leaked,
    // and `lent` calls `release` exactly once per token.
    drop(unsafe { Box::from_raw(token as *mut Py<PyAny>) });
}

fn memory(e: xlet_core::error::KernelError) -> PyErr {
    pyo3::exceptions::PyMemoryError::new_err(format!("xlet: {}", e.message))
}

fn numpy_fn<'py>(py: Python<'py>, f: &str) -> PyResult<Bound<'py, PyAny>> {
    PyModule::import(py, "numpy")?.getattr(f)
}
