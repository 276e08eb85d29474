//! Tab completion: `:` commands, op names and aliases (case-insensitive),
//! bound names and comps, keywords; an op's argument names (as `name=`) at the
//! start of an argument of its call; file names after `:load`.

use super::commands::COMMANDS;
use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::validate::Validator;
use rustyline::{Context, Helper};
use xlet_ops::registry;

/// Words that are always there: keywords and the prelude's computations.
const FIXED: &[&str] = &[
    "let", "comp", "then", "within", "add", "mul", "max", "min", "and", "or",
];

/// The completions of the word before `pos`: where it starts, and the candidates.
pub(crate) fn candidates(line: &str, pos: usize, names: &[String]) -> (usize, Vec<String>) {
    let before = line.get(..pos).unwrap_or(line);
    let start = before
        .trim_end_matches(|c: char| c.is_alphanumeric() || c == '_')
        .len();
    let word = &before[start..];
    if before[..start].trim_start() == ":" {
        let colon = start - 1;
        let typed = format!(":{word}");
        let mut cmds: Vec<String> = COMMANDS
            .iter()
            .map(|c| c.0.to_string())
            .filter(|c| c.starts_with(&typed))
            .collect();
        cmds.sort();
        return (colon, cmds);
    }
    let params: Vec<String> = match enclosing_op(&before[..start]) {
        Some(op) => registry::params(op)
            .into_iter()
            .filter(|p| p.starts_with(word))
            .map(|p| format!("{p}="))
            .collect(),
        None => vec![],
    };
    if word.is_empty() {
        return (start, params);
    }
    if word.starts_with(|c: char| c.is_ascii_digit()) {
        return (pos, vec![]);
    }
    let lower = word.to_ascii_lowercase();
    let ops = registry::all()
        .iter()
        .flat_map(|op| std::iter::once(op.name()).chain(op.aliases.iter().copied()))
        .filter(|n| n.to_ascii_lowercase().starts_with(&lower));
    let others = names
        .iter()
        .map(String::as_str)
        .chain(FIXED.iter().copied())
        .filter(|n| n.starts_with(word));
    let mut out: Vec<String> = ops.chain(others).map(str::to_string).collect();
    out.extend(params);
    out.sort_by(|a, b| {
        a.to_ascii_lowercase()
            .cmp(&b.to_ascii_lowercase())
            .then(a.cmp(b))
    });
    out.dedup();
    (start, out)
}

/// The op whose call an argument starting right after `before` belongs to:
/// `before` ends in `Op(` or in `Op(x, ` (brackets inside are skipped).
fn enclosing_op(before: &str) -> Option<&'static registry::OpDef> {
    let trimmed = before.trim_end();
    if !(trimmed.ends_with('(') || trimmed.ends_with(',')) {
        return None;
    }
    let mut depth = 0usize;
    for (i, c) in trimmed.char_indices().rev() {
        match c {
            ')' | '}' | ']' => depth += 1,
            '(' | '{' | '[' if depth > 0 => depth -= 1,
            '(' => {
                let head = trimmed[..i].trim_end();
                let name_start = head
                    .trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_')
                    .len();
                return registry::lookup(&head[name_start..]);
            }
            '{' | '[' => return None,
            _ => {}
        }
    }
    None
}

/// The argument after `:load ` if the cursor is in it.
fn in_load_argument(line: &str, pos: usize) -> bool {
    let before = line.get(..pos).unwrap_or(line).trim_start();
    before
        .strip_prefix(":load")
        .or_else(|| before.strip_prefix(":l"))
        .is_some_and(|r| r.starts_with(char::is_whitespace))
}

/// The rustyline helper: completion only (multi-line input is handled by the loop).
pub(crate) struct XletHelper {
    /// Names bound in the session, refreshed after each input.
    pub(crate) names: Vec<String>,
    files: FilenameCompleter,
}

impl XletHelper {
    pub(crate) fn new() -> Self {
        XletHelper {
            names: vec![],
            files: FilenameCompleter::new(),
        }
    }
}

impl Completer for XletHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        if in_load_argument(line, pos) {
            return self.files.complete(line, pos, ctx);
        }
        let (start, words) = candidates(line, pos, &self.names);
        let pairs = words
            .into_iter()
            .map(|w| Pair {
                display: w.clone(),
                replacement: w,
            })
            .collect();
        Ok((start, pairs))
    }
}

impl Hinter for XletHelper {
    type Hint = String;
}
impl Highlighter for XletHelper {}
impl Validator for XletHelper {}
impl Helper for XletHelper {}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str, names: &[&str]) -> (usize, Vec<String>) {
        let names: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        candidates(line, line.len(), &names)
    }

    #[test]
    fn completes_commands() {
        assert_eq!(words(":he", &[]), (0, vec![":help".to_string()]));
        assert_eq!(
            words("  :t", &[]),
            (2, vec![":time".to_string(), ":type".to_string()])
        );
        assert_eq!(words(":", &[]).1.len(), COMMANDS.len());
        assert_eq!(words("x :he", &[]).1, Vec::<String>::new());
    }

    #[test]
    fn completes_ops_case_insensitively() {
        let (start, c) = words("let y = ad", &[]);
        assert_eq!(start, 8);
        assert!(c.contains(&"Add".to_string()), "{c:?}");
        assert!(c.contains(&"add".to_string()), "{c:?}");
        let (_, c) = words(":help resh", &[]);
        assert_eq!(c, vec!["Reshape".to_string()]);
    }

    #[test]
    fn completes_bound_names() {
        let (start, c) = words("Add(my", &["myvec", "mycomp", "other"]);
        assert_eq!(start, 4);
        assert_eq!(c, vec!["mycomp".to_string(), "myvec".to_string()]);
        assert_eq!(words("f32[2x", &["x1"]).1, Vec::<String>::new());
        assert_eq!(words("1 + ", &["x"]).1, Vec::<String>::new());
    }

    #[test]
    fn completes_argument_names_in_calls() {
        let (start, c) = words("Transpose(x, per", &[]);
        assert_eq!(start, 13);
        assert_eq!(c, vec!["permutation=".to_string()]);
        let (_, c) = words("let y = Add(x, y, ", &[]);
        assert_eq!(c, ["lhs=", "rhs=", "broadcast_dimensions="]);
        // Op names still complete there too (an argument may be a call).
        let (_, c) = words("Add(Neg(x), y, broad", &[]);
        assert!(c.contains(&"broadcast_dimensions=".to_string()), "{c:?}");
        assert!(c.contains(&"Broadcast".to_string()), "{c:?}");
        let (_, c) = words("Eq(x, y, ty", &[]);
        assert_eq!(c, vec!["type=".to_string()]);
        // Not at the start of an argument, or inside braces: no argument names.
        assert_eq!(words("Add(x + per", &[]).1, Vec::<String>::new());
        assert_eq!(words("Transpose(x, {1, ", &[]).1, Vec::<String>::new());
        assert!(!words("Add(x, Neg(", &[]).1.contains(&"lhs=".to_string()));
    }

    #[test]
    fn load_argument() {
        assert!(in_load_argument(":load sr", 8));
        assert!(in_load_argument(":l ", 3));
        assert!(!in_load_argument(":loadx", 6));
        assert!(!in_load_argument("let x", 5));
    }
}
