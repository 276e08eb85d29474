//! Diagnostics are data: every stage returns them, and only `render` (at the
//! edge: the CLI, the REPL, the conformance runner) turns them into text.

pub use crate::code::{Code, Rule};
use crate::span::Span;
use ariadne::{Color, Config, IndexType, Label, Report, ReportKind, Source};

/// Which stage found the problem; also picks the exit code.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Lexing or parsing.
    Syntax,
    /// Types, shapes, attributes, names: found before anything runs.
    Check,
    /// Found while running: a failed assertion, a cancelled run.
    Runtime,
}

#[derive(Clone, Debug)]
pub struct Diag {
    pub stage: Stage,
    /// The rule broken (`Reshape: C2`, `syntax`, `assert` as the user sees it).
    pub code: Code,
    /// One line saying what is wrong.
    pub message: String,
    /// Where, and what to say under the underline.
    pub span: Span,
    pub label: String,
    /// Other places worth pointing at.
    pub secondary: Vec<(Span, String)>,
    pub notes: Vec<String>,
    pub help: Option<String>,
}

impl Diag {
    pub fn new(
        stage: Stage,
        code: impl Into<Code>,
        message: impl Into<String>,
        span: Span,
    ) -> Self {
        Diag {
            stage,
            code: code.into(),
            message: message.into(),
            span,
            label: String::new(),
            secondary: vec![],
            notes: vec![],
            help: None,
        }
    }
    pub fn syntax(message: impl Into<String>, span: Span) -> Self {
        Diag::new(Stage::Syntax, Code::new(None, Rule::Syntax), message, span)
    }
    /// A check-stage error; `code` is the op and constraint, e.g. `Reshape: C2`.
    pub fn check(code: impl Into<Code>, message: impl Into<String>, span: Span) -> Self {
        Diag::new(Stage::Check, code, message, span)
    }
    pub fn runtime(code: impl Into<Code>, message: impl Into<String>, span: Span) -> Self {
        Diag::new(Stage::Runtime, code, message, span)
    }
    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }
    pub fn with_secondary(mut self, span: Span, label: impl Into<String>) -> Self {
        self.secondary.push((span, label.into()));
        self
    }
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// The one-line form, `[code] message`: what tests and summaries match on.
    pub fn headline(&self) -> String {
        format!("[{}] {}", self.code, self.message)
    }

    /// 1-based line and column of the primary span's start (columns count characters).
    pub fn line_col(&self, src: &str) -> (usize, usize) {
        line_col(src, self.span.start)
    }
}

/// 1-based line and column (in characters) of a byte offset. Scans the text up to
/// `offset`: for many offsets into one text, use `LineIndex`.
pub fn line_col(src: &str, offset: usize) -> (usize, usize) {
    LineIndex::new(src).line_col(src, offset)
}

/// Where each line of a text starts, so that line/column look-ups cost a binary
/// search plus the length of one line, not a scan from the start.
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(src: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(
            src.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex { starts }
    }

    /// 1-based line and column (in characters) of byte `offset` of `src` (the text
    /// this index was built from).
    pub fn line_col(&self, src: &str, offset: usize) -> (usize, usize) {
        let offset = offset.min(src.len());
        let line = self.starts.partition_point(|&s| s <= offset).max(1);
        let start = self.starts[line - 1];
        let col = match src.get(start..offset) {
            Some(t) => t.chars().count(),
            // Not on a character boundary: count the whole characters before it.
            None => String::from_utf8_lossy(&src.as_bytes()[start..offset])
                .chars()
                .count(),
        };
        (line, col + 1)
    }
}

/// At most this many diagnostics of one input are rendered; the rest are
/// counted. A mangled file can hold thousands of errors, and each rendered one
/// costs a source excerpt.
pub const MAX_SHOWN: usize = 50;

/// The line standing for the diagnostics past `MAX_SHOWN`, if any.
pub fn not_shown(total: usize) -> Option<String> {
    (total > MAX_SHOWN).then(|| {
        format!(
            "... and {} more (only the first {MAX_SHOWN} are shown)\n",
            total - MAX_SHOWN
        )
    })
}

/// A source line longer than this (a pasted literal on one line) is shown as
/// an excerpt around each span instead of whole: rendering costs what it shows.
pub const MAX_LINE_SHOWN: usize = 400;
/// Characters of context shown either side of a span in an excerpt, and the
/// most of one span shown.
const EXCERPT_CONTEXT: usize = 60;
const EXCERPT_SPAN: usize = 120;

/// Renders diagnostics of one source text; the text's line index (ours and
/// ariadne's) is built once, so rendering N diagnostics costs O(text + N·line).
pub struct Renderer<'a> {
    file: &'a str,
    src: &'a str,
    source: Source<&'a str>,
    lines: LineIndex,
    color: bool,
}

impl<'a> Renderer<'a> {
    pub fn new(file: &'a str, src: &'a str, color: bool) -> Self {
        Renderer {
            file,
            src,
            source: Source::from(src),
            lines: LineIndex::new(src),
            color,
        }
    }

    /// 1-based line and column of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        self.lines.line_col(self.src, offset)
    }

    /// The byte range of the line holding `offset`, without its line break.
    fn line_range(&self, offset: usize) -> Span {
        let offset = offset.min(self.src.len());
        let line = self.lines.starts.partition_point(|&s| s <= offset).max(1);
        let start = self.lines.starts[line - 1];
        let end = self
            .lines
            .starts
            .get(line)
            .map_or(self.src.len(), |&next| next - 1);
        start..end.max(start)
    }

    /// Renders a diagnostic with ariadne: `file:line:col`, the span underlined,
    /// notes and help; a diagnostic on an overlong line gets a short excerpt.
    pub fn render(&self, diag: &Diag) -> String {
        let spans = std::iter::once(&diag.span).chain(diag.secondary.iter().map(|(s, _)| s));
        if spans.clone().any(|s| {
            let line = self.line_range(s.start);
            line.end - line.start > MAX_LINE_SHOWN
                || s.end > line.end + 1 && self.line_range(s.end).len() > MAX_LINE_SHOWN
        }) {
            return self.render_excerpts(diag);
        }
        let (file, src) = (self.file, self.src);
        let clamp = |s: &Span| {
            let end = s.end.min(src.len());
            let start = s.start.min(end);
            start..end
        };
        let (line, col) = self.line_col(diag.span.start);
        let mut report = Report::build(ReportKind::Error, (file, clamp(&diag.span)))
            .with_config(
                Config::new()
                    .with_index_type(IndexType::Byte)
                    .with_color(self.color),
            )
            .with_code(&diag.code)
            .with_message(format!("{} ({file}:{line}:{col})", diag.message));
        let primary = if diag.label.is_empty() {
            diag.message.clone()
        } else {
            diag.label.clone()
        };
        report = report.with_label(
            Label::new((file, clamp(&diag.span)))
                .with_message(primary)
                .with_color(Color::Red)
                .with_priority(10),
        );
        for (span, msg) in &diag.secondary {
            report = report.with_label(
                Label::new((file, clamp(span)))
                    .with_message(msg)
                    .with_color(Color::Yellow),
            );
        }
        for note in &diag.notes {
            report = report.with_note(note);
        }
        if let Some(help) = &diag.help {
            report = report.with_help(help);
        }
        let mut out = Vec::new();
        let written = report.finish().write((file, &self.source), &mut out);
        match written {
            Ok(()) => String::from_utf8_lossy(&out).into_owned(),
            // Rendering can only fail on I/O into a Vec, which does not happen; keep the facts anyway.
            Err(_) => format!(
                "error[{}]: {} at {file}:{line}:{col}\n",
                diag.code, diag.message
            ),
        }
    }
}

impl Renderer<'_> {
    /// A diagnostic whose spans lie on overlong lines: each span shown with a
    /// little context, in ariadne's layout (without colour).
    fn render_excerpts(&self, diag: &Diag) -> String {
        use std::fmt::Write as _;
        let (line, col) = self.line_col(diag.span.start);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "[{}] Error: {} ({}:{line}:{col})",
            diag.code, diag.message, self.file
        );
        let primary = if diag.label.is_empty() {
            &diag.message
        } else {
            &diag.label
        };
        let labelled = std::iter::once((&diag.span, primary))
            .chain(diag.secondary.iter().map(|(s, m)| (s, m)));
        for (span, label) in labelled {
            let (l, c) = self.line_col(span.start);
            let (text, caret_at, caret_len) = self.excerpt(span);
            let _ = writeln!(out, "   ╭─[ {}:{l}:{c} ]", self.file);
            let _ = writeln!(out, "{l:>4} │ {text}");
            let _ = writeln!(
                out,
                "     │ {}{} {label}",
                " ".repeat(caret_at),
                "^".repeat(caret_len)
            );
        }
        for note in &diag.notes {
            let _ = writeln!(out, "     │ Note: {note}");
        }
        if let Some(help) = &diag.help {
            let _ = writeln!(out, "     │ Help: {help}");
        }
        out.push_str("─────╯\n");
        out
    }

    /// The text around `span` on its line (marked with `…` where cut), the
    /// column of the span in it and the span's shown width, in characters.
    fn excerpt(&self, span: &Span) -> (String, usize, usize) {
        let src = self.src;
        let line = self.line_range(span.start);
        let start = span.start.clamp(line.start, line.end);
        let end = span.end.clamp(start, line.end).min(start + EXCERPT_SPAN);
        let floor = |mut i: usize| {
            while !src.is_char_boundary(i) {
                i -= 1;
            }
            i
        };
        let ceil = |mut i: usize| {
            while !src.is_char_boundary(i) {
                i += 1;
            }
            i
        };
        let (start, end) = (floor(start), ceil(end));
        let from = floor(start.saturating_sub(EXCERPT_CONTEXT).max(line.start));
        let to = ceil((end + EXCERPT_CONTEXT).min(line.end));
        let clean = |t: &str| -> String {
            t.chars()
                .map(|c| if c.is_control() { ' ' } else { c })
                .collect()
        };
        let lead = if from > line.start { "…" } else { "" };
        let trail = if to < line.end { "…" } else { "" };
        let text = format!("{lead}{}{trail}", clean(&src[from..to]));
        let caret_at = lead.chars().count() + src[from..start].chars().count();
        let caret_len = src[start..end].chars().count().max(1);
        (text, caret_at, caret_len)
    }
}

/// Renders one diagnostic (builds the line index; for many, use `Renderer`).
pub fn render(diag: &Diag, file: &str, src: &str, color: bool) -> String {
    Renderer::new(file, src, color).render(diag)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diagnostic_on_an_overlong_line_shows_an_excerpt() {
        // 100,000 numbers on one line, the error near the middle.
        let mut src: String = (0..50_000).map(|i| format!("{i}, ")).collect();
        let at = src.len();
        src.push_str("oops, ");
        src.extend((0..50_000).map(|i| format!("{i}, ")));
        let src = format!("let x = {{{src}}}\nlet y = 1\n");
        let at = at + "let x = {".len();
        let text = Renderer::new("f", &src, false)
            .render(&Diag::check("name", "unknown", at..at + 4).with_secondary(3..4, "here"));
        assert!(text.len() < 2_000, "{} bytes", text.len());
        assert!(text.contains("oops") && text.contains("f:1:"), "{text}");
        assert!(text.contains("^^^^ unknown"), "{text}");
        // Short lines still go through ariadne.
        let text =
            Renderer::new("f", "let y = z\n", false).render(&Diag::check("name", "unknown", 8..9));
        assert!(text.contains("let y = z"), "{text}");
    }

    #[test]
    fn only_the_first_diagnostics_are_shown() {
        assert_eq!(not_shown(MAX_SHOWN), None);
        assert!(not_shown(MAX_SHOWN + 7).is_some_and(|l| l.contains("7 more")));
    }

    #[test]
    fn line_index_agrees_with_a_scan() {
        let src = "ab\nçd\n\nxyz";
        let idx = LineIndex::new(src);
        let scan = |offset: usize| {
            let before = &src[..offset];
            let line = before.matches('\n').count() + 1;
            let start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
            (line, before[start..].chars().count() + 1)
        };
        for offset in src.char_indices().map(|(i, _)| i).chain([src.len()]) {
            assert_eq!(idx.line_col(src, offset), scan(offset), "at {offset}");
        }
        assert_eq!(idx.line_col(src, 999), (4, 4));
    }

    #[test]
    fn rendering_many_diagnostics_is_linear() {
        // 20,000 diagnostics over a 20,000-line text: quadratic rendering took tens of seconds.
        let src: String = (0..20_000)
            .map(|i| format!("let b{i} = Neg(nope{i})\n"))
            .collect();
        let r = Renderer::new("f", &src, false);
        let t = std::time::Instant::now();
        let mut last = String::new();
        for (i, (start, _)) in src.match_indices("nope").enumerate() {
            last = r.render(&Diag::check(
                "name",
                format!("unknown {i}"),
                start..start + 4,
            ));
        }
        assert!(last.contains("f:20000:"), "{last}");
        assert!(t.elapsed().as_secs() < 10, "took {:?}", t.elapsed());
    }
}
