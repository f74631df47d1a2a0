//! Diagnostics: values with a stable code, a machine-readable rule, a message
//! and a location. [`Renderer`] shows them to a person with the source
//! line and carets under the span ([`Sources`] holds the texts).

mod model;
mod render;

pub use model::rule_in_words;
pub use render::{Renderer, Sources};

use std::fmt;

/// A stable diagnostic code such as `SPX-Z202`.
///
/// Codes named by the semaprax compiler keep its number; the ones this
/// project chose are listed in `docs/DIAGNOSTICS.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Code(pub &'static str);

impl Code {
    /// Structural admission failure during derivation.
    pub const Z202: Code = Code("SPX-Z202");
    /// The derived schema document exceeded its byte budget.
    pub const Z203: Code = Code("SPX-Z203");
    /// A supplied schema document is not the exact replay of its source.
    pub const Z204: Code = Code("SPX-Z204");
    /// A value document is not canonical JSON.
    pub const Z205: Code = Code("SPX-Z205");
    /// A decode-time admission rule failed.
    pub const Z206: Code = Code("SPX-Z206");

    /// The code as text, e.g. `"SPX-Z202"`.
    pub const fn as_str(self) -> &'static str {
        self.0
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

/// How serious a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Severity {
    /// A refusal.
    Error,
    /// Reported, but the operation goes on.
    Warning,
    /// Information only, for example what the `.spx` reader skipped
    /// without knowing it (`spx check --verbose` prints notes).
    Note,
}

impl Severity {
    /// `error`, `warning` or `note`, as printed.
    pub const fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        }
    }
}

/// A byte range in a source text: `start..end`, `end` exclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Span {
    /// Byte offset of the first byte.
    pub start: usize,
    /// Byte offset one past the last byte.
    pub end: usize,
}

/// Where a diagnostic happened.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub enum Location {
    /// No particular place.
    #[default]
    None,
    /// A place in a `.spx` (or other text) file: the path as the user gave
    /// it, 1-based line and 1-based column counted in characters, and the
    /// byte range of the offending text when it is known.
    Source {
        /// The path as the user wrote it.
        path: String,
        /// 1-based line.
        line: u32,
        /// 1-based column, in Unicode scalar values.
        column: u32,
        /// The byte range of the offending text in the file, when known.
        span: Option<Span>,
    },
    /// A whole file, with no finer position.
    File {
        /// The path as the user wrote it.
        path: String,
    },
    /// An RFC 6901 JSON Pointer into a JSON document (`""` is the whole
    /// document).
    Pointer(String),
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::None => Ok(()),
            Location::Source {
                path, line, column, ..
            } => write!(f, "{path}:{line}:{column}"),
            Location::File { path } => f.write_str(path),
            Location::Pointer(p) => {
                if p.is_empty() {
                    f.write_str("(document root)")
                } else {
                    f.write_str(p)
                }
            }
        }
    }
}

/// One diagnostic.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// The stable code.
    pub code: Code,
    /// The machine-readable rule name, e.g. `type.field.unsupported`.
    pub rule: &'static str,
    /// The message. For the codes of FORMAT.md it is exactly the message the
    /// specification gives.
    pub message: String,
    /// Where it happened.
    pub location: Location,
    /// Further explanation in words (an expectation fit to send back to a
    /// model, a structural diff, a note). Never part of the contract.
    pub detail: Option<String>,
    /// What to do about it, in one or a few lines (`= help:`).
    pub help: Option<String>,
    /// Further notes (`= note:`), for example where a refused value came
    /// from (a macro argument, a `Cargo.toml` key).
    pub notes: Vec<String>,
    /// For a refusal of streamed input: the 0-based byte offset in the
    /// stream of the first byte after which no continuation could be
    /// admitted.
    pub offset: Option<u64>,
}

impl Diagnostic {
    /// An error with the given code, rule and message and no location.
    pub fn error(code: Code, rule: &'static str, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            code,
            rule,
            message: message.into(),
            location: Location::None,
            detail: None,
            help: None,
            notes: Vec::new(),
            offset: None,
        }
    }

    /// A warning with the given code, rule and message and no location.
    pub fn warning(code: Code, rule: &'static str, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, rule, message)
        }
    }

    /// A note with the given code, rule and message and no location.
    pub fn note(code: Code, rule: &'static str, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Note,
            ..Diagnostic::error(code, rule, message)
        }
    }

    /// Sets the location.
    pub fn at(mut self, location: Location) -> Self {
        self.location = location;
        self
    }

    /// Sets a JSON Pointer location.
    pub fn at_pointer(self, pointer: impl Into<String>) -> Self {
        self.at(Location::Pointer(pointer.into()))
    }

    /// Sets the detail text.
    pub fn with_detail(mut self, detail: impl Into<String>) -> Self {
        self.detail = Some(detail.into());
        self
    }

    /// Sets the help text: what to do about it.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Adds a note (see [`Diagnostic::notes`]).
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// Sets the stream offset (see [`Diagnostic::offset`]).
    pub fn at_offset(mut self, offset: u64) -> Self {
        self.offset = Some(offset);
        self
    }

    /// A Z202 derivation refusal for `rule`, with the message of FORMAT.md §4.
    pub fn z202(rule: &'static str) -> Self {
        Diagnostic::error(
            Code::Z202,
            rule,
            format!("AgentInteractionSchema invariant failed: {rule}"),
        )
    }

    /// The Z205 refusal (not canonical), with the message of FORMAT.md §7.
    pub fn z205(rule: &'static str) -> Self {
        Diagnostic::error(Code::Z205, rule, Z205_MESSAGE)
    }

    /// A Z206 refusal for `rule`, with the message of FORMAT.md §7.
    pub fn z206(rule: &'static str) -> Self {
        Diagnostic::error(
            Code::Z206,
            rule,
            format!("AgentInteractionValue invariant failed: {rule}"),
        )
    }

    /// True for errors.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The diagnostic as one JSON object on one line (no trailing LF), with
    /// the keys `severity`, `code`, `rule`, `message`, then the location
    /// (`path`/`line`/`column` and `span` as `{"start":…,"end":…}` bytes, or
    /// `pointer`), then `detail`, `help`, `notes` (an array of strings) and
    /// `offset` when present.
    pub fn to_json_line(&self) -> String {
        use crate::quote::quote_into;
        let mut s = String::new();
        s.push_str("{\"severity\":");
        quote_into(&mut s, self.severity.as_str());
        s.push_str(",\"code\":");
        quote_into(&mut s, self.code.as_str());
        s.push_str(",\"rule\":");
        quote_into(&mut s, self.rule);
        s.push_str(",\"message\":");
        quote_into(&mut s, &self.message);
        match &self.location {
            Location::None => {}
            Location::Source {
                path,
                line,
                column,
                span,
            } => {
                s.push_str(",\"path\":");
                quote_into(&mut s, path);
                s.push_str(&format!(",\"line\":{line},\"column\":{column}"));
                if let Some(Span { start, end }) = span {
                    s.push_str(&format!(",\"span\":{{\"start\":{start},\"end\":{end}}}"));
                }
            }
            Location::File { path } => {
                s.push_str(",\"path\":");
                quote_into(&mut s, path);
            }
            Location::Pointer(p) => {
                s.push_str(",\"pointer\":");
                quote_into(&mut s, p);
            }
        }
        if let Some(d) = &self.detail {
            s.push_str(",\"detail\":");
            quote_into(&mut s, d);
        }
        if let Some(h) = &self.help {
            s.push_str(",\"help\":");
            quote_into(&mut s, h);
        }
        if !self.notes.is_empty() {
            s.push_str(",\"notes\":[");
            for (i, n) in self.notes.iter().enumerate() {
                if i > 0 {
                    s.push(',');
                }
                quote_into(&mut s, n);
            }
            s.push(']');
        }
        if let Some(o) = self.offset {
            s.push_str(&format!(",\"offset\":{o}"));
        }
        s.push('}');
        s
    }
}

/// The Z205 message of FORMAT.md §7.
pub const Z205_MESSAGE: &str =
    "AgentInteractionValue is not canonical semaprax.agent-interaction-value.v1 JSON";

/// The Z204 message of FORMAT.md §5.
pub const Z204_MESSAGE: &str =
    "AgentInteractionSchema is not the exact replay of its verified source";

impl fmt::Display for Diagnostic {
    /// The compact form, without source lines: `error[CODE]: message`, then
    /// `  --> location`, the detail lines (`  = …`), the notes
    /// (`  = note: …`) and the help (`  = help: …`). [`Renderer`] is the
    /// form with source snippets.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}[{}]: {}",
            self.severity.as_str(),
            self.code,
            self.message
        )?;
        if self.location != Location::None {
            write!(f, "\n  --> {}", self.location)?;
        }
        if let Some(d) = &self.detail {
            for line in d.lines() {
                write!(f, "\n  = {line}")?;
            }
        }
        for n in &self.notes {
            write!(f, "\n  = note: {n}")?;
        }
        if let Some(h) = &self.help {
            for (i, line) in h.lines().enumerate() {
                let lead = if i == 0 { "help: " } else { "      " };
                write!(f, "\n  = {lead}{line}")?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostic {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_line_carries_notes() {
        let d = Diagnostic::z202("type.unresolved")
            .with_note("first")
            .with_note("se\"cond");
        assert_eq!(
            d.to_json_line(),
            "{\"severity\":\"error\",\"code\":\"SPX-Z202\",\"rule\":\"type.unresolved\",\"message\":\"AgentInteractionSchema invariant failed: type.unresolved\",\"notes\":[\"first\",\"se\\\"cond\"]}"
        );
        assert_eq!(
            d.to_string(),
            "error[SPX-Z202]: AgentInteractionSchema invariant failed: type.unresolved\n  = note: first\n  = note: se\"cond"
        );
    }

    #[test]
    fn json_line_carries_span_help_and_offset() {
        let d = Diagnostic::z202("type.field.unsupported")
            .at(Location::Source {
                path: "a.spx".into(),
                line: 3,
                column: 5,
                span: Some(Span { start: 20, end: 23 }),
            })
            .with_help("use an exact integer")
            .at_offset(7);
        assert_eq!(
            d.to_json_line(),
            "{\"severity\":\"error\",\"code\":\"SPX-Z202\",\"rule\":\"type.field.unsupported\",\"message\":\"AgentInteractionSchema invariant failed: type.field.unsupported\",\"path\":\"a.spx\",\"line\":3,\"column\":5,\"span\":{\"start\":20,\"end\":23},\"help\":\"use an exact integer\",\"offset\":7}"
        );
        assert_eq!(
            d.to_string(),
            "error[SPX-Z202]: AgentInteractionSchema invariant failed: type.field.unsupported\n  --> a.spx:3:5\n  = help: use an exact integer"
        );
    }
}
