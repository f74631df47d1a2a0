//! What a stream needs to know about a schema, computed once per schema
//! (and kept in it, [`Schema::stream_plan`]): the literal bytes of the one
//! canonical form around the leaves (the envelope's prefix, every type's
//! keys and punctuation, every quoted case id), with what each part of
//! them is for, and the shortest completions ([`Shortest`]).

use super::shortest::{Shortest, AFTER_CASE, RECORD_OPEN, VARIANT_OPEN};
use crate::decode::envelope::ENVELOPE_KEYS;
use crate::graph::{limits, Field, TypeKind};
use crate::quote::quote_into;
use crate::schema::Schema;

/// An object of the document, as a literal names it: the envelope, or the
/// value object or the fields object of the type value being read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Obj {
    Env,
    Value,
    Fields,
}

/// What a byte of a literal is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Atom {
    /// `{` opening an object.
    Open(Obj),
    /// The key of member `i`.
    Key(Obj, usize),
    /// The `:` after the key of member `i`.
    Colon(Obj, usize),
    /// The `,` before member `i`.
    Comma(Obj, usize),
    /// `}` closing an object.
    Close(Obj),
    /// An envelope id: 0 the document id, 1 the root id, 2 the digest.
    Id(usize),
    /// The final LF.
    Lf,
}

/// A literal of the canonical form, and its parts: each ends (exclusive)
/// at its offset.
#[derive(Debug, Default)]
pub(super) struct Lit {
    pub(super) text: String,
    pub(super) atoms: Vec<(usize, Atom)>,
}

impl Lit {
    fn push(mut self, text: &str, atom: Atom) -> Lit {
        self.text.push_str(text);
        self.atoms.push((self.text.len(), atom));
        self
    }

    fn quoted(mut self, id: &str, atom: Atom) -> Lit {
        quote_into(&mut self.text, id);
        self.atoms.push((self.text.len(), atom));
        self
    }
}

/// A record's fields, or a variant case's.
#[derive(Debug)]
pub(super) struct CasePlan {
    /// `,"fields":{` after a case id (empty for a record).
    pub(super) after: Lit,
    /// `,"<field id>":` for each field (no comma before the first).
    pub(super) members: Vec<Lit>,
}

#[derive(Debug)]
pub(super) struct TypePlan {
    /// `{"fields":{` or `{"case":`.
    pub(super) open: Lit,
    /// One for a record, one per case for a variant.
    pub(super) cases: Vec<CasePlan>,
    /// A variant's quoted case ids, one after the other, and where each is.
    pub(super) quoted: String,
    pub(super) ids: Vec<(usize, usize)>,
}

/// The plan of one schema.
#[derive(Debug)]
pub struct Plan {
    pub(super) shortest: Shortest,
    pub(super) prefix: Lit,
    pub(super) close: Lit,
    pub(super) env_close: Lit,
    pub(super) final_lf: Lit,
    pub(super) types: Vec<TypePlan>,
}

fn members(fields: &[Field]) -> Vec<Lit> {
    fields
        .iter()
        .enumerate()
        .map(|(j, f)| {
            let mut lit = Lit::default();
            if j > 0 {
                lit = lit.push(",", Atom::Comma(Obj::Fields, j));
            }
            lit.quoted(&f.stable_id, Atom::Key(Obj::Fields, j))
                .push(":", Atom::Colon(Obj::Fields, j))
        })
        .collect()
}

impl Plan {
    /// Computes the plan of `schema`.
    pub(crate) fn new(schema: &Schema) -> Plan {
        let mut prefix = Lit::default().push("{", Atom::Open(Obj::Env));
        let ids = [limits::VALUE_ID, schema.root_type_id(), schema.digest()];
        for (i, key) in ENVELOPE_KEYS.iter().enumerate() {
            if i > 0 {
                prefix = prefix.push(",", Atom::Comma(Obj::Env, i));
            }
            prefix = prefix
                .quoted(key, Atom::Key(Obj::Env, i))
                .push(":", Atom::Colon(Obj::Env, i));
            if let Some(id) = ids.get(i) {
                prefix = prefix.quoted(id, Atom::Id(i));
            }
        }
        let types = schema
            .graph()
            .types
            .iter()
            .map(|t| match &t.kind {
                TypeKind::Record { fields } => TypePlan {
                    open: Lit::default()
                        .push("{", Atom::Open(Obj::Value))
                        .push("\"fields\"", Atom::Key(Obj::Value, 0))
                        .push(":", Atom::Colon(Obj::Value, 0))
                        .push("{", Atom::Open(Obj::Fields)),
                    cases: vec![CasePlan {
                        after: Lit::default(),
                        members: members(fields),
                    }],
                    quoted: String::new(),
                    ids: Vec::new(),
                },
                TypeKind::Variant { cases } => {
                    let mut quoted = String::new();
                    let mut ids = Vec::new();
                    for c in cases {
                        let start = quoted.len();
                        quote_into(&mut quoted, &c.stable_id);
                        ids.push((start, quoted.len()));
                    }
                    TypePlan {
                        open: Lit::default()
                            .push("{", Atom::Open(Obj::Value))
                            .push("\"case\"", Atom::Key(Obj::Value, 0))
                            .push(":", Atom::Colon(Obj::Value, 0)),
                        cases: cases
                            .iter()
                            .map(|c| CasePlan {
                                after: Lit::default()
                                    .push(",", Atom::Comma(Obj::Value, 1))
                                    .push("\"fields\"", Atom::Key(Obj::Value, 1))
                                    .push(":", Atom::Colon(Obj::Value, 1))
                                    .push("{", Atom::Open(Obj::Fields)),
                                members: members(&c.fields),
                            })
                            .collect(),
                        quoted,
                        ids,
                    }
                }
            })
            .collect();
        debug_assert_eq!(RECORD_OPEN.len() + VARIANT_OPEN.len(), 19);
        debug_assert_eq!(AFTER_CASE.len(), 11);
        Plan {
            shortest: Shortest::new(schema),
            prefix,
            close: Lit::default()
                .push("}", Atom::Close(Obj::Fields))
                .push("}", Atom::Close(Obj::Value)),
            env_close: Lit::default().push("}", Atom::Close(Obj::Env)),
            final_lf: Lit::default().push("\n", Atom::Lf),
            types,
        }
    }
}
