//! Command-line front end: argument parsing, file reading, rendering diagnostics.
//! Exit codes: 0 success; 1 a failed assertion or runtime error; 2 a syntax or
//! check error; 3 a usage or file error. Never a panic.

mod run;

use clap::{Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "xlet",
    version,
    about = "An interpreter and REPL for XLA's operation semantics"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub opts: Options,
}

/// Options shared by every command.
#[derive(clap::Args, Debug, Clone)]
pub struct Options {
    /// Print arrays whole instead of eliding large ones.
    #[arg(long, global = true)]
    pub full: bool,
    /// Largest value, in bytes, a program may create (checked before running).
    #[arg(long, global = true, default_value_t = 4 << 30)]
    pub max_bytes: usize,
    /// Seed for the Rng ops.
    #[arg(long, global = true, default_value_t = 0)]
    pub seed: u64,
    /// Number of replicas (CrossReplicaSum, Send/Recv).
    #[arg(long, global = true, default_value_t = 1)]
    pub replicas: usize,
    /// A file of values for Infeed, in order (repeatable).
    #[arg(long, global = true)]
    pub infeed: Vec<PathBuf>,
    /// Never color diagnostics.
    #[arg(long, global = true)]
    pub no_color: bool,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run a script; exit 0 iff it ran and every assertion held. FILE `-` (or none) reads stdin.
    Run {
        file: Option<PathBuf>,
        /// After the run, print wall time per statement.
        #[arg(long)]
        profile: bool,
    },
    /// Parse and type/shape-check only; exit 0 iff the program is well-typed.
    Check { file: Option<PathBuf> },
    /// Open the REPL (the default).
    Repl,
}

pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 3 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match cli.command {
        Some(Command::Run { file, profile }) => run::run_file(file.as_deref(), &cli.opts, profile),
        Some(Command::Check { file }) => run::check_file(file.as_deref(), &cli.opts),
        Some(Command::Repl) | None => xlet::repl::main(&cli_repl_options(&cli.opts)),
    }
}

fn cli_repl_options(o: &Options) -> xlet::repl::ReplOptions {
    xlet::repl::ReplOptions {
        full: o.full,
        max_bytes: o.max_bytes,
        color: !o.no_color,
    }
}
