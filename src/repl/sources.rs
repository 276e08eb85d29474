//! Where REPL diagnostics point. Each input is rendered under its own name
//! (`<repl:3>` typed, `<stdin>` with its real line numbers piped, the path for
//! `:load`), and a diagnostic may point into an earlier input: a comp keeps the
//! span of its name, and "defined here" must show the input that defined it.
//!
//! So an input that defines comps is kept, and its comps' spans are moved into
//! a range of offsets of their own (from `KEPT_BASE` up, one slice per kept
//! input); the current input's spans stay as the parser made them (below
//! `KEPT_BASE`). Rendering sorts each span back to its input.

use ariadne::{Color, Config, FnCache, IndexType, Label, Report, ReportKind, Source};
use std::collections::HashMap;
use std::fmt;
use xlet_core::diag::Diag;
use xlet_core::span::Span;

/// Spans at or above this offset point into kept inputs. No input is this large
/// (sources are capped far below it), so the two ranges never meet.
pub(crate) const KEPT_BASE: usize = 1 << 48;

/// An input as diagnostics name it: the name and the line its text starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Origin {
    pub(crate) name: String,
    /// 1-based line of the input's first line in what the user typed or piped.
    pub(crate) first_line: usize,
}

impl Origin {
    pub(crate) fn new(name: impl Into<String>, first_line: usize) -> Self {
        Origin {
            name: name.into(),
            first_line: first_line.max(1),
        }
    }
}

struct Kept {
    origin: Origin,
    src: String,
    base: usize,
}

/// The kept inputs, in order of their bases.
#[derive(Default)]
pub(crate) struct Sources {
    kept: Vec<Kept>,
}

impl Sources {
    /// Keeps an input's text; returns the offset its spans are moved by.
    pub(crate) fn keep(&mut self, origin: &Origin, src: &str) -> usize {
        let base = self
            .kept
            .last()
            .map_or(KEPT_BASE, |k| k.base + k.src.len() + 1);
        self.kept.push(Kept {
            origin: origin.clone(),
            src: src.to_string(),
            base,
        });
        base
    }

    /// The kept input a moved span lies in, and the span within it.
    fn find(&self, span: &Span) -> Option<(usize, Span)> {
        if span.start < KEPT_BASE {
            return None;
        }
        let i = self
            .kept
            .partition_point(|k| k.base <= span.start)
            .checked_sub(1)?;
        let k = &self.kept[i];
        let local = span.start - k.base..span.end.saturating_sub(k.base).min(k.src.len());
        Some((i, local))
    }
}

/// A source as ariadne knows it: an index (0 the current input, i+1 kept input
/// i) so two inputs with one name stay apart; shown as the name alone.
#[derive(Clone, Debug, Hash, PartialEq, Eq)]
struct SrcId(usize, String);

impl fmt::Display for SrcId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.1)
    }
}

/// Renders one diagnostic about the input `src` (named by `origin`), whose
/// spans may also point into kept inputs.
///
/// ariadne numbers the lines of the snippet it shows from the start of the text
/// it is given (its display offset moves only the header), so an input that
/// starts on line N is given with N-1 empty lines before it.
pub(crate) fn render(d: &Diag, origin: &Origin, src: &str, kept: &Sources, color: bool) -> String {
    let mut used: HashMap<usize, (Origin, &str)> = HashMap::new();
    let mut place = |span: &Span| -> (SrcId, Span) {
        let (id, o, local) = match kept.find(span) {
            Some((i, local)) => {
                let k = &kept.kept[i];
                used.insert(i + 1, (k.origin.clone(), k.src.as_str()));
                (SrcId(i + 1, k.origin.name.clone()), &k.origin, local)
            }
            None => {
                used.insert(0, (origin.clone(), src));
                let end = span.end.min(src.len());
                (
                    SrcId(0, origin.name.clone()),
                    origin,
                    span.start.min(end)..end,
                )
            }
        };
        let pad = o.first_line - 1;
        (id, local.start + pad..local.end + pad)
    };
    let (pid, pspan) = place(&d.span);
    let secondary: Vec<((SrcId, Span), &String)> =
        d.secondary.iter().map(|(s, m)| (place(s), m)).collect();
    let (line, col) = {
        let (o, text) = match pid.0.checked_sub(1).and_then(|i| kept.kept.get(i)) {
            Some(k) => (&k.origin, k.src.as_str()),
            None => (origin, src),
        };
        let (l, c) = xlet_core::diag::line_col(text, pspan.start - (o.first_line - 1));
        (l + o.first_line - 1, c)
    };
    let mut report = Report::build(ReportKind::Error, (pid.clone(), pspan.clone()))
        .with_config(
            Config::new()
                .with_index_type(IndexType::Byte)
                .with_color(color),
        )
        .with_code(&d.code)
        .with_message(format!("{} ({}:{line}:{col})", d.message, pid.1));
    let primary = if d.label.is_empty() {
        &d.message
    } else {
        &d.label
    };
    report = report.with_label(
        Label::new((pid.clone(), pspan))
            .with_message(primary)
            .with_color(Color::Red)
            .with_priority(10),
    );
    for ((id, span), msg) in secondary {
        report = report.with_label(
            Label::new((id, span))
                .with_message(msg)
                .with_color(Color::Yellow),
        );
    }
    for note in &d.notes {
        report = report.with_note(note);
    }
    if let Some(help) = &d.help {
        report = report.with_help(help);
    }
    let sources: HashMap<SrcId, Source<String>> = used
        .into_iter()
        .map(|(i, (o, text))| {
            let padded = "\n".repeat(o.first_line - 1) + text;
            (SrcId(i, o.name), Source::from(padded))
        })
        .collect();
    let cache = FnCache::new(|id: &SrcId| Err(format!("no source {id}"))).with_sources(sources);
    let mut out = Vec::new();
    match report.finish().write(cache, &mut out) {
        Ok(()) => String::from_utf8_lossy(&out).into_owned(),
        Err(_) => format!(
            "error[{}]: {} at {}:{line}:{col}\n",
            d.code, d.message, pid.1
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use xlet_core::diag::Diag;

    #[test]
    fn spans_find_their_input() {
        let mut s = Sources::default();
        let a = s.keep(&Origin::new("<repl:1>", 1), "comp f(x: f32) -> f32 { x }");
        let b = s.keep(&Origin::new("<repl:2>", 1), "comp g() -> f32 { 1.0 }");
        assert_eq!(a, KEPT_BASE);
        assert!(b > a + 20);
        assert_eq!(s.find(&(a + 5..a + 6)), Some((0, 5..6)));
        assert_eq!(s.find(&(b + 5..b + 6)), Some((1, 5..6)));
        assert_eq!(s.find(&(3..4)), None);
    }

    #[test]
    fn a_secondary_span_shows_the_earlier_input() {
        let mut s = Sources::default();
        let base = s.keep(
            &Origin::new("<repl:1>", 1),
            "comp twice(x: f32) -> f32 { x + x }",
        );
        let now = "twice(1, 2)";
        let d = Diag::check("call", "takes 1 argument", 0..11)
            .with_secondary(base + 5..base + 10, "defined here");
        let text = render(&d, &Origin::new("<repl:2>", 1), now, &s, false);
        assert!(text.contains("<repl:2>:1:1"), "{text}");
        assert!(text.contains("<repl:1>:1:6"), "{text}");
        assert!(text.contains("comp twice(x: f32)"), "{text}");
        assert!(text.contains("twice(1, 2)"), "{text}");
    }

    #[test]
    fn lines_count_from_the_input_start() {
        let d = Diag::check("name", "unknown name `y`", 8..9);
        let text = render(
            &d,
            &Origin::new("<stdin>", 7),
            "let x =\ny",
            &Sources::default(),
            false,
        );
        assert!(text.contains("(<stdin>:8:1)"), "{text}");
        assert!(text.contains("<stdin>:8:1"), "{text}");
        assert!(text.contains(" 8 │"), "{text}");
    }
}
