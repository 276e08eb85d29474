//! What the reductions share across families: the reduction computation's
//! checking (Reduce, ReduceWindow, SelectAndScatter, AllReduce, ReduceScatter,
//! Scatter) and the shape of N results as one value.

use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::{ElemType, Type};
use xlet_core::value::{Array, Value};
use xlet_ir::Comp;

/// The computation of a reduction of operands of element types `elems`, the
/// argument at position `pos`: `(T0.., T0..) -> T0` or the tuple; constraint `c`.
pub fn reduction_comp(
    cx: &mut CallCtx,
    pos: usize,
    elems: &[ElemType],
    c: &str,
) -> Result<Arc<Comp>, Diag> {
    let scalars: Vec<Type> = elems.iter().map(|&e| Type::scalar(e)).collect();
    let params: Vec<Type> = scalars.iter().chain(&scalars).cloned().collect();
    let ret = if scalars.len() == 1 {
        scalars[0].clone()
    } else {
        Type::Tuple(scalars)
    };
    Ok(cx
        .computation(Some(pos), "computation", &params, Some(&ret), c)?
        .value)
}

/// One array of `dims` per element type, or a tuple of them when there are several
/// (the variadic forms of Reduce and ReduceWindow).
pub fn results_type(elems: &[ElemType], dims: &[usize]) -> Type {
    match elems {
        [e] => Type::array(*e, dims.to_vec()),
        _ => Type::Tuple(
            elems
                .iter()
                .map(|&e| Type::array(e, dims.to_vec()))
                .collect(),
        ),
    }
}

/// N results as the op's value: one array, or the tuple of N.
pub fn collate(mut outs: Vec<Array>) -> Value {
    if outs.len() == 1 {
        Value::Array(outs.remove(0))
    } else {
        Value::tuple(outs.into_iter().map(Value::Array).collect())
    }
}
