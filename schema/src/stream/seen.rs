//! What a stream has seen of a refused value, for the details: the words
//! are the walk's ([`crate::walk`]); a stream has no tree to describe, only
//! the kind of value it met and, for a string, its text (or, for an object,
//! the keys read so far).

use std::borrow::Cow;

use crate::json::push::Start;
use crate::quote::quote;
use crate::walk::Found;

pub(super) struct Seen {
    pub(super) kind: &'static str,
    pub(super) text: String,
    /// How the details describe it, when not by its kind or text.
    pub(super) shown: Option<String>,
}

impl Seen {
    /// A value of which only the first byte is known.
    pub(super) fn of(start: Start) -> Seen {
        let kind = match start {
            Start::Object => "an object",
            Start::Array => "an array",
            Start::String => "a string",
            Start::Number => "a number",
            Start::Literal => "a boolean or null",
        };
        Seen {
            kind,
            text: String::new(),
            shown: None,
        }
    }

    /// A complete string.
    pub(super) fn text(text: &str) -> Seen {
        Seen {
            kind: "a string",
            text: text.to_owned(),
            shown: None,
        }
    }

    /// A complete number, `true`, `false` or `null`, as written.
    pub(super) fn scalar(raw: &str) -> Seen {
        let kind = match raw {
            "true" | "false" => "a boolean",
            "null" => "null",
            _ => "a number",
        };
        Seen {
            kind,
            text: String::new(),
            shown: Some(raw.to_owned()),
        }
    }

    /// An object whose keys so far are `keys`.
    pub(super) fn object(keys: &[&str]) -> Seen {
        let shown = if keys.is_empty() {
            "an empty object".to_owned()
        } else {
            let k: Vec<String> = keys.iter().map(|k| quote(k)).collect();
            format!("an object with keys {}", k.join(", "))
        };
        Seen {
            kind: "an object",
            text: String::new(),
            shown: Some(shown),
        }
    }

    /// A value not read yet (under a key refused first).
    pub(super) fn unread() -> Seen {
        Seen {
            kind: "a value",
            text: String::new(),
            shown: Some("a value".to_owned()),
        }
    }
}

impl Found for Seen {
    fn describe(&self, _: usize) -> String {
        if let Some(s) = &self.shown {
            return s.clone();
        }
        if self.kind == "a string" && !self.text.is_empty() {
            let len = self.text.len();
            if self.text.chars().count() > 40 {
                return format!("a string of {len} UTF-8 bytes");
            }
            return quote(&self.text);
        }
        self.kind.to_owned()
    }
    fn kind_word(&self, _: usize) -> &'static str {
        self.kind
    }
    fn text(&self, _: usize) -> Cow<'_, str> {
        Cow::Borrowed(&self.text)
    }
}
