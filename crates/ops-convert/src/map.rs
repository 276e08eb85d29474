//! Map (spec/ops/map.md): a scalar computation applied at every index of N
//! arrays of one shape. A comp made only of elementwise ops runs once over the
//! whole arrays through the fused engine (`comp::Vectorized`); any other comp is
//! called once per element (the reference path, which tests hold the fast one to).

use super::registry::{Checked, OpDef, OpId};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::{ArrayType, Type};
use xlet_core::value::{Array, Value};
use xlet_eval::comp::Vectorized;
use xlet_ir::{Comp, EvalCx, Kernel, KernelError};
use xlet_kernels::fused::Chunk;

const SPEC: &str = include_str!("../../../spec/ops/map.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::Map,
    aliases: &[],
    signature: "Map({operands}, computation[, dimensions={...}])",
    spec: SPEC,
    rule,
}];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    // `Map(f, {x})` (Python's and jax's order): the computation comes second.
    cx.check_comp_not_swapped(0, 1)?;
    let list = cx.operand_list(0, "operands", None, &[])?;
    let mut shapes: Vec<ArrayType> = vec![];
    for o in &list.items {
        shapes.push(cx.array(o, "C1", "each operand")?.clone());
    }
    let first = shapes[0].clone();
    for (o, t) in list.items.iter().zip(&shapes).skip(1) {
        if t.dims != first.dims {
            return Err(cx
                .err(
                    "C1",
                    format!("operands have different shapes: {} and {}", first, t),
                    o.span.clone(),
                )
                .with_label(format!("{t}"))
                .with_secondary(list.items[0].span.clone(), format!("{first}"))
                .with_help(
                    "Map does not broadcast: make the shapes equal first (BroadcastInDim)",
                ));
        }
    }
    if let Some(d) = cx.int_list(Some(2), "dimensions")? {
        let all: Vec<i64> = (0..first.rank() as i64).collect();
        if d.value != all {
            return Err(cx
                .err(
                    "C2",
                    format!(
                        "dimensions must be every dimension of the operands in order, {{{}}}, found {{{}}}",
                        join(&all),
                        join(&d.value)
                    ),
                    d.span.clone(),
                )
                .with_label("not the operands' dimensions in order")
                .with_help("leave `dimensions` out: Map always maps over every dimension"));
        }
    }
    let params: Vec<Type> = shapes.iter().map(|t| Type::scalar(t.elem)).collect();
    let comp = cx.computation(Some(1), "computation", &params, None, "C3")?;
    let Some(ret) = comp.value.ret.as_array().filter(|t| t.dims.is_empty()) else {
        return Err(cx
            .err(
                "C3",
                format!(
                    "the computation must return a scalar, but `{}` returns {}",
                    comp.value.name, comp.value.ret
                ),
                comp.span.clone(),
            )
            .with_secondary(comp.value.span.clone(), "defined here"));
    };
    let out = ArrayType::new(ret.elem, first.dims.clone());
    Ok(Checked {
        ty: Type::Array(out.clone()),
        kernel: Arc::new(MapKernel {
            fast: Vectorized::compile(&comp.value),
            comp: comp.value,
            out,
        }),
    })
}

fn join(v: &[i64]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

pub struct MapKernel {
    comp: Arc<Comp>,
    fast: Option<Vectorized>,
    out: ArrayType,
}

impl Kernel for MapKernel {
    /// A Map of the computation's backward (spec/grad.md §4.3).
    fn vjp(&self, cx: &mut xlet_ir::rule::RuleCx) -> Result<(), xlet_ir::rule::NoRule> {
        xlet_grad::control::map(cx, &self.comp)
    }
    fn computations(&self) -> Vec<Arc<Comp>> {
        vec![self.comp.clone()]
    }
    fn run(&self, args: &[Value], cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let arrays = arrays(args)?;
        match &self.fast {
            Some(v) => one(v.run(&arrays)?),
            None => reference(&self.comp, &arrays, &self.out, cx),
        }
    }
}

fn arrays(args: &[Value]) -> Result<Vec<Array>, KernelError> {
    args.iter()
        .map(|v| v.as_array().cloned())
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| KernelError::new("internal", "internal error: Map of a tuple"))
}

fn one(mut v: Vec<Array>) -> Result<Value, KernelError> {
    match v.pop() {
        Some(a) if v.is_empty() => Ok(Value::Array(a)),
        _ => Err(KernelError::new(
            "internal",
            "internal error: Map computation with several results",
        )),
    }
}

/// The reference form: the comp called on the scalars at each index, in row-major order.
pub fn reference(
    comp: &Comp,
    arrays: &[Array],
    out: &ArrayType,
    cx: &dyn EvalCx,
) -> Result<Value, KernelError> {
    let n = out.num_elements().unwrap_or(0);
    let what = format!("the result of Map, {}", Type::Array(out.clone()));
    let mut buf = Chunk::try_with_capacity(out.elem, n, &what)?;
    let mut iters: Vec<Box<dyn Iterator<Item = Array> + '_>> = arrays.iter().map(scalars).collect();
    for i in 0..n {
        if i % 1024 == 0 && xlet_core::config::interrupted() {
            return Err(xlet_kernels::strided::interrupt_error());
        }
        let args: Vec<Value> = iters
            .iter_mut()
            .map(|it| it.next().map(Value::Array))
            .collect::<Option<_>>()
            .ok_or_else(|| KernelError::new("internal", "internal error: Map index"))?;
        let r = cx.call_comp(comp, &args)?;
        let a = r
            .as_array()
            .ok_or_else(|| KernelError::new("internal", "internal error: Map result"))?;
        push_scalar(&mut buf, a)?;
    }
    buf.into_array(&out.dims).map(Value::Array)
}

/// Every element of `a` as a rank-0 array, in row-major order.
fn scalars(a: &Array) -> Box<dyn Iterator<Item = Array> + '_> {
    xlet_core::with_array!(a, x => Box::new(x.iter().map(|&e| Array::from_nd(ndarray::arr0(e).into_dyn()))))
}

fn push_scalar(buf: &mut Chunk, a: &Array) -> Result<(), KernelError> {
    macro_rules! arms {
        ($($v:ident),*) => {
            match (buf, a) {
                $((Chunk::$v(b), Array::$v(x)) => x.iter().next().map(|&e| b.push(e)),)*
                // A small type's result is its byte (retagged after the op).
                (Chunk::U8(b), Array::Small(_, x)) => x.iter().next().map(|&e| b.push(e)),
                _ => None,
            }
        };
    }
    arms!(
        Pred, S8, S16, S32, S64, U8, U16, U32, U64, F16, BF16, F32, F64, C64, C128
    )
    .ok_or_else(|| KernelError::new("internal", "internal error: Map result type"))
}
