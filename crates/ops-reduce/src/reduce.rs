//! Reduce (spec/ops/reduce.md): `Reduce(operand, init_value, computation,
//! dimensions)` and the variadic `Reduce({x, y}, {ix, iy}, comp, dims)`.
//!
//! The rule picks the path once, at check time: a monoid comp on one operand
//! runs natively (kernels/reduce/native.rs); an elementwise comp runs on whole
//! arrays (kernels/reduce/vectorized.rs over `comp::Vectorized`); any other
//! calls the comp per combination (kernels/reduce/generic.rs). All follow the
//! order of kernels/reduce/order.rs and give the same bits.

use super::common::internal;
use super::registry::{Checked, OpDef, OpId};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::{ArrayType, ElemType};
use xlet_core::value::{Array, Elem, Nd, Value};
use xlet_core::{with_array, with_elem_type};
use xlet_eval::comp::{self, Monoid, Vectorized};
use xlet_ir::{Comp, EvalCx, Kernel, KernelError};
use xlet_kernels::reduce::layout::{Layout, arrange, split_dims};
use xlet_kernels::reduce::monoid::{NativeMonoid, ReduceCall, WithOp};
use xlet_kernels::reduce::{generic, vectorized};
pub use xlet_ops_common::reduction::{collate, reduction_comp, results_type};

const SPEC: &str = include_str!("../../../spec/ops/reduce.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::Reduce,
    aliases: &[],
    signature: "Reduce(operand, init_value, computation, dimensions)",
    spec: SPEC,
    rule,
}];

/// The operands and init values of a reduction (Reduce and ReduceWindow share
/// this): constraints C1 to C4 of either spec. Returns the operands' types.
pub fn operands_and_inits(cx: &mut CallCtx) -> Result<Vec<ArrayType>, Diag> {
    let list = cx.operand_list(0, "operand", None, &[])?;
    let mut types: Vec<ArrayType> = vec![];
    for o in &list.items {
        types.push(cx.array(o, "C1", "each operand")?.clone());
    }
    if types.is_empty() {
        return Err(cx
            .err(
                "C2",
                "there must be at least one operand",
                list.span.clone(),
            )
            .with_label("no operands"));
    }
    for (o, t) in list.items.iter().zip(&types).skip(1) {
        if t.dims != types[0].dims {
            return Err(cx
                .err(
                    "C3",
                    format!("operands have different shapes: {} and {}", types[0], t),
                    o.span.clone(),
                )
                .with_label(format!("{t}"))
                .with_secondary(list.items[0].span.clone(), format!("{}", types[0])));
        }
    }
    let n = types.len();
    let hints: Vec<Option<ElemType>> = types.iter().map(|t| Some(t.elem)).collect();
    let inits = cx.operand_list(1, "init_value", Some(n), &hints)?;
    if inits.items.len() != n {
        return Err(cx
            .err(
                "C2",
                format!(
                    "{n} operand{} but {} init value{}",
                    if n == 1 { "" } else { "s" },
                    inits.items.len(),
                    if inits.items.len() == 1 { "" } else { "s" }
                ),
                inits.span.clone(),
            )
            .with_label(format!(
                "expected {n} init value{}",
                if n == 1 { "" } else { "s" }
            ))
            .with_secondary(
                list.span.clone(),
                format!("{n} operand{}", if n == 1 { "" } else { "s" }),
            ));
    }
    for (i, (init, t)) in inits.items.iter().zip(&types).enumerate() {
        let ok = init
            .ty
            .as_array()
            .is_some_and(|a| a.dims.is_empty() && a.elem == t.elem);
        if !ok {
            return Err(cx
                .err(
                    "C4",
                    format!(
                        "init value {} must be a scalar {}, the element type of its operand, found {}",
                        i, t.elem, init.ty
                    ),
                    init.span.clone(),
                )
                .with_label(format!("{}", init.ty))
                .with_secondary(list.items[i].span.clone(), format!("{t}")));
        }
    }
    Ok(types)
}

/// How a reduction runs, chosen at check time.
pub enum Path {
    /// One operand, a monoid comp with a native kernel for its element type.
    Monoid(Monoid),
    /// An elementwise comp, applied to whole arrays.
    Vectorized(Vectorized),
    /// The comp called per combination.
    Generic,
}

/// Whether `op` has a native kernel on element type `e`.
fn native_on(op: Monoid, e: ElemType) -> bool {
    struct Probe;
    impl<T> WithOp<T> for Probe {
        type Out = ();
        fn call<F: Fn(T, T) -> T + Sync + Send + Copy + 'static>(self, _f: F) {}
    }
    with_elem_type!(e, T => T::with_op(op, Probe).is_some())
}

pub fn choose_path(comp: &Comp, elems: &[ElemType]) -> Path {
    if let ([e], Some(m)) = (elems, comp::monoid(comp))
        && native_on(m, *e)
    {
        return Path::Monoid(m);
    }
    match Vectorized::compile(comp) {
        Some(v) if v.outputs() == elems.len() => Path::Vectorized(v),
        _ => Path::Generic,
    }
}

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    // `Reduce(x, add, 0.0, {1})`: the computation where the init value goes.
    cx.check_comp_not_swapped(1, 2)?;
    let types = operands_and_inits(cx)?;
    let rank = types[0].rank();
    let d = cx.require_int_list(Some(3), "dimensions")?;
    let mut dims: Vec<usize> = vec![];
    for &v in &d.value {
        if v < 0 || v as usize >= rank {
            return Err(cx
                .err(
                    "C5",
                    format!(
                        "dimension {v} is out of range for the operand {} (rank {rank})",
                        types[0]
                    ),
                    d.span.clone(),
                )
                .with_label(format!("dimensions must be in 0..{rank}")));
        }
        if dims.contains(&(v as usize)) {
            return Err(cx
                .err(
                    "C6",
                    format!("dimension {v} is listed twice"),
                    d.span.clone(),
                )
                .with_label("repeated dimension"));
        }
        dims.push(v as usize);
    }
    dims.sort_unstable();
    let elems: Vec<ElemType> = types.iter().map(|t| t.elem).collect();
    let comp = reduction_comp(cx, 2, &elems, "C7")?;
    let kept: Vec<usize> = (0..rank)
        .filter(|x| !dims.contains(x))
        .map(|x| types[0].dims[x])
        .collect();
    Ok(Checked {
        ty: results_type(&elems, &kept),
        kernel: Arc::new(ReduceKernel {
            path: choose_path(&comp, &elems),
            comp,
            dims,
            out_dims: kept,
            elems,
        }),
    })
}

pub struct ReduceKernel {
    path: Path,
    comp: Arc<Comp>,
    /// Ascending, distinct.
    dims: Vec<usize>,
    out_dims: Vec<usize>,
    elems: Vec<ElemType>,
}

fn monoid_nd<T: NativeMonoid>(
    x: &Nd<T>,
    init: &Array,
    dims: &[usize],
    op: Monoid,
) -> Result<Array, KernelError> {
    let init = scalar_of::<T>(init)?;
    T::with_op(op, ReduceCall { x, dims, init })
        .ok_or_else(|| internal("no native kernel for this monoid"))?
        .map(T::wrap)
}

pub fn scalar_of<T: Elem>(a: &Array) -> Result<T, KernelError> {
    T::unwrap(a)
        .and_then(|a| a.iter().next().copied())
        .ok_or_else(|| internal("init value of an unexpected type"))
}

fn rows_nd<T: Elem + Copy + Send + Sync>(x: &Nd<T>, dims: &[usize]) -> Result<Array, KernelError> {
    let (_, m, n) = split_dims(x.shape(), dims);
    let data = match arrange(x, dims, false)? {
        Layout::Rows { data, .. } | Layout::Columns { data, .. } => data,
    };
    data.into_shape_with_order(ndarray::IxDyn(&[m, n]))
        .map(T::wrap)
        .map_err(|_| internal("reduction rows"))
}

/// The operand as a row-major `[outputs, elements]` array.
pub fn rows_of(x: &Array, dims: &[usize]) -> Result<Array, KernelError> {
    with_array!(x, a => rows_nd(a, dims))
}

pub fn arrays(args: &[Value]) -> Result<Vec<Array>, KernelError> {
    args.iter()
        .map(|v| v.as_array().cloned())
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| internal("a reduction got a tuple operand"))
}

/// The init values as the scalar values the generic path passes to the comp.
pub fn init_values(inits: &[Array]) -> Vec<Value> {
    inits.iter().cloned().map(Value::Array).collect()
}

/// The generic path of Reduce and ReduceWindow: outputs of `out_dims` (one
/// array per operand, of the types `elems`), each combining `n` elements by
/// calling the comp on scalars in the one order; `elem(o, t)` gives element t
/// of output o, one scalar per operand.
pub fn generic_outputs(
    (cx, comp): (&dyn EvalCx, &Arc<Comp>),
    init_vals: &[Value],
    elems: &[ElemType],
    out_dims: &[usize],
    n: usize,
    elem: &mut dyn FnMut(usize, usize) -> Result<Vec<Value>, KernelError>,
) -> Result<Vec<Array>, KernelError> {
    let mut call = |a: &[Value]| cx.call_comp(comp, a);
    generic::reduce_to_arrays(n, init_vals, elems, out_dims, elem, &mut call)
}

impl Kernel for ReduceKernel {
    fn monoid_reduction(&self) -> Option<(Monoid, &[usize])> {
        match self.path {
            Path::Monoid(op) => Some((op, &self.dims)),
            _ => None,
        }
    }
    /// Add, Mul, Max and Min reductions of one operand (spec/grad.md §4).
    fn vjp(&self, cx: &mut xlet_ir::rule::RuleCx) -> Result<(), xlet_ir::rule::NoRule> {
        xlet_grad::reduce::rule(cx, &self.comp, &self.dims)
    }
    fn run(&self, args: &[Value], cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let all = arrays(args)?;
        let k = self.elems.len();
        if all.len() != 2 * k {
            return Err(internal("Reduce got the wrong number of arguments"));
        }
        let (xs, inits) = all.split_at(k);
        let shape = xs[0].dims().to_vec();
        let (_, m, n) = split_dims(&shape, &self.dims);
        let outs: Vec<Array> = match &self.path {
            Path::Monoid(op) => {
                vec![with_array!(&xs[0], a => monoid_nd(a, &inits[0], &self.dims, *op))?]
            }
            Path::Vectorized(v) => {
                let rows: Vec<Array> = xs
                    .iter()
                    .map(|x| rows_of(x, &self.dims))
                    .collect::<Result<_, _>>()?;
                let mut f = |a: &[Array]| v.run(a);
                let r = vectorized::reduce_rows(&rows, inits, m, n, &mut f)?;
                r.iter()
                    .map(|a| vectorized::reshape(a, &self.out_dims))
                    .collect::<Result<_, _>>()?
            }
            Path::Generic => {
                let rows: Vec<Array> = xs
                    .iter()
                    .map(|x| rows_of(x, &self.dims))
                    .collect::<Result<_, _>>()?;
                let init_vals = init_values(inits);
                let mut elem = |o: usize, t: usize| -> Result<Vec<Value>, KernelError> {
                    rows.iter()
                        .map(|r| generic::scalar_at(r, o * n + t))
                        .collect()
                };
                let comp = (cx, &self.comp);
                generic_outputs(comp, &init_vals, &self.elems, &self.out_dims, n, &mut elem)?
            }
        };
        Ok(collate(outs))
    }
}
