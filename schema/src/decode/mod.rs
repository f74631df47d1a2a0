//! Strict decoding of value documents (FORMAT.md §6–7).
//!
//! [`decode`] is total over arbitrary bytes: it never panics, never recurses
//! on input-controlled depth and allocates in proportion to the input. It
//! applies the checks of FORMAT.md §7 in exactly their order, and the first
//! failure wins. Every diagnostic carries the RFC 6901 JSON Pointer of the
//! offending place (`""` for whole-document failures).
//!
//! Two paths give one answer:
//! - the **fast path** walks the schema graph and the input together,
//!   matching the literal bytes of the canonical form and parsing scalars in
//!   place; a complete match is admission (every check of §7 is implied);
//! - on the first mismatch, the **spec-ordered path** ([`decode_spec_path`])
//!   runs the steps one by one (framing; the engine's one JSON reader with
//!   serde_json's acceptance; the envelope; the value walk it shares with
//!   [`crate::admit`]; the canonical re-render compare) to find the exact
//!   first failure. `docs/DECODING.md` shows which module does what.
//!
//! The SPX-Z205 rule names, which FORMAT.md leaves open, are in [`rules`]
//! and in `docs/DECODING.md`.
//!
//! ```
//! # use spx_schema::{*, graph::*};
//! let graph = TypeGraph { types: vec![TypeNode {
//!     stable_id: "p".into(), name: "P".into(),
//!     kind: TypeKind::Record { fields: vec![Field {
//!         stable_id: "p.x".into(), name: "x".into(), ty: FieldType::Scalar(Repr::I64) }] },
//! }]};
//! let schema = Schema::from_graph(graph).unwrap();
//! let doc = spx_schema::encode::encode(&schema, &Value::Record(vec![("p.x".into(), Value::I64(-7))])).unwrap();
//! let decoded = spx_schema::decode::decode(&schema, doc.as_bytes()).unwrap();
//! assert_eq!(decoded.value.field("p.x"), Some(&Value::I64(-7)));
//!
//! let bad = doc.replace("\"-7\"", "\"-07\"");
//! let err = spx_schema::decode::decode(&schema, bad.as_bytes()).unwrap_err();
//! assert_eq!((err.code, err.rule), (Code::Z206, "value.integer"));
//! assert_eq!(err.location, Location::Pointer("/value/fields/p.x".into()));
//! ```

pub(crate) mod envelope;
mod fast;

use crate::codec::{Native, Portable};
use crate::diag::Diagnostic;
use crate::graph::limits;
use crate::json::{self, Bom, Duplicates, Numbers};
use crate::schema::Schema;
use crate::value::Value;

/// The rule names of SPX-Z205 refusals (FORMAT.md gives Z205 one message
/// and no rule names; these are this project's stable choice).
pub mod rules {
    /// Step 3: no final LF, an empty body, an LF or CR before the final
    /// LF, or a leading U+FEFF.
    pub const DOCUMENT_FRAMING: &str = "document.framing";
    /// Step 4: not valid JSON (including `\u` lone surrogates, numbers that
    /// overflow `f64`, and more than 127 nested arrays/objects).
    pub const JSON_SYNTAX: &str = "json.syntax";
    /// Step 5: the top level is not an object; steps 7–8: `root_type_id` or
    /// `schema_digest` is not a string.
    pub const ENVELOPE_SHAPE: &str = "envelope.shape";
    /// Step 5: the envelope's key set is not exactly `schema`,
    /// `root_type_id`, `schema_digest`, `value`.
    pub const ENVELOPE_KEYS: &str = "envelope.keys";
    /// Step 6: `schema` is not the string
    /// `semaprax.agent-interaction-value.v1`.
    pub const ENVELOPE_SCHEMA: &str = "envelope.schema";
    /// Step 9: a value is not an object, its key set is not exactly
    /// `{fields}` / `{case, fields}`, `case` is not a string, or `fields` is
    /// not an object.
    pub const VALUE_SHAPE: &str = "value.shape";
    /// Step 10: the input is not byte-identical to the canonical rendering
    /// of the decoded value (whitespace, key order, escapes, duplicate keys).
    pub const CANONICAL_MISMATCH: &str = "canonical.mismatch";
}

/// An admitted value document.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Decoded {
    /// The typed value.
    pub value: Value,
    /// The canonical document (byte-identical to the admitted input).
    pub canonical: String,
}

/// Decodes untrusted bytes against `schema` (FORMAT.md §7).
///
/// Returns the value, or the first failure in the order of §7 as SPX-Z205
/// (not canonical) or SPX-Z206 (an admission rule), located by a JSON
/// Pointer.
pub fn decode(schema: &Schema, bytes: &[u8]) -> Result<Decoded, Diagnostic> {
    let text = bounded_utf8(bytes)?;
    if let Some(value) = fast::decode::<Native>(schema, text) {
        return Ok(Decoded {
            value,
            canonical: text.to_owned(),
        });
    }
    spec_path(schema, text)
}

/// The spec-ordered path alone, without the fast path: the same result as
/// [`decode`] for every input, only slower on canonical documents. Exposed
/// for differential tests and benchmarks.
pub fn decode_spec_path(schema: &Schema, bytes: &[u8]) -> Result<Decoded, Diagnostic> {
    let text = bounded_utf8(bytes)?;
    spec_path(schema, text)
}

/// The fast path alone: `Some` exactly when `bytes` is the canonical
/// document of a value that satisfies every rule, `None` otherwise (it
/// never says why). Exposed for differential tests and benchmarks.
pub fn decode_fast_path(schema: &Schema, bytes: &[u8]) -> Option<Decoded> {
    let text = bounded_utf8(bytes).ok()?;
    fast::decode::<Native>(schema, text).map(|value| Decoded {
        value,
        canonical: text.to_owned(),
    })
}

/// The fast path alone with the codec's portable kernel
/// ([`crate::codec::Portable`], no SIMD) instead of the native one: the
/// same result as [`decode_fast_path`] for every input. Exposed for the
/// differential tests and fuzz targets that hold the two kernels against
/// each other.
pub fn decode_fast_path_portable(schema: &Schema, bytes: &[u8]) -> Option<Decoded> {
    let text = bounded_utf8(bytes).ok()?;
    fast::decode::<Portable>(schema, text).map(|value| Decoded {
        value,
        canonical: text.to_owned(),
    })
}

/// Steps 3–10 alone, on text that already passed steps 1–2 (at most
/// 65536 bytes, UTF-8): the spec-ordered path without the fast path and
/// without a second UTF-8 check. The generated decoders call it after their
/// own fast path failed on text they had already validated.
pub fn decode_text_spec_path(schema: &Schema, text: &str) -> Result<Decoded, Diagnostic> {
    spec_path(schema, text)
}

/// Steps 1–2 of FORMAT.md §7: the size bound, then UTF-8.
///
/// The one UTF-8 check of a document (the generated decoders call this
/// function too): `simdutf8`, inlined into its callers; the refusals are
/// built out of line.
#[inline]
pub fn bounded_utf8(bytes: &[u8]) -> Result<&str, Diagnostic> {
    if bytes.len() > limits::MAX_DOCUMENT_BYTES {
        return Err(too_many_bytes(bytes.len()));
    }
    simdutf8::basic::from_utf8(bytes).map_err(|_| not_utf8(bytes))
}

#[cold]
fn too_many_bytes(len: usize) -> Diagnostic {
    document_bytes(format!(
        "the document has {len} bytes; at most {} are allowed",
        limits::MAX_DOCUMENT_BYTES
    ))
}

/// Step 1's refusal (Z206 `document_bytes`), with its detail.
pub(crate) fn document_bytes(detail: String) -> Diagnostic {
    Diagnostic::z206("document_bytes")
        .at_pointer("")
        .with_detail(detail)
}

/// The refusal of bytes that are not UTF-8, at the first invalid byte
/// (`std` knows where; `simdutf8`'s fast check does not say).
#[cold]
fn not_utf8(bytes: &[u8]) -> Diagnostic {
    utf8_at(std::str::from_utf8(bytes).map_or_else(|e| e.valid_up_to(), str::len) as u64)
}

/// Step 2's refusal (Z206 `utf8`): the invalid sequence starts at byte `at`.
pub(crate) fn utf8_at(at: u64) -> Diagnostic {
    Diagnostic::z206("utf8")
        .at_pointer("")
        .with_detail(format!("invalid UTF-8 at byte {at}"))
}

/// Step 4's reading (also the streaming decoder's, once a document has
/// left the canonical form): what `serde_json::from_slice::<serde_json::Value>`
/// accepts. Duplicate keys are kept (the walk sees the last occurrence and
/// step 10 refuses them); at most 127 nested arrays/objects (serde_json's
/// recursion budget of 128 fails on the 128th); numbers that overflow `f64`
/// refused. A leading U+FEFF never gets here (step 3).
pub(crate) const STEP4: json::Options = json::Options {
    duplicates: Duplicates::Keep,
    max_nesting: 127,
    bom: Bom::Refuse,
    numbers: Numbers::FiniteF64,
};

/// Step 3's refusal (Z205 `document.framing`), with its detail.
pub(crate) fn framing(detail: &str) -> Diagnostic {
    Diagnostic::z205(rules::DOCUMENT_FRAMING)
        .at_pointer("")
        .with_detail(detail.to_owned())
}

/// The details of step 3's refusals.
pub(crate) mod framing_words {
    /// No final LF.
    pub const NO_LF: &str = "the document must end with exactly one LF";
    /// Nothing before the final LF.
    pub const EMPTY: &str = "the document is empty";
    /// A leading U+FEFF.
    pub const BOM: &str = "the document starts with a byte order mark (U+FEFF)";

    /// An LF or CR at byte `at` before the final LF.
    pub fn lf_at(at: u64) -> String {
        format!("LF or CR at byte {at}; the document is one line followed by one LF")
    }
}

/// Step 4's refusal (Z205 `json.syntax`): what the one JSON reader said.
pub(crate) fn json_syntax(e: &json::ReadError) -> Diagnostic {
    Diagnostic::z205(rules::JSON_SYNTAX)
        .at_pointer("")
        .with_detail(format!("invalid JSON at byte {}: {}", e.offset, e.reason()))
}

/// Step 10's refusal (Z205 `canonical.mismatch`) at `pointer`: the
/// canonical form differs from byte `at`, where it has `expected` and the
/// input `found` (both already shown as snippets).
pub(crate) fn mismatch(pointer: String, at: u64, expected: &str, found: &str) -> Diagnostic {
    Diagnostic::z205(rules::CANONICAL_MISMATCH)
        .at_pointer(pointer)
        .with_detail(format!(
            "the canonical form differs from byte {at}: expected {expected}, found {found}"
        ))
}

/// Steps 3–10 over text that passed steps 1–2.
fn spec_path(schema: &Schema, text: &str) -> Result<Decoded, Diagnostic> {
    // 3.
    let Some(body) = text.strip_suffix('\n') else {
        return Err(framing(framing_words::NO_LF));
    };
    if body.is_empty() {
        return Err(framing(framing_words::EMPTY));
    }
    if let Some(i) = body.find(['\n', '\r']) {
        return Err(framing(&framing_words::lf_at(i as u64)));
    }
    if body.starts_with('\u{FEFF}') {
        return Err(framing(framing_words::BOM));
    }
    // 4.
    let tree = json::read(body, &STEP4).map_err(|e| json_syntax(&e))?;
    // 5–9.
    let value = envelope::walk(schema, &tree)?;
    // 10.
    let canonical = crate::encode::render_document(schema, &value).map_err(|_| {
        Diagnostic::z205(rules::CANONICAL_MISMATCH)
            .at_pointer("/value")
            .with_detail("the decoded value has no canonical rendering")
    })?;
    if canonical == text {
        return Ok(Decoded { value, canonical });
    }
    let a = canonical.as_bytes();
    let b = text.as_bytes();
    let mut at = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let pointer = tree.locate(at);
    while at > 0 && !(canonical.is_char_boundary(at) && text.is_char_boundary(at)) {
        at -= 1;
    }
    Err(mismatch(
        pointer,
        at as u64,
        &snippet(&canonical, at),
        &snippet(text, at),
    ))
}

/// Up to 24 characters of `s` from byte `at`, for a detail text.
fn snippet(s: &str, at: usize) -> String {
    match s.get(at..) {
        Some("") | None => "the end of the document".to_owned(),
        Some(rest) => {
            let cut: String = rest.chars().take(24).collect();
            format!("{:?}", cut)
        }
    }
}
