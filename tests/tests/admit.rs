//! Admission of raw provider output: any RFC 8259 rendering of a valid
//! value is admitted to the identical canonical document; duplicates are
//! refused at every level; every SPX-Z206 rule of the decoder is applied
//! unchanged, with the pointer into the provider's text and a detail fit to
//! send back to a model.

#[path = "project/fixtures.rs"]
mod fixtures;

use fixtures::*;
use proptest::prelude::*;
use serde_json::Value as J;
use spx_schema::admit::{admit, MAX_JSON_NESTING};
use spx_schema::graph::Repr;
use spx_schema::project::Dialect;
use spx_schema::{Code, Diagnostic, Location, Schema};

/// Writes `v` with every string character `\u`-escaped (surrogate pairs
/// beyond the BMP), object members in reverse order, and whitespace
/// everywhere RFC 8259 allows it.
fn escaped(v: &J, out: &mut String) {
    fn string(s: &str, out: &mut String) {
        out.push('"');
        let mut buf = [0u16; 2];
        for c in s.chars() {
            for unit in c.encode_utf16(&mut buf) {
                out.push_str(&format!("\\u{unit:04X}"));
            }
        }
        out.push('"');
    }
    match v {
        J::Object(m) => {
            out.push_str("{ \r\n");
            let members: Vec<_> = m.iter().rev().collect();
            for (i, (k, sub)) in members.iter().enumerate() {
                if i > 0 {
                    out.push_str(" ,\t");
                }
                string(k, out);
                out.push_str(" :\n ");
                escaped(sub, out);
            }
            out.push_str("\n}");
        }
        J::Array(items) => {
            out.push_str("[ ");
            for (i, sub) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                escaped(sub, out);
            }
            out.push_str(" ]");
        }
        J::String(s) => string(s, out),
        other => out.push_str(&other.to_string()),
    }
}

fn value_json(canonical: &str) -> J {
    let doc: J = serde_json::from_str(canonical).unwrap();
    doc["value"].clone()
}

fn wrap(schema: &Schema, dialect: Dialect, v: J) -> J {
    if dialect.wraps_root(schema) {
        serde_json::json!({ "value": v })
    } else {
        v
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn any_rendering_is_admitted_to_the_canonical_document(
        (fixture, v) in (0usize..5).prop_flat_map(|i| {
            let s = all().swap_remove(i).1;
            (Just(i), values(&s))
        })
    ) {
        let schema = all().swap_remove(fixture).1;
        let canonical = spx_schema::encode::encode(&schema, &v).unwrap();
        let value = value_json(&canonical);
        for dialect in Dialect::JSON_SCHEMA {
            let provider = wrap(&schema, dialect, value.clone());
            let mut esc = String::new();
            escaped(&provider, &mut esc);
            for text in [
                serde_json::to_string(&provider).unwrap(),
                serde_json::to_string_pretty(&provider).unwrap(),
                esc,
            ] {
                let got = admit(&schema, dialect, text.as_bytes());
                if text.len() > 65536 {
                    let e = got.unwrap_err();
                    prop_assert_eq!((e.code, e.rule), (Code::Z206, "document_bytes"));
                    continue;
                }
                spx_tests::stream::check_admit(&schema, dialect, text.as_bytes(), &got);
                let d = got.map_err(|e| TestCaseError::fail(format!("{dialect}: {e}\n{text}")))?;
                prop_assert_eq!(&d.canonical, &canonical);
                prop_assert_eq!(&d.value, &v);
                let again = spx_schema::decode::decode(&schema, d.canonical.as_bytes()).unwrap();
                prop_assert_eq!(&again.value, &v);
            }
        }
    }
}

fn confidence() -> Schema {
    schema(vec![record(
        "planner.cost",
        vec![
            scalar("planner.cost.amount", Repr::U64),
            scalar("planner.cost.confidence", Repr::U8),
        ],
    )])
}

fn refuse(schema: &Schema, dialect: Dialect, text: &str) -> Diagnostic {
    match admit(schema, dialect, text.as_bytes()) {
        Ok(d) => panic!("admitted {text}: {}", d.canonical),
        Err(e) => {
            // The streaming admitter, in every chunking: the same refusal.
            spx_tests::stream::check_admit(schema, dialect, text.as_bytes(), &Err(e.clone()));
            e
        }
    }
}

fn pointer(e: &Diagnostic) -> &str {
    match &e.location {
        Location::Pointer(p) => p,
        other => panic!("no pointer: {other:?}"),
    }
}

#[test]
fn the_detail_speaks_to_the_model() {
    let e = refuse(
        &confidence(),
        Dialect::OpenAi,
        r#"{"fields": {"planner.cost.amount": "1", "planner.cost.confidence": "300"}}"#,
    );
    assert_eq!((e.code, e.rule), (Code::Z206, "value.integer_range"));
    assert_eq!(pointer(&e), "/fields/planner.cost.confidence");
    assert_eq!(
        e.detail.as_deref(),
        Some(
            r#"/fields/planner.cost.confidence: expected a decimal string integer between 0 and 255, got "300""#
        )
    );
    assert_eq!(
        e.message,
        "AgentInteractionValue invariant failed: value.integer_range"
    );
}

#[test]
fn admitted_value_is_canonical() {
    let schema = confidence();
    let d = admit(
        &schema,
        Dialect::Gemini,
        b" {\n  \"fields\" : {\"planner.cost.confidence\":\"7\" ,\"planner.cost.amount\":\"18446744073709551615\"}}\n\n",
    )
    .unwrap();
    let expected = format!(
        "{{\"schema\":\"semaprax.agent-interaction-value.v1\",\"root_type_id\":\"planner.cost\",\"schema_digest\":\"{}\",\"value\":{{\"fields\":{{\"planner.cost.amount\":\"18446744073709551615\",\"planner.cost.confidence\":\"7\"}}}}}}\n",
        schema.digest()
    );
    assert_eq!(d.canonical, expected);
    // A leading byte order mark is ignored (RFC 8259 §8.1).
    let with_bom =
        "\u{feff}{\"fields\":{\"planner.cost.amount\":\"0\",\"planner.cost.confidence\":\"0\"}}";
    assert!(admit(&schema, Dialect::Draft2020, with_bom.as_bytes()).is_ok());
}

#[test]
fn variant_roots_are_unwrapped_where_the_dialect_wraps() {
    let schema = variants();
    let bare = r#"{"case":"planner.step.stop","fields":{}}"#;
    let wrapped = r#"{"value":{"case":"planner.step.stop","fields":{}}}"#;
    for d in [Dialect::OpenAi, Dialect::Anthropic] {
        let a = admit(&schema, d, wrapped.as_bytes()).unwrap();
        let b = admit(&schema, Dialect::Gemini, bare.as_bytes()).unwrap();
        assert_eq!(a, b);
        let e = refuse(&schema, d, bare);
        assert_eq!(
            (e.code, e.rule, pointer(&e)),
            (Code::Z205, "value.shape", "/case")
        );
        let e = refuse(&schema, d, "[]");
        assert_eq!(
            (e.code, e.rule, pointer(&e)),
            (Code::Z205, "value.shape", "")
        );
        let e = refuse(&schema, d, "{}");
        assert_eq!(
            (e.code, e.rule, pointer(&e)),
            (Code::Z205, "value.shape", "/value")
        );
        let e = refuse(
            &schema,
            d,
            r#"{"value":{"case":"planner.step.nope","fields":{}}}"#,
        );
        assert_eq!(
            (e.code, e.rule, pointer(&e)),
            (Code::Z206, "value.case", "/value/case")
        );
    }
    for d in [Dialect::Draft2020, Dialect::Gemini] {
        let e = refuse(&schema, d, wrapped);
        assert_eq!(
            (e.code, e.rule, pointer(&e)),
            (Code::Z205, "value.shape", "/value")
        );
    }
    // Records are never wrapped.
    let e = refuse(
        &confidence(),
        Dialect::OpenAi,
        r#"{"value":{"fields":{"planner.cost.amount":"1","planner.cost.confidence":"3"}}}"#,
    );
    assert_eq!((e.rule, pointer(&e)), ("value.shape", "/value"));
}

#[test]
fn duplicates_are_refused_at_every_level() {
    let schema = variants();
    let cases = [
        (
            r#"{"value":{"case":"planner.step.stop","fields":{}},"value":{"case":"planner.step.stop","fields":{}}}"#,
            "/value",
        ),
        (
            r#"{"value":{"case":"planner.step.stop","case":"planner.step.stop","fields":{}}}"#,
            "/value/case",
        ),
        (
            r#"{"value":{"case":"planner.step.stop","fields":{},"fields":{}}}"#,
            "/value/fields",
        ),
        (
            r#"{"value":{"case":"planner.step.say","fields":{"planner.step.say.text":"a","planner.step.say.loud":true,"planner.step.say.text":"a"}}}"#,
            "/value/fields/planner.step.say.text",
        ),
        (
            r#"{"value":{"case":"planner.step.plan","fields":{"planner.step.plan.cost":{"fields":{"planner.cost.amount":"1","planner.cost.confidence":"2"},"fields":{}},"planner.step.plan.mode":{"case":"planner.mode.fast","fields":{}},"planner.step.plan.delta":"0"}}}"#,
            "/value/fields/planner.step.plan.cost/fields",
        ),
        (
            r#"{"value":{"case":"planner.step.plan","fields":{"planner.step.plan.cost":{"fields":{"planner.cost.amount":"1","planner.cost.confidence":"2","planner.cost.amount":"1"}},"planner.step.plan.mode":{"case":"planner.mode.fast","fields":{}},"planner.step.plan.delta":"0"}}}"#,
            "/value/fields/planner.step.plan.cost/fields/planner.cost.amount",
        ),
        (
            r#"{"value":{"case":"planner.step.plan","fields":{"planner.step.plan.cost":{"fields":{"planner.cost.amount":"1","planner.cost.confidence":"2"}},"planner.step.plan.mode":{"fields":{},"case":"planner.mode.fast","fields":{}},"planner.step.plan.delta":"0"}}}"#,
            "/value/fields/planner.step.plan.mode/fields",
        ),
        // The same key spelled with an escape is the same key.
        (
            r#"{"value":{"case":"planner.step.stop","fields":{},"\u0066ields":{}}}"#,
            "/value/fields",
        ),
    ];
    for (text, at) in cases {
        let e = refuse(&schema, Dialect::OpenAi, text);
        assert_eq!((e.code, e.rule), (Code::Z205, "duplicate_key"), "{text}");
        assert_eq!(pointer(&e), at, "{text}");
        assert!(e
            .detail
            .as_deref()
            .unwrap()
            .starts_with(&format!("{at}: the key ")));
    }
    // Without the duplicate, the last document is admitted.
    assert!(admit(
        &schema,
        Dialect::OpenAi,
        br#"{"value":{"case":"planner.step.stop","fields":{}}}"#
    )
    .is_ok());
    // Duplicates in an escaped-id fixture point with escaped tokens.
    let e = refuse(
        &escaping(),
        Dialect::Gemini,
        r#"{"fields":{"f/1":{"fields":{"x/y~z":"1","x/y~z":"1"}}}}"#,
    );
    assert_eq!(pointer(&e), "/fields/f~11/fields/x~1y~0z");
}

/// (text, code, rule, pointer, detail) for the `scalars` fixture, Gemini.
fn scalar_doc(overrides: &[(&str, &str)]) -> String {
    let mut fields = vec![
        ("demo.all.b", "true".to_string()),
        ("demo.all.i32", "\"-5\"".into()),
        ("demo.all.i64", "\"5\"".into()),
        ("demo.all.u8", "\"255\"".into()),
        ("demo.all.u64", "\"0\"".into()),
        ("demo.all.s", "\"hi\"".into()),
        ("demo.all.bytes", "[0,1,255]".into()),
        (
            "demo.all.inner",
            "{\"fields\":{\"demo.inner.flag\":false}}".into(),
        ),
    ];
    for (k, v) in overrides {
        match fields.iter_mut().find(|(id, _)| id == k) {
            Some(slot) => slot.1 = v.to_string(),
            None => fields.push((k, v.to_string())),
        }
    }
    let body: Vec<String> = fields
        .iter()
        .filter(|(_, v)| v != "<absent>")
        .map(|(k, v)| format!("\"{k}\":{v}"))
        .collect();
    format!("{{\"fields\":{{{}}}}}", body.join(","))
}

/// (field overrides, rule, pointer, exact detail after the pointer or "").
type RuleCase<'a> = (Vec<(&'a str, &'a str)>, &'a str, &'a str, &'a str);

#[test]
fn every_value_rule_is_refused_with_its_pointer_like_the_decoder() {
    let schema = scalars();
    assert!(admit(&schema, Dialect::Gemini, scalar_doc(&[]).as_bytes()).is_ok());
    let long = format!("\"{}\"", "x".repeat(4097));
    let many = format!("[{}]", vec!["0"; 4097].join(","));
    let cases: Vec<RuleCase> = vec![
        (vec![("demo.all.b", "\"true\"")], "value.representation", "/fields/demo.all.b", "expected true or false, got \"true\""),
        (vec![("demo.all.b", "null")], "value.representation", "/fields/demo.all.b", "expected true or false, got null"),
        (vec![("demo.all.i32", "-5")], "value.representation", "/fields/demo.all.i32", "expected a decimal string integer between -2147483648 and 2147483647, got -5"),
        (vec![("demo.all.i32", "\"2147483648\"")], "value.integer_range", "/fields/demo.all.i32", "expected a decimal string integer between -2147483648 and 2147483647, got \"2147483648\""),
        (vec![("demo.all.i64", "\"007\"")], "value.integer", "/fields/demo.all.i64", "expected a decimal string integer between -9223372036854775808 and 9223372036854775807 (digits with an optional leading \"-\", no \"+\", no leading zeros, not \"-0\"), got \"007\""),
        (vec![("demo.all.i64", "\"-0\"")], "value.integer", "/fields/demo.all.i64", ""),
        (vec![("demo.all.i64", "\"+1\"")], "value.integer", "/fields/demo.all.i64", ""),
        (vec![("demo.all.i64", "\"1e3\"")], "value.integer", "/fields/demo.all.i64", ""),
        (vec![("demo.all.u8", "\"-1\"")], "value.integer_range", "/fields/demo.all.u8", ""),
        (vec![("demo.all.u64", "\"18446744073709551616\"")], "value.integer_range", "/fields/demo.all.u64", ""),
        (vec![("demo.all.s", "7")], "value.representation", "/fields/demo.all.s", "expected a string of at most 4096 UTF-8 bytes, got 7"),
        (vec![("demo.all.s", long.as_str())], "value.string_bytes", "/fields/demo.all.s", "expected a string of at most 4096 UTF-8 bytes, got a string of 4097 UTF-8 bytes"),
        (vec![("demo.all.bytes", "\"AAE=\"")], "value.representation", "/fields/demo.all.bytes", ""),
        (vec![("demo.all.bytes", many.as_str())], "value.bytes_length", "/fields/demo.all.bytes", "expected an array of at most 4096 integers from 0 to 255, got an array of 4097 elements"),
        (vec![("demo.all.bytes", "[0,1.0]")], "value.bytes_element", "/fields/demo.all.bytes/1", "expected an integer from 0 to 255 written with digits only (no sign, fraction or exponent), got 1.0"),
        (vec![("demo.all.bytes", "[-0]")], "value.bytes_element", "/fields/demo.all.bytes/0", ""),
        (vec![("demo.all.bytes", "[256]")], "value.bytes_element", "/fields/demo.all.bytes/0", ""),
        (vec![("demo.all.bytes", "[1,-1]")], "value.bytes_element", "/fields/demo.all.bytes/1", ""),
        (vec![("demo.all.bytes", "[1e0]")], "value.bytes_element", "/fields/demo.all.bytes/0", ""),
        (vec![("demo.all.bytes", "[\"1\"]")], "value.bytes_element", "/fields/demo.all.bytes/0", ""),
        (vec![("demo.all.extra", "1")], "value.fields.unknown", "/fields/demo.all.extra", ""),
        (vec![("demo.all.u8", "<absent>")], "value.fields.missing", "/fields/demo.all.u8", "the field is missing; expected a decimal string integer between 0 and 255"),
        // An error in an earlier field wins over a later missing one.
        (vec![("demo.all.b", "1"), ("demo.all.u8", "<absent>")], "value.representation", "/fields/demo.all.b", ""),
        // An unknown field wins over everything else in its object.
        (vec![("demo.all.b", "1"), ("zzz", "1")], "value.fields.unknown", "/fields/zzz", ""),
        (vec![("demo.all.inner", "{\"fields\":{\"demo.inner.flag\":0}}")], "value.representation", "/fields/demo.all.inner/fields/demo.inner.flag", ""),
        (vec![("demo.all.inner", "{\"fields\":{}}")], "value.fields.missing", "/fields/demo.all.inner/fields/demo.inner.flag", ""),
    ];
    for (overrides, rule, at, detail) in cases {
        let text = scalar_doc(&overrides);
        // An unknown key after a bad field: the stream refuses the field
        // first (docs/DECODING.md, "Streaming").
        let _multi = overrides
            .iter()
            .any(|(k, _)| *k == "zzz")
            .then(spx_tests::stream::may_differ);
        let e = refuse(&schema, Dialect::Gemini, &text);
        assert_eq!(
            (e.code, e.rule, pointer(&e)),
            (Code::Z206, rule, at),
            "{overrides:?}"
        );
        let d = e.detail.clone().unwrap();
        assert!(d.starts_with(&format!("{at}: ")), "{d}");
        if !detail.is_empty() {
            assert_eq!(d, format!("{at}: {detail}"));
        }
        // The strict decoder names the same rule at the same place.
        let doc = format!(
            "{{\"schema\":\"semaprax.agent-interaction-value.v1\",\"root_type_id\":\"demo.all\",\"schema_digest\":\"{}\",\"value\":{text}}}\n",
            schema.digest()
        );
        let strict = spx_schema::decode::decode(&schema, doc.as_bytes()).unwrap_err();
        assert_eq!(
            (strict.code, strict.rule, strict.location.clone()),
            (Code::Z206, rule, Location::Pointer(format!("/value{at}"))),
            "decoder disagrees on {text}"
        );
    }
}

#[test]
fn shape_errors_are_z205_like_the_decoder() {
    let schema = variants();
    let cases = [
        ("[]", ""),
        (r#"{"fields":{}}"#, "/case"),
        (r#"{"case":"planner.step.stop","fields":{},"x":1}"#, "/x"),
        (r#"{"case":1,"fields":{}}"#, "/case"),
        (r#"{"case":"planner.step.stop","fields":[]}"#, "/fields"),
        (
            r#"{"case":"planner.step.plan","fields":{"planner.step.plan.cost":[],"planner.step.plan.mode":{"case":"planner.mode.fast","fields":{}},"planner.step.plan.delta":"0"}}"#,
            "/fields/planner.step.plan.cost",
        ),
        (
            r#"{"case":"planner.step.plan","fields":{"planner.step.plan.cost":{"fields":{"planner.cost.amount":"1","planner.cost.confidence":"2"}},"planner.step.plan.mode":{"case":"planner.mode.fast"},"planner.step.plan.delta":"0"}}"#,
            "/fields/planner.step.plan.mode/fields",
        ),
    ];
    for (text, at) in cases {
        let e = refuse(&schema, Dialect::Gemini, text);
        assert_eq!(
            (e.code, e.rule, pointer(&e)),
            (Code::Z205, "value.shape", at),
            "{text}"
        );
        assert!(e.detail.unwrap().contains("expected"));
        let doc = format!(
            "{{\"schema\":\"semaprax.agent-interaction-value.v1\",\"root_type_id\":\"planner.step\",\"schema_digest\":\"{}\",\"value\":{text}}}\n",
            schema.digest()
        );
        let strict = spx_schema::decode::decode(&schema, doc.as_bytes()).unwrap_err();
        assert_eq!(strict.code, Code::Z205, "{text}");
    }
}

#[test]
fn document_level_refusals() {
    let schema = confidence();
    let ok = r#"{"fields":{"planner.cost.amount":"1","planner.cost.confidence":"2"}}"#;
    // Exactly 65536 bytes is admitted; one more is refused before parsing.
    let padded = format!("{ok}{}", " ".repeat(65536 - ok.len()));
    assert!(admit(&schema, Dialect::OpenAi, padded.as_bytes()).is_ok());
    let e = refuse(&schema, Dialect::OpenAi, &format!("{padded} "));
    assert_eq!(
        (e.code, e.rule, pointer(&e)),
        (Code::Z206, "document_bytes", "")
    );
    let e = refuse(
        &schema,
        Dialect::OpenAi,
        &format!("{{{}", " ".repeat(65536)),
    );
    assert_eq!(e.rule, "document_bytes");

    let e = admit(&schema, Dialect::OpenAi, b"{\"fields\":\xff}").unwrap_err();
    assert_eq!((e.code, e.rule, pointer(&e)), (Code::Z206, "utf8", ""));
    assert_eq!(
        e.detail.as_deref(),
        Some("the response is not UTF-8: invalid byte sequence at byte 10")
    );

    for (text, at) in [
        ("", ""),
        ("{\"fields\":{\"planner.cost.amount\":\"1\",}}", "/fields"),
        (
            "{\"fields\":{\"planner.cost.amount\":\"1\" \"x\"}}",
            "/fields/planner.cost.amount",
        ),
        ("{\"fields\":[1,]}", "/fields/1"),
        (
            "{\"fields\":{\"planner.cost.amount\":01}}",
            "/fields/planner.cost.amount",
        ),
        (
            "{\"fields\":{\"planner.cost.amount\":\"\\ud800\"}}",
            "/fields/planner.cost.amount",
        ),
        ("{\"fields\":{}} x", ""),
        ("```json\n{}\n```", ""),
    ] {
        // An array where the fields belong, or a missing field, before
        // the syntax error: the stream names the first.
        let _multi = ["{\"fields\":[1,]}", "{\"fields\":{}} x"]
            .contains(&text)
            .then(spx_tests::stream::may_differ);
        let e = refuse(&schema, Dialect::OpenAi, text);
        assert_eq!(
            (e.code, e.rule, pointer(&e)),
            (Code::Z205, "json.syntax", at),
            "{text}"
        );
        assert!(e.detail.unwrap().contains("not valid JSON at line"));
    }
    let e = refuse(
        &schema,
        Dialect::OpenAi,
        "{\n  \"fields\": {\n    \"planner.cost.amount\": tru\n}}",
    );
    assert_eq!(
        e.detail.as_deref(),
        Some("/fields/planner.cost.amount: not valid JSON at line 3, column 28 (byte 43): expected a JSON value, found \"t\"")
    );

    // Nesting is bounded without recursion; a valid value never nests
    // deeper than MAX_JSON_NESTING.
    assert_eq!(MAX_JSON_NESTING, 36);
    let deep = format!(
        "{{\"fields\":{{\"planner.cost.amount\":{}}}}}",
        "[".repeat(100_000 / 2)
    );
    // An array where a u64 belongs, nested deeper than 36: the stream
    // refuses at its first bracket.
    let multi = spx_tests::stream::may_differ();
    let e = refuse(&schema, Dialect::OpenAi, &deep[..65536.min(deep.len())]);
    drop(multi);
    assert_eq!((e.code, e.rule), (Code::Z206, "value.max_depth"));
    assert_eq!(
        pointer(&e),
        format!(
            "/fields/planner.cost.amount{}",
            "/0".repeat(MAX_JSON_NESTING - 2)
        )
    );
}

#[test]
fn the_deepest_valid_value_fits_the_nesting_bound() {
    // A variant root and 16 nested records (depth 0 to 16) ending in a
    // Bytes field, wrapped: exactly MAX_JSON_NESTING containers deep.
    let mut types = vec![record("n0", vec![scalar("n0.raw", Repr::Bytes)])];
    for i in 1..=15 {
        types.push(record(
            &format!("n{i}"),
            vec![nested(&format!("n{i}.next"), i - 1)],
        ));
    }
    // The root variant is depth 0, n15 depth 1, …, n0 depth 16.
    types.push(variant(
        "top",
        vec![("top.only", vec![nested("top.only.next", 15)])],
    ));
    let schema = schema(types);
    let mut inner = "{\"fields\":{\"n0.raw\":[1]}}".to_string();
    for i in 1..=15 {
        inner = format!("{{\"fields\":{{\"n{i}.next\":{inner}}}}}");
    }
    let text =
        format!("{{\"value\":{{\"case\":\"top.only\",\"fields\":{{\"top.only.next\":{inner}}}}}}}");
    let depth = text.bytes().filter(|&b| b == b'{' || b == b'[').count();
    assert_eq!(depth, MAX_JSON_NESTING);
    let d = admit(&schema, Dialect::OpenAi, text.as_bytes()).unwrap();
    assert!(d.canonical.ends_with(&format!(
        ",\"value\":{{\"case\":\"top.only\",\"fields\":{{\"top.only.next\":{inner}}}}}}}\n"
    )));
    // One more level of containers is refused.
    let e = refuse(&schema, Dialect::OpenAi, &text.replace("[1]", "[[1]]"));
    assert_eq!((e.code, e.rule), (Code::Z206, "value.max_depth"));
}
