//! The checker: `ast::Program` → `ir::Program`, with every type, shape and
//! attribute validated before anything runs. It keeps going after an error in
//! one statement (names that failed are remembered, so they cause no second
//! error) and reports every error it found.

pub mod broadcast;
pub mod call;
pub mod comp_arg;
pub mod literal;
mod stmt;
pub mod table;
mod typed_literal;

use call::{ArgRef, CallCtx};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use typed_literal::{declared_mismatch, extent_overflow, non_float_leaf};
use xlet_core::diag::Diag;
use xlet_core::types::{ArrayType, ElemType, Type, fmt_dims};
use xlet_core::value::Value;
use xlet_ir::{self as ir, Comp};
use xlet_syntax::ast::{self, Expr, ExprKind, Span, TypeExpr, TypeExprKind, UnOp};
use xlet_syntax::names;

/// Limits that keep a program from asking for more than the machine has.
#[derive(Clone, Debug)]
pub struct Limits {
    /// The largest value, in bytes, any expression may produce.
    pub max_value_bytes: usize,
    /// How many replicas the program will run on (`--replicas`), when known:
    /// replica groups and ids are then checked before anything runs, else
    /// when the collective runs.
    pub replicas: Option<usize>,
    /// The libraries CustomCall may resolve its targets in (`--custom-call-lib`,
    /// `:lib`); empty unless the user named one.
    pub custom_call: xlet_custom_call::Libraries,
    /// The folder of the script being checked, when it is a file (`xlet run
    /// dir/f.xlet`): a relative LoadNpy path missing from the current
    /// directory but present there is pointed out (paths stay relative to
    /// the current directory).
    pub script_dir: Option<std::path::PathBuf>,
    /// How deep expressions (and calls through comps) may nest: `MAX_DEPTH`
    /// on a thread with the interpreter's full stack, less on a replica's
    /// smaller one (`depth_for_stack`).
    pub max_depth: usize,
    /// The operations a call may name: the ops crate's table, which the
    /// session hands down (the checker imports no op).
    pub ops: &'static table::OpTable,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_value_bytes: 4 << 30,
            replicas: None,
            custom_call: Default::default(),
            script_dir: None,
            max_depth: MAX_DEPTH,
            ops: &table::EMPTY,
        }
    }
}

pub use xlet_core::config::{FULL_STACK_BYTES, MAX_DEPTH};

/// The stack kept for everything that does not grow with expression nesting
/// (parsing, whose bracket nesting is bounded on its own, kernels, printing).
pub const STACK_RESERVE_BYTES: usize = 8 << 20;

/// The stack one level of nesting may take, at most, in checking, evaluating
/// and dropping an expression (measured by tests/replicas.rs, with a margin).
pub const STACK_PER_LEVEL_BYTES: usize = 64 << 10;

/// How deep expressions may nest on a thread with `stack` bytes of stack:
/// `MAX_DEPTH` on a full one, proportionally less on a smaller one.
pub fn depth_for_stack(stack: usize) -> usize {
    (stack.saturating_sub(STACK_RESERVE_BYTES) / STACK_PER_LEVEL_BYTES).clamp(1, MAX_DEPTH)
}

/// What earlier statements (or earlier REPL inputs) left for later ones to see.
#[derive(Clone, Debug, Default)]
pub struct TypeEnv {
    pub globals: HashMap<String, Type>,
    pub comps: HashMap<String, Arc<Comp>>,
}

/// Names in scope inside a `comp` body.
struct Local {
    names: HashMap<String, (usize, Type)>,
    next: usize,
}

pub struct Checker<'s> {
    pub src: &'s str,
    pub env: TypeEnv,
    pub limits: Limits,
    local: Option<Local>,
    /// Names whose definition failed: uses of them are not reported again.
    poisoned: HashSet<String>,
    /// How deeply nested the expression being checked is.
    depth: usize,
    /// The deepest evaluation nesting seen in the current comp body, counting the
    /// bodies of the comps it calls (each comp's `depth`).
    reach: usize,
    /// Expressions checked so far: every `BUDGET_EVERY`-th looks at the
    /// memory budget (checking allocates the typed program as it goes).
    nodes: usize,
    /// Untyped literals of the statement being checked that took a default
    /// element type (no context gave one), so an error can say where f32 came from.
    defaulted: Vec<(Span, ElemType)>,
    /// For generated gradient comps (by name): the id of the comp whose captured
    /// values they read (`ir::Comp::captures_of`).
    captures_of: HashMap<String, usize>,
    /// The `.npy` files a SaveNpy of this program writes (by the path as
    /// written) and their array types: a later LoadNpy of the same path takes
    /// its type from here, since the file is written only when the program
    /// runs (spec/ops/save_npy.md).
    pub files_written: HashMap<std::path::PathBuf, ArrayType>,
}

/// Why the depth limit is below `MAX_DEPTH`: only replicas run on smaller stacks.
fn replica_depth_note(max_depth: usize) -> String {
    format!(
        "with this many replicas each runs on a smaller stack, which allows {max_depth} levels instead of {MAX_DEPTH} (spec/distributed.md §1); fewer replicas allow more"
    )
}

/// The code of the error a use of a poisoned name raises: it fails the statement
/// but is not shown, since the failed definition was already reported.
const POISONED: &str = "poisoned";

static NEXT_COMP_ID: AtomicUsize = AtomicUsize::new(0);

impl<'s> Checker<'s> {
    /// The (silent) error of a use of `name` when its definition failed: the
    /// definition's own error says it all. Ops that take a name themselves
    /// (Grad's `f`) ask this before saying the name is not what they need.
    pub fn poisoned_use(&self, name: &str, span: &Span) -> Option<Diag> {
        self.poisoned.contains(name).then(|| {
            Diag::check(
                POISONED,
                format!("`{name}` has no value because its definition failed"),
                span.clone(),
            )
        })
    }

    /// A checker at top level of `src`, starting from `env`.
    fn new(src: &'s str, env: &TypeEnv, limits: &Limits) -> Self {
        Checker {
            src,
            env: env.clone(),
            limits: limits.clone(),
            local: None,
            poisoned: HashSet::new(),
            depth: 0,
            reach: 0,
            nodes: 0,
            defaulted: vec![],
            captures_of: HashMap::new(),
            files_written: HashMap::new(),
        }
    }

    /// Whether the expression being checked is inside a computation's body.
    pub fn in_comp(&self) -> bool {
        self.local.is_some()
    }
}

/// How many expressions the checker checks between looks at the memory budget.
const BUDGET_EVERY: usize = 64;

/// The checker's memory (the typed program, the types it makes) is part of the
/// process heap that `--max-memory` bounds: checking stops with a `memory`
/// error once the heap is past the budget, instead of growing on until the
/// next value is admitted (spec/language.md §8.5).
fn within_budget(span: &Span) -> Result<(), Diag> {
    let (live, budget) = (xlet_core::alloc::live_bytes(), xlet_core::alloc::budget());
    if live <= budget {
        return Ok(());
    }
    Err(Diag::check(
        "memory",
        format!(
            "out of memory budget while checking: {} are live, the budget is {} (--max-memory)",
            xlet_core::alloc::show_bytes(live),
            xlet_core::alloc::show_bytes(budget)
        ),
        span.clone(),
    )
    .with_label("the program is checked up to here")
    .with_help("raise --max-memory, or split the program"))
}

/// Checks a whole program against an environment; returns the checked program and the
/// environment after it, or every error found. Each statement's tree is dropped
/// once it is checked, so the tree and the checked program are never both whole
/// in memory (a statement-heavy program has millions of nodes).
pub fn check_program(
    prog: ast::Program,
    env: &TypeEnv,
    src: &str,
    limits: &Limits,
) -> Result<(ir::Program, TypeEnv), Vec<Diag>> {
    let mut ck = Checker::new(src, env, limits);
    let prog = check_stmts(&mut ck, prog)?;
    Ok((prog, ck.env))
}

/// `check_program` on the environment itself instead of a copy (the REPL
/// checks each input against the whole session: a copy per input made a
/// session of n bindings cost n per input). `env` is left as the statements
/// left it, also when they failed (or panicked): then it may hold some of the
/// program's own bindings and lack names whose new definition failed, which
/// the caller restores from what it saved of the names the program binds.
pub fn check_program_in(
    prog: ast::Program,
    env: &mut TypeEnv,
    src: &str,
    limits: &Limits,
) -> Result<ir::Program, Vec<Diag>> {
    let mut ck = Checker::new(src, &TypeEnv::default(), limits);
    ck.env = std::mem::take(env);
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check_stmts(&mut ck, prog)));
    *env = std::mem::take(&mut ck.env);
    r.unwrap_or_else(|p| std::panic::resume_unwind(p))
}

fn check_stmts(ck: &mut Checker, prog: ast::Program) -> Result<ir::Program, Vec<Diag>> {
    let mut errors = vec![];
    let count = prog.stmts.len();
    let mut stmts = Vec::with_capacity(count);
    for s in prog.stmts {
        // Ctrl-C between statements, as the evaluator looks between ops.
        if xlet_core::config::interrupted() {
            return Err(vec![Diag::check(
                "interrupted",
                "interrupted",
                s.span.clone(),
            )]);
        }
        ck.defaulted.clear();
        if let Err(d) = within_budget(&s.span) {
            errors.push(d);
            break;
        }
        match ck.check_stmt(&s) {
            Ok(st) => stmts.push(st),
            Err(d) if d.code.is(&xlet_core::diag::Rule::Poisoned) => {}
            Err(d) => errors.push(ck.explain_defaults(d)),
        }
    }
    // Only uses of poisoned names failed: impossible without the failed
    // definition, but never let a program with errors pass silently.
    if errors.is_empty() && stmts.len() < count {
        errors.push(Diag::check(
            "name",
            "internal: a statement failed without an error",
            0..0,
        ));
    }
    if errors.is_empty() {
        Ok(ir::Program { stmts })
    } else {
        Err(errors)
    }
}

/// Checks a generated program (a gradient's comps, spec/grad.md §2) against
/// `env`; each comp named in `captures_of` reads the captured values of the
/// comp id given there. Returns the environment with the new comps.
pub fn check_generated(
    text: &str,
    env: &TypeEnv,
    limits: &Limits,
    captures_of: HashMap<String, usize>,
) -> Result<TypeEnv, Vec<Diag>> {
    let prog = xlet_syntax::parse(text)?;
    let mut ck = Checker::new(text, env, limits);
    ck.captures_of = captures_of;
    for s in &prog.stmts {
        within_budget(&s.span).map_err(|d| vec![d])?;
        ck.check_stmt(s).map_err(|d| vec![d])?;
    }
    Ok(ck.env)
}

/// Checks one expression without running it (the REPL's `:type`).
pub fn check_expr(e: &Expr, env: &TypeEnv, src: &str, limits: &Limits) -> Result<ir::Expr, Diag> {
    let mut ck = Checker::new(src, env, limits);
    ck.check_expr(e, None).map_err(|d| ck.explain_defaults(d))
}

impl<'s> Checker<'s> {
    /// Adds a note to a type error that involves a literal whose element type
    /// was a default: `1.5` in `Add(x_f64, Neg(1.5))` is f32 only by default.
    fn explain_defaults(&self, d: Diag) -> Diag {
        let inside = |s: &Span| {
            std::iter::once(&d.span)
                .chain(d.secondary.iter().map(|(sp, _)| sp))
                .any(|outer| outer.start <= s.start && s.end <= outer.end)
        };
        let mentions = |elem: ElemType| {
            let name = elem.name();
            std::iter::once(&d.message)
                .chain(std::iter::once(&d.label))
                .chain(d.secondary.iter().map(|(_, l)| l))
                .any(|text| {
                    text.split(|c: char| !c.is_ascii_alphanumeric())
                        .any(|w| w == name)
                })
        };
        let found = self
            .defaulted
            .iter()
            .find(|(s, elem)| inside(s) && mentions(*elem));
        match found {
            Some((s, elem)) => {
                let text = self.src.get(s.clone()).unwrap_or("the literal");
                let note = format!("`{text}` has no type from context, so it defaulted to {elem}");
                // The other element type the error names is likely the one meant.
                let meant = d
                    .message
                    .split(|c: char| !c.is_ascii_alphanumeric())
                    .filter_map(ElemType::parse)
                    .find(|t| t != elem)
                    .filter(|_| !text.starts_with('{'));
                match meant {
                    Some(t) => d.with_note(format!("{note}; write `{t} {text}` to give it a type")),
                    None => d.with_note(note),
                }
            }
            None => d,
        }
    }

    /// Resolves a written type; dims are checked for size.
    pub fn resolve_type(&self, t: &TypeExpr) -> Result<Type, Diag> {
        match &t.kind {
            TypeExprKind::Array { elem, dims } => {
                let dims = self.dims_from_u64(dims.as_deref().unwrap_or(&[]), &t.span)?;
                let ty = Type::array(*elem, dims);
                self.check_size(&ty, &t.span)?;
                Ok(ty)
            }
            TypeExprKind::Tuple(ts) => Ok(Type::Tuple(
                ts.iter()
                    .map(|t| self.resolve_type(t))
                    .collect::<Result<_, _>>()?,
            )),
        }
    }

    pub fn dims_from_u64(&self, dims: &[u64], span: &Span) -> Result<Vec<usize>, Diag> {
        dims.iter()
            .map(|&d| {
                usize::try_from(d).map_err(|_| {
                    Diag::check(
                        "size",
                        format!("dimension size {d} is too large"),
                        span.clone(),
                    )
                })
            })
            .collect()
    }

    /// Rejects values larger than the memory limit (checked arithmetic throughout).
    pub fn check_size(&self, ty: &Type, span: &Span) -> Result<(), Diag> {
        if let Some(a) = extent_overflow(ty) {
            let what = if a.dims.contains(&0) {
                "has no elements, but its nonzero sizes multiply to".to_string()
            } else {
                "would have".to_string()
            };
            let elems = a
                .dims
                .iter()
                .fold(1u128, |acc, &d| acc.saturating_mul(d.max(1) as u128));
            return Err(Diag::check(
                "size",
                format!(
                    "{a} {what} {elems} elements of {} bytes ({} bytes), beyond the address range of {} bytes",
                    a.elem.byte_size(),
                    typed_literal::extent_bytes(a),
                    isize::MAX
                ),
                span.clone(),
            )
            .with_label("too large to address")
            .with_note("a shape's nonzero sizes must multiply to an addressable size even when another size is 0 (spec/language.md §8.3)"));
        }
        match ty.byte_size() {
            Some(b) if b <= self.limits.max_value_bytes => Ok(()),
            Some(b) => Err(Diag::check(
                "size",
                format!(
                    "{ty} would take {} bytes, more than the limit of {} bytes",
                    b, self.limits.max_value_bytes
                ),
                span.clone(),
            )
            .with_label("too large")
            .with_help("raise the limit with --max-bytes if the machine has the memory")),
            None => Err(Diag::check(
                "size",
                format!(
                    "{ty} would take more than 2^64 bytes, more than the limit of {} bytes",
                    self.limits.max_value_bytes
                ),
                span.clone(),
            )
            .with_label("too large")),
        }
    }

    /// Checks an expression where a value of type `want` is expected: untyped literals
    /// take their element types from it, through tuples too. The caller compares types.
    pub fn check_as(&mut self, e: &Expr, want: &Type) -> Result<ir::Expr, Diag> {
        match (want, &e.kind) {
            (Type::Tuple(ts), ExprKind::Tuple(items)) if ts.len() == items.len() => {
                let items = items
                    .iter()
                    .zip(ts)
                    .map(|(i, t)| self.check_as(i, t))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(ir::Expr {
                    ty: Type::Tuple(items.iter().map(|i| i.ty.clone()).collect()),
                    kind: ir::ExprKind::Tuple(items),
                    span: e.span.clone(),
                })
            }
            _ => self.check_expr(e, elem_of(want)),
        }
    }

    /// Checks an expression. `hint` is the element type an untyped literal should take.
    pub fn check_expr(&mut self, e: &Expr, hint: Option<ElemType>) -> Result<ir::Expr, Diag> {
        let max_depth = self.limits.max_depth;
        if self.depth >= max_depth {
            let mut d = Diag::check(
                "size",
                format!("expression nested more than {max_depth} levels deep"),
                e.span.clone(),
            )
            .with_help("bind parts of it with `let`");
            if max_depth < MAX_DEPTH {
                d = d.with_note(replica_depth_note(max_depth));
            }
            return Err(d);
        }
        self.nodes = self.nodes.wrapping_add(1);
        if self.nodes.is_multiple_of(BUDGET_EVERY) {
            within_budget(&e.span)?;
        }
        self.depth += 1;
        self.reach = self.reach.max(self.depth);
        let out = self.check_expr_inner(e, hint);
        self.depth -= 1;
        let out = out?;
        self.check_size(&out.ty, &e.span)?;
        Ok(out)
    }

    fn check_expr_inner(&mut self, e: &Expr, hint: Option<ElemType>) -> Result<ir::Expr, Diag> {
        let span = e.span.clone();
        match &e.kind {
            ExprKind::Number(_) | ExprKind::Bool(_) | ExprKind::Brace(_) | ExprKind::Numbers(_) => {
                self.literal(e, hint, None)
            }
            ExprKind::Unary {
                op: UnOp::Neg,
                operand,
            } if matches!(operand.kind, ExprKind::Number(_)) => self.literal(e, hint, None),
            ExprKind::Typed { ty, value } => self.typed_literal(ty, value, span),
            // The docs name variables `pred`; a bare element-type name is a variable when bound.
            ExprKind::Type(TypeExpr {
                kind: TypeExprKind::Array { elem, dims: None },
                ..
            }) if self.is_bound(self.src.get(span.clone()).unwrap_or(""))
                || self.is_bound(elem.name()) =>
            {
                let written = self.src.get(span.clone()).unwrap_or("");
                let name = if self.is_bound(written) {
                    written
                } else {
                    elem.name()
                };
                self.var(name, span)
            }
            ExprKind::Type(t) => Err(Diag::check(
                "type",
                "a type is not a value here",
                t.span.clone(),
            )
            .with_label("a type")
            .with_help("to write a value of this type, follow it with the value: f32[2] {1, 2}")),
            ExprKind::Str(_) => Err(Diag::check("type", "a string is not a value here", span)),
            ExprKind::Var(name) => self.var(name, span),
            ExprKind::Tuple(items) => {
                let items = items
                    .iter()
                    .map(|i| self.check_expr(i, None))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(ir::Expr {
                    ty: Type::Tuple(items.iter().map(|i| i.ty.clone()).collect()),
                    kind: ir::ExprKind::Tuple(items),
                    span,
                })
            }
            ExprKind::Unary { op, operand } => {
                let op_def = lookup_builtin(self.limits.ops, op.op_name())?;
                let args = vec![ArgRef {
                    name: None,
                    expr: operand.as_ref(),
                }];
                self.call_op(op_def, span.clone(), span, args)
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let op_def = lookup_builtin(self.limits.ops, op.op_name())?;
                let args = vec![
                    ArgRef {
                        name: None,
                        expr: lhs.as_ref(),
                    },
                    ArgRef {
                        name: None,
                        expr: rhs.as_ref(),
                    },
                ];
                self.call_op(op_def, span.clone(), span, args)
            }
            ExprKind::Call { callee, args } => {
                let argrefs: Vec<ArgRef> = args
                    .iter()
                    .map(|a| ArgRef {
                        name: a.name.as_ref(),
                        expr: &a.value,
                    })
                    .collect();
                if let Some(comp) = self.env.comps.get(&callee.name).cloned() {
                    return self.call_comp(&comp, &argrefs, span);
                }
                if let Some(op) = self.limits.ops.lookup(&callee.name) {
                    return self.call_op(op, span, callee.span.clone(), argrefs);
                }
                if self.poisoned.contains(&callee.name) {
                    return Err(Diag::check(
                        POISONED,
                        format!("`{}` failed to check", callee.name),
                        callee.span.clone(),
                    ));
                }
                Err(unknown_op(self.limits.ops, &callee.name, &callee.span))
            }
        }
    }

    pub fn call_op(
        &mut self,
        op: &'static table::OpDef,
        span: Span,
        callee_span: Span,
        args: Vec<ArgRef>,
    ) -> Result<ir::Expr, Diag> {
        let mut cx = CallCtx::new(self, op, span.clone(), callee_span, args);
        cx.check_keywords()?;
        let checked = (op.rule)(&mut cx)?;
        let args = cx.finish()?;
        Ok(ir::Expr {
            kind: ir::ExprKind::Op {
                id: op.id,
                kernel: checked.kernel,
                args,
            },
            ty: checked.ty,
            span,
        })
    }

    /// `mycomp(a, b)`: arguments must have the parameters' types.
    pub fn call_comp(
        &mut self,
        comp: &Arc<Comp>,
        args: &[ArgRef],
        span: Span,
    ) -> Result<ir::Expr, Diag> {
        if args.len() != comp.params.len() || args.iter().any(|a| a.name.is_some()) {
            return Err(Diag::check(
                "call",
                format!(
                    "computation `{}` takes {} by position, {} given",
                    comp.name,
                    xlet_core::english::count(comp.params.len(), "argument"),
                    args.len()
                ),
                span,
            )
            .with_secondary(comp.span.clone(), "defined here"));
        }
        self.reach_through(comp, &span)?;
        let mut checked = vec![];
        for (a, (pname, pty)) in args.iter().zip(&comp.params) {
            let c = self.check_as(a.expr, pty)?;
            if &c.ty != pty {
                return Err(Diag::check(
                    "call",
                    format!(
                        "argument `{pname}` of `{}` must be {pty}, found {}",
                        comp.name, c.ty
                    ),
                    c.span.clone(),
                )
                .with_label(format!("{}", c.ty))
                .with_secondary(comp.span.clone(), "defined here"));
            }
            checked.push(c);
        }
        Ok(ir::Expr {
            ty: comp.ret.clone(),
            kind: ir::ExprKind::CallComp {
                comp: comp.clone(),
                args: checked,
            },
            span,
        })
    }

    /// Evaluating a call of `comp` here (directly or by an op) recurses through its
    /// body and its callees': the nesting here plus the comp's own depth is
    /// bounded like expression nesting, so a long chain of comps calling each
    /// other cannot overflow the stack (spec/language.md §8.4).
    pub fn reach_through(&mut self, comp: &Comp, span: &Span) -> Result<(), Diag> {
        let reach = self.depth.saturating_add(comp.depth);
        let max_depth = self.limits.max_depth;
        if reach > max_depth {
            let mut d = Diag::check(
                "size",
                format!(
                    "calling `{}` here nests evaluation {reach} levels deep (expressions inside the computations it calls, counted through every call), more than {max_depth}",
                    comp.name
                ),
                span.clone(),
            )
            .with_label("calls nest too deeply")
            .with_secondary(comp.span.clone(), "defined here")
            .with_help("shorten the chain of computations calling each other");
            if max_depth < MAX_DEPTH {
                d = d.with_note(replica_depth_note(max_depth));
            }
            return Err(d);
        }
        self.reach = self.reach.max(reach);
        Ok(())
    }

    fn is_bound(&self, name: &str) -> bool {
        self.local
            .as_ref()
            .is_some_and(|l| l.names.contains_key(name))
            || self.env.globals.contains_key(name)
    }

    fn var(&mut self, name: &str, span: Span) -> Result<ir::Expr, Diag> {
        if let Some(local) = &self.local
            && let Some((slot, ty)) = local.names.get(name)
        {
            return Ok(ir::Expr {
                kind: ir::ExprKind::Local(*slot),
                ty: ty.clone(),
                span,
            });
        }
        if let Some(ty) = self.env.globals.get(name) {
            return Ok(ir::Expr {
                kind: ir::ExprKind::Global(name.to_string()),
                ty: ty.clone(),
                span,
            });
        }
        if let Some(d) = self.poisoned_use(name, &span) {
            return Err(d);
        }
        if self.env.comps.contains_key(name) {
            return Err(Diag::check(
                "name",
                format!("`{name}` is a computation, not a value"),
                span,
            )
            .with_help(format!(
                "call it as {name}(...) or pass it to an op that takes a computation"
            )));
        }
        let mut d = Diag::check("name", format!("unknown name `{name}`"), span)
            .with_label("not bound by any let");
        let mut near: Vec<(usize, &String)> = self
            .env
            .globals
            .keys()
            .chain(self.local.iter().flat_map(|l| l.names.keys()))
            .map(|k| (names::edit_distance(name, k), k))
            .filter(|(dist, _)| *dist <= 2)
            .collect();
        near.sort();
        if let Some(word) = python_word(name) {
            d = d.with_help(word);
        } else if let Some((_, n)) = near.first() {
            d = d.with_help(format!("did you mean `{n}`?"));
        } else if self.limits.ops.lookup(name).is_some() {
            d = d.with_help(format!("`{name}` is an operation: call it as {name}(...)"));
        }
        Err(d)
    }
}

/// What xlet writes for a Python word used as a name (`True`), or for a dtype
/// used as a value (`int32`).
fn python_word(name: &str) -> Option<String> {
    match name {
        "True" | "False" => Some(format!(
            "booleans are written in lower case: `{}` (a pred scalar)",
            name.to_ascii_lowercase()
        )),
        _ => ElemType::from_foreign(name)
            .filter(|_| ElemType::parse(name).is_none())
            .map(|t| format!("xlet writes the element type `{name}` as `{t}`")),
    }
}

fn elem_of(t: &Type) -> Option<ElemType> {
    t.as_array().map(|a| a.elem)
}

/// A call of an op xlet does not have: one XLA has but xlet lacks yet, or a slip.
fn unknown_op(ops: &table::OpTable, name: &str, span: &Span) -> Diag {
    if let Some(xla) = names::not_yet(name) {
        return Diag::check(
            "name",
            format!("`{xla}` is an XLA operation that is not implemented in xlet yet"),
            span.clone(),
        )
        .with_label("not implemented yet")
        .with_help("`:help` in the REPL lists the operations xlet has");
    }
    let mut d = Diag::check("name", format!("unknown operation `{name}`"), span.clone())
        .with_label("no op or comp of this name");
    if let Some(how) = names::foreign(name) {
        return d.with_help(format!("`{name}` is not an XLA operation; {how}"));
    }
    let near = ops.similar(name);
    if !near.is_empty() {
        d = d.with_help(format!("did you mean {}?", near.join(", ")));
    }
    d
}

fn lookup_builtin(ops: &table::OpTable, name: &str) -> Result<&'static table::OpDef, Diag> {
    ops.lookup(name).ok_or_else(|| {
        Diag::check(
            "name",
            format!("internal: no op `{name}` in the registry"),
            0..0,
        )
    })
}
