//! The importer's errors: located diagnostics (exit 2), rendered at the edge
//! against the module's own text.

use xlet_core::diag::{Code, Diag, Rule, Stage};
use xlet_core::span::Span;

/// A problem with the module text, or something in it xlet cannot run.
#[derive(Clone, Debug)]
pub struct ImportError(pub Diag);

impl ImportError {
    /// The text is not a module xlet can read.
    pub fn at(span: Span, message: String) -> Self {
        ImportError(Diag::new(
            Stage::Syntax,
            Code::new(None, Rule::Other("import".into())),
            message,
            span,
        ))
    }

    /// A well-formed op, attribute or type that xlet cannot run.
    pub fn unsupported(span: Span, message: String) -> Self {
        ImportError(Diag::new(
            Stage::Check,
            Code::new(None, Rule::Other("unsupported".into())),
            message,
            span,
        ))
    }

    pub fn with_help(self, help: impl Into<String>) -> Self {
        ImportError(self.0.with_help(help))
    }
}

pub type Result<T> = std::result::Result<T, ImportError>;
