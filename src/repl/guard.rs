//! A fence around each evaluation: a panic (an internal bug) becomes an error
//! message instead of the end of the session. While a guarded call runs, the
//! panic hook records the message instead of printing it (on any thread, since
//! kernels run on rayon's pool); outside, the previous hook runs as before.

use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, Once};

static GUARDED: AtomicBool = AtomicBool::new(false);
static MESSAGE: Mutex<Option<String>> = Mutex::new(None);

pub(crate) fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !GUARDED.load(Ordering::SeqCst) {
                return previous(info);
            }
            let what = payload_text(info.payload()).unwrap_or("panic");
            let msg = match info.location() {
                Some(l) => format!("{what} (at {}:{})", l.file(), l.line()),
                None => what.to_string(),
            };
            if let Ok(mut m) = MESSAGE.lock() {
                m.get_or_insert(msg);
            }
        }));
    });
}

fn payload_text(p: &(dyn std::any::Any + Send)) -> Option<&str> {
    p.downcast_ref::<&str>()
        .copied()
        .or_else(|| p.downcast_ref::<String>().map(String::as_str))
}

/// Runs `f`; a panic inside comes back as its message.
pub(crate) fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    if let Ok(mut m) = MESSAGE.lock() {
        *m = None;
    }
    GUARDED.store(true, Ordering::SeqCst);
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    GUARDED.store(false, Ordering::SeqCst);
    result.map_err(|payload| {
        let recorded = MESSAGE.lock().ok().and_then(|mut m| m.take());
        recorded
            .or_else(|| payload_text(payload.as_ref()).map(str::to_string))
            .unwrap_or_else(|| "panic".to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_a_message() {
        install();
        assert_eq!(guarded(|| 7), Ok(7));
        let err = guarded(|| -> i32 { panic!("boom {}", 1) });
        assert!(
            err.as_ref().is_err_and(|m| m.starts_with("boom 1")),
            "{err:?}"
        );
    }
}
