//! A session: the types and values of everything bound so far. The script
//! runner uses one for a whole file; the REPL keeps one across inputs and
//! commits an input's bindings only when the whole input succeeded.

use xlet_check::{Limits, TypeEnv, check_program};
use xlet_core::alloc;
use xlet_core::diag::{Diag, Stage};
use xlet_core::value::Value;
use xlet_eval::{Env, Output, run_program};
use xlet_ir as ir;
use xlet_syntax as syntax;

#[derive(Clone, Debug)]
pub struct Session {
    pub types: TypeEnv,
    pub env: Env,
    pub limits: Limits,
    /// The comps the last successful `run` defined (the REPL keeps their text).
    pub last_comps: Vec<String>,
    /// Whether `run` hands freed memory back to the system when it ends
    /// (`alloc::release_unused`, a `malloc_trim`): the CLI and the REPL do;
    /// the Python package, whose small calls would pay more for the trim than
    /// for the run, does it itself only after runs that freed large blocks.
    pub release_after_run: bool,
}

/// A session with the default limits and every op.
impl Default for Session {
    fn default() -> Self {
        Session::new(Limits::default())
    }
}

/// What an input's statements may change, as it was before the input: the
/// types and values of the names it binds, its comps, the Rng count and the
/// infeed queue. Restoring it undoes the input.
struct Saved {
    lets: Vec<(String, Option<xlet_core::types::Type>, Option<Value>)>,
    comps: Vec<(String, Option<std::sync::Arc<ir::Comp>>)>,
    rng: xlet_kernels::rng::RngState,
    feeds: Box<dyn xlet_eval::Feeds>,
}

impl Saved {
    fn of(prog: &xlet_syntax::ast::Program, s: &Session) -> Saved {
        let mut lets: Vec<(String, Option<xlet_core::types::Type>, Option<Value>)> = vec![];
        let mut comps: Vec<(String, Option<std::sync::Arc<ir::Comp>>)> = vec![];
        let mut seen = std::collections::HashSet::new();
        for st in &prog.stmts {
            match &st.kind {
                xlet_syntax::ast::StmtKind::Let(b) if seen.insert((0, b.name.name.as_str())) => {
                    let n = &b.name.name;
                    lets.push((
                        n.clone(),
                        s.types.globals.get(n).cloned(),
                        s.env.values.get(n).cloned(),
                    ))
                }
                xlet_syntax::ast::StmtKind::Comp(c) if seen.insert((1, c.name.name.as_str())) => {
                    let n = &c.name.name;
                    comps.push((n.clone(), s.types.comps.get(n).cloned()))
                }
                _ => {}
            }
        }
        Saved {
            lets,
            comps,
            rng: s.env.rng.clone(),
            feeds: s.env.feeds.clone(),
        }
    }

    /// Puts the session back as it was; `ids` are the comps the input defined
    /// (their captures go).
    fn restore(self, s: &mut Session, ids: &[usize]) {
        for (n, ty, v) in self.lets {
            match ty {
                Some(t) => s.types.globals.insert(n.clone(), t),
                None => s.types.globals.remove(&n),
            };
            match v {
                Some(v) => s.env.values.insert(n, v),
                None => s.env.values.remove(&n),
            };
        }
        for (n, c) in self.comps {
            match c {
                Some(c) => s.types.comps.insert(n, c),
                None => s.types.comps.remove(&n),
            };
        }
        for id in ids {
            s.env.captures.remove(id);
        }
        s.env.rng = self.rng;
        s.env.feeds = self.feeds;
    }
}

/// Why an input did not succeed; all diagnostics of the first stage that failed.
#[derive(Debug)]
pub struct Failure {
    pub stage: Stage,
    pub diags: Vec<Diag>,
}

impl Failure {
    /// The process exit code for this failure (spec/commands.md).
    pub fn exit_code(&self) -> crate::exit::Exit {
        match self.stage {
            Stage::Syntax | Stage::Check => crate::exit::Exit::Check,
            Stage::Runtime => crate::exit::Exit::Runtime,
        }
    }
}

impl Session {
    /// A session with nothing bound, checking with `limits` against every op
    /// xlet has (the op table is assembled here and handed down to the
    /// checker), and running with the default `RunConfig`.
    pub fn new(mut limits: Limits) -> Self {
        limits.ops = xlet_ops::registry::table();
        let mut env = Env::default();
        env.feeds = Box::new(crate::feed::Feeds::default());
        Session {
            types: TypeEnv::default(),
            env,
            limits,
            last_comps: vec![],
            release_after_run: true,
        }
    }

    /// The run's infeed queue and outfeed sink (`--infeed`, `--outfeed`, `:npy`).
    pub fn feeds(&mut self) -> &mut crate::feed::Feeds {
        if self
            .env
            .feeds
            .as_any()
            .downcast_ref::<crate::feed::Feeds>()
            .is_none()
        {
            self.env.feeds = Box::new(crate::feed::Feeds::default());
        }
        match self
            .env
            .feeds
            .as_any_mut()
            .downcast_mut::<crate::feed::Feeds>()
        {
            Some(f) => f,
            None => unreachable!("the feeds were just set to a `feed::Feeds`"),
        }
    }

    /// Parses and checks one expression against this session, without running
    /// it (the REPL's `:type` and `:time`).
    pub fn check_expr(&self, src: &str) -> Result<ir::Expr, Failure> {
        let ops = self.limits.ops;
        let expr = syntax::parse_expr_with(src, ops).map_err(|diags| Failure {
            stage: Stage::Syntax,
            diags,
        })?;
        xlet_check::check_expr(&expr, &self.types, src, &self.limits).map_err(|d| Failure {
            stage: Stage::Check,
            diags: vec![d],
        })
    }

    /// Evaluates a checked expression on this session's values, binding
    /// nothing (the REPL's `:time` runs it again and again).
    pub fn eval_expr(&self, e: &ir::Expr) -> Result<Value, Diag> {
        xlet_eval::eval_top(e, &self.env)
    }

    /// Adds a CustomCall library, searched after those loaded before (`:lib`).
    pub fn add_custom_call_lib(&mut self, path: &std::path::Path) -> Result<(), String> {
        self.limits.custom_call.add(path).map_err(|e| e.to_string())
    }

    /// The CustomCall libraries loaded, in search order.
    pub fn custom_call_libs(&self) -> Vec<std::path::PathBuf> {
        self.limits
            .custom_call
            .libs
            .iter()
            .map(|l| l.path.clone())
            .collect()
    }

    /// Parses and checks `src` against this session, without running anything.
    pub fn check(&self, src: &str) -> Result<(ir::Program, xlet_check::TypeEnv), Failure> {
        let prog = syntax::parse_with(src, self.limits.ops).map_err(|diags| Failure {
            stage: Stage::Syntax,
            diags,
        })?;
        check_program(prog, &self.types, src, &self.limits).map_err(|diags| Failure {
            stage: Stage::Check,
            diags,
        })
    }

    /// Parses, checks and runs `src`. On success the session keeps its new bindings;
    /// on any failure (a failed assertion included) the session is left as it was.
    pub fn run(&mut self, src: &str, out: &mut dyn Output) -> Result<(), Failure> {
        let result = self.run_inner(src, out);
        // Whatever the input dropped (a rebound name's old value, the temporaries
        // of a failed run) goes back to the system now, not at some later
        // allocation (spec/performance.md §4).
        if self.release_after_run {
            alloc::release_unused();
        }
        result
    }

    /// Checks and runs on the session itself, not on copies of it (a copy per
    /// input cost the number of bindings per input: 8,000 piped `let`s took
    /// 15 s). What the input's statements bind is saved first and put back if
    /// anything fails (a panic included), so the cost is the input's, whatever
    /// the session holds.
    fn run_inner(&mut self, src: &str, out: &mut dyn Output) -> Result<(), Failure> {
        self.last_comps.clear();
        let ast = syntax::parse_with(src, self.limits.ops).map_err(|diags| Failure {
            stage: Stage::Syntax,
            diags,
        })?;
        let saved = Saved::of(&ast, self);
        let mut ids = vec![];
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.check_and_run(ast, src, out, &mut ids)
        }));
        match r {
            Ok(Ok(())) => {
                self.last_comps = saved.comps.into_iter().map(|(n, _)| n).collect();
                Ok(())
            }
            Ok(Err(f)) => {
                saved.restore(self, &ids);
                Err(f)
            }
            Err(p) => {
                saved.restore(self, &ids);
                std::panic::resume_unwind(p)
            }
        }
    }

    fn check_and_run(
        &mut self,
        ast: xlet_syntax::ast::Program,
        src: &str,
        out: &mut dyn Output,
        ids: &mut Vec<usize>,
    ) -> Result<(), Failure> {
        let prog = xlet_check::check_program_in(ast, &mut self.types, src, &self.limits).map_err(
            |diags| Failure {
                stage: Stage::Check,
                diags,
            },
        )?;
        ids.extend(prog.stmts.iter().filter_map(|s| match &s.kind {
            ir::StmtKind::Comp(c) => Some(c.id),
            _ => None,
        }));
        let mut diags = run_program(&prog, &mut self.env, out);
        // Ctrl-C during the last op finds no later op boundary to stop at: check
        // once more, so an interrupted input never commits anything.
        if diags.is_empty() && xlet_core::config::interrupted() {
            let at = prog.stmts.last().map_or(0..0, |s| s.span.clone());
            diags.push(Diag::runtime("interrupted", "interrupted", at));
        }
        if !diags.is_empty() {
            return Err(Failure {
                stage: Stage::Runtime,
                diags,
            });
        }
        Ok(())
    }

    /// The backward program of comp `name` as xlet source (spec/grad.md §2), in
    /// this session's environment, or why there is none.
    pub fn gradient_source(&self, name: &str) -> Result<String, String> {
        let f = self
            .types
            .comps
            .get(name)
            .ok_or_else(|| format!("`{name}` is not a comp"))?;
        xlet_grad::program::source_of(f, &self.types, &self.limits).map_err(|e| {
            let at = e.span.as_ref().and_then(|s| {
                let a = s.start.checked_sub(f.text_at)?;
                let b = s.end.checked_sub(f.text_at)?;
                f.text.get(a..b)
            });
            match at {
                Some(t) => format!("cannot differentiate `{name}`: {} (at `{t}`)", e.message),
                None => format!("cannot differentiate `{name}`: {}", e.message),
            }
        })
    }

    /// Every binding, values first then comps, each sorted by name (`:vars`).
    pub fn bindings(&self) -> Vec<Binding> {
        let mut values: Vec<Binding> = self
            .types
            .globals
            .iter()
            .map(|(name, ty)| Binding {
                name: name.clone(),
                kind: BindingKind::Value,
                ty: ty.to_string(),
                bytes: self.env.values.get(name).map(value_bytes).unwrap_or(0),
            })
            .collect();
        values.sort_by(|a, b| a.name.cmp(&b.name));
        let mut comps: Vec<Binding> = self
            .types
            .comps
            .iter()
            .map(|(name, c)| Binding {
                name: name.clone(),
                kind: BindingKind::Comp,
                ty: comp_signature(c),
                bytes: self
                    .env
                    .captures
                    .get(&c.id)
                    .map(|m| m.values().map(value_bytes).sum())
                    .unwrap_or(0),
            })
            .collect();
        comps.sort_by(|a, b| a.name.cmp(&b.name));
        values.extend(comps);
        values
    }

    /// Removes bindings (values or comps) and frees what only they held. Either
    /// every name is bound and all are removed, or nothing changes and the
    /// unknown names are returned.
    pub fn unbind(&mut self, names: &[&str]) -> Result<(), Vec<String>> {
        let unknown: Vec<String> = names
            .iter()
            .filter(|n| {
                !self.types.globals.contains_key(**n) && !self.types.comps.contains_key(**n)
            })
            .map(|n| n.to_string())
            .collect();
        if !unknown.is_empty() {
            return Err(unknown);
        }
        for &n in names {
            self.types.globals.remove(n);
            self.env.values.remove(n);
            if let Some(c) = self.types.comps.remove(n) {
                // Comps that call it keep it (and what it captured) alive.
                if std::sync::Arc::strong_count(&c) == 1 {
                    self.env.captures.remove(&c.id);
                }
            }
        }
        alloc::release_unused();
        Ok(())
    }

    /// The process's memory as the allocator counts it (`:vars`).
    pub fn memory(&self) -> Memory {
        Memory {
            live: alloc::live_bytes(),
            budget: alloc::budget(),
            cached: alloc::cached_bytes(),
        }
    }
}

/// One binding as `:vars` shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binding {
    pub name: String,
    pub kind: BindingKind,
    /// The value's type, or a comp's signature.
    pub ty: String,
    /// The value's size (elements × element size; tuples summed), or the size of
    /// the values a comp captured.
    pub bytes: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BindingKind {
    Value,
    Comp,
}

/// Memory totals: bytes live now, the budget for them, and the allocator cache.
#[derive(Clone, Copy, Debug)]
pub struct Memory {
    pub live: usize,
    pub budget: usize,
    pub cached: usize,
}

fn value_bytes(v: &Value) -> usize {
    v.ty().byte_size().unwrap_or(usize::MAX)
}

fn comp_signature(c: &xlet_ir::Comp) -> String {
    format!("comp {}", c.signature())
}
