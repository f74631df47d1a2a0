//! An owned, ordered JSON value and its compact writer, for documents this
//! crate builds and rewrites (the dialect adapters of [`crate::project`]).
//! Untrusted text is never read into it: [`Json::read`] takes what the one
//! reader accepted and copies it out of the [`Tree`].

use super::read::{read, Options, ReadError};
use super::tree::{Kind, Tree};
use crate::quote::quote_into;

/// One JSON value. Objects keep member order; numbers keep their exact text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Json {
    Null,
    Bool(bool),
    /// The number exactly as written (RFC 8259 grammar already checked).
    Number(String),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    /// Reads `text` with the one reader and copies the result out.
    pub(crate) fn read(text: &str, options: &Options) -> Result<Json, ReadError> {
        read(text, options).map(|tree| Json::from_tree(&tree))
    }

    /// Copies a whole tree out, without recursion: the nodes are visited in
    /// reverse pre-order, so a container's children are the last values
    /// built when the container is reached.
    pub(crate) fn from_tree(tree: &Tree<'_>) -> Json {
        let mut built: Vec<Json> = Vec::new();
        for idx in (0..tree.nodes.len()).rev() {
            let value = match tree.node(idx).kind {
                Kind::Null => Json::Null,
                Kind::Bool(b) => Json::Bool(b),
                Kind::Number => Json::Number(tree.raw(idx).to_string()),
                Kind::String { .. } => Json::String(tree.text(idx).into_owned()),
                Kind::Array => {
                    let from = built.len().saturating_sub(tree.len(idx));
                    Json::Array(built.drain(from..).rev().collect())
                }
                Kind::Object => {
                    let from = built.len().saturating_sub(tree.children(idx).count());
                    let mut items = built.drain(from..).rev();
                    let mut members = Vec::new();
                    while let (Some(k), Some(v)) = (items.next(), items.next()) {
                        let Json::String(k) = k else { continue };
                        members.push((k, v));
                    }
                    Json::Object(members)
                }
            };
            built.push(value);
        }
        built.pop().unwrap_or(Json::Null)
    }

    /// The text of a string.
    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    /// The elements of an array.
    pub(crate) fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The member `key` of an object.
    pub(crate) fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
}

/// Appends `v` compactly (no whitespace), strings per FORMAT.md §2.
///
/// Recursive: only ever called on trees this crate built from a schema
/// (bounded by the graph depth), never on untrusted input.
pub(crate) fn write(out: &mut String, v: &Json) {
    match v {
        Json::Null => out.push_str("null"),
        Json::Bool(true) => out.push_str("true"),
        Json::Bool(false) => out.push_str("false"),
        Json::Number(n) => out.push_str(n),
        Json::String(s) => quote_into(out, s),
        Json::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(out, item);
            }
            out.push(']');
        }
        Json::Object(members) => {
            out.push('{');
            for (i, (k, item)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                quote_into(out, k);
                out.push(':');
                write(out, item);
            }
            out.push('}');
        }
    }
}
