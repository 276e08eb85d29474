//! Reverse-mode gradients, written as xlet source (spec/grad.md).
//!
//! `vjp_source` turns a checked `comp f` into the text of `comp f_vjp(params...,
//! ct) -> (result, (gradients...))`: the forward half is `f`'s body with every
//! op node named (each line the user's own text with its operands replaced by
//! names), the backward half one rule per active op, in reverse. The text is
//! then parsed and checked like any program, so what runs is what `:grad`
//! prints.

pub mod batch_norm;
pub mod control;
pub mod elementwise;
pub mod program;
pub mod reduce;
pub use xlet_ir::rule;
pub mod structural;
pub mod trip_count;
pub mod while_loop;

use rule::{NoRule, RuleCx, Var, Writer};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::Arc;
use xlet_core::OpId;
use xlet_core::span::Span;
use xlet_core::types::Type;
use xlet_ir::{Comp, Expr, ExprKind, Kernel};

/// Why a gradient cannot be generated: the message and the span (in the input
/// `f` came from) of the op at fault.
#[derive(Clone, Debug)]
pub struct GradError {
    pub message: String,
    pub span: Option<Span>,
}

impl GradError {
    fn at(message: impl Into<String>, span: &Span) -> Self {
        GradError {
            message: message.into(),
            span: Some(span.clone()),
        }
    }
}

/// A generated program: comps in definition order (callees first).
#[derive(Clone, Debug, Default)]
pub struct Generated {
    pub text: String,
    /// The name of the vjp comp of each differentiated comp, by comp id.
    pub vjp_names: HashMap<usize, String>,
    /// Each generated comp's name and whose captured values it reads.
    pub captures_of: HashMap<String, usize>,
    /// Helper comps written for rules (`rule::Env::helper`), by key.
    pub helpers: HashMap<String, String>,
    /// Nodes added by written-out loops so far, over the whole gradient (every
    /// loop of every comp): together they may add at most `UNROLLED_NODES`.
    pub unrolled: usize,
}

/// The `rule::Env` of one comp's backward pass.
struct RuleEnv<'g> {
    g: &'g mut Generated,
    taken: &'g dyn Fn(&str) -> bool,
    depth: usize,
}

impl rule::Env for RuleEnv<'_> {
    fn helper(&mut self, key: &str, base: &str, text: &dyn Fn(&str) -> String) -> String {
        if let Some(n) = self.g.helpers.get(key) {
            return n.clone();
        }
        let name = unique(base, self.g, self.taken);
        self.g.text.push_str(&text(&name));
        self.g.helpers.insert(key.to_string(), name.clone());
        name
    }

    fn vjp_of(&mut self, c: &Arc<Comp>) -> Result<String, NoRule> {
        vjp_source(c, None, self.g, self.taken, self.depth + 1).map_err(|e| NoRule(e.message))
    }
}

/// What a node of the linearised body is.
enum Kind {
    Param(usize),
    /// A literal or a top-level name: written inline, never differentiated.
    Leaf,
    Op {
        id: OpId,
        kernel: Arc<dyn Kernel>,
        args: Vec<usize>,
    },
    Call {
        comp: Arc<Comp>,
        args: Vec<usize>,
    },
    Tuple(Vec<usize>),
    /// `let b = a`: another name for a value.
    Alias([usize; 1]),
}

struct Node {
    /// The name it is bound to, or a leaf's text.
    text: String,
    ty: Type,
    kind: Kind,
    span: Span,
    /// Whether it depends on a parameter being differentiated (forward activity).
    fwd: bool,
    /// What the program knows of its value before it runs (a While's trip
    /// count is found from the initial state's, `trip_count`).
    known: trip_count::Partial,
}

impl Node {
    fn args(&self) -> &[usize] {
        match &self.kind {
            Kind::Op { args, .. } | Kind::Call { args, .. } | Kind::Tuple(args) => args,
            Kind::Alias(a) => a,
            _ => &[],
        }
    }
}

/// Whether a value of this type carries a gradient (float or complex
/// elements somewhere in it).
pub(crate) fn is_float(ty: &Type) -> bool {
    match ty {
        Type::Array(a) => rule::carries_gradient(a.elem),
        Type::Tuple(items) => items.iter().any(is_float),
    }
}

/// Writes the vjp comps of `f` (and of the comps it calls) into `g`; returns
/// the name of `f`'s. `taken` says which names the generated comps must not
/// use (existing comps and globals). Differentiates with respect to the float
/// parameters `wrt` marks (`None`: all of them; the comps `f` calls always
/// get all, since a call site may need any), and returns their gradients only.
/// The program being written may not outgrow the memory budget: a gradient's
/// text can grow exponentially with its order (`Grad` of a `Grad` of ...), so
/// the writer looks at the live total as it goes (spec/grad.md §6).
fn within_budget(f: &Comp) -> Result<(), GradError> {
    use xlet_core::alloc;
    if !alloc::over_budget() {
        return Ok(());
    }
    Err(GradError {
        message: format!(
            "the gradient of `{}` is too large to write within the memory budget \
             ({} are live, the budget is {} (--max-memory)); \
             raise --max-memory or differentiate a smaller computation",
            f.name,
            alloc::show_bytes(alloc::live_bytes()),
            alloc::show_bytes(alloc::budget())
        ),
        span: None,
    })
}

pub fn vjp_source(
    f: &Comp,
    wrt: Option<&[bool]>,
    g: &mut Generated,
    taken: &dyn Fn(&str) -> bool,
    depth: usize,
) -> Result<String, GradError> {
    if let Some(n) = g.vjp_names.get(&f.id) {
        return Ok(n.clone());
    }
    let wanted = |i: usize| {
        f.params.get(i).is_some_and(|(_, t)| is_float(t))
            && wrt.is_none_or(|w| w.get(i).copied().unwrap_or(false))
    };
    if depth > xlet_check::MAX_DEPTH {
        return Err(GradError {
            message: "computations call each other too deeply to differentiate".into(),
            span: None,
        });
    }
    if f.text.is_empty() {
        return Err(GradError {
            message: format!("`{}` has no source to differentiate", f.name),
            span: None,
        });
    }
    // Linearise the body.
    let mut lin = Lin {
        f,
        nodes: vec![],
        slots: HashMap::new(),
        w: Writer::new(f.names.iter().cloned()),
    };
    for (i, (_, ty)) in f.params.iter().enumerate() {
        let name = f.names.get(i).cloned().unwrap_or_default();
        lin.slots.insert(i, lin.nodes.len());
        lin.nodes.push(Node {
            text: name,
            ty: ty.clone(),
            kind: Kind::Param(i),
            span: f.span.clone(),
            fwd: wanted(i),
            known: trip_count::Partial::Unknown,
        });
    }
    for (slot, e) in &f.body {
        within_budget(f)?;
        let name = f.names.get(*slot).cloned().unwrap_or_default();
        let id = lin.node(e, Some(name), g, taken, depth)?;
        lin.slots.insert(*slot, id);
    }
    let result = lin.node(&f.result, None, g, taken, depth)?;
    let Lin { nodes, mut w, .. } = lin;
    let forward = std::mem::take(&mut w.lines);

    // Activity: forward (depends on a float parameter) and backward (the result
    // depends on it).
    let n = nodes.len();
    let fwd: Vec<bool> = nodes.iter().map(|node| node.fwd).collect();
    let mut needed = vec![false; n];
    needed[result] = fwd[result];
    for i in (0..n).rev() {
        if needed[i] {
            for &a in nodes[i].args() {
                if fwd[a] {
                    needed[a] = true;
                }
            }
        }
    }

    // Backward.
    let ct_name = w.fresh("ct");
    let mut ct: Vec<Option<String>> = vec![None; n];
    ct[result] = Some(ct_name.clone());
    w.comment("backward");
    for i in (0..n).rev() {
        let node = &nodes[i];
        let (Some(c), true) = (ct[i].clone(), needed[i]) else {
            continue;
        };
        within_budget(f)?;
        let args = node.args().to_vec();
        let active: Vec<bool> = args.iter().map(|&a| needed[a]).collect();
        if !active.iter().any(|&a| a) {
            continue;
        }
        let vars: Vec<Var> = args
            .iter()
            .map(|&a| Var {
                name: nodes[a].text.clone(),
                ty: nodes[a].ty.clone(),
            })
            .collect();
        let out = Var {
            name: node.text.clone(),
            ty: node.ty.clone(),
        };
        let ctv = Var {
            name: c,
            ty: node.ty.clone(),
        };
        let grads = match &node.kind {
            Kind::Op { id, kernel, .. } => {
                let mut env = RuleEnv { g, taken, depth };
                let mut cx = RuleCx::new(*id, &vars, &active, &out, &ctv, &mut w, &mut env);
                let r = match kernel.as_elementwise() {
                    Some(k) => elementwise::rule(&mut cx, &k.maps),
                    None => kernel.vjp(&mut cx),
                };
                r.map_err(|NoRule(m)| GradError::at(m, &node.span))?;
                cx.grads
            }
            Kind::Call { comp, .. } => {
                let callee = g.vjp_names.get(&comp.id).cloned().unwrap_or_default();
                let names: Vec<&str> = vars.iter().map(|v| v.name.as_str()).collect();
                let r = w.bind("r", format!("{callee}({}, {})", names.join(", "), ctv.name));
                let mut grads = vec![None; args.len()];
                let mut k = 0;
                for (j, (_, pty)) in comp.params.iter().enumerate() {
                    if is_float(pty) {
                        if active[j] {
                            grads[j] = Some(w.bind(
                                "d",
                                format!("GetTupleElement(GetTupleElement({r}, 1), {k})"),
                            ));
                        }
                        k += 1;
                    }
                }
                grads
            }
            Kind::Alias(_) => vec![Some(ctv.name.clone())],
            Kind::Tuple(_) => structural::tuple(&active, &ctv.name, &mut w),
            Kind::Param(_) | Kind::Leaf => continue,
        };
        for (j, gr) in grads.into_iter().enumerate() {
            let (Some(gr), Some(&a)) = (gr, args.get(j)) else {
                continue;
            };
            ct[a] = Some(match ct[a].take() {
                None => gr,
                Some(prev) => w.bind("ct", rule::add_text(&prev, &gr, &nodes[a].ty)),
            });
        }
    }

    // The comp.
    let name = unique(&format!("{}_vjp", f.name), g, taken);
    let mut params: Vec<String> = f.params.iter().map(|(p, t)| format!("{p}: {t}")).collect();
    params.push(format!("{ct_name}: {}", f.ret));
    let mut grad_types = vec![];
    let mut grad_names = vec![];
    for (i, (_, t)) in f.params.iter().enumerate() {
        if !wanted(i) {
            continue;
        }
        grad_types.push(t.to_string());
        let node = f_param_node(&nodes, i);
        grad_names.push(match node.and_then(|p| ct[p].clone()) {
            Some(c) => c,
            None => rule::zeros(t),
        });
    }
    let grads_ty = if grad_types.len() == 1 {
        format!("({},)", grad_types[0])
    } else {
        format!("({})", grad_types.join(", "))
    };
    let grads_val = if grad_names.len() == 1 {
        format!("({},)", grad_names[0])
    } else {
        format!("({})", grad_names.join(", "))
    };
    let mut text = String::new();
    let _ = writeln!(
        text,
        "comp {name}({}) -> ({}, {grads_ty}) {{",
        params.join(", "),
        f.ret
    );
    let _ = writeln!(text, "  // forward: the body of `{}`", f.name);
    for l in forward.iter().chain(&w.lines) {
        let _ = writeln!(text, "{l}");
    }
    let _ = writeln!(text, "  ({}, {grads_val})", nodes[result].text);
    let _ = writeln!(text, "}}");
    g.text.push_str(&text);
    g.vjp_names.insert(f.id, name.clone());
    g.captures_of.insert(name.clone(), f.captures_of);
    Ok(name)
}

fn f_param_node(nodes: &[Node], i: usize) -> Option<usize> {
    nodes
        .iter()
        .position(|n| matches!(n.kind, Kind::Param(p) if p == i))
}

/// `base`, or `base2`, `base3`, ...: a comp name no one has.
pub(crate) fn unique(base: &str, g: &Generated, taken: &dyn Fn(&str) -> bool) -> String {
    let used = |n: &str| {
        taken(n) || g.vjp_names.values().any(|v| v == n) || g.helpers.values().any(|v| v == n)
    };
    if !used(base) {
        return base.to_string();
    }
    (2..)
        .map(|k| format!("{base}{k}"))
        .find(|n| !used(n))
        .unwrap_or_else(|| base.to_string())
}

/// Whether a literal's text names its type (`f32 2`, `f64[2] {1, 2}`).
fn starts_typed(text: &str) -> bool {
    let head: String = text
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    xlet_core::types::ElemType::parse(&head).is_some()
}

/// The linearisation of one comp body.
struct Lin<'f> {
    f: &'f Comp,
    nodes: Vec<Node>,
    slots: HashMap<usize, usize>,
    w: Writer,
}

/// Beyond this many nodes, calls are no longer inlined (each then recomputes
/// its callee's forward pass in the callee's vjp comp instead).
const INLINE_NODES: usize = 1 << 20;

/// The While loops written out for one gradient may add at most this many
/// nodes together (not each: twelve loops just under it would make a program
/// twelve times as large): the generated program is parsed and checked like a
/// user's, at about 3 KB per node, so 2^17 nodes cost about 0.4 GB and a
/// second or two. Loops past it are recorded and replayed instead.
const UNROLLED_NODES: usize = 1 << 17;

/// Whether `c` (or anything it calls) reads a top-level value: such a comp
/// reads its own captured values, which the caller's generated comp does not
/// see, so it is differentiated through its own vjp comp rather than inlined.
fn reads_globals(c: &Comp, seen: &mut std::collections::HashSet<usize>) -> bool {
    fn walk(e: &Expr, seen: &mut std::collections::HashSet<usize>) -> bool {
        match &e.kind {
            ExprKind::Global(_) => true,
            ExprKind::Const(_) | ExprKind::Local(_) => false,
            ExprKind::Op { kernel, args, .. } => {
                kernel.computations().iter().any(|c| reads_globals(c, seen))
                    || args.iter().any(|a| walk(a, seen))
            }
            ExprKind::CallComp { comp, args } => {
                reads_globals(comp, seen) || args.iter().any(|a| walk(a, seen))
            }
            ExprKind::Tuple(items) => items.iter().any(|a| walk(a, seen)),
        }
    }
    if !seen.insert(c.id) {
        return false;
    }
    c.body.iter().any(|(_, e)| walk(e, seen)) || walk(&c.result, seen)
}

impl<'f> Lin<'f> {
    /// `c(args)` written out in place: the callee's body linearised with its
    /// parameters bound to the argument nodes, so that the backward pass needs
    /// no second forward pass of the callee (a chain of n nested calls stays
    /// linear, not quadratic).
    fn inline(
        &mut self,
        c: &'f Comp,
        ids: &[usize],
        name: Option<String>,
        e: &Expr,
        g: &mut Generated,
        taken: &dyn Fn(&str) -> bool,
        depth: usize,
    ) -> Result<usize, GradError> {
        let outer_f = std::mem::replace(&mut self.f, c);
        let outer_slots = std::mem::take(&mut self.slots);
        for (i, &id) in ids.iter().enumerate() {
            self.slots.insert(i, id);
        }
        let mut run = || -> Result<usize, GradError> {
            for (slot, be) in &c.body {
                let local = c.names.get(*slot).map_or("v", |s| s.as_str());
                let n = self.w.fresh(&format!("{}_{local}", c.name));
                let id = self.node(be, Some(n), g, taken, depth + 1)?;
                self.slots.insert(*slot, id);
            }
            self.node(&c.result, None, g, taken, depth + 1)
        };
        let r = run();
        self.f = outer_f;
        self.slots = outer_slots;
        let r = r?;
        Ok(match name {
            Some(n) => {
                self.w.bind_named(&n, self.nodes[r].text.clone());
                self.push(n, e, Kind::Alias([r]))
            }
            None => r,
        })
    }

    /// The comp a call node calls, if it is to be written out in place.
    fn inlinable(&self, e: &'f Expr) -> Option<&'f Comp> {
        let c: &'f Comp = match &e.kind {
            ExprKind::CallComp { comp, .. } => comp,
            ExprKind::Op { kernel, .. } => kernel.called_comp()?,
            _ => return None,
        };
        let ok = !c.text.is_empty()
            && self.nodes.len() < INLINE_NODES
            && !reads_globals(c, &mut std::collections::HashSet::new());
        ok.then_some(c)
    }

    /// The node of `e` (a new one for an op, a call or a tuple), its line
    /// written; `name` is the user's `let` name when `e` is a binding's root.
    fn node(
        &mut self,
        e: &'f Expr,
        name: Option<String>,
        g: &mut Generated,
        taken: &dyn Fn(&str) -> bool,
        depth: usize,
    ) -> Result<usize, GradError> {
        let args: &[Expr] = match &e.kind {
            ExprKind::Local(slot) => {
                let id = *self.slots.get(slot).ok_or_else(|| {
                    GradError::at("internal: a local read before it is bound", &e.span)
                })?;
                return Ok(match name {
                    // `let b = a`: a new name for the same value.
                    Some(n) => {
                        self.w.bind_named(&n, self.nodes[id].text.clone());
                        self.push(n, e, Kind::Alias([id]))
                    }
                    None => id,
                });
            }
            ExprKind::Const(_) | ExprKind::Global(_) => {
                let text = match &e.kind {
                    ExprKind::Global(g) => g.clone(),
                    _ => self.text_of(&e.span)?.to_string(),
                };
                // An untyped literal (`2.0`) took its type from where it stood;
                // rules use it elsewhere, so it is bound with its type.
                let untyped = matches!(e.kind, ExprKind::Const(_)) && !starts_typed(&text);
                return Ok(match name {
                    Some(n) if untyped => {
                        self.w.lines.push(format!("  let {n}: {} = {text}", e.ty));
                        self.push(n, e, Kind::Leaf)
                    }
                    Some(n) => {
                        self.w.bind_named(&n, text);
                        self.push(n, e, Kind::Leaf)
                    }
                    None if untyped => {
                        let n = self.w.fresh("k");
                        self.w.lines.push(format!("  let {n}: {} = {text}", e.ty));
                        self.push(n, e, Kind::Leaf)
                    }
                    None => self.push(text, e, Kind::Leaf),
                });
            }
            ExprKind::Op { args, .. } | ExprKind::CallComp { args, .. } => args,
            ExprKind::Tuple(items) => items,
        };
        let mut ids = vec![];
        for a in args {
            ids.push(self.node(a, None, g, taken, depth)?);
        }
        if let ExprKind::Op { kernel, .. } = &e.kind
            && let Some(parts) = kernel.while_loop()
            && ids.iter().any(|&a| self.nodes[a].fwd)
            && is_float(&e.ty)
            && let Some(id) = self.unroll(parts, ids[0], name.clone(), e, g, taken, depth)?
        {
            return Ok(id);
        }
        if let Some(c) = self.inlinable(e) {
            if depth > xlet_check::MAX_DEPTH {
                return Err(GradError::at(
                    "calls nest too deeply to differentiate",
                    &e.span,
                ));
            }
            return self.inline(c, &ids, name, e, g, taken, depth);
        }
        // The user's text with each operand's text replaced by its node's.
        let mut pieces: Vec<(Span, String)> = vec![];
        for (a, &id) in args.iter().zip(&ids) {
            let node = &self.nodes[id];
            pieces.push((a.span.clone(), node.text.clone()));
        }
        let text = self.substitute(&e.span, &mut pieces)?;
        let kind = match &e.kind {
            ExprKind::Op { kernel, .. } if kernel.called_comp().is_some() => {
                let comp = kernel.called_comp().cloned().ok_or_else(|| {
                    GradError::at("internal: Call without its computation", &e.span)
                })?;
                if is_float(&e.ty) {
                    vjp_source(&comp, None, g, taken, depth + 1)?;
                }
                Kind::Call { comp, args: ids }
            }
            ExprKind::Op { id, kernel, .. } => Kind::Op {
                id: *id,
                kernel: kernel.clone(),
                args: ids,
            },
            ExprKind::CallComp { comp, .. } => {
                if is_float(&e.ty) {
                    vjp_source(comp, None, g, taken, depth + 1)?;
                }
                Kind::Call {
                    comp: comp.clone(),
                    args: ids,
                }
            }
            _ => Kind::Tuple(ids),
        };
        let n = match name {
            Some(n) => n,
            None => self.w.fresh("t"),
        };
        self.w.bind_named(&n, text);
        Ok(self.push(n, e, kind))
    }

    fn push(&mut self, text: String, e: &Expr, kind: Kind) -> usize {
        use trip_count::Partial;
        let of = |id: &usize| {
            self.nodes
                .get(*id)
                .map_or(Partial::Unknown, |n| n.known.clone())
        };
        let known = match (&kind, &e.kind) {
            (Kind::Leaf, ExprKind::Const(v)) => trip_count::constant(v),
            (Kind::Alias([a]), _) => of(a),
            (Kind::Tuple(ids), _) => Partial::Tuple(ids.iter().map(of).collect()),
            (Kind::Op { id, kernel, args }, _) => {
                let a: Vec<Partial> = args.iter().map(of).collect();
                trip_count::apply(*id, kernel.as_ref(), &e.ty, &a)
            }
            _ => Partial::Unknown,
        };
        let node = Node {
            text,
            ty: e.ty.clone(),
            kind,
            span: e.span.clone(),
            fwd: false,
            known,
        };
        let fwd = is_float(&node.ty)
            && !matches!(node.kind, Kind::Leaf)
            && node.args().iter().any(|&a| self.nodes[a].fwd);
        self.nodes.push(Node { fwd, ..node });
        self.nodes.len() - 1
    }

    /// A While whose state depends on a differentiated parameter and whose
    /// trip count the program fixes (`trip_count`), written out iteration by
    /// iteration: its body inlined (or called) once per trip. `None` (nothing
    /// written) when the trip count depends on data or the loop is too long to
    /// write out: the While's own rule then records and replays it
    /// (`while_loop`).
    #[allow(clippy::too_many_arguments)]
    fn unroll(
        &mut self,
        (cond, body): (&'f Arc<Comp>, &'f Arc<Comp>),
        init: usize,
        name: Option<String>,
        e: &'f Expr,
        g: &mut Generated,
        taken: &dyn Fn(&str) -> bool,
        depth: usize,
    ) -> Result<Option<usize>, GradError> {
        let room = UNROLLED_NODES.saturating_sub(g.unrolled);
        let trips = match trip_count::trip_count(cond, body, self.nodes[init].known.clone()) {
            Ok(t) if t.saturating_mul(body.body.len() + 1) <= room => t,
            _ => return Ok(None),
        };
        let first = self.nodes.len();
        let lines_at = self.w.lines.len();
        let inline =
            !body.text.is_empty() && !reads_globals(body, &mut std::collections::HashSet::new());
        if !inline && is_float(&e.ty) {
            vjp_source(body, None, g, taken, depth + 1)?;
        }
        let mut state = init;
        for t in 1..=trips {
            if self.nodes.len() - first > room || self.nodes.len() > INLINE_NODES {
                // Its calls made the loop too long after all: undo, and leave
                // it to the While's own rule.
                self.nodes.truncate(first);
                self.w.lines.truncate(lines_at);
                return Ok(None);
            }
            self.w
                .comment(&format!("While, iteration {t} of {trips}: `{}`", body.name));
            state = if inline {
                self.inline(body, &[state], None, e, g, taken, depth)?
            } else {
                let n = self.w.fresh("s");
                let text = format!("{}({})", body.name, self.nodes[state].text);
                self.w.bind_named(&n, text);
                self.push(
                    n,
                    e,
                    Kind::Call {
                        comp: body.clone(),
                        args: vec![state],
                    },
                )
            };
        }
        g.unrolled = g.unrolled.saturating_add(self.nodes.len() - first);
        Ok(Some(match name {
            Some(n) => {
                self.w.bind_named(&n, self.nodes[state].text.clone());
                self.push(n, e, Kind::Alias([state]))
            }
            None => state,
        }))
    }

    fn text_of(&self, span: &Span) -> Result<&str, GradError> {
        let f = self.f;
        span.start
            .checked_sub(f.text_at)
            .zip(span.end.checked_sub(f.text_at))
            .and_then(|(s, e)| f.text.get(s..e))
            .ok_or_else(|| GradError::at("internal: an op outside its computation's text", span))
    }

    /// The text of `span` with each piece's span replaced by its text.
    fn substitute(&self, span: &Span, pieces: &mut [(Span, String)]) -> Result<String, GradError> {
        pieces.sort_by_key(|(s, _)| s.start);
        let whole = self.text_of(span)?;
        let mut out = String::new();
        let mut at = span.start;
        for (s, t) in pieces.iter() {
            if s.start < at || s.end > span.end {
                return Err(GradError::at(
                    "internal: this op's operands cannot be written back as source",
                    span,
                ));
            }
            out.push_str(self.slice(whole, at - span.start, s.start - span.start, span)?);
            out.push_str(t);
            at = s.end;
        }
        out.push_str(self.slice(whole, at - span.start, whole.len(), span)?);
        Ok(out)
    }

    fn slice<'t>(&self, t: &'t str, a: usize, b: usize, span: &Span) -> Result<&'t str, GradError> {
        t.get(a..b)
            .ok_or_else(|| GradError::at("internal: a span inside a character", span))
    }
}
