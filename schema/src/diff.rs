//! Structural diff of two type graphs by stable id, and the drift message
//! the build helper, the macro and the CLI print when a derived schema no
//! longer matches its pin.
//!
//! Types, fields and cases are matched by stable id only. Schema documents
//! carry no display names, so renaming a type, field or case in the source
//! never changes a digest and never shows up here.

use crate::graph::{FieldType, TypeGraph, TypeKind, TypeNode};
use crate::quote::quote;
use crate::schema::Schema;
use std::fmt;

/// Where a field lives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Owner {
    /// A field of the record with this stable id.
    Record(String),
    /// A payload field of the case `case` of the variant `variant`.
    Case {
        /// The variant's stable id.
        variant: String,
        /// The case's stable id.
        case: String,
    },
}

impl fmt::Display for Owner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Owner::Record(id) => write!(f, "record {}", quote(id)),
            Owner::Case { variant, case } => {
                write!(f, "case {} of variant {}", quote(case), quote(variant))
            }
        }
    }
}

/// A field type described by stable ids only (indices do not compare
/// across graphs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TypeRef {
    /// A scalar with this representation name (`i64`, `bytes`, …).
    Scalar(&'static str),
    /// A nested reference to the type with this stable id.
    Nested(String),
}

impl fmt::Display for TypeRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TypeRef::Scalar(r) => f.write_str(r),
            TypeRef::Nested(id) => write!(f, "nested {}", quote(id)),
        }
    }
}

/// One structural change from the pinned graph to the derived one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// A type is in the derived graph only.
    TypeAdded {
        /// Its stable id.
        id: String,
        /// `record` or `variant`.
        kind: &'static str,
    },
    /// A type is in the pinned graph only.
    TypeRemoved {
        /// Its stable id.
        id: String,
        /// `record` or `variant`.
        kind: &'static str,
    },
    /// A type changed between record and variant.
    KindChanged {
        /// Its stable id.
        id: String,
        /// The pinned kind.
        from: &'static str,
        /// The derived kind.
        to: &'static str,
    },
    /// A field is new.
    FieldAdded {
        /// Where it lives.
        owner: Owner,
        /// Its stable id.
        id: String,
        /// Its type.
        ty: TypeRef,
    },
    /// A field is gone.
    FieldRemoved {
        /// Where it lived.
        owner: Owner,
        /// Its stable id.
        id: String,
        /// Its pinned type.
        ty: TypeRef,
    },
    /// A field's type changed (scalar representation or nested target).
    FieldRetyped {
        /// Where it lives.
        owner: Owner,
        /// Its stable id.
        id: String,
        /// The pinned type.
        from: TypeRef,
        /// The derived type.
        to: TypeRef,
    },
    /// The fields kept by an owner are in a different order (the wire
    /// order is the declaration order).
    FieldsReordered {
        /// Where they live.
        owner: Owner,
        /// Pinned order of the kept fields.
        from: Vec<String>,
        /// Derived order of the kept fields.
        to: Vec<String>,
    },
    /// A case is new.
    CaseAdded {
        /// The variant's stable id.
        variant: String,
        /// The case's stable id.
        id: String,
    },
    /// A case is gone.
    CaseRemoved {
        /// The variant's stable id.
        variant: String,
        /// The case's stable id.
        id: String,
    },
    /// The cases kept by a variant are in a different order.
    CasesReordered {
        /// The variant's stable id.
        variant: String,
        /// Pinned order of the kept cases.
        from: Vec<String>,
        /// Derived order of the kept cases.
        to: Vec<String>,
    },
}

fn list(ids: &[String]) -> String {
    ids.iter().map(|s| quote(s)).collect::<Vec<_>>().join(", ")
}

impl fmt::Display for Change {
    /// One line: `+` added, `-` removed, `~` changed, then what and where.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Change::TypeAdded { id, kind } => write!(f, "+ type {} ({kind})", quote(id)),
            Change::TypeRemoved { id, kind } => write!(f, "- type {} ({kind})", quote(id)),
            Change::KindChanged { id, from, to } => {
                write!(f, "~ type {}: {from} -> {to}", quote(id))
            }
            Change::FieldAdded { owner, id, ty } => {
                write!(f, "+ field {}: {ty} (in {owner})", quote(id))
            }
            Change::FieldRemoved { owner, id, ty } => {
                write!(f, "- field {}: {ty} (in {owner})", quote(id))
            }
            Change::FieldRetyped {
                owner,
                id,
                from,
                to,
            } => write!(f, "~ field {}: {from} -> {to} (in {owner})", quote(id)),
            Change::FieldsReordered { owner, from, to } => write!(
                f,
                "~ field order of {owner}: [{}] -> [{}]",
                list(from),
                list(to)
            ),
            Change::CaseAdded { variant, id } => {
                write!(f, "+ case {} (in variant {})", quote(id), quote(variant))
            }
            Change::CaseRemoved { variant, id } => {
                write!(f, "- case {} (in variant {})", quote(id), quote(variant))
            }
            Change::CasesReordered { variant, from, to } => write!(
                f,
                "~ case order of variant {}: [{}] -> [{}]",
                quote(variant),
                list(from),
                list(to)
            ),
        }
    }
}

fn kind_name(t: &TypeNode) -> &'static str {
    match t.kind {
        TypeKind::Record { .. } => "record",
        TypeKind::Variant { .. } => "variant",
    }
}

fn type_ref(graph: &TypeGraph, ty: FieldType) -> TypeRef {
    match ty {
        FieldType::Scalar(r) => TypeRef::Scalar(r.name()),
        FieldType::Nested(i) => TypeRef::Nested(
            graph
                .types
                .get(i)
                .map_or_else(|| format!("#{i}"), |t| t.stable_id.clone()),
        ),
    }
}

fn diff_fields(
    out: &mut Vec<Change>,
    owner: &Owner,
    old_graph: &TypeGraph,
    old: &[crate::graph::Field],
    new_graph: &TypeGraph,
    new: &[crate::graph::Field],
) {
    for f in old {
        match new.iter().find(|n| n.stable_id == f.stable_id) {
            None => out.push(Change::FieldRemoved {
                owner: owner.clone(),
                id: f.stable_id.clone(),
                ty: type_ref(old_graph, f.ty),
            }),
            Some(n) => {
                let (from, to) = (type_ref(old_graph, f.ty), type_ref(new_graph, n.ty));
                if from != to {
                    out.push(Change::FieldRetyped {
                        owner: owner.clone(),
                        id: f.stable_id.clone(),
                        from,
                        to,
                    });
                }
            }
        }
    }
    for n in new {
        if !old.iter().any(|f| f.stable_id == n.stable_id) {
            out.push(Change::FieldAdded {
                owner: owner.clone(),
                id: n.stable_id.clone(),
                ty: type_ref(new_graph, n.ty),
            });
        }
    }
    let kept_old: Vec<String> = old
        .iter()
        .filter(|f| new.iter().any(|n| n.stable_id == f.stable_id))
        .map(|f| f.stable_id.clone())
        .collect();
    let kept_new: Vec<String> = new
        .iter()
        .filter(|n| old.iter().any(|f| f.stable_id == n.stable_id))
        .map(|n| n.stable_id.clone())
        .collect();
    if kept_old != kept_new {
        out.push(Change::FieldsReordered {
            owner: owner.clone(),
            from: kept_old,
            to: kept_new,
        });
    }
}

/// The structural changes from `pinned` to `derived`, by stable id.
///
/// Order: for each pinned type in output-list order, its removal, kind
/// change or field/case changes; then each added type in derived order.
/// Empty exactly when the two graphs have the same types, fields, cases,
/// field types and orders (display names are ignored).
pub fn diff_graphs(pinned: &TypeGraph, derived: &TypeGraph) -> Vec<Change> {
    let mut out = Vec::new();
    for old in &pinned.types {
        let Some(new) = derived.types.iter().find(|t| t.stable_id == old.stable_id) else {
            out.push(Change::TypeRemoved {
                id: old.stable_id.clone(),
                kind: kind_name(old),
            });
            continue;
        };
        match (&old.kind, &new.kind) {
            (TypeKind::Record { fields: of }, TypeKind::Record { fields: nf }) => {
                let owner = Owner::Record(old.stable_id.clone());
                diff_fields(&mut out, &owner, pinned, of, derived, nf);
            }
            (TypeKind::Variant { cases: oc }, TypeKind::Variant { cases: nc }) => {
                for c in oc {
                    match nc.iter().find(|n| n.stable_id == c.stable_id) {
                        None => out.push(Change::CaseRemoved {
                            variant: old.stable_id.clone(),
                            id: c.stable_id.clone(),
                        }),
                        Some(n) => {
                            let owner = Owner::Case {
                                variant: old.stable_id.clone(),
                                case: c.stable_id.clone(),
                            };
                            diff_fields(&mut out, &owner, pinned, &c.fields, derived, &n.fields);
                        }
                    }
                }
                for n in nc {
                    if !oc.iter().any(|c| c.stable_id == n.stable_id) {
                        out.push(Change::CaseAdded {
                            variant: old.stable_id.clone(),
                            id: n.stable_id.clone(),
                        });
                    }
                }
                let kept_old: Vec<String> = oc
                    .iter()
                    .filter(|c| nc.iter().any(|n| n.stable_id == c.stable_id))
                    .map(|c| c.stable_id.clone())
                    .collect();
                let kept_new: Vec<String> = nc
                    .iter()
                    .filter(|n| oc.iter().any(|c| c.stable_id == n.stable_id))
                    .map(|n| n.stable_id.clone())
                    .collect();
                if kept_old != kept_new {
                    out.push(Change::CasesReordered {
                        variant: old.stable_id.clone(),
                        from: kept_old,
                        to: kept_new,
                    });
                }
            }
            _ => out.push(Change::KindChanged {
                id: old.stable_id.clone(),
                from: kind_name(old),
                to: kind_name(new),
            }),
        }
    }
    for new in &derived.types {
        if !pinned.types.iter().any(|t| t.stable_id == new.stable_id) {
            out.push(Change::TypeAdded {
                id: new.stable_id.clone(),
                kind: kind_name(new),
            });
        }
    }
    out
}

/// The explanation printed when the schema derived for `root` no longer
/// has the pinned digest.
///
/// Names the root, the pinned and the derived digests, then the structural
/// diff by stable id (one `+`/`-`/`~` line per change, indented by four
/// spaces), or says why no diff can be shown (the pinned document is
/// unavailable, or does not have the pinned digest), then `repin_hint` on
/// its own line unless it is empty. No trailing LF.
///
/// ```text
/// schema drift for root "planner.proposal"
///   pinned digest:  sha256:…
///   derived digest: sha256:…
///   changes by stable id (pinned -> derived):
///     ~ field "planner.proposal.budget": i64 -> u64 (in record "planner.proposal")
/// re-pin with `SPX_UPDATE_PINS=1 cargo build` or `spx pin`
/// ```
pub fn drift_message(
    root: &str,
    pinned_digest: &str,
    pinned: Option<&Schema>,
    derived: &Schema,
    repin_hint: &str,
) -> String {
    let mut s = format!(
        "schema drift for root {}\n  pinned digest:  {}\n  derived digest: {}\n",
        quote(root),
        pinned_digest,
        derived.digest()
    );
    match pinned {
        None => s.push_str(
            "  the pinned schema document is unavailable (spx.lock.d/ is missing it or it is unreadable), so no structural diff can be shown\n",
        ),
        Some(p) if p.digest() != pinned_digest => s.push_str(&format!(
            "  the pinned schema document in spx.lock.d/ has digest {} instead of the pinned one, so no structural diff can be shown\n",
            p.digest()
        )),
        Some(p) => {
            let changes = diff_graphs(p.graph(), derived.graph());
            if changes.is_empty() {
                s.push_str("  no structural change by stable id (the documents differ in type order only)\n");
            } else {
                s.push_str("  changes by stable id (pinned -> derived):\n");
                for c in changes {
                    s.push_str("    ");
                    s.push_str(&c.to_string());
                    s.push('\n');
                }
            }
        }
    }
    if repin_hint.is_empty() {
        s.pop();
    } else {
        s.push_str(repin_hint);
    }
    s
}
