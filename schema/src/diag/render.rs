//! Diagnostics rendered for a person, with the offending source line and
//! carets under the exact span, by `annotate-snippets` (the renderer rustc
//! and cargo use):
//!
//! ```text
//! error[SPX-Z202]: AgentInteractionSchema invariant failed: type.field.unsupported
//!   --> agents/planner.spx:19:5
//!    |
//! 19 |     ratio: f64,
//!    |     ^^^^^^^^^^
//!    |
//!    = help: a schema carries no floating point: use an exact integer …
//! ```
//!
//! The renderer needs the text the span points into. Callers say which
//! texts they read with [`Sources`]: [`crate::binding::Snapshot::record`]
//! adds a snapshot's text under the path its diagnostics name, so the
//! snippet shows exactly the bytes that were derived from. A diagnostic
//! whose text is not in [`Sources`] (or whose span does not fit it) is
//! rendered with its `--> path:line:col` line only.

use super::{Diagnostic, Location, Severity, Span};
use annotate_snippets::{AnnotationKind, Group, Level, Origin, Snippet};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The source texts diagnostics point into, by the path their locations
/// name (the path as the user wrote it).
///
/// ```
/// use spx_schema::diag::{Renderer, Sources};
/// let text = "module m;\nrecord R { x: i64; }\n";
/// let errors = spx_schema::source::read_module("m.spx", text).unwrap_err();
/// let mut sources = Sources::new();
/// sources.insert("m.spx", text);
/// let shown = Renderer::plain().render(&errors[0], &sources);
/// assert!(shown.contains("2 | record R { x: i64; }"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sources {
    files: BTreeMap<String, Arc<str>>,
}

impl Sources {
    /// No texts.
    pub fn new() -> Sources {
        Sources::default()
    }

    /// Records `text` as the contents of `path` (replacing an earlier one).
    pub fn insert(&mut self, path: impl Into<String>, text: impl Into<Arc<str>>) {
        self.files.insert(path.into(), text.into());
    }

    /// The text recorded for `path`.
    pub fn get(&self, path: &str) -> Option<&str> {
        self.files.get(path).map(|t| &**t)
    }

    /// Adds every text of `other`.
    pub fn extend(&mut self, other: &Sources) {
        for (p, t) in &other.files {
            self.files.insert(p.clone(), Arc::clone(t));
        }
    }

    /// True when no text is recorded.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

/// Renders diagnostics as text for a person (see the module docs).
#[derive(Debug, Clone, Copy)]
pub struct Renderer {
    styled: bool,
    rule_in_title: bool,
}

impl Renderer {
    /// Uncoloured text (files, `compile_error!`, pipes).
    pub const fn plain() -> Renderer {
        Renderer {
            styled: false,
            rule_in_title: false,
        }
    }

    /// ANSI-coloured text, for a terminal.
    pub const fn styled() -> Renderer {
        Renderer {
            styled: true,
            rule_in_title: false,
        }
    }

    /// Plain or styled.
    pub const fn colored(color: bool) -> Renderer {
        if color {
            Renderer::styled()
        } else {
            Renderer::plain()
        }
    }

    /// Whether the title ends with `` (rule `…`) `` when the message does
    /// not already end with the rule (the macro's text, where no other
    /// field carries it). Default: off.
    pub const fn rule_in_title(mut self, yes: bool) -> Renderer {
        self.rule_in_title = yes;
        self
    }

    /// `d` as text: the title `error[CODE]: message`, the `--> path:line:col`
    /// line, the source line(s) with carets under the span when the text is
    /// in `sources`, then `= note:` lines (the detail, the notes, the
    /// stream offset) and the `= help:` line. No trailing line feed.
    pub fn render(&self, d: &Diagnostic, sources: &Sources) -> String {
        let level = match d.severity {
            Severity::Error => Level::ERROR,
            Severity::Warning => Level::WARNING,
            Severity::Note => Level::NOTE,
        };
        let mut title = d.message.clone();
        if self.rule_in_title && !d.message.ends_with(d.rule) {
            title.push_str(&format!(" (rule `{}`)", d.rule));
        }
        let mut group = Group::with_title(level.primary_title(title).id(d.code.as_str()));
        match &d.location {
            Location::None => {}
            Location::Source {
                path,
                line,
                column,
                span,
            } => match sources.get(path).and_then(|text| {
                let s = span.or_else(|| at_line_column(text, *line, *column))?;
                fit(text, s)
            }) {
                Some((text, range)) => {
                    group = group.element(
                        Snippet::source(text)
                            .path(path.as_str())
                            .annotation(AnnotationKind::Primary.span(range)),
                    );
                }
                None => {
                    group = group.element(
                        Origin::path(path.as_str())
                            .line(*line as usize)
                            .char_column(*column as usize),
                    );
                }
            },
            Location::File { path } => group = group.element(Origin::path(path.as_str())),
            Location::Pointer(p) => {
                let shown = if p.is_empty() {
                    "(document root)"
                } else {
                    p.as_str()
                };
                group = group.element(Origin::path(shown));
            }
        }
        if let Some(detail) = &d.detail {
            group = group.element(Level::NOTE.message(detail.as_str()));
        }
        for n in &d.notes {
            group = group.element(Level::NOTE.message(n.as_str()));
        }
        let offset;
        if let Some(o) = d.offset {
            offset = format!("no continuation is admitted after byte offset {o} of the stream");
            group = group.element(Level::NOTE.message(offset.as_str()));
        }
        if let Some(h) = &d.help {
            group = group.element(Level::HELP.message(h.as_str()));
        }
        let renderer = if self.styled {
            annotate_snippets::Renderer::styled()
        } else {
            annotate_snippets::Renderer::plain()
        };
        renderer.render(&[group])
    }
}

/// The span of the character at 1-based `line` and `column` (in
/// characters) of `text`; an empty span at the end of the line when the
/// column is one past its last character.
fn at_line_column(text: &str, line: u32, column: u32) -> Option<Span> {
    let start = if line <= 1 {
        0
    } else {
        text.match_indices('\n').nth(line as usize - 2)?.0 + 1
    };
    let rest = &text[start..];
    let line_text = rest.split('\n').next().unwrap_or("");
    let mut chars = line_text.char_indices();
    match chars.nth((column.max(1) - 1) as usize) {
        Some((i, c)) => Some(Span {
            start: start + i,
            end: start + i + c.len_utf8(),
        }),
        None if line_text.chars().count() + 1 == column as usize => Some(Span {
            start: start + line_text.len(),
            end: start + line_text.len(),
        }),
        None => None,
    }
}

/// The text and the byte range of `span` in it, when the span lies inside
/// the text on character boundaries (a span from another version of the
/// file is never rendered against the wrong text).
fn fit(text: &str, span: Span) -> Option<(&str, std::ops::Range<usize>)> {
    let ok = span.start <= span.end
        && span.end <= text.len()
        && text.is_char_boundary(span.start)
        && text.is_char_boundary(span.end);
    ok.then_some((text, span.start..span.end))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Code;

    const TEXT: &str =
        "module m;\n\n@id(\"m.r\")\nrecord R {\n    @id(\"m.r.x\")\n    ratio: f64,\n}\n";

    fn sources() -> Sources {
        let mut s = Sources::new();
        s.insert("m.spx", TEXT);
        s
    }

    fn at(start: usize, end: usize, line: u32, column: u32) -> Location {
        Location::Source {
            path: "m.spx".into(),
            line,
            column,
            span: Some(Span { start, end }),
        }
    }

    #[test]
    fn a_spanned_diagnostic_shows_its_line_with_carets_then_notes_and_help() {
        let i = TEXT.find("ratio").unwrap();
        let d = Diagnostic::z202("type.field.unsupported")
            .at(at(i, i + "ratio: f64".len(), 6, 5))
            .with_detail("first\n  second")
            .with_note("while deriving root `m.r`")
            .with_help("use an exact integer\nor a string");
        assert_eq!(
            Renderer::plain().render(&d, &sources()),
            "error[SPX-Z202]: AgentInteractionSchema invariant failed: type.field.unsupported
 --> m.spx:6:5
  |
6 |     ratio: f64,
  |     ^^^^^^^^^^
  |
  = note: first
            second
  = note: while deriving root `m.r`
  = help: use an exact integer
          or a string"
        );
        let styled = Renderer::styled().render(&d, &sources());
        assert!(styled.contains('\u{1b}'));
        assert_ne!(styled, Renderer::plain().render(&d, &sources()));
    }

    #[test]
    fn an_empty_span_is_a_caret_after_the_text() {
        let end = TEXT.find("f64").unwrap() + 3;
        let d = Diagnostic::error(Code("SPX-P002"), "syntax.unexpected_token", "expected `,`")
            .at(at(end, end, 6, 15))
            .with_help("add `,` here");
        let shown = Renderer::plain().rule_in_title(true).render(&d, &sources());
        assert_eq!(
            shown,
            "error[SPX-P002]: expected `,` (rule `syntax.unexpected_token`)
 --> m.spx:6:15
  |
6 |     ratio: f64,
  |               ^
  |
  = help: add `,` here"
        );
    }

    #[test]
    fn without_the_text_or_with_a_span_that_does_not_fit_only_the_origin() {
        let d = Diagnostic::z202("type.kind").at(at(3, 900, 2, 1));
        let origin_only =
            "error[SPX-Z202]: AgentInteractionSchema invariant failed: type.kind\n--> m.spx:2:1";
        assert_eq!(Renderer::plain().render(&d, &sources()), origin_only);
        assert_eq!(Renderer::plain().render(&d, &Sources::new()), origin_only);
        // A span inside a character is not rendered against the text.
        let mut s = Sources::new();
        s.insert("m.spx", "é");
        let d = Diagnostic::z202("type.kind").at(at(1, 2, 1, 1));
        assert_eq!(
            Renderer::plain().render(&d, &s),
            "error[SPX-Z202]: AgentInteractionSchema invariant failed: type.kind\n--> m.spx:1:1"
        );
    }

    #[test]
    fn a_line_and_column_without_a_span_point_at_that_character() {
        let mut s = Sources::new();
        s.insert("spx.lock", "{\"spx_lock\":1,\"pins\":[\n<<<<<<< HEAD\n]}\n");
        let d =
            Diagnostic::error(Code("SPX-L001"), "lock.syntax", "markers").at(Location::Source {
                path: "spx.lock".into(),
                line: 2,
                column: 1,
                span: None,
            });
        assert_eq!(
            Renderer::plain().render(&d, &s),
            "error[SPX-L001]: markers\n --> spx.lock:2:1\n  |\n2 | <<<<<<< HEAD\n  | ^"
        );
        assert_eq!(
            at_line_column("ab\ncd", 2, 3),
            Some(Span { start: 5, end: 5 })
        );
        assert_eq!(at_line_column("ab\ncd", 2, 4), None);
        assert_eq!(at_line_column("ab\ncd", 3, 1), None);
        assert_eq!(at_line_column("", 1, 1), Some(Span { start: 0, end: 0 }));
    }

    #[test]
    fn files_pointers_and_offsets() {
        let d = Diagnostic::z206("value.integer")
            .at_pointer("/value/fields/x")
            .at_offset(12);
        assert_eq!(
            Renderer::plain().render(&d, &Sources::new()),
            "error[SPX-Z206]: AgentInteractionValue invariant failed: value.integer\n--> /value/fields/x\n = note: no continuation is admitted after byte offset 12 of the stream"
        );
        let d = Diagnostic::z205("json.syntax").at_pointer("");
        assert!(Renderer::plain()
            .render(&d, &Sources::new())
            .ends_with("--> (document root)"));
        let d = Diagnostic::warning(Code("SPX-W001"), "identity.automatic", "no id").at(
            Location::File {
                path: "a.spx".into(),
            },
        );
        assert_eq!(
            Renderer::plain().render(&d, &Sources::new()),
            "warning[SPX-W001]: no id\n--> a.spx"
        );
    }

    #[test]
    fn sources_record_and_merge() {
        let mut a = Sources::new();
        assert!(a.is_empty());
        a.insert("a.spx", "A");
        let mut b = Sources::new();
        b.insert("b.spx", "B");
        b.insert("a.spx", "A2");
        a.extend(&b);
        assert_eq!(
            (a.get("a.spx"), a.get("b.spx"), a.get("c")),
            (Some("A2"), Some("B"), None)
        );
    }
}
