//! An evaluation context for the unit tests of kernels that call no computation.

use crate::{Comp, EvalCx, KernelError};
use xlet_core::value::Value;

/// The context for running a kernel that never calls a computation.
pub struct NoCalls;

impl EvalCx for NoCalls {
    fn call_comp(&self, _: &Comp, _: &[Value]) -> Result<Value, KernelError> {
        Err(KernelError::new(
            "internal",
            "a kernel under test called a computation",
        ))
    }
}
