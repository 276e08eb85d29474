//! `xlet run --trace MODULE`: the values bound inside the module's functions
//! and regions (spec/import.md §1). The top level's values are printed by
//! `module::trace` as each statement runs; these come from the evaluator
//! (`eval::Tracer`) as a comp's body binds them.

use std::collections::HashMap;
use std::io::Write;
use std::sync::Mutex;
use xlet::ir::Comp;
use xlet::print::{PrintOptions, format_value};
use xlet::value::Value;
use xlet_core::span::Span;

/// How many calls of each comp are shown: a loop body or a reducer runs many
/// times, and its first calls are what a reader follows; later ones would
/// bury the rest of the trace.
pub const CALLS_SHOWN: u64 = 3;

#[derive(Debug)]
pub struct CompTracer {
    /// Where each line of the module starts (byte offsets).
    line_starts: Vec<usize>,
    /// `Translation::comp_lines`: each comp's lines' module text.
    comp_lines: HashMap<String, Vec<Option<Span>>>,
    print: PrintOptions,
    /// Calls seen so far of each comp, by name.
    calls: Mutex<HashMap<String, u64>>,
}

impl CompTracer {
    pub fn new(
        src: &str,
        comp_lines: HashMap<String, Vec<Option<Span>>>,
        print: PrintOptions,
    ) -> CompTracer {
        let line_starts = std::iter::once(0)
            .chain(src.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        CompTracer {
            line_starts,
            comp_lines,
            print,
            calls: Mutex::new(HashMap::new()),
        }
    }

    /// The 1-based module line of byte offset `at`.
    fn line_of(&self, at: usize) -> usize {
        self.line_starts.partition_point(|&s| s <= at)
    }

    /// The module line of the comp body's line holding `span`.
    fn module_line(&self, comp: &Comp, span: &Span) -> Option<usize> {
        let within = span.start.checked_sub(comp.text_at)?;
        let k = comp.text.get(..within)?.matches('\n').count();
        let spans = self.comp_lines.get(&comp.name)?;
        // A line with no op of its own (a block argument taken from the
        // tuple parameter) is placed at the function's or region's start.
        let s = spans.get(k)?.as_ref().or(spans.first()?.as_ref())?;
        Some(self.line_of(s.start))
    }
}

impl xlet::eval::Tracer for CompTracer {
    fn enter(&self, comp: &Comp) -> bool {
        let mut calls = self.calls.lock().unwrap_or_else(|e| e.into_inner());
        let n = calls.entry(comp.name.clone()).or_insert(0);
        *n += 1;
        if *n == CALLS_SHOWN + 1 {
            let _ = writeln!(
                std::io::stdout().lock(),
                "({}: later calls not traced; --trace shows the first {CALLS_SHOWN})",
                comp.name
            );
        }
        *n <= CALLS_SHOWN
    }

    fn bound(&self, comp: &Comp, name: &str, span: &Span, value: &Value) {
        let call = self
            .calls
            .lock()
            .map(|c| c.get(&comp.name).copied().unwrap_or(0))
            .unwrap_or(0);
        let at = match self.module_line(comp, span) {
            Some(l) => format!("line {l}"),
            None => "line ?".to_string(),
        };
        let _ = writeln!(
            std::io::stdout().lock(),
            "{at} in {} (call {call}): {name} = {}",
            comp.name,
            format_value(value, &self.print)
        );
    }
}
