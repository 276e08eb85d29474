//! `:vars` (every binding with its type and size, and the memory totals) and
//! `:unbind NAME...` (alias `:del`: remove bindings and free their memory).

use super::{Outcome, Repl, complain, say};
use crate::exit::Exit;
use crate::session::{BindingKind, Session};
use xlet_core::alloc::show_bytes;

/// The `:vars` table: one line per binding, then the totals.
pub(crate) fn render(session: &Session) -> String {
    let bindings = session.bindings();
    // What the bound values themselves take, as the rows count them; a value
    // too large to count (`usize::MAX`) saturates.
    let values = bindings
        .iter()
        .filter(|b| b.kind == BindingKind::Value)
        .fold(0usize, |sum, b| sum.saturating_add(b.bytes));
    let rows: Vec<(String, String, String)> = bindings
        .into_iter()
        .map(|b| {
            let size = match b.kind {
                BindingKind::Value => show_bytes(b.bytes),
                BindingKind::Comp => format!("captures {}", show_bytes(b.bytes)),
            };
            (b.name, b.ty, size)
        })
        .collect();
    let mut out = String::new();
    if rows.is_empty() {
        out.push_str("no bindings\n");
    } else {
        let w0 = rows.iter().map(|r| r.0.len()).max().unwrap_or(0).max(4);
        let w1 = rows.iter().map(|r| r.1.len()).max().unwrap_or(0).max(4);
        out.push_str(&format!("{:w0$}  {:w1$}  size\n", "name", "type"));
        for (name, ty, size) in &rows {
            out.push_str(&format!("{name:w0$}  {ty:w1$}  {size}\n"));
        }
    }
    // The allocator counts every heap byte of the process, not only values:
    // the REPL's line editor and history, the session's types, the parsed
    // inputs. The budget applies to that total, so it is shown too, and said
    // to be the process's.
    let m = session.memory();
    out.push_str(&format!(
        "bound values {}; process heap {} (values, temporaries and xlet's own data) \
         of a budget of {} (--max-memory); allocator cache keeps {}",
        show_bytes(values),
        show_bytes(m.live),
        show_bytes(m.budget),
        show_bytes(m.cached)
    ));
    out
}

pub(crate) fn show(repl: &Repl) -> Outcome {
    say(&render(&repl.session));
    Outcome::Done
}

/// `:unbind a b f`: all or nothing, so a typo removes nothing.
pub(crate) fn unbind(repl: &mut Repl, args: &str) -> Outcome {
    let names: Vec<&str> = args
        .split([' ', '\t', ','])
        .filter(|s| !s.is_empty())
        .collect();
    match repl.session.unbind(&names) {
        Ok(()) => Outcome::Done,
        Err(unknown) => {
            let list: Vec<String> = unknown.iter().map(|n| format!("`{n}`")).collect();
            complain(&format!(
                "error: not bound: {} (nothing was removed; :vars lists the bindings)",
                list.join(", ")
            ));
            Outcome::Failed(Exit::Usage)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xlet_check::Limits;
    use xlet_eval::Output;

    struct Quiet;
    impl Output for Quiet {
        fn print(&mut self, _: &xlet_core::value::Value, _: &xlet_ir::Expr) {}
    }

    #[test]
    fn vars_lists_types_and_sizes_and_unbind_removes() {
        let mut s = Session::new(Limits::default());
        s.run(
            "let a = Iota(f32[1000], 0)\nlet t = (s8 1, pred[3] {true, false, true})\ncomp f(x: f32[1000]) -> f32[1000] { x + a }",
            &mut Quiet,
        )
        .unwrap();
        let text = render(&s);
        assert!(
            text.contains("f32[1000]  4000 bytes") || text.contains("3.9 KiB (4000 bytes)"),
            "{text}"
        );
        assert!(text.contains("(s8, pred[3])"), "{text}");
        assert!(text.contains("captures 3.9 KiB (4000 bytes)"), "{text}");
        assert!(text.contains("budget"), "{text}");
        // The values' total is the rows' (a: 4000, t: 1 + 3), whatever else is on the heap.
        assert!(
            text.contains("bound values 3.9 KiB (4004 bytes); process heap "),
            "{text}"
        );
        assert!(s.unbind(&["a", "nope"]).is_err());
        assert!(s.types.globals.contains_key("a"));
        s.unbind(&["a", "f"]).unwrap();
        assert!(!s.types.globals.contains_key("a") && !s.env.values.contains_key("a"));
        assert!(!s.types.comps.contains_key("f") && s.env.captures.is_empty());
        assert!(s.run("a", &mut Quiet).is_err());
    }
}
