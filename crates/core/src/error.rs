//! The error a kernel returns: a failure found while running, after the
//! checker proved everything it could. The evaluator places it at the op's span.

use crate::code::Code;
use crate::diag::Diag;
use crate::span::Span;

/// A failure found while running (the checker proved everything it could).
#[derive(Clone, Debug)]
pub struct KernelError {
    pub code: Code,
    pub message: String,
}

/// A failure the checker should have ruled out: reported, never a panic.
pub fn internal(what: &str) -> KernelError {
    KernelError::new(
        "internal",
        format!("internal error: {what} (the checker should have caught this)"),
    )
}

impl KernelError {
    pub fn new(code: impl Into<Code>, message: impl Into<String>) -> Self {
        KernelError {
            code: code.into(),
            message: message.into(),
        }
    }
    pub fn at(self, span: Span) -> Diag {
        Diag::runtime(self.code, self.message, span)
    }
}
