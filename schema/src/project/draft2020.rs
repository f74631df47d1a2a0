//! The canonical provider projection: JSON Schema draft 2020-12
//! (FORMAT.md §8), rendered byte for byte.

use crate::graph::{Field, FieldType, Repr, TypeKind};
use crate::quote::quote_into;
use crate::schema::Schema;

/// The `$id` prefix of every projection.
pub const ID_PREFIX: &str = "urn:semaprax.agent-interaction-schema.v1:";

/// The `$schema` of every projection.
pub const DIALECT_URI: &str = "https://json-schema.org/draft/2020-12/schema";

/// The `$ref` value naming the definition of `stable_id`: `#/$defs/` then the
/// id escaped as a JSON Pointer token (`~` → `~0`, `/` → `~1`), then every
/// UTF-8 byte outside `A–Z a–z 0–9 - . _ ~ ! $ & ' ( ) * + , ; = : @ / ?`
/// percent-encoded with uppercase hex (FORMAT.md §8, beyond).
///
/// ```
/// use spx_schema::project::ref_to;
/// assert_eq!(ref_to("geo.point"), "#/$defs/geo.point");
/// assert_eq!(ref_to("a/b~c 100%é"), "#/$defs/a~1b~0c%20100%25%C3%A9");
/// ```
pub fn ref_to(stable_id: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut token = String::with_capacity(stable_id.len());
    for c in stable_id.chars() {
        match c {
            '~' => token.push_str("~0"),
            '/' => token.push_str("~1"),
            c => token.push(c),
        }
    }
    let mut out = String::from("#/$defs/");
    for &b in token.as_bytes() {
        let kept = b.is_ascii_alphanumeric()
            || matches!(
                b,
                b'-' | b'.'
                    | b'_'
                    | b'~'
                    | b'!'
                    | b'$'
                    | b'&'
                    | b'\''
                    | b'('
                    | b')'
                    | b'*'
                    | b'+'
                    | b','
                    | b';'
                    | b'='
                    | b':'
                    | b'@'
                    | b'/'
                    | b'?'
            );
        if kept {
            out.push(b as char);
        } else {
            out.push('%');
            out.push(HEX[usize::from(b >> 4)] as char);
            out.push(HEX[usize::from(b & 0xf)] as char);
        }
    }
    out
}

/// Renders the draft 2020-12 projection of `schema` (FORMAT.md §8): no
/// whitespace, `$defs` in output-list order, one LF at the end.
pub fn draft2020(schema: &Schema) -> String {
    draft2020_with(schema, false)
}

/// [`draft2020`], and with `descriptions` the `.spx` documentation of each
/// documented type, case and field ([`Schema::docs`]) as `description`:
/// right after `"type":"object"` of a record's and a case's object schema,
/// first in a variant's (`{"description":…,"oneOf":[…]}`), right after
/// `type` of a leaf, and after `$ref` of a nested field (a sibling keyword
/// draft 2020-12 allows). Without documentation the two are identical.
pub fn draft2020_with(schema: &Schema, descriptions: bool) -> String {
    let doc = |id: &str| {
        if descriptions {
            schema.docs().get(id)
        } else {
            None
        }
    };
    let graph = schema.graph();
    let mut s = String::with_capacity(schema.document().len() * 2);
    s.push_str("{\"$schema\":");
    quote_into(&mut s, DIALECT_URI);
    s.push_str(",\"$id\":");
    quote_into(&mut s, &format!("{ID_PREFIX}{}", graph.root_type_id()));
    s.push_str(",\"$defs\":{");
    for (i, node) in graph.types.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        quote_into(&mut s, &node.stable_id);
        s.push(':');
        match &node.kind {
            TypeKind::Record { fields } => {
                s.push_str("{\"type\":\"object\",");
                description(&mut s, doc(&node.stable_id));
                s.push_str(
                    "\"additionalProperties\":false,\"required\":[\"fields\"],\"properties\":{\"fields\":",
                );
                fields_schema(&mut s, schema, fields, &doc);
                s.push_str("}}");
            }
            TypeKind::Variant { cases } => {
                s.push('{');
                description(&mut s, doc(&node.stable_id));
                s.push_str("\"oneOf\":[");
                for (j, case) in cases.iter().enumerate() {
                    if j > 0 {
                        s.push(',');
                    }
                    s.push_str("{\"type\":\"object\",");
                    description(&mut s, doc(&case.stable_id));
                    s.push_str(
                        "\"additionalProperties\":false,\"required\":[\"case\",\"fields\"],\"properties\":{\"case\":{\"const\":",
                    );
                    quote_into(&mut s, &case.stable_id);
                    s.push_str("},\"fields\":");
                    fields_schema(&mut s, schema, &case.fields, &doc);
                    s.push_str("}}");
                }
                s.push_str("]}");
            }
        }
    }
    s.push_str("},\"$ref\":");
    quote_into(&mut s, &ref_to(graph.root_type_id()));
    s.push_str("}\n");
    s
}

/// `"description":…,` when there is documentation.
fn description(s: &mut String, doc: Option<&str>) {
    if let Some(d) = doc {
        s.push_str("\"description\":");
        quote_into(s, d);
        s.push(',');
    }
}

fn fields_schema<'s>(
    s: &mut String,
    schema: &Schema,
    fields: &[Field],
    doc: &dyn Fn(&str) -> Option<&'s str>,
) {
    s.push_str("{\"type\":\"object\",\"additionalProperties\":false,\"required\":[");
    for (i, f) in fields.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        quote_into(s, &f.stable_id);
    }
    s.push_str("],\"properties\":{");
    for (i, f) in fields.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        quote_into(s, &f.stable_id);
        s.push(':');
        let d = doc(&f.stable_id);
        match f.ty {
            FieldType::Scalar(repr) => leaf(s, repr, d),
            FieldType::Nested(index) => {
                let id = schema
                    .graph()
                    .types
                    .get(index)
                    .map_or("", |t| t.stable_id.as_str());
                s.push_str("{\"$ref\":");
                quote_into(s, &ref_to(id));
                if let Some(d) = d {
                    s.push_str(",\"description\":");
                    quote_into(s, d);
                }
                s.push('}');
            }
        }
    }
    s.push_str("}}");
}

fn leaf(s: &mut String, repr: Repr, doc: Option<&str>) {
    let ty = match repr {
        Repr::Bool => "boolean",
        Repr::Bytes => "array",
        _ => "string",
    };
    s.push_str("{\"type\":");
    quote_into(s, ty);
    if let Some(d) = doc {
        s.push_str(",\"description\":");
        quote_into(s, d);
    }
    match repr {
        Repr::Bool => s.push('}'),
        Repr::String => s.push_str(",\"maxLength\":4096}"),
        Repr::Bytes => s.push_str(
            ",\"items\":{\"type\":\"integer\",\"minimum\":0,\"maximum\":255},\"maxItems\":4096}",
        ),
        Repr::I32 | Repr::I64 | Repr::U8 | Repr::U64 => {
            let (min, max) = repr.bounds().unwrap_or(("", ""));
            s.push_str(",\"pattern\":\"^-?[0-9]+$\",\"x-representation\":");
            quote_into(s, repr.name());
            s.push_str(",\"x-minimum\":");
            quote_into(s, min);
            s.push_str(",\"x-maximum\":");
            quote_into(s, max);
            s.push('}');
        }
    }
}
