//! The baselines the generated and engine decoders are measured against.
//!
//! - [`reference_decode`]: the reference architecture (the semaprax
//!   module's own design, seeds/000): parse into a generic JSON tree, walk
//!   the schema graph over it checking shape and scalars, re-render the
//!   canonical bytes and compare them with the input. Written here, not in
//!   the engine, and kept efficient: the tree is consumed (strings move,
//!   nothing is cloned) and the re-render is the engine's own encoder.
//! - [`serde_json`], [`sonic_rs`], [`SimdJson`]: serde_json, sonic-rs and
//!   simd-json into the same `#[derive(Deserialize)]` structs of the
//!   document's shape, with no canonical checks at all (integers are parsed
//!   from their decimal strings without allocating; nothing else is
//!   checked).
//! - [`serde_json_encode`]: `serde_json::to_string` of those structs
//!   (`#[derive(Serialize)]`), the encoder baseline.

// The derived structs' fields are only ever written by serde.
#![allow(dead_code)]

use serde::{de::DeserializeOwned, Deserialize, Serialize};
use serde_json::{Map, Value as Json};
use spx_runtime::engine::graph::{limits, Field, FieldType, Repr, TypeGraph, TypeKind};
use spx_runtime::engine::scalar::{parse_integer, Int};
use spx_runtime::engine::{encode, Schema, Value};
use std::cell::RefCell;

/// The reference architecture. Errors are bare rule names: the baseline is
/// only ever timed on valid documents.
pub fn reference_decode(schema: &Schema, bytes: &[u8]) -> Result<Value, &'static str> {
    if bytes.len() > limits::MAX_DOCUMENT_BYTES {
        return Err("document_bytes");
    }
    let doc: Json = serde_json::from_slice(bytes).map_err(|_| "json.syntax")?;
    let Json::Object(mut envelope) = doc else {
        return Err("envelope.shape");
    };
    if envelope.len() != 4 {
        return Err("envelope.keys");
    }
    let text = |m: &Map<String, Json>, k: &str| -> Option<String> {
        m.get(k).and_then(Json::as_str).map(str::to_owned)
    };
    if text(&envelope, "schema").as_deref() != Some(limits::VALUE_ID) {
        return Err("envelope.schema");
    }
    if text(&envelope, "root_type_id").as_deref() != Some(schema.root_type_id()) {
        return Err("root_type_id");
    }
    if text(&envelope, "schema_digest").as_deref() != Some(schema.digest()) {
        return Err("schema_digest");
    }
    let value = envelope.remove("value").ok_or("envelope.keys")?;
    let graph = schema.graph();
    let value = walk_type(graph, graph.root_index(), value, 0)?;
    let canonical = encode::encode(schema, &value).map_err(|_| "canonical.mismatch")?;
    if canonical.as_bytes() != bytes {
        return Err("canonical.mismatch");
    }
    Ok(value)
}

fn walk_type(graph: &TypeGraph, t: usize, v: Json, depth: usize) -> Result<Value, &'static str> {
    if depth > limits::MAX_DEPTH {
        return Err("value.max_depth");
    }
    let node = graph.types.get(t).ok_or("graph")?;
    let Json::Object(mut obj) = v else {
        return Err("value.shape");
    };
    match &node.kind {
        TypeKind::Record { fields } => {
            if obj.len() != 1 {
                return Err("value.shape");
            }
            let Some(Json::Object(map)) = obj.remove("fields") else {
                return Err("value.shape");
            };
            Ok(Value::Record(walk_fields(graph, fields, map, depth)?))
        }
        TypeKind::Variant { cases } => {
            if obj.len() != 2 {
                return Err("value.shape");
            }
            let Some(Json::String(case)) = obj.remove("case") else {
                return Err("value.shape");
            };
            let decl = cases
                .iter()
                .find(|c| c.stable_id == case)
                .ok_or("value.case")?;
            let Some(Json::Object(map)) = obj.remove("fields") else {
                return Err("value.shape");
            };
            Ok(Value::Variant {
                case,
                fields: walk_fields(graph, &decl.fields, map, depth)?,
            })
        }
    }
}

fn walk_fields(
    graph: &TypeGraph,
    decl: &[Field],
    mut map: Map<String, Json>,
    depth: usize,
) -> Result<Vec<(String, Value)>, &'static str> {
    if map.keys().any(|k| !decl.iter().any(|f| f.stable_id == *k)) {
        return Err("value.fields.unknown");
    }
    let mut out = Vec::with_capacity(decl.len());
    for f in decl {
        let v = map.remove(&f.stable_id).ok_or("value.fields.missing")?;
        let v = match f.ty {
            FieldType::Nested(t) => walk_type(graph, t, v, depth + 1)?,
            FieldType::Scalar(repr) => leaf(repr, v)?,
        };
        out.push((f.stable_id.clone(), v));
    }
    Ok(out)
}

fn leaf(repr: Repr, v: Json) -> Result<Value, &'static str> {
    match (repr, v) {
        (Repr::Bool, Json::Bool(b)) => Ok(Value::Bool(b)),
        (Repr::String, Json::String(s)) if s.len() <= limits::MAX_STRING_BYTES => {
            Ok(Value::String(s))
        }
        (Repr::String, Json::String(_)) => Err("value.string_bytes"),
        (Repr::Bytes, Json::Array(items)) => {
            if items.len() > limits::MAX_BYTES_LEN {
                return Err("value.bytes_length");
            }
            items
                .iter()
                .map(|e| {
                    e.as_u64()
                        .and_then(|n| u8::try_from(n).ok())
                        .ok_or("value.bytes_element")
                })
                .collect::<Result<Vec<u8>, _>>()
                .map(Value::Bytes)
        }
        (Repr::I32 | Repr::I64 | Repr::U8 | Repr::U64, Json::String(s)) => {
            match parse_integer(repr, s.as_bytes())? {
                Int::Signed(i) => Ok(Value::I64(i)),
                Int::Unsigned(u) => Ok(Value::U64(u)),
            }
        }
        _ => Err("value.representation"),
    }
}

/// The document envelope, as a serde user would write it.
#[derive(Serialize, Deserialize)]
pub struct Envelope<T> {
    /// `semaprax.agent-interaction-value.v1` (not checked).
    pub schema: String,
    /// The root's id (not checked).
    pub root_type_id: String,
    /// The schema digest (not checked).
    pub schema_digest: String,
    /// The value.
    pub value: T,
}

/// A record value: `{"fields":{…}}`.
#[derive(Serialize, Deserialize)]
pub struct Rec<F> {
    /// The fields.
    pub fields: F,
}

/// An integer sent as a decimal string: parsed through a borrowed `&str`
/// (no allocation), written with `itoa` (what serde_json itself uses for
/// integers).
mod int {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn deserialize<'de, D: Deserializer<'de>, T: std::str::FromStr>(
        d: D,
    ) -> Result<T, D::Error> {
        let s = <&str>::deserialize(d)?;
        s.parse()
            .map_err(|_| serde::de::Error::custom("not an integer"))
    }

    pub fn serialize<S: Serializer, T: itoa::Integer + Copy>(
        v: &T,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.serialize_str(itoa::Buffer::new().format(*v))
    }
}

/// `bench.verdict`.
#[derive(Serialize, Deserialize)]
pub struct Verdict {
    #[serde(rename = "bench.verdict.trace_id", with = "int")]
    pub trace_id: u64,
    #[serde(rename = "bench.verdict.accepted")]
    pub accepted: bool,
    #[serde(rename = "bench.verdict.reason")]
    pub reason: String,
}

/// `bench.priority`.
#[derive(Serialize, Deserialize)]
#[serde(tag = "case", content = "fields")]
pub enum Priority {
    #[serde(rename = "bench.priority.low")]
    Low {},
    #[serde(rename = "bench.priority.normal")]
    Normal {},
    #[serde(rename = "bench.priority.urgent")]
    Urgent {
        #[serde(rename = "bench.priority.urgent.deadline_ms", with = "int")]
        deadline_ms: i64,
    },
}

/// `bench.window`.
#[derive(Serialize, Deserialize)]
pub struct Window {
    #[serde(rename = "bench.window.start_ms", with = "int")]
    pub start_ms: i64,
    #[serde(rename = "bench.window.end_ms", with = "int")]
    pub end_ms: i64,
}

/// `bench.action`.
#[derive(Serialize, Deserialize)]
#[serde(tag = "case", content = "fields")]
pub enum Action {
    #[serde(rename = "bench.action.fetch")]
    Fetch {
        #[serde(rename = "bench.action.fetch.url")]
        url: String,
        #[serde(rename = "bench.action.fetch.max_bytes", with = "int")]
        max_bytes: u64,
    },
    #[serde(rename = "bench.action.write")]
    Write {
        #[serde(rename = "bench.action.write.path")]
        path: String,
        #[serde(rename = "bench.action.write.content")]
        content: Vec<u8>,
    },
    #[serde(rename = "bench.action.shell")]
    Shell {
        #[serde(rename = "bench.action.shell.command")]
        command: String,
        #[serde(rename = "bench.action.shell.timeout_s", with = "int")]
        timeout_s: i32,
        #[serde(rename = "bench.action.shell.retries", with = "int")]
        retries: u8,
    },
    #[serde(rename = "bench.action.wait")]
    Wait {
        #[serde(rename = "bench.action.wait.window")]
        window: Rec<Window>,
    },
    #[serde(rename = "bench.action.done")]
    Done {},
}

/// `bench.budget`.
#[derive(Serialize, Deserialize)]
pub struct Budget {
    #[serde(rename = "bench.budget.max_tokens", with = "int")]
    pub max_tokens: u64,
    #[serde(rename = "bench.budget.max_cost_micros", with = "int")]
    pub max_cost_micros: i64,
    #[serde(rename = "bench.budget.retries", with = "int")]
    pub retries: u8,
    #[serde(rename = "bench.budget.strict")]
    pub strict: bool,
}

/// `bench.step`.
#[derive(Serialize, Deserialize)]
pub struct Step {
    #[serde(rename = "bench.step.action")]
    pub action: Action,
    #[serde(rename = "bench.step.priority")]
    pub priority: Priority,
    #[serde(rename = "bench.step.title")]
    pub title: String,
    #[serde(rename = "bench.step.rationale")]
    pub rationale: String,
    #[serde(rename = "bench.step.confidence", with = "int")]
    pub confidence: u8,
}

/// `bench.context`.
#[derive(Serialize, Deserialize)]
pub struct Context {
    #[serde(rename = "bench.context.goal")]
    pub goal: String,
    #[serde(rename = "bench.context.user")]
    pub user: String,
    #[serde(rename = "bench.context.locale")]
    pub locale: String,
    #[serde(rename = "bench.context.attachment")]
    pub attachment: Vec<u8>,
}

/// `bench.proposal`.
#[derive(Serialize, Deserialize)]
pub struct Proposal {
    #[serde(rename = "bench.proposal.trace_id", with = "int")]
    pub trace_id: u64,
    #[serde(rename = "bench.proposal.context")]
    pub context: Rec<Context>,
    #[serde(rename = "bench.proposal.step_1")]
    pub step_1: Rec<Step>,
    #[serde(rename = "bench.proposal.step_2")]
    pub step_2: Rec<Step>,
    #[serde(rename = "bench.proposal.step_3")]
    pub step_3: Rec<Step>,
    #[serde(rename = "bench.proposal.step_4")]
    pub step_4: Rec<Step>,
    #[serde(rename = "bench.proposal.step_5")]
    pub step_5: Rec<Step>,
    #[serde(rename = "bench.proposal.fallback")]
    pub fallback: Rec<Step>,
    #[serde(rename = "bench.proposal.budget")]
    pub budget: Rec<Budget>,
    #[serde(rename = "bench.proposal.offset_s", with = "int")]
    pub offset_s: i32,
    #[serde(rename = "bench.proposal.confident")]
    pub confident: bool,
    #[serde(rename = "bench.proposal.nonce")]
    pub nonce: Vec<u8>,
    #[serde(rename = "bench.proposal.summary")]
    pub summary: String,
}

/// The derived structs of a `bench.verdict` document.
pub type VerdictDoc = Envelope<Rec<Verdict>>;

/// The derived structs of a `bench.proposal` document.
pub type ProposalDoc = Envelope<Rec<Proposal>>;

/// serde_json into the derived structs.
pub fn serde_json<T: DeserializeOwned>(bytes: &[u8]) -> serde_json::Result<T> {
    serde_json::from_slice(bytes)
}

/// sonic-rs into the same derived structs (its `from_slice`: UTF-8 is
/// validated, as every other decoder here does).
pub fn sonic_rs<T: DeserializeOwned>(bytes: &[u8]) -> sonic_rs::Result<T> {
    sonic_rs::from_slice(bytes)
}

/// simd-json into the same derived structs. simd-json parses in place, so
/// the document is first copied into a reused buffer (a `memcpy`, ≈ 2% of
/// its time on the large document), and its internal buffers are reused
/// across calls (`from_slice_with_buffers`, its fastest serde entry point).
#[derive(Default)]
pub struct SimdJson {
    scratch: RefCell<(Vec<u8>, Option<simd_json::Buffers>)>,
}

impl SimdJson {
    /// Decodes `bytes` into `T`.
    pub fn decode<T: DeserializeOwned>(&self, bytes: &[u8]) -> simd_json::Result<T> {
        let mut scratch = self.scratch.borrow_mut();
        let (input, buffers) = &mut *scratch;
        let buffers = buffers.get_or_insert_with(|| simd_json::Buffers::new(bytes.len()));
        input.clear();
        input.extend_from_slice(bytes);
        simd_json::serde::from_slice_with_buffers(input, buffers)
    }
}

/// `serde_json::to_string` of the derived structs (the encoder baseline):
/// its output is the canonical document without the final LF, checked by
/// the bench setup.
pub fn serde_json_encode<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("the derived structs serialise")
}
