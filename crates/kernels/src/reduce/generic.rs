//! The generic path: the comp is called once per combination, on scalar
//! values, in exactly the order of `order.rs` (it runs that code). It serves
//! comps the fast paths cannot take (variadic argmax, comps with calls or
//! non-elementwise ops), and it is what the fast paths are tested against.

use super::order;
use crate::strided::{interrupt_error, interrupted};
use ndarray::IxDyn;
use xlet_core::error::KernelError;
use xlet_core::error::internal;
use xlet_core::types::ElemType;
use xlet_core::value::{Array, Elem, Nd, Value};
use xlet_core::{with_array, with_elem_type};

/// Calls the comp on (accumulators ++ elements) and returns its result.
pub type CallFn<'a> = dyn FnMut(&[Value]) -> Result<Value, KernelError> + 'a;

fn scalar_nd<T: Elem>(a: &Nd<T>, flat: usize) -> Result<Value, KernelError> {
    let s = a
        .as_slice()
        .ok_or_else(|| internal("generic reduction reads a strided array"))?;
    let v = *s.get(flat).ok_or_else(|| internal("index out of range"))?;
    Ok(Value::Array(T::wrap(Nd::from_elem(IxDyn(&[]), v))))
}

/// Element `flat` (row-major) of a row-major array, as a scalar value.
pub fn scalar_at(a: &Array, flat: usize) -> Result<Value, KernelError> {
    with_array!(a, v => scalar_nd(v, flat))
}

/// The items of a comp's result: one value, or a tuple's N values.
fn items(v: Value, n: usize) -> Result<Vec<Value>, KernelError> {
    match v {
        Value::Tuple(t) if n > 1 || t.len() != 1 => {
            if t.len() != n {
                return Err(internal("the comp returned the wrong number of results"));
            }
            Ok(t.to_vec())
        }
        Value::Tuple(t) => Ok(t.to_vec()),
        v if n == 1 => Ok(vec![v]),
        _ => Err(internal("the comp returned one value for several operands")),
    }
}

/// `m` outputs of `n` elements each; `elem(o, t)` gives element t of output o
/// (one scalar per operand). Returns per output the N result scalars.
pub fn reduce(
    m: usize,
    n: usize,
    inits: &[Value],
    elem: &mut dyn FnMut(usize, usize) -> Result<Vec<Value>, KernelError>,
    call: &mut CallFn,
) -> Result<Vec<Vec<Value>>, KernelError> {
    let k = inits.len();
    let mut f = |a: Vec<Value>, b: Vec<Value>| -> Result<Vec<Value>, KernelError> {
        let args: Vec<Value> = a.into_iter().chain(b).collect();
        items(call(&args)?, k)
    };
    let mut out = Vec::with_capacity(m);
    for o in 0..m {
        if interrupted() {
            return Err(interrupt_error());
        }
        let mut get = |t: usize| elem(o, t);
        out.push(order::reduce(n, inits.to_vec(), &mut get, &mut f)?);
    }
    Ok(out)
}

/// Where the generic path puts one operand's results as they come: a typed
/// buffer of the output's size (accounted), so that nothing per output (boxed
/// scalars, their lists) stays alive until the op ends.
trait Sink {
    fn push(&mut self, v: &Value) -> Result<(), KernelError>;
    fn finish(self: Box<Self>, dims: &[usize]) -> Result<Array, KernelError>;
}

struct Typed<T>(Vec<T>);

impl<T: Elem> Sink for Typed<T> {
    fn push(&mut self, v: &Value) -> Result<(), KernelError> {
        let x = v
            .as_array()
            .and_then(T::unwrap)
            .and_then(|a| a.iter().next().copied())
            .ok_or_else(|| internal("the comp returned a value of another type"))?;
        if self.0.len() == self.0.capacity() {
            return Err(internal("more results than outputs"));
        }
        self.0.push(x);
        Ok(())
    }
    fn finish(self: Box<Self>, dims: &[usize]) -> Result<Array, KernelError> {
        Nd::from_shape_vec(IxDyn(dims), self.0)
            .map(T::wrap)
            .map_err(|_| internal("result size"))
    }
}

fn sink(elem: ElemType, m: usize) -> Result<Box<dyn Sink>, KernelError> {
    with_elem_type!(elem, T => {
        let v: Vec<T> = xlet_core::alloc::try_output_vec(m, &"a reduction's result")?;
        Ok(Box::new(Typed(v)) as Box<dyn Sink>)
    })
}

/// `reduce`, with each output's results written straight into typed arrays of
/// `dims` (one per operand, of the types `elems`) as soon as the output is done.
pub fn reduce_to_arrays(
    n: usize,
    inits: &[Value],
    elems: &[ElemType],
    dims: &[usize],
    elem: &mut dyn FnMut(usize, usize) -> Result<Vec<Value>, KernelError>,
    call: &mut CallFn,
) -> Result<Vec<Array>, KernelError> {
    let m: usize = dims.iter().product();
    let k = inits.len();
    if elems.len() != k {
        return Err(internal("one element type per operand"));
    }
    let mut results = Results::new(elems, m)?;
    let mut f = |a: Vec<Value>, b: Vec<Value>| -> Result<Vec<Value>, KernelError> {
        let args: Vec<Value> = a.into_iter().chain(b).collect();
        items(call(&args)?, k)
    };
    for o in 0..m {
        if interrupted() {
            return Err(interrupt_error());
        }
        let mut get = |t: usize| elem(o, t);
        let r = order::reduce(n, inits.to_vec(), &mut get, &mut f)?;
        results.push(&r)?;
    }
    results.finish(dims)
}

/// The results of a scalar-at-a-time path, one typed array per operand, filled
/// output by output (each output's scalars are dropped as soon as they are in).
pub struct Results(Vec<Box<dyn Sink>>);

impl Results {
    /// Room for `m` outputs of each of the types `elems`, admitted under the budget.
    pub fn new(elems: &[ElemType], m: usize) -> Result<Results, KernelError> {
        elems
            .iter()
            .map(|&e| sink(e, m))
            .collect::<Result<_, _>>()
            .map(Results)
    }

    /// The next output: one scalar per operand.
    pub fn push(&mut self, vals: &[Value]) -> Result<(), KernelError> {
        if vals.len() != self.0.len() {
            return Err(internal("one result per operand"));
        }
        for (s, v) in self.0.iter_mut().zip(vals) {
            s.push(v)?;
        }
        Ok(())
    }

    /// The arrays, each of `dims`.
    pub fn finish(self, dims: &[usize]) -> Result<Vec<Array>, KernelError> {
        self.0.into_iter().map(|s| s.finish(dims)).collect()
    }
}

fn collect_nd<T: Elem>(vals: &[Value], dims: &[usize]) -> Result<Array, KernelError> {
    let mut data = Vec::with_capacity(vals.len());
    for v in vals {
        let a = v
            .as_array()
            .and_then(T::unwrap)
            .and_then(|a| a.iter().next().copied())
            .ok_or_else(|| internal("the comp returned a value of another type"))?;
        data.push(a);
    }
    Nd::from_shape_vec(IxDyn(dims), data)
        .map(T::wrap)
        .map_err(|_| internal("result size"))
}

/// Operand `i`'s results (scalars of type `elem`) as an array of `dims`.
pub fn assemble(
    results: &[Vec<Value>],
    i: usize,
    elem: ElemType,
    dims: &[usize],
) -> Result<Array, KernelError> {
    let vals: Vec<Value> = results
        .iter()
        .map(|r| r.get(i).cloned().ok_or_else(|| internal("missing result")))
        .collect::<Result<_, _>>()?;
    with_elem_type!(elem, T => collect_nd::<T>(&vals, dims))
}
