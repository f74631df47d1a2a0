//! The `detail` texts of the walk's refusals, in the voice of each user.
//! The walk decides what failed and where ([`Failure`], the code, the rule,
//! the pointer); a [`Voice`] only puts it into words.

use std::borrow::Cow;

use crate::graph::{limits, Case, Field, FieldType, Repr, TypeKind};
use crate::json::Tree;
use crate::quote::quote;
use crate::schema::Schema;

/// Who reads the details.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Voice {
    /// Strict decoding: a short statement of the rule that failed
    /// (`` `u8` is a decimal string from 0 to 255 … ``).
    Decoder,
    /// Admission: the pointer, what was expected and what was found, fit to
    /// send back to the model that wrote the text
    /// (`/fields/x: expected …, got "300"`).
    Model,
}

/// What a refused value was, as the details describe it: the walk's tree
/// (a node index), or what a stream has seen of a value so far
/// ([`crate::stream`], which has no tree).
pub(crate) trait Found {
    /// `"300"`, `42`, `an object with keys "a", "b"` ([`Tree::describe`]).
    fn describe(&self, node: usize) -> String;
    /// `a string`, `an object` ([`Tree::kind_word`]).
    fn kind_word(&self, node: usize) -> &'static str;
    /// The unescaped text of a string ([`Tree::text`]).
    fn text(&self, node: usize) -> Cow<'_, str>;
}

impl Found for Tree<'_> {
    fn describe(&self, node: usize) -> String {
        Tree::describe(self, node)
    }
    fn kind_word(&self, node: usize) -> &'static str {
        Tree::kind_word(self, node)
    }
    fn text(&self, node: usize) -> Cow<'_, str> {
        Tree::text(self, node)
    }
}

/// What the walk refused. Nodes are indices into the tree (or whatever
/// the [`Found`] that describes them takes them for).
pub(crate) enum Failure<'x> {
    /// A value of type `ty` nested deeper than 16.
    MaxDepth { ty: usize, node: usize },
    /// A value of type `ty` that is not an object.
    NotObject { ty: usize, node: usize },
    /// A key of object `obj` outside `keys`.
    UnexpectedKey {
        obj: usize,
        key: &'x str,
        keys: &'x [&'x str],
    },
    /// A key of `keys` absent from object `obj`.
    MissingKey {
        obj: usize,
        key: &'x str,
        keys: &'x [&'x str],
    },
    /// A `case` member that is not a string.
    CaseNotString { cases: &'x [Case], node: usize },
    /// A `case` of type `ty` that names no declared case.
    UnknownCase {
        ty: usize,
        cases: &'x [Case],
        node: usize,
    },
    /// A `fields` member that is not an object; `names` are the keys of
    /// its declared fields.
    FieldsNotObject { names: Vec<&'x str>, node: usize },
    /// An undeclared field `key`, whose value is `node`; `names` are the
    /// keys of the declared fields.
    UnknownField {
        names: Vec<&'x str>,
        key: &'x str,
        node: usize,
    },
    /// A declared field that is absent.
    MissingField { field: &'x Field },
    /// A leaf of the wrong JSON type.
    Representation { repr: Repr, node: usize },
    /// An integer string refused with `rule` (`value.integer` or
    /// `value.integer_range`).
    Integer {
        repr: Repr,
        rule: &'static str,
        node: usize,
    },
    /// A string of `len` UTF-8 bytes, over the bound.
    StringBytes { len: usize, node: usize },
    /// A bytes array of `count` elements, over the bound.
    BytesLength { count: usize, node: usize },
    /// A bytes element that is not an integer 0..=255.
    BytesElement { node: usize },
}

impl Voice {
    /// The detail of `failure`, refused at `ptr` (`None`: no detail).
    pub(crate) fn detail(
        self,
        tree: &dyn Found,
        schema: &Schema,
        ptr: &str,
        failure: &Failure<'_>,
    ) -> Option<String> {
        match self {
            Voice::Decoder => decoder(tree, schema, failure),
            Voice::Model => Some(format!("{}: {}", show(ptr), model(tree, schema, failure))),
        }
    }
}

/// `` `a`, `b` ``: identifiers as the decoder's details list them.
fn ticks<'s>(ids: impl Iterator<Item = &'s str>) -> String {
    ids.map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
}

fn decoder(tree: &dyn Found, schema: &Schema, failure: &Failure<'_>) -> Option<String> {
    Some(match *failure {
        Failure::MaxDepth { .. } | Failure::MissingField { .. } => return None,
        Failure::NotObject { node, .. } | Failure::FieldsNotObject { node, .. } => {
            format!("expected an object, found {}", tree.kind_word(node))
        }
        Failure::UnexpectedKey { key, keys, .. } => format!(
            "unexpected key `{key}`; the object has exactly the keys {}",
            ticks(keys.iter().copied())
        ),
        Failure::MissingKey { key, keys, .. } => format!(
            "missing key `{key}`; the object has exactly the keys {}",
            ticks(keys.iter().copied())
        ),
        Failure::CaseNotString { node, .. } => {
            format!("expected a string, found {}", tree.kind_word(node))
        }
        Failure::UnknownCase { ty, cases, node } => {
            let ty = schema
                .graph()
                .types
                .get(ty)
                .map_or("", |t| t.stable_id.as_str());
            format!(
                "`{}` is not a case of `{ty}`; declared cases: {}",
                tree.text(node),
                ticks(cases.iter().map(|c| c.stable_id.as_str()))
            )
        }
        Failure::UnknownField { ref names, key, .. } => format!(
            "`{key}` is not a declared field; declared fields: {}",
            ticks(names.iter().copied())
        ),
        Failure::Representation { repr, node } => {
            let what = match repr {
                Repr::Bool => "a JSON boolean",
                Repr::String => "a JSON string",
                Repr::Bytes => "an array of integers 0..=255",
                _ => "a decimal integer in a JSON string",
            };
            format!(
                "`{}` is {what}, found {}",
                repr.name(),
                tree.kind_word(node)
            )
        }
        Failure::Integer { repr, .. } => {
            let (lo, hi) = repr.bounds().unwrap_or(("", ""));
            format!(
                "`{}` is a decimal string from {lo} to {hi} (no `+`, no leading zero, no `-0`)",
                repr.name()
            )
        }
        Failure::StringBytes { len, .. } => format!(
            "the string has {len} UTF-8 bytes; at most {} are allowed",
            limits::MAX_STRING_BYTES
        ),
        Failure::BytesLength { count, .. } => format!(
            "the array has {count} elements; at most {} are allowed",
            limits::MAX_BYTES_LEN
        ),
        Failure::BytesElement { .. } => {
            "a bytes element is a JSON integer from 0 to 255".to_string()
        }
    })
}

fn model(tree: &dyn Found, schema: &Schema, failure: &Failure<'_>) -> String {
    let got = |node: usize| tree.describe(node);
    match *failure {
        Failure::MaxDepth { ty, node } | Failure::NotObject { ty, node } => {
            format!("expected {}, got {}", expect_type(schema, ty), got(node))
        }
        Failure::UnexpectedKey { obj, key, keys } => format!(
            "unexpected key {}; expected {}, got {}",
            quote(key),
            exactly(keys),
            got(obj)
        ),
        Failure::MissingKey { obj, key, keys } => format!(
            "missing key {}; expected {}, got {}",
            quote(key),
            exactly(keys),
            got(obj)
        ),
        Failure::CaseNotString { cases, node } => {
            format!("expected a string, one of {}, got {}", case_list(cases), got(node))
        }
        Failure::UnknownCase { cases, node, .. } => {
            format!("expected one of {}, got {}", case_list(cases), got(node))
        }
        Failure::FieldsNotObject { ref names, node } => {
            let expected = if names.is_empty() {
                "an object (here always the empty object {})".to_string()
            } else {
                format!("an object with the fields {}", list(names.iter().copied()))
            };
            format!("expected {expected}, got {}", got(node))
        }
        Failure::UnknownField {
            ref names,
            key,
            node,
        } => {
            let expected = if names.is_empty() {
                "no field at all".to_string()
            } else {
                format!("only the fields {}", list(names.iter().copied()))
            };
            format!(
                "unknown field {}; expected {expected}, got {} under it",
                quote(key),
                got(node)
            )
        }
        Failure::MissingField { field } => {
            let expected = match field.ty {
                FieldType::Nested(i) => expect_type(schema, i),
                FieldType::Scalar(repr) => expect_leaf(repr),
            };
            format!("the field is missing; expected {expected}")
        }
        Failure::Integer {
            repr,
            rule: "value.integer",
            node,
        } => format!(
            "expected {} (digits with an optional leading \"-\", no \"+\", no leading zeros, not \"-0\"), got {}",
            expect_leaf(repr),
            got(node)
        ),
        Failure::Representation { repr, node } | Failure::Integer { repr, node, .. } => {
            format!("expected {}, got {}", expect_leaf(repr), got(node))
        }
        Failure::StringBytes { node, .. } => {
            format!("expected {}, got {}", expect_leaf(Repr::String), got(node))
        }
        Failure::BytesLength { node, .. } => {
            format!("expected {}, got {}", expect_leaf(Repr::Bytes), got(node))
        }
        Failure::BytesElement { node } => format!(
            "expected an integer from 0 to 255 written with digits only (no sign, fraction or exponent), got {}",
            got(node)
        ),
    }
}

/// A pointer as shown at the start of a model detail: `(root)` for `""`.
pub(crate) fn show(pointer: &str) -> &str {
    if pointer.is_empty() {
        "(root)"
    } else {
        pointer
    }
}

/// `"a", "b"`: at most 20 quoted ids, then how many in all.
fn list<'s>(ids: impl Iterator<Item = &'s str>) -> String {
    let all: Vec<&str> = ids.collect();
    let n = all.len();
    let mut shown: Vec<String> = all.into_iter().take(20).map(quote).collect();
    if n > 20 {
        shown.push(format!("… ({n} in all)"));
    }
    shown.join(", ")
}

fn case_list(cases: &[Case]) -> String {
    list(cases.iter().map(|c| c.stable_id.as_str()))
}

fn exactly(keys: &[&str]) -> String {
    let words = list(keys.iter().copied());
    if keys.len() == 1 {
        format!("an object with exactly the key {words}")
    } else {
        format!("an object with exactly the keys {words}")
    }
}

/// What a value of type `index` looks like, in a model detail.
pub(crate) fn expect_type(schema: &Schema, index: usize) -> String {
    match schema.graph().types.get(index).map(|t| &t.kind) {
        Some(TypeKind::Record { .. }) => "an object {\"fields\": {…}}".to_string(),
        Some(TypeKind::Variant { cases }) => format!(
            "an object {{\"case\": …, \"fields\": {{…}}}} whose case is one of {}",
            case_list(cases)
        ),
        None => "a value".to_string(),
    }
}

/// What a leaf looks like, in a model detail.
fn expect_leaf(repr: Repr) -> String {
    match repr {
        Repr::Bool => "true or false".to_string(),
        Repr::String => format!(
            "a string of at most {} UTF-8 bytes",
            limits::MAX_STRING_BYTES
        ),
        Repr::Bytes => format!(
            "an array of at most {} integers from 0 to 255",
            limits::MAX_BYTES_LEN
        ),
        _ => {
            let (min, max) = repr.bounds().unwrap_or(("", ""));
            format!("a decimal string integer between {min} and {max}")
        }
    }
}
