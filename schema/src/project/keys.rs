//! Safe keys: the one place where a stable id becomes the key a provider
//! accepts, and where a key the model wrote becomes a stable id again.
//!
//! Stable ids may hold any character (`weird "quoted" \ back<TAB>slash`
//! is a valid id), but providers constrain the keys of a schema: Anthropic
//! refuses a whole request when a property key of a tool's `input_schema`
//! does not match `^[a-zA-Z0-9_.-]{1,64}$` (see `docs/PROVIDERS.md`). Every
//! dialect document therefore writes, in place of each stable id that does
//! not fit its dialect's [`KeyRule`], a *safe key* that does:
//!
//! Which keys a dialect renames: Anthropic the property keys of every
//! fields object ([`field_rule`]); OpenAI, Anthropic and Gemini the `$defs`
//! names ([`def_rule`]); draft 2020-12 nothing.
//!
//! - an id that fits is its own key (the common case: `planner.step.x`);
//! - otherwise every character outside the rule's set becomes `_`, the
//!   result is cut to leave room for the suffix, and `-` plus the first 12
//!   hex digits of SHA-256(id) is appended (`f é` → `f__-9a1c…`);
//! - should that key be taken already (by an id that fits, or by another
//!   renamed id: only possible for ids built to collide), a longer digest
//!   and then a counter (`-2`, `-3`, …) are appended until it is free.
//!   Ids that fit are reserved first, so they never change.
//!
//! The mapping is deterministic (a function of the graph and the dialect
//! only) and collision-free within every object a model writes (the fields
//! of one record or of one case) and across the `$defs` names.
//!
//! Case constants are never renamed: no provider constrains the strings of
//! `const`/`enum`, so a model writes and admission reads the case's stable
//! id.
//!
//! # One map, built once, for the projection and for admission
//!
//! A [`KeyMap`] is built once per (schema, dialect). The projection writes
//! [`KeyMap::field_key`] for every property key and `required` entry (and
//! [`KeyMap::def_name`] for `$defs`); admission ([`crate::admit`]) walks the
//! provider's text and asks [`KeyMap::field`] which declared field a key
//! names. The lookup takes one key at a time — `(type, case, key text)` to
//! the field's index — so a streaming reader that sees keys one by one can
//! call the same function:
//!
//! ```
//! use spx_schema::graph::{Field, FieldType, Repr, TypeGraph, TypeKind, TypeNode};
//! use spx_schema::project::{Dialect, KeyMap};
//! let graph = TypeGraph { types: vec![TypeNode {
//!     stable_id: "t".into(), name: String::new(),
//!     kind: TypeKind::Record { fields: vec![
//!         Field { stable_id: "t.ok".into(), name: String::new(), ty: FieldType::Scalar(Repr::Bool) },
//!         Field { stable_id: "t/odd key".into(), name: String::new(), ty: FieldType::Scalar(Repr::Bool) },
//!     ] },
//! }]};
//! let schema = spx_schema::Schema::from_graph(graph).unwrap();
//! let keys = KeyMap::new(&schema, Dialect::Anthropic);
//! assert_eq!(keys.field_key(0, None, 0), "t.ok");
//! let safe = keys.field_key(0, None, 1).to_string();
//! assert!(safe.starts_with("t_odd_key-") && safe.len() == "t_odd_key-".len() + 12);
//! assert_eq!(keys.field(0, None, &safe), Some(1));
//! // The stable id itself names the field too (it can never be another
//! // field's safe key: a renamed id never fits the rule).
//! assert_eq!(keys.field(0, None, "t/odd key"), Some(1));
//! assert_eq!(keys.field(0, None, "t_odd_key"), None);
//! ```

use super::Dialect;
use crate::graph::{Field, TypeKind};
use crate::quote::quote_into;
use crate::schema::Schema;
use sha2::{Digest, Sha256};
use std::collections::{HashMap, HashSet};

/// What a dialect accepts as a key or a name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KeyRule {
    /// The pattern, for documentation and messages.
    pub pattern: &'static str,
    /// At most this many characters (all ASCII).
    pub max_len: usize,
    /// `.` is allowed (property keys) or not (tool and schema names).
    pub dot: bool,
}

impl KeyRule {
    /// Anthropic's documented rule for the property keys of a tool's
    /// `input_schema`, `^[a-zA-Z0-9_.-]{1,64}$`; also the rule of every
    /// dialect's `$defs` names.
    pub const PROPERTY: KeyRule = KeyRule {
        pattern: "^[a-zA-Z0-9_.-]{1,64}$",
        max_len: 64,
        dot: true,
    };

    /// OpenAI `json_schema.name` and tool names of OpenAI and Anthropic:
    /// `^[a-zA-Z0-9_-]{1,64}$`.
    pub const NAME: KeyRule = KeyRule {
        pattern: "^[a-zA-Z0-9_-]{1,64}$",
        max_len: 64,
        dot: false,
    };

    /// True when `c` may appear in a key.
    pub fn allows(self, c: char) -> bool {
        c.is_ascii_alphanumeric() || c == '_' || c == '-' || (self.dot && c == '.')
    }

    /// True when `s` matches the rule.
    pub fn fits(self, s: &str) -> bool {
        !s.is_empty() && s.len() <= self.max_len && s.chars().all(|c| self.allows(c))
    }

    /// The safe form of `id` under this rule when nothing else is taken:
    /// `id` itself when it fits; otherwise `id` with every other character
    /// replaced by `_`, cut to `max_len − 13` bytes, then `-` and the first
    /// 12 hex digits of SHA-256(id).
    pub fn safe(self, id: &str) -> String {
        if self.fits(id) {
            return id.to_owned();
        }
        self.suffixed(id, 12, None)
    }

    /// The sanitized prefix of `id` followed by `-`, `hex` hex digits of
    /// SHA-256(id) and, when given, `-` and `counter`; at most `max_len`.
    fn suffixed(self, id: &str, hex: usize, counter: Option<usize>) -> String {
        let hash = Sha256::digest(id.as_bytes());
        let mut suffix = String::from("-");
        for b in hash.iter() {
            if suffix.len() > hex {
                break;
            }
            suffix.push_str(&format!("{b:02x}"));
        }
        suffix.truncate(1 + hex);
        if let Some(n) = counter {
            suffix.push_str(&format!("-{n}"));
        }
        let mut key: String = id
            .chars()
            .map(|c| if self.allows(c) { c } else { '_' })
            .collect();
        key.truncate(self.max_len.saturating_sub(suffix.len()));
        key.push_str(&suffix);
        key
    }

    /// The safe keys of `ids` (one object's keys, in order), pairwise
    /// distinct: ids that fit keep themselves, and are reserved first; a
    /// renamed id that would collide gets a longer digest, then a counter.
    pub fn assign<'s>(self, ids: impl IntoIterator<Item = &'s str> + Clone) -> Vec<String> {
        let mut taken: HashSet<String> = ids
            .clone()
            .into_iter()
            .filter(|id| self.fits(id))
            .map(str::to_owned)
            .collect();
        let mut out = Vec::new();
        let mut seen_fitting: HashSet<&str> = HashSet::new();
        for id in ids {
            if self.fits(id) && seen_fitting.insert(id) {
                out.push(id.to_owned());
                continue;
            }
            let mut key = self.suffixed(id, 12, None);
            let mut attempt = 0;
            while taken.contains(&key) {
                attempt += 1;
                key = match attempt {
                    1 => self.suffixed(id, 24, None),
                    n => self.suffixed(id, 24, Some(n)),
                };
            }
            taken.insert(key.clone());
            out.push(key);
        }
        out
    }
}

/// One stable id written under another key by a dialect (a line of the
/// key report, [`KeyMap::renames_json`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Rename {
    /// `field` (a property key of a fields object) or `definition` (a
    /// `$defs` name, which no value carries).
    pub kind: &'static str,
    /// The type that declares the field (for a definition, the type
    /// itself).
    pub type_id: String,
    /// The case whose fields hold the key, for a variant's field.
    pub case_id: Option<String>,
    /// The stable id.
    pub stable_id: String,
    /// The key the dialect's document writes.
    pub key: String,
}

/// The keys of one fields object: the safe key of each declared field, and
/// the lookup back.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Scope {
    /// The safe key of each field, in declaration order.
    keys: Vec<String>,
    /// Safe keys and stable ids to field indices; `None` when every key is
    /// its stable id (then the declared ids are scanned directly).
    index: Option<HashMap<String, usize>>,
}

/// The safe keys of one schema in one dialect. See the module
/// documentation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyMap {
    dialect: Dialect,
    /// Per type: one scope for a record, one per case for a variant.
    scopes: Vec<Vec<Scope>>,
    /// Per type: its `$defs` name.
    defs: Vec<String>,
    /// Field ids per type and scope, for lookups in identity scopes.
    ids: Vec<Vec<Vec<String>>>,
    renames: Vec<Rename>,
}

/// The rule the property keys of a dialect's fields objects follow; `None`
/// when they are the stable ids as they are: the canonical draft 2020-12
/// projection (FORMAT.md §8), and OpenAI and Gemini, which document no rule
/// for property names (see `docs/PROVIDERS.md`); and the grammar dialects,
/// whose language is the canonical documents themselves.
pub const fn field_rule(dialect: Dialect) -> Option<KeyRule> {
    match dialect {
        Dialect::Anthropic => Some(KeyRule::PROPERTY),
        Dialect::Draft2020 | Dialect::OpenAi | Dialect::Gemini | Dialect::Lark => None,
    }
}

/// The rule the `$defs` names of a dialect follow; `None` for draft
/// 2020-12 (FORMAT.md §8) and for the grammar dialects, which have no
/// `$defs`. No value carries a definition's name, so every
/// dialect writes safe ones: its `$ref`s then need no percent-encoding, and
/// they cost OpenAI's 120,000-character budget little.
pub const fn def_rule(dialect: Dialect) -> Option<KeyRule> {
    match dialect {
        Dialect::Draft2020 | Dialect::Lark => None,
        Dialect::OpenAi | Dialect::Anthropic | Dialect::Gemini => Some(KeyRule::PROPERTY),
    }
}

impl KeyMap {
    /// The key map of `schema` in `dialect`.
    pub fn new(schema: &Schema, dialect: Dialect) -> KeyMap {
        let graph = schema.graph();
        let rule = field_rule(dialect);
        let mut scopes = Vec::with_capacity(graph.types.len());
        let mut ids = Vec::with_capacity(graph.types.len());
        let mut renames = Vec::new();
        for t in &graph.types {
            let lists: Vec<(Option<&str>, &[Field])> = match &t.kind {
                TypeKind::Record { fields } => vec![(None, fields.as_slice())],
                TypeKind::Variant { cases } => cases
                    .iter()
                    .map(|c| (Some(c.stable_id.as_str()), c.fields.as_slice()))
                    .collect(),
            };
            let mut type_scopes = Vec::with_capacity(lists.len());
            let mut type_ids = Vec::with_capacity(lists.len());
            for (case, fields) in lists {
                let field_ids: Vec<String> = fields.iter().map(|f| f.stable_id.clone()).collect();
                let keys = match rule {
                    Some(r) => r.assign(field_ids.iter().map(String::as_str)),
                    None => field_ids.clone(),
                };
                let renamed = keys.iter().zip(&field_ids).any(|(k, id)| k != id);
                let index = renamed.then(|| {
                    let mut m = HashMap::with_capacity(2 * keys.len());
                    for (j, (k, id)) in keys.iter().zip(&field_ids).enumerate() {
                        m.entry(k.clone()).or_insert(j);
                        m.entry(id.clone()).or_insert(j);
                    }
                    m
                });
                for (k, id) in keys.iter().zip(&field_ids) {
                    if k != id {
                        renames.push(Rename {
                            kind: "field",
                            type_id: t.stable_id.clone(),
                            case_id: case.map(str::to_owned),
                            stable_id: id.clone(),
                            key: k.clone(),
                        });
                    }
                }
                type_scopes.push(Scope { keys, index });
                type_ids.push(field_ids);
            }
            scopes.push(type_scopes);
            ids.push(type_ids);
        }
        let type_ids: Vec<&str> = graph.types.iter().map(|t| t.stable_id.as_str()).collect();
        let defs = match def_rule(dialect) {
            Some(r) => r.assign(type_ids.iter().copied()),
            None => type_ids.iter().map(|s| (*s).to_owned()).collect(),
        };
        // The root's definition is inlined at the document root: its name
        // is never written.
        let inlined = type_ids.len().saturating_sub(1);
        for (d, id) in defs.iter().zip(&type_ids).take(inlined) {
            if d != id {
                renames.push(Rename {
                    kind: "definition",
                    type_id: (*id).to_owned(),
                    case_id: None,
                    stable_id: (*id).to_owned(),
                    key: d.clone(),
                });
            }
        }
        KeyMap {
            dialect,
            scopes,
            defs,
            ids,
            renames,
        }
    }

    /// The dialect of this map.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// True when every field's key is its stable id (definitions may still
    /// be renamed: no value carries their names).
    pub fn is_identity(&self) -> bool {
        self.renames.iter().all(|r| r.kind != "field")
    }

    fn scope(&self, ty: usize, case: Option<usize>) -> Option<&Scope> {
        self.scopes.get(ty)?.get(case.unwrap_or(0))
    }

    /// The key of field `field` of type `ty` (of its case `case`, for a
    /// variant) as the dialect's document writes it; `""` for indices
    /// outside the schema.
    pub fn field_key(&self, ty: usize, case: Option<usize>, field: usize) -> &str {
        self.scope(ty, case)
            .and_then(|s| s.keys.get(field))
            .map_or("", String::as_str)
    }

    /// The keys of the fields of type `ty` (its case `case`), in
    /// declaration order.
    pub fn field_keys(&self, ty: usize, case: Option<usize>) -> &[String] {
        self.scope(ty, case).map_or(&[], |s| s.keys.as_slice())
    }

    /// The declared field of type `ty` (its case `case`) that a key written
    /// by a model names: its safe key, or its stable id. `None` for a key
    /// that names no field (admission refuses it as
    /// `value.fields.unknown`).
    pub fn field(&self, ty: usize, case: Option<usize>, key: &str) -> Option<usize> {
        let scope = self.scope(ty, case)?;
        match &scope.index {
            Some(m) => m.get(key).copied(),
            None => self
                .ids
                .get(ty)?
                .get(case.unwrap_or(0))?
                .iter()
                .position(|id| id == key),
        }
    }

    /// The `$defs` name of type `ty`.
    pub fn def_name(&self, ty: usize) -> &str {
        self.defs.get(ty).map_or("", String::as_str)
    }

    /// Every stable id the dialect writes under another key, fields first
    /// (in graph order), then definitions.
    pub fn renames(&self) -> &[Rename] {
        &self.renames
    }

    /// The key report as JSON: an array of
    /// `{"kind":"field"|"definition","type":…,"case":…,"stable_id":…,"key":…}`
    /// (`case` only for a variant's field), in [`KeyMap::renames`] order,
    /// compact, with one LF at the end.
    pub fn renames_json(&self) -> String {
        renames_json(&self.renames)
    }
}

/// [`KeyMap::renames_json`] of a list of renames.
pub(crate) fn renames_json(renames: &[Rename]) -> String {
    {
        let mut s = String::from("[");
        for (i, r) in renames.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            s.push_str("{\"kind\":");
            quote_into(&mut s, r.kind);
            s.push_str(",\"type\":");
            quote_into(&mut s, &r.type_id);
            if let Some(c) = &r.case_id {
                s.push_str(",\"case\":");
                quote_into(&mut s, c);
            }
            s.push_str(",\"stable_id\":");
            quote_into(&mut s, &r.stable_id);
            s.push_str(",\"key\":");
            quote_into(&mut s, &r.key);
            s.push('}');
        }
        s.push_str("]\n");
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fitting_ids_keep_themselves_and_others_get_a_digest() {
        let r = KeyRule::PROPERTY;
        assert_eq!(r.safe("planner.step-x_1"), "planner.step-x_1");
        let k = r.safe("a b");
        assert!(k.starts_with("a_b-") && k.len() == 16, "{k}");
        assert!(r.fits(&k));
        let long = "x".repeat(200);
        let k = r.safe(&long);
        assert_eq!(k.len(), 64);
        assert!(k.starts_with(&"x".repeat(51)));
        assert!(r.fits(&r.safe("")));
        assert!(r.fits(&r.safe("é\u{0}\n/~\"")));
    }

    #[test]
    fn collisions_are_resolved_in_order_and_ids_that_fit_win() {
        let r = KeyRule::PROPERTY;
        let victim = "a b";
        let forged = r.safe(victim);
        // An id spelled exactly like the safe key of another keeps it.
        let keys = r.assign([victim, forged.as_str()]);
        assert_eq!(keys[1], forged);
        assert_ne!(keys[0], forged);
        assert!(r.fits(&keys[0]) && keys[0].len() <= 64);
        // Forge that one too: a counter follows.
        let second = keys[0].clone();
        let keys = r.assign([victim, forged.as_str(), second.as_str()]);
        let distinct: HashSet<&String> = keys.iter().collect();
        assert_eq!(distinct.len(), 3, "{keys:?}");
        assert!(keys[0].ends_with("-2"), "{keys:?}");
        assert!(keys.iter().all(|k| r.fits(k)));
    }
}
