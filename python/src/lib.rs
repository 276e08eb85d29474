//! `xlet._xlet`: the extension module behind the `xlet` Python package
//! (spec/python.md). The package's `__init__.py` re-exports what is here and
//! adds the IPython cell magic.

// pyo3's errors travel in `Err` by design.
#![allow(clippy::result_large_err)]

mod dtypes;
mod error;
mod module;
mod module_args;
mod module_cache;
mod session;
mod to_numpy;
mod to_xlet;
mod worker;

use pyo3::prelude::*;
use pyo3::types::PyDict;

/// eval(source, **arrays)
///
/// Runs `source` in a fresh session with each keyword array bound to its
/// name, and returns the value of its last expression: a numpy array, a
/// tuple of them for a tuple value, or None when the source ends in no bare
/// expression. Errors raise XletError.
#[pyfunction]
#[pyo3(signature = (source, **arrays))]
fn eval(
    py: Python<'_>,
    source: &str,
    arrays: Option<&Bound<'_, PyDict>>,
) -> PyResult<Option<Py<PyAny>>> {
    let mut s = session::PySession::with(None, 0);
    let v = s.run_source(py, source, arrays)?;
    // The session (and with it every other reference to the result) goes
    // first, so that numpy can take a fresh result's buffer without a copy.
    drop(s);
    match v {
        Some(v) => Ok(Some(to_numpy::to_py(py, v)?)),
        None => Ok(None),
    }
}

#[pymodule]
fn _xlet(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(eval, m)?)?;
    m.add_function(wrap_pyfunction!(module::run_module, m)?)?;
    m.add_function(wrap_pyfunction!(module::translate, m)?)?;
    m.add_function(wrap_pyfunction!(lent_buffers, m)?)?;
    m.add_class::<session::PySession>()?;
    m.add("XletError", m.py().get_type::<error::XletError>())?;
    Ok(())
}

/// How many numpy buffers xlet holds without a copy right now (for tests of
/// zero-copy input).
#[pyfunction]
fn lent_buffers() -> usize {
    xlet_core::lent::lent_count()
}
