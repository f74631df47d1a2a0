//! Canonical encoding of values (FORMAT.md §6).
//!
//! [`encode`] is the exact inverse of [`crate::decode::decode`]: for every
//! value it accepts, `decode(schema, encode(schema, v)) == v`. It refuses a
//! value that does not fit the schema with the SPX-Z206 rule and the JSON
//! Pointer the decoder would report for the same defect (see
//! `docs/DECODING.md`).

use crate::codec::envelope;
use crate::codec::quote::{push_pointer_token, quote_into};
use crate::codec::scalar::{signed_fits, unsigned_fits};
use crate::codec::write::{write_bool, write_bytes, write_i64, write_string, write_u64};
use crate::diag::Diagnostic;
use crate::graph::{limits, Field, FieldType, Repr, TypeGraph, TypeKind};
use crate::schema::Schema;
use crate::value::Value;

/// Rule of the encoder-only refusal of a field list that holds every
/// declared field but not exactly once each in declaration order
/// (misordered or duplicated). The decoder never produces such a value.
pub const RULE_FIELDS_ORDER: &str = "value.fields.order";

/// Encodes `value` as the canonical value document of `schema`, LF included.
///
/// Refuses a value that does not fit the root type (SPX-Z206 with the
/// decoder's rule and pointer) and a document over 65536 bytes (SPX-Z206
/// `document_bytes`, pointer `""`).
///
/// ```
/// # use spx_schema::{*, graph::*};
/// let graph = TypeGraph { types: vec![TypeNode {
///     stable_id: "p".into(), name: "P".into(),
///     kind: TypeKind::Record { fields: vec![Field {
///         stable_id: "p.x".into(), name: "x".into(), ty: FieldType::Scalar(Repr::I64) }] },
/// }]};
/// let schema = Schema::from_graph(graph).unwrap();
/// let doc = spx_schema::encode::encode(&schema, &Value::Record(vec![("p.x".into(), Value::I64(-7))])).unwrap();
/// assert!(doc.ends_with(",\"value\":{\"fields\":{\"p.x\":\"-7\"}}}\n"));
/// ```
pub fn encode(schema: &Schema, value: &Value) -> Result<String, Diagnostic> {
    let out = render_document(schema, value)?;
    if out.len() > limits::MAX_DOCUMENT_BYTES {
        return Err(Diagnostic::z206("document_bytes")
            .at_pointer("")
            .with_detail(format!(
                "the canonical document would be {} bytes; at most {} are allowed",
                out.len(),
                limits::MAX_DOCUMENT_BYTES
            )));
    }
    Ok(out)
}

/// The canonical document of `value`, without the document size bound.
pub(crate) fn render_document(schema: &Schema, value: &Value) -> Result<String, Diagnostic> {
    let mut out = String::with_capacity(256);
    envelope::push_prefix(&mut out, schema.root_type_id(), schema.digest());
    encode_value_into(&mut out, schema, value)?;
    out.push_str(envelope::END);
    Ok(out)
}

/// Appends only the `<VALUE>` part of the canonical document (the root
/// type's value) to `out`. Pointers in diagnostics start with `/value`, as
/// in a whole document. The 65536-byte document bound is not checked here
/// (it applies to the whole document; [`encode`] checks it). On error,
/// `out` may hold a partial rendering.
pub fn encode_value_into(
    out: &mut String,
    schema: &Schema,
    value: &Value,
) -> Result<(), Diagnostic> {
    let graph = schema.graph();
    let mut ptr = String::from("/value");
    write_type(out, graph, graph.root_index(), value, 0, &mut ptr)
}

/// One valid, illustrative value of `schema`'s root type: the first case of
/// every variant, and non-trivial in-bounds scalars (`true`, `42` for
/// `i32`, `-1234567890123` for `i64`, `200` for `u8`, `9007199254740993`
/// (2^53 + 1) for `u64`, `"example"` and `[0, 1, 255]`).
///
/// The result encodes whenever some value of the schema fits in a 65536-byte
/// document with these scalars. Otherwise (a wide DAG whose values are
/// exponential in its depth) the value is cut off after a bounded number of
/// nodes and `encode` refuses it with Z206 `document_bytes`; for a hand-built
/// graph whose every value would nest deeper than 16 (a record that contains
/// itself), it is cut off with an empty record at that depth.
pub fn example(schema: &Schema) -> Value {
    let graph = schema.graph();
    // A DAG whose types each use the next one several times has a value
    // exponential in its depth. Every value node takes at least two bytes
    // of a document, so past this many nodes no value could be encoded
    // anyway: the example is cut off, and `encode` refuses it with
    // `document_bytes`.
    // The root is one node; each field value is one more.
    let mut budget = limits::MAX_DOCUMENT_BYTES / 2 - 1;
    example_type(graph, graph.root_index(), 0, &mut budget)
}

fn example_type(graph: &TypeGraph, t: usize, depth: usize, budget: &mut usize) -> Value {
    let Some(node) = graph.types.get(t) else {
        return Value::Record(Vec::new());
    };
    if depth > limits::MAX_DEPTH {
        return Value::Record(Vec::new());
    }
    let mut fields = |fs: &[Field]| -> Vec<(String, Value)> {
        let mut out = Vec::with_capacity(fs.len());
        for f in fs {
            // Out of budget: leave the remaining fields out (cut off).
            if *budget == 0 {
                break;
            }
            *budget -= 1;
            let v = match f.ty {
                FieldType::Scalar(r) => example_scalar(r),
                FieldType::Nested(i) => example_type(graph, i, depth + 1, budget),
            };
            out.push((f.stable_id.clone(), v));
        }
        out
    };
    match &node.kind {
        TypeKind::Record { fields: fs } => Value::Record(fields(fs)),
        TypeKind::Variant { cases } => match cases.first() {
            Some(c) => Value::Variant {
                case: c.stable_id.clone(),
                fields: fields(&c.fields),
            },
            None => Value::Variant {
                case: String::new(),
                fields: Vec::new(),
            },
        },
    }
}

fn example_scalar(r: Repr) -> Value {
    match r {
        Repr::Bool => Value::Bool(true),
        Repr::I32 => Value::I64(42),
        Repr::I64 => Value::I64(-1_234_567_890_123),
        Repr::U8 => Value::U64(200),
        Repr::U64 => Value::U64((1u64 << 53) + 1),
        Repr::String => Value::String("example".to_owned()),
        Repr::Bytes => Value::Bytes(vec![0, 1, 255]),
    }
}

fn err_at(rule: &'static str, ptr: &str) -> Diagnostic {
    Diagnostic::z206(rule).at_pointer(ptr)
}

fn kind_name(v: &Value) -> &'static str {
    match v {
        Value::Bool(_) => "Value::Bool",
        Value::I64(_) => "Value::I64",
        Value::U64(_) => "Value::U64",
        Value::String(_) => "Value::String",
        Value::Bytes(_) => "Value::Bytes",
        Value::Record(_) => "Value::Record",
        Value::Variant { .. } => "Value::Variant",
    }
}

fn wrong_kind(ptr: &str, expected: &str, v: &Value) -> Diagnostic {
    err_at("value.representation", ptr)
        .with_detail(format!("expected {expected}, found {}", kind_name(v)))
}

/// Writes the value of type `t` at `depth`; `ptr` is its JSON Pointer and
/// is restored before returning `Ok`.
pub(crate) fn write_type(
    out: &mut String,
    graph: &TypeGraph,
    t: usize,
    value: &Value,
    depth: usize,
    ptr: &mut String,
) -> Result<(), Diagnostic> {
    if depth > limits::MAX_DEPTH {
        return Err(err_at("value.max_depth", ptr));
    }
    let Some(node) = graph.types.get(t) else {
        return Err(err_at("value.representation", ptr));
    };
    match (&node.kind, value) {
        (TypeKind::Record { fields }, Value::Record(vals)) => {
            out.push_str("{\"fields\":");
            let len = ptr.len();
            ptr.push_str("/fields");
            write_fields(out, graph, fields, vals, depth, ptr)?;
            ptr.truncate(len);
            out.push('}');
            Ok(())
        }
        (TypeKind::Record { .. }, v) => Err(wrong_kind(ptr, "Value::Record", v)),
        (TypeKind::Variant { cases }, Value::Variant { case, fields: vals }) => {
            let Some(c) = cases.iter().find(|c| c.stable_id == *case) else {
                let mut p = ptr.clone();
                p.push_str("/case");
                return Err(err_at("value.case", &p).with_detail(format!(
                    "`{case}` is not a declared case of `{}`",
                    node.stable_id
                )));
            };
            out.push_str("{\"case\":");
            quote_into(out, case);
            out.push_str(",\"fields\":");
            let len = ptr.len();
            ptr.push_str("/fields");
            write_fields(out, graph, &c.fields, vals, depth, ptr)?;
            ptr.truncate(len);
            out.push('}');
            Ok(())
        }
        (TypeKind::Variant { .. }, v) => Err(wrong_kind(ptr, "Value::Variant", v)),
    }
}

/// Writes a `{…}` fields object; `ptr` points at it.
fn write_fields(
    out: &mut String,
    graph: &TypeGraph,
    decl: &[Field],
    vals: &[(String, Value)],
    depth: usize,
    ptr: &mut String,
) -> Result<(), Diagnostic> {
    let exact =
        vals.len() == decl.len() && decl.iter().zip(vals).all(|(f, (id, _))| f.stable_id == *id);
    if !exact {
        // The decoder's order: first an undeclared field, then per declared
        // field in order (so an earlier field's error wins).
        if let Some((id, _)) = vals
            .iter()
            .find(|(id, _)| !decl.iter().any(|f| f.stable_id == *id))
        {
            let mut p = ptr.clone();
            push_pointer_token(&mut p, id);
            return Err(err_at("value.fields.unknown", &p));
        }
    }
    out.push('{');
    for (j, f) in decl.iter().enumerate() {
        if j > 0 {
            out.push(',');
        }
        let len = ptr.len();
        push_pointer_token(ptr, &f.stable_id);
        let v = match vals.get(j) {
            Some((id, v)) if *id == f.stable_id => v,
            _ => {
                let rule = if vals.iter().any(|(id, _)| *id == f.stable_id) {
                    RULE_FIELDS_ORDER
                } else {
                    "value.fields.missing"
                };
                return Err(err_at(rule, ptr));
            }
        };
        quote_into(out, &f.stable_id);
        out.push(':');
        match f.ty {
            FieldType::Scalar(r) => write_scalar(out, r, v, ptr)?,
            FieldType::Nested(i) => write_type(out, graph, i, v, depth + 1, ptr)?,
        }
        ptr.truncate(len);
    }
    if let Some((id, _)) = vals.get(decl.len()) {
        let mut p = ptr.clone();
        push_pointer_token(&mut p, id);
        return Err(err_at(RULE_FIELDS_ORDER, &p).with_detail("a field appears more than once"));
    }
    out.push('}');
    Ok(())
}

fn write_scalar(out: &mut String, r: Repr, v: &Value, ptr: &str) -> Result<(), Diagnostic> {
    match (r, v) {
        (Repr::Bool, Value::Bool(b)) => write_bool(out, *b),
        (Repr::I32 | Repr::I64, Value::I64(n)) => {
            if !signed_fits(r, *n) {
                return Err(err_at("value.integer_range", ptr));
            }
            write_i64(out, *n);
        }
        (Repr::U8 | Repr::U64, Value::U64(n)) => {
            if !unsigned_fits(r, *n) {
                return Err(err_at("value.integer_range", ptr));
            }
            write_u64(out, *n);
        }
        (Repr::String, Value::String(s)) => {
            if !write_string(out, s) {
                return Err(err_at("value.string_bytes", ptr));
            }
        }
        (Repr::Bytes, Value::Bytes(b)) => {
            if !write_bytes(out, b) {
                return Err(err_at("value.bytes_length", ptr));
            }
        }
        (r, v) => {
            let expected = match r {
                Repr::Bool => "Value::Bool",
                Repr::I32 | Repr::I64 => "Value::I64",
                Repr::U8 | Repr::U64 => "Value::U64",
                Repr::String => "Value::String",
                Repr::Bytes => "Value::Bytes",
            };
            return Err(wrong_kind(ptr, expected, v));
        }
    }
    Ok(())
}
