//! The run's feeds (spec/ops/infeed.md, spec/ops/outfeed.md): the infeed queue
//! that `--infeed FILE` fills and Infeed reads, and where Outfeed writes.
//!
//! Like the random state (`Env.rng`), this is run-wide state kept in `Env` and
//! reached by kernels through `EvalCx`. A copy of it (the REPL runs an input on
//! a copy of its session) carries on from the same place in the queue, so an
//! input that fails consumes nothing; the outfeed counter is shared by copies,
//! so a number is never written twice.

#[cfg(test)]
mod tests;
pub mod text;

use std::collections::VecDeque;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use xlet_core::print::{PrintOptions, format_value_at};
use xlet_core::types::Type;
use xlet_core::value::Value;
use xlet_ir::KernelError;

/// Where Outfeed writes.
#[derive(Clone, Debug, Default)]
pub enum OutfeedSink {
    /// One line per value on standard output: `outfeed 0: f32[2] {1, 2}`.
    #[default]
    Stdout,
    /// `DIR/0.npy`, `DIR/1.npy`, ... (`--outfeed DIR`); a tuple's elements as
    /// `DIR/0.0.npy`, `DIR/0.1.npy`, ...
    Dir(PathBuf),
    /// The stdout lines, appended to a buffer (the conformance runner puts
    /// printed values in the same buffer, so the order is kept).
    Buffer(Arc<Mutex<String>>),
}

/// One value waiting in the infeed queue, and where it came from (for messages).
#[derive(Clone, Debug)]
struct Fed {
    value: Value,
    from: String,
}

#[derive(Clone, Debug, Default)]
struct Queue {
    files: Vec<PathBuf>,
    /// The first file not read yet.
    next_file: usize,
    pending: VecDeque<Fed>,
    /// How many values Infeed has taken.
    taken: usize,
}

/// The infeed queue and the outfeed sink of one run.
#[derive(Debug, Default)]
pub struct Feeds {
    queue: Mutex<Queue>,
    sink: OutfeedSink,
    print: PrintOptions,
    written: Arc<AtomicUsize>,
}

impl Clone for Feeds {
    fn clone(&self) -> Self {
        Feeds {
            queue: Mutex::new(self.lock().clone()),
            sink: self.sink.clone(),
            print: self.print.clone(),
            written: self.written.clone(),
        }
    }
}

impl Feeds {
    fn lock(&self) -> std::sync::MutexGuard<'_, Queue> {
        // A panic elsewhere while holding the lock leaves the queue usable.
        self.queue.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Appends a file to the infeed queue (its values come after every value
    /// already queued). The file is read when Infeed reaches it.
    pub fn add_infeed(&self, path: PathBuf) {
        self.lock().files.push(path);
    }

    /// The infeed files given so far.
    pub fn infeed_files(&self) -> Vec<PathBuf> {
        self.lock().files.clone()
    }

    pub fn set_sink(&mut self, sink: OutfeedSink) {
        self.sink = sink;
    }

    pub fn set_print(&mut self, print: PrintOptions) {
        self.print = print;
    }

    /// The next infeed value, which must be of type `want`.
    pub fn infeed(&self, want: &Type) -> Result<Value, KernelError> {
        let mut q = self.lock();
        while q.pending.is_empty() && q.next_file < q.files.len() {
            let path = q.files[q.next_file].clone();
            q.next_file += 1;
            let values = read_values(&path)?;
            q.pending.extend(values);
        }
        let Some(fed) = q.pending.pop_front() else {
            let why = if q.files.is_empty() {
                "no infeed file was given (run with --infeed FILE, or :infeed FILE in the REPL)"
                    .to_string()
            } else {
                let names: Vec<String> = q.files.iter().map(|p| p.display().to_string()).collect();
                format!(
                    "the infeed is empty: the {} value(s) of {} were all taken",
                    q.taken,
                    names.join(", ")
                )
            };
            return Err(KernelError::new(
                "infeed",
                format!("Infeed wants a value of type {want}, but {why}"),
            ));
        };
        let got = fed.value.ty();
        if &got != want {
            return Err(KernelError::new(
                "infeed",
                format!(
                    "Infeed wants {want}, but the next infeed value ({}) is {got}",
                    fed.from
                ),
            ));
        }
        q.taken += 1;
        Ok(fed.value)
    }

    /// `outfeed N: VALUE` and a line break; a value broken over lines aligns
    /// its rows under its own brackets, after the label.
    fn outfeed_line(&self, n: usize, v: &Value) -> String {
        let label = format!("outfeed {n}: ");
        let value = format_value_at(v, &self.print, label.chars().count());
        format!("{label}{value}\n")
    }

    /// Writes one Outfeed value where the run sends them.
    pub fn outfeed(&self, v: &Value) -> Result<(), KernelError> {
        let n = self.written.fetch_add(1, Ordering::Relaxed);
        match &self.sink {
            OutfeedSink::Stdout => {
                let line = self.outfeed_line(n, v);
                let mut out = std::io::stdout().lock();
                out.write_all(line.as_bytes())
                    .and_then(|_| out.flush())
                    .map_err(|e| {
                        KernelError::new("outfeed", format!("cannot write outfeed {n}: {e}"))
                    })
            }
            OutfeedSink::Buffer(buf) => {
                let line = self.outfeed_line(n, v);
                buf.lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .push_str(&line);
                Ok(())
            }
            OutfeedSink::Dir(dir) => write_npy_files(dir, &n.to_string(), v),
        }
    }
}

/// `DIR/NAME.npy` for an array; `DIR/NAME.K.npy` for the elements of a tuple.
fn write_npy_files(dir: &Path, name: &str, v: &Value) -> Result<(), KernelError> {
    match v {
        Value::Array(a) => xlet_npy::write(&dir.join(format!("{name}.npy")), a)
            .map_err(|e| KernelError::new("outfeed", format!("Outfeed: {e}"))),
        Value::Tuple(items) => items
            .iter()
            .enumerate()
            .try_for_each(|(k, x)| write_npy_files(dir, &format!("{name}.{k}"), x)),
    }
}

/// The values of one infeed file: an `.npy` file holds one array; any other
/// file is text of typed literals (`feed::text`).
fn read_values(path: &Path) -> Result<Vec<Fed>, KernelError> {
    let fail = |why: String| KernelError::new("infeed", format!("infeed file {why}"));
    if is_npy(path).map_err(|e| fail(format!("{}: cannot read: {e}", path.display())))? {
        let a = xlet_npy::read(path).map_err(|e| fail(e.0))?;
        return Ok(vec![Fed {
            value: Value::Array(a),
            from: format!("{}", path.display()),
        }]);
    }
    let values = text::read(path).map_err(fail)?;
    let n = values.len();
    Ok(values
        .into_iter()
        .enumerate()
        .map(|(i, (value, line))| Fed {
            value,
            from: if n == 1 {
                format!("{}", path.display())
            } else {
                format!("value {} of {}, line {line}", i + 1, path.display())
            },
        })
        .collect())
}

/// Whether the file starts with the `.npy` magic string.
pub fn is_npy(path: &Path) -> std::io::Result<bool> {
    use std::io::Read;
    let mut head = [0u8; 6];
    let mut f = crate::source::open_regular(path)?;
    let mut n = 0;
    while n < 6 {
        match f.read(&mut head[n..])? {
            0 => break,
            k => n += k,
        }
    }
    Ok(n == 6 && &head == b"\x93NUMPY")
}

/// Checks that each infeed file can be opened (`xlet run` does this before
/// running, so a wrong path fails at once with exit code 3).
pub fn check_files(files: &[PathBuf]) -> Result<(), String> {
    for f in files {
        crate::source::open_regular(f)
            .map_err(|e| format!("--infeed {}: cannot open: {e}", f.display()))?;
    }
    Ok(())
}

/// The evaluator reaches the session's feeds through its `Feeds` contract.
impl xlet_eval::Feeds for Feeds {
    fn infeed(&self, ty: &Type) -> Result<Value, KernelError> {
        Feeds::infeed(self, ty)
    }
    fn outfeed(&self, value: &Value) -> Result<(), KernelError> {
        Feeds::outfeed(self, value)
    }
    fn boxed_clone(&self) -> Box<dyn xlet_eval::Feeds> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }
}
