//! Programs from elsewhere (spec/import.md): StableHLO text as JAX prints it
//! and as openxla/stablehlo's tests write it, read by a hand-written MLIR
//! reader (no Rust crate reads MLIR text without linking LLVM) and translated
//! into an xlet program, which the ordinary parser and checker then verify.

pub mod error;
pub mod fmt;
pub mod hlo;
pub mod mlir;
pub mod translate;

pub use error::ImportError;
pub use translate::{Stmt, Translation};

/// The format of a module, from its text.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    Mlir,
    Hlo,
}

/// `HloModule` starts HLO text; anything else is read as MLIR.
pub fn detect(text: &str) -> Format {
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("//"));
    match first {
        Some(l) if l.starts_with("HloModule") => Format::Hlo,
        _ => Format::Mlir,
    }
}

/// The `// -----` parts of a file, each with its byte offset (openxla/stablehlo's
/// tests keep several programs in one file).
pub fn split_parts(text: &str) -> Vec<(usize, &str)> {
    let mut parts = vec![];
    let mut start = 0;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.trim() == "// -----" {
            parts.push((start, &text[start..offset]));
            start = offset + line.len();
        }
        offset += line.len();
    }
    parts.push((start, &text[start..]));
    parts
}

/// Translates one module (or one `// -----` part, at byte `base` of `whole`).
pub fn translate_mlir(part: &str, base: usize) -> Result<Translation, ImportError> {
    let m = mlir::module::read(part, base)?;
    translate::translate(&m, None)
}

/// Translates a module's functions into comps whose names start with
/// `prefix` (the entry function is `prefix` itself): the REPL's `:import`.
pub fn translate_mlir_comps(
    part: &str,
    base: usize,
    prefix: &str,
) -> Result<Translation, ImportError> {
    let m = mlir::module::read(part, base)?;
    translate::translate(&m, Some(prefix))
}
