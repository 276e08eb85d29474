//! The CustomCall ABI (spec/ops/custom_call.md "Calling convention"): each
//! argument is one contiguous row-major buffer of its element type (views are
//! materialised first, under the memory budget); `in` points to an array of
//! those buffer pointers, in argument order. The result is zero-filled before
//! the call; for an array result `out` is its buffer, for a tuple result `out`
//! points to an array of one pointer per element (XLA's CPU convention),
//! nested tuples nesting the same way.

use super::Target;
use ndarray::{ArrayD, IxDyn};
use std::ffi::c_void;
use xlet_core::types::{ArrayType, Type};
use xlet_core::value::{Array, Elem, Value};
use xlet_core::{with_array, with_elem_type};
use xlet_ir::KernelError;
use xlet_kernels::contiguous;

fn internal(msg: &str) -> KernelError {
    KernelError::new("internal", format!("CustomCall: internal: {msg}"))
}

/// Calls `f` (the target `name`) on `args` and returns what it wrote, as a
/// value of type `result`. The caller has admitted `result`'s size under the
/// memory budget (the evaluator does, for every allocating kernel); argument
/// copies admit themselves. If `f` crashes, the process ends by the signal
/// after a message naming `name` (`crash`).
pub fn call(name: &str, f: Target, args: &[Value], result: &Type) -> Result<Value, KernelError> {
    // The inputs, each contiguous and row-major; held until the call returns.
    let mut inputs: Vec<Array> = Vec::with_capacity(args.len());
    for a in args {
        let Value::Array(a) = a else {
            return Err(internal("a tuple argument reached the kernel"));
        };
        inputs.push(with_array!(a, nd => Elem::wrap(contiguous(nd.clone())?)));
    }
    let mut ins: Vec<*mut c_void> = inputs
        .iter()
        .map(|a| with_array!(a, nd => nd.as_ptr() as *mut c_void))
        .collect();

    let mut out = Outputs::default();
    let (value, out_ptr) = out.make(result)?;
    {
        // While it runs, a crash names the target (`crash::Guard`).
        let _running = super::crash::Guard::enter(name);
        // SAFETY: `out_ptr` and every pointer in `ins` point to live buffers of
        // exactly the sizes their types give (or to pointer tables for tuples);
        // they stay alive until after the call (`inputs`, `value`, `out`). What
        // the function does with them is its author's promise (spec: "Safety").
        unsafe { f(out_ptr, ins.as_mut_ptr()) };
    }
    out.normalize_preds();
    drop(inputs);
    Ok(value)
}

/// The result's buffers while the call runs: pointer tables for tuples, and
/// the pred buffers whose bytes must be made 0 or 1 afterwards.
#[derive(Default)]
struct Outputs {
    tables: Vec<Box<[*mut c_void]>>,
    preds: Vec<(*mut u8, usize)>,
}

impl Outputs {
    /// A zero-filled value of type `t` and the pointer the function gets for it.
    fn make(&mut self, t: &Type) -> Result<(Value, *mut c_void), KernelError> {
        match t {
            Type::Array(at) => {
                let mut a = zeroed(at)?;
                let n = a.len();
                let p = with_array!(&mut a, nd => nd.as_mut_ptr() as *mut c_void);
                if matches!(a, Array::Pred(_)) {
                    self.preds.push((p as *mut u8, n));
                }
                Ok((Value::Array(a), p))
            }
            Type::Tuple(ts) => {
                let mut values = Vec::with_capacity(ts.len());
                let mut ptrs = Vec::with_capacity(ts.len());
                for t in ts {
                    let (v, p) = self.make(t)?;
                    values.push(v);
                    ptrs.push(p);
                }
                let mut table = ptrs.into_boxed_slice();
                let p = table.as_mut_ptr() as *mut c_void;
                // Moving the box moves no elements: `p` stays valid.
                self.tables.push(table);
                Ok((Value::tuple(values), p))
            }
        }
    }

    /// A C function may store any byte in a pred element; xlet's pred is 0 or
    /// 1, so any nonzero byte reads as true (C's own rule for `_Bool` casts).
    fn normalize_preds(&self) {
        for &(p, n) in &self.preds {
            for i in 0..n {
                // SAFETY: `p` is the start of a live pred buffer of `n` bytes,
                // accessed as bytes until every byte is 0 or 1.
                unsafe {
                    let b = p.add(i);
                    *b = (*b != 0) as u8;
                }
            }
        }
    }
}

/// A fresh standard-layout array of `t`, every element zero (false, 0, +0.0).
fn zeroed(t: &ArrayType) -> Result<Array, KernelError> {
    with_elem_type!(t.elem, T => {
        let n = t.num_elements().ok_or_else(|| internal("element count overflows"))?;
        let a = ArrayD::from_shape_vec(IxDyn(&t.dims), xlet_core::alloc::try_filled(n, T::default(), t)?)
            .map_err(|_| internal("result does not match its shape"))?;
        Ok(Array::from_nd(a))
    })
}
