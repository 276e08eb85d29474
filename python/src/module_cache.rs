//! `run_module`'s modules, translated and checked once (spec/python.md §1).
//!
//! A training loop calls `run_module` with the same text every step; each
//! call used to translate and check the whole module again (14–18 ms for the
//! MLP step of issue 26, against 0.43 ms for running it). Here a module's
//! functions are imported as comps into a session of their own, as the
//! REPL's `:import` does, and kept for the next call with the same text;
//! a call binds the arrays and runs one statement that calls the entry comp.
//!
//! Anything this path does not run the way the plain path does — a module
//! that does not import as comps (check ops, several programs, replicas) or
//! a run that fails — goes back to the plain path, which reports the error
//! at the module's line.

use crate::error::stopped;
use crate::session::{Last, PySession};
use crate::worker;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use std::sync::Mutex;
use xlet_core::types::Type;
use xlet_core::value::Value;

/// How many modules are kept (the most recently used).
const SLOTS: usize = 4;
/// The entry comp's name; the others are `rm_...` (import_comps' prefix).
const ENTRY: &str = "rm";

struct Compiled {
    text: String,
    session: PySession,
    params: Vec<(String, Type)>,
    entry: String,
    results: usize,
}

/// Entries are taken out while a call uses them, so no lock is held while
/// xlet runs (another Python thread may take the GIL meanwhile and call in).
static CACHE: Mutex<Vec<Compiled>> = Mutex::new(vec![]);

fn arg_name(i: usize) -> String {
    format!("rm_arg{i}")
}
const OUT: &str = "rm_out";

/// Runs `text`'s entry function on `arrays` through a cached session; None
/// when the plain path must run it instead (see the module's doc).
pub fn run(
    py: Python<'_>,
    text: &str,
    arrays: &Bound<'_, PyTuple>,
) -> PyResult<Option<Vec<Value>>> {
    let taken = {
        let mut c = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        c.iter().position(|m| m.text == text).map(|i| c.remove(i))
    };
    let mut m = match taken {
        Some(m) => m,
        None => match compile(py, text)? {
            Some(m) => m,
            None => return Ok(None),
        },
    };
    let out = call(py, &mut m, arrays);
    // A module the plain path must run is not kept; one whose call raised
    // (wrong arguments, Ctrl-C) is.
    let keep = !matches!(out, Ok(None));
    if keep {
        let mut c = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        c.push(m);
        if c.len() > SLOTS {
            c.remove(0);
        }
    }
    out
}

/// Imports `text` as comps into a new session; None when it does not import.
fn compile(py: Python<'_>, text: &str) -> PyResult<Option<Compiled>> {
    let Ok(part) = xlet::import::import_comps(text, ENTRY) else {
        return Ok(None);
    };
    let t = &part.translation;
    if t.replicas.is_some_and(|r| r > 1) {
        return Ok(None);
    }
    let mut s = PySession::with(None, 0);
    let session = s.session_mut();
    for (n, v, _) in &t.consts {
        session.types.globals.insert(n.clone(), v.ty());
        session.env.values.insert(n.clone(), v.clone());
    }
    let ran = worker::run(py, || session.run(&part.text, &mut Last::default()));
    match ran {
        Ok(Ok(())) => {}
        Ok(Err(_)) => return Ok(None),
        Err(e) => return Err(stopped(e)),
    }
    let taken = (0..t.params.len())
        .map(arg_name)
        .chain([OUT.to_string()])
        .any(|n| session.types.globals.contains_key(&n) || session.types.comps.contains_key(&n));
    if taken {
        return Ok(None);
    }
    Ok(Some(Compiled {
        text: text.to_string(),
        params: t.params.clone(),
        entry: t.entry.clone(),
        results: t.results.len(),
        session: s,
    }))
}

/// One call: binds the arrays, runs the entry comp, unbinds them.
fn call(
    py: Python<'_>,
    m: &mut Compiled,
    arrays: &Bound<'_, PyTuple>,
) -> PyResult<Option<Vec<Value>>> {
    let inputs = crate::module_args::inputs(py, &m.params, &m.entry, arrays)?;
    // The last call's lent inputs were kept until now: its results were
    // made into numpy arrays while the pins still held the inputs, so a
    // result that is an input's buffer was copied, not handed over.
    m.session.unpin_all();
    let names: Vec<String> = (0..inputs.len()).map(arg_name).collect();
    for (n, input) in names.iter().zip(inputs) {
        m.session.bind(n, input);
    }
    let source = format!("let {OUT} = {ENTRY}({})", names.join(", "));
    let session = m.session.session_mut();
    // Each call starts from the seed, as a fresh session does.
    session.env.rng = xlet_kernels::rng::RngState::new(0);
    let ran = worker::run(py, || session.run(&source, &mut Last::default()));
    let out = session.env.values.remove(OUT);
    session.types.globals.remove(OUT);
    for n in &names {
        session.env.values.remove(n);
        session.types.globals.remove(n);
    }
    match ran {
        Ok(Ok(())) => {}
        Ok(Err(_)) => return Ok(None),
        Err(e) => return Err(stopped(e)),
    }
    let Some(out) = out else {
        return Ok(None);
    };
    let results = match (m.results, out) {
        (1, v) => vec![v],
        (_, Value::Tuple(vs)) => vs.to_vec(),
        (_, v) => vec![v],
    };
    Ok(Some(results))
}
