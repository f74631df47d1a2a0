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

/// The envelope's keys, in their order.
pub(crate) const ENVELOPE_KEYS: [&str; 4] = ["schema", "root_type_id", "schema_digest", "value"];

fn z205(rule: &'static str, ptr: &str) -> Diagnostic {
    Diagnostic::z205(rule).at_pointer(ptr)
}

fn z206(rule: &'static str, ptr: &str) -> Diagnostic {
    Diagnostic::z206(rule).at_pointer(ptr)
}

/// Step 5: the document is `kind` (`an array`, …), not an object.
pub(crate) fn not_an_object(kind: &str) -> Diagnostic {
    z205(rules::ENVELOPE_SHAPE, "").with_detail(format!("the document is {kind}, not an object"))
}

/// Step 6: `schema` is not the value document id.
pub(crate) fn wrong_schema() -> Diagnostic {
    z205(rules::ENVELOPE_SCHEMA, "/schema")
        .with_detail(format!("expected \"{}\"", limits::VALUE_ID))
}

/// Steps 7–8: `root_type_id` or `schema_digest` (`key`) is `kind`, not a
/// string.
pub(crate) fn not_a_string(key: &str, kind: &str) -> Diagnostic {
    let ptr = format!("/{key}");
    z205(rules::ENVELOPE_SHAPE, &ptr).with_detail(format!("expected a string, found {kind}"))
}

/// Step 7: not this schema's root.
pub(crate) fn wrong_root(schema: &Schema) -> Diagnostic {
    z206("root_type_id", "/root_type_id").with_detail(format!(
        "this schema's root type is `{}`",
        schema.root_type_id()
    ))
}

/// Step 8: not this schema's digest.
pub(crate) fn wrong_digest(schema: &Schema) -> Diagnostic {
    z206("schema_digest", "/schema_digest")
        .with_detail(format!("this schema's digest is `{}`", schema.digest()))
}

/// Steps 5–9: the envelope, then the value walk.
pub(super) fn walk(schema: &Schema, tree: &Tree<'_>) -> Result<Value, Diagnostic> {
    let w = Walk::new(schema, tree, Voice::Decoder);
    // 5.
    if tree.node(0).kind != Kind::Object {
        return Err(not_an_object(tree.kind_word(0)));
    }
    w.exact_keys(0, &ENVELOPE_KEYS, "", rules::ENVELOPE_KEYS)?;
    let get = |k: &str| tree.lookup(0, k).unwrap_or(0);
    let is_string = |node: usize| matches!(tree.node(node).kind, Kind::String { .. });
    // 6.
    let s = get("schema");
    if !is_string(s) || !tree.text_eq(s, limits::VALUE_ID) {
        return Err(wrong_schema());
    }
    // 7.
    let r = get("root_type_id");
    if !is_string(r) {
        return Err(not_a_string("root_type_id", tree.kind_word(r)));
    }
    if !tree.text_eq(r, schema.root_type_id()) {
        return Err(wrong_root(schema));
    }
    // 8.
    let d = get("schema_digest");
    if !is_string(d) {
        return Err(not_a_string("schema_digest", tree.kind_word(d)));
    }
    if !tree.text_eq(d, schema.digest()) {
        return Err(wrong_digest(schema));
    }
    // 9.
    let mut ptr = String::from("/value");
    w.value(schema.graph().root_index(), get("value"), &mut ptr)
}
