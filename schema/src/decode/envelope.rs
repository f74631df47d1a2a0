//! Steps 5–9 of FORMAT.md §7 over the tree of step 4: the envelope here,
//! then the shared value walk ([`crate::walk`]) in the decoder's voice.
//! Duplicate keys were kept by the reader: an envelope key's value is its
//! last occurrence, as everywhere in the walk.

use super::rules;
use crate::diag::Diagnostic;
use crate::graph::limits;
use crate::json::{Kind, Tree};
use crate::schema::Schema;
use crate::value::Value;
use crate::walk::{Voice, Walk};

const ENVELOPE_KEYS: [&str; 4] = ["schema", "root_type_id", "schema_digest", "value"];

fn z205(rule: &'static str, ptr: &str) -> Diagnostic {
    Diagnostic::z205(rule).at_pointer(ptr)
}

fn z206(rule: &'static str, ptr: &str) -> Diagnostic {
    Diagnostic::z206(rule).at_pointer(ptr)
}

/// Steps 5–9: the envelope, then the value walk.
pub(super) fn walk(schema: &Schema, tree: &Tree<'_>) -> Result<Value, Diagnostic> {
    let w = Walk::new(schema, tree, Voice::Decoder);
    // 5.
    if tree.node(0).kind != Kind::Object {
        return Err(z205(rules::ENVELOPE_SHAPE, "").with_detail(format!(
            "the document is {}, not an object",
            tree.kind_word(0)
        )));
    }
    w.exact_keys(0, &ENVELOPE_KEYS, "", rules::ENVELOPE_KEYS)?;
    let get = |k: &str| tree.lookup(0, k).unwrap_or(0);
    let is_string = |node: usize| matches!(tree.node(node).kind, Kind::String { .. });
    // 6.
    let s = get("schema");
    if !is_string(s) || !tree.text_eq(s, limits::VALUE_ID) {
        return Err(z205(rules::ENVELOPE_SCHEMA, "/schema")
            .with_detail(format!("expected \"{}\"", limits::VALUE_ID)));
    }
    // 7.
    let r = get("root_type_id");
    if !is_string(r) {
        return Err(z205(rules::ENVELOPE_SHAPE, "/root_type_id")
            .with_detail(format!("expected a string, found {}", tree.kind_word(r))));
    }
    if !tree.text_eq(r, schema.root_type_id()) {
        return Err(z206("root_type_id", "/root_type_id").with_detail(format!(
            "this schema's root type is `{}`",
            schema.root_type_id()
        )));
    }
    // 8.
    let d = get("schema_digest");
    if !is_string(d) {
        return Err(z205(rules::ENVELOPE_SHAPE, "/schema_digest")
            .with_detail(format!("expected a string, found {}", tree.kind_word(d))));
    }
    if !tree.text_eq(d, schema.digest()) {
        return Err(z206("schema_digest", "/schema_digest")
            .with_detail(format!("this schema's digest is `{}`", schema.digest())));
    }
    // 9.
    let mut ptr = String::from("/value");
    w.value(schema.graph().root_index(), get("value"), &mut ptr)
}
