//! Issue 14, the provider round trip: safe keys every provider accepts for
//! any id the format allows (hostile ids through projection and
//! admission, property-tested), goldens of a documented module with
//! hostile ids in every dialect, integer patterns property-tested against
//! the decoder, duplicates through a key and its alias, feedback for the
//! model in the keys it was given, and documentation that is not identity.

use proptest::prelude::*;
use serde_json::Value as J;
use spx_schema::admit::{admit, Admission};
use spx_schema::graph::{Repr, TypeGraph};
use spx_schema::project::{
    integer_pattern, project, project_with, Dialect, IntegerPattern, KeyMap, KeyRule, Options,
};
use spx_schema::scalar::parse_integer;
use spx_schema::{Code, Location, Schema};
use spx_tests::graph::{nested, record, scalar, variant};
use std::collections::BTreeSet;
use std::path::PathBuf;

fn golden(name: &str, actual: &str) {
    spx_tests::golden(&format!("golden/project/{name}"), actual);
}

const HOSTILE_ROOT: &str = "weird \"quoted\" \\ back\tslash";

fn hostile() -> Schema {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/spx/hostile.spx");
    let text = std::fs::read_to_string(path).unwrap();
    let module = spx_schema::source::read_module("hostile.spx", &text).unwrap();
    Schema::derive(&module, HOSTILE_ROOT).unwrap()
}

/// Every schema object of a document.
fn schemas<'a>(v: &'a J, out: &mut Vec<&'a J>) {
    out.push(v);
    let J::Object(m) = v else { return };
    for (k, sub) in m {
        match (k.as_str(), sub) {
            ("properties" | "$defs", J::Object(props)) => {
                props.values().for_each(|s| schemas(s, out));
            }
            ("anyOf" | "oneOf", J::Array(items)) => items.iter().for_each(|s| schemas(s, out)),
            ("items", s) => schemas(s, out),
            _ => {}
        }
    }
}

/// Every key and name constraint of the dialect's provider (docs/PROVIDERS.md
/// §6) holds in `doc`.
/// Admission of `text`, with the streaming admitter checked against it in
/// every chunking (the same verdict, value and refusal).
fn admitted_or_refused(
    schema: &Schema,
    dialect: Dialect,
    text: &str,
) -> Result<spx_schema::decode::Decoded, spx_schema::Diagnostic> {
    let got = admit(schema, dialect, text.as_bytes());
    spx_tests::stream::check_admit(schema, dialect, text.as_bytes(), &got);
    got
}

fn check_provider_rules(dialect: Dialect, doc: &J, name: Option<&str>) {
    let rule = KeyRule::PROPERTY;
    let mut all = Vec::new();
    schemas(doc, &mut all);
    let defs: BTreeSet<&String> = doc
        .get("$defs")
        .and_then(J::as_object)
        .map(|d| d.keys().collect())
        .unwrap_or_default();
    for s in &all {
        if dialect == Dialect::Anthropic {
            if let Some(J::Object(props)) = s.get("properties") {
                for k in props.keys() {
                    assert!(rule.fits(k), "anthropic property key {k:?}");
                }
            }
        }
        if let Some(J::String(r)) = s.get("$ref") {
            assert_eq!(s.as_object().unwrap().len(), 1, "{dialect}: $ref alone");
            let target = r.strip_prefix("#/$defs/").expect("local $ref");
            assert!(defs.contains(&target.to_string()), "{dialect}: {r}");
        }
    }
    for d in defs {
        assert!(rule.fits(d), "{dialect}: $defs name {d:?}");
    }
    match dialect {
        Dialect::OpenAi | Dialect::Anthropic => {
            assert!(KeyRule::NAME.fits(name.unwrap()), "{dialect}: {name:?}")
        }
        _ => assert_eq!(name, None),
    }
}

/// A draft 2020-12 validator (without `$id` when the raw root id is not a
/// URI, see docs/PROVIDERS.md §1).
fn validator(doc: &str) -> jsonschema::Validator {
    let mut v: J = serde_json::from_str(doc).unwrap();
    if let Some(m) = v.as_object_mut() {
        m.remove("$id");
    }
    jsonschema::draft202012::new(&v).unwrap_or_else(|e| panic!("invalid schema {doc}: {e}"))
}

#[test]
fn goldens_of_a_documented_module_with_hostile_ids() {
    let schema = hostile();
    for dialect in Dialect::JSON_SCHEMA {
        let p = project(&schema, dialect).unwrap();
        golden(&format!("hostile.{dialect}.json"), &p.document);
        golden(
            &format!("hostile.{dialect}.report.json"),
            &p.report_json(dialect),
        );
        let doc: J = serde_json::from_str(&p.document).unwrap();
        if dialect != Dialect::Draft2020 {
            check_provider_rules(dialect, &doc, p.schema_name.as_deref());
            assert!(p.document.contains("\"description\":\"A count, from 0 to 255.\\n\\nu8 integer written as a decimal string (digits only, no leading zeros), from 0 to 255\""), "{dialect}");
            assert!(
                p.document
                    .contains("\"description\":\"What to do next.\",\"anyOf\":[{\"$ref\":"),
                "{dialect}"
            );
        } else {
            assert!(!p.document.contains("description"), "the reference's bytes");
        }
    }
    let described = project_with(
        &schema,
        Dialect::Draft2020,
        Options {
            draft2020_descriptions: true,
        },
    )
    .unwrap();
    golden("hostile.draft2020.described.json", &described.document);
    assert!(described.document.contains(
        "\"choice/kind\":{\"$ref\":\"#/$defs/choice~0type\",\"description\":\"What to do next.\"}"
    ));
    // Descriptions change no byte of identity.
    assert_eq!(
        spx_schema::project::draft2020(&schema),
        project(&schema, Dialect::Draft2020).unwrap().document
    );
}

#[test]
fn a_model_answering_with_the_safe_keys_is_admitted_and_corrected_in_them() {
    let schema = hostile();
    let provider = Admission::new(&schema, Dialect::Anthropic).unwrap();
    let keys = provider.keys();
    let root = schema.graph().root_index();
    let key = |j| keys.field_key(root, None, j).to_string();
    // Missing `count` (field 0): pointed at with its safe key.
    let answer = format!(
        r#"{{"fields":{{"{}":"1","{}":"t","{}":true,"{}":"2","{}":{{"case":"stop!","fields":{{}}}},"{}":[]}}}}"#,
        key(1),
        key(2),
        key(3),
        key(4),
        key(5),
        key(6)
    );
    let e = provider.admit(answer.as_bytes()).unwrap_err();
    assert_eq!(
        admitted_or_refused(&schema, Dialect::Anthropic, &answer).as_ref(),
        Err(&e)
    );
    assert_eq!((e.code, e.rule), (Code::Z206, "value.fields.missing"));
    assert_eq!(e.location, Location::Pointer(format!("/fields/{}", key(0))));
    let feedback = e.for_model();
    assert!(
        feedback.starts_with(&format!(
            "Your answer was refused at /fields/{}: a required field is missing (rule value.fields.missing).",
            key(0)
        )),
        "{feedback}"
    );
    // An invented key: listed with the keys the model was given.
    let invented = answer.replacen("{\"fields\":{", "{\"fields\":{\"a b/c~d!\":\"1\",", 1);
    let e = provider.admit(invented.as_bytes()).unwrap_err();
    assert_eq!(
        admitted_or_refused(&schema, Dialect::Anthropic, &invented).as_ref(),
        Err(&e)
    );
    assert_eq!(e.rule, "value.fields.unknown");
    assert_eq!(e.location, Location::Pointer("/fields/a b~1c~0d!".into()));
    let detail = e.detail.unwrap();
    assert!(
        detail.contains(&format!(
            "expected only the fields \"{}\", \"{}\"",
            key(0),
            key(1)
        )),
        "{detail}"
    );
    // The safe key and the stable id of one field in one object.
    let both = answer.replacen(
        "{\"fields\":{",
        &format!("{{\"fields\":{{\"{}\":\"1\",\"a b/c~d\":\"1\",", key(0)),
        1,
    );
    let e = provider.admit(both.as_bytes()).unwrap_err();
    assert_eq!(
        admitted_or_refused(&schema, Dialect::Anthropic, &both).as_ref(),
        Err(&e)
    );
    assert_eq!((e.code, e.rule), (Code::Z205, "duplicate_key"));
    assert_eq!(e.location, Location::Pointer("/fields/a b~1c~0d".into()));
    assert_eq!(
        e.detail.as_deref(),
        Some(
            format!(
                "/fields/a b~1c~0d: the keys \"{0}\" and \"a b/c~d\" name the same field; write it once, as \"{0}\"",
                key(0)
            )
            .as_str()
        )
    );
    // Fixed: admitted, and the canonical document carries the stable ids.
    let fixed = answer.replacen(
        "{\"fields\":{",
        &format!("{{\"fields\":{{\"{}\":\"7\",", key(0)),
        1,
    );
    let d = provider.admit(fixed.as_bytes()).unwrap();
    assert_eq!(
        admitted_or_refused(&schema, Dialect::Anthropic, &fixed).as_ref(),
        Ok(&d)
    );
    assert!(d.canonical.contains("\"a b/c~d\":\"7\""), "{}", d.canonical);
    assert!(!d.canonical.contains(&key(0)));
}

#[test]
fn forged_ids_never_share_a_key() {
    // An id spelled exactly like another's safe key, in the same record and
    // as a type id: the id that fits keeps its key, the other moves.
    let victim = "a b";
    let forged = KeyRule::PROPERTY.safe(victim);
    let schema = spx_tests::graph::schema(vec![
        record(victim, vec![scalar("x", Repr::Bool)]),
        record(&forged, vec![scalar("y", Repr::Bool)]),
        record(
            "root",
            vec![
                scalar(victim, Repr::U8),
                scalar(&forged, Repr::U8),
                nested("n1", 0),
                nested("n2", 1),
            ],
        ),
    ]);
    for dialect in Dialect::JSON_SCHEMA {
        let keys = KeyMap::new(&schema, dialect);
        let fk: BTreeSet<&String> = keys.field_keys(2, None).iter().collect();
        assert_eq!(fk.len(), 4, "{dialect}");
        if dialect != Dialect::Draft2020 {
            assert_ne!(keys.def_name(0), keys.def_name(1), "{dialect}");
            assert_eq!(keys.def_name(1), forged);
        }
        let v = spx_schema::Value::Record(vec![
            (victim.into(), spx_schema::Value::U64(1)),
            (forged.clone(), spx_schema::Value::U64(2)),
            (
                "n1".into(),
                spx_schema::Value::Record(vec![("x".into(), spx_schema::Value::Bool(true))]),
            ),
            (
                "n2".into(),
                spx_schema::Value::Record(vec![("y".into(), spx_schema::Value::Bool(false))]),
            ),
        ]);
        let answer = spx_tests::provider::answer(&schema, dialect, &v);
        let d = admitted_or_refused(&schema, dialect, &answer).unwrap();
        assert_eq!(d.value, v, "{dialect}");
        let doc: J = serde_json::from_str(&project(&schema, dialect).unwrap().document).unwrap();
        assert!(validator(&doc.to_string()).is_valid(&serde_json::from_str(&answer).unwrap()));
    }
    assert_eq!(
        KeyMap::new(&schema, Dialect::Anthropic).field_key(2, None, 1),
        forged
    );
}

#[test]
fn documentation_is_not_identity() {
    let bare = "module m;\n@id(\"m.p\")\nrecord P {\n    @id(\"m.p.x\")\n    x: i64,\n}\n";
    let documented =
        "module m;\n/// A point.\n@id(\"m.p\")\nrecord P {\n    // Its x.\n    @id(\"m.p.x\")\n    x: i64,\n}\n";
    let derive = |t: &str| {
        let m = spx_schema::source::read_module("m.spx", t).unwrap();
        Schema::derive(&m, "m.p").unwrap()
    };
    let (a, b) = (derive(bare), derive(documented));
    assert_eq!(a.document(), b.document());
    assert_eq!(a.digest(), b.digest());
    assert_eq!(a.revision(), b.revision());
    assert_eq!(a, b);
    assert!(a.docs().is_empty());
    assert_eq!(b.docs().get("m.p"), Some("A point."));
    assert_eq!(b.docs().get("m.p.x"), Some("Its x."));
    // A document read back carries none.
    assert!(Schema::parse_document(b.document().as_bytes())
        .unwrap()
        .docs()
        .is_empty());
    let p = project(&b, Dialect::Gemini).unwrap();
    assert!(p
        .document
        .starts_with("{\"type\":\"object\",\"description\":\"A point.\","));
}

fn arb_hostile_char() -> impl Strategy<Value = char> {
    prop_oneof![
        4 => prop::char::range('a', 'z'),
        1 => prop::char::range('0', '9'),
        3 => prop::sample::select(vec![
            ' ', '/', '~', '"', '\\', '\t', '\n', '\r', '\u{1}', '\u{7f}', '.', '-', '_', '%',
            '$', '@', '[', ']', '{', '#', '?', 'é', 'ü', '✓', '😀', '\u{2028}', '\u{feff}',
        ]),
    ]
}

fn arb_id() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::collection::vec(arb_hostile_char(), 1..12),
        1 => prop::collection::vec(arb_hostile_char(), 60..=200),
    ]
    .prop_map(|cs| cs.into_iter().collect())
}

/// A schema of fixed shape (records, a variant with a payload, nesting,
/// every scalar) whose 14 ids are random, pairwise distinct, and sometimes
/// forged to equal another id's safe key.
fn arb_hostile_schema() -> impl Strategy<Value = Schema> {
    (prop::collection::hash_set(arb_id(), 14..=14), any::<bool>()).prop_filter_map(
        "distinct after forging",
        |(ids, forge)| {
            let mut ids: Vec<String> = ids.into_iter().collect();
            ids.sort();
            if forge && !KeyRule::PROPERTY.fits(&ids[0]) {
                let forged = KeyRule::PROPERTY.safe(&ids[0]);
                if ids.contains(&forged) {
                    return None;
                }
                ids[1] = forged;
            }
            let graph = TypeGraph {
                types: vec![
                    record(
                        &ids[2],
                        vec![scalar(&ids[0], Repr::U8), scalar(&ids[1], Repr::String)],
                    ),
                    variant(
                        &ids[3],
                        vec![
                            (ids[4].as_str(), vec![]),
                            (
                                ids[5].as_str(),
                                vec![scalar(&ids[6], Repr::I64), nested(&ids[7], 0)],
                            ),
                        ],
                    ),
                    record(
                        &ids[8],
                        vec![
                            scalar(&ids[9], Repr::Bool),
                            nested(&ids[10], 1),
                            nested(&ids[11], 0),
                            scalar(&ids[12], Repr::U64),
                            scalar(&ids[13], Repr::Bytes),
                            scalar(&ids[0], Repr::I32),
                        ],
                    ),
                ],
            };
            Schema::from_graph(graph).ok()
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Project, answer with the dialect's keys as a model would, admit: the
    /// canonical document of the original value comes back, for any ids.
    #[test]
    fn hostile_ids_round_trip_through_every_dialect(
        (schema, v) in arb_hostile_schema().prop_flat_map(|s| {
            let values = spx_tests::values::arb_value(s.graph());
            (Just(s), values)
        })
    ) {
        let canonical = spx_schema::encode::encode(&schema, &v).unwrap();
        for dialect in Dialect::JSON_SCHEMA {
            let p = project(&schema, dialect).unwrap();
            let doc: J = serde_json::from_str(&p.document).unwrap();
            if dialect != Dialect::Draft2020 {
                check_provider_rules(dialect, &doc, p.schema_name.as_deref());
            }
            let answer = spx_tests::provider::answer(&schema, dialect, &v);
            let instance: J = serde_json::from_str(&answer).unwrap();
            let errors: Vec<String> = validator(&p.document)
                .iter_errors(&instance)
                .map(|e| e.to_string())
                .collect();
            prop_assert!(errors.is_empty(), "{}: {:?}", dialect, errors);
            let d = admitted_or_refused(&schema, dialect, &answer)
                .map_err(|e| TestCaseError::fail(format!("{dialect}: {e}\n{answer}")))?;
            prop_assert_eq!(&d.canonical, &canonical);
            prop_assert_eq!(&d.value, &v);
        }
    }
}

/// Strings the decoder's integer rule is tested with: every in-range
/// canonical value of a kind, and near misses.
fn arb_integer_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<i64>().prop_map(|n| n.to_string()),
        any::<u64>().prop_map(|n| n.to_string()),
        any::<i32>().prop_map(|n| n.to_string()),
        any::<u8>().prop_map(|n| n.to_string()),
        (0u64..1000).prop_map(|n| n.to_string()),
        prop::collection::vec(
            prop::sample::select(vec!['0', '1', '2', '5', '9', '-', '+', ' ']),
            0..22
        )
        .prop_map(|cs| cs.into_iter().collect()),
        prop::sample::select(vec![
            "0",
            "-0",
            "00",
            "01",
            "-01",
            "+1",
            "255",
            "256",
            "-1",
            "2147483647",
            "2147483648",
            "-2147483648",
            "-2147483649",
            "9223372036854775807",
            "9223372036854775808",
            "-9223372036854775808",
            "-9223372036854775809",
            "18446744073709551615",
            "18446744073709551616",
            "99999999999999999999",
            "",
            "-",
        ])
        .prop_map(str::to_owned),
    ]
}

fn matcher(pattern: &str) -> jsonschema::Validator {
    jsonschema::draft202012::new(&serde_json::json!({ "type": "string", "pattern": pattern }))
        .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Every pattern admits every in-range canonical value; whatever a
    /// pattern refuses the decoder refuses; the exact patterns admit
    /// nothing the decoder refuses, the digit counts only out-of-range
    /// values.
    #[test]
    fn integer_patterns_are_as_strict_as_the_decoder(text in arb_integer_text()) {
        thread_local! {
            static MATCHERS: Vec<(Repr, IntegerPattern, jsonschema::Validator)> = {
                let mut v = Vec::new();
                for r in [Repr::I32, Repr::I64, Repr::U8, Repr::U64] {
                    for s in [IntegerPattern::Canonical, IntegerPattern::Digits, IntegerPattern::Exact] {
                        v.push((r, s, matcher(&integer_pattern(r, s))));
                    }
                }
                v
            };
        }
        MATCHERS.with(|ms| {
            for (r, style, m) in ms {
                let decoded = parse_integer(*r, text.as_bytes());
                let matched = m.is_valid(&J::String(text.clone()));
                if decoded.is_ok() {
                    assert!(matched, "{r:?} {style:?} refuses {text:?}");
                }
                match style {
                    IntegerPattern::Exact => {
                        assert_eq!(matched, decoded.is_ok(), "{r:?} exact on {text:?}");
                    }
                    IntegerPattern::Digits if matched => {
                        assert!(
                            matches!(decoded, Ok(_) | Err("value.integer_range")),
                            "{r:?} digits admits {text:?}: {decoded:?}"
                        );
                    }
                    _ => {}
                }
            }
        });
    }
}

#[test]
fn unsigned_patterns_have_no_sign_and_none_allows_leading_zeros() {
    for style in [IntegerPattern::Digits, IntegerPattern::Exact] {
        for r in [Repr::U8, Repr::U64] {
            let m = matcher(&integer_pattern(r, style));
            for bad in ["-1", "-0", "+1", "01", "00", " 1", "1 "] {
                assert!(!m.is_valid(&J::from(bad)), "{r:?} {style:?} {bad}");
            }
            assert!(m.is_valid(&J::from("0")));
        }
        for r in [Repr::I32, Repr::I64] {
            let m = matcher(&integer_pattern(r, style));
            for bad in ["-0", "+1", "01", "-01", "--1"] {
                assert!(!m.is_valid(&J::from(bad)), "{r:?} {style:?} {bad}");
            }
            assert!(m.is_valid(&J::from("-1")));
        }
    }
    let (min, max) = Repr::I64.bounds().unwrap();
    let m = matcher(&integer_pattern(Repr::I64, IntegerPattern::Exact));
    assert!(m.is_valid(&J::from(min)) && m.is_valid(&J::from(max)));
    assert!(!m.is_valid(&J::from("9223372036854775808")));
    assert!(!m.is_valid(&J::from("-9223372036854775809")));
}
