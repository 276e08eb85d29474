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
    /// Accepts K, M, G, T suffixes (powers of 1024).
    #[arg(long, global = true, default_value = "4294967296", value_parser = parse_bytes)]
    pub max_bytes: usize,
    /// Budget, in bytes, for all live values together (default: 3/4 of physical
    /// memory). Accepts K, M, G, T suffixes (powers of 1024).
    #[arg(long, global = true, value_parser = parse_bytes)]
    pub max_memory: Option<usize>,
    /// Seed for RngUniform and RngNormal: the same seed gives the same values
    /// on any machine and thread count.
    #[arg(long, global = true, default_value_t = xlet::kernels::rng::DEFAULT_SEED)]
    pub seed: u64,
    // `--replicas` and `--infeed` are part of the surface contract and accepted
    // now, but no op reads them yet (replicas, Infeed): hidden from `--help`
    // until they do something (spec/commands.md).
    /// Number of replicas (CrossReplicaSum, Send/Recv).
    #[arg(long, global = true, default_value_t = 1, hide = true)]
    pub replicas: usize,
    /// A file of values for Infeed, in order (repeatable).
    #[arg(long, global = true, hide = true)]
    pub infeed: Vec<PathBuf>,
    /// Stop any While loop after this many iterations with a `steps` error
    /// (default: no limit; Ctrl-C always stops a loop).
    #[arg(long, global = true)]
    pub max_steps: Option<u64>,
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
    if let Some(b) = cli.opts.max_memory {
        xlet::kernels::alloc::set_budget(b);
    }
    if let Some(n) = cli.opts.max_steps {
        xlet::eval::MAX_STEPS.store(n, std::sync::atomic::Ordering::Relaxed);
    }
    match cli.command {
        Some(Command::Run { file, profile }) => run::run_file(file.as_deref(), &cli.opts, profile),
        Some(Command::Check { file }) => run::check_file(file.as_deref(), &cli.opts),
        Some(Command::Repl) | None => xlet::repl::main(&cli_repl_options(&cli.opts)),
    }
}

/// A byte count: digits, optionally followed by K, M, G or T (powers of 1024;
/// `KiB`, `MB`, ... read the same).
fn parse_bytes(s: &str) -> Result<usize, String> {
    let t = s.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (num, unit) = t.split_at(digits);
    let n: usize = num
        .parse()
        .map_err(|_| format!("`{s}` is not a byte count (e.g. 1000000, 512M, 4G)"))?;
    let shift = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        _ => return Err(format!("`{s}`: unknown unit (use K, M, G or T)")),
    };
    n.checked_mul(1usize << shift)
        .ok_or_else(|| format!("`{s}` is too large"))
}

fn cli_repl_options(o: &Options) -> xlet::repl::ReplOptions {
    xlet::repl::ReplOptions {
        full: o.full,
        max_bytes: o.max_bytes,
        color: !o.no_color,
        seed: o.seed,
    }
}
