//! An xlet value as numpy: an array as an `ndarray`, a tuple as a Python
//! tuple of them (spec/python.md §2).
//!
//! When xlet holds the only reference to an array's buffer (a fresh result),
//! numpy takes the buffer over without a copy; otherwise (a binding the
//! session keeps, a view, a buffer lent from a numpy input) the elements are
//! copied, so a returned array never shares memory with anything the caller
//! did not ask for. bf16 and the small types come back as `ml_dtypes` arrays:
//! numpy holds their bits (u16, u8) and views them with ml_dtypes' dtype.

use crate::dtypes::{ml_dtype, ml_dtypes_name};
use numpy::PyArray;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use xlet_core::value::{Array, Nd, Value};

pub fn to_py(py: Python<'_>, v: Value) -> PyResult<Py<PyAny>> {
    match v {
        Value::Array(a) => array_to_py(py, a),
        Value::Tuple(vs) => {
            let items: Vec<Py<PyAny>> = vs
                .iter()
                .map(|v| to_py(py, v.clone()))
                .collect::<PyResult<_>>()?;
            Ok(PyTuple::new(py, items)?.into_any().unbind())
        }
    }
}

fn array_to_py(py: Python<'_>, a: Array) -> PyResult<Py<PyAny>> {
    Ok(match a {
        Array::Pred(a) => numpy_of(py, a)?,
        Array::S8(a) => numpy_of(py, a)?,
        Array::S16(a) => numpy_of(py, a)?,
        Array::S32(a) => numpy_of(py, a)?,
        Array::S64(a) => numpy_of(py, a)?,
        Array::U8(a) => numpy_of(py, a)?,
        Array::U16(a) => numpy_of(py, a)?,
        Array::U32(a) => numpy_of(py, a)?,
        Array::U64(a) => numpy_of(py, a)?,
        Array::F16(a) => numpy_of(py, a)?,
        Array::F32(a) => numpy_of(py, a)?,
        Array::F64(a) => numpy_of(py, a)?,
        Array::C64(a) => numpy_of(py, a)?,
        Array::C128(a) => numpy_of(py, a)?,
        Array::BF16(a) => {
            let bits = owned(a)?.mapv_into_any(|x| x.to_bits());
            let arr = PyArray::from_owned_array(py, bits);
            arr.call_method1("view", (ml_dtype(py, "bfloat16")?,))?
                .unbind()
        }
        Array::Small(t, a) => {
            let arr = numpy_of(py, a)?;
            arr.bind(py)
                .call_method1("view", (ml_dtype(py, &ml_dtypes_name(t))?,))?
                .unbind()
        }
    })
}

fn numpy_of<T: numpy::Element + Clone>(py: Python<'_>, a: Nd<T>) -> PyResult<Py<PyAny>> {
    Ok(PyArray::from_owned_array(py, owned(a)?).into_any().unbind())
}

/// The array as an owned `ndarray` whose buffer numpy may keep: the same
/// buffer when this is its only reference and it is xlet's own, else a copy
/// (accounted under the memory budget).
fn owned<T: Clone>(a: Nd<T>) -> PyResult<ndarray::ArrayD<T>> {
    let lent = xlet_core::lent::is_lent(a.as_ptr() as *const u8);
    if !lent && a.is_standard_layout() {
        // `into_owned` moves the buffer out when the reference is unique and
        // copies it otherwise.
        if a.is_unique() {
            return Ok(a.into_owned());
        }
    }
    let bytes = a.len().saturating_mul(std::mem::size_of::<T>());
    xlet_core::alloc::admit(bytes, &"a result for Python")
        .map_err(|e| pyo3::exceptions::PyMemoryError::new_err(format!("xlet: {}", e.message)))?;
    Ok(a.as_standard_layout().into_owned())
}
