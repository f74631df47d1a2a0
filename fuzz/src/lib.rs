//! Fixtures and oracles shared by the fuzz targets in `fuzz_targets/`.
//!
//! Every oracle panics (which libFuzzer reports as a crash) when the engine
//! breaks one of its promises: a panic of its own, a refusal without the
//! right code or location, two decoding paths that disagree, or an admitted
//! value that does not re-encode to the admitted bytes.

use spx_schema::admit::admit;
use spx_schema::decode::{self, Decoded};
use spx_schema::graph::{FieldType, TypeGraph, TypeKind};
use spx_schema::project::{self, Dialect};
use spx_schema::quote::quote;
use spx_schema::{encode, Code, Diagnostic, Location, Schema};
use std::sync::OnceLock;

/// `tests/fixtures/fuzz/fuzz.spx`: the fixture of the `generated` target.
pub const FUZZ_SPX: &str = include_str!("../../tests/fixtures/fuzz/fuzz.spx");
/// `tests/fixtures/macro/planner.spx`.
pub const PLANNER_SPX: &str = include_str!("../../tests/fixtures/macro/planner.spx");
/// `tests/fixtures/spx/diamond.spx`.
pub const DIAMOND_SPX: &str = include_str!("../../tests/fixtures/spx/diamond.spx");
/// `tests/fixtures/spx/scalars.spx`.
pub const SCALARS_SPX: &str = include_str!("../../tests/fixtures/spx/scalars.spx");

/// The (module, root) pairs the `decode` and `admit` targets run against.
pub const ROOTS: &[(&str, &str, &str)] = &[
    ("fuzz.spx", FUZZ_SPX, "fz.root.é"),
    ("fuzz.spx", FUZZ_SPX, "fz.event"),
    ("planner.spx", PLANNER_SPX, "planner.proposal"),
    ("diamond.spx", DIAMOND_SPX, "dia.top"),
    ("scalars.spx", SCALARS_SPX, "sc.variant"),
];

/// The schemas of [`ROOTS`], derived once.
pub fn schemas() -> &'static [Schema] {
    static S: OnceLock<Vec<Schema>> = OnceLock::new();
    S.get_or_init(|| {
        ROOTS
            .iter()
            .map(|(path, text, root)| {
                let module = spx_schema::source::read_module(path, text)
                    .unwrap_or_else(|e| panic!("fixture {path} does not read: {e:?}"));
                Schema::derive(&module, root)
                    .unwrap_or_else(|e| panic!("fixture root {root} does not derive: {e}"))
            })
            .collect()
    })
}

/// The canonical document up to and including `"value":`.
pub fn value_prefix(schema: &Schema) -> String {
    format!(
        "{{\"schema\":\"semaprax.agent-interaction-value.v1\",\"root_type_id\":{},\"schema_digest\":{},\"value\":",
        quote(schema.root_type_id()),
        quote(schema.digest())
    )
}

/// The `<VALUE>` part of a canonical document, as a provider would send it
/// to `dialect` (wrapped as `{"value":…}` where the dialect wraps the root).
pub fn provider_text(schema: &Schema, dialect: Dialect, canonical: &str) -> String {
    let prefix = value_prefix(schema);
    let value = canonical
        .strip_prefix(prefix.as_str())
        .and_then(|s| s.strip_suffix("}\n"))
        .unwrap_or_else(|| panic!("not a canonical document of this schema: {canonical:?}"));
    if dialect.wraps_root(schema) {
        format!("{{\"value\":{value}}}")
    } else {
        value.to_owned()
    }
}

/// A refusal of a value document or of provider output: SPX-Z205 or
/// SPX-Z206, with a JSON Pointer.
pub fn check_value_refusal(e: &Diagnostic) {
    assert!(
        e.code == Code::Z205 || e.code == Code::Z206,
        "unexpected code: {e:?}"
    );
    assert!(e.is_error(), "a refusal that is not an error: {e:?}");
    assert!(!e.rule.is_empty(), "no rule: {e:?}");
    match &e.location {
        Location::Pointer(p) => assert!(p.is_empty() || p.starts_with('/'), "bad pointer {e:?}"),
        other => panic!("a value refusal not located by a pointer: {other:?}"),
    }
}

/// The oracle of an admitted value: its canonical document re-encodes and
/// re-decodes to the same value, and every dialect admits its value part
/// to the same canonical document.
pub fn check_admitted(schema: &Schema, d: &Decoded) {
    let again = encode::encode(schema, &d.value).expect("an admitted value encodes");
    assert_eq!(
        again, d.canonical,
        "an admitted value re-encodes differently"
    );
    let decoded = decode::decode(schema, d.canonical.as_bytes()).expect("canonical decodes");
    assert_eq!(
        &decoded, d,
        "the canonical document decodes to another value"
    );
    for dialect in Dialect::JSON_SCHEMA {
        let text = provider_text(schema, dialect, &d.canonical);
        match admit(schema, dialect, text.as_bytes()) {
            Ok(a) => assert_eq!(&a, d, "admit({dialect}) of the value part differs"),
            Err(e) => panic!("admit({dialect}) refuses a decoded value: {e:?}\n{text}"),
        }
    }
}

/// The `decode` oracle: the fast path and the spec-ordered path agree, an
/// admitted document is its own canonical rendering, a refusal is located.
pub fn check_decode(schema: &Schema, data: &[u8]) {
    let full = decode::decode(schema, data);
    let spec = decode::decode_spec_path(schema, data);
    assert_eq!(full, spec, "decode and decode_spec_path disagree");
    let fast = decode::decode_fast_path(schema, data);
    match (&fast, &full) {
        (Some(f), Ok(d)) => assert_eq!(f, d, "fast path admits another value"),
        (None, Err(_)) => {}
        (Some(_), Err(e)) => panic!("the fast path admits what the spec path refuses: {e:?}"),
        (None, Ok(_)) => panic!("the fast path misses a canonical document"),
    }
    assert_eq!(
        decode::decode_fast_path_portable(schema, data),
        fast,
        "the portable and native kernels disagree"
    );
    match &full {
        Ok(d) => {
            assert_eq!(
                d.canonical.as_bytes(),
                data,
                "admitted bytes are not canonical"
            );
            check_admitted(schema, d);
        }
        Err(e) => check_value_refusal(e),
    }
}

/// The `admit` oracle.
pub fn check_admit(schema: &Schema, dialect: Dialect, data: &[u8]) {
    match admit(schema, dialect, data) {
        Ok(d) => {
            let decoded = decode::decode(schema, d.canonical.as_bytes())
                .expect("the decoder refuses what admit returned");
            assert_eq!(decoded, d, "admit and decode disagree on the value");
            assert_eq!(
                encode::encode(schema, &d.value).as_deref(),
                Ok(d.canonical.as_str())
            );
        }
        Err(e) => check_value_refusal(&e),
    }
}

/// The number of value nodes in the smallest value of type `t` (a DAG may
/// make it exponential in the number of types), saturating.
pub fn value_nodes(graph: &TypeGraph) -> Vec<u64> {
    let mut n = vec![1u64; graph.types.len()];
    for (i, t) in graph.types.iter().enumerate() {
        let fields: Vec<_> = match &t.kind {
            TypeKind::Record { fields } => fields.iter().collect(),
            // `encode::example` takes the first case.
            TypeKind::Variant { cases } => cases
                .first()
                .map(|c| c.fields.iter().collect())
                .unwrap_or_default(),
        };
        let mut total = 1u64;
        for f in fields {
            total = total.saturating_add(match f.ty {
                FieldType::Scalar(_) => 1,
                FieldType::Nested(j) if j < i => n[j],
                FieldType::Nested(_) => u64::MAX,
            });
        }
        n[i] = total;
    }
    n
}

/// The `reader` oracle over one derived schema: the document reads back
/// byte for byte, every projection renders or is refused with SPX-Z207,
/// and an example value (when it is small enough to build) round-trips.
pub fn check_schema(schema: &Schema) {
    let back = Schema::parse_document(schema.document().as_bytes())
        .unwrap_or_else(|e| panic!("a rendered document does not read back: {e:?}"));
    assert_eq!(back.document(), schema.document());
    assert_eq!(back.digest(), schema.digest());
    assert_eq!(back.revision(), schema.revision());
    let draft = project::draft2020(schema);
    assert!(draft.ends_with('\n'));
    for dialect in Dialect::JSON_SCHEMA {
        if let Err(e) = project::project(schema, dialect) {
            assert_eq!(e.code, project::Z207, "{dialect}: {e:?}");
        }
    }
    // `encode::example` builds the whole value; for a wide DAG that is
    // exponential (see docs/RELIABILITY.md), so only when it is small.
    let nodes = value_nodes(schema.graph());
    if nodes.last().copied().unwrap_or(0) > 100_000 {
        return;
    }
    let v = encode::example(schema);
    match encode::encode(schema, &v) {
        Ok(doc) => {
            let d = decode::decode(schema, doc.as_bytes())
                .unwrap_or_else(|e| panic!("the example does not decode: {e:?}\n{doc}"));
            assert_eq!(d.value, v);
            check_admitted(schema, &d);
        }
        Err(e) => assert_eq!(
            (e.code, e.rule),
            (Code::Z206, "document_bytes"),
            "the example does not encode: {e:?}"
        ),
    }
}

/// The `reader` oracle over one `.spx` text.
pub fn check_reader(text: &str) {
    match spx_schema::source::read_module("fuzz.spx", text) {
        Err(errs) => {
            assert!(!errs.is_empty(), "a refusal without a diagnostic");
            for e in &errs {
                assert!(e.is_error(), "a refusal made of warnings: {e:?}");
                match &e.location {
                    Location::Source {
                        path,
                        line,
                        column,
                        span,
                    } => {
                        assert_eq!(path, "fuzz.spx");
                        assert!(*line >= 1 && *column >= 1, "{e:?}");
                        let span = span.unwrap_or_else(|| panic!("no span: {e:?}"));
                        assert!(span.start <= span.end && span.end <= text.len(), "{e:?}");
                    }
                    Location::File { path } => assert_eq!(path, "fuzz.spx"),
                    other => panic!("a reader diagnostic without a source location: {other:?}"),
                }
            }
        }
        Ok(module) => {
            for decl in &module.decls {
                match Schema::derive(&module, &decl.stable_id) {
                    Ok(schema) => check_schema(&schema),
                    Err(e) => assert!(
                        e.code == Code::Z202 || e.code == Code::Z203,
                        "unexpected derivation code: {e:?}"
                    ),
                }
            }
        }
    }
}

/// The input of the `stream` target: `data[0] % 16` header bytes, each a
/// chunk size (`1 + b`, cycled; no header: the whole buffer), then the
/// document. Returns the sizes and the document.
pub fn split_input(data: &[u8]) -> (Vec<usize>, &[u8]) {
    let Some((&n, rest)) = data.split_first() else {
        return (Vec::new(), data);
    };
    let n = usize::from(n % 16).min(rest.len());
    let (head, body) = rest.split_at(n);
    (head.iter().map(|&b| 1 + usize::from(b)).collect(), body)
}

/// `body` cut in pieces of `sizes` (cycled; none: the whole buffer).
pub fn pieces<'b>(body: &'b [u8], sizes: &[usize]) -> Vec<&'b [u8]> {
    if sizes.is_empty() {
        return vec![body];
    }
    let mut out = Vec::new();
    let mut at = 0;
    for &n in sizes.iter().cycle() {
        if at >= body.len() {
            break;
        }
        let end = (at + n).min(body.len());
        out.push(&body[at..end]);
        at = end;
    }
    out
}

/// What a stream gave: its result, its `FieldDone` events, and whether a
/// `feed` refused.
type Run = (
    Result<Decoded, Diagnostic>,
    Vec<(String, spx_schema::Value)>,
    bool,
);

fn run<S>(
    mut s: S,
    chunks: &[&[u8]],
    feed: impl Fn(&mut S, &[u8], &mut dyn FnMut(spx_schema::stream::Event)) -> Result<(), Diagnostic>,
    finish: impl FnOnce(S) -> Result<Decoded, Diagnostic>,
) -> Run {
    let mut done = Vec::new();
    let mut refused = false;
    for c in chunks {
        let r = feed(&mut s, c, &mut |e| {
            if let spx_schema::stream::Event::FieldDone { pointer, value } = e {
                done.push((pointer, value));
            }
        });
        if r.is_err() {
            refused = true;
            break;
        }
    }
    (finish(s), done, refused)
}

/// The stream invariants for one stream's run against the whole-document
/// result: the same verdict and the same value; sound `FieldDone` events
/// (exactly the leaves when admitted, in order for the decoder, in any
/// order for the admitter); a refusal with an offset within the input,
/// the same refusal for the whole buffer fed at once, and a prefix before
/// the offset that a fresh stream accepts.
fn check_run(
    what: &str,
    len: usize,
    got: &Run,
    whole_feed: &Run,
    want: &Result<Decoded, Diagnostic>,
    ordered: bool,
) -> Option<u64> {
    let (result, done, refused) = got;
    match (result, want) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a, b, "{what}: the stream admits another value");
            assert!(!refused);
            let mut want_leaves = Vec::new();
            spx_tests::stream::leaves(&b.value, "/value", &mut want_leaves);
            let mut got_leaves = done.clone();
            if !ordered {
                want_leaves.sort_by(|x, y| x.0.cmp(&y.0));
                got_leaves.sort_by(|x, y| x.0.cmp(&y.0));
            }
            assert_eq!(
                got_leaves, want_leaves,
                "{what}: FieldDone events are not the leaves"
            );
            None
        }
        (Err(a), Err(_)) => {
            check_value_refusal(a);
            let off = a.offset.expect("a stream refusal has an offset");
            assert!(
                off <= len as u64,
                "{what}: offset {off} past the input ({len})"
            );
            let w = whole_feed
                .0
                .as_ref()
                .expect_err("whole-buffer feeding refuses too");
            assert_eq!(
                (a.code, a.rule, &a.location, a.offset),
                (w.code, w.rule, &w.location, w.offset),
                "{what}: another refusal than with the whole buffer"
            );
            Some(off)
        }
        (a, b) => panic!("{what}: the stream's verdict {a:?} is not the whole document's {b:?}"),
    }
}

/// The `stream` oracle: the streaming decoder and, for every dialect, the
/// streaming admitter, fed `body` in the chunks `sizes` give, against
/// `decode::decode` and `admit` on the whole body.
pub fn check_stream(schema: &Schema, sizes: &[usize], body: &[u8]) {
    use spx_schema::stream::{StreamAdmitter, StreamDecoder};
    let chunks = pieces(body, sizes);
    let whole = [body];
    let dec = |chunks: &[&[u8]]| {
        run(
            StreamDecoder::new(schema),
            chunks,
            |s, c, on| s.feed_with(c, &mut |e| on(e)),
            StreamDecoder::finish,
        )
    };
    let want = decode::decode(schema, body);
    let got = dec(&chunks);
    if let Some(off) = check_run("decoder", body.len(), &got, &dec(&whole), &want, true) {
        let mut fresh = StreamDecoder::new(schema);
        let prefix = body.get(..off as usize).unwrap_or(body);
        assert!(
            fresh.feed(prefix).is_ok(),
            "decoder: the bytes before the offset {off} are refused"
        );
    }
    for dialect in Dialect::JSON_SCHEMA.into_iter().chain(Dialect::GRAMMARS) {
        let adm = |chunks: &[&[u8]]| {
            run(
                StreamAdmitter::new(schema, dialect),
                chunks,
                |s, c, on| s.feed_with(c, &mut |e| on(e)),
                StreamAdmitter::finish,
            )
        };
        let want = admit(schema, dialect, body);
        let got = adm(&chunks);
        let what = format!("admitter ({dialect})");
        if let Some(off) = check_run(&what, body.len(), &got, &adm(&whole), &want, false) {
            let mut fresh = StreamAdmitter::new(schema, dialect);
            let prefix = body.get(..off as usize).unwrap_or(body);
            assert!(
                fresh.feed(prefix).is_ok(),
                "{what}: the bytes before the offset {off} are refused"
            );
        }
    }
}
