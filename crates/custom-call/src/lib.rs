//! CustomCall targets (spec/ops/custom_call.md): the C functions a program may
//! call, `void name(void* out, void** in)`. They come from two places, searched
//! in this order: targets registered from Rust (`register`, so that tests and
//! embedders need no C compiler), then the shared libraries the user named
//! (`--custom-call-lib PATH`, the REPL's `:lib PATH`), in the order named.
//! Nothing is loaded or called unless the user asked for it.
//!
//! `marshal` turns argument values into the buffers such a function reads and
//! the result buffers it writes.

pub mod crash;
pub mod marshal;

use std::collections::HashMap;
use std::ffi::c_void;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, RwLock};

/// The one C signature of a CustomCall target: `void name(void* out, void** in)`.
pub type Target = unsafe extern "C" fn(out: *mut c_void, ins: *mut *mut c_void);

static REGISTERED: LazyLock<RwLock<HashMap<String, Target>>> =
    LazyLock::new(|| RwLock::new(HashMap::new()));

/// Makes `f` callable as `CustomCall("name", ...)` in every session of this
/// process, before any library is searched. Registering a name again replaces
/// the earlier target.
pub fn register(name: &str, f: Target) {
    // A poisoned lock only means another thread panicked while inserting; the
    // map itself is still whole.
    let mut map = REGISTERED.write().unwrap_or_else(|e| e.into_inner());
    map.insert(name.to_string(), f);
}

fn registered(name: &str) -> Option<Target> {
    let map = REGISTERED.read().unwrap_or_else(|e| e.into_inner());
    map.get(name).copied()
}

/// A shared library the user named, loaded once and kept alive as long as any
/// session or checked program holds it (its functions are only called through
/// a `Resolved` that holds the library too).
pub struct Library {
    pub path: PathBuf,
    lib: libloading::Library,
}

impl fmt::Debug for Library {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "Library({})", self.path.display())
    }
}

/// Why a library could not be loaded: the path and what the system said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError(pub String);

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Library {
    /// Loads the shared library at `path`. A missing file and a file that is
    /// not a shared library are told apart before the system loader runs, so
    /// the message says which.
    pub fn load(path: &Path) -> Result<Library, LoadError> {
        let shown = path.display();
        let meta = std::fs::metadata(path).map_err(|e| {
            LoadError(format!(
                "custom-call library `{shown}`: {}",
                match e.kind() {
                    std::io::ErrorKind::NotFound => "no such file".to_string(),
                    _ => e.to_string(),
                }
            ))
        })?;
        if !meta.is_file() {
            return Err(LoadError(format!(
                "custom-call library `{shown}` is not a file"
            )));
        }
        // A bare file name would make dlopen search the system's library path;
        // the user named a file, so load that file.
        let load_path = if path.components().count() == 1 {
            Path::new(".").join(path)
        } else {
            path.to_path_buf()
        };
        // SAFETY: loading a library runs its initialisers. That is the native
        // code the user asked for by naming the library (spec: "Safety").
        let lib = unsafe { libloading::Library::new(&load_path) }.map_err(|e| {
            LoadError(format!(
                "custom-call library `{shown}` could not be loaded (is it a shared library \
                 built for this machine, e.g. with `cc -shared -fPIC`?): {e}"
            ))
        })?;
        Ok(Library {
            path: path.to_path_buf(),
            lib,
        })
    }

    fn symbol(&self, name: &str) -> Option<Target> {
        // SAFETY: the symbol is taken to have the CustomCall signature; the
        // spec makes that the library author's promise. The pointer is only
        // used while `self` is alive (`Resolved` holds the library).
        unsafe { self.lib.get::<Target>(name.as_bytes()).ok().map(|s| *s) }
    }
}

/// The libraries a session may call into, in the order the user named them.
#[derive(Clone, Debug, Default)]
pub struct Libraries {
    pub libs: Vec<Arc<Library>>,
}

impl Libraries {
    /// Loads every path, in order; the first failure is the error.
    pub fn load_all(paths: &[PathBuf]) -> Result<Libraries, LoadError> {
        let mut out = Libraries::default();
        for p in paths {
            out.add(p)?;
        }
        Ok(out)
    }

    /// Loads one more library (searched after the earlier ones). Naming the
    /// same path again keeps one copy.
    pub fn add(&mut self, path: &Path) -> Result<(), LoadError> {
        let lib = Library::load(path)?;
        if !self.libs.iter().any(|l| l.path == lib.path) {
            self.libs.push(Arc::new(lib));
        }
        Ok(())
    }

    /// The paths searched, for messages: `a.so, b.so`.
    pub fn names(&self) -> String {
        let names: Vec<String> = self
            .libs
            .iter()
            .map(|l| format!("`{}`", l.path.display()))
            .collect();
        names.join(", ")
    }

    /// Finds `name`: a Rust-registered target first, then the libraries in order.
    pub fn resolve(&self, name: &str) -> Result<Resolved, Unresolved> {
        if let Some(f) = registered(name) {
            return Ok(Resolved { f, lib: None });
        }
        if self.libs.is_empty() {
            return Err(Unresolved::NoLibrary);
        }
        for lib in &self.libs {
            if let Some(f) = lib.symbol(name) {
                return Ok(Resolved {
                    f,
                    lib: Some(lib.clone()),
                });
            }
        }
        Err(Unresolved::NotFound(self.names()))
    }
}

/// A target found: the function and the library that must outlive its use.
#[derive(Clone)]
pub struct Resolved {
    pub f: Target,
    pub lib: Option<Arc<Library>>,
}

impl Resolved {
    /// Where the target came from, for messages.
    pub fn origin(&self) -> String {
        match &self.lib {
            Some(l) => format!("`{}`", l.path.display()),
            None => "a target registered from Rust".into(),
        }
    }
}

/// Why a name is not callable.
#[derive(Debug, PartialEq, Eq)]
pub enum Unresolved {
    /// No library was named at all.
    NoLibrary,
    /// The libraries searched (as `Libraries::names` writes them).
    NotFound(String),
}
