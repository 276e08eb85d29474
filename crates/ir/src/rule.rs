//! What a gradient rule sees and writes (spec/grad.md §4).
//!
//! A rule gets the names and types of its op's operands, of its result and of
//! the result's cotangent, and writes xlet source: one `let` line per step, and
//! for each active operand the name of the cotangent it sends back.

use xlet_core::OpId;
use xlet_core::types::{ArrayType, ElemType, Type, fmt_dims};

/// A named value of the generated program.
#[derive(Clone, Debug)]
pub struct Var {
    pub name: String,
    pub ty: Type,
}

/// Why an op cannot be differentiated (the checker's C5 message).
#[derive(Clone, Debug)]
pub struct NoRule(pub String);

impl NoRule {
    pub fn missing(op: impl std::fmt::Display) -> NoRule {
        NoRule(format!("{op} has no gradient rule in xlet yet"))
    }
}

/// Fresh names and the lines written so far.
#[derive(Debug)]
pub struct Writer {
    pub lines: Vec<String>,
    taken: std::collections::HashSet<String>,
    next: usize,
}

impl Writer {
    pub fn new(taken: impl IntoIterator<Item = String>) -> Writer {
        Writer {
            lines: vec![],
            taken: taken.into_iter().collect(),
            next: 0,
        }
    }

    /// A name no binding of the generated comp has: `PREFIX` then a number.
    pub fn fresh(&mut self, prefix: &str) -> String {
        loop {
            self.next += 1;
            let n = format!("{prefix}{}", self.next);
            if self.taken.insert(n.clone()) {
                return n;
            }
        }
    }

    /// Marks a name as used (a parameter's, a user's `let`).
    pub fn take(&mut self, name: &str) {
        self.taken.insert(name.to_string());
    }

    pub fn is_taken(&self, name: &str) -> bool {
        self.taken.contains(name)
    }

    /// `let NAME = TEXT`; returns NAME.
    pub fn bind(&mut self, prefix: &str, text: String) -> String {
        let n = self.fresh(prefix);
        self.lines.push(format!("  let {n} = {text}"));
        n
    }

    pub fn bind_named(&mut self, name: &str, text: String) {
        self.lines.push(format!("  let {name} = {text}"));
    }

    pub fn comment(&mut self, text: &str) {
        self.lines.push(format!("  // {text}"));
    }
}

/// What a rule can ask for beyond its own lines: helper comps (a comparator,
/// a branch wrapper) and the vjp comps of the computations its op calls.
pub trait Env {
    /// The comp `key` names (made on first use): `text(name)` is its whole
    /// source given the name it gets, `base` unless that is taken. It is
    /// written before the comp being generated, so that one may call it.
    fn helper(&mut self, key: &str, base: &str, text: &dyn Fn(&str) -> String) -> String;
    /// The name of `c`'s vjp comp (generated on first use): `c_vjp(params...,
    /// ct) -> (result, (gradients of the float parameters, in order))`.
    fn vjp_of(&mut self, c: &std::sync::Arc<crate::Comp>) -> Result<String, NoRule>;
}

/// One op's backward step.
pub struct RuleCx<'a> {
    pub op: OpId,
    pub args: &'a [Var],
    /// Which operands need a cotangent.
    pub active: &'a [bool],
    pub out: &'a Var,
    pub ct: &'a Var,
    pub w: &'a mut Writer,
    pub env: &'a mut dyn Env,
    /// The cotangent sent to each operand (a name), filled by the rule.
    pub grads: Vec<Option<String>>,
}

impl<'a> RuleCx<'a> {
    pub fn new(
        op: OpId,
        args: &'a [Var],
        active: &'a [bool],
        out: &'a Var,
        ct: &'a Var,
        w: &'a mut Writer,
        env: &'a mut dyn Env,
    ) -> Self {
        RuleCx {
            op,
            args,
            active,
            out,
            ct,
            w,
            env,
            grads: vec![None; args.len()],
        }
    }

    pub fn is_active(&self, i: usize) -> bool {
        self.active.get(i).copied().unwrap_or(false)
    }

    /// Binds `text` to a fresh name.
    pub fn bind(&mut self, text: String) -> String {
        self.w.bind("t", text)
    }

    /// Sends `text` (already of operand `i`'s type) back to operand `i`.
    pub fn send(&mut self, i: usize, text: String) {
        if self.is_active(i) {
            let n = self.w.bind("d", text);
            self.grads[i] = Some(n);
        }
    }

    pub fn arg(&self, i: usize) -> Result<&'a Var, NoRule> {
        self.args
            .get(i)
            .ok_or_else(|| NoRule(format!("internal: {} has no operand {i}", self.op)))
    }

    pub fn arg_array(&self, i: usize) -> Result<&'a ArrayType, NoRule> {
        array_of(&self.arg(i)?.ty, self.op.name())
    }

    pub fn out_array(&self) -> Result<&'a ArrayType, NoRule> {
        array_of(&self.out.ty, self.op.name())
    }
}

pub fn array_of<'t>(ty: &'t Type, op: &str) -> Result<&'t ArrayType, NoRule> {
    ty.as_array()
        .ok_or_else(|| NoRule(format!("{op}: tuple-valued operands have no rule yet")))
}

/// Whether values of this element type have cotangents: floats and complex
/// numbers (spec/grad.md §7; integers and pred carry none).
pub fn carries_gradient(elem: ElemType) -> bool {
    elem.is_float() || elem.is_complex()
}

/// `f32 0.5`: a typed scalar literal.
pub fn scalar(elem: ElemType, v: f64) -> String {
    if elem.is_pred() {
        format!("pred {}", v != 0.0)
    } else if elem.is_float() || elem.is_complex() {
        // A plain number in a complex literal is (v, 0).
        format!("{} {}", elem.name(), fmt_f64(v))
    } else {
        format!("{} {}", elem.name(), v as i64)
    }
}

/// Zeros of any type, tuples included.
pub fn zeros(ty: &Type) -> String {
    match ty {
        Type::Array(a) => filled(a, 0.0),
        Type::Tuple(items) => tuple_text(items.iter().map(zeros).collect()),
    }
}

/// `(a, b)`, `(a,)`, `()`.
pub fn tuple_text(items: Vec<String>) -> String {
    if items.len() == 1 {
        format!("({},)", items[0])
    } else {
        format!("({})", items.join(", "))
    }
}

/// The sum of two cotangents of type `ty` (elementwise through tuples; an
/// element that is neither float nor complex keeps the first, being no
/// cotangent at all).
pub fn add_text(a: &str, b: &str, ty: &Type) -> String {
    match ty {
        Type::Array(t) if carries_gradient(t.elem) => format!("Add({a}, {b})"),
        Type::Array(_) => a.to_string(),
        Type::Tuple(items) => tuple_text(
            items
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    add_text(
                        &format!("GetTupleElement({a}, {i})"),
                        &format!("GetTupleElement({b}, {i})"),
                        t,
                    )
                })
                .collect(),
        ),
    }
}

/// `{a, b}` of names.
pub fn brace_names(xs: &[&str]) -> String {
    format!("{{{}}}", xs.join(", "))
}

fn fmt_f64(v: f64) -> String {
    if v == v.trunc() && v.abs() < 1e15 {
        format!("{v:.1}")
    } else {
        format!("{v:?}")
    }
}

/// An array of `ty`'s shape filled with `v`.
pub fn filled(ty: &ArrayType, v: f64) -> String {
    if ty.dims.is_empty() {
        scalar(ty.elem, v)
    } else {
        format!("Broadcast({}, {})", scalar(ty.elem, v), brace(&ty.dims))
    }
}

/// `{1, 2}`.
pub fn brace(xs: &[usize]) -> String {
    let items: Vec<String> = xs.iter().map(|x| x.to_string()).collect();
    format!("{{{}}}", items.join(", "))
}

/// `f32[2x3]`.
pub fn type_text(ty: &ArrayType) -> String {
    format!("{}[{}]", ty.elem.name(), fmt_dims(&ty.dims))
}

/// `name` spread to `out`'s shape: `maps[d]` is the output dimension of the
/// operand's dimension `d` (XLA's broadcast_dimensions; a size-1 dimension may
/// stand for a larger one). The name itself when the shapes already agree.
pub fn spread(name: &str, from: &ArrayType, out: &ArrayType, maps: &[usize]) -> String {
    let identity = maps.iter().enumerate().all(|(d, &m)| d == m);
    if from.dims == out.dims && identity {
        return name.to_string();
    }
    format!(
        "BroadcastInDim({name}, {}, {})",
        brace(&out.dims),
        brace(maps)
    )
}

/// Seed 003's `sum_to`, in XLA's explicit terms: the cotangent `ct` of an
/// output of type `out`, summed to an operand of type `to` whose dimension `d`
/// became output dimension `maps[d]`. Output dimensions the operand lacks and
/// those where it has size 1 are summed (`Reduce`); the rest are put in the
/// operand's order (`Transpose`) and its size-1 dimensions restored (`Reshape`).
pub fn sum_to(w: &mut Writer, ct: &str, out: &ArrayType, to: &ArrayType, maps: &[usize]) -> String {
    let mut summed: Vec<usize> = (0..out.rank()).filter(|o| !maps.contains(o)).collect();
    for (d, &m) in maps.iter().enumerate() {
        if to.dims.get(d) == Some(&1) && out.dims.get(m) != Some(&1) {
            summed.push(m);
        }
    }
    summed.sort_unstable();
    let mut cur = ct.to_string();
    if !summed.is_empty() {
        cur = w.bind(
            "s",
            format!(
                "Reduce({cur}, {}, add, {})",
                scalar(out.elem, 0.0),
                brace(&summed)
            ),
        );
    }
    // The kept output dimensions, in output order, and the operand dimension each is.
    let kept: Vec<usize> = (0..out.rank()).filter(|o| !summed.contains(o)).collect();
    let mut from_operand: Vec<usize> = kept
        .iter()
        .filter_map(|o| maps.iter().position(|m| m == o))
        .collect();
    let sorted = {
        let mut s = from_operand.clone();
        s.sort_unstable();
        s
    };
    if from_operand != sorted {
        // perm[i] = position in `kept` of the i-th operand dimension (in operand order).
        let perm: Vec<usize> = sorted
            .iter()
            .filter_map(|d| from_operand.iter().position(|x| x == d))
            .collect();
        cur = w.bind("s", format!("Transpose({cur}, {})", brace(&perm)));
        from_operand = sorted;
    }
    if from_operand.len() != to.rank() {
        cur = w.bind("s", format!("Reshape({cur}, {})", brace(&to.dims)));
    }
    cur
}
