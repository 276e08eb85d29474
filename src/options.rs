//! The options every command shares (`xlet --help`), in the library so that the
//! conformance runner reads a case's `// flags:` header with the very parser
//! the command line uses (spec/conformance.md).

use crate::session::Session;
use clap::Parser;
use std::path::PathBuf;
use xlet_check::Limits;

/// Options shared by every command.
#[derive(clap::Args, Debug, Clone)]
pub struct Options {
    /// Print arrays whole instead of eliding large ones.
    #[arg(long, global = true)]
    pub full: bool,
    /// Print floats with at most N significant digits (1 to 17; default:
    /// full precision, which reads back exactly).
    #[arg(long, global = true, value_name = "N", value_parser = parse_precision)]
    pub precision: Option<u32>,
    /// Print each array that would be elided as a one-line summary (type,
    /// min, max, mean, NaN count) instead.
    #[arg(long, global = true)]
    pub summary: bool,
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
    #[arg(long, global = true, default_value_t = xlet_kernels::rng::DEFAULT_SEED)]
    pub seed: u64,
    /// Run the program on N replicas in parallel (ReplicaId, the collectives,
    /// Send/Recv); 1 to 1024.
    #[arg(long, global = true, default_value_t = 1, value_parser = parse_replicas)]
    pub replicas: usize,
    /// A file of values for Infeed: an .npy file (one array) or a text file of
    /// typed literals. Repeatable; the files' values are read in order across
    /// the whole run.
    #[arg(long, global = true, value_name = "FILE")]
    pub infeed: Vec<PathBuf>,
    /// A directory where Outfeed writes numbered .npy files (0.npy, 1.npy, ...);
    /// without it Outfeed prints `outfeed N: VALUE` lines on stdout.
    #[arg(long, global = true, value_name = "DIR")]
    pub outfeed: Option<PathBuf>,
    /// A shared library whose functions CustomCall may call (repeatable;
    /// searched in order). Without one, no native code runs.
    #[arg(long, global = true, value_name = "PATH")]
    pub custom_call_lib: Vec<PathBuf>,
    /// Stop any While loop after this many iterations with a `steps` error
    /// (default: no limit; Ctrl-C always stops a loop).
    #[arg(long, global = true)]
    pub max_steps: Option<u64>,
    /// Run While loops only through the evaluator, never through their
    /// execution plans (spec/plan.md; for comparing the two).
    #[arg(long, global = true)]
    pub no_plan: bool,
    /// Never color diagnostics.
    #[arg(long, global = true)]
    pub no_color: bool,
    /// The folder of the script file being run or checked (not a flag: set
    /// by `xlet run FILE` and `xlet check FILE`), for LoadNpy's hint about a
    /// path relative to the script rather than the current directory.
    #[arg(skip)]
    pub script_dir: Option<PathBuf>,
}

impl Options {
    /// Options from a flag list as a command line would give them
    /// (`["--seed", "7"]`); the error is clap's message.
    pub fn from_flags<I, S>(flags: I) -> Result<Options, String>
    where
        I: IntoIterator<Item = S>,
        S: Into<std::ffi::OsString> + Clone,
    {
        #[derive(Parser)]
        #[command(name = "xlet", no_binary_name = true)]
        struct Flags {
            #[command(flatten)]
            opts: Options,
        }
        Flags::try_parse_from(flags)
            .map(|f| f.opts)
            .map_err(|e| e.to_string())
    }

    /// A session set up as these options say: its limits, the run's seed and
    /// the custom-call libraries (loaded here; a path that is missing or not a
    /// shared library is the error, exit 3 on the command line).
    pub fn session(&self) -> Result<Session, String> {
        let custom_call = xlet_custom_call::Libraries::load_all(&self.custom_call_lib)
            .map_err(|e| e.to_string())?;
        // Replicas run on smaller stacks, which hold less nesting
        // (spec/distributed.md §1); `xlet check --replicas N` checks for that.
        let max_depth = if self.replicas > 1 {
            xlet_check::depth_for_stack(xlet_ir::replica::replica_stack(self.replicas))
        } else {
            xlet_check::MAX_DEPTH
        };
        let mut session = Session::new(Limits {
            max_value_bytes: self.max_bytes,
            replicas: Some(self.replicas),
            custom_call,
            script_dir: self.script_dir.clone(),
            max_depth,
            ops: xlet_ops::registry::table(),
        });
        if let Some(n) = self.max_steps {
            session.env.config.max_steps = n;
        }
        session.env.config.plan = !self.no_plan;
        session.env.rng = xlet_kernels::rng::RngState::new(self.seed);
        for f in &self.infeed {
            session.feeds().add_infeed(f.clone());
        }
        if let Some(dir) = &self.outfeed {
            session
                .feeds()
                .set_sink(crate::feed::OutfeedSink::Dir(dir.clone()));
        }
        Ok(session)
    }

    /// How values print (`--full`, `--precision`, `--summary`).
    pub fn print_options(&self) -> crate::print::PrintOptions {
        crate::print::PrintOptions {
            full: self.full,
            precision: self.precision,
            summary: self.summary,
            ..Default::default()
        }
    }

    /// Checks, before a run, the files the options name: each `--infeed` file
    /// opens and the `--outfeed` directory exists (or is made). The message is
    /// for the user; `xlet run` exits with code 3 on it.
    pub fn check_files(&self) -> Result<(), String> {
        crate::feed::check_files(&self.infeed)?;
        if let Some(dir) = &self.outfeed {
            std::fs::create_dir_all(dir).map_err(|e| {
                format!(
                    "--outfeed {}: cannot make the directory: {e}",
                    dir.display()
                )
            })?;
        }
        Ok(())
    }
}

/// A print precision: 1 to 17 significant digits (spec/printing.md §5).
pub fn parse_precision(s: &str) -> Result<u32, String> {
    match s.trim().parse::<u32>() {
        Ok(n) if (1..=17).contains(&n) => Ok(n),
        _ => Err(format!(
            "`{s}` is not a precision: give 1 to 17 significant digits"
        )),
    }
}

/// A replica count: 1 to `replica::MAX_REPLICAS`.
pub fn parse_replicas(s: &str) -> Result<usize, String> {
    let max = xlet_ir::replica::MAX_REPLICAS;
    let n: usize = s
        .trim()
        .parse()
        .map_err(|_| format!("`{s}` is not a replica count (1 to {max})"))?;
    if n == 0 || n > max {
        return Err(format!(
            "{n} replicas: the count must be 1 to {max} (each replica is a thread)"
        ));
    }
    Ok(n)
}

/// A byte count: digits, optionally followed by K, M, G or T (powers of 1024;
/// `KiB`, `MB`, ... read the same).
pub fn parse_bytes(s: &str) -> Result<usize, String> {
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
