//! A session: the types and values of everything bound so far. The script
//! runner uses one for a whole file; the REPL keeps one across inputs and
//! commits an input's bindings only when the whole input succeeded.

use crate::check::{Limits, TypeEnv, check_program};
use crate::diag::{Diag, Stage};
use crate::eval::{Env, INTERRUPTED, Output, run_program};
use crate::ir;
use crate::syntax;
use std::sync::atomic::Ordering;

#[derive(Clone, Debug, Default)]
pub struct Session {
    pub types: TypeEnv,
    pub env: Env,
    pub limits: Limits,
}

/// Why an input did not succeed; all diagnostics of the first stage that failed.
#[derive(Debug)]
pub struct Failure {
    pub stage: Stage,
    pub diags: Vec<Diag>,
}

impl Failure {
    /// The process exit code for this failure (spec/commands.md).
    pub fn exit_code(&self) -> i32 {
        match self.stage {
            Stage::Syntax | Stage::Check => 2,
            Stage::Runtime => 1,
        }
    }
}

impl Session {
    pub fn new(limits: Limits) -> Self {
        Session {
            limits,
            ..Default::default()
        }
    }

    /// Parses and checks `src` against this session, without running anything.
    pub fn check(&self, src: &str) -> Result<(ir::Program, crate::check::TypeEnv), Failure> {
        let prog = syntax::parse(src).map_err(|diags| Failure {
            stage: Stage::Syntax,
            diags,
        })?;
        check_program(&prog, &self.types, src, &self.limits).map_err(|diags| Failure {
            stage: Stage::Check,
            diags,
        })
    }

    /// Parses, checks and runs `src`. On success the session keeps its new bindings;
    /// on any failure (a failed assertion included) the session is left as it was.
    pub fn run(&mut self, src: &str, out: &mut dyn Output) -> Result<(), Failure> {
        let (prog, types) = self.check(src)?;
        let mut env = self.env.clone();
        let mut diags = run_program(&prog, &mut env, out);
        // Ctrl-C during the last op finds no later op boundary to stop at: check
        // once more, so an interrupted input never commits anything.
        if diags.is_empty() && INTERRUPTED.load(Ordering::SeqCst) {
            let at = prog.stmts.last().map_or(0..0, |s| s.span.clone());
            diags.push(Diag::runtime("interrupted", "interrupted", at));
        }
        if !diags.is_empty() {
            return Err(Failure {
                stage: Stage::Runtime,
                diags,
            });
        }
        self.types = types;
        self.env = env;
        Ok(())
    }
}
