//! The options every command shares (`xlet --help`), in the library so that the
//! conformance runner reads a case's `// flags:` header with the very parser
//! the command line uses (spec/conformance.md).

use crate::check::Limits;
use crate::session::Session;
use clap::Parser;
use std::path::PathBuf;

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
    #[arg(long, global = true, default_value_t = crate::kernels::rng::DEFAULT_SEED)]
    pub seed: u64,
    // `--replicas`, `--infeed` and `--outfeed` are accepted now, but no op
    // reads them yet (replicas, Infeed, Outfeed): hidden from `--help` until
    // they do something (spec/commands.md).
    /// Number of replicas (CrossReplicaSum, Send/Recv).
    #[arg(long, global = true, default_value_t = 1, hide = true)]
    pub replicas: usize,
    /// A file of values for Infeed, in order (repeatable).
    #[arg(long, global = true, hide = true)]
    pub infeed: Vec<PathBuf>,
    /// A directory where Outfeed writes numbered `.npy` files (default: stdout).
    #[arg(long, global = true, hide = true)]
    pub outfeed: Option<PathBuf>,
    /// A shared library whose functions CustomCall may call (repeatable;
    /// searched in order). Without one, no native code runs.
    #[arg(long, global = true, value_name = "PATH")]
    pub custom_call_lib: Vec<PathBuf>,
    /// Stop any While loop after this many iterations with a `steps` error
    /// (default: no limit; Ctrl-C always stops a loop).
    #[arg(long, global = true)]
    pub max_steps: Option<u64>,
    /// Never color diagnostics.
    #[arg(long, global = true)]
    pub no_color: bool,
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
        let custom_call = crate::custom_call::Libraries::load_all(&self.custom_call_lib)
            .map_err(|e| e.to_string())?;
        let mut session = Session::new(Limits {
            max_value_bytes: self.max_bytes,
            custom_call,
        });
        session.env.rng = crate::kernels::rng::RngState::new(self.seed);
        Ok(session)
    }
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
