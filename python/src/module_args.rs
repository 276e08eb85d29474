//! The arrays given to `run_module`, checked against the entry function's
//! parameters: shared by its plain path (`module`) and its cached one
//! (`module_cache`).

use crate::to_xlet::to_value;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

/// The arrays as the entry function's parameters, in order: a wrong count or
/// a wrong type is a `TypeError` naming the parameter and both types.
pub(crate) fn inputs(
    py: Python<'_>,
    params: &[(String, xlet_core::types::Type)],
    entry: &str,
    arrays: &Bound<'_, PyTuple>,
) -> PyResult<Vec<crate::to_xlet::Input>> {
    if arrays.len() != params.len() {
        let want: Vec<String> = params.iter().map(|(n, ty)| format!("{n}: {ty}")).collect();
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "@{entry} takes {} argument{} ({}); {} given",
            params.len(),
            if params.len() == 1 { "" } else { "s" },
            want.join(", "),
            arrays.len()
        )));
    }
    let mut out = vec![];
    for (i, ((name, ty), a)) in params.iter().zip(arrays.iter()).enumerate() {
        let input = to_value(py, name, &a)?;
        if &input.ty != ty {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "argument {i} (parameter `{name}` of @{entry}) must be {ty}; it is {}",
                input.ty
            )));
        }
        out.push(input);
    }
    Ok(out)
}
