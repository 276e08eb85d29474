//! The loop for a stdin that is not a terminal: no editor, no prompts. Lines
//! are read as they come and go through the same multi-line accumulator and
//! input handling as typed ones; values go to stdout, diagnostics to stderr.
//!
//! Exit code: 0 if every input succeeded, else the largest failure code seen
//! (1 runtime: failed assertion, runtime error, internal error; 2 syntax or
//! check error; 3 command or file error, or unreadable stdin). `:quit` stops
//! reading and exits with the code so far.

use super::{Outcome, Pending, Repl, complain};
use crate::exit::Exit;
use std::io::BufRead;

pub(crate) fn run(repl: &mut Repl) -> Exit {
    let mut input = std::io::stdin().lock();
    let mut pending = Pending::default();
    let mut worst = Exit::Ok;
    let mut raw = Vec::new();
    // Diagnostics name stdin's lines: the line each input starts on.
    let mut line_no = 0;
    loop {
        raw.clear();
        match input.read_until(b'\n', &mut raw) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                complain(&format!("error: cannot read standard input: {e}"));
                worst = worst.max(Exit::Usage);
                break;
            }
        }
        let text = String::from_utf8_lossy(&raw);
        let line = text.strip_suffix('\n').unwrap_or(&text);
        let line = line.strip_suffix('\r').unwrap_or(line);
        line_no += 1;
        if pending.is_empty() {
            repl.stdin_line = Some(line_no);
        }
        if let Some(src) = pending.push(line) {
            match repl.handle(&src) {
                Outcome::Done => {}
                Outcome::Failed(code) => worst = worst.max(code),
                Outcome::Quit => return worst,
            }
        }
    }
    // An input still open at the end (say, an unclosed brace) is run so its error shows.
    if let Some(src) = pending.finish()
        && let Outcome::Failed(code) = repl.handle(&src)
    {
        worst = worst.max(code);
    }
    worst
}
