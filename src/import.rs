//! Running programs from elsewhere (spec/import.md): a StableHLO module is
//! translated into an xlet program (`xlet_import`), its parameters are bound
//! from `.npy` files, and the program is checked and run by a session like
//! any script. Diagnostics about the translated program are shown at the
//! module's line that produced the statement.

use crate::session::{Failure, Session};
use std::path::Path;
use xlet_core::diag::Diag;
use xlet_core::span::Span;
use xlet_core::value::Value;
use xlet_import::{ImportError, Translation};

/// Does this text look like a module rather than an xlet script?
pub fn is_module(path: Option<&Path>, text: &str) -> bool {
    let ext = path.and_then(|p| p.extension()).and_then(|e| e.to_str());
    if matches!(ext, Some("mlir" | "hlo")) {
        return true;
    }
    if matches!(ext, Some("xlet")) {
        return false;
    }
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("//"));
    first.is_some_and(|l| {
        l.starts_with("module") || l.starts_with("func.func") || l.starts_with("HloModule")
    })
}

/// One translated program (one `// -----` part of the file) and where its
/// statements sit in the program text.
pub struct Part {
    pub translation: Translation,
    /// The program text: the parameters' bindings excluded (they are bound as values).
    pub text: String,
    /// For each statement, its byte range in `text`.
    offsets: Vec<Span>,
}

impl Part {
    fn new(translation: Translation) -> Part {
        let mut text = String::new();
        let mut offsets = vec![];
        for st in &translation.stmts {
            let start = text.len();
            text.push_str(&st.text);
            offsets.push(start..text.len());
            text.push('\n');
        }
        Part {
            translation,
            text,
            offsets,
        }
    }

    /// A diagnostic about the program text, moved to the module line its
    /// statement came from (with the statement shown as a note).
    pub fn locate(&self, mut d: Diag) -> Diag {
        let Some(i) = self
            .offsets
            .iter()
            .position(|r| r.contains(&d.span.start) || r.end == d.span.start)
        else {
            return d;
        };
        let st = &self.translation.stmts[i];
        let shown: String = st
            .text
            .lines()
            .next()
            .unwrap_or("")
            .chars()
            .take(160)
            .collect();
        d.span = st.span.start..st.span.end.max(st.span.start + 1);
        d.secondary.clear();
        d.notes.push(format!(
            "in the translated statement `{shown}` (see `xlet translate`)"
        ));
        d
    }
}

/// Translates every part of a module file.
pub fn translate(text: &str) -> Result<Vec<Part>, Diag> {
    if xlet_import::detect(text) == xlet_import::Format::Hlo {
        return translate_hlo(text, None).map(|p| vec![p]);
    }
    let mut parts = vec![];
    for (base, part) in xlet_import::split_parts(text) {
        if part
            .trim()
            .lines()
            .all(|l| l.trim().is_empty() || l.trim().starts_with("//"))
        {
            continue;
        }
        let t = xlet_import::translate_mlir(part, base).map_err(|e| e.0)?;
        parts.push(Part::new(t));
    }
    Ok(parts)
}

/// HLO text: converted to StableHLO (`xlet_import::hlo`), translated, and
/// every span moved back to the HLO instruction it came from.
fn translate_hlo(text: &str, as_comps: Option<&str>) -> Result<Part, Diag> {
    let c = xlet_import::hlo::to_mlir(text).map_err(|e| e.0)?;
    let back = |s: &Span| c.locate(s.start).unwrap_or(0..0);
    let t = match as_comps {
        Some(p) => xlet_import::translate_mlir_comps(&c.mlir, 0, p),
        None => xlet_import::translate_mlir(&c.mlir, 0),
    };
    let mut t = t.map_err(|e| {
        let mut d = e.0;
        d.span = back(&d.span);
        d
    })?;
    for st in &mut t.stmts {
        st.span = back(&st.span);
    }
    for c in &mut t.consts {
        c.2 = back(&c.2);
    }
    for spans in t.comp_lines.values_mut() {
        for s in spans.iter_mut().flatten() {
            *s = back(s);
        }
    }
    Ok(Part::new(t))
}

/// A module's functions as comps named `prefix` (the entry function) and
/// `prefix_NAME` (the others, and the regions): the REPL's `:import`. A file
/// of several `// -----` programs is refused (import one program).
pub fn import_comps(text: &str, prefix: &str) -> Result<Part, Diag> {
    if xlet_import::detect(text) == xlet_import::Format::Hlo {
        return translate_hlo(text, Some(prefix));
    }
    let parts = xlet_import::split_parts(text);
    if parts.len() > 1 {
        let at = parts[1].0;
        return Err(ImportError::unsupported(
            at..at,
            "a file of several `// -----` programs: :import takes one".into(),
        )
        .0);
    }
    let t = xlet_import::translate_mlir_comps(text, 0, prefix).map_err(|e| e.0)?;
    Ok(Part::new(t))
}

/// Binds the module's large constants to their values, and the entry
/// function's parameters to arrays read from `.npy` files.
pub fn bind_args(
    session: &mut Session,
    t: &Translation,
    args: &[std::path::PathBuf],
) -> Result<(), String> {
    for (name, v, _) in &t.consts {
        session.types.globals.insert(name.clone(), v.ty());
        session.env.values.insert(name.clone(), v.clone());
    }
    if args.len() != t.params.len() {
        let want: Vec<String> = t
            .params
            .iter()
            .map(|(n, ty)| format!("{n}: {ty}"))
            .collect();
        return Err(format!(
            "@{} takes {} argument{} ({}); {} --arg file{} given",
            t.entry,
            t.params.len(),
            if t.params.len() == 1 { "" } else { "s" },
            want.join(", "),
            args.len(),
            if args.len() == 1 { " was" } else { "s were" },
        ));
    }
    for ((name, ty), path) in t.params.iter().zip(args) {
        let a = xlet_npy::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let v = Value::Array(a);
        let got = v.ty();
        if &got != ty {
            return Err(format!(
                "{}: parameter `{name}` of @{} is {ty}, but the file holds {got}",
                path.display(),
                t.entry
            ));
        }
        session.types.globals.insert(name.clone(), ty.clone());
        session.env.values.insert(name.clone(), v);
    }
    Ok(())
}

/// Moves every diagnostic of a failure to the module's lines.
pub fn locate_failure(part: &Part, f: Failure) -> Failure {
    Failure {
        stage: f.stage,
        diags: f.diags.into_iter().map(|d| part.locate(d)).collect(),
    }
}

/// The values of the entry function's results after a run, in order (a
/// tuple result is one value).
pub fn results(session: &Session, t: &Translation) -> Vec<Value> {
    t.results
        .iter()
        .filter_map(|(n, _)| session.env.values.get(n).cloned())
        .collect()
}

/// The program `xlet translate` prints: per part, the large constants as
/// literals, the parameters loaded from `args` (default `argN.npy`), the
/// statements, and the results as bare expressions (so that running the
/// printed program prints what `xlet run MODULE` prints).
pub fn program_text(name: &str, parts: &[Part], args: &[std::path::PathBuf]) -> String {
    use xlet_core::print::{PrintOptions, format_value};
    let full = PrintOptions {
        full: true,
        ..Default::default()
    };
    let mut s = format!("// {name}, translated by xlet translate (spec/import.md)\n");
    for (k, part) in parts.iter().enumerate() {
        let t = &part.translation;
        if parts.len() > 1 {
            s.push_str(&format!("\n// ----- part {}: @{}\n", k + 1, t.entry));
        }
        for (n, v, _) in &t.consts {
            s.push_str(&format!(
                "let {n}: {} = {}\n",
                v.ty(),
                format_value(v, &full)
            ));
        }
        for (i, (n, ty)) in t.params.iter().enumerate() {
            let file = args
                .get(i)
                .map_or_else(|| format!("arg{i}.npy"), |p| p.display().to_string());
            s.push_str(&format!("let {n}: {ty} = LoadNpy({file:?})\n"));
        }
        s.push_str(&part.text);
        for (n, _) in &t.results {
            s.push_str(n);
            s.push('\n');
        }
    }
    s
}
