//! The fast path: a walk of the schema graph over the codec's in-place
//! readers ([`crate::codec::Cursor`], the same ones the generated decoders
//! use). It matches the literal bytes of the one canonical form and parses
//! scalars in place, and answers only "this is exactly the canonical
//! document of this value" (`Some`) or "something differs" (`None`); the
//! spec-ordered path then finds the exact first failure.
//!
//! Why a full match is admission: the match implies every check of
//! FORMAT.md §7. Steps 1–2 run before it. The matched text starts with `{`
//! and ends with `}` LF with no other LF or CR (canonical strings escape
//! them), so step 3 holds; it is JSON (canonical strings hold no raw
//! control character nor lone surrogate, the only numbers are bytes
//! elements `0..=255`, and a type depth of at most 16 nests at most 36
//! arrays/objects), so step 4 holds; the envelope keys, document id, root
//! id and digest are matched literally (steps 5–8); every leaf is checked
//! against its bounds and the depth against 16 (step 9); and the input is,
//! byte for byte, the canonical rendering of the value (step 10).

use crate::codec::{envelope, Cursor, Kernel};
use crate::graph::{limits, Field, FieldType, Repr, TypeGraph, TypeKind};
use crate::schema::Schema;
use crate::value::Value;

/// `Some(value)` when `text` is exactly the canonical document of a value
/// of `schema` that satisfies every rule; `None` otherwise.
/// (`K` is the codec's scanning kernel: the engine uses
/// [`crate::codec::Native`]; the differential tests also run
/// [`crate::codec::Portable`].)
pub(crate) fn decode<K: Kernel>(schema: &Schema, text: &str) -> Option<Value> {
    let mut c = Cursor::<K>::with_kernel(text);
    c.envelope_prefix(schema.root_type_id(), schema.digest())?;
    let graph = schema.graph();
    let value = type_value(&mut c, graph, graph.root_index(), 0)?;
    c.lit(envelope::END.as_bytes())?;
    c.at_end().then_some(value)
}

/// The value of type `t` at `depth`.
fn type_value<K: Kernel>(
    c: &mut Cursor<'_, K>,
    graph: &TypeGraph,
    t: usize,
    depth: usize,
) -> Option<Value> {
    if depth > limits::MAX_DEPTH {
        return None;
    }
    match &graph.types.get(t)?.kind {
        TypeKind::Record { fields } => {
            c.lit(b"{\"fields\":")?;
            let vals = fields_value(c, graph, fields, depth)?;
            c.lit(b"}")?;
            Some(Value::Record(vals))
        }
        TypeKind::Variant { cases } => {
            c.lit(b"{\"case\":")?;
            let case = cases.iter().find(|k| c.eat_quoted(&k.stable_id))?;
            c.lit(b",\"fields\":")?;
            let vals = fields_value(c, graph, &case.fields, depth)?;
            c.lit(b"}")?;
            Some(Value::Variant {
                case: case.stable_id.clone(),
                fields: vals,
            })
        }
    }
}

/// A `{…}` fields object with exactly the declared fields, in order.
fn fields_value<K: Kernel>(
    c: &mut Cursor<'_, K>,
    graph: &TypeGraph,
    decl: &[Field],
    depth: usize,
) -> Option<Vec<(String, Value)>> {
    c.lit(b"{")?;
    let mut out = Vec::with_capacity(decl.len());
    for (j, f) in decl.iter().enumerate() {
        if j > 0 {
            c.lit(b",")?;
        }
        c.quoted(&f.stable_id)?;
        c.lit(b":")?;
        let v = match f.ty {
            FieldType::Scalar(r) => scalar(c, r)?,
            FieldType::Nested(i) => type_value(c, graph, i, depth + 1)?,
        };
        out.push((f.stable_id.clone(), v));
    }
    c.lit(b"}")?;
    Some(out)
}

fn scalar<K: Kernel>(c: &mut Cursor<'_, K>, r: Repr) -> Option<Value> {
    Some(match r {
        Repr::Bool => Value::Bool(c.bool()?),
        Repr::I32 => Value::I64(i64::from(c.i32()?)),
        Repr::I64 => Value::I64(c.i64()?),
        Repr::U8 => Value::U64(u64::from(c.u8()?)),
        Repr::U64 => Value::U64(c.u64()?),
        Repr::String => Value::String(c.string()?),
        Repr::Bytes => Value::Bytes(c.bytes()?),
    })
}
