//! The evaluator: runs a checked program over an environment of values.
//!
//! Statements run in order. A failed assertion is reported and the run goes
//! on (so one run shows every failing `then`); any other runtime error stops
//! it. Between ops the evaluator checks the interrupt flag, so Ctrl-C in the
//! REPL cancels a running evaluation without leaving the session.

pub mod assert;
pub mod comp;
pub mod fuse;

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};
use xlet_core::alloc;
use xlet_core::config::MAX_DEPTH;
use xlet_core::diag::Diag;
use xlet_core::span::Span;
use xlet_core::value::{Value, small};
use xlet_ir::{self as ir, Comp, EvalCx, ExprKind, KernelError};

/// Where Infeed reads and Outfeed writes: the session's feeds (the root
/// package's `feed::Feeds`, which reads infeed files through the parser and
/// the checker), handed down so that the evaluator knows none of that.
pub trait Feeds: Send + Sync + std::fmt::Debug + std::any::Any {
    /// The next value of the infeed queue, which must be of type `ty`.
    fn infeed(&self, ty: &xlet_core::types::Type) -> Result<Value, KernelError>;
    /// Writes an Outfeed value where the run sends them.
    fn outfeed(&self, value: &Value) -> Result<(), KernelError>;
    /// A copy with its own queue position (the REPL's undo keeps one).
    fn boxed_clone(&self) -> Box<dyn Feeds>;
    fn as_any(&self) -> &dyn std::any::Any;
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any;
}

/// A run with no feeds: Infeed and Outfeed fail with the `EvalCx` defaults.
#[derive(Clone, Debug, Default)]
pub struct NoFeeds;

impl Feeds for NoFeeds {
    fn infeed(&self, ty: &xlet_core::types::Type) -> Result<Value, KernelError> {
        Err(KernelError::new(
            "infeed",
            format!("Infeed wants {ty}, but this evaluation has no infeed queue"),
        ))
    }
    fn outfeed(&self, _: &Value) -> Result<(), KernelError> {
        Err(KernelError::new(
            "outfeed",
            "Outfeed: this evaluation has no outfeed",
        ))
    }
    fn boxed_clone(&self) -> Box<dyn Feeds> {
        Box::new(NoFeeds)
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
        self
    }
}

impl Clone for Box<dyn Feeds> {
    fn clone(&self) -> Self {
        self.boxed_clone()
    }
}

impl Default for Box<dyn Feeds> {
    fn default() -> Self {
        Box::new(NoFeeds)
    }
}

/// The values of top-level bindings and the runtime side of each `comp`.
#[derive(Clone, Debug, Default)]
pub struct Env {
    pub values: HashMap<String, Value>,
    /// For each comp id: the top-level values its body reads, as they were when
    /// it was defined. Only those: capturing every binding would keep each big
    /// value alive as long as any later comp exists.
    pub captures: HashMap<usize, Arc<HashMap<String, Value>>>,
    /// The seed (`--seed`) and how many Rng op evaluations the run has made.
    pub rng: xlet_kernels::rng::RngState,
    /// The infeed queue (`--infeed`) and where Outfeed writes (`--outfeed`).
    pub feeds: Box<dyn Feeds>,
    /// The run's settings (`--max-steps`, fusion), from the session.
    pub config: xlet_core::config::RunConfig,
    /// Which replica this run is, of how many, and the hub the replicas meet
    /// at (`--replicas`; one replica by default).
    pub replica: xlet_ir::replica::Replica,
    /// Told of the values bound inside comps (`xlet run --trace` on a module).
    pub tracer: Option<Arc<dyn Tracer>>,
}

/// Watches the values a comp's body binds, as the evaluator makes them (the
/// top level's are in `Env::values`). Only comps the evaluator runs are seen:
/// a While's execution plan, a vectorised comp and a recognised monoid run
/// without it, so a tracing session turns plans off.
pub trait Tracer: Send + Sync + std::fmt::Debug {
    /// A call of `comp` begins; false leaves its bindings unreported.
    fn enter(&self, comp: &Comp) -> bool;
    /// The body's `let` at `span` (an offset in the text `comp` was read
    /// from) bound `name` to `value`.
    fn bound(&self, comp: &Comp, name: &str, span: &Span, value: &Value);
}

/// What running a program produced, beside its errors.
pub trait Output {
    /// A bare expression statement's value.
    fn print(&mut self, value: &Value, expr: &ir::Expr);
    /// Wall time of a statement (for `--profile`).
    fn timed(&mut self, _span: &Span, _elapsed: Duration) {}
}

/// Runs `prog` on `env`. Returns the diagnostics of failed assertions and of the
/// runtime error that stopped the run, if any; `env` holds every binding made.
pub fn run_program(prog: &ir::Program, env: &mut Env, out: &mut dyn Output) -> Vec<Diag> {
    let mut failures = vec![];
    for stmt in &prog.stmts {
        let start = Instant::now();
        let result = run_stmt(stmt, env, out);
        out.timed(&stmt.span, start.elapsed());
        match result {
            Ok(()) => {}
            Err(Stop::Assertion(d)) => failures.push(d),
            Err(Stop::Error(d)) => {
                failures.push(d);
                break;
            }
        }
    }
    failures
}

enum Stop {
    Assertion(Diag),
    Error(Diag),
}

fn run_stmt(stmt: &ir::Stmt, env: &mut Env, out: &mut dyn Output) -> Result<(), Stop> {
    match &stmt.kind {
        ir::StmtKind::Let { name, expr } => {
            let v = eval_top(expr, env).map_err(Stop::Error)?;
            env.values.insert(name.clone(), v);
        }
        ir::StmtKind::Comp(c) => {
            let mut names = HashSet::new();
            globals_read(c, &mut names);
            let seen = names
                .into_iter()
                .filter_map(|n| env.values.get(n).map(|v| (n.to_string(), v.clone())))
                .collect();
            env.captures.insert(c.id, Arc::new(seen));
        }
        ir::StmtKind::Print(expr) => {
            let v = eval_top(expr, env).map_err(Stop::Error)?;
            out.print(&v, expr);
        }
        ir::StmtKind::Assert(a) => {
            assert::check(a, stmt, env).map_err(|e| match e {
                assert::Failure::Failed(d) => Stop::Assertion(d),
                assert::Failure::Error(d) => Stop::Error(d),
            })?;
        }
    }
    Ok(())
}

/// The top-level names a comp's body reads (calls of other comps read through
/// those comps' own captures).
fn globals_read<'c>(c: &'c Comp, out: &mut HashSet<&'c str>) {
    fn walk<'c>(e: &'c ir::Expr, out: &mut HashSet<&'c str>) {
        match &e.kind {
            ExprKind::Global(n) => {
                out.insert(n);
            }
            ExprKind::Const(_) | ExprKind::Local(_) => {}
            ExprKind::Op { args, .. } | ExprKind::CallComp { args, .. } => {
                args.iter().for_each(|a| walk(a, out))
            }
            ExprKind::Tuple(items) => items.iter().for_each(|a| walk(a, out)),
        }
    }
    c.body.iter().for_each(|(_, e)| walk(e, out));
    walk(&c.result, out);
}

/// Evaluates an expression at top level (globals from `env`).
pub fn eval_top(e: &ir::Expr, env: &Env) -> Result<Value, Diag> {
    let frame = Frame {
        env,
        globals: &env.values,
        locals: RefCell::new(vec![]),
        calls: 0,
    };
    frame.eval(e)
}

/// Calls `comp` on `args` outside any op: the generic path that tests hold the
/// fast paths of comp-taking ops against.
pub fn call_comp(comp: &Comp, args: &[Value], env: &Env) -> Result<Value, KernelError> {
    let frame = Frame {
        env,
        globals: &env.values,
        locals: RefCell::new(vec![]),
        calls: 0,
    };
    frame.call_comp(comp, args)
}

/// One activation: the globals it reads and its local slots.
struct Frame<'e> {
    env: &'e Env,
    globals: &'e HashMap<String, Value>,
    /// Each slot's value and how many reads of it are still to come: the last
    /// read moves the value out (`Comp::reads`), so that an op given it holds
    /// the only reference when nothing else does.
    locals: RefCell<Vec<(Option<Value>, u32)>>,
    /// How many comp calls enclose this frame. The checker bounds it statically
    /// (`Comp::depth`); this guards calls made by kernels as well.
    calls: usize,
}

impl Frame<'_> {
    fn eval(&self, e: &ir::Expr) -> Result<Value, Diag> {
        match &e.kind {
            ExprKind::Const(v) => Ok(v.clone()),
            ExprKind::Global(name) => self.globals.get(name).cloned().ok_or_else(|| {
                Diag::runtime(
                    "name",
                    format!("`{name}` has no value (its statement did not run)"),
                    e.span.clone(),
                )
            }),
            ExprKind::Local(slot) => {
                let mut locals = self.locals.borrow_mut();
                let value = locals.get_mut(*slot).and_then(|(v, left)| {
                    *left = left.saturating_sub(1);
                    if *left == 0 { v.take() } else { v.clone() }
                });
                value.ok_or_else(|| {
                    Diag::runtime("internal", "internal error: unset local", e.span.clone())
                })
            }
            ExprKind::Tuple(items) => Ok(Value::tuple(
                items
                    .iter()
                    .map(|i| self.eval(i))
                    .collect::<Result<_, _>>()?,
            )),
            ExprKind::Op { kernel, args, .. } => {
                // A fusable elementwise tree evaluates its leaves; any other op its arguments.
                let plan = kernel
                    .as_elementwise()
                    .filter(|_| self.env.config.fuse)
                    .and_then(|k| fuse::plan(k, args));
                let vals: Result<Vec<Value>, Diag> = match &plan {
                    Some(p) => p.leaves.iter().map(|(l, _)| self.eval(l)).collect(),
                    None => args.iter().map(|a| self.eval(a)).collect(),
                };
                let vals = vals?;
                if xlet_core::config::interrupted() {
                    return Err(Diag::runtime("interrupted", "interrupted", e.span.clone()));
                }
                // The result must fit under the memory budget before it is made.
                if plan.is_some() || kernel.allocates() {
                    let bytes = e.ty.byte_size().unwrap_or(usize::MAX);
                    alloc::admit(bytes, &e.ty).map_err(|k| k.at(e.span.clone()))?;
                }
                let out = match &plan {
                    Some(p) => fuse::run(p, &vals).map(Value::Array),
                    None => kernel.run_owned(vals, self),
                };
                // Kernels that move a small type's elements return them as
                // bytes; the checked type says which type they are.
                out.map(|v| small::retag_value(v, &e.ty))
                    .map_err(|k| k.at(e.span.clone()))
            }
            ExprKind::CallComp { comp, args } => {
                let vals = args
                    .iter()
                    .map(|a| self.eval(a))
                    .collect::<Result<Vec<_>, _>>()?;
                self.call_comp(comp, &vals)
                    .map_err(|k| k.at(e.span.clone()))
            }
        }
    }
}

impl EvalCx for Frame<'_> {
    fn rng_stream(&self) -> xlet_kernels::rng::Stream {
        self.env.rng.next_stream()
    }

    fn infeed(&self, ty: &xlet_core::types::Type) -> Result<Value, KernelError> {
        self.env.feeds.infeed(ty)
    }

    fn outfeed(&self, value: &Value) -> Result<(), KernelError> {
        self.env.feeds.outfeed(value)
    }

    fn replica(&self) -> xlet_ir::replica::Replica {
        self.env.replica.clone()
    }

    fn max_steps(&self) -> u64 {
        self.env.config.max_steps
    }

    fn plan(&self) -> bool {
        self.env.config.plan
    }

    /// As `call_comp_owned` finds a comp's globals: its captures, else this frame's.
    fn global(&self, comp: &Comp, name: &str) -> Option<Value> {
        let globals = self
            .env
            .captures
            .get(&comp.captures_of)
            .map(|g| g.as_ref())
            .unwrap_or(self.globals);
        globals.get(name).cloned()
    }

    fn call_comp(&self, comp: &Comp, args: &[Value]) -> Result<Value, KernelError> {
        self.call_comp_owned(comp, args.to_vec())
    }

    fn call_comp_owned(&self, comp: &Comp, args: Vec<Value>) -> Result<Value, KernelError> {
        if self.calls >= MAX_DEPTH {
            return Err(KernelError::new(
                "size",
                format!("computation calls nested more than {MAX_DEPTH} deep"),
            ));
        }
        let globals = self
            .env
            .captures
            .get(&comp.captures_of)
            .map(|g| g.as_ref())
            .unwrap_or(self.globals);
        let mut slots: Vec<(Option<Value>, u32)> = comp.reads.iter().map(|&r| (None, r)).collect();
        slots.resize(comp.slots, (None, 0));
        // A kernel passes a small type's elements as bytes (`value::small`).
        for ((slot, a), (_, ty)) in slots.iter_mut().zip(args).zip(&comp.params) {
            slot.0 = (slot.1 > 0).then(|| small::retag_value(a, ty));
        }
        let frame = Frame {
            env: self.env,
            globals,
            locals: RefCell::new(slots),
            calls: self.calls + 1,
        };
        let in_comp = |d: Diag| {
            KernelError::new(
                d.code,
                format!("in computation `{}`: {}", comp.name, d.message),
            )
        };
        let tracer = self.env.tracer.as_ref().filter(|t| t.enter(comp));
        for (slot, expr) in &comp.body {
            let v = frame.eval(expr).map_err(in_comp)?;
            if let Some(t) = tracer {
                let name = comp.names.get(*slot).map_or("", String::as_str);
                t.bound(comp, name, &expr.span, &v);
            }
            if let Some(s) = frame.locals.borrow_mut().get_mut(*slot) {
                // A binding nothing reads is dropped at once.
                s.0 = (s.1 > 0).then_some(v);
            }
        }
        frame.eval(&comp.result).map_err(in_comp)
    }
}
