//! `xlet.XletError`: a diagnostic as a Python exception (spec/python.md §4).

use crate::worker::Stopped;
use pyo3::prelude::*;
use pyo3::types::PyString;
use xlet_core::diag::{Diag, Renderer};

pyo3::create_exception!(
    xlet,
    XletError,
    pyo3::exceptions::PyException,
    "An xlet diagnostic: a syntax or check error, a failed assertion or a runtime error.\n\n\
     str(e) is the rendered diagnostic; e.code is its label (\"Add: C4\", \"syntax\", \
     \"assert\"); e.line and e.column (1-based) say where in the source it points; \
     e.diagnostics lists (code, message, line, column) for every diagnostic."
);

/// The error for an input's diagnostics: the first one's code and place, and
/// every one rendered.
pub fn xlet_error(py: Python<'_>, diags: &[Diag], source: &str) -> PyErr {
    let r = Renderer::new("<input>", source, false);
    let text: Vec<String> = diags.iter().map(|d| r.render(d)).collect();
    let err = XletError::new_err(text.join("\n").trim_end().to_string());
    let place = |d: &Diag| line_col(source, d.span.start);
    let first = diags.first();
    let (line, column) = first.map_or((0, 0), place);
    let value = err.value(py);
    let set = || -> PyResult<()> {
        value.setattr(
            "code",
            first.map_or_else(|| "error".to_string(), |d| d.code.to_string()),
        )?;
        value.setattr("line", line)?;
        value.setattr("column", column)?;
        let all: Vec<(String, String, usize, usize)> = diags
            .iter()
            .map(|d| {
                let (l, c) = place(d);
                (d.code.to_string(), d.message.clone(), l, c)
            })
            .collect();
        value.setattr("diagnostics", all)?;
        Ok(())
    };
    match set() {
        Ok(()) => err,
        Err(e) => e,
    }
}

/// A plain XletError (no source position) with `code`.
pub fn xlet_error_message(py: Python<'_>, code: &str, message: &str) -> PyErr {
    let err = XletError::new_err(message.to_string());
    let value = err.value(py);
    let _ = value.setattr("code", PyString::new(py, code));
    let _ = value.setattr("line", 0);
    let _ = value.setattr("column", 0);
    let _ = value.setattr("diagnostics", Vec::<(String, String, usize, usize)>::new());
    err
}

/// 1-based line and column (in characters) of byte `offset` in `src`.
fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let mut at = offset.min(src.len());
    while !src.is_char_boundary(at) {
        at -= 1;
    }
    let before = &src[..at];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
}

/// A run that gave no result: Ctrl-C's error as the handler raised it, or
/// an XletError for a bug or a missing worker.
pub fn stopped(s: Stopped) -> PyErr {
    match s {
        Stopped::Signal(e) => e,
        Stopped::Panic(m) => Python::attach(|py| {
            xlet_error_message(
                py,
                "internal",
                &format!("xlet: internal error (a bug, please report the input): {m}"),
            )
        }),
        Stopped::NoWorker(m) => Python::attach(|py| xlet_error_message(py, "internal", &m)),
    }
}
