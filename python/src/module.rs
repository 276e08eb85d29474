//! `xlet.run_module` and `xlet.translate`: StableHLO or HLO text from Python
//! (spec/import.md, spec/python.md §1).

use crate::error::{stopped, xlet_error, xlet_error_message};
use crate::session::{Last, PySession};
use crate::to_numpy::to_py;
use crate::worker;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use xlet::import::{bind_args, locate_failure, results, translate as translate_module};

/// run_module(text, *arrays)
///
/// Runs a StableHLO (MLIR) or HLO text module's entry function on the given
/// arrays, in order, and returns its results as a tuple of numpy arrays (a
/// tuple result flattened in order). A missing, extra or mistyped argument,
/// an op xlet cannot run, or a failed check op raises XletError.
#[pyfunction]
#[pyo3(signature = (text, *arrays))]
pub fn run_module(
    py: Python<'_>,
    text: &str,
    arrays: &Bound<'_, PyTuple>,
) -> PyResult<Py<PyTuple>> {
    if let Some(values) = crate::module_cache::run(py, text, arrays)? {
        return to_tuple(py, values);
    }
    let parts = translate_module(text).map_err(|d| xlet_error(py, &[d], text))?;
    let [part] = parts.as_slice() else {
        return Err(xlet_error_message(
            py,
            "import",
            &format!(
                "the module holds {} programs (split by `// -----`); run_module runs one",
                parts.len()
            ),
        ));
    };
    let t = &part.translation;
    if t.replicas.is_some_and(|r| r > 1) {
        return Err(xlet_error_message(
            py,
            "import",
            "the module runs on several replicas (mhlo.num_replicas): run it with `xlet run`",
        ));
    }
    let mut s = PySession::with(None, 0);
    bind_args(s.session_mut(), t, &[])
        .or_else(|e| {
            // No files are passed: only a parameter count mismatch fails here,
            // when the function takes parameters; they are bound below.
            if t.params.is_empty() { Err(e) } else { Ok(()) }
        })
        .map_err(|e| xlet_error_message(py, "import", &e))?;
    for (name, input) in t
        .params
        .iter()
        .zip(crate::module_args::inputs(py, &t.params, &t.entry, arrays)?)
    {
        s.bind(&name.0, input);
    }
    let session = s.session_mut();
    let ran = worker::run(py, || {
        let mut last = Last::default();
        session
            .run(&part.text, &mut last)
            .map_err(|f| locate_failure(part, f))
    });
    match ran {
        Ok(Ok(())) => {}
        Ok(Err(f)) => return Err(xlet_error(py, &f.diags, text)),
        Err(e) => return Err(stopped(e)),
    }
    let values = results(s.session_mut(), t);
    drop(s);
    to_tuple(py, values)
}

/// The entry function's results as a tuple of arrays (a tuple result
/// flattened in order).
fn to_tuple(py: Python<'_>, values: Vec<xlet_core::value::Value>) -> PyResult<Py<PyTuple>> {
    let mut out = vec![];
    for v in values {
        match v {
            xlet_core::value::Value::Tuple(vs) => out.extend(vs.iter().cloned()),
            v => out.push(v),
        }
    }
    let items: Vec<Py<PyAny>> = out
        .into_iter()
        .map(|v| to_py(py, v))
        .collect::<PyResult<_>>()?;
    Ok(PyTuple::new(py, items)?.unbind())
}

/// translate(text)
///
/// The xlet program a StableHLO or HLO text module translates to (what
/// `xlet translate` prints).
#[pyfunction]
pub fn translate(py: Python<'_>, text: &str) -> PyResult<String> {
    let parts = translate_module(text).map_err(|d| xlet_error(py, &[d], text))?;
    Ok(xlet::import::program_text("module", &parts, &[]))
}
