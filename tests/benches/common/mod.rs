//! Shared by the `codec` and `allocs` benches: the benchmark module's
//! generated types, the committed document corpus and its generator, the
//! baseline decoders (reference architecture, serde_json, sonic-rs and
//! simd-json into serde-derive structs, jsonschema) and encoders
//! (`serde_json::to_string`).
//! See docs/PERFORMANCE.md.

pub mod baseline;
pub mod corpus;

use spx_runtime::engine::{self, Schema};
use std::hint::black_box;
use std::path::PathBuf;

/// The generated types of tests/fixtures/bench/bench.spx.
#[allow(clippy::large_enum_variant)]
pub mod planner {
    spx_runtime::spx_interaction! {
        source: "fixtures/bench/bench.spx",
        root: "bench.verdict",
        digest: "sha256:45a6f36811bad12d78e88ccb369586b1a43b13badf38447f7d5a72bed6884553",
        root: "bench.proposal",
        digest: "sha256:a032548b1b98356ce0869e67110356b4aff7695a3104a80d86bd79c3fdef0c4d",
    }
}

/// `tests/fixtures/bench/`.
pub fn fixture_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/bench")
}

/// The engine's schema of one root of bench.spx, derived from the source.
pub fn schema(root: &str) -> Schema {
    engine::binding::compile_file(
        &fixture_dir().join("bench.spx"),
        "fixtures/bench/bench.spx",
        root,
    )
    .unwrap_or_else(|d| panic!("bench.spx does not derive {root}: {d:?}"))
}

/// Which root a document is a value of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Root {
    /// `bench.verdict` ([`planner::Verdict`]).
    Verdict,
    /// `bench.proposal` ([`planner::Proposal`]).
    Proposal,
}

impl Root {
    /// The root's stable id.
    pub fn id(self) -> &'static str {
        match self {
            Root::Verdict => "bench.verdict",
            Root::Proposal => "bench.proposal",
        }
    }
}

/// One document of the corpus with everything a decoder needs, prepared
/// outside any timed loop.
pub struct Doc {
    /// `small`, `medium` or `large`.
    pub name: &'static str,
    /// The root it is a value of.
    pub root: Root,
    /// The committed bytes (canonical, LF included).
    pub bytes: Vec<u8>,
    /// The engine's schema of the root.
    pub schema: Schema,
    /// The draft 2020-12 projection, compiled once.
    pub validator: jsonschema::Validator,
    /// The document parsed by serde_json (for the validate-only baseline).
    pub parsed: serde_json::Value,
    /// The engine's value of the document (for the engine encoder).
    pub value: engine::Value,
    /// The document in the serde-derive structs (for the serde encoder).
    pub serde: SerdeDoc,
    /// simd-json's reused buffers.
    pub simd_json: baseline::SimdJson,
}

/// A document decoded into the serde-derive structs of its root.
pub enum SerdeDoc {
    /// `bench.verdict`.
    Verdict(baseline::VerdictDoc),
    /// `bench.proposal`.
    Proposal(Box<baseline::ProposalDoc>),
}

/// The decoders compared, in table order. Each returns whether the
/// document was admitted (the decoded value is dropped inside the call).
pub const DECODERS: [&str; 9] = [
    "generated",
    "engine",
    "engine-spec-path",
    "reference",
    "serde-derive",
    "sonic-rs",
    "simd-json",
    "jsonschema",
    "jsonschema-validate-only",
];

/// The encoders compared (`serde-derive` is `serde_json::to_string` of the
/// serde-derive structs).
pub const ENCODERS: [&str; 3] = ["generated", "engine", "serde-derive"];

/// A decoder or encoder ready to run: bytes in, "accepted" (or output
/// length) out.
/// The streaming decoder's rows: name and chunk size.
#[allow(dead_code)] // (the `codec` and `profile` benches use it, not every bench)
pub const STREAMS: [(&str, usize); 3] =
    [("chunks-4k", 4096), ("bytes-1", 1), ("whole", usize::MAX)];

/// The streaming decoder over `bytes` in chunks of `size`, to `finish`,
/// keeping the canonical bytes as it reads them (`keep_canonical`): it ends
/// with what `decode/<document>/engine` returns, the value and the
/// canonical document, as a host that wants both asks for them.
#[allow(dead_code)] // (as `STREAMS`)
pub fn stream(schema: &Schema, bytes: &[u8], size: usize) -> usize {
    let mut s = engine::stream::StreamDecoder::new(schema).keep_canonical();
    for chunk in bytes.chunks(size.min(bytes.len()).max(1)) {
        if s.feed(chunk).is_err() {
            break;
        }
    }
    usize::from(std::hint::black_box(s.finish()).is_ok())
}

pub type Run<'a> = Box<dyn Fn(&[u8]) -> usize + 'a>;

impl Doc {
    /// Loads the committed corpus (checked against its generator).
    pub fn corpus() -> Vec<Doc> {
        corpus::load()
            .into_iter()
            .map(|(name, root, bytes)| Doc::new(name, root, bytes))
            .collect()
    }

    fn new(name: &'static str, root: Root, bytes: Vec<u8>) -> Doc {
        let schema = schema(root.id());
        let projection: serde_json::Value =
            serde_json::from_str(&engine::project::draft2020(&schema))
                .expect("the projection is JSON");
        let validator =
            jsonschema::draft202012::new(&projection).expect("the projection is a valid schema");
        let parsed: serde_json::Value =
            serde_json::from_slice(&bytes).expect("the document is JSON");
        let value = engine::decode::decode(&schema, &bytes)
            .unwrap_or_else(|d| panic!("the engine refuses {name}: {d}"))
            .value;
        let serde = match root {
            Root::Verdict => SerdeDoc::Verdict(baseline::serde_json(&bytes).expect("serde")),
            Root::Proposal => {
                SerdeDoc::Proposal(Box::new(baseline::serde_json(&bytes).expect("serde")))
            }
        };
        let doc = Doc {
            name,
            root,
            bytes,
            schema,
            validator,
            parsed,
            value,
            serde,
            simd_json: baseline::SimdJson::default(),
        };
        for d in DECODERS {
            assert_eq!(doc.decoder(d)(&doc.bytes), 1, "{d} refuses {name}");
        }
        for e in ENCODERS {
            assert_eq!(doc.encoder(e)(&doc.bytes), doc.bytes.len(), "{e} on {name}");
        }
        // serde_json writes exactly the canonical document (but its LF).
        let serde_text = match &doc.serde {
            SerdeDoc::Verdict(v) => baseline::serde_json_encode(v),
            SerdeDoc::Proposal(v) => baseline::serde_json_encode(&**v),
        };
        assert_eq!(
            format!("{serde_text}\n").as_bytes(),
            doc.bytes,
            "serde_json::to_string differs from the canonical {name}"
        );
        doc
    }

    /// The decoder called `name` (one of [`DECODERS`]), for this root.
    pub fn decoder(&self, name: &str) -> Run<'_> {
        use baseline::{ProposalDoc, VerdictDoc};
        use planner::{Proposal, Verdict};
        let schema = &self.schema;
        let validator = &self.validator;
        match (name, self.root) {
            ("generated", Root::Verdict) => {
                Box::new(|b| usize::from(black_box(Verdict::decode(b)).is_ok()))
            }
            ("generated", Root::Proposal) => {
                Box::new(|b| usize::from(black_box(Proposal::decode(b)).is_ok()))
            }
            ("engine", _) => {
                Box::new(move |b| usize::from(black_box(engine::decode::decode(schema, b)).is_ok()))
            }
            ("engine-spec-path", _) => Box::new(move |b| {
                usize::from(black_box(engine::decode::decode_spec_path(schema, b)).is_ok())
            }),
            ("reference", _) => Box::new(move |b| {
                usize::from(black_box(baseline::reference_decode(schema, b)).is_ok())
            }),
            ("serde-derive", Root::Verdict) => {
                Box::new(|b| usize::from(black_box(baseline::serde_json::<VerdictDoc>(b)).is_ok()))
            }
            ("serde-derive", Root::Proposal) => {
                Box::new(|b| usize::from(black_box(baseline::serde_json::<ProposalDoc>(b)).is_ok()))
            }
            ("sonic-rs", Root::Verdict) => {
                Box::new(|b| usize::from(black_box(baseline::sonic_rs::<VerdictDoc>(b)).is_ok()))
            }
            ("sonic-rs", Root::Proposal) => {
                Box::new(|b| usize::from(black_box(baseline::sonic_rs::<ProposalDoc>(b)).is_ok()))
            }
            ("simd-json", Root::Verdict) => {
                let s = &self.simd_json;
                Box::new(move |b| usize::from(black_box(s.decode::<VerdictDoc>(b)).is_ok()))
            }
            ("simd-json", Root::Proposal) => {
                let s = &self.simd_json;
                Box::new(move |b| usize::from(black_box(s.decode::<ProposalDoc>(b)).is_ok()))
            }
            ("jsonschema", _) => Box::new(move |b| {
                let doc: Result<serde_json::Value, _> = serde_json::from_slice(b);
                usize::from(doc.is_ok_and(|d| validator.is_valid(&d["value"])))
            }),
            ("jsonschema-validate-only", _) => {
                let value = &self.parsed["value"];
                Box::new(move |_| usize::from(validator.is_valid(value)))
            }
            _ => panic!("no decoder {name}"),
        }
    }

    /// The encoder called `name` (one of [`ENCODERS`]): it encodes this
    /// document's value (decoded once, outside the call) and returns the
    /// length of the output.
    pub fn encoder(&self, name: &str) -> Run<'_> {
        use planner::{Proposal, Verdict};
        match (name, self.root) {
            ("generated", Root::Verdict) => {
                let v = Verdict::decode(&self.bytes).expect("decodes");
                Box::new(move |_| v.encode().map_or(0, |s| s.len()))
            }
            ("generated", Root::Proposal) => {
                let v = Proposal::decode(&self.bytes).expect("decodes");
                Box::new(move |_| v.encode().map_or(0, |s| s.len()))
            }
            ("engine", _) => Box::new(|_| {
                engine::encode::encode(&self.schema, &self.value).map_or(0, |s| s.len())
            }),
            // The same bytes as the others but the final LF (checked in
            // `Doc::new`), which is counted so that the lengths compare.
            ("serde-derive", _) => match &self.serde {
                SerdeDoc::Verdict(v) => Box::new(move |_| baseline::serde_json_encode(v).len() + 1),
                SerdeDoc::Proposal(v) => {
                    Box::new(move |_| baseline::serde_json_encode(&**v).len() + 1)
                }
            },
            _ => panic!("no encoder {name}"),
        }
    }
}
