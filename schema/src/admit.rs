//! Admission of raw provider output: the tolerant front door for a value
//! that a model produced against one of the [`crate::project`] dialects.
//!
//! The decoder ([`crate::decode`]) admits only the exact canonical value
//! document. A provider returns just the value (`{"fields":…}` or
//! `{"case":…,"fields":…}`, wrapped as `{"value": …}` where the dialect
//! wraps a variant root), pretty-printed, with any escapes and any key
//! order. [`admit`] reads any RFC 8259 JSON text with the engine's one JSON
//! reader, refusing duplicate keys explicitly, applies the decoder's value
//! walk (the same code: same codes, rules and pointers, the same shared
//! leaf functions of [`crate::scalar`]) with details worded for a model,
//! and returns the value together with its canonical document, which the
//! strict decoder admits byte for byte.
//!
//! Order of checks: size (Z206 `document_bytes`), UTF-8 (Z206 `utf8`),
//! JSON syntax (Z205 `json.syntax`), duplicate keys (Z205 `duplicate_key`),
//! container nesting over 36 (Z206 `value.max_depth`), the dialect wrapper
//! (Z205 `value.shape`), then the value walk of FORMAT.md §7 (shape errors
//! Z205 `value.shape`, the Z206 rules as the decoder names them). Every
//! diagnostic carries the JSON Pointer of the place in the provider's text
//! and a `detail` that says, in words fit to send back to a model, what was
//! expected and what was found.

use crate::decode::{rules, Decoded};
use crate::diag::Diagnostic;
use crate::graph::limits;
use crate::json::{self, Bom, Duplicates, ErrorKind, Kind, Numbers, ReadError, Tree};
use crate::project::{project_keyed, Dialect, KeyMap, Options, Projection};
use crate::quote::quote;
use crate::schema::Schema;
use crate::walk::{expect_type, show, Voice, Walk};

/// Rule of a text that is not RFC 8259 JSON (SPX-Z205).
pub const RULE_SYNTAX: &str = rules::JSON_SYNTAX;
/// Rule of a key repeated in one object, or of two keys (a field's safe
/// key and its stable id) naming one field (SPX-Z205).
pub const RULE_DUPLICATE_KEY: &str = crate::walk::RULE_DUPLICATE_KEY;
/// Rule of a value of the wrong JSON shape where the decoder says Z205
/// (not an object, wrong key set, `case` not a string, `fields` not an
/// object, missing wrapper).
pub const RULE_SHAPE: &str = rules::VALUE_SHAPE;

/// The deepest container nesting any valid value can have: the wrapper,
/// two objects per type level for 17 levels (root depth 0 to 16), and a
/// Bytes array.
pub const MAX_JSON_NESTING: usize = 1 + 2 * (limits::MAX_DEPTH + 1) + 1;

/// How admission reads: duplicates refused, nesting bounded by what a valid
/// value can need, a leading U+FEFF skipped (RFC 8259 §8.1), every number
/// RFC 8259 allows.
const READING: json::Options = json::Options {
    duplicates: Duplicates::Refuse,
    max_nesting: MAX_JSON_NESTING,
    bom: Bom::Skip,
    numbers: Numbers::Any,
};

/// Admits `bytes`, a value produced by a model against `dialect`'s
/// projection of `schema`, and returns it with its canonical value
/// document.
///
/// Field keys are read with the dialect's [`KeyMap`]: a field is named by
/// the safe key the projection wrote or by its stable id (never both in
/// one object: Z205 `duplicate_key`); the canonical document carries the
/// stable ids. Building the map hashes the ids that need a safe key; to
/// admit many answers against one schema build it once
/// ([`admit_keyed`], or [`Admission`]).
pub fn admit(schema: &Schema, dialect: Dialect, bytes: &[u8]) -> Result<Decoded, Diagnostic> {
    admit_keyed(schema, &KeyMap::new(schema, dialect), bytes)
}

/// [`admit`] with the key map of the dialect already built
/// (`KeyMap::new(schema, dialect)`; its dialect is the one admitted).
///
/// Under a grammar dialect ([`Dialect::is_grammar`]) the model wrote the
/// canonical value document itself, so admission is exactly the strict
/// decoder ([`crate::decode::decode`]).
pub fn admit_keyed(schema: &Schema, keys: &KeyMap, bytes: &[u8]) -> Result<Decoded, Diagnostic> {
    let dialect = keys.dialect();
    if dialect.is_grammar() {
        return crate::decode::decode(schema, bytes);
    }
    let text = bounded_utf8(bytes)?;
    let tree = json::read(text, &READING).map_err(|e| refusal(text, e))?;
    let walk = Walk::new(schema, &tree, Voice::Model).with_keys(keys);
    let mut ptr = String::new();
    let inner = if dialect.wraps_root(schema) {
        unwrap(schema, &tree, &walk)?;
        ptr.push_str("/value");
        tree.lookup(0, "value").unwrap_or(0)
    } else {
        0
    };
    let value = walk.value(schema.graph().root_index(), inner, &mut ptr)?;
    let canonical = crate::encode::encode(schema, &value)?;
    Ok(Decoded { value, canonical })
}

/// One schema prepared for one provider: its projection (the document to
/// send, its name, the loss and key report) and the key map admission
/// reads the answers with, both computed once. The engine's counterpart of
/// the generated `Root::provider_schema` and `Root::admit`, for schemas
/// known only at run time.
///
/// ```
/// use spx_schema::admit::Admission;
/// use spx_schema::graph::{Field, FieldType, Repr, TypeGraph, TypeKind, TypeNode};
/// use spx_schema::project::Dialect;
/// let graph = TypeGraph { types: vec![TypeNode {
///     stable_id: "t".into(), name: String::new(),
///     kind: TypeKind::Record { fields: vec![Field {
///         stable_id: "t/odd key".into(), name: String::new(), ty: FieldType::Scalar(Repr::U8) }] },
/// }]};
/// let schema = spx_schema::Schema::from_graph(graph).unwrap();
/// let provider = Admission::new(&schema, Dialect::Anthropic).unwrap();
/// let key = provider.keys().field_key(0, None, 0).to_string();
/// assert!(provider.provider_schema().contains(&format!("\"{key}\"")));
/// let answer = format!("{{\"fields\":{{\"{key}\":\"7\"}}}}");
/// let admitted = provider.admit(answer.as_bytes()).unwrap();
/// assert!(admitted.canonical.contains("{\"t/odd key\":\"7\"}"));
/// ```
#[derive(Debug, Clone)]
pub struct Admission<'s> {
    schema: &'s Schema,
    keys: KeyMap,
    projection: Projection,
}

impl<'s> Admission<'s> {
    /// Projects `schema` for `dialect` (refused as [`crate::project::project`]
    /// refuses it: SPX-Z207 over an OpenAI limit) and builds its key map.
    pub fn new(schema: &'s Schema, dialect: Dialect) -> Result<Admission<'s>, Diagnostic> {
        let keys = KeyMap::new(schema, dialect);
        let projection = project_keyed(schema, &keys, Options::default())?;
        Ok(Admission {
            schema,
            keys,
            projection,
        })
    }

    /// The dialect.
    pub fn dialect(&self) -> Dialect {
        self.keys.dialect()
    }

    /// The document to send to the provider.
    pub fn provider_schema(&self) -> &str {
        &self.projection.document
    }

    /// The name to send with it ([`Projection::schema_name`]).
    pub fn schema_name(&self) -> Option<&str> {
        self.projection.schema_name.as_deref()
    }

    /// The whole projection, with its loss and key report.
    pub fn projection(&self) -> &Projection {
        &self.projection
    }

    /// The safe keys.
    pub fn keys(&self) -> &KeyMap {
        &self.keys
    }

    /// Admits one answer ([`admit`]).
    pub fn admit(&self, bytes: &[u8]) -> Result<Decoded, Diagnostic> {
        admit_keyed(self.schema, &self.keys, bytes)
    }
}

/// The size bound, then UTF-8: the decoder's one check (steps 1–2), its
/// refusal reworded for the model.
fn bounded_utf8(bytes: &[u8]) -> Result<&str, Diagnostic> {
    crate::decode::bounded_utf8(bytes).map_err(|d| {
        let detail = match d.rule {
            "document_bytes" => too_long(&bytes.len().to_string()),
            _ => not_utf8(
                std::str::from_utf8(bytes).map_or_else(|e| e.valid_up_to(), str::len) as u64,
            ),
        };
        d.with_detail(detail)
    })
}

/// The detail of a response over the size bound (`len`: its length, or
/// how a stream knows it).
pub(crate) fn too_long(len: &str) -> String {
    format!(
        "the response is {len} bytes long; at most {} bytes are admitted",
        limits::MAX_DOCUMENT_BYTES
    )
}

/// The detail of a response that is not UTF-8 from byte `at`.
pub(crate) fn not_utf8(at: u64) -> String {
    format!("the response is not UTF-8: invalid byte sequence at byte {at}")
}

/// Admission's reading of provider text (the streaming admitter's too).
pub(crate) const OPTIONS: json::Options = READING;

/// A refusal of the reader, located and worded for the model.
fn refusal(text: &str, e: ReadError) -> Diagnostic {
    let at = e.line_column(text);
    reader_refusal(e, at)
}

/// A refusal of the reader at `(line, column)`, located and worded for the
/// model.
pub(crate) fn reader_refusal(e: ReadError, (line, column): (usize, usize)) -> Diagnostic {
    let shown = show(&e.pointer).to_string();
    let detail = match &e.kind {
        ErrorKind::DuplicateKey(key) => format!(
            "{shown}: the key {} occurs more than once in the same object; write each key exactly once",
            quote(key)
        ),
        ErrorKind::Depth(max) => format!(
            "{shown}: objects and arrays nest deeper than {max} levels, deeper than any value of this schema"
        ),
        ErrorKind::Syntax { .. } | ErrorKind::NumberRange => {
            format!(
                "{shown}: not valid JSON at line {line}, column {column} (byte {}): {}",
                e.offset,
                e.reason()
            )
        }
    };
    let d = match e.kind {
        ErrorKind::DuplicateKey(_) => Diagnostic::z205(RULE_DUPLICATE_KEY),
        ErrorKind::Depth(_) => Diagnostic::z206("value.max_depth"),
        ErrorKind::Syntax { .. } | ErrorKind::NumberRange => Diagnostic::z205(RULE_SYNTAX),
    };
    d.at_pointer(e.pointer).with_detail(detail)
}

/// The dialect's wrapper of a variant root: an object with exactly the key
/// `value`.
fn unwrap(schema: &Schema, tree: &Tree<'_>, walk: &Walk<'_, '_>) -> Result<(), Diagnostic> {
    if tree.node(0).kind != Kind::Object {
        return Err(not_wrapped(schema, &tree.describe(0)));
    }
    walk.exact_keys(0, &["value"], "", RULE_SHAPE)
}

/// The refusal of a text that is not the dialect's wrapper object (it is
/// `got`).
pub(crate) fn not_wrapped(schema: &Schema, got: &str) -> Diagnostic {
    Diagnostic::z205(RULE_SHAPE)
        .at_pointer("")
        .with_detail(format!(
            "(root): expected an object {{\"value\": …}} holding {}, got {got}",
            expect_type(schema, schema.graph().root_index())
        ))
}
