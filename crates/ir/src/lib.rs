//! The checked program: every expression typed, every op resolved to a kernel
//! with its static attributes already validated. The evaluator runs this and
//! never sees the surface syntax.

pub mod movement;
pub mod replica;
pub mod rule;
#[doc(hidden)]
pub mod test_support;

use std::fmt;
use std::sync::Arc;
use xlet_core::OpId;
pub use xlet_core::error::KernelError;
use xlet_core::span::Span;
use xlet_core::types::Type;
use xlet_core::value::Value;
use xlet_kernels::fused::ElementwiseKernel;

#[derive(Clone, Debug, Default)]
pub struct Program {
    pub stmts: Vec<Stmt>,
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    Let {
        name: String,
        expr: Expr,
    },
    /// Makes computation `id` callable; captures the top-level bindings it reads.
    Comp(Arc<Comp>),
    Assert(Assert),
    Print(Expr),
}

#[derive(Clone, Debug)]
pub enum Assert {
    Equal {
        actual: Expr,
        expected: Expr,
    },
    /// `tol: None` is the default for each array's element type (spec/language.md).
    Close {
        actual: Expr,
        expected: Expr,
        tol: Option<f64>,
    },
    Holds(Expr),
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: Type,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Const(Value),
    /// A top-level binding.
    Global(String),
    /// A computation's parameter or local binding, by slot.
    Local(usize),
    Op {
        id: OpId,
        kernel: Arc<dyn Kernel>,
        args: Vec<Expr>,
    },
    /// Calling a user computation directly: `mycomp(x, y)` or `Call(mycomp, x, y)`.
    CallComp {
        comp: Arc<Comp>,
        args: Vec<Expr>,
    },
    Tuple(Vec<Expr>),
}

/// A checked `comp`: parameters occupy slots `0..params.len()`, its bindings the next slots.
#[derive(Clone, Debug)]
pub struct Comp {
    pub id: usize,
    pub name: String,
    pub params: Vec<(String, Type)>,
    pub ret: Type,
    pub body: Vec<(usize, Expr)>,
    pub result: Expr,
    pub slots: usize,
    pub span: Span,
    /// How deeply evaluating the body nests (expression levels, counting the
    /// bodies of the comps it calls); the checker bounds it by `check::MAX_DEPTH`.
    pub depth: usize,
    /// For each slot, how many times one call reads it (`local_reads`). The
    /// evaluator moves a value out of its slot at the last read, so an op that
    /// gets the only reference may update it in place.
    pub reads: Vec<u32>,
    /// The name of every slot: the parameters', then the `let`s' (what the
    /// gradient's generated source calls them).
    pub names: Vec<String>,
    /// The text of the definition as written, and its offset in the input it
    /// came from (body spans are offsets in that input): the gradient writes
    /// each forward op as the user wrote it. Empty for comps xlet made up.
    pub text: Arc<str>,
    pub text_at: usize,
    /// Whose captured top-level values the body reads (`Env::captures`): its own
    /// id, or for a generated gradient comp the id of the comp it differentiates,
    /// so that both see the values of the moment `f` was defined.
    pub captures_of: usize,
}

/// How many times evaluating `body` and `result` reads each of `slots` local
/// slots. A comp body has no control flow of its own (branches and loops are
/// ops that call other comps), so every `Local` node is read exactly once per call.
pub fn local_reads(slots: usize, body: &[(usize, Expr)], result: &Expr) -> Vec<u32> {
    fn walk(e: &Expr, reads: &mut [u32]) {
        match &e.kind {
            ExprKind::Local(s) => {
                if let Some(r) = reads.get_mut(*s) {
                    *r = r.saturating_add(1);
                }
            }
            ExprKind::Const(_) | ExprKind::Global(_) => {}
            ExprKind::Op { args, .. } | ExprKind::CallComp { args, .. } => {
                args.iter().for_each(|a| walk(a, reads))
            }
            ExprKind::Tuple(items) => items.iter().for_each(|a| walk(a, reads)),
        }
    }
    let mut reads = vec![0; slots];
    body.iter().for_each(|(_, e)| walk(e, &mut reads));
    walk(result, &mut reads);
    reads
}

impl Comp {
    /// `(a: f32[], b: f32[]) -> f32[]`.
    pub fn signature(&self) -> String {
        let ps: Vec<String> = self
            .params
            .iter()
            .map(|(n, t)| format!("{n}: {t}"))
            .collect();
        format!("({}) -> {}", ps.join(", "), self.ret)
    }
}

/// What a kernel may ask of the evaluator.
pub trait EvalCx {
    /// Runs a computation on argument values.
    fn call_comp(&self, comp: &Comp, args: &[Value]) -> Result<Value, KernelError>;
    /// Runs a computation on argument values it may consume: a While loop hands
    /// its state over, so the body holds the only reference to it.
    fn call_comp_owned(&self, comp: &Comp, args: Vec<Value>) -> Result<Value, KernelError> {
        self.call_comp(comp, &args)
    }
    /// The random stream for one evaluation of an Rng op: the run's seed and a
    /// draw number no earlier evaluation in the run got (`kernels::rng`). A
    /// context with no run behind it (kernel unit tests) gives the default seed's
    /// first draw every time.
    fn rng_stream(&self) -> xlet_kernels::rng::Stream {
        xlet_kernels::rng::Stream {
            seed: xlet_kernels::rng::DEFAULT_SEED,
            draw: 0,
        }
    }
    /// The next value of the run's infeed queue, which must be of type `ty`
    /// (`feed::Feeds::infeed`). A context with no run behind it has no queue.
    fn infeed(&self, ty: &xlet_core::types::Type) -> Result<Value, KernelError> {
        Err(KernelError::new(
            "infeed",
            format!("Infeed wants {ty}, but this evaluation has no infeed queue"),
        ))
    }
    /// Writes an Outfeed value where the run sends them (`feed::Feeds::outfeed`).
    fn outfeed(&self, _value: &Value) -> Result<(), KernelError> {
        Err(KernelError::new(
            "outfeed",
            "Outfeed: this evaluation has no outfeed",
        ))
    }
    /// The most iterations one While may run (`RunConfig::max_steps`).
    fn max_steps(&self) -> u64 {
        u64::MAX
    }
    /// Whether While loops may run through their execution plan
    /// (`RunConfig::plan`; `xlet_plan`), or only through the evaluator.
    fn plan(&self) -> bool {
        true
    }
    /// The top-level value `name` as `comp` sees it (its captures), for code
    /// that runs a comp without the evaluator. A context with no run behind it
    /// has none.
    fn global(&self, _comp: &Comp, _name: &str) -> Option<Value> {
        None
    }
    /// The replica this evaluation runs on (collectives, Send/Recv). A context
    /// with no run behind it is the only replica of its own hub.
    fn replica(&self) -> crate::replica::Replica {
        crate::replica::Replica::default()
    }
}

/// An op with its static attributes resolved. `run` gets operand values in the
/// order the op's checker pushed them; their types are the ones it checked.
pub trait Kernel: Send + Sync {
    fn run(&self, args: &[Value], cx: &dyn EvalCx) -> Result<Value, KernelError>;
    /// `run` on argument values the kernel may consume. The evaluator calls this:
    /// an argument that is the last read of a value nothing else holds arrives
    /// uniquely owned, and a kernel that can reuse its storage (DynamicUpdateSlice
    /// writing in place, GetTupleElement taking the element out) overrides it.
    fn run_owned(&self, args: Vec<Value>, cx: &dyn EvalCx) -> Result<Value, KernelError> {
        self.run(&args, cx)
    }
    /// Whether the result is freshly allocated memory (of the checked result
    /// type's size), which the evaluator admits under the memory budget before
    /// running the kernel. Views and pass-throughs say `false`.
    fn allocates(&self) -> bool {
        true
    }
    /// GetTupleElement says which element it reads (computations compiled into
    /// the fused engine follow it statically).
    fn tuple_index(&self) -> Option<usize> {
        None
    }
    /// `Call` says which comp it calls, so that a gradient treats it as a
    /// direct call (spec/grad.md §2).
    fn called_comp(&self) -> Option<&Arc<Comp>> {
        None
    }
    /// While says which condition and body it runs, so that a gradient can
    /// write out a loop whose trip count the program fixes (spec/grad.md §4.5).
    fn while_loop(&self) -> Option<(&Arc<Comp>, &Arc<Comp>)> {
        None
    }
    /// Every computation the op applies (Call's callee, Map's, Sort's
    /// comparator, Conditional's branches, While's condition and body, ...),
    /// so that a gradient sees which top-level values they read.
    fn computations(&self) -> Vec<Arc<Comp>> {
        self.called_comp().cloned().into_iter().collect()
    }
    /// Writes this op's backward step (spec/grad.md §4). Elementwise ops have
    /// theirs in `grad::elementwise`; an op without a rule says so (C5).
    fn vjp(&self, cx: &mut crate::rule::RuleCx) -> Result<(), crate::rule::NoRule> {
        Err(crate::rule::NoRule::missing(cx.op))
    }
    /// Structural ops (Reshape, BroadcastInDim, Transpose, Slice,
    /// Concatenate) say how they move elements, so that an execution plan can
    /// move them itself (spec/plan.md §1).
    fn movement(&self) -> Option<movement::Movement> {
        None
    }
    /// Reduce by a monoid comp it recognised, on one operand whose type has
    /// a native kernel: the monoid and the reduced dimensions (ascending), so
    /// that an execution plan can run the native kernel itself.
    fn monoid_reduction(&self) -> Option<(xlet_kernels::reduce::monoid::Monoid, &[usize])> {
        None
    }
    /// Elementwise kernels say so, so that the evaluator can fuse them.
    fn as_elementwise(&self) -> Option<&xlet_kernels::fused::ElementwiseKernel> {
        None
    }
}

impl fmt::Debug for dyn Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<kernel>")
    }
}

/// Every elementwise op's kernel: the evaluator runs it as it is, or fuses a
/// tree of them (`eval::fuse`).
impl Kernel for ElementwiseKernel {
    fn run(&self, args: &[Value], _cx: &dyn EvalCx) -> Result<Value, KernelError> {
        self.run_values(args)
    }
    fn as_elementwise(&self) -> Option<&ElementwiseKernel> {
        Some(self)
    }
}
