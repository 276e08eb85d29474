//! The process exit codes (spec/commands.md §3): what `xlet run`, `xlet
//! check`, `xlet grad` and a piped REPL session end with, and what one REPL
//! input comes to. Every edge speaks in these; only `main` turns one into the
//! number the operating system sees.

/// Ordered by severity for a piped session, which exits with the worst code
/// of its inputs (a usage error outranks a check error, which outranks a
/// runtime one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Exit {
    /// Everything ran and every assertion held.
    Ok,
    /// A runtime error or a failed assertion (also an interrupted REPL input).
    Runtime,
    /// A syntax or check error: nothing ran.
    Check,
    /// A command-line, REPL-command or file error.
    Usage,
    /// Ctrl-C stopped a script.
    Interrupted,
}

impl Exit {
    /// The number the process exits with.
    pub fn code(self) -> i32 {
        match self {
            Exit::Ok => 0,
            Exit::Runtime => 1,
            Exit::Check => 2,
            Exit::Usage => 3,
            Exit::Interrupted => 130,
        }
    }
}
