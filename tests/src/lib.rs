//! Support shared by the workspace's tests: hand-built type graphs and
//! random values for them.

/// Builders for hand-made type graphs (display names left empty, as in a
/// graph read back from a schema document).
pub mod graph {
    use spx_schema::graph::{Case, Field, FieldType, Repr, TypeGraph, TypeKind, TypeNode};
    use spx_schema::Schema;

    /// A field of any type.
    pub fn field(id: &str, ty: FieldType) -> Field {
        Field {
            stable_id: id.into(),
            name: String::new(),
            ty,
        }
    }

    /// A scalar field.
    pub fn scalar(id: &str, repr: Repr) -> Field {
        field(id, FieldType::Scalar(repr))
    }

    /// A field referring to the type at `index` of the graph.
    pub fn nested(id: &str, index: usize) -> Field {
        field(id, FieldType::Nested(index))
    }

    /// A record.
    pub fn record(id: &str, fields: Vec<Field>) -> TypeNode {
        TypeNode {
            stable_id: id.into(),
            name: String::new(),
            kind: TypeKind::Record { fields },
        }
    }

    /// A case of a [`variant`].
    pub fn case(id: &str, fields: Vec<Field>) -> (&str, Vec<Field>) {
        (id, fields)
    }

    /// A variant from `(case id, fields)` pairs.
    pub fn variant(id: &str, cases: Vec<(&str, Vec<Field>)>) -> TypeNode {
        TypeNode {
            stable_id: id.into(),
            name: String::new(),
            kind: TypeKind::Variant {
                cases: cases
                    .into_iter()
                    .map(|(cid, fields)| Case {
                        stable_id: cid.into(),
                        name: String::new(),
                        fields,
                    })
                    .collect(),
            },
        }
    }

    /// The sample graph of the decoder and encoder tests: a record
    /// `t.inner` (0), a variant `t.shape` (1) with a payload-less case, and
    /// the root record `t.root` (2) holding every scalar and both.
    pub fn sample() -> Schema {
        Schema::from_graph(TypeGraph {
            types: vec![
                record(
                    "t.inner",
                    vec![scalar("inner.x", Repr::I64), scalar("inner.b", Repr::Bool)],
                ),
                variant(
                    "t.shape",
                    vec![
                        case("shape.circle", vec![scalar("circle.r", Repr::U8)]),
                        case(
                            "shape.rect",
                            vec![scalar("rect.w", Repr::I32), scalar("rect.h", Repr::I32)],
                        ),
                        case("shape.none", vec![]),
                    ],
                ),
                record(
                    "t.root",
                    vec![
                        scalar("root.flag", Repr::Bool),
                        scalar("root.i32", Repr::I32),
                        scalar("root.i64", Repr::I64),
                        scalar("root.u8", Repr::U8),
                        scalar("root.u64", Repr::U64),
                        scalar("root.s", Repr::String),
                        scalar("root.bytes", Repr::Bytes),
                        field("outer.inner", FieldType::Nested(0)),
                        field("root.shape", FieldType::Nested(1)),
                    ],
                ),
            ],
        })
        .expect("the sample graph renders")
    }

    /// The schema of these types (root last).
    pub fn schema(types: Vec<TypeNode>) -> Schema {
        Schema::from_graph(TypeGraph { types }).expect("fixture graph renders")
    }
}

/// proptest strategies for values of any graph.
pub mod values {
    use proptest::prelude::*;
    use proptest::strategy::{BoxedStrategy, Union};
    use spx_schema::graph::{Field, FieldType, Repr, TypeGraph, TypeKind};
    use spx_schema::Value;

    /// Characters for string values: every class FORMAT.md §2 treats apart.
    pub const CHARS: &[char] = &[
        'a', 'Z', '0', ' ', '"', '\\', '/', '\n', '\r', '\t', '\u{0}', '\u{8}', '\u{c}', '\u{1f}',
        '\u{7f}', '\u{80}', '\u{85}', '\u{9f}', '\u{a0}', 'é', '€', '𝄞', '\u{2028}', '\u{feff}',
        '\u{fffd}', '{', '}', '[', ']', ',', ':',
    ];

    pub fn arb_char() -> impl Strategy<Value = char> {
        prop_oneof![
            3 => prop::sample::select(CHARS),
            1 => any::<char>(),
        ]
    }

    /// Strings: short ones over every character class, sometimes exactly at
    /// the 4096-byte bound.
    pub fn arb_string() -> impl Strategy<Value = String> {
        prop_oneof![
            20 => prop::collection::vec(arb_char(), 0..12).prop_map(|v| v.into_iter().collect()),
            1 => Just("a".repeat(4096)),
            1 => Just("é".repeat(2048)),
            1 => Just(format!("{}a", "€".repeat(1365))),
        ]
    }

    pub fn arb_scalar(r: Repr) -> BoxedStrategy<Value> {
        match r {
            Repr::Bool => any::<bool>().prop_map(Value::Bool).boxed(),
            Repr::I32 => prop_oneof![
                Just(i32::MIN),
                Just(i32::MAX),
                Just(0),
                Just(-1),
                any::<i32>()
            ]
            .prop_map(|n| Value::I64(i64::from(n)))
            .boxed(),
            Repr::I64 => prop_oneof![
                Just(i64::MIN),
                Just(i64::MAX),
                Just(0),
                Just(-1),
                any::<i64>()
            ]
            .prop_map(Value::I64)
            .boxed(),
            Repr::U8 => any::<u8>().prop_map(|n| Value::U64(u64::from(n))).boxed(),
            Repr::U64 => prop_oneof![
                Just(0),
                Just(u64::MAX),
                Just((1u64 << 53) + 1),
                any::<u64>()
            ]
            .prop_map(Value::U64)
            .boxed(),
            Repr::String => arb_string().prop_map(Value::String).boxed(),
            Repr::Bytes => prop_oneof![
                20 => prop::collection::vec(any::<u8>(), 0..8),
                1 => Just(vec![255u8; 4096]),
            ]
            .prop_map(Value::Bytes)
            .boxed(),
        }
    }

    pub fn fields_strategy(
        fields: &[Field],
        types: &[BoxedStrategy<Value>],
    ) -> BoxedStrategy<Vec<(String, Value)>> {
        let ids: Vec<String> = fields.iter().map(|f| f.stable_id.clone()).collect();
        let parts: Vec<BoxedStrategy<Value>> = fields
            .iter()
            .map(|f| match f.ty {
                FieldType::Scalar(r) => arb_scalar(r),
                FieldType::Nested(j) => types[j].clone(),
            })
            .collect();
        parts
            .prop_map(move |vals| ids.iter().cloned().zip(vals).collect())
            .boxed()
    }

    /// Random values of the graph's root type (every case of every variant).
    pub fn arb_value(graph: &TypeGraph) -> BoxedStrategy<Value> {
        let mut types: Vec<BoxedStrategy<Value>> = Vec::with_capacity(graph.types.len());
        for t in &graph.types {
            let s = match &t.kind {
                TypeKind::Record { fields } => fields_strategy(fields, &types)
                    .prop_map(Value::Record)
                    .boxed(),
                TypeKind::Variant { cases } => Union::new(cases.iter().map(|c| {
                    let case = c.stable_id.clone();
                    fields_strategy(&c.fields, &types)
                        .prop_map(move |fields| Value::Variant {
                            case: case.clone(),
                            fields,
                        })
                        .boxed()
                }))
                .boxed(),
            };
            types.push(s);
        }
        types.pop().expect("a graph has a root")
    }
}

/// Compares `actual` with the golden file `tests/<path>`, or writes it
/// when `SPX_BLESS` is set (then review the diff).
pub fn golden(path: &str, actual: &str) {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path);
    if std::env::var_os("SPX_BLESS").is_some() {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).unwrap();
        }
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "missing golden file {}; run with SPX_BLESS=1 and review it",
            path.display()
        )
    });
    assert!(
        actual == expected,
        "golden {} differs; rerun with SPX_BLESS=1 and review the diff\n--- expected\n{expected}\n--- actual\n{actual}",
        path.display()
    );
}

/// Provider-style answers: a value written the way a model constrained by
/// a dialect's projection writes it (the dialect's safe keys, its wrapper
/// of a variant root), independently of the engine's encoder.
pub mod provider {
    use spx_schema::graph::{FieldType, TypeKind};
    use spx_schema::project::{Dialect, KeyMap};
    use spx_schema::quote::quote_into;
    use spx_schema::{Schema, Value};

    /// The answer to `dialect`'s projection of `schema` that holds `value`
    /// (compact JSON).
    pub fn answer(schema: &Schema, dialect: Dialect, value: &Value) -> String {
        let keys = KeyMap::new(schema, dialect);
        let mut out = String::new();
        let wrap = dialect.wraps_root(schema);
        if wrap {
            out.push_str("{\"value\":");
        }
        write(schema, &keys, schema.graph().root_index(), value, &mut out);
        if wrap {
            out.push('}');
        }
        out
    }

    fn write(schema: &Schema, keys: &KeyMap, ty: usize, value: &Value, out: &mut String) {
        let kind = &schema.graph().types[ty].kind;
        let (case, decl, fields) = match (kind, value) {
            (TypeKind::Record { fields: decl }, Value::Record(fields)) => (None, decl, fields),
            (TypeKind::Variant { cases }, Value::Variant { case, fields }) => {
                let j = cases.iter().position(|c| &c.stable_id == case).unwrap();
                out.push_str("{\"case\":");
                quote_into(out, case);
                out.push(',');
                (Some(j), &cases[j].fields, fields)
            }
            other => panic!("value does not fit its type: {other:?}"),
        };
        if case.is_none() {
            out.push('{');
        }
        out.push_str("\"fields\":{");
        for (j, (f, (_, v))) in decl.iter().zip(fields).enumerate() {
            if j > 0 {
                out.push(',');
            }
            quote_into(out, keys.field_key(ty, case, j));
            out.push(':');
            match (f.ty, v) {
                (FieldType::Nested(i), v) => write(schema, keys, i, v, out),
                (_, Value::Bool(b)) => out.push_str(if *b { "true" } else { "false" }),
                (_, Value::I64(n)) => quote_into(out, &n.to_string()),
                (_, Value::U64(n)) => quote_into(out, &n.to_string()),
                (_, Value::String(s)) => quote_into(out, s),
                (_, Value::Bytes(b)) => {
                    let items: Vec<String> = b.iter().map(u8::to_string).collect();
                    out.push('[');
                    out.push_str(&items.join(","));
                    out.push(']');
                }
                (_, other) => panic!("leaf expected, got {other:?}"),
            }
        }
        out.push_str("}}");
    }
}

/// Real packages built with `cargo build --offline`: copies of the fixture
/// host (`tests/fixtures/host`) for the end-to-end tests of this crate and
/// the hint tests of the CLI (`cli/tests/hints.rs`, which runs the `spx`
/// binary too).
pub mod host {
    use std::path::{Path, PathBuf};
    use std::process::{Command, Output};

    /// The workspace root.
    pub fn workspace() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("tests/ has a parent")
            .to_path_buf()
    }

    /// `tests/fixtures/host`.
    pub fn fixture() -> PathBuf {
        workspace().join("tests/fixtures/host")
    }

    /// A package directory, removed when dropped.
    pub struct Package {
        /// Its directory.
        pub dir: PathBuf,
        /// Its package name.
        pub name: String,
    }

    impl Drop for Package {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }

    impl Package {
        /// `<root>/<case>-<pid>/`, emptied, with the fixture's manifest
        /// (named `<prefix>-<case>`, spx-build from this workspace),
        /// `agents/fx.spx` and the workspace's `Cargo.lock` (so that the
        /// offline build uses exactly the crates already in the cache).
        /// `files` are copied from the fixture too (`build.rs`,
        /// `src/main.rs`, …).
        pub fn new(root: &Path, prefix: &str, case: &str, files: &[&str]) -> Package {
            let name = format!("{prefix}-{case}");
            let dir = root.join(format!("{case}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(dir.join("src")).unwrap();
            std::fs::create_dir_all(dir.join("agents")).unwrap();
            let ws = workspace();
            let manifest = std::fs::read_to_string(fixture().join("Cargo.toml.tmpl"))
                .unwrap()
                .replace("@WORKSPACE@", ws.to_str().expect("UTF-8 workspace path"))
                .replace("name = \"spx-fixture-host\"", &format!("name = \"{name}\""));
            std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
            for f in files.iter().chain(&["agents/fx.spx"]) {
                std::fs::copy(fixture().join(f), dir.join(f)).unwrap();
            }
            std::fs::copy(ws.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
            Package { dir, name }
        }

        /// `cargo build --offline` in the package, with `target` as its
        /// `CARGO_TARGET_DIR` (the outer `cargo test` holds the lock on
        /// `target/`), `CI`, `SPX_UPDATE_PINS` and `CARGO_TERM_COLOR`
        /// removed and then `env` set, so the outer environment never
        /// changes what a case tests.
        pub fn cargo_build(&self, target: &Path, env: &[(&str, &str)]) -> Output {
            let mut cmd = Command::new(option_env!("CARGO").unwrap_or("cargo"));
            cmd.args(["build", "--offline", "--color", "never"])
                .current_dir(&self.dir)
                .env("CARGO_TARGET_DIR", target)
                .env_remove("CI")
                .env_remove("SPX_UPDATE_PINS")
                .env_remove("CARGO_TERM_COLOR");
            for (k, v) in env {
                cmd.env(k, v);
            }
            cmd.output().expect("cargo runs")
        }
    }
}

/// Differential checks of the streams against the whole-document decoder
/// and admission, for every chunking the tests use.
pub mod stream {
    use spx_schema::decode::Decoded;
    use spx_schema::project::Dialect;
    use spx_schema::stream::{Event, StreamAdmitter, StreamDecoder};
    use spx_schema::{Diagnostic, Location, Schema, Value};
    use std::cell::Cell;

    /// The chunkings: the whole buffer, 1 byte, 2 to 7 bytes, and three
    /// random cuttings (seeded by the bytes, so a failure reproduces).
    pub fn chunkings(bytes: &[u8]) -> Vec<Vec<usize>> {
        let len = bytes.len().max(1);
        let mut out = vec![vec![len]];
        for n in 1..=7 {
            out.push(vec![n]);
        }
        let mut seed = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        }) | 1;
        for _ in 0..3 {
            let mut sizes = Vec::new();
            let mut total = 0;
            while total < len {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let n = 1 + (seed % 97) as usize;
                sizes.push(n);
                total += n;
            }
            out.push(sizes);
        }
        out
    }

    /// Cuts `bytes` into pieces of the sizes in `sizes` (cycling).
    pub fn pieces<'b>(bytes: &'b [u8], sizes: &[usize]) -> Vec<&'b [u8]> {
        let mut out = Vec::new();
        let mut at = 0;
        let mut k = 0;
        while at < bytes.len() {
            let n = sizes[k % sizes.len()].max(1);
            let end = (at + n).min(bytes.len());
            out.push(&bytes[at..end]);
            at = end;
            k += 1;
        }
        out
    }

    /// What one run of a stream gave.
    #[derive(Debug)]
    pub struct Run {
        /// `finish`'s result.
        pub result: Result<Decoded, Diagnostic>,
        /// The events, in order.
        pub events: Vec<Event>,
        /// The index of the chunk whose feed refused, if one did, how
        /// many bytes had been fed before that chunk, and its length.
        pub refused_in: Option<(usize, u64, u64)>,
    }

    /// Feeds `bytes` through a fresh decoder in these chunks.
    pub fn decode_in(schema: &Schema, bytes: &[u8], sizes: &[usize]) -> Run {
        let mut s = StreamDecoder::new(schema);
        let mut events = Vec::new();
        let mut refused_in = None;
        let mut fed = 0u64;
        for (k, chunk) in pieces(bytes, sizes).into_iter().enumerate() {
            if s.feed_with(chunk, &mut |e| events.push(e)).is_err() {
                refused_in = Some((k, fed, chunk.len() as u64));
                break;
            }
            fed += chunk.len() as u64;
        }
        Run {
            result: s.finish(),
            events,
            refused_in,
        }
    }

    /// Feeds `bytes` through a fresh admitter in these chunks.
    pub fn admit_in(schema: &Schema, dialect: Dialect, bytes: &[u8], sizes: &[usize]) -> Run {
        let mut s = StreamAdmitter::new(schema, dialect);
        let mut events = Vec::new();
        let mut refused_in = None;
        let mut fed = 0u64;
        for (k, chunk) in pieces(bytes, sizes).into_iter().enumerate() {
            if s.feed_with(chunk, &mut |e| events.push(e)).is_err() {
                refused_in = Some((k, fed, chunk.len() as u64));
                break;
            }
            fed += chunk.len() as u64;
        }
        Run {
            result: s.finish(),
            events,
            refused_in,
        }
    }

    thread_local! {
        static MAY_DIFFER: Cell<bool> = const { Cell::new(false) };
    }

    /// While the guard lives, the documents checked on this thread may
    /// get another diagnostic from the stream than from the
    /// whole-document decoder (they have more than one violation, and a
    /// later byte decides; docs/DECODING.md, "Streaming"): only the verdict
    /// and the offsets are checked.
    pub fn may_differ() -> MayDiffer {
        MAY_DIFFER.with(|c| c.set(true));
        MayDiffer(())
    }

    /// See [`may_differ`].
    pub struct MayDiffer(());

    impl Drop for MayDiffer {
        fn drop(&mut self) {
            MAY_DIFFER.with(|c| c.set(false));
        }
    }

    /// True while a [`may_differ`] guard lives on this thread.
    pub fn differing() -> bool {
        MAY_DIFFER.with(Cell::get)
    }

    /// The fields of a value, replayed: every leaf at its pointer
    /// (`prefix` + `/fields/<id>`…), in document order.
    pub fn leaves(value: &Value, prefix: &str, out: &mut Vec<(String, Value)>) {
        let fields = match value {
            Value::Record(f) | Value::Variant { fields: f, .. } => f,
            _ => return,
        };
        for (id, v) in fields {
            let mut p = format!("{prefix}/fields");
            spx_schema::quote::push_pointer_token(&mut p, id);
            match v {
                Value::Record(_) | Value::Variant { .. } => leaves(v, &p, out),
                _ => out.push((p, v.clone())),
            }
        }
    }

    /// The cases of a value, replayed.
    pub fn cases(value: &Value, prefix: &str, out: &mut Vec<(String, String)>) {
        let fields = match value {
            Value::Record(f) => f,
            Value::Variant { case, fields } => {
                out.push((prefix.to_owned(), case.clone()));
                fields
            }
            _ => return,
        };
        for (id, v) in fields {
            let mut p = format!("{prefix}/fields");
            spx_schema::quote::push_pointer_token(&mut p, id);
            cases(v, &p, out);
        }
    }

    /// The streaming admitter against `whole` (admission's result on
    /// `bytes`), for every chunking: the same verdict; the same value and
    /// canonical document; the same code, rule and pointer unless
    /// [`differing`]; one offset whatever the chunking, with a prefix
    /// before it that the stream accepts; sound events (in any order: a
    /// provider writes keys in any order). Returns the stream's refusal.
    pub fn check_admit(
        schema: &Schema,
        dialect: Dialect,
        bytes: &[u8],
        whole: &Result<Decoded, Diagnostic>,
    ) -> Option<Diagnostic> {
        let mut first: Option<Diagnostic> = None;
        for sizes in chunkings(bytes) {
            let run = admit_in(schema, dialect, bytes, &sizes);
            match (&run.result, whole) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(
                        a,
                        b,
                        "stream by {sizes:?} differs ({dialect}): {}",
                        show(bytes)
                    );
                    let mut events = run.events.clone();
                    events.retain(|e| !matches!(e, Event::Progress { .. }));
                    let mut want: Vec<(String, Value)> = Vec::new();
                    leaves(&a.value, "/value", &mut want);
                    let mut got: Vec<(String, Value)> = events
                        .iter()
                        .filter_map(|e| match e {
                            Event::FieldDone { pointer, value } => {
                                Some((pointer.clone(), value.clone()))
                            }
                            _ => None,
                        })
                        .collect();
                    want.sort_by(|x, y| x.0.cmp(&y.0));
                    got.sort_by(|x, y| x.0.cmp(&y.0));
                    assert_eq!(
                        got,
                        want,
                        "FieldDone events are not the leaves: {}",
                        show(bytes)
                    );
                    let mut want_cases = Vec::new();
                    cases(&a.value, "/value", &mut want_cases);
                    let mut got_cases: Vec<(String, String)> = events
                        .iter()
                        .filter_map(|e| match e {
                            Event::CaseChosen { pointer, case } => {
                                Some((pointer.clone(), case.clone()))
                            }
                            _ => None,
                        })
                        .collect();
                    want_cases.sort();
                    got_cases.sort();
                    assert_eq!(got_cases, want_cases, "{}", show(bytes));
                    check_events(&run.events, None);
                }
                (Err(a), Err(b)) => {
                    if !differing()
                        && std::env::var_os("SPX_STREAM_REPORT").is_some()
                        && !same_refusal(a, b)
                    {
                        eprintln!(
                            "ADIFF {} {} {:?} | whole {} {:?} :: {}",
                            a.rule,
                            a.offset.unwrap_or(0),
                            a.location,
                            b.rule,
                            b.location,
                            show(bytes).chars().take(140).collect::<String>()
                        );
                    } else if !differing() {
                        assert!(
                            same_refusal(a, b),
                            "stream by {sizes:?} ({dialect}): {a:?}\nwhole: {b:?}\n{}",
                            show(bytes)
                        );
                    }
                    let off = a.offset.expect("a stream refusal has an offset");
                    assert!(off <= bytes.len() as u64, "{a:?}");
                    check_events(&run.events, None);
                    match &first {
                        None => first = Some(a.clone()),
                        Some(f) => assert_eq!(
                            (f.code, f.rule, &f.location, f.offset),
                            (a.code, a.rule, &a.location, a.offset),
                            "another refusal by {sizes:?} ({dialect}): {}",
                            show(bytes)
                        ),
                    }
                }
                (a, b) => panic!(
                    "stream by {sizes:?} ({dialect}): {a:?}\nwhole: {b:?}\n{}",
                    show(bytes)
                ),
            }
        }
        if let Some(d) = &first {
            let off = d.offset.unwrap_or(0) as usize;
            let mut s = StreamAdmitter::new(schema, dialect);
            let prefix = &bytes[..off.min(bytes.len())];
            let r = s.feed(prefix);
            assert!(
                r.is_ok(),
                "the bytes before the offset {off} are refused ({dialect}): {r:?} {}",
                show(bytes)
            );
        }
        first
    }

    /// Events are sound: every `FieldDone` and `CaseChosen` of an admitted
    /// stream is, in order, exactly a leaf and a case of the final value;
    /// of a refused one, a prefix of what the document announced (checked
    /// by the caller); offsets never go back.
    pub fn check_events(events: &[Event], value: Option<&Value>) {
        let mut last = 0;
        for e in events {
            if let Event::Progress { offset } = e {
                assert!(*offset >= last, "progress went back: {events:?}");
                last = *offset;
            }
        }
        let Some(value) = value else { return };
        let mut want = Vec::new();
        leaves(value, "/value", &mut want);
        let got: Vec<(String, Value)> = events
            .iter()
            .filter_map(|e| match e {
                Event::FieldDone { pointer, value } => Some((pointer.clone(), value.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(got, want, "FieldDone events are not the value's leaves");
        let mut want_cases = Vec::new();
        cases(value, "/value", &mut want_cases);
        let got_cases: Vec<(String, String)> = events
            .iter()
            .filter_map(|e| match e {
                Event::CaseChosen { pointer, case } => Some((pointer.clone(), case.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(
            got_cases, want_cases,
            "CaseChosen events are not the value's cases"
        );
    }

    fn show(bytes: &[u8]) -> String {
        String::from_utf8_lossy(&bytes[..bytes.len().min(300)]).into_owned()
    }

    fn same_refusal(a: &Diagnostic, b: &Diagnostic) -> bool {
        (a.code, a.rule, &a.location) == (b.code, b.rule, &b.location)
    }

    /// A refusal that the byte at its offset decides by itself, with no
    /// token to read on: a bound that no continuation can meet (the size
    /// budget, a byte array's 4097th element, a string's 4097th byte).
    fn immediate(d: &Diagnostic) -> bool {
        matches!(d.rule, "value.bytes_length" | "value.string_bytes")
            || d.detail
                .as_deref()
                .is_some_and(|t| t.starts_with("no continuation fits"))
    }

    /// The streaming decoder against `whole` (the whole-document decoder's
    /// result on `bytes`), for every chunking: the same verdict; the same
    /// value and canonical document; the same code, rule and pointer
    /// unless [`differing`]; one offset whatever the chunking, no earlier
    /// than `viable` (the length of a prefix of `bytes` known to start an
    /// admitted document, when the caller knows one), and a prefix before
    /// it that the stream accepts; sound events. Returns the stream's
    /// refusal.
    pub fn check_decode(
        schema: &Schema,
        bytes: &[u8],
        whole: &Result<Decoded, Diagnostic>,
        viable: Option<usize>,
    ) -> Option<Diagnostic> {
        let mut first: Option<Diagnostic> = None;
        for sizes in chunkings(bytes) {
            let run = decode_in(schema, bytes, &sizes);
            match (&run.result, whole) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(a, b, "stream by {sizes:?} differs: {}", show(bytes));
                    check_events(&run.events, Some(&a.value));
                    assert!(run.refused_in.is_none());
                }
                (Err(a), Err(b)) => {
                    if !differing()
                        && std::env::var_os("SPX_STREAM_REPORT").is_some()
                        && !same_refusal(a, b)
                    {
                        eprintln!(
                            "DIFF {} {} {:?} | whole {} {:?} :: {}",
                            a.rule,
                            a.offset.unwrap_or(0),
                            a.location,
                            b.rule,
                            b.location,
                            show(bytes).chars().take(140).collect::<String>()
                        );
                    } else if !differing() {
                        assert!(
                            same_refusal(a, b),
                            "stream by {sizes:?}: {a:?}\nwhole: {b:?}\n{}",
                            show(bytes)
                        );
                    }
                    let off = a.offset.expect("a stream refusal has an offset");
                    assert!(off <= bytes.len() as u64, "{a:?}");
                    if let Some(v) = viable {
                        assert!(
                            off >= v as u64,
                            "refused at {off}, before byte {v} of a viable prefix: {a:?}\n{}",
                            show(bytes)
                        );
                    }
                    if let Some((_, fed, len)) = run.refused_in {
                        // Refused in the chunk holding the impossible byte,
                        // or later (the rest of its token names it)...
                        assert!(off < fed + len, "refused before byte {off} came: {a:?}");
                        // ... and at once where the byte decides by
                        // itself: a bound that no continuation can meet
                        // (once the character it begins is whole).
                        let lead = bytes.get(off as usize).copied().unwrap_or(0);
                        let rest = match lead {
                            0xc0..=0xdf => 1,
                            0xe0..=0xef => 2,
                            0xf0..=0xff => 3,
                            _ => 0,
                        };
                        if immediate(a) {
                            assert!(
                                fed <= off + rest,
                                "stream by {sizes:?}: byte {off} decides, refused at {fed}: {a:?}\n{}",
                                show(bytes)
                            );
                        }
                    }
                    check_events(&run.events, None);
                    if let Some(f) = &first {
                        if std::env::var_os("SPX_STREAM_REPORT").is_some()
                            && (f.rule, f.offset) != (a.rule, a.offset)
                        {
                            let _ = std::fs::write("/tmp/spx_fail.bin", bytes);
                            let _ = std::fs::write("/tmp/spx_fail_schema.json", schema.document());
                        }
                    }
                    match &first {
                        None => first = Some(a.clone()),
                        Some(f) => assert_eq!(
                            (f.code, f.rule, &f.location, f.offset),
                            (a.code, a.rule, &a.location, a.offset),
                            "another refusal by {sizes:?}: {}",
                            show(bytes)
                        ),
                    }
                }
                (a, b) => panic!("stream by {sizes:?}: {a:?}\nwhole: {b:?}\n{}", show(bytes)),
            }
        }
        if let Some(d) = &first {
            // The bytes before the offset are a viable prefix: a fresh
            // stream accepts them.
            let off = d.offset.unwrap_or(0) as usize;
            let mut s = StreamDecoder::new(schema);
            let prefix = &bytes[..off.min(bytes.len())];
            assert!(
                s.feed(prefix).is_ok(),
                "the bytes before the offset {off} are refused: {}",
                show(bytes)
            );
            assert!(matches!(d.location, Location::Pointer(_)));
        }
        first
    }
}

/// The recorder of test documents: the engine's decode tests record every
/// document they check, so that the consumer tests can send the same
/// corpus through the generated TypeScript and Python decoders.
pub mod corpus {
    use spx_schema::Schema;
    use std::cell::RefCell;

    /// One recorded document and the schema it was checked against.
    pub type Document = (Schema, Vec<u8>);

    thread_local! {
        static RECORDING: RefCell<Option<Vec<Document>>> = const { RefCell::new(None) };
    }

    /// Records `bytes` (checked against `schema`) when this thread is
    /// collecting; does nothing otherwise.
    pub fn record(schema: &Schema, bytes: &[u8]) {
        RECORDING.with(|r| {
            if let Some(docs) = r.borrow_mut().as_mut() {
                docs.push((schema.clone(), bytes.to_vec()));
            }
        });
    }

    /// Runs `f` while recording, and returns every document it recorded.
    pub fn collect(f: impl FnOnce()) -> Vec<Document> {
        RECORDING.with(|r| *r.borrow_mut() = Some(Vec::new()));
        f();
        RECORDING.with(|r| r.borrow_mut().take().unwrap_or_default())
    }
}
