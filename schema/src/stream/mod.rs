//! Streams: decoding and admitting a document as it arrives.
//!
//! - [`StreamDecoder`] reads a canonical value document in chunks of any
//!   size. Its verdict is the whole-document decoder's ([`crate::decode`])
//!   on the concatenated bytes, whatever the chunking; it refuses at the
//!   first byte after which no continuation could be admitted, and reports
//!   that byte's offset ([`crate::Diagnostic::offset`]).
//! - [`StreamAdmitter`] reads a provider's raw JSON output in chunks, with
//!   admission's semantics ([`crate::admit`]) for a dialect: at the end it
//!   yields exactly what `admit` yields, and it refuses early on what no
//!   continuation can repair (an unknown key, a wrong JSON type, an
//!   integer out of range, a string or byte array past its bound, a wrong
//!   case).
//! - Both emit [`Event`]s as the input advances: a leaf that passed every
//!   rule that applies to it ([`Event::FieldDone`]), a variant's case
//!   ([`Event::CaseChosen`]), progress ([`Event::Progress`]). An event is
//!   never retracted: whatever the stream refuses later, what it announced
//!   was admissible at that point.
//! - [`sse`] turns a provider's Server-Sent Events (OpenAI Chat
//!   Completions and Responses, Anthropic Messages, Gemini) into the text
//!   chunks that carry the answer, to feed a [`StreamAdmitter`].
//!
//! Memory is bounded by the depth of the value and the longest pending
//! string or byte array: no stream keeps the document (unless a decoder is
//! asked for the canonical bytes, [`StreamDecoder::keep_canonical`]).
//! Time is linear in the input for every chunking.
//!
//! `docs/STREAMING.md` (linked from `docs/DECODING.md`, "Streaming") says
//! where a stream's diagnostic can differ from the whole-document one, and
//! why.
//!
//! ```
//! # use spx_schema::{*, graph::*};
//! let graph = TypeGraph { types: vec![TypeNode {
//!     stable_id: "p".into(), name: "P".into(),
//!     kind: TypeKind::Record { fields: vec![Field {
//!         stable_id: "p.x".into(), name: "x".into(), ty: FieldType::Scalar(Repr::U8) }] },
//! }]};
//! let schema = Schema::from_graph(graph).unwrap();
//! let doc = spx_schema::encode::encode(&schema, &Value::Record(vec![("p.x".into(), Value::U64(7))])).unwrap();
//! let mut stream = spx_schema::stream::StreamDecoder::new(&schema);
//! let mut events = Vec::new();
//! for chunk in doc.as_bytes().chunks(5) {
//!     stream.feed_with(chunk, &mut |e| events.push(e)).unwrap();
//! }
//! assert_eq!(stream.finish().unwrap().value, spx_schema::decode::decode(&schema, doc.as_bytes()).unwrap().value);
//! assert!(events.contains(&spx_schema::stream::Event::FieldDone {
//!     pointer: "/value/fields/p.x".into(),
//!     value: Value::U64(7),
//! }));
//!
//! // A u8 of "300" is refused at its "0", the first byte no continuation can admit.
//! let bad = doc.replace("\"7\"", "\"300\"");
//! let mut stream = spx_schema::stream::StreamDecoder::new(&schema);
//! let err = stream.feed(bad.as_bytes()).unwrap_err();
//! assert_eq!((err.code, err.rule), (Code::Z206, "value.integer_range"));
//! assert_eq!(err.offset, Some(bad.find("300").unwrap() as u64 + 2));
//! ```

mod admitter;
mod decoder;
mod plan;
mod seen;
mod shortest;
pub mod sse;
mod utf8;

pub use admitter::StreamAdmitter;
pub use decoder::StreamDecoder;
pub(crate) use plan::Plan;

use crate::quote::quote_into;
use crate::value::Value;

/// What a stream announces as it reads. Pointers are RFC 6901 JSON
/// Pointers into the canonical value document (`/value/fields/<stable
/// id>/…`), for the decoder and the admitter alike.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Event {
    /// A leaf (a scalar field) has been read and has passed every rule that
    /// applies to it; `value` is exactly what the final value holds there.
    FieldDone {
        /// The field's pointer.
        pointer: String,
        /// Its value.
        value: Value,
    },
    /// A variant's case has been read, and is one of its declared cases.
    CaseChosen {
        /// The pointer of the variant's value.
        pointer: String,
        /// The case's stable id.
        case: String,
    },
    /// The stream has accepted its first `offset` bytes (sent once per
    /// chunk, after the chunk's other events).
    Progress {
        /// Bytes accepted so far.
        offset: u64,
    },
}

impl Event {
    /// The event as one JSON object on one line (no LF):
    /// `{"event":"field_done","pointer":…,"value":…}` with the value as the
    /// canonical document writes it (integers as decimal strings, bytes as
    /// an array), `{"event":"case_chosen","pointer":…,"case":…}`,
    /// `{"event":"progress","offset":…}`.
    pub fn to_json_line(&self) -> String {
        let mut s = String::new();
        match self {
            Event::FieldDone { pointer, value } => {
                s.push_str("{\"event\":\"field_done\",\"pointer\":");
                quote_into(&mut s, pointer);
                s.push_str(",\"value\":");
                push_leaf(&mut s, value);
                s.push('}');
            }
            Event::CaseChosen { pointer, case } => {
                s.push_str("{\"event\":\"case_chosen\",\"pointer\":");
                quote_into(&mut s, pointer);
                s.push_str(",\"case\":");
                quote_into(&mut s, case);
                s.push('}');
            }
            Event::Progress { offset } => {
                s.push_str("{\"event\":\"progress\",\"offset\":");
                s.push_str(&offset.to_string());
                s.push('}');
            }
        }
        s
    }
}

/// A leaf as the canonical document writes it.
fn push_leaf(s: &mut String, v: &Value) {
    match v {
        Value::Bool(b) => s.push_str(if *b { "true" } else { "false" }),
        Value::I64(n) => quote_into(s, &n.to_string()),
        Value::U64(n) => quote_into(s, &n.to_string()),
        Value::String(t) => quote_into(s, t),
        Value::Bytes(b) => {
            s.push('[');
            for (i, x) in b.iter().enumerate() {
                if i > 0 {
                    s.push(',');
                }
                s.push_str(&x.to_string());
            }
            s.push(']');
        }
        Value::Record(_) | Value::Variant { .. } => s.push_str("null"),
    }
}
