//! The value walk of FORMAT.md §7 (step 9), over a tree of the one JSON
//! reader ([`crate::json`]), shared by strict decoding and admission.
//!
//! It decides every code, rule and pointer: a type's value nested deeper
//! than 16 (`value.max_depth`); a type's value that is not an object, a key
//! set that is not exactly `{fields}` / `{case, fields}`, a `case` that is
//! not a string, a `fields` that is not an object (Z205 `value.shape`); an
//! undeclared case (`value.case`); the first undeclared field in document
//! order (`value.fields.unknown`), then each declared field in declaration
//! order, missing (`value.fields.missing`) or checked by the shared leaf
//! rules of [`crate::scalar`]. An object's key set is the set of its
//! distinct keys and a key's value is its *last* occurrence (serde_json's
//! map semantics, which strict decoding needs; admission's reader refuses
//! duplicates, so there the last occurrence is the only one).
//!
//! What the two users differ in is the [`Voice`] of the `detail` texts,
//! and what surrounds the walk: the strict decoder's envelope and canonical
//! replay ([`crate::decode`]), admission's dialect wrapper
//! ([`crate::admit`]).

mod words;

pub(crate) use words::{expect_type, show, Failure, Found, Voice};

/// Rule of a key repeated in one object (SPX-Z205), or of two keys that
/// name one field.
pub(crate) const RULE_DUPLICATE_KEY: &str = "duplicate_key";

/// The refusal of `key`, at `at`, naming a field already named in the same
/// object by another key (its safe key `first` and its stable id): Z205
/// `duplicate_key` (admission's walk and the streaming admitter).
pub(crate) fn same_field(at: String, first: &str, key: &str) -> Diagnostic {
    let detail = format!(
        "{}: the keys {} and {} name the same field; write it once, as {}",
        show(&at),
        quote(first),
        quote(key),
        quote(first)
    );
    Diagnostic::z205(RULE_DUPLICATE_KEY)
        .at_pointer(at)
        .with_detail(detail)
}

use std::collections::HashMap;

use crate::decode::rules::VALUE_SHAPE;
use crate::diag::Diagnostic;
use crate::graph::{limits, Case, Field, FieldType, Repr, TypeKind};
use crate::json::{Kind, Tree};
use crate::project::KeyMap;
use crate::quote::push_pointer_token;
use crate::quote::quote;
use crate::scalar::{parse_integer, Int};
use crate::schema::Schema;
use crate::value::Value;

/// Declared fields beyond which a fields object is matched through a hash
/// map instead of a scan.
const INDEX_FIELDS: usize = 16;

/// One walk over one tree against one schema.
pub(crate) struct Walk<'t, 'a> {
    tree: &'t Tree<'a>,
    schema: &'t Schema,
    voice: Voice,
    /// The keys of a provider dialect (admission); `None`: field keys are
    /// the stable ids (strict decoding).
    keys: Option<&'t KeyMap>,
}

/// The fields object being walked: type `ty`, and its case for a variant.
#[derive(Clone, Copy)]
struct Scope {
    ty: usize,
    case: Option<usize>,
}

/// `ptr` with one more reference token.
pub(crate) fn child_ptr(ptr: &str, token: &str) -> String {
    let mut p = String::with_capacity(ptr.len() + token.len() + 1);
    p.push_str(ptr);
    push_pointer_token(&mut p, token);
    p
}

impl<'t, 'a> Walk<'t, 'a> {
    pub(crate) fn new(schema: &'t Schema, tree: &'t Tree<'a>, voice: Voice) -> Self {
        Walk {
            tree,
            schema,
            voice,
            keys: None,
        }
    }

    /// Field keys are read with `keys` (a dialect's safe keys, or the
    /// stable ids) instead of the stable ids alone.
    pub(crate) fn with_keys(mut self, keys: &'t KeyMap) -> Self {
        self.keys = (!keys.is_identity()).then_some(keys);
        self
    }

    /// The key under which field `j` of `scope` is written.
    fn key_of<'f>(&'f self, scope: Scope, decl: &'f [Field], j: usize) -> &'f str {
        match self.keys {
            Some(k) => k.field_key(scope.ty, scope.case, j),
            None => decl.get(j).map_or("", |f| f.stable_id.as_str()),
        }
    }

    /// The keys of every field of `scope`, in declaration order.
    fn keys_of<'f>(&'f self, scope: Scope, decl: &'f [Field]) -> Vec<&'f str> {
        (0..decl.len())
            .map(|j| self.key_of(scope, decl, j))
            .collect()
    }

    /// The value of type `ty` (an index into the graph) at node `node`, whose
    /// pointer is `ptr`, at depth 0.
    pub(crate) fn value(
        &self,
        ty: usize,
        node: usize,
        ptr: &mut String,
    ) -> Result<Value, Diagnostic> {
        self.walk_type(ty, node, 0, ptr)
    }

    /// Refuses (Z205 `rule`) an object whose key set is not exactly `keys`:
    /// first an unexpected key (in document order) at its own pointer, then
    /// a missing one (in the order of `keys`) at the pointer where it
    /// belongs.
    pub(crate) fn exact_keys(
        &self,
        obj: usize,
        keys: &[&str],
        ptr: &str,
        rule: &'static str,
    ) -> Result<(), Diagnostic> {
        for (k, _) in self.tree.members(obj) {
            if !keys.iter().any(|e| self.tree.text_eq(k, e)) {
                let key = self.tree.text(k);
                let failure = Failure::UnexpectedKey {
                    obj,
                    key: &key,
                    keys,
                };
                return Err(self.fail(Diagnostic::z205(rule), &child_ptr(ptr, &key), failure));
            }
        }
        if let Some(key) = keys.iter().find(|k| self.tree.lookup(obj, k).is_none()) {
            let failure = Failure::MissingKey { obj, key, keys };
            return Err(self.fail(Diagnostic::z205(rule), &child_ptr(ptr, key), failure));
        }
        Ok(())
    }

    fn fail(&self, d: Diagnostic, ptr: &str, failure: Failure<'_>) -> Diagnostic {
        let d = d.at_pointer(ptr);
        match self.voice.detail(self.tree, self.schema, ptr, &failure) {
            Some(detail) => d.with_detail(detail),
            None => d,
        }
    }

    fn is_object(&self, node: usize) -> bool {
        self.tree.node(node).kind == Kind::Object
    }

    fn is_string(&self, node: usize) -> bool {
        matches!(self.tree.node(node).kind, Kind::String { .. })
    }

    fn walk_type(
        &self,
        t: usize,
        node: usize,
        depth: usize,
        ptr: &mut String,
    ) -> Result<Value, Diagnostic> {
        if depth > limits::MAX_DEPTH {
            let failure = Failure::MaxDepth { ty: t, node };
            return Err(self.fail(Diagnostic::z206("value.max_depth"), ptr, failure));
        }
        let Some(ty) = self.schema.graph().types.get(t) else {
            return Err(Diagnostic::z206("value.representation").at_pointer(ptr.as_str()));
        };
        if !self.is_object(node) {
            let failure = Failure::NotObject { ty: t, node };
            return Err(self.fail(Diagnostic::z205(VALUE_SHAPE), ptr, failure));
        }
        match &ty.kind {
            TypeKind::Record { fields } => {
                self.exact_keys(node, &["fields"], ptr, VALUE_SHAPE)?;
                let scope = Scope { ty: t, case: None };
                let vals = self.fields_member(scope, fields, node, depth, ptr)?;
                Ok(Value::Record(vals))
            }
            TypeKind::Variant { cases } => {
                self.exact_keys(node, &["case", "fields"], ptr, VALUE_SHAPE)?;
                let (j, case) = self.case(t, cases, node, ptr)?;
                let scope = Scope {
                    ty: t,
                    case: Some(j),
                };
                let vals = self.fields_member(scope, &case.fields, node, depth, ptr)?;
                Ok(Value::Variant {
                    case: case.stable_id.clone(),
                    fields: vals,
                })
            }
        }
    }

    /// The declared case named by the `case` member of `node`.
    fn case<'g>(
        &self,
        t: usize,
        cases: &'g [Case],
        node: usize,
        ptr: &mut String,
    ) -> Result<(usize, &'g Case), Diagnostic> {
        let c = self.tree.lookup(node, "case").unwrap_or(node);
        let len = ptr.len();
        ptr.push_str("/case");
        if !self.is_string(c) {
            let failure = Failure::CaseNotString { cases, node: c };
            return Err(self.fail(Diagnostic::z205(VALUE_SHAPE), ptr, failure));
        }
        let name = self.tree.text(c);
        let Some((j, case)) = cases.iter().enumerate().find(|(_, k)| k.stable_id == *name) else {
            let failure = Failure::UnknownCase {
                ty: t,
                cases,
                node: c,
            };
            return Err(self.fail(Diagnostic::z206("value.case"), ptr, failure));
        };
        ptr.truncate(len);
        Ok((j, case))
    }

    /// The `fields` member of `node`, against `decl`.
    fn fields_member(
        &self,
        scope: Scope,
        decl: &[Field],
        node: usize,
        depth: usize,
        ptr: &mut String,
    ) -> Result<Vec<(String, Value)>, Diagnostic> {
        let obj = self.tree.lookup(node, "fields").unwrap_or(node);
        let len = ptr.len();
        ptr.push_str("/fields");
        let vals = self.walk_fields(scope, decl, obj, depth, ptr)?;
        ptr.truncate(len);
        Ok(vals)
    }

    /// A fields object; `ptr` points at it.
    fn walk_fields(
        &self,
        scope: Scope,
        decl: &[Field],
        obj: usize,
        depth: usize,
        ptr: &mut String,
    ) -> Result<Vec<(String, Value)>, Diagnostic> {
        if !self.is_object(obj) {
            let failure = Failure::FieldsNotObject {
                names: self.keys_of(scope, decl),
                node: obj,
            };
            return Err(self.fail(Diagnostic::z205(VALUE_SHAPE), ptr, failure));
        }
        let slots = self.field_slots(scope, decl, obj, ptr)?;
        let mut out = Vec::with_capacity(decl.len());
        for (j, (field, slot)) in decl.iter().zip(slots).enumerate() {
            let len = ptr.len();
            let Some((v, key)) = slot else {
                push_pointer_token(ptr, self.key_of(scope, decl, j));
                let failure = Failure::MissingField { field };
                return Err(self.fail(Diagnostic::z206("value.fields.missing"), ptr, failure));
            };
            match key {
                Some(k) => push_pointer_token(ptr, &self.tree.text(k)),
                None => push_pointer_token(ptr, &field.stable_id),
            }
            let value = match field.ty {
                FieldType::Scalar(r) => self.scalar(r, v, ptr)?,
                FieldType::Nested(i) => self.walk_type(i, v, depth + 1, ptr)?,
            };
            ptr.truncate(len);
            out.push((field.stable_id.clone(), value));
        }
        Ok(out)
    }

    /// The node of the last occurrence of each declared field, after
    /// refusing the first undeclared key (in document order); with a
    /// dialect's keys also the key node it was written under, and a second
    /// key naming a field already named (its safe key and its stable id in
    /// one object) is refused as a duplicate.
    #[allow(clippy::type_complexity)]
    fn field_slots(
        &self,
        scope: Scope,
        decl: &[Field],
        obj: usize,
        ptr: &str,
    ) -> Result<Vec<Option<(usize, Option<usize>)>>, Diagnostic> {
        let mut slots: Vec<Option<(usize, Option<usize>)>> = vec![None; decl.len()];
        if let Some(keys) = self.keys {
            for (k, v) in self.tree.members(obj) {
                let key = self.tree.text(k);
                match keys.field(scope.ty, scope.case, &key) {
                    Some(j) => match slots.get_mut(j) {
                        Some(slot @ None) => *slot = Some((v, Some(k))),
                        Some(Some(_)) => {
                            let first = self.key_of(scope, decl, j);
                            return Err(same_field(child_ptr(ptr, &key), first, &key));
                        }
                        None => {}
                    },
                    None => return Err(self.unknown_field(scope, decl, &key, v, ptr)),
                }
            }
            return Ok(slots);
        }
        let index: Option<HashMap<&str, usize>> = (decl.len() > INDEX_FIELDS).then(|| {
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
                Some(slot) => *slot = Some((v, None)),
                None => return Err(self.unknown_field(scope, decl, &key, v, ptr)),
            }
        }
        Ok(slots)
    }

    /// Refuses the undeclared key `key` (value node `v`) of the fields
    /// object at `ptr`.
    fn unknown_field(
        &self,
        scope: Scope,
        decl: &[Field],
        key: &str,
        v: usize,
        ptr: &str,
    ) -> Diagnostic {
        let failure = Failure::UnknownField {
            names: self.keys_of(scope, decl),
            key,
            node: v,
        };
        self.fail(
            Diagnostic::z206("value.fields.unknown"),
            &child_ptr(ptr, key),
            failure,
        )
    }

    /// A leaf, by the shared rules of [`crate::scalar`] and the limits.
    fn scalar(&self, r: Repr, node: usize, ptr: &str) -> Result<Value, Diagnostic> {
        let representation = || {
            let failure = Failure::Representation { repr: r, node };
            self.fail(Diagnostic::z206("value.representation"), ptr, failure)
        };
        match r {
            Repr::Bool => match self.tree.node(node).kind {
                Kind::Bool(b) => Ok(Value::Bool(b)),
                _ => Err(representation()),
            },
            Repr::I32 | Repr::I64 | Repr::U8 | Repr::U64 => {
                if !self.is_string(node) {
                    return Err(representation());
                }
                match parse_integer(r, self.tree.text(node).as_bytes()) {
                    Ok(Int::Signed(v)) => Ok(Value::I64(v)),
                    Ok(Int::Unsigned(v)) => Ok(Value::U64(v)),
                    Err(rule) => {
                        let failure = Failure::Integer {
                            repr: r,
                            rule,
                            node,
                        };
                        Err(self.fail(Diagnostic::z206(rule), ptr, failure))
                    }
                }
            }
            Repr::String => {
                if !self.is_string(node) {
                    return Err(representation());
                }
                let text = self.tree.text(node);
                if text.len() > limits::MAX_STRING_BYTES {
                    let failure = Failure::StringBytes {
                        len: text.len(),
                        node,
                    };
                    return Err(self.fail(Diagnostic::z206("value.string_bytes"), ptr, failure));
                }
                Ok(Value::String(text.into_owned()))
            }
            Repr::Bytes => {
                if self.tree.node(node).kind != Kind::Array {
                    return Err(representation());
                }
                self.bytes(node, ptr)
            }
        }
    }

    /// The elements of a bytes array.
    fn bytes(&self, node: usize, ptr: &str) -> Result<Value, Diagnostic> {
        let count = self.tree.len(node);
        if count > limits::MAX_BYTES_LEN {
            let failure = Failure::BytesLength { count, node };
            return Err(self.fail(Diagnostic::z206("value.bytes_length"), ptr, failure));
        }
        let mut out = Vec::with_capacity(count);
        for (i, e) in self.tree.children(node).enumerate() {
            match self.byte_element(e) {
                Some(b) => out.push(b),
                None => {
                    let failure = Failure::BytesElement { node: e };
                    let at = child_ptr(ptr, &i.to_string());
                    return Err(self.fail(Diagnostic::z206("value.bytes_element"), &at, failure));
                }
            }
        }
        Ok(Value::Bytes(out))
    }

    /// A JSON integer 0..=255: a number token with no sign, fraction or
    /// exponent.
    fn byte_element(&self, idx: usize) -> Option<u8> {
        if self.tree.node(idx).kind != Kind::Number {
            return None;
        }
        crate::scalar::byte_element(self.tree.raw(idx))
    }
}
