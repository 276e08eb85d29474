//! Command-line front end: argument parsing, file reading, rendering diagnostics.
//! Exit codes: 0 success; 1 a failed assertion or runtime error; 2 a syntax or
//! check error; 3 a usage or file error. Never a panic.

mod module;
mod run;
mod trace;

use clap::{Parser, Subcommand};
use std::path::PathBuf;
pub use xlet::options::Options;

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

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run a script; exit 0 iff it ran and every assertion held. FILE `-` (or none) reads stdin.
    Run {
        file: Option<PathBuf>,
        /// After the run, print wall time per statement.
        #[arg(long)]
        profile: bool,
        /// A module's arguments, in parameter order (.npy files; StableHLO modules only).
        #[arg(long = "arg", value_name = "FILE.npy")]
        args: Vec<PathBuf>,
        /// Write a module's results to DIR/result0.npy, result1.npy, ...
        #[arg(long = "out", value_name = "DIR")]
        out: Option<PathBuf>,
        /// Print every intermediate value of a module with its source line.
        #[arg(long)]
        trace: bool,
    },
    /// Print a StableHLO module as an xlet program (spec/import.md).
    Translate {
        file: PathBuf,
        /// The .npy files the printed program's parameters load (default argN.npy).
        #[arg(long = "arg", value_name = "FILE.npy")]
        args: Vec<PathBuf>,
    },
    /// Parse and type/shape-check only; exit 0 iff the program is well-typed.
    Check { file: Option<PathBuf> },
    /// Print the backward program of computation COMP in FILE as xlet source
    /// (what Grad and Vjp run; spec/grad.md).
    Grad { file: PathBuf, comp: String },
    /// Open the REPL (the default).
    Repl,
}

pub fn main() -> i32 {
    run().code()
}

fn run() -> xlet::exit::Exit {
    let mut cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() {
                xlet::exit::Exit::Usage
            } else {
                xlet::exit::Exit::Ok
            };
            let _ = e.print();
            return code;
        }
    };
    if let Some(b) = cli.opts.max_memory {
        xlet::alloc::set_budget(b);
    }
    let script = match &cli.command {
        Some(Command::Run { file, .. } | Command::Check { file }) => file.as_deref(),
        Some(Command::Translate { file, .. }) => Some(file.as_path()),
        Some(Command::Grad { file, .. }) => Some(file.as_path()),
        Some(Command::Repl) | None => None,
    };
    cli.opts.script_dir = script
        .filter(|f| *f != std::path::Path::new("-"))
        .and_then(|f| f.parent())
        .filter(|dir| !dir.as_os_str().is_empty())
        .map(std::path::Path::to_path_buf);
    match cli.command {
        Some(Command::Run {
            file,
            profile,
            args,
            out,
            trace,
        }) => {
            let m = module::ModuleRun { args, out, trace };
            run::run_file(file.as_deref(), &cli.opts, profile, m)
        }
        Some(Command::Translate { file, args }) => module::translate_file(&file, &args, &cli.opts),
        Some(Command::Check { file }) => run::check_file(file.as_deref(), &cli.opts),
        Some(Command::Grad { file, comp }) => run::grad_source(Some(&file), &comp, &cli.opts),
        Some(Command::Repl) | None => xlet::repl::main(&cli_repl_options(&cli.opts)),
    }
}

fn cli_repl_options(o: &Options) -> xlet::repl::ReplOptions {
    xlet::repl::ReplOptions {
        full: o.full,
        precision: o.precision,
        summary: o.summary,
        max_bytes: o.max_bytes,
        color: !o.no_color,
        seed: o.seed,
        infeed: o.infeed.clone(),
        outfeed: o.outfeed.clone(),
        custom_call_libs: o.custom_call_lib.clone(),
        plan: !o.no_plan,
    }
}
