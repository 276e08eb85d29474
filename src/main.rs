//! The `xlet` command: the REPL, `xlet run FILE` and `xlet check FILE` (spec/commands.md).

mod cli;

/// The interpreter recurses over expressions (checking, evaluating, dropping
/// syntax trees), so it runs on a thread with a large stack: only the pages a
/// deep program actually touches are ever committed.
const STACK_BYTES: usize = 1 << 30;

fn main() {
    let code = std::thread::Builder::new()
        .name("xlet".into())
        .stack_size(STACK_BYTES)
        .spawn(cli::main)
        .map(|h| h.join());
    std::process::exit(match code {
        Ok(Ok(code)) => code,
        // A panic is a bug in xlet; its message is already on stderr.
        Ok(Err(_)) => {
            eprintln!("xlet: internal error (a bug: please report the input that caused it)");
            70
        }
        Err(e) => {
            eprintln!("xlet: cannot start: {e}");
            70
        }
    });
}
