//! Transpose (spec/ops/transpose.md): `Transpose(operand, permutation)`.
//! Output dimension `i` is operand dimension `permutation[i]`. The result is a
//! view of the operand's storage with permuted strides (no copy); ops that
//! need row-major data copy it when they read it.

use super::common::internal;
use super::registry::{Checked, OpDef, OpId};
use super::reshape::permutation;
use ndarray::IxDyn;
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::Type;
use xlet_core::value::{Array, Elem, Nd, Value};
use xlet_core::with_array;
use xlet_ir::{EvalCx, Kernel, KernelError};

const SPEC: &str = include_str!("../../../spec/ops/transpose.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::Transpose,
    aliases: &[],
    signature: "Transpose(operand, permutation)",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let o = cx.operand(0, "operand")?;
    let t = cx.array(&o, "C1", "operand")?.clone();
    let p = cx.require_int_list(Some(1), "permutation")?;
    let perm = permutation(cx, "C2", "permutation", &p.value, t.rank(), &p.span)?;
    let dims = perm.iter().map(|&d| t.dims[d]).collect();
    Ok(Checked {
        ty: Type::array(t.elem, dims),
        kernel: Arc::new(TransposeKernel { perm }),
    })
}

struct TransposeKernel {
    perm: Vec<usize>,
}

fn transpose<T: Elem>(a: &Nd<T>, perm: &[usize]) -> Result<Array, KernelError> {
    // `permuted_axes` panics on a bad permutation; the checker built `perm` from the
    // operand's rank, so only a value of another rank could break it.
    if a.ndim() != perm.len() {
        return Err(internal("transpose operand does not have the checked rank"));
    }
    Ok(T::wrap(a.clone().permuted_axes(IxDyn(perm))))
}

impl Kernel for TransposeKernel {
    fn movement(&self) -> Option<xlet_ir::movement::Movement> {
        Some(xlet_ir::movement::Movement::Transpose {
            perm: self.perm.clone(),
        })
    }
    /// The cotangent goes back through the inverse permutation.
    fn vjp(&self, cx: &mut xlet_ir::rule::RuleCx) -> Result<(), xlet_ir::rule::NoRule> {
        let mut inv = vec![0; self.perm.len()];
        for (i, &p) in self.perm.iter().enumerate() {
            inv[p] = i;
        }
        let t = format!("Transpose({}, {})", cx.ct.name, xlet_ir::rule::brace(&inv));
        cx.send(0, t);
        Ok(())
    }
    fn allocates(&self) -> bool {
        false // a view with permuted strides
    }
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let [Value::Array(a)] = args else {
            return Err(internal("Transpose expects one array"));
        };
        with_array!(a, x => transpose(x, &self.perm)).map(Value::Array)
    }
}
