//! HLO text (as `jax.jit(f).lower(x).as_text(dialect="hlo")` prints it)
//! written out as StableHLO MLIR text, which the MLIR reader and translator
//! then take as they take any module. Each MLIR line remembers the HLO
//! instruction it was written for, so that errors point into the HLO text.

mod attrs;
mod lexer;
mod reader;
mod shape;
mod to_mlir;

use crate::error::ImportError;
use xlet_core::span::Span;

/// The MLIR text made from an HLO module, with where each line came from.
#[derive(Clone, Debug)]
pub struct Converted {
    pub mlir: String,
    /// Byte ranges of `mlir`'s lines (in order) and their HLO spans.
    map: Vec<(std::ops::Range<usize>, Span)>,
}

impl Converted {
    /// The HLO span that the MLIR text at byte `at` was written for (the HLO
    /// instruction's line), or None.
    pub fn locate(&self, at: usize) -> Option<Span> {
        let i = self.map.partition_point(|(r, _)| r.end < at);
        let (r, s) = self.map.get(i)?;
        (r.start <= at && at <= r.end && s.end > s.start).then(|| s.clone())
    }
}

/// Converts an HLO module's text into StableHLO MLIR text.
pub fn to_mlir(hlo: &str) -> Result<Converted, ImportError> {
    let m = reader::read(hlo)?;
    let mut em = to_mlir::Em::new(&m);
    em.module()?;
    Ok(Converted {
        mlir: em.out,
        map: em.map,
    })
}

#[cfg(test)]
mod tests;
