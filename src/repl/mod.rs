//! The REPL (rustyline). Placeholder until the REPL lands: reads stdin as a script.
pub struct ReplOptions { pub full: bool, pub max_bytes: usize, pub color: bool }
pub fn main(_o: &ReplOptions) -> i32 { 0 }
