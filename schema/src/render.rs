//! The canonical schema document (FORMAT.md §5), its revision and digest,
//! and reading a canonical document back.

use crate::diag::{Code, Diagnostic, Z204_MESSAGE};
use crate::graph::{limits, Case, Field, FieldType, Repr, TypeGraph, TypeKind, TypeNode};
use crate::quote::quote_into;
use crate::schema::Schema;
use sha2::{Digest as _, Sha256};

/// The eight nonclaims, in order.
pub const NONCLAIMS: [&str; 8] = [
    "no_authorization_value_or_publication_token_from_a_decoded_value",
    "no_capability_grant_effect_or_host_authority",
    "no_trust_in_untrusted_bytes_without_decoder_validation",
    "no_arbitrary_recursion_resource_borrowed_or_callback_values",
    "no_floating_point_or_lossy_numeric_transport",
    "no_public_abi_promotion_in_this_slice",
    "provider_presentation_projections_never_broaden_runtime_admission",
    "decoding_never_reads_a_provider_presentation_projection",
];

/// `sha256:` and the lowercase hex SHA-256 of `domain ‖ body`.
pub fn digest(domain: &[u8], body: &[u8]) -> String {
    let mut h = Sha256::new();
    h.update(domain);
    h.update(body);
    let out = h.finalize();
    let mut s = String::with_capacity(7 + 64);
    s.push_str("sha256:");
    for b in out {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        s.push(HEX[(b >> 4) as usize] as char);
        s.push(HEX[(b & 0xf) as usize] as char);
    }
    s
}

fn render_fields(out: &mut String, graph: &TypeGraph, fields: &[Field]) {
    out.push('[');
    for (i, f) in fields.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"stable_id\":");
        quote_into(out, &f.stable_id);
        out.push_str(",\"type\":");
        match f.ty {
            FieldType::Scalar(r) => {
                out.push_str("{\"kind\":\"scalar\",\"representation\":");
                quote_into(out, r.name());
                if let Some((min, max)) = r.bounds() {
                    out.push_str(",\"minimum\":\"");
                    out.push_str(min);
                    out.push_str("\",\"maximum\":\"");
                    out.push_str(max);
                    out.push('"');
                }
                let max_bytes = match r {
                    Repr::String => Some(limits::MAX_STRING_BYTES),
                    Repr::Bytes => Some(limits::MAX_BYTES_LEN),
                    _ => None,
                };
                if let Some(n) = max_bytes {
                    out.push_str(",\"max_bytes\":");
                    out.push_str(&n.to_string());
                }
                out.push('}');
            }
            FieldType::Nested(i) => {
                out.push_str("{\"kind\":\"nested\",\"stable_id\":");
                quote_into(out, &graph.types[i].stable_id);
                out.push('}');
            }
        }
        out.push('}');
    }
    out.push(']');
}

/// The `<TYPES>` array of FORMAT.md §5.
fn render_types(out: &mut String, graph: &TypeGraph) {
    out.push('[');
    for (i, t) in graph.types.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"stable_id\":");
        quote_into(out, &t.stable_id);
        match &t.kind {
            TypeKind::Record { fields } => {
                out.push_str(",\"kind\":\"record\",\"fields\":");
                render_fields(out, graph, fields);
            }
            TypeKind::Variant { cases } => {
                out.push_str(",\"kind\":\"variant\",\"cases\":[");
                for (j, c) in cases.iter().enumerate() {
                    if j > 0 {
                        out.push(',');
                    }
                    out.push_str("{\"stable_id\":");
                    quote_into(out, &c.stable_id);
                    out.push_str(",\"fields\":");
                    render_fields(out, graph, &c.fields);
                    out.push('}');
                }
                out.push(']');
            }
        }
        out.push('}');
    }
    out.push(']');
}

/// Appends the `wire` object of FORMAT.md §5, written from the named
/// limits so that each bound is spelled once.
fn render_wire(out: &mut String) {
    use std::fmt::Write as _;
    // Writing to a String cannot fail.
    let _ = write!(
        out,
        "{{\"closed_objects\":true,\"key_order\":\"declaration_order\",\"exact_integer_encoding\":\"decimal_string\",\"bytes_encoding\":\"byte_array_u8\",\"max_document_bytes\":{},\"max_string_field_bytes\":{},\"max_bytes_field_bytes\":{},\"max_types\":{},\"max_depth\":{}}}",
        limits::MAX_DOCUMENT_BYTES,
        limits::MAX_STRING_BYTES,
        limits::MAX_BYTES_LEN,
        limits::MAX_TYPES,
        limits::MAX_DEPTH,
    );
}

pub(crate) fn render_schema(graph: TypeGraph) -> Result<Schema, Diagnostic> {
    // A derived graph always holds its root; a hand-built empty one has none.
    if graph.types.is_empty() {
        return Err(Diagnostic::z202("type.unresolved"));
    }
    let mut types = String::new();
    render_types(&mut types, &graph);
    let root = graph.root_type_id();

    let mut body = String::with_capacity(types.len() + root.len() + 32);
    body.push_str("{\"root_type_id\":");
    quote_into(&mut body, root);
    body.push_str(",\"types\":");
    body.push_str(&types);
    body.push('}');
    let revision = digest(limits::REVISION_DOMAIN, body.as_bytes());

    let mut doc = String::with_capacity(types.len() + 2048);
    doc.push_str("{\"schema\":");
    quote_into(&mut doc, limits::SCHEMA_ID);
    doc.push_str(",\"root_type_id\":");
    quote_into(&mut doc, root);
    doc.push_str(",\"root_type_revision\":");
    quote_into(&mut doc, &revision);
    doc.push_str(",\"types\":");
    doc.push_str(&types);
    doc.push_str(",\"wire\":");
    render_wire(&mut doc);
    doc.push_str(",\"nonclaims\":[");
    for (i, n) in NONCLAIMS.iter().enumerate() {
        if i > 0 {
            doc.push(',');
        }
        quote_into(&mut doc, n);
    }
    doc.push_str("]}\n");
    if doc.len() > limits::MAX_SCHEMA_BYTES {
        return Err(Diagnostic::error(
            Code::Z203,
            "schema_bytes",
            format!(
                "AgentInteractionSchema exceeded its output byte budget: schema_bytes ({} > {} bytes)",
                doc.len(),
                limits::MAX_SCHEMA_BYTES
            ),
        ));
    }
    let digest = digest(limits::DIGEST_DOMAIN, doc.as_bytes());
    Ok(Schema {
        graph,
        document: doc,
        revision,
        digest,
        docs: crate::source::Docs::new(),
        stream: Default::default(),
    })
}

fn z204(rule: &'static str) -> Diagnostic {
    Diagnostic::error(Code::Z204, rule, Z204_MESSAGE)
}

/// Reads a canonical schema document back into a [`Schema`]. Anything that
/// is not exactly a canonical rendering is refused with SPX-Z204.
pub(crate) fn parse_schema_document(bytes: &[u8]) -> Result<Schema, Diagnostic> {
    use crate::json::{Json, OWN_DOCUMENTS};
    if bytes.len() > limits::MAX_SCHEMA_BYTES {
        return Err(z204("schema_bytes"));
    }
    let bad = || z204("schema.shape");
    let text = std::str::from_utf8(bytes).map_err(|_| bad())?;
    let doc = Json::read(text, &OWN_DOCUMENTS).map_err(|_| bad())?;
    let types = doc.get("types").and_then(Json::as_array).ok_or_else(bad)?;
    let mut graph = TypeGraph {
        types: Vec::with_capacity(types.len()),
    };
    let str_of = |v: &Json, k: &str| v.get(k).and_then(Json::as_str).map(str::to_owned);
    let fields_of = |graph: &TypeGraph, v: &Json| -> Option<Vec<Field>> {
        let mut out = Vec::new();
        for f in v.as_array()? {
            let stable_id = str_of(f, "stable_id")?;
            let t = f.get("type")?;
            let ty = match t.get("kind")?.as_str()? {
                "scalar" => FieldType::Scalar(Repr::from_name(t.get("representation")?.as_str()?)?),
                "nested" => FieldType::Nested(graph.index_of(t.get("stable_id")?.as_str()?)?),
                _ => return None,
            };
            out.push(Field {
                stable_id,
                name: String::new(),
                ty,
            });
        }
        Some(out)
    };
    for t in types {
        let stable_id = str_of(t, "stable_id").ok_or_else(bad)?;
        let kind = match t.get("kind").and_then(Json::as_str) {
            Some("record") => TypeKind::Record {
                fields: t
                    .get("fields")
                    .and_then(|f| fields_of(&graph, f))
                    .ok_or_else(bad)?,
            },
            Some("variant") => {
                let mut cases = Vec::new();
                for c in t.get("cases").and_then(Json::as_array).ok_or_else(bad)? {
                    cases.push(Case {
                        stable_id: str_of(c, "stable_id").ok_or_else(bad)?,
                        name: String::new(),
                        fields: c
                            .get("fields")
                            .and_then(|f| fields_of(&graph, f))
                            .ok_or_else(bad)?,
                    });
                }
                TypeKind::Variant { cases }
            }
            _ => return Err(bad()),
        };
        graph.types.push(TypeNode {
            stable_id,
            name: String::new(),
            kind,
        });
    }
    if graph.types.is_empty() {
        return Err(bad());
    }
    let schema = render_schema(graph).map_err(|_| z204("schema_bytes"))?;
    if schema.document.as_bytes() != bytes {
        return Err(z204("schema.replay"));
    }
    Ok(schema)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `wire` object, written from the named limits, is exactly the
    /// literal of FORMAT.md §5.
    #[test]
    fn wire_is_the_specified_literal() {
        let mut out = String::new();
        render_wire(&mut out);
        assert_eq!(
            out,
            "{\"closed_objects\":true,\"key_order\":\"declaration_order\",\"exact_integer_encoding\":\"decimal_string\",\"bytes_encoding\":\"byte_array_u8\",\"max_document_bytes\":65536,\"max_string_field_bytes\":4096,\"max_bytes_field_bytes\":4096,\"max_types\":64,\"max_depth\":16}"
        );
    }
}
