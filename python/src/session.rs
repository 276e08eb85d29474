//! `xlet.Session`: the REPL's state, from Python (spec/python.md §1).

use crate::error::{stopped, xlet_error};
use crate::to_numpy::to_py;
use crate::to_xlet::to_value;
use crate::worker;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use xlet::session::{BindingKind, Session};
use xlet_core::types::Type;
use xlet_core::value::Value;
use xlet_eval::Output;
use xlet_ir as ir;

/// A session: bindings and computations that persist from one `run` to the
/// next, as in xlet's REPL.
#[pyclass(name = "Session", module = "xlet")]
pub struct PySession {
    inner: Session,
    /// Every value whose buffer is lent from a numpy array, kept for the
    /// session's life: while the session holds a reference, xlet never holds
    /// the only one, so it never writes into the caller's memory.
    pins: Vec<Value>,
}

/// How many bytes of freed large blocks a session may leave cached after a
/// run, for the next call to reuse.
const RETAIN_BYTES: usize = 256 << 20;

/// Keeps the last bare expression's value (what `eval` and `run` return).
#[derive(Default)]
pub struct Last(pub Option<Value>);

impl Output for Last {
    fn print(&mut self, value: &Value, _expr: &ir::Expr) {
        self.0 = Some(value.clone());
    }
}

impl PySession {
    pub fn with(max_steps: Option<u64>, seed: u64) -> Self {
        let mut inner = Session {
            release_after_run: false,
            ..Session::default()
        };
        if let Some(n) = max_steps {
            inner.env.config.max_steps = n;
        }
        inner.env.rng = xlet_kernels::rng::RngState::new(seed);
        PySession {
            inner,
            pins: vec![],
        }
    }

    pub fn session_mut(&mut self) -> &mut Session {
        &mut self.inner
    }

    /// Lets go of the lent values kept since they were bound: for a caller
    /// that has unbound them (`module_cache`, after each call).
    pub fn unpin_all(&mut self) {
        self.pins.clear();
    }

    /// Binds an input array to `name` (no checks: the caller made them).
    pub fn bind(&mut self, name: &str, input: crate::to_xlet::Input) {
        if input.lent {
            self.pins.push(input.value.clone());
        }
        self.inner.types.globals.insert(name.to_string(), input.ty);
        self.inner.env.values.insert(name.to_string(), input.value);
    }

    /// Binds the keyword arrays, runs `source`, and gives the last bare
    /// expression's value (None when there is none). When the run fails, the
    /// keyword bindings are undone with everything else the input did.
    pub fn run_source(
        &mut self,
        py: Python<'_>,
        source: &str,
        arrays: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Option<Value>> {
        let mut before: Vec<(String, Option<Type>, Option<Value>)> = vec![];
        if let Some(arrays) = arrays {
            for (k, v) in arrays.iter() {
                let name: String = k.extract()?;
                check_name(&self.inner, &name)?;
                let input = to_value(py, &name, &v)?;
                if input
                    .ty
                    .byte_size()
                    .is_none_or(|b| b > self.inner.limits.max_value_bytes)
                {
                    return Err(pyo3::exceptions::PyValueError::new_err(format!(
                        "argument `{name}`: {} is larger than xlet's limit of {} bytes per value",
                        input.ty, self.inner.limits.max_value_bytes
                    )));
                }
                if input.lent {
                    self.pins.push(input.value.clone());
                }
                before.push((
                    name.clone(),
                    self.inner.types.globals.insert(name.clone(), input.ty),
                    self.inner.env.values.insert(name, input.value),
                ));
            }
        }
        let inner = &mut self.inner;
        let ran = worker::run(py, || {
            let mut last = Last::default();
            let r = inner.run(source, &mut last).map(|()| last.0);
            // Freed large blocks stay in the allocator's cache for the next
            // call (a fresh 64 MiB result costs more in page faults than in
            // arithmetic) until they pass RETAIN_BYTES; then they go back to
            // the system. A small run's trim would cost more than the run
            // (spec/python.md §7).
            if xlet_core::alloc::cached_bytes() > RETAIN_BYTES {
                xlet_core::alloc::release_unused();
            }
            r
        });
        let result = match ran {
            Ok(Ok(v)) => return Ok(v),
            Ok(Err(f)) => Err(xlet_error(py, &f.diags, source)),
            Err(s) => Err(stopped(s)),
        };
        for (name, ty, v) in before.into_iter().rev() {
            match ty {
                Some(t) => self.inner.types.globals.insert(name.clone(), t),
                None => self.inner.types.globals.remove(&name),
            };
            match v {
                Some(v) => self.inner.env.values.insert(name, v),
                None => self.inner.env.values.remove(&name),
            };
        }
        result
    }
}

/// Names already found bindable: parsing one costs microseconds, and the
/// same few names come with every call. Cleared when it grows large.
static BINDABLE: std::sync::Mutex<Option<std::collections::HashSet<String>>> =
    std::sync::Mutex::new(None);

/// A keyword argument's name must be a name xlet can bind, and not a comp's.
fn check_name(s: &Session, name: &str) -> PyResult<()> {
    if s.types.comps.contains_key(name) {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "`{name}` is a computation in this session; pass the array under another name"
        )));
    }
    let mut known = BINDABLE.lock().unwrap_or_else(|e| e.into_inner());
    let known = known.get_or_insert_with(Default::default);
    if known.contains(name) {
        return Ok(());
    }
    let plain = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let is_name = plain
        && xlet_syntax::parse_expr(name)
            .is_ok_and(|e| matches!(&e.kind, xlet_syntax::ast::ExprKind::Var(v) if v == name));
    if !is_name {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "`{name}` is not a name xlet can bind (a letter or _, then letters, digits or _; not a keyword)"
        )));
    }
    if known.len() > 4096 {
        known.clear();
    }
    known.insert(name.to_string());
    Ok(())
}

#[pymethods]
impl PySession {
    /// Session(*, max_steps=None, seed=0)
    ///
    /// A new session with nothing bound. `max_steps` caps the iterations of
    /// any one While (xlet's --max-steps); `seed` seeds the Rng ops.
    #[new]
    #[pyo3(signature = (*, max_steps = None, seed = 0))]
    fn new(max_steps: Option<u64>, seed: u64) -> Self {
        PySession::with(max_steps, seed)
    }

    /// run(source, **arrays)
    ///
    /// Runs xlet statements in this session, with each keyword array bound
    /// to its name first. Returns the value of the last bare expression (a
    /// numpy array, or a tuple of them), or None. A check error, a failed
    /// `then` or a runtime error raises XletError and leaves the session as
    /// it was before the call.
    #[pyo3(signature = (source, **arrays))]
    fn run(
        &mut self,
        py: Python<'_>,
        source: &str,
        arrays: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Option<Py<PyAny>>> {
        match self.run_source(py, source, arrays)? {
            Some(v) => Ok(Some(to_py(py, v)?)),
            None => Ok(None),
        }
    }

    /// The value bound to `name`, as numpy (KeyError if nothing is).
    fn __getitem__(&self, py: Python<'_>, name: &str) -> PyResult<Py<PyAny>> {
        match self.inner.env.values.get(name) {
            Some(v) => to_py(py, v.clone()),
            None => Err(pyo3::exceptions::PyKeyError::new_err(name.to_string())),
        }
    }

    /// Binds a numpy array to `name`, as `run("", name=array)` does.
    fn __setitem__(
        &mut self,
        py: Python<'_>,
        name: &str,
        array: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let d = PyDict::new(py);
        d.set_item(name, array)?;
        self.run_source(py, "", Some(&d)).map(|_| ())
    }

    /// Removes a binding (a value or a comp).
    fn __delitem__(&mut self, name: &str) -> PyResult<()> {
        self.inner
            .unbind(&[name])
            .map_err(|_| pyo3::exceptions::PyKeyError::new_err(name.to_string()))
    }

    fn __contains__(&self, name: &str) -> bool {
        self.inner.env.values.contains_key(name) || self.inner.types.comps.contains_key(name)
    }

    /// The names of the bound values, sorted.
    fn names(&self) -> Vec<String> {
        self.inner
            .bindings()
            .into_iter()
            .filter(|b| b.kind == BindingKind::Value)
            .map(|b| b.name)
            .collect()
    }

    /// Every binding as (name, type): values first, then comps with their
    /// signatures, each sorted by name (the REPL's :vars).
    fn bindings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let items: Vec<(String, String)> = self
            .inner
            .bindings()
            .into_iter()
            .map(|b| (b.name, b.ty))
            .collect();
        PyList::new(py, items)
    }

    /// The xlet type of a binding, as xlet writes it (`f32[2x3]`).
    fn type_of(&self, name: &str) -> PyResult<String> {
        self.inner
            .types
            .globals
            .get(name)
            .map(|t| t.to_string())
            .ok_or_else(|| pyo3::exceptions::PyKeyError::new_err(name.to_string()))
    }

    fn __len__(&self) -> usize {
        self.inner.env.values.len()
    }

    fn __repr__(&self) -> String {
        let names = self.names();
        format!(
            "<xlet.Session: {} values bound: {}>",
            names.len(),
            names.join(", ")
        )
    }
}
