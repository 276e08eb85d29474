//! The loop for a terminal: rustyline with history and Tab completion.
//!
//! Ctrl-C at the prompt drops the input being typed (a half-typed multi-line
//! one included); Ctrl-C while an input runs sets `eval::INTERRUPTED`, which the
//! evaluator checks between ops, so the input stops with an "interrupted"
//! diagnostic. Ctrl-D (or `:quit`) leaves with exit code 0.

use super::complete::XletHelper;
use super::{Outcome, Pending, Repl, complain};
use crate::eval::INTERRUPTED;
use rustyline::Editor;
use rustyline::config::{CompletionType, Config};
use rustyline::error::ReadlineError;
use rustyline::history::FileHistory;
use std::path::PathBuf;
use std::sync::Once;
use std::sync::atomic::Ordering;

const PROMPT: &str = "xlet> ";
const CONTINUE: &str = "...> ";

pub(crate) fn run(repl: &mut Repl) -> i32 {
    let config = Config::builder()
        .completion_type(CompletionType::List)
        .history_ignore_space(true)
        .auto_add_history(false)
        .build();
    let mut editor: Editor<XletHelper, FileHistory> = match Editor::with_config(config) {
        Ok(e) => e,
        // No usable terminal after all: read it like a pipe.
        Err(_) => return super::piped::run(repl),
    };
    editor.set_helper(Some(XletHelper::new()));
    let history = history_path();
    if let Some(p) = &history {
        let _ = editor.load_history(p);
    }
    install_interrupt_handler();

    let mut pending = Pending::default();
    loop {
        let prompt = if pending.is_empty() { PROMPT } else { CONTINUE };
        match editor.readline(prompt) {
            Ok(line) => {
                let Some(src) = pending.push(&line) else {
                    continue;
                };
                let _ = editor.add_history_entry(src.as_str());
                if let Some(p) = &history {
                    let _ = editor.append_history(p);
                }
                if repl.handle(&src) == Outcome::Quit {
                    return 0;
                }
                if let Some(h) = editor.helper_mut() {
                    h.names = repl.bound_names();
                }
            }
            Err(ReadlineError::Interrupted) => pending.clear(),
            Err(ReadlineError::Eof) => return 0,
            Err(e) => {
                complain(&format!("error: cannot read input: {e}"));
                return 3;
            }
        }
    }
}

/// `$XLET_HISTORY`, else `~/.xlet_history`; none if neither can be found.
fn history_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("XLET_HISTORY").filter(|p| !p.is_empty()) {
        return Some(PathBuf::from(p));
    }
    std::env::home_dir().map(|h| h.join(".xlet_history"))
}

/// Ctrl-C outside the line editor (rustyline swaps in its own handler while it
/// reads a line and restores this one after) asks the running evaluation to stop.
fn install_interrupt_handler() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // If it cannot be installed, Ctrl-C keeps its default meaning (end the process).
        let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::SeqCst));
    });
}
