//! From a comp to the checked computation that `Grad` or `Vjp` calls.

use super::{Generated, GradError, is_float, vjp_source};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::Arc;
use xlet_check::{Limits, TypeEnv, check_generated};
use xlet_ir::Comp;

/// What to make of `f`.
#[derive(Clone, Debug)]
pub enum Mode {
    /// `Grad(f, ..., wrt={...})`: the gradients of the listed parameters, one
    /// value for one parameter, else a tuple in the order listed.
    Grad { wrt: Vec<usize> },
    /// `Vjp(f, {...}, ct)`: `(f(...), (gradients...))`.
    Vjp,
}

/// The generated source and the checked comp to call.
#[derive(Clone, Debug)]
pub struct Differentiated {
    pub text: String,
    pub comp: Arc<Comp>,
}

/// Writes and checks the gradient program of `f` in the environment `env`.
pub fn differentiate(
    f: &Comp,
    mode: &Mode,
    env: &TypeEnv,
    limits: &Limits,
) -> Result<Differentiated, GradError> {
    let taken = |n: &str| env.comps.contains_key(n) || env.globals.contains_key(n);
    let mut g = Generated::default();
    // Grad computes the gradients it returns and no others.
    let mask: Option<Vec<bool>> = match mode {
        Mode::Vjp => None,
        Mode::Grad { wrt } => Some((0..f.params.len()).map(|i| wrt.contains(&i)).collect()),
    };
    let vjp = vjp_source(f, mask.as_deref(), &mut g, &taken, 0)?;
    let mut captures: HashMap<String, usize> = g.captures_of.clone();
    let name = match mode {
        Mode::Vjp => vjp,
        Mode::Grad { wrt } => {
            let name = super::unique(&format!("{}_grad", f.name), &g, &taken);
            // Position of each parameter among those differentiated (the vjp's
            // gradients come in parameter order).
            let float_index = |p: usize| wrt.iter().filter(|&&q| q < p).count();
            let params: Vec<String> = f.params.iter().map(|(p, t)| format!("{p}: {t}")).collect();
            let args: Vec<&str> = f.params.iter().map(|(p, _)| p.as_str()).collect();
            let one = match f.ret.as_array() {
                Some(a) => super::rule::scalar(a.elem, 1.0),
                None => {
                    return Err(GradError {
                        message: "Grad needs a scalar result".into(),
                        span: None,
                    });
                }
            };
            let picks: Vec<String> = wrt
                .iter()
                .map(|&p| format!("GetTupleElement(GetTupleElement(r, 1), {})", float_index(p)))
                .collect();
            let types: Vec<String> = wrt
                .iter()
                .filter_map(|&p| f.params.get(p).map(|(_, t)| t.to_string()))
                .collect();
            let (ret, val) = if picks.len() == 1 {
                (types[0].clone(), picks[0].clone())
            } else {
                (
                    format!("({})", types.join(", ")),
                    format!("({})", picks.join(", ")),
                )
            };
            let mut w = String::new();
            let _ = writeln!(w, "comp {name}({}) -> {ret} {{", params.join(", "));
            let _ = writeln!(w, "  let r = {vjp}({}, {one})", args.join(", "));
            let _ = writeln!(w, "  {val}");
            let _ = writeln!(w, "}}");
            g.text.push_str(&w);
            captures.insert(name.clone(), f.captures_of);
            name
        }
    };
    // The generated comps read the top-level values `f` (and what it calls)
    // captured, at the types they had then, whatever the names mean now.
    let mut env = env.clone();
    let mut seen = std::collections::HashSet::new();
    captured_types(f, &mut env.globals, &mut seen);
    admit_checking(f, &g.text)?;
    let checked = check_generated(&g.text, &env, limits, captures).map_err(|d| {
        let first = d.first().map_or(String::new(), |d| d.message.clone());
        // Out of memory while checking the generated program is the budget
        // speaking, not a bug: say so, without the (huge) program.
        let memory = d
            .first()
            .is_some_and(|d| d.code.is(&xlet_core::diag::Rule::Memory));
        if memory {
            return GradError {
                message: format!(
                    "the gradient of `{}` is too large to check within the memory budget ({first}); \
                     raise --max-memory or differentiate a smaller computation",
                    f.name
                ),
                span: None,
            };
        }
        GradError {
            message: format!(
                "internal: the generated gradient program does not check ({first}); it reads:\n{}",
                g.text
            ),
            span: None,
        }
    })?;
    let comp = checked.comps.get(&name).cloned().ok_or_else(|| GradError {
        message: "internal: the generated gradient comp is missing".into(),
        span: None,
    })?;
    Ok(Differentiated { text: g.text, comp })
}

/// Bytes that parsing and checking a generated program take per byte of its
/// text (tokens, the tree, the checked comps and their names), measured: the
/// 6.5 MB program of an 8th-order gradient peaks at 255 MB when checked alone.
const CHECK_BYTES_PER_TEXT_BYTE: usize = 32;

/// Admits the memory that checking the generated program will take, before
/// it starts: one that cannot fit fails at once, rather than part-way through
/// a parse with its partial trees live (the parser and the checker still look
/// at the budget as they go).
fn admit_checking(f: &Comp, text: &str) -> Result<(), GradError> {
    let bytes = text.len().saturating_mul(CHECK_BYTES_PER_TEXT_BYTE);
    let what = format!(
        "checking its {} program",
        xlet_core::alloc::show_bytes(text.len())
    );
    xlet_core::alloc::admit(bytes, &what).map_err(|e| GradError {
        message: format!(
            "the gradient of `{}` is too large to check within the memory budget ({}); \
             raise --max-memory or differentiate a smaller computation",
            f.name, e.message
        ),
        span: None,
    })
}

/// The backward program of `f` as `:grad f` and `xlet grad FILE f` print it:
/// `f_vjp` (and the vjp comps of what it calls), and for a float scalar result
/// `f_grad` with respect to every float parameter. Checked before it is shown.
pub fn source_of(f: &Comp, env: &TypeEnv, limits: &Limits) -> Result<String, GradError> {
    let scalar = f
        .ret
        .as_array()
        .is_some_and(|a| a.is_scalar() && a.elem.is_float());
    let floats: Vec<usize> = (0..f.params.len())
        .filter(|&i| f.params.get(i).is_some_and(|(_, t)| is_float(t)))
        .collect();
    if floats.is_empty() {
        return Err(GradError {
            message: format!("`{}` has no float parameter to differentiate", f.name),
            span: None,
        });
    }
    let mode = if scalar {
        Mode::Grad { wrt: floats }
    } else {
        Mode::Vjp
    };
    differentiate(f, &mode, env, limits).map(|d| d.text)
}

/// The type of every top-level name `c` and the comps it calls read.
fn captured_types(
    c: &Comp,
    out: &mut HashMap<String, xlet_core::types::Type>,
    seen: &mut std::collections::HashSet<usize>,
) {
    fn walk(
        e: &xlet_ir::Expr,
        out: &mut HashMap<String, xlet_core::types::Type>,
        seen: &mut std::collections::HashSet<usize>,
    ) {
        use xlet_ir::ExprKind;
        match &e.kind {
            ExprKind::Global(n) => {
                out.insert(n.clone(), e.ty.clone());
            }
            ExprKind::Const(_) | ExprKind::Local(_) => {}
            ExprKind::Op { kernel, args, .. } => {
                for c in kernel.computations() {
                    captured_types(&c, out, seen);
                }
                args.iter().for_each(|a| walk(a, out, seen));
            }
            ExprKind::CallComp { comp, args } => {
                captured_types(comp, out, seen);
                args.iter().for_each(|a| walk(a, out, seen));
            }
            ExprKind::Tuple(items) => items.iter().for_each(|a| walk(a, out, seen)),
        }
    }
    if !seen.insert(c.id) {
        return;
    }
    c.body.iter().for_each(|(_, e)| walk(e, out, seen));
    walk(&c.result, out, seen);
}
