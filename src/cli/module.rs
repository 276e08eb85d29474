//! `xlet run MODULE.mlir` and `xlet translate MODULE.mlir` (spec/import.md §1).

use super::Options;
use super::run::{Printer, report};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use xlet::diag::{LineIndex, Renderer};
use xlet::exit::Exit;
use xlet::import::{Part, bind_args, locate_failure, results, translate};
use xlet::print::{PrintOptions, format_value};
use xlet::value::Value;

macro_rules! err {
    ($($t:tt)*) => {{ let _ = writeln!(std::io::stderr().lock(), $($t)*); }};
}

/// What `xlet run` was told about a module.
pub struct ModuleRun {
    pub args: Vec<PathBuf>,
    pub out: Option<PathBuf>,
    pub trace: bool,
}

fn render(d: &xlet::diag::Diag, name: &str, src: &str, opts: &Options) {
    let color = !opts.no_color && std::io::stderr().is_terminal();
    let _ = write!(
        std::io::stderr().lock(),
        "{}",
        Renderer::new(name, src, color).render(d)
    );
}

pub fn run_module(name: &str, src: &str, opts: &Options, m: &ModuleRun) -> Exit {
    let parts = match translate(src) {
        Ok(p) => p,
        Err(d) => {
            render(&d, name, src, opts);
            return Exit::Check;
        }
    };
    let _ = ctrlc::set_handler(xlet_core::config::raise_interrupt);
    if parts.len() > 1 && (!m.args.is_empty() || m.out.is_some()) {
        err!(
            "error: {name} holds {} programs (split by `// -----`); --arg and --out need one",
            parts.len()
        );
        return Exit::Usage;
    }
    let mut worst = Exit::Ok;
    let many = parts.len() > 1;
    let lines = LineIndex::new(src);
    for part in &parts {
        let code = run_part(name, src, opts, m, part, &lines);
        if many {
            let (line, _) = lines.line_col(
                src,
                part.translation.stmts.first().map_or(0, |s| s.span.start),
            );
            let verdict = if code == Exit::Ok { "ok" } else { "FAILED" };
            println!("{name}:{line}: @{}: {verdict}", part.translation.entry);
        }
        if code != Exit::Ok && (worst == Exit::Ok || code == Exit::Interrupted) {
            worst = code;
        }
        if code == Exit::Interrupted {
            break;
        }
    }
    worst
}

fn run_part(
    name: &str,
    src: &str,
    opts: &Options,
    m: &ModuleRun,
    part: &Part,
    lines: &LineIndex,
) -> Exit {
    let mut session = match opts.session() {
        Ok(s) => s,
        Err(e) => {
            err!("error: {e}");
            return Exit::Usage;
        }
    };
    let t = &part.translation;
    let replicas = t.replicas.unwrap_or(1).max(opts.replicas);
    if replicas > 1 {
        return run_replicated(name, opts, m, part, replicas);
    }
    if let Err(e) = bind_args(&mut session, t, &m.args) {
        err!("error: {e}");
        return Exit::Check;
    }
    let print = opts.print_options();
    let mut out = Printer {
        opts: print.clone(),
        profile: None,
    };
    let outcome = if m.trace {
        // Traced statements run one at a time, so the whole program is
        // checked first: a module that fails to check runs nothing. (A plain
        // run checks it whole inside `Session::run`.)
        if let Err(f) = session.check(&part.text) {
            return report(&locate_failure(part, f), name, src, opts);
        }
        trace(&mut session, part, &mut out, src, lines, &print)
    } else {
        session
            .run(&part.text, &mut out)
            .map_err(|f| locate_failure(part, f))
    };
    if let Err(f) = outcome {
        let code = report(&f, name, src, opts);
        let interrupted = f
            .diags
            .iter()
            .any(|d| d.code.is(&xlet_core::diag::Rule::Interrupted));
        return if interrupted { Exit::Interrupted } else { code };
    }
    let values = results(&session, t);
    {
        let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
        for v in &values {
            let _ = writeln!(stdout, "{}", format_value(v, &print));
        }
    }
    if let Some(dir) = &m.out
        && let Err(e) = write_results(dir, &values)
    {
        err!("error: {e}");
        return Exit::Usage;
    }
    Exit::Ok
}

/// `mhlo.num_replicas = N` (or `--replicas N`): the translated program, its
/// arguments loaded from the `--arg` files, run by the replica driver like a
/// script (spec/distributed.md), each replica printing the results.
fn run_replicated(name: &str, opts: &Options, m: &ModuleRun, part: &Part, replicas: usize) -> Exit {
    if m.out.is_some() || m.trace {
        err!("error: --out and --trace are for modules run on one replica; {name} runs {replicas}");
        return Exit::Usage;
    }
    let t = &part.translation;
    if m.args.len() != t.params.len() {
        err!(
            "error: @{} takes {} arguments; {} --arg files were given",
            t.entry,
            t.params.len(),
            m.args.len()
        );
        return Exit::Check;
    }
    let args: Vec<PathBuf> = m
        .args
        .iter()
        .map(|p| std::fs::canonicalize(p).unwrap_or_else(|_| p.clone()))
        .collect();
    let text = xlet::import::program_text(name, std::slice::from_ref(part), &args);
    let mut o = opts.clone();
    o.replicas = replicas;
    super::run::run_replicas(&format!("{name} (translated)"), &text, &o)
}

/// Runs the statements one by one, printing each bound value with its line,
/// and the values bound inside functions and regions as the evaluator makes
/// them (`CompTracer`).
fn trace(
    session: &mut xlet::session::Session,
    part: &Part,
    out: &mut Printer,
    src: &str,
    lines: &LineIndex,
    print: &PrintOptions,
) -> Result<(), xlet::session::Failure> {
    // A While's plan runs its body without the evaluator, so without tracing.
    session.env.config.plan = false;
    session.env.tracer = Some(std::sync::Arc::new(super::trace::CompTracer::new(
        src,
        part.translation.comp_lines.clone(),
        print.clone(),
    )));
    for st in &part.translation.stmts {
        if let Err(f) = session.run(&st.text, out) {
            return Err(xlet::session::Failure {
                stage: f.stage,
                diags: f
                    .diags
                    .into_iter()
                    .map(|mut d| {
                        d.span = st.span.clone();
                        d
                    })
                    .collect(),
            });
        }
        if let Some(n) = &st.binds
            && let Some(v) = session.env.values.get(n)
        {
            let (line, _) = lines.line_col(src, st.span.start);
            let _ = writeln!(
                std::io::stdout().lock(),
                "line {line}: {n} = {}",
                format_value(v, print)
            );
        }
    }
    Ok(())
}

/// `DIR/result0.npy`, ... (a tuple result flattened in order).
fn write_results(dir: &Path, values: &[Value]) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut flat = vec![];
    fn flatten<'a>(v: &'a Value, out: &mut Vec<&'a xlet::value::Array>) {
        match v {
            Value::Array(a) => out.push(a),
            Value::Tuple(vs) => vs.iter().for_each(|v| flatten(v, out)),
        }
    }
    for v in values {
        flatten(v, &mut flat);
    }
    for (i, a) in flat.iter().enumerate() {
        let p = dir.join(format!("result{i}.npy"));
        xlet::npy::write(&p, a).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    Ok(())
}

/// `xlet translate MODULE`: the program, with its parameters loaded from files.
pub fn translate_file(file: &Path, args: &[PathBuf], opts: &Options) -> Exit {
    let (name, src) = match super::run::read_source(Some(file)) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let parts = match translate(&src) {
        Ok(p) => p,
        Err(d) => {
            render(&d, &name, &src, opts);
            return Exit::Check;
        }
    };
    let s = xlet::import::program_text(&name, &parts, args);
    let _ = std::io::stdout().lock().write_all(s.as_bytes());
    Exit::Ok
}
