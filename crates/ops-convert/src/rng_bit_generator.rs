//! RngBitGenerator (spec/ops/rng_bit_generator.md):
//! `RngBitGenerator(algorithm, initial_state, shape)` returns
//! `(new_state, values)` with current XLA's exact bits (`kernels::rng::bits`).
//! It does not read the run's seed: the state is the whole input.

use super::common::{internal, typed};
use super::registry::{Checked, OpDef, OpId};
use ndarray::{ArrayD, IxDyn};
use std::sync::Arc;
use xlet_check::call::CallCtx;
use xlet_core::diag::Diag;
use xlet_core::types::{ElemType, Type};
use xlet_core::value::{Array, Value};
use xlet_ir::{EvalCx, Kernel, KernelError};
use xlet_kernels::rng::bits::{Algorithm, generate, unsigned_of_width};

const SPEC: &str = include_str!("../../../spec/ops/rng_bit_generator.md");

pub const OPS: &[OpDef] = &[OpDef {
    id: OpId::RngBitGenerator,
    aliases: &[],
    signature: "RngBitGenerator(algorithm, initial_state, shape)",
    spec: SPEC,
    rule,
}];

/// The spellings of the algorithm: StableHLO's and XLA's enum names.
const ALGORITHMS: &[&str] = &[
    "DEFAULT",
    "THREE_FRY",
    "PHILOX",
    "RNG_DEFAULT",
    "RNG_THREE_FRY",
    "RNG_PHILOX",
];

fn rule(cx: &mut CallCtx) -> Result<Checked, Diag> {
    let Some(alg) = cx.keyword(Some(0), "algorithm", ALGORITHMS)? else {
        return Err(Diag::check(
            cx.code("arity"),
            "RngBitGenerator: missing argument `algorithm`",
            cx.span.clone(),
        )
        .with_label("`algorithm` is missing")
        .with_help(format!("RngBitGenerator is called as {}", cx.op.signature)));
    };
    let name = alg.value.trim_start_matches("RNG_");
    // DEFAULT is PHILOX, as on XLA's CPU backend.
    let algorithm = if name == "THREE_FRY" {
        Algorithm::ThreeFry
    } else {
        Algorithm::Philox
    };
    let e = cx.require(Some(1), "initial_state")?;
    let st = cx.push_operand(e, Some(ElemType::U64))?;
    let shape = cx.array_type(Some(2), "shape")?;
    let state_t = cx.array(&st, "C1", "initial_state")?.clone();
    if state_t.elem != ElemType::U64 || state_t.rank() != 1 {
        return Err(cx
            .err(
                "C1",
                format!("initial_state must be a u64 vector (u64[k]), found {state_t}"),
                st.span.clone(),
            )
            .with_label(format!("{state_t}"))
            .with_help("write the state as u64[2] {key, counter} (THREE_FRY) or u64[3] (PHILOX)"));
    }
    let k = state_t.dims[0];
    let ok = match algorithm {
        Algorithm::ThreeFry => k == 2,
        Algorithm::Philox => k == 2 || k == 3,
    };
    if !ok {
        let want = match algorithm {
            Algorithm::ThreeFry => "2 (u64[2]: key, counter)",
            Algorithm::Philox => "2 or 3 (u64[3]: key, counter low, counter high)",
        };
        return Err(cx
            .err(
                "C2",
                format!("{name} needs a state of {want} elements, found {state_t}"),
                st.span.clone(),
            )
            .with_label(format!("{state_t}"))
            .with_secondary(alg.span.clone(), format!("{name} here")));
    }
    let t = shape.value;
    if t.elem == ElemType::Pred {
        return Err(cx
            .err(
                "C3",
                "RngBitGenerator makes integers (or floats' bit patterns), not pred",
                shape.span.clone(),
            )
            .with_label(format!("{t}"))
            .with_help("ask for u8 and compare, e.g. Lt(..., u8 128)"));
    }
    let bits = t.elem.bit_width() as usize;
    let out_elem = unsigned_of_width(bits).ok_or_else(|| {
        cx.err(
            "C3",
            format!("no unsigned type of {bits} bits"),
            shape.span.clone(),
        )
    })?;
    Ok(Checked {
        ty: Type::Tuple(vec![
            Type::Array(state_t),
            Type::array(out_elem, t.dims.clone()),
        ]),
        kernel: Arc::new(BitsKernel {
            algorithm,
            dims: t.dims,
            bits,
        }),
    })
}

struct BitsKernel {
    algorithm: Algorithm,
    dims: Vec<usize>,
    bits: usize,
}

impl Kernel for BitsKernel {
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        let [Value::Array(state)] = args else {
            return Err(internal("RngBitGenerator expects one state"));
        };
        let state: Vec<u64> = typed::<u64>(state)?.iter().copied().collect();
        let (new_state, values) = generate(self.algorithm, &state, &self.dims, self.bits)?;
        let n = new_state.len();
        let new_state = ArrayD::from_shape_vec(IxDyn(&[n]), new_state)
            .map(Array::from_nd)
            .map_err(|_| internal("RngBitGenerator state shape"))?;
        Ok(Value::tuple(vec![
            Value::Array(new_state),
            Value::Array(values),
        ]))
    }
}
