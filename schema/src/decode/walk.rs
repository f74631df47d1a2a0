//! Steps 5–9 of FORMAT.md §7 over the span tree: the envelope, then the
//! value walk. An object's key set is the set of its distinct keys; a key's
//! value is its LAST occurrence (serde_json's map semantics); undeclared
//! keys are reported in document order.

use std::collections::HashMap;

use super::rules;
use crate::diag::Diagnostic;
use crate::graph::{limits, Field, FieldType, Repr, TypeGraph, TypeKind};
use crate::json::{Kind, Tree};
use crate::quote::push_pointer_token;
use crate::scalar::{parse_integer, Int};
use crate::schema::Schema;
use crate::value::Value;

const ENVELOPE_KEYS: [&str; 4] = ["schema", "root_type_id", "schema_digest", "value"];

fn z205(rule: &'static str, ptr: &str) -> Diagnostic {
    Diagnostic::z205(rule).at_pointer(ptr)
}

fn z206(rule: &'static str, ptr: &str) -> Diagnostic {
    Diagnostic::z206(rule).at_pointer(ptr)
}

fn child_ptr(ptr: &str, token: &str) -> String {
    let mut p = String::with_capacity(ptr.len() + token.len() + 1);
    p.push_str(ptr);
    push_pointer_token(&mut p, token);
    p
}

struct Walker<'t, 'a> {
    tree: &'t Tree<'a>,
    graph: &'t TypeGraph,
}

impl Walker<'_, '_> {
    fn is(&self, idx: usize, kind: Kind) -> bool {
        let k = self.tree.node(idx).kind;
        match kind {
            Kind::String { .. } => matches!(k, Kind::String { .. }),
            Kind::Bool(_) => matches!(k, Kind::Bool(_)),
            other => k == other,
        }
    }

    fn found(&self, idx: usize) -> &'static str {
        self.tree.kind_word(idx)
    }

    /// The value of the last occurrence of `key` in object `obj`.
    fn lookup(&self, obj: usize, key: &str) -> Option<usize> {
        self.tree.lookup(obj, key)
    }

    /// Refuses (Z205 `rule`) an object whose key set is not exactly `keys`:
    /// first an unexpected key (in document order), then a missing one (in
    /// the order of `keys`).
    fn exact_keys(
        &self,
        obj: usize,
        keys: &[&str],
        ptr: &str,
        rule: &'static str,
    ) -> Result<(), Diagnostic> {
        let expected = || {
            keys.iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        for (k, _) in self.tree.members(obj) {
            if !keys.iter().any(|e| self.tree.text_eq(k, e)) {
                let key = self.tree.text(k);
                return Err(z205(rule, &child_ptr(ptr, &key)).with_detail(format!(
                    "unexpected key `{key}`; the object has exactly the keys {}",
                    expected()
                )));
            }
        }
        for e in keys {
            if self.lookup(obj, e).is_none() {
                return Err(z205(rule, &child_ptr(ptr, e)).with_detail(format!(
                    "missing key `{e}`; the object has exactly the keys {}",
                    expected()
                )));
            }
        }
        Ok(())
    }

    fn walk_type(
        &self,
        t: usize,
        node: usize,
        depth: usize,
        ptr: &mut String,
    ) -> Result<Value, Diagnostic> {
        if depth > limits::MAX_DEPTH {
            return Err(z206("value.max_depth", ptr));
        }
        let Some(ty) = self.graph.types.get(t) else {
            return Err(z206("value.representation", ptr));
        };
        if !self.is(node, Kind::Object) {
            return Err(z205(rules::VALUE_SHAPE, ptr)
                .with_detail(format!("expected an object, found {}", self.found(node))));
        }
        match &ty.kind {
            TypeKind::Record { fields } => {
                self.exact_keys(node, &["fields"], ptr, rules::VALUE_SHAPE)?;
                let f = self.lookup(node, "fields").unwrap_or(node);
                let len = ptr.len();
                ptr.push_str("/fields");
                let vals = self.walk_fields(fields, f, depth, ptr)?;
                ptr.truncate(len);
                Ok(Value::Record(vals))
            }
            TypeKind::Variant { cases } => {
                self.exact_keys(node, &["case", "fields"], ptr, rules::VALUE_SHAPE)?;
                let c = self.lookup(node, "case").unwrap_or(node);
                if !self.is(c, Kind::String { escaped: false }) {
                    return Err(z205(rules::VALUE_SHAPE, &child_ptr(ptr, "case"))
                        .with_detail(format!("expected a string, found {}", self.found(c))));
                }
                let name = self.tree.text(c);
                let Some(case) = cases.iter().find(|k| k.stable_id == *name) else {
                    let declared = cases
                        .iter()
                        .map(|k| format!("`{}`", k.stable_id))
                        .collect::<Vec<_>>()
                        .join(", ");
                    return Err(
                        z206("value.case", &child_ptr(ptr, "case")).with_detail(format!(
                            "`{name}` is not a case of `{}`; declared cases: {declared}",
                            ty.stable_id
                        )),
                    );
                };
                let f = self.lookup(node, "fields").unwrap_or(node);
                let len = ptr.len();
                ptr.push_str("/fields");
                let vals = self.walk_fields(&case.fields, f, depth, ptr)?;
                ptr.truncate(len);
                Ok(Value::Variant {
                    case: case.stable_id.clone(),
                    fields: vals,
                })
            }
        }
    }

    /// A fields object; `ptr` points at it.
    fn walk_fields(
        &self,
        decl: &[Field],
        obj: usize,
        depth: usize,
        ptr: &mut String,
    ) -> Result<Vec<(String, Value)>, Diagnostic> {
        if !self.is(obj, Kind::Object) {
            return Err(z205(rules::VALUE_SHAPE, ptr)
                .with_detail(format!("expected an object, found {}", self.found(obj))));
        }
        // The last occurrence of each declared field.
        let mut slots: Vec<Option<usize>> = vec![None; decl.len()];
        let index: Option<HashMap<&str, usize>> = (decl.len() > 16).then(|| {
            let mut m = HashMap::with_capacity(decl.len());
            for (j, f) in decl.iter().enumerate() {
                m.entry(f.stable_id.as_str()).or_insert(j);
            }
            m
        });
        for (k, v) in self.tree.members(obj) {
            let key = self.tree.text(k);
            let j = match &index {
                Some(m) => m.get(&*key).copied(),
                None => decl.iter().position(|f| f.stable_id == *key),
            };
            match j.and_then(|j| slots.get_mut(j)) {
                Some(slot) => *slot = Some(v),
                None => {
                    let declared = decl
                        .iter()
                        .map(|f| format!("`{}`", f.stable_id))
                        .collect::<Vec<_>>()
                        .join(", ");
                    return Err(
                        z206("value.fields.unknown", &child_ptr(ptr, &key)).with_detail(format!(
                            "`{key}` is not a declared field; declared fields: {declared}"
                        )),
                    );
                }
            }
        }
        let mut out = Vec::with_capacity(decl.len());
        for (f, slot) in decl.iter().zip(slots) {
            let len = ptr.len();
            push_pointer_token(ptr, &f.stable_id);
            let Some(v) = slot else {
                return Err(z206("value.fields.missing", ptr));
            };
            let value = match f.ty {
                FieldType::Scalar(r) => self.scalar(r, v, ptr)?,
                FieldType::Nested(i) => self.walk_type(i, v, depth + 1, ptr)?,
            };
            ptr.truncate(len);
            out.push((f.stable_id.clone(), value));
        }
        Ok(out)
    }

    fn scalar(&self, r: Repr, node: usize, ptr: &str) -> Result<Value, Diagnostic> {
        let n = self.tree.node(node);
        let representation = |what: &str| {
            z206("value.representation", ptr).with_detail(format!(
                "`{}` is {what}, found {}",
                r.name(),
                self.tree.kind_word(node)
            ))
        };
        match r {
            Repr::Bool => match n.kind {
                Kind::Bool(b) => Ok(Value::Bool(b)),
                _ => Err(representation("a JSON boolean")),
            },
            Repr::I32 | Repr::I64 | Repr::U8 | Repr::U64 => {
                if !matches!(n.kind, Kind::String { .. }) {
                    return Err(representation("a decimal integer in a JSON string"));
                }
                let text = self.tree.text(node);
                match parse_integer(r, text.as_bytes()) {
                    Ok(Int::Signed(v)) => Ok(Value::I64(v)),
                    Ok(Int::Unsigned(v)) => Ok(Value::U64(v)),
                    Err(rule) => {
                        let (lo, hi) = r.bounds().unwrap_or(("", ""));
                        Err(z206(rule, ptr).with_detail(format!(
                            "`{}` is a decimal string from {lo} to {hi} (no `+`, no leading zero, no `-0`)",
                            r.name()
                        )))
                    }
                }
            }
            Repr::String => {
                if !matches!(n.kind, Kind::String { .. }) {
                    return Err(representation("a JSON string"));
                }
                let text = self.tree.text(node);
                if text.len() > limits::MAX_STRING_BYTES {
                    return Err(z206("value.string_bytes", ptr).with_detail(format!(
                        "the string has {} UTF-8 bytes; at most {} are allowed",
                        text.len(),
                        limits::MAX_STRING_BYTES
                    )));
                }
                Ok(Value::String(text.into_owned()))
            }
            Repr::Bytes => {
                if n.kind != Kind::Array {
                    return Err(representation("an array of integers 0..=255"));
                }
                let count = self.tree.len(node);
                if count > limits::MAX_BYTES_LEN {
                    return Err(z206("value.bytes_length", ptr).with_detail(format!(
                        "the array has {count} elements; at most {} are allowed",
                        limits::MAX_BYTES_LEN
                    )));
                }
                let mut out = Vec::with_capacity(count);
                for (i, e) in self.tree.children(node).enumerate() {
                    match byte_element(self.tree, e) {
                        Some(b) => out.push(b),
                        None => {
                            return Err(z206(
                                "value.bytes_element",
                                &child_ptr(ptr, &i.to_string()),
                            )
                            .with_detail("a bytes element is a JSON integer from 0 to 255"))
                        }
                    }
                }
                Ok(Value::Bytes(out))
            }
        }
    }
}

/// A JSON integer 0..=255: no sign, fraction or exponent.
fn byte_element(tree: &Tree<'_>, idx: usize) -> Option<u8> {
    if tree.node(idx).kind != Kind::Number {
        return None;
    }
    let raw = tree.raw(idx);
    if raw.is_empty() || raw.len() > 3 || !raw.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    raw.parse::<u8>().ok()
}

/// Steps 5–9: the envelope, then the value walk.
pub(crate) fn walk(schema: &Schema, tree: &Tree<'_>) -> Result<Value, Diagnostic> {
    let w = Walker {
        tree,
        graph: schema.graph(),
    };
    // 5.
    if !w.is(0, Kind::Object) {
        return Err(z205(rules::ENVELOPE_SHAPE, "")
            .with_detail(format!("the document is {}, not an object", w.found(0))));
    }
    w.exact_keys(0, &ENVELOPE_KEYS, "", rules::ENVELOPE_KEYS)?;
    let get = |k: &str| w.lookup(0, k).unwrap_or(0);
    // 6.
    let s = get("schema");
    if !w.is(s, Kind::String { escaped: false }) || !tree.text_eq(s, limits::VALUE_ID) {
        return Err(z205(rules::ENVELOPE_SCHEMA, "/schema")
            .with_detail(format!("expected \"{}\"", limits::VALUE_ID)));
    }
    // 7.
    let r = get("root_type_id");
    if !w.is(r, Kind::String { escaped: false }) {
        return Err(z205(rules::ENVELOPE_SHAPE, "/root_type_id")
            .with_detail(format!("expected a string, found {}", w.found(r))));
    }
    if !tree.text_eq(r, schema.root_type_id()) {
        return Err(z206("root_type_id", "/root_type_id").with_detail(format!(
            "this schema's root type is `{}`",
            schema.root_type_id()
        )));
    }
    // 8.
    let d = get("schema_digest");
    if !w.is(d, Kind::String { escaped: false }) {
        return Err(z205(rules::ENVELOPE_SHAPE, "/schema_digest")
            .with_detail(format!("expected a string, found {}", w.found(d))));
    }
    if !tree.text_eq(d, schema.digest()) {
        return Err(z206("schema_digest", "/schema_digest")
            .with_detail(format!("this schema's digest is `{}`", schema.digest())));
    }
    // 9.
    let v = get("value");
    let mut ptr = String::from("/value");
    w.walk_type(w.graph.root_index(), v, 0, &mut ptr)
}
