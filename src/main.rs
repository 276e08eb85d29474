//! The `xlet` command: the REPL, `xlet run FILE` and `xlet check FILE` (spec/commands.md).

mod cli;

fn main() {
    std::process::exit(cli::main());
}
