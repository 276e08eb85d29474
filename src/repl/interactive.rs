//! The loop for a terminal: rustyline with history and Tab completion.
//!
//! Ctrl-C at the prompt drops the input being typed (a half-typed multi-line
//! one included) and marks the dropped line with `^C`; Ctrl-C while an input
//! runs sets `eval::INTERRUPTED`, which the evaluator checks between ops and
//! after the last, so the input stops with an "interrupted" diagnostic and
//! commits nothing. Ctrl-D (or `:quit`) leaves with exit code 0.

use super::complete::XletHelper;
use super::{Outcome, Pending, Repl, complain};
use crate::exit::Exit;
use rustyline::config::{CompletionType, Config};
use rustyline::error::ReadlineError;
use rustyline::history::FileHistory;
use rustyline::{
    Cmd, ConditionalEventHandler, Editor, Event, EventContext, EventHandler, KeyEvent, RepeatCount,
};
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, Once};

const PROMPT: &str = "xlet> ";
const CONTINUE: &str = "...> ";

pub(crate) fn run(repl: &mut Repl) -> Exit {
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
    let dropped = Arc::new(Mutex::new(String::new()));
    editor.bind_sequence(
        KeyEvent::ctrl('C'),
        EventHandler::Conditional(Box::new(RememberDropped(dropped.clone()))),
    );
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
                repl.width = editor.dimensions().map(|(w, _)| usize::from(w));
                if repl.handle(&src) == Outcome::Quit {
                    return Exit::Ok;
                }
                if let Some(h) = editor.helper_mut() {
                    h.names = repl.bound_names();
                }
            }
            Err(ReadlineError::Interrupted) => {
                let line = dropped.lock().map(|l| l.clone()).unwrap_or_default();
                let width = editor.dimensions().map(|(w, _)| usize::from(w));
                mark_dropped(prompt, &line, width);
                pending.clear();
            }
            Err(ReadlineError::Eof) => return Exit::Ok,
            Err(e) => {
                complain(&format!("error: cannot read input: {e}"));
                return Exit::Usage;
            }
        }
    }
}

/// Ctrl-C at the prompt: notes the line being dropped, then interrupts as usual.
struct RememberDropped(Arc<Mutex<String>>);

impl ConditionalEventHandler for RememberDropped {
    fn handle(&self, _: &Event, _: RepeatCount, _: bool, ctx: &EventContext) -> Option<Cmd> {
        if let Ok(mut l) = self.0.lock() {
            *l = ctx.line().to_string();
        }
        Some(Cmd::Interrupt)
    }
}

/// Puts `^C` after the dropped line, as a shell does.
fn mark_dropped(prompt: &str, line: &str, width: Option<usize>) {
    if let Some(marker) = dropped_marker(prompt, line, width) {
        let mut out = std::io::stdout().lock();
        let _ = write!(out, "{marker}");
        let _ = out.flush();
    }
}

/// The editor has already moved to the next line: go back up to the end of the
/// dropped one (its last row, if it wrapped), write `^C`, and come back down.
/// Nothing if the width is unknown or the line ends at a row's edge.
fn dropped_marker(prompt: &str, line: &str, width: Option<usize>) -> Option<String> {
    let width = width.filter(|&w| w > 2)?;
    let col = (prompt.chars().count() + line.chars().count()) % width;
    if col == 0 || col + 2 > width {
        return None;
    }
    Some(format!("\x1b[1A\x1b[{}G^C\n", col + 1))
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
        let _ = ctrlc::set_handler(xlet_core::config::raise_interrupt);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marker_goes_after_the_dropped_text() {
        // "xlet> " + "let x" ends at column 11 (0-based), so `^C` goes in column 12 (1-based).
        assert_eq!(
            dropped_marker(PROMPT, "let x", Some(80)).as_deref(),
            Some("\x1b[1A\x1b[12G^C\n")
        );
        // Wrapped: 6 + 100 characters on 80 columns end at column 26 of the second row.
        let long = "x".repeat(100);
        assert_eq!(
            dropped_marker(PROMPT, &long, Some(80)).as_deref(),
            Some("\x1b[1A\x1b[27G^C\n")
        );
        assert_eq!(dropped_marker(PROMPT, "", None), None);
        assert_eq!(dropped_marker(PROMPT, &"x".repeat(74), Some(80)), None);
    }
}
