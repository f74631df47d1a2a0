//! Provider projections: golden bytes of every dialect for every fixture,
//! the byte-exact FORMAT.md §8 rendering, each dialect's own rules, OpenAI's
//! limits, and the property that every value the decoder admits validates
//! against every projection.

#[path = "project/fixtures.rs"]
mod fixtures;

use fixtures::*;
use proptest::prelude::*;
use serde_json::Value as J;
use spx_schema::graph::{FieldType, Repr};
use spx_schema::project::{
    self, draft2020, integer_pattern, project, ref_to, schema_name, Dialect, IntegerPattern,
    LossAction,
};
use spx_schema::Schema;

fn golden(name: &str, actual: &str) {
    spx_tests::golden(&format!("golden/project/{name}"), actual);
}

#[test]
fn goldens_of_every_dialect() {
    let mut names = String::new();
    for (fixture, schema) in all() {
        for dialect in Dialect::JSON_SCHEMA {
            let p = project(&schema, dialect).unwrap();
            golden(&format!("{fixture}.{dialect}.json"), &p.document);
            golden(
                &format!("{fixture}.{dialect}.losses.json"),
                &p.losses_json(),
            );
            golden(&format!("{fixture}.{dialect}.keys.json"), &p.renames_json());
            names.push_str(&format!(
                "{fixture} {dialect} {}\n",
                p.schema_name.as_deref().unwrap_or("-")
            ));
        }
    }
    golden("names.txt", &names);
}

#[test]
fn draft2020_is_exactly_format_section_8() {
    // Written by hand from FORMAT.md §8, byte by byte.
    let schema = schema(vec![
        record("p.inner", vec![]),
        variant(
            "p.v",
            vec![
                ("p.v.a", vec![]),
                (
                    "p.v.b",
                    vec![
                        scalar("p.v.b.flag", Repr::Bool),
                        scalar("p.v.b.n", Repr::I32),
                        scalar("p.v.b.s", Repr::String),
                        scalar("p.v.b.raw", Repr::Bytes),
                        nested("p.v.b.in", 0),
                    ],
                ),
            ],
        ),
    ]);
    let expected = concat!(
        r##"{"$schema":"https://json-schema.org/draft/2020-12/schema","$id":"urn:semaprax.agent-interaction-schema.v1:p.v","$defs":{"##,
        r##""p.inner":{"type":"object","additionalProperties":false,"required":["fields"],"properties":{"fields":{"type":"object","additionalProperties":false,"required":[],"properties":{}}}},"##,
        r##""p.v":{"oneOf":["##,
        r##"{"type":"object","additionalProperties":false,"required":["case","fields"],"properties":{"case":{"const":"p.v.a"},"fields":{"type":"object","additionalProperties":false,"required":[],"properties":{}}}},"##,
        r##"{"type":"object","additionalProperties":false,"required":["case","fields"],"properties":{"case":{"const":"p.v.b"},"fields":{"type":"object","additionalProperties":false,"required":["p.v.b.flag","p.v.b.n","p.v.b.s","p.v.b.raw","p.v.b.in"],"properties":{"##,
        r##""p.v.b.flag":{"type":"boolean"},"##,
        r##""p.v.b.n":{"type":"string","pattern":"^-?[0-9]+$","x-representation":"i32","x-minimum":"-2147483648","x-maximum":"2147483647"},"##,
        r##""p.v.b.s":{"type":"string","maxLength":4096},"##,
        r##""p.v.b.raw":{"type":"array","items":{"type":"integer","minimum":0,"maximum":255},"maxItems":4096},"##,
        r##""p.v.b.in":{"$ref":"#/$defs/p.inner"}}}}}]}},"##,
        r##""$ref":"#/$defs/p.v"}"##,
        "\n"
    );
    assert_eq!(draft2020(&schema), expected);
    let p = project(&schema, Dialect::Draft2020).unwrap();
    assert_eq!(p.document, expected);
    assert!(p.losses.is_empty());
    assert_eq!(p.losses_json(), "[]\n");
    assert_eq!(p.schema_name, None);
}

#[test]
fn refs_are_escaped_but_keys_and_id_stay_raw() {
    assert_eq!(ref_to("a/b~c"), "#/$defs/a~1b~0c");
    assert_eq!(ref_to("100%"), "#/$defs/100%25");
    assert_eq!(ref_to("é"), "#/$defs/%C3%A9");
    assert_eq!(ref_to("with space"), "#/$defs/with%20space");
    assert_eq!(
        ref_to("A-z.0_~!$&'()*+,;=:@/?"),
        "#/$defs/A-z.0_~0!$&'()*+,;=:@~1?"
    );
    assert_eq!(
        ref_to("\"#[]{}\\^`|<>\u{7f}"),
        "#/$defs/%22%23%5B%5D%7B%7D%5C%5E%60%7C%3C%3E%7F"
    );
    let doc = draft2020(&escaping());
    assert!(doc.contains(r##""$id":"urn:semaprax.agent-interaction-schema.v1:with space""##));
    assert!(doc.contains(r##""$defs":{"a/b~c":{"##));
    assert!(doc.contains(r##""100%":{"##));
    assert!(doc.contains(r##""f/1":{"$ref":"#/$defs/a~1b~0c"}"##));
    assert!(doc.contains(r##""f~2":{"$ref":"#/$defs/100%25"}"##));
    assert!(doc.contains(r##""f é":{"$ref":"#/$defs/%C3%A9"}"##));
    assert!(doc.contains(r##""tab\tnew\nline":{"##));
    assert!(doc.contains(r##""\"quoted\"\\":{"type":"boolean"}"##));
    assert!(doc.ends_with("\"$ref\":\"#/$defs/with%20space\"}\n"));
}

#[test]
fn dialect_names_round_trip() {
    for d in Dialect::JSON_SCHEMA {
        assert_eq!(d.to_string().parse::<Dialect>().unwrap(), d);
    }
    assert_eq!("openai".parse::<Dialect>().unwrap(), Dialect::OpenAi);
    let e = "OpenAI".parse::<Dialect>().unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown dialect `OpenAI`: expected one of draft2020, openai, anthropic, gemini"
    );
}

/// Every schema object of a document with its JSON Pointer.
fn schemas<'a>(v: &'a J, ptr: String, out: &mut Vec<(String, &'a J)>) {
    out.push((ptr.clone(), v));
    let J::Object(m) = v else { return };
    for (k, sub) in m {
        let tok = |t: &str| t.replace('~', "~0").replace('/', "~1");
        match (k.as_str(), sub) {
            ("properties" | "$defs", J::Object(props)) => {
                for (name, s) in props {
                    schemas(s, format!("{ptr}/{k}/{}", tok(name)), out);
                }
            }
            ("anyOf" | "oneOf", J::Array(items)) => {
                for (i, s) in items.iter().enumerate() {
                    schemas(s, format!("{ptr}/{k}/{i}"), out);
                }
            }
            ("items", s) => schemas(s, format!("{ptr}/items"), out),
            _ => {}
        }
    }
}

fn parse(doc: &str) -> J {
    assert!(doc.ends_with('\n'), "ends with LF");
    let body = &doc[..doc.len() - 1];
    // No whitespace outside strings.
    let mut in_str = false;
    let mut esc = false;
    for c in body.chars() {
        if in_str {
            match (esc, c) {
                (true, _) => esc = false,
                (false, '\\') => esc = true,
                (false, '"') => in_str = false,
                _ => {}
            }
        } else if c == '"' {
            in_str = true;
        } else {
            assert!(!c.is_whitespace(), "whitespace outside strings in {body}");
        }
    }
    serde_json::from_str(body).unwrap()
}

fn keys<'a>(v: &'a J, key: &str) -> Vec<&'a J> {
    let mut all = Vec::new();
    schemas(v, String::new(), &mut all);
    all.into_iter().filter_map(|(_, s)| s.get(key)).collect()
}

fn has_x(v: &J) -> bool {
    let mut all = Vec::new();
    schemas(v, String::new(), &mut all);
    all.iter().any(|(_, s)| {
        s.as_object()
            .is_some_and(|m| m.keys().any(|k| k.starts_with("x-")))
    })
}

fn check_common(doc: &J, name: &str) {
    for banned in ["oneOf", "$schema", "$id"] {
        assert!(keys(doc, banned).is_empty(), "{name}: {banned} present");
    }
    assert!(!has_x(doc), "{name}: x-* present");
    assert!(doc.get("$ref").is_none(), "{name}: root is a bare $ref");
}

fn check_closed(doc: &J, name: &str) {
    assert_eq!(doc["type"], "object", "{name}: root type");
    let mut all = Vec::new();
    schemas(doc, String::new(), &mut all);
    for (ptr, s) in all {
        if s.get("$ref").is_some() {
            assert_eq!(
                s.as_object().unwrap().len(),
                1,
                "{name}{ptr}: $ref siblings"
            );
        }
        if s.get("type") == Some(&J::from("object")) {
            assert_eq!(s["additionalProperties"], false, "{name}{ptr}");
            let mut props: Vec<&String> = s["properties"].as_object().unwrap().keys().collect();
            let mut req: Vec<&String> = s["required"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| match r {
                    J::String(s) => s,
                    _ => panic!("required not strings"),
                })
                .collect();
            props.sort();
            req.sort();
            assert_eq!(props, req, "{name}{ptr}: every property required");
        }
    }
}

#[test]
fn each_dialect_keeps_its_own_rules() {
    let name_re = |n: &str| {
        !n.is_empty()
            && n.len() <= 64
            && n.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    };
    for (fixture, schema) in all() {
        let has_ints = fixture != "empty";
        // OpenAI
        let p = project(&schema, Dialect::OpenAi).unwrap();
        let doc = parse(&p.document);
        let name = format!("{fixture}/openai");
        check_common(&doc, &name);
        check_closed(&doc, &name);
        assert!(keys(&doc, "maxLength").is_empty(), "{name}");
        assert!(name_re(p.schema_name.as_deref().unwrap()), "{name}");
        if has_ints {
            assert!(!keys(&doc, "pattern").is_empty(), "{name}: pattern kept");
            assert!(!keys(&doc, "description").is_empty(), "{name}");
        }
        if fixture == "scalars" {
            for kept in ["maxItems", "minimum", "maximum"] {
                assert!(!keys(&doc, kept).is_empty(), "{name}: {kept} kept");
            }
        }
        // Anthropic
        let p = project(&schema, Dialect::Anthropic).unwrap();
        let doc = parse(&p.document);
        let name = format!("{fixture}/anthropic");
        check_common(&doc, &name);
        check_closed(&doc, &name);
        for banned in ["minimum", "maximum", "maxLength", "maxItems"] {
            assert!(keys(&doc, banned).is_empty(), "{name}: {banned}");
        }
        assert!(name_re(p.schema_name.as_deref().unwrap()), "{name}");
        if has_ints {
            // Issue 14: the integer pattern is as strict as the decoder's
            // canonical form, with a digit-count bound.
            let digits: Vec<String> = [Repr::I32, Repr::I64, Repr::U8, Repr::U64]
                .map(|r| integer_pattern(r, IntegerPattern::Digits))
                .to_vec();
            let found = keys(&doc, "pattern");
            assert!(!found.is_empty(), "{name}");
            for p in found {
                assert!(digits.iter().any(|d| p == d), "{name}: {p}");
            }
        }
        // Gemini
        let p = project(&schema, Dialect::Gemini).unwrap();
        let doc = parse(&p.document);
        let name = format!("{fixture}/gemini");
        check_common(&doc, &name);
        assert_eq!(p.schema_name, None);
        for banned in ["const", "pattern", "maxLength"] {
            assert!(keys(&doc, banned).is_empty(), "{name}: {banned}");
        }
        let mut all = Vec::new();
        schemas(&doc, String::new(), &mut all);
        for (ptr, s) in all {
            if let Some(props) = s.get("properties") {
                // serde_json sorts object keys, so compare with `required`,
                // which the canonical projection writes in declaration order.
                assert_eq!(s["propertyOrdering"], s["required"], "{name}{ptr}");
                assert_eq!(
                    s["propertyOrdering"].as_array().unwrap().len(),
                    props.as_object().unwrap().len()
                );
            }
        }
        if fixture == "scalars" {
            for kept in ["maxItems", "minimum", "maximum"] {
                assert!(!keys(&doc, kept).is_empty(), "{name}: {kept} kept");
            }
        }
    }
}

#[test]
fn gemini_property_ordering_is_declaration_order() {
    let p = project(&scalars(), Dialect::Gemini).unwrap();
    assert!(p.document.contains(r#""propertyOrdering":["demo.all.b","demo.all.i32","demo.all.i64","demo.all.u8","demo.all.u64","demo.all.s","demo.all.bytes","demo.all.inner"]"#));
    let p = project(&variants(), Dialect::Gemini).unwrap();
    assert!(p
        .document
        .contains(r#""case":{"enum":["planner.step.stop"]}"#));
    assert!(p.document.starts_with(r#"{"anyOf":[{"type":"object""#));
}

#[test]
fn variant_roots_are_wrapped_for_openai_and_anthropic_only() {
    let schema = variants();
    for d in [Dialect::OpenAi, Dialect::Anthropic] {
        assert!(d.wraps_root(&schema));
        let p = project(&schema, d).unwrap();
        assert!(
            p.document.starts_with(r#"{"type":"object","additionalProperties":false,"required":["value"],"properties":{"value":{"anyOf":["#),
            "{d}: {}",
            p.document
        );
    }
    for d in [Dialect::Draft2020, Dialect::Gemini] {
        assert!(!d.wraps_root(&schema));
    }
    for d in Dialect::JSON_SCHEMA {
        assert!(!d.wraps_root(&scalars()));
    }
    let p = project(&scalars(), Dialect::OpenAi).unwrap();
    assert!(p.document.starts_with(r#"{"type":"object","additionalProperties":false,"required":["fields"],"properties":{"fields":"#));
    assert!(p.document.contains(r##""$defs":{"demo.inner":"##));
    assert!(
        !p.document.contains(r##""demo.all":"##),
        "root def inlined, not kept"
    );
}

#[test]
fn losses_name_every_dropped_keyword() {
    for (fixture, schema) in all() {
        for dialect in [Dialect::OpenAi, Dialect::Anthropic, Dialect::Gemini] {
            let p = project(&schema, dialect).unwrap();
            let doc = parse(&p.document);
            let report: J = serde_json::from_str(&p.losses_json()).unwrap();
            assert_eq!(report.as_array().unwrap().len(), p.losses.len());
            for (l, r) in p.losses.iter().zip(report.as_array().unwrap()) {
                assert_eq!(r["pointer"], l.pointer.as_str());
                assert_eq!(r["keyword"], l.keyword.as_str());
                assert_eq!(r["action"], l.action.as_str());
                assert!(!l.guarantee.is_empty());
                let at = doc.pointer(&l.pointer).unwrap_or_else(|| {
                    panic!("{fixture}/{dialect}: {} not in document", l.pointer)
                });
                assert!(
                    at.get(&l.keyword).is_none(),
                    "{fixture}/{dialect}: {l:?} still there"
                );
                match (l.keyword.as_str(), l.action) {
                    ("oneOf", LossAction::Rewritten) => assert!(at.get("anyOf").is_some()),
                    ("const", LossAction::Rewritten) => {
                        assert_eq!(at["enum"].as_array().unwrap().len(), 1)
                    }
                    (k, LossAction::Rewritten) if k.starts_with("x-") => {
                        assert!(at["description"]
                            .as_str()
                            .unwrap()
                            .contains("decimal string"))
                    }
                    (k, LossAction::Dropped) => assert!(
                        [
                            "$schema",
                            "$id",
                            "maxLength",
                            "minimum",
                            "maximum",
                            "maxItems",
                            "pattern"
                        ]
                        .contains(&k),
                        "{k}"
                    ),
                    ("$ref", LossAction::Rewritten) => assert_eq!(l.pointer, ""),
                    other => panic!("unexpected loss {other:?}"),
                }
            }
            // Every keyword the dialect lacks is reported at least once.
            let draft = draft2020(&schema);
            for kw in [
                "maxLength",
                "maxItems",
                "minimum",
                "pattern",
                "x-representation",
                "oneOf",
                "const",
            ] {
                let in_draft = draft.contains(&format!("\"{kw}\":"));
                let in_doc = keys(&doc, kw).len();
                if in_draft && in_doc == 0 {
                    assert!(
                        p.losses.iter().any(|l| l.keyword == kw),
                        "{fixture}/{dialect}: {kw} lost silently"
                    );
                }
            }
        }
    }
    let p = project(&scalars(), Dialect::Anthropic).unwrap();
    let l = p.losses.iter().find(|l| l.keyword == "maxItems").unwrap();
    assert_eq!(l.pointer, "/properties/fields/properties/demo.all.bytes");
    assert_eq!(l.action, LossAction::Dropped);
    assert!(l.guarantee.contains("value.bytes_length"));
}

#[test]
fn schema_names_are_valid_and_distinct() {
    assert_eq!(schema_name("planner-v2_x"), "planner-v2_x");
    let a = schema_name("geo.point");
    let b = schema_name("geo_point");
    assert_eq!(b, "geo_point");
    assert!(a.starts_with("geo_point-") && a.len() == 22, "{a}");
    assert_ne!(schema_name("a.b"), schema_name("a:b"));
    let long = schema_name(&"x".repeat(65));
    assert_eq!(long.len(), 64);
    assert!(long.starts_with(&"x".repeat(51)));
    assert_ne!(long, schema_name(&"x".repeat(66)));
    let e = schema_name("é");
    assert!(e.starts_with("_-") && e.len() == 14, "{e}");
    let empty = schema_name("");
    assert_eq!(empty.len(), 13);
}

fn chain(n: usize) -> Schema {
    let mut types = vec![record("c0", vec![scalar("c0.v", Repr::Bool)])];
    for i in 1..n {
        types.push(record(
            &format!("c{i}"),
            vec![nested(&format!("c{i}.next"), i - 1)],
        ));
    }
    schema(types)
}

#[test]
fn openai_limits_refuse_with_z207() {
    assert!(project(&chain(5), Dialect::OpenAi).is_ok());
    let e = project(&chain(6), Dialect::OpenAi).unwrap_err();
    assert_eq!((e.code, e.rule), (project::Z207, "openai.max_nesting"));
    assert_eq!(e.code.as_str(), "SPX-Z207");
    assert!(e.detail.unwrap().starts_with("12 nested object levels"));
    // The other dialects do not refuse.
    for d in [Dialect::Draft2020, Dialect::Anthropic, Dialect::Gemini] {
        assert!(project(&chain(6), d).is_ok());
    }

    let cases = |n: usize| {
        let ids: Vec<String> = (0..n).map(|i| format!("k{i}")).collect();
        schema(vec![variant(
            "many",
            ids.iter().map(|id| (id.as_str(), vec![])).collect(),
        )])
    };
    assert!(project(&cases(1000), Dialect::OpenAi).is_ok());
    let e = project(&cases(1001), Dialect::OpenAi).unwrap_err();
    assert_eq!(e.rule, "openai.max_enum_values");

    let long = |n: usize| {
        schema(vec![record(
            "long",
            (0..n)
                .map(|i| scalar(&format!("{i:04}{}", "y".repeat(3996)), Repr::Bool))
                .collect(),
        )])
    };
    assert!(project(&long(29), Dialect::OpenAi).is_ok());
    let e = project(&long(31), Dialect::OpenAi).unwrap_err();
    assert_eq!(e.rule, "openai.max_string_length");
    assert_eq!(e.location, spx_schema::Location::Pointer(String::new()));
}

/// A draft 2020-12 validator for a projection.
///
/// FORMAT.md §8 keeps `$id` as the raw root id, which is not a valid URI
/// when the id holds a character such as a space; such a document is
/// refused by a standard validator as a whole. For those ids only (and only
/// for the canonical projection: the dialects drop `$id`), the test
/// validates without `$id`, which changes no constraint. See
/// docs/PROVIDERS.md.
fn validator(doc: &str) -> jsonschema::Validator {
    let mut v: J = serde_json::from_str(doc).unwrap();
    match jsonschema::draft202012::new(&v) {
        Ok(val) => val,
        Err(e) => {
            let id = v["$id"].as_str().unwrap_or_default().to_string();
            let uri_safe = id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?".contains(&b));
            assert!(!uri_safe, "invalid schema {doc}: {e}");
            v.as_object_mut().unwrap().remove("$id");
            jsonschema::draft202012::new(&v).unwrap_or_else(|e| panic!("invalid schema {doc}: {e}"))
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn admitted_values_validate_against_every_projection(
        (fixture, v) in (0usize..5).prop_flat_map(|i| {
            let s = all().swap_remove(i).1;
            (Just(i), values(&s))
        })
    ) {
        let schema = all().swap_remove(fixture).1;
        let canonical = spx_schema::encode::encode(&schema, &v).unwrap();
        let decoded = spx_schema::decode::decode(&schema, canonical.as_bytes()).unwrap();
        prop_assert_eq!(&decoded.value, &v);
        for dialect in Dialect::JSON_SCHEMA {
            let p = project(&schema, dialect).unwrap();
            // Issue 14: the answer a model writes uses the dialect's safe
            // keys (and its wrapper of a variant root).
            let instance: J =
                serde_json::from_str(&spx_tests::provider::answer(&schema, dialect, &v)).unwrap();
            let val = validator(&p.document);
            let errors: Vec<String> = val.iter_errors(&instance).map(|e| e.to_string()).collect();
            prop_assert!(errors.is_empty(), "{}: {:?}", dialect, errors);
        }
    }
}

#[test]
fn projections_are_not_vacuous() {
    // Things the decoder refuses that every projection refuses too.
    let schema = variants();
    let v: J = serde_json::from_str(
        r#"{"case":"planner.step.say","fields":{"planner.step.say.text":"hi","planner.step.say.loud":true}}"#,
    )
    .unwrap();
    let bad_case: J = serde_json::from_str(r#"{"case":"planner.step.nope","fields":{}}"#).unwrap();
    let extra: J =
        serde_json::from_str(r#"{"case":"planner.step.stop","fields":{"x":1}}"#).unwrap();
    let missing: J = serde_json::from_str(
        r#"{"case":"planner.step.say","fields":{"planner.step.say.text":"hi"}}"#,
    )
    .unwrap();
    for dialect in Dialect::JSON_SCHEMA {
        let p = project(&schema, dialect).unwrap();
        let val = validator(&p.document);
        let wrap = |x: &J| {
            if dialect.wraps_root(&schema) {
                serde_json::json!({ "value": x })
            } else {
                x.clone()
            }
        };
        assert!(val.is_valid(&wrap(&v)), "{dialect}");
        for bad in [&bad_case, &extra, &missing] {
            assert!(!val.is_valid(&wrap(bad)), "{dialect} admits {bad}");
        }
    }
    // Integers are strings everywhere, never JSON numbers.
    let schema = scalars();
    for dialect in Dialect::JSON_SCHEMA {
        let p = project(&schema, dialect).unwrap();
        let doc = parse(&p.document);
        let mut all = Vec::new();
        schemas(&doc, String::new(), &mut all);
        assert!(
            all.iter()
                .all(|(_, s)| s.get("type") != Some(&J::from("number"))),
            "{dialect}"
        );
        let ints = all
            .iter()
            .filter(|(ptr, _)| ptr.ends_with("demo.all.u64"))
            .count();
        assert_eq!(ints, 1, "{dialect}");
    }
    let _ = FieldType::Nested(0);
}

#[test]
fn dialects_byte_by_byte() {
    // Written by hand from the rules in docs/PROVIDERS.md.
    let schema = schema(vec![record(
        "p",
        vec![scalar("p.n", Repr::U8), scalar("p.s", Repr::String)],
    )]);
    let u8_desc =
        "u8 integer written as a decimal string (digits only, no leading zeros), from 0 to 255";
    // Issue 14: OpenAI's pattern admits exactly 0..=255, Anthropic's at
    // most three digits (both in canonical form).
    let strict = |pattern: &str| {
        format!(
            r#"{{"type":"object","additionalProperties":false,"required":["fields"],"properties":{{"fields":{{"type":"object","additionalProperties":false,"required":["p.n","p.s"],"properties":{{"p.n":{{"type":"string","pattern":"{pattern}","description":"{u8_desc}"}},"p.s":{{"type":"string"}}}}}}}}}}
"#
        )
    };
    let gemini = format!(
        r#"{{"type":"object","additionalProperties":false,"required":["fields"],"properties":{{"fields":{{"type":"object","additionalProperties":false,"required":["p.n","p.s"],"properties":{{"p.n":{{"type":"string","description":"{u8_desc}"}},"p.s":{{"type":"string"}}}},"propertyOrdering":["p.n","p.s"]}}}},"propertyOrdering":["fields"]}}
"#
    );
    let openai = project(&schema, Dialect::OpenAi).unwrap();
    assert_eq!(
        openai.document,
        strict("^(0|[1-9][0-9]?|1[0-9]{2}|2[0-4][0-9]|25[0-5])$")
    );
    assert_eq!(openai.schema_name.as_deref(), Some("p"));
    assert_eq!(
        project(&schema, Dialect::Anthropic).unwrap().document,
        strict("^(0|[1-9][0-9]{0,2})$")
    );
    assert_eq!(project(&schema, Dialect::Gemini).unwrap().document, gemini);
    let lost: Vec<(&str, &str, &str)> = openai
        .losses
        .iter()
        .map(|l| (l.pointer.as_str(), l.keyword.as_str(), l.action.as_str()))
        .collect();
    let n = "/properties/fields/properties/p.n";
    assert_eq!(
        lost,
        [
            ("", "$schema", "dropped"),
            ("", "$id", "dropped"),
            ("", "$ref", "rewritten"),
            (n, "x-representation", "rewritten"),
            (n, "x-minimum", "rewritten"),
            (n, "x-maximum", "rewritten"),
            ("/properties/fields/properties/p.s", "maxLength", "dropped"),
        ]
    );
    assert!(openai.losses_json().starts_with(
        r#"[{"pointer":"","keyword":"$schema","action":"dropped","guarantee":"identification only; it constrains nothing"},"#
    ));
    assert!(openai.losses_json().ends_with(
        r#"{"pointer":"/properties/fields/properties/p.s","keyword":"maxLength","action":"dropped","guarantee":"the decoder refuses a string over 4096 UTF-8 bytes (SPX-Z206 value.string_bytes)"}]
"#
    ));
}
