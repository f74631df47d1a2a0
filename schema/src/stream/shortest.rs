//! The shortest canonical completion of a value, by type and depth: the
//! size bound and the depth bound as the streams see them before the end.
//! A type whose every value nests deeper than 16 from where it stands has
//! no completion at all ([`INF`]), so a stream refuses it at its first
//! byte, and a case that cannot be completed is not a candidate.

use crate::graph::{limits, Field, FieldType, Repr, TypeKind};
use crate::quote::{push_pointer_token, short_escape, unicode_escaped};
use crate::schema::Schema;

/// No completion: a type that cannot be completed under the depth bound.
pub(super) const INF: u32 = u32::MAX;
pub(super) const RECORD_OPEN: &str = "{\"fields\":{";
pub(super) const VARIANT_OPEN: &str = "{\"case\":";
pub(super) const AFTER_CASE: &str = ",\"fields\":{";

/// The length of `s` quoted canonically (FORMAT.md §2).
pub(super) fn quoted_len(s: &str) -> u32 {
    let inner: usize = s
        .chars()
        .map(|c| match short_escape(c) {
            Some(e) => e.len(),
            None if unicode_escaped(c) => 6,
            None => c.len_utf8(),
        })
        .sum();
    (inner + 2) as u32
}

/// The shortest canonical leaf: `true`, `"0"`, `""`, `[]`.
pub(super) fn leaf_min(r: Repr) -> u32 {
    match r {
        Repr::Bool => 4,
        Repr::String | Repr::Bytes => 2,
        _ => 3,
    }
}

pub(super) fn member_len(j: usize, f: &Field) -> u32 {
    u32::from(j > 0) + quoted_len(&f.stable_id) + 1
}

/// The shortest canonical value of each type at each depth
/// (`min[d * n + t]`) and the shortest rest of each variant case after its
/// id (`after[(first case of t + c) * ROWS + d]`), `INF` where none fits
/// under the depth bound. The depth `MAX_DEPTH + 1` is all `INF`.
#[derive(Debug)]
pub(super) struct Shortest {
    n: usize,
    min: Vec<u32>,
    after: Vec<u32>,
    /// Where each type's cases start in `after`.
    first_case: Vec<usize>,
}

const ROWS: usize = limits::MAX_DEPTH + 2;

/// The depth-independent part of a record's or a case's fields: the
/// literal bytes and the shortest leaves, and the nested types.
struct Part {
    fixed: u32,
    nested: Vec<usize>,
}

fn part(fields: &[Field]) -> Part {
    let mut fixed = 0u32;
    let mut nested = Vec::new();
    for (j, f) in fields.iter().enumerate() {
        fixed = fixed.saturating_add(member_len(j, f));
        match f.ty {
            FieldType::Scalar(r) => fixed = fixed.saturating_add(leaf_min(r)),
            FieldType::Nested(t) => nested.push(t),
        }
    }
    Part { fixed, nested }
}

impl Shortest {
    pub(super) fn new(schema: &Schema) -> Shortest {
        let types = &schema.graph().types;
        let n = types.len();
        // Each type's parts (one for a record, one per case), and a
        // variant case's `{"case":<id>` length.
        let mut parts: Vec<Vec<(Part, u32)>> = Vec::with_capacity(n);
        let mut first_case = Vec::with_capacity(n);
        let mut cases = 0;
        for ty in types {
            first_case.push(cases);
            parts.push(match &ty.kind {
                TypeKind::Record { fields } => vec![(part(fields), 0)],
                TypeKind::Variant { cases: cs } => {
                    cases += cs.len();
                    cs.iter()
                        .map(|c| {
                            (
                                part(&c.fields),
                                VARIANT_OPEN.len() as u32 + quoted_len(&c.stable_id),
                            )
                        })
                        .collect()
                }
            });
        }
        let mut s = Shortest {
            n,
            min: vec![INF; ROWS * n],
            after: vec![INF; ROWS * cases],
            first_case,
        };
        for d in (0..=limits::MAX_DEPTH).rev() {
            for (t, ty) in types.iter().enumerate() {
                let inner = |s: &Shortest, p: &Part| {
                    p.nested
                        .iter()
                        .fold(p.fixed, |acc, &u| acc.saturating_add(s.get(u, d + 1)))
                };
                let ps = parts.get(t).map_or(&[][..], Vec::as_slice);
                let v = match &ty.kind {
                    TypeKind::Record { .. } => ps.first().map_or(INF, |(p, _)| {
                        (RECORD_OPEN.len() as u32 + 2).saturating_add(inner(&s, p))
                    }),
                    TypeKind::Variant { .. } => {
                        let mut best = INF;
                        for (c, (p, open)) in ps.iter().enumerate() {
                            let after = (AFTER_CASE.len() as u32 + 2).saturating_add(inner(&s, p));
                            let at = (s.first_case.get(t).copied().unwrap_or(0) + c) * ROWS + d;
                            if let Some(slot) = s.after.get_mut(at) {
                                *slot = after;
                            }
                            best = best.min(open.saturating_add(after));
                        }
                        best
                    }
                };
                if let Some(slot) = s.min.get_mut(d * n + t) {
                    *slot = v;
                }
            }
        }
        s
    }

    pub(super) fn get(&self, t: usize, d: usize) -> u32 {
        self.min.get(d * self.n + t).copied().unwrap_or(INF)
    }

    /// The shortest value of field `f` of a type at depth `d`.
    pub(super) fn value(&self, f: &Field, d: usize) -> u32 {
        match f.ty {
            FieldType::Scalar(r) => leaf_min(r),
            FieldType::Nested(t) => self.get(t, d + 1),
        }
    }

    /// What follows case `c`'s id in a value of variant `t` at depth `d`:
    /// `,"fields":{`, the members, `}}`.
    pub(super) fn after_case(&self, t: usize, c: usize, d: usize) -> u32 {
        let at = (self.first_case.get(t).copied().unwrap_or(0) + c) * ROWS + d;
        self.after.get(at).copied().unwrap_or(INF)
    }
}

impl Shortest {
    /// True when a value of type `t` at depth `d` can be completed.
    pub(super) fn feasible(&self, t: usize, d: usize) -> bool {
        self.get(t, d) != INF
    }

    /// Where the walk finds a value nested deeper than 16 in a value of
    /// type `t` at depth `d` (at `ptr`) that cannot be completed: the first
    /// field, in declaration order, whose type cannot (of the first case,
    /// for a variant none of whose cases can).
    pub(super) fn infeasible_ptr(
        &self,
        schema: &Schema,
        t: usize,
        d: usize,
        ptr: String,
    ) -> String {
        if d > limits::MAX_DEPTH {
            return ptr;
        }
        let fields: &[Field] = match schema.graph().types.get(t).map(|x| &x.kind) {
            Some(TypeKind::Record { fields }) => fields,
            Some(TypeKind::Variant { cases }) => cases.first().map_or(&[], |c| &c.fields),
            None => &[],
        };
        self.infeasible_field(schema, fields, d, ptr)
    }

    /// [`Shortest::infeasible_ptr`] for the fields of a type at depth `d`.
    pub(super) fn infeasible_field(
        &self,
        schema: &Schema,
        fields: &[Field],
        d: usize,
        mut ptr: String,
    ) -> String {
        for f in fields {
            if let FieldType::Nested(u) = f.ty {
                if !self.feasible(u, d + 1) {
                    ptr.push_str("/fields");
                    push_pointer_token(&mut ptr, &f.stable_id);
                    return self.infeasible_ptr(schema, u, d + 1, ptr);
                }
            }
        }
        ptr
    }
}
