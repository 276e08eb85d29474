//! A While loop's trip count, when the program fixes it (spec/grad.md §4.5).
//!
//! The count is found by *running* the loop on what the program knows before
//! it runs: each value of the checked program is folded to a constant where
//! its operands are constants (`Partial::Known`), and is `Unknown` where it
//! depends on a parameter or on anything else that is only known at run time.
//! The condition and the body are evaluated on the partial state, iteration by
//! iteration, with the checked ops' own kernels: a counter is recognised by
//! what it computes, not by how it is spelled (`Add(i, s32 1)`, `i + 1`,
//! `add(1, i)`, a decrement, a constant bound through `let`s or folded from
//! arithmetic, any tuple position, any comparison). When every condition of
//! the run is known, the trip count is fixed and the loop can be written out;
//! when one is not, the trip count depends on data and the While's own rule
//! applies (`grad::while_loop`).

use xlet_core::OpId;
use xlet_core::types::Type;
use xlet_core::value::{Array, Value};
use xlet_ir::{Comp, EvalCx, Expr, ExprKind, Kernel, KernelError};

/// The loops unrolled for a gradient run at most this many iterations.
pub const MAX_TRIPS: usize = 1 << 16;

/// Folding computes values of at most this many elements (a counter, a bound,
/// a small index vector): every allocation it makes is this small.
const SMALL: usize = 64;

/// Folding the loop evaluates at most this many expression nodes in all (an
/// unrolled loop may have at most 2^17 of them anyway).
pub const FUEL: usize = 1 << 20;

/// What the program knows of a value before it runs.
#[derive(Clone, Debug)]
pub enum Partial {
    Unknown,
    Known(Value),
    /// A tuple some of whose elements are known.
    Tuple(Vec<Partial>),
}

impl Partial {
    /// Element `k` of a tuple.
    pub fn item(&self, k: usize) -> Partial {
        match self {
            Partial::Known(Value::Tuple(items)) => items
                .get(k)
                .cloned()
                .map_or(Partial::Unknown, Partial::Known),
            Partial::Tuple(items) => items.get(k).cloned().unwrap_or(Partial::Unknown),
            _ => Partial::Unknown,
        }
    }

    fn known(&self) -> Option<Value> {
        match self {
            Partial::Known(v) => Some(v.clone()),
            Partial::Tuple(items) => Some(Value::Tuple(
                items
                    .iter()
                    .map(Partial::known)
                    .collect::<Option<Vec<_>>>()?
                    .into(),
            )),
            Partial::Unknown => None,
        }
    }

    /// The value of a known `pred` scalar.
    fn truth(&self) -> Option<bool> {
        match self.known()? {
            Value::Array(Array::Pred(p)) if p.len() == 1 => p.iter().next().copied(),
            _ => None,
        }
    }
}

/// A constant of the program, kept when it is small.
pub fn constant(v: &Value) -> Partial {
    if small_value(v) {
        Partial::Known(v.clone())
    } else {
        Partial::Unknown
    }
}

fn small_value(v: &Value) -> bool {
    match v {
        Value::Array(a) => a.len() <= SMALL,
        Value::Tuple(items) => items.len() <= SMALL && items.iter().all(small_value),
    }
}

fn small(ty: &Type) -> bool {
    ty.as_array()
        .and_then(|a| a.num_elements())
        .is_some_and(|n| n <= SMALL)
}

/// Folding never calls a computation (calls are folded by `call`).
struct NoCalls;

impl EvalCx for NoCalls {
    fn call_comp(&self, _: &Comp, _: &[Value]) -> Result<Value, KernelError> {
        Err(KernelError::new("internal", "folding calls no computation"))
    }
}

/// Whether folding may run this op: it is a function of its operands alone
/// (no draw, no feed, no collective) and cheap on small values.
fn foldable(id: OpId, kernel: &dyn Kernel) -> bool {
    kernel.as_elementwise().is_some()
        || matches!(
            id,
            OpId::Select
                | OpId::Reshape
                | OpId::Broadcast
                | OpId::BroadcastInDim
                | OpId::ConvertElementType
                | OpId::Clamp
        )
}

/// The partial value of op `id` (result type `ty`) on partial operands.
pub fn apply(id: OpId, kernel: &dyn Kernel, ty: &Type, args: &[Partial]) -> Partial {
    if id == OpId::Tuple {
        return Partial::Tuple(args.to_vec());
    }
    if let Some(k) = kernel.tuple_index() {
        return args.first().map_or(Partial::Unknown, |a| a.item(k));
    }
    // A known scalar pred picks one operand whole, known or not.
    if id == OpId::Select
        && let (Some(p), [_, a, b]) = (args.first().and_then(Partial::truth), args)
    {
        let scalar_pred =
            matches!(args.first(), Some(Partial::Known(Value::Array(x))) if x.dims().is_empty());
        if scalar_pred {
            return if p { a.clone() } else { b.clone() };
        }
    }
    if !small(ty) || !foldable(id, kernel) {
        return Partial::Unknown;
    }
    let Some(vals) = args.iter().map(Partial::known).collect::<Option<Vec<_>>>() else {
        return Partial::Unknown;
    };
    kernel
        .run(&vals, &NoCalls)
        .map_or(Partial::Unknown, Partial::Known)
}

/// Folding `c(args)`: each binding in turn, then the result. `fuel` counts
/// the nodes evaluated; when it runs out everything is `Unknown`.
pub fn call(c: &Comp, args: Vec<Partial>, depth: usize, fuel: &mut usize) -> Partial {
    if depth > xlet_check::MAX_DEPTH {
        return Partial::Unknown;
    }
    let mut slots = vec![Partial::Unknown; c.slots.max(args.len())];
    for (slot, a) in slots.iter_mut().zip(args) {
        *slot = a;
    }
    for (slot, e) in &c.body {
        let v = expr(e, &slots, depth, fuel);
        if let Some(s) = slots.get_mut(*slot) {
            *s = v;
        }
    }
    expr(&c.result, &slots, depth, fuel)
}

fn expr(e: &Expr, slots: &[Partial], depth: usize, fuel: &mut usize) -> Partial {
    if *fuel == 0 || depth > xlet_check::MAX_DEPTH {
        return Partial::Unknown;
    }
    *fuel -= 1;
    let all = |args: &[Expr], fuel: &mut usize| -> Vec<Partial> {
        args.iter()
            .map(|a| expr(a, slots, depth + 1, fuel))
            .collect()
    };
    match &e.kind {
        ExprKind::Const(v) => constant(v),
        ExprKind::Global(_) => Partial::Unknown,
        ExprKind::Local(s) => slots.get(*s).cloned().unwrap_or(Partial::Unknown),
        ExprKind::Tuple(items) => Partial::Tuple(all(items, fuel)),
        ExprKind::CallComp { comp, args } => {
            let a = all(args, fuel);
            call(comp, a, depth + 1, fuel)
        }
        ExprKind::Op { id, kernel, args } => {
            let a = all(args, fuel);
            match kernel.called_comp() {
                Some(c) => call(c, a, depth + 1, fuel),
                None => apply(*id, kernel.as_ref(), &e.ty, &a),
            }
        }
    }
}

/// How many times the body runs from the partial state `init`, when every
/// condition along the way is known; else why not.
pub fn trip_count(cond: &Comp, body: &Comp, init: Partial) -> Result<usize, String> {
    let mut fuel = FUEL;
    let mut state = init;
    let mut trips = 0;
    loop {
        match call(cond, vec![state.clone()], 0, &mut fuel).truth() {
            Some(false) => return Ok(trips),
            Some(true) => {}
            None if fuel == 0 => {
                return Err(format!(
                    "after {trips} iterations, finding the trip count took more than {FUEL} steps"
                ));
            }
            None => {
                return Err(format!(
                    "the condition of iteration {} depends on values known only when the program runs",
                    trips + 1
                ));
            }
        }
        if trips >= MAX_TRIPS {
            return Err(format!("the loop runs more than {MAX_TRIPS} iterations"));
        }
        trips += 1;
        state = call(body, vec![state], 0, &mut fuel);
    }
}
