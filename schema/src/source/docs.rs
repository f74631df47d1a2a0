//! Documentation: the `//` (or `///`) comment block directly above a
//! declaration, a field or a case, read from the source text after parsing.
//!
//! A block documents an item when it touches the item's first line, or the
//! line of its `@id("…")`, with no blank line between: every line of the
//! block holds only a comment (code before `//` on a line ends the block,
//! so a trailing comment of the previous field never documents the next
//! one), and the item starts its line. When both the `@id` and the item
//! have a block above them, the two are joined in source order.
//!
//! ```text
//! /// How urgent a step is.        ← documents `planner.priority`
//! @id("planner.priority")
//! variant Priority {
//!     // Unix milliseconds.        ← documents the field below
//!     @id("planner.priority.urgent.deadline_ms")
//!     deadline_ms: i64,            // not documentation (code precedes it)
//! ```
//!
//! Each line loses its `//` (and a third `/`), then one space; trailing
//! white space goes, blank lines at either end of the block go, and the
//! lines are joined with LF.
//!
//! Documentation is not identity: it is never part of the canonical schema,
//! its revision or its digest, so rewording a comment never drifts. It is
//! kept beside the graph ([`crate::Schema::docs`]) and read by code
//! generation (rustdoc) and by the provider dialects (`description`).

use super::lex::{Tok, Token};
use super::model::{Module, Pos};
use std::collections::BTreeMap;

/// Documentation by stable id (of a type, a field or a case).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Docs(BTreeMap<String, String>);

impl Docs {
    /// No documentation.
    pub fn new() -> Docs {
        Docs::default()
    }

    /// The documentation of `stable_id`.
    pub fn get(&self, stable_id: &str) -> Option<&str> {
        self.0.get(stable_id).map(String::as_str)
    }

    /// Documents `stable_id` with `text` (replacing what was there).
    pub fn insert(&mut self, stable_id: impl Into<String>, text: impl Into<String>) {
        self.0.insert(stable_id.into(), text.into());
    }

    /// True when nothing is documented.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How many ids are documented.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Every documented id with its text, ordered by id.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    /// Only the documentation of the ids for which `keep` holds.
    pub fn filtered(&self, mut keep: impl FnMut(&str) -> bool) -> Docs {
        Docs(
            self.0
                .iter()
                .filter(|(k, _)| keep(k))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        )
    }
}

/// Reads the documentation of every declaration, field and case of
/// `module` from `text`, whose tokens are `toks`.
pub(crate) fn read(text: &str, toks: &[Token], module: &Module) -> Docs {
    let mut docs = Docs::new();
    let mut put = |id: &str, pos: Pos, decl: bool| {
        if pos.line == 0 {
            return;
        }
        if let Some(d) = item_doc(text, toks, pos, decl) {
            docs.insert(id, d);
        }
    };
    for d in &module.decls {
        put(&d.stable_id, d.pos, true);
        for f in &d.fields {
            put(&f.stable_id, f.pos, false);
        }
        for c in &d.cases {
            put(&c.stable_id, c.pos, false);
            for f in &c.fields {
                put(&f.stable_id, f.pos, false);
            }
        }
    }
    docs
}

/// The documentation of the item named at `name` (a declaration's name
/// follows its keyword).
fn item_doc(text: &str, toks: &[Token], name: Pos, decl: bool) -> Option<String> {
    let mut first = toks.iter().position(|t| t.pos.start == name.start)?;
    if decl && first > 0 && matches!(toks[first - 1].tok, Tok::Ident(_)) {
        first -= 1;
    }
    let is = |k: usize, p: &str| matches!(&toks[k].tok, Tok::Punct(q) if *q == p);
    let has_id = first >= 5
        && is(first - 5, "@")
        && matches!(&toks[first - 4].tok, Tok::Ident(s) if s == "id")
        && is(first - 3, "(")
        && matches!(toks[first - 2].tok, Tok::Str(_))
        && is(first - 1, ")");
    let mut lines = Vec::new();
    if has_id {
        lines.extend(block_above(text, toks, first - 5));
    }
    lines.extend(block_above(text, toks, first));
    while lines.first().is_some_and(|l: &String| l.is_empty()) {
        lines.remove(0);
    }
    while lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// The comment lines directly above token `k`, in source order, when `k`
/// starts its line.
fn block_above(text: &str, toks: &[Token], k: usize) -> Vec<String> {
    let start = toks[k].pos.start as usize;
    let floor = k.checked_sub(1).map_or(0, |p| toks[p].pos.end as usize);
    let Some(before) = text.get(..start) else {
        return Vec::new();
    };
    let mut line_start = before.rfind('\n').map_or(0, |i| i + 1);
    if !before[line_start..].chars().all(char::is_whitespace) {
        return Vec::new();
    }
    let mut out = Vec::new();
    while line_start > 0 {
        let end = line_start - 1;
        let ls = before[..end].rfind('\n').map_or(0, |i| i + 1);
        if ls < floor {
            break;
        }
        let line = before[ls..end].trim();
        let Some(rest) = line.strip_prefix("//") else {
            break;
        };
        let rest = rest.strip_prefix('/').unwrap_or(rest);
        let rest = rest.strip_prefix(' ').unwrap_or(rest);
        out.push(rest.trim_end().to_owned());
        line_start = ls;
    }
    out.reverse();
    out
}

#[cfg(test)]
mod tests {
    use crate::source::read_module;

    #[test]
    fn blocks_directly_above_an_item_or_its_id_document_it() {
        let text = "module m;\n\n// Not this (a blank line follows).\n\n/// A point.\n///\n/// Two lines.\n@id(\"p\")\n// And this.\nrecord P {\n    // The x.\n    @id(\"p.x\")\n    x: i64, // trailing: not the doc of y\n    @id(\"p.y\")\n    y: i64,\n    // z, id on its line\n    @id(\"p.z\") z: bool,\n}\n\n@id(\"v\")\nvariant V {\n    //A case.\n    @id(\"v.a\")\n    A {\n        // Its field.\n        @id(\"v.a.n\")\n        n: i64,\n    },\n}\n";
        let m = read_module("m.spx", text).unwrap();
        let got: Vec<(&str, &str)> = m.docs.iter().collect();
        assert_eq!(
            got,
            vec![
                ("p", "A point.\n\nTwo lines.\nAnd this."),
                ("p.x", "The x."),
                ("p.z", "z, id on its line"),
                ("v.a", "A case."),
                ("v.a.n", "Its field."),
            ]
        );
    }
}
