//! The compact span tree the reader builds: one [`Node`] per JSON value, in
//! pre-order, each holding its byte span in the source text. Strings are
//! unescaped only when asked for ([`Tree::text`]), so reading allocates
//! nothing per value.

use std::borrow::Cow;

use crate::quote::{push_pointer_token, quote_into};

/// What a node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Null,
    Bool(bool),
    Number,
    /// A string; `escaped` when its text contains at least one `\`.
    String {
        escaped: bool,
    },
    Array,
    Object,
}

/// One node of the tree, in pre-order. An object's children alternate key
/// (a `String` node) and value.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Node {
    pub kind: Kind,
    /// Byte offset of the first byte (the `"` of a string, the `{` …).
    pub start: u32,
    /// Byte offset one past the last byte.
    pub end: u32,
    /// Index of the first node after this node's subtree.
    pub next: u32,
}

/// A document the reader accepted. Node 0 is the top-level value.
#[derive(Debug)]
pub(crate) struct Tree<'a> {
    pub src: &'a str,
    pub nodes: Vec<Node>,
}

impl<'a> Tree<'a> {
    /// The node at `idx` (the tree is never empty after a successful read).
    pub fn node(&self, idx: usize) -> Node {
        self.nodes.get(idx).copied().unwrap_or(Node {
            kind: Kind::Null,
            start: 0,
            end: 0,
            next: idx as u32 + 1,
        })
    }

    /// The direct children of a container, in document order.
    pub fn children(&self, idx: usize) -> Children<'_, 'a> {
        let node = self.node(idx);
        Children {
            tree: self,
            at: idx + 1,
            end: (node.next as usize).max(idx + 1),
        }
    }

    /// `(key, value)` node pairs of an object, in document order (a key
    /// written twice appears twice).
    pub fn members(&self, idx: usize) -> Members<'_, 'a> {
        Members {
            children: self.children(idx),
        }
    }

    /// The number of elements of an array.
    pub fn len(&self, idx: usize) -> usize {
        self.children(idx).count()
    }

    /// The raw text of a node.
    pub fn raw(&self, idx: usize) -> &'a str {
        let n = self.node(idx);
        self.src
            .get(n.start as usize..n.end as usize)
            .unwrap_or_default()
    }

    /// The unescaped text of a string node.
    pub fn text(&self, idx: usize) -> Cow<'a, str> {
        string_text(self.src, self.node(idx))
    }

    /// True when the string node `idx` unescapes to exactly `expected`.
    pub fn text_eq(&self, idx: usize, expected: &str) -> bool {
        match self.node(idx).kind {
            Kind::String { .. } => self.text(idx) == expected,
            _ => false,
        }
    }

    /// The value of the last occurrence of `key` in object `obj` (the only
    /// one when the reader refused duplicates).
    pub fn lookup(&self, obj: usize, key: &str) -> Option<usize> {
        self.members(obj)
            .filter(|&(k, _)| self.text_eq(k, key))
            .last()
            .map(|(_, v)| v)
    }

    /// The JSON Pointer of the deepest node (or object member, from the
    /// start of its key to the end of its value) whose text holds byte
    /// `offset`; `""` when none does.
    pub fn locate(&self, offset: usize) -> String {
        let mut ptr = String::new();
        let mut idx = 0;
        let inside = |i: usize| {
            let n = self.node(i);
            (n.start as usize) <= offset && offset < n.end as usize
        };
        if !inside(0) {
            return ptr;
        }
        loop {
            match self.node(idx).kind {
                Kind::Object => {
                    let hit = self.members(idx).find(|&(k, v)| {
                        (self.node(k).start as usize) <= offset
                            && offset < self.node(v).end as usize
                    });
                    let Some((k, v)) = hit else { break };
                    push_pointer_token(&mut ptr, &self.text(k));
                    if !inside(v) {
                        break;
                    }
                    idx = v;
                }
                Kind::Array => {
                    let Some((i, e)) = self.children(idx).enumerate().find(|&(_, e)| inside(e))
                    else {
                        break;
                    };
                    push_pointer_token(&mut ptr, &i.to_string());
                    idx = e;
                }
                _ => break,
            }
        }
        ptr
    }

    /// A short description of a node for messages sent back to a model:
    /// `"300"`, `42`, `true`, `null`, `an object with keys "a", "b"`,
    /// `an array of 3 elements`.
    pub fn describe(&self, idx: usize) -> String {
        let quoted = |s: &str| {
            let mut q = String::new();
            quote_into(&mut q, s);
            q
        };
        match self.node(idx).kind {
            Kind::Null => "null".to_string(),
            Kind::Bool(b) => b.to_string(),
            Kind::Number => {
                let n = self.raw(idx);
                if n.len() > 40 {
                    format!("a number of {} digits", n.len())
                } else {
                    n.to_string()
                }
            }
            Kind::String { .. } => {
                let s = self.text(idx);
                if s.chars().count() > 40 {
                    format!("a string of {} UTF-8 bytes", s.len())
                } else {
                    quoted(&s)
                }
            }
            Kind::Array => match self.len(idx) {
                0 => "an empty array".to_string(),
                1 => "an array of 1 element".to_string(),
                n => format!("an array of {n} elements"),
            },
            Kind::Object => {
                let count = self.members(idx).count();
                if count == 0 {
                    return "an empty object".to_string();
                }
                let keys: Vec<String> = self
                    .members(idx)
                    .take(8)
                    .map(|(k, _)| quoted(&self.text(k)))
                    .collect();
                let more = if count > 8 { ", …" } else { "" };
                format!("an object with keys {}{more}", keys.join(", "))
            }
        }
    }

    /// A word for the JSON type of a node: `a string`, `an object`, ….
    pub fn kind_word(&self, idx: usize) -> &'static str {
        match self.node(idx).kind {
            Kind::Null => "null",
            Kind::Bool(_) => "a boolean",
            Kind::Number => "a number",
            Kind::String { .. } => "a string",
            Kind::Array => "an array",
            Kind::Object => "an object",
        }
    }
}

/// The unescaped text of a string node of `src` (the reader uses it on
/// keys before the tree is complete).
pub(super) fn string_text(src: &str, n: Node) -> Cow<'_, str> {
    let inner = src
        .get(n.start as usize + 1..(n.end as usize).saturating_sub(1))
        .unwrap_or_default();
    match n.kind {
        Kind::String { escaped: true } => Cow::Owned(unescape(inner)),
        _ => Cow::Borrowed(inner),
    }
}

/// Iterator over a container's children.
pub(crate) struct Children<'t, 'a> {
    tree: &'t Tree<'a>,
    at: usize,
    end: usize,
}

impl Iterator for Children<'_, '_> {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        if self.at >= self.end {
            return None;
        }
        let idx = self.at;
        self.at = (self.tree.node(idx).next as usize).max(idx + 1);
        Some(idx)
    }
}

/// Iterator over an object's `(key, value)` pairs.
pub(crate) struct Members<'t, 'a> {
    children: Children<'t, 'a>,
}

impl Iterator for Members<'_, '_> {
    type Item = (usize, usize);
    fn next(&mut self) -> Option<(usize, usize)> {
        let k = self.children.next()?;
        let v = self.children.next()?;
        Some((k, v))
    }
}

/// Unescapes the inside of a string the reader accepted.
fn unescape(inner: &str) -> String {
    let mut out = String::with_capacity(inner.len());
    let mut rest = inner;
    while let Some(i) = rest.find('\\') {
        out.push_str(rest.get(..i).unwrap_or_default());
        let b = rest.as_bytes();
        let (c, used) = match b.get(i + 1) {
            Some(b'"') => ('"', 2),
            Some(b'\\') => ('\\', 2),
            Some(b'/') => ('/', 2),
            Some(b'b') => ('\u{8}', 2),
            Some(b'f') => ('\u{c}', 2),
            Some(b'n') => ('\n', 2),
            Some(b'r') => ('\r', 2),
            Some(b't') => ('\t', 2),
            Some(b'u') => {
                let hi = hex_at(rest, i + 2);
                if (0xD800..=0xDBFF).contains(&hi) {
                    let lo = hex_at(rest, i + 8);
                    let cp = 0x10000 + ((hi - 0xD800) << 10) + (lo.wrapping_sub(0xDC00) & 0x3FF);
                    (char::from_u32(cp).unwrap_or('\u{FFFD}'), 12)
                } else {
                    (char::from_u32(hi).unwrap_or('\u{FFFD}'), 6)
                }
            }
            _ => ('\u{FFFD}', 2),
        };
        out.push(c);
        rest = rest.get(i + used..).unwrap_or_default();
    }
    out.push_str(rest);
    out
}

fn hex_at(s: &str, at: usize) -> u32 {
    s.get(at..at + 4)
        .and_then(|h| u32::from_str_radix(h, 16).ok())
        .unwrap_or(0xFFFD)
}
