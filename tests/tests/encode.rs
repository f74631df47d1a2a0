//! The canonical encoder (FORMAT.md §6): exact bytes, refusals with the
//! decoder's rule and pointer, `example`, round trips.

use proptest::prelude::*;
use spx_schema::decode::decode;
use spx_schema::encode::{encode, encode_value_into, example};
use spx_schema::graph::{Field, FieldType, Repr, TypeGraph};
use spx_schema::{Code, Diagnostic, Location, Schema, Value};

use spx_tests::graph::{field, record, scalar, variant};

/// inner (0), shape (1), root (2).
fn schema() -> Schema {
    spx_tests::graph::sample()
}

fn s(x: &str) -> String {
    x.to_string()
}

fn inner(x: i64, b: bool) -> Value {
    Value::Record(vec![
        (s("inner.x"), Value::I64(x)),
        (s("inner.b"), Value::Bool(b)),
    ])
}

fn rect(w: i64, h: i64) -> Value {
    Value::Variant {
        case: s("shape.rect"),
        fields: vec![(s("rect.w"), Value::I64(w)), (s("rect.h"), Value::I64(h))],
    }
}

fn value() -> Value {
    Value::Record(vec![
        (s("root.flag"), Value::Bool(true)),
        (s("root.i32"), Value::I64(-5)),
        (s("root.i64"), Value::I64(9_007_199_254_740_993)),
        (s("root.u8"), Value::U64(255)),
        (s("root.u64"), Value::U64(u64::MAX)),
        (s("root.s"), Value::String(s("h\"é\\\n\u{7f}/"))),
        (s("root.bytes"), Value::Bytes(vec![0, 1, 255])),
        (s("outer.inner"), inner(i64::MIN, false)),
        (s("root.shape"), rect(3, 4)),
    ])
}

/// `value()` with field `id` of the root replaced (or removed with `None`).
fn with(id: &str, v: Option<Value>) -> Value {
    let Value::Record(mut fields) = value() else {
        unreachable!()
    };
    let i = fields.iter().position(|(k, _)| k == id).unwrap();
    match v {
        Some(v) => fields[i].1 = v,
        None => {
            fields.remove(i);
        }
    }
    Value::Record(fields)
}

#[track_caller]
fn refused(schema: &Schema, v: &Value, rule: &str, pointer: &str) -> Diagnostic {
    let d = encode(schema, v).expect_err("encoded a value that does not fit");
    assert_eq!(
        (d.code, d.rule, &d.location),
        (Code::Z206, rule, &Location::Pointer(pointer.into())),
        "{d}"
    );
    assert_eq!(
        d.message,
        format!("AgentInteractionValue invariant failed: {rule}")
    );
    d
}

#[test]
fn exact_canonical_bytes() {
    let sc = schema();
    let doc = encode(&sc, &value()).unwrap();
    let expected = format!(
        concat!(
            "{{\"schema\":\"semaprax.agent-interaction-value.v1\",\"root_type_id\":\"t.root\",\"schema_digest\":\"{}\",",
            "\"value\":{{\"fields\":{{\"root.flag\":true,\"root.i32\":\"-5\",\"root.i64\":\"9007199254740993\",",
            "\"root.u8\":\"255\",\"root.u64\":\"18446744073709551615\",\"root.s\":\"h\\\"é\\\\\\n\\u007f/\",",
            "\"root.bytes\":[0,1,255],\"outer.inner\":{{\"fields\":{{\"inner.x\":\"-9223372036854775808\",\"inner.b\":false}}}},",
            "\"root.shape\":{{\"case\":\"shape.rect\",\"fields\":{{\"rect.w\":\"3\",\"rect.h\":\"4\"}}}}}}}}}}\n"
        ),
        sc.digest()
    );
    assert_eq!(doc, expected);
    assert_eq!(decode(&sc, doc.as_bytes()).unwrap().value, value());
}

#[test]
fn encode_value_into_writes_only_the_value_part() {
    let sc = schema();
    let doc = encode(&sc, &value()).unwrap();
    let mut out = String::from("prefix:");
    encode_value_into(&mut out, &sc, &value()).unwrap();
    let part = out.strip_prefix("prefix:").unwrap();
    let start = doc.find(",\"value\":").unwrap() + ",\"value\":".len();
    assert_eq!(&doc[start..doc.len() - 2], part);
    // Its pointers start with /value as in a whole document.
    let mut out = String::new();
    let d = encode_value_into(&mut out, &sc, &with("root.u8", Some(Value::U64(256)))).unwrap_err();
    assert_eq!(d.location, Location::Pointer(s("/value/fields/root.u8")));
}

#[test]
fn empty_bytes_empty_case_and_boundaries() {
    let sc = schema();
    let v = with("root.bytes", Some(Value::Bytes(vec![])));
    let doc = encode(&sc, &v).unwrap();
    assert!(doc.contains("\"root.bytes\":[],"));
    let v = with(
        "root.shape",
        Some(Value::Variant {
            case: s("shape.none"),
            fields: vec![],
        }),
    );
    let doc = encode(&sc, &v).unwrap();
    assert!(doc.ends_with("\"root.shape\":{\"case\":\"shape.none\",\"fields\":{}}}}}\n"));
    assert_eq!(decode(&sc, doc.as_bytes()).unwrap().value, v);
    for v in [
        with("root.s", Some(Value::String("é".repeat(2048)))),
        with("root.bytes", Some(Value::Bytes(vec![7; 4096]))),
        with("root.i32", Some(Value::I64(i32::MIN.into()))),
        with("root.i32", Some(Value::I64(i32::MAX.into()))),
        with("root.i64", Some(Value::I64(i64::MAX))),
        with("root.u64", Some(Value::U64(0))),
    ] {
        let doc = encode(&sc, &v).unwrap();
        assert_eq!(decode(&sc, doc.as_bytes()).unwrap().value, v);
    }
}

#[test]
fn refusals_use_the_decoders_rules_and_pointers() {
    let sc = schema();
    refused(
        &sc,
        &with("root.flag", None),
        "value.fields.missing",
        "/value/fields/root.flag",
    );
    refused(
        &sc,
        &with(
            "outer.inner",
            Some(Value::Record(vec![(s("inner.x"), Value::I64(1))])),
        ),
        "value.fields.missing",
        "/value/fields/outer.inner/fields/inner.b",
    );
    let Value::Record(mut fields) = value() else {
        unreachable!()
    };
    fields.push((s("a/b~"), Value::Bool(true)));
    refused(
        &sc,
        &Value::Record(fields),
        "value.fields.unknown",
        "/value/fields/a~1b~0",
    );
    refused(
        &sc,
        &with(
            "root.shape",
            Some(Value::Variant {
                case: s("shape.square"),
                fields: vec![],
            }),
        ),
        "value.case",
        "/value/fields/root.shape/case",
    );
    refused(
        &sc,
        &with("root.shape", Some(inner(1, true))),
        "value.representation",
        "/value/fields/root.shape",
    );
    refused(
        &sc,
        &with("outer.inner", Some(rect(1, 1))),
        "value.representation",
        "/value/fields/outer.inner",
    );
    refused(&sc, &Value::Bool(true), "value.representation", "/value");
    refused(
        &sc,
        &with("root.flag", Some(Value::I64(1))),
        "value.representation",
        "/value/fields/root.flag",
    );
    refused(
        &sc,
        &with("root.i32", Some(Value::U64(1))),
        "value.representation",
        "/value/fields/root.i32",
    );
    refused(
        &sc,
        &with("root.u8", Some(Value::I64(1))),
        "value.representation",
        "/value/fields/root.u8",
    );
    refused(
        &sc,
        &with("root.s", Some(Value::Bytes(vec![]))),
        "value.representation",
        "/value/fields/root.s",
    );
    refused(
        &sc,
        &with("root.bytes", Some(Value::String(s("")))),
        "value.representation",
        "/value/fields/root.bytes",
    );
    refused(
        &sc,
        &with("root.i32", Some(Value::I64(i64::from(i32::MAX) + 1))),
        "value.integer_range",
        "/value/fields/root.i32",
    );
    refused(
        &sc,
        &with("root.i32", Some(Value::I64(i64::from(i32::MIN) - 1))),
        "value.integer_range",
        "/value/fields/root.i32",
    );
    refused(
        &sc,
        &with("root.u8", Some(Value::U64(256))),
        "value.integer_range",
        "/value/fields/root.u8",
    );
    refused(
        &sc,
        &with(
            "root.s",
            Some(Value::String(format!("{}a", "é".repeat(2048)))),
        ),
        "value.string_bytes",
        "/value/fields/root.s",
    );
    refused(
        &sc,
        &with("root.bytes", Some(Value::Bytes(vec![0; 4097]))),
        "value.bytes_length",
        "/value/fields/root.bytes",
    );
    refused(
        &sc,
        &with(
            "root.shape",
            Some(Value::Variant {
                case: s("shape.circle"),
                fields: vec![(s("circle.r"), Value::U64(300))],
            }),
        ),
        "value.integer_range",
        "/value/fields/root.shape/fields/circle.r",
    );
}

#[test]
fn field_precedence_matches_the_decoder() {
    let sc = schema();
    // Unknown before missing.
    let Value::Record(mut fields) = with("root.flag", None) else {
        unreachable!()
    };
    fields.push((s("zz"), Value::Bool(true)));
    refused(
        &sc,
        &Value::Record(fields),
        "value.fields.unknown",
        "/value/fields/zz",
    );
    // An earlier field's error before a later missing field.
    let Value::Record(mut fields) = with("root.shape", None) else {
        unreachable!()
    };
    fields[1].1 = Value::I64(1 << 40);
    refused(
        &sc,
        &Value::Record(fields),
        "value.integer_range",
        "/value/fields/root.i32",
    );
    // Wrong case before malformed case fields.
    refused(
        &sc,
        &with(
            "root.shape",
            Some(Value::Variant {
                case: s("nope"),
                fields: vec![(s("x"), Value::Bool(true))],
            }),
        ),
        "value.case",
        "/value/fields/root.shape/case",
    );
}

#[test]
fn misordered_or_duplicated_fields_are_refused() {
    let sc = schema();
    let Value::Record(mut fields) = value() else {
        unreachable!()
    };
    fields.swap(0, 1);
    refused(
        &sc,
        &Value::Record(fields),
        "value.fields.order",
        "/value/fields/root.flag",
    );
    let Value::Record(mut fields) = value() else {
        unreachable!()
    };
    fields.push((s("root.shape"), rect(1, 1)));
    refused(
        &sc,
        &Value::Record(fields),
        "value.fields.order",
        "/value/fields/root.shape",
    );
    let Value::Record(mut fields) = value() else {
        unreachable!()
    };
    let dup = fields[0].clone();
    fields.insert(1, dup);
    refused(
        &sc,
        &Value::Record(fields),
        "value.fields.order",
        "/value/fields/root.i32",
    );
}

#[test]
fn the_same_defect_gets_the_same_pointer_from_both() {
    // Render a value whose only defect is in one leaf, by hand, and compare.
    let sc = schema();
    let good = encode(&sc, &value()).unwrap();
    for (v, from, to) in [
        (
            with("root.u8", Some(Value::U64(256))),
            "\"root.u8\":\"255\"",
            "\"root.u8\":\"256\"",
        ),
        (
            with("root.bytes", Some(Value::Bytes(vec![1; 4097]))),
            "[0,1,255]",
            &format!("[{}]", vec!["1"; 4097].join(",")),
        ),
        (with("root.flag", None), "\"root.flag\":true,", ""),
    ] {
        let e = encode(&sc, &v).unwrap_err();
        let d = decode(&sc, good.replacen(from, to, 1).as_bytes()).unwrap_err();
        assert_eq!((e.code, e.rule, &e.location), (d.code, d.rule, &d.location));
    }
}

#[test]
fn document_bytes() {
    // 16 strings of 4096 bytes: the document is over 65536 bytes.
    let fields: Vec<Field> = (0..16)
        .map(|i| scalar(&format!("f{i:02}"), Repr::String))
        .collect();
    let sc = Schema::from_graph(TypeGraph {
        types: vec![record("big", fields)],
    })
    .unwrap();
    let mk = |n: usize| {
        Value::Record(
            (0..16)
                .map(|i| {
                    (
                        format!("f{i:02}"),
                        Value::String("x".repeat(if i == 0 { n } else { 4096 })),
                    )
                })
                .collect(),
        )
    };
    // Find the largest first string that still fits, exactly at the bound.
    let base = encode(&sc, &mk(0)).unwrap().len();
    let fit = 65536 - base;
    assert!(fit <= 4096, "{fit}");
    let doc = encode(&sc, &mk(fit)).unwrap();
    assert_eq!(doc.len(), 65536);
    assert_eq!(decode(&sc, doc.as_bytes()).unwrap().value, mk(fit));
    let d = encode(&sc, &mk(fit + 1)).unwrap_err();
    assert_eq!(
        (d.code, d.rule, d.location),
        (Code::Z206, "document_bytes", Location::Pointer(s("")))
    );
    // The decoder refuses the same bytes for the same reason.
    let mut over = doc.clone();
    over.insert(over.find("\"x").unwrap() + 1, 'x');
    let e = decode(&sc, over.as_bytes()).unwrap_err();
    assert_eq!((e.code, e.rule), (Code::Z206, "document_bytes"));
}

#[test]
fn max_depth_on_a_recursive_hand_built_graph() {
    let sc = Schema::from_graph(TypeGraph {
        types: vec![variant(
            "list",
            vec![
                ("nil", vec![]),
                ("cons", vec![field("tail", FieldType::Nested(0))]),
            ],
        )],
    })
    .unwrap();
    let mut v = Value::Variant {
        case: s("nil"),
        fields: vec![],
    };
    let mut ptr = s("/value");
    for _ in 0..16 {
        v = Value::Variant {
            case: s("cons"),
            fields: vec![(s("tail"), v)],
        };
        ptr.push_str("/fields/tail");
    }
    let doc = encode(&sc, &v).unwrap();
    assert_eq!(decode(&sc, doc.as_bytes()).unwrap().value, v);
    let v17 = Value::Variant {
        case: s("cons"),
        fields: vec![(s("tail"), v)],
    };
    refused(
        &sc,
        &v17,
        "value.max_depth",
        &(s("/value/fields/tail") + &ptr["/value".len()..]),
    );
    // example() takes the first case and terminates.
    assert_eq!(
        example(&sc),
        Value::Variant {
            case: s("nil"),
            fields: vec![]
        }
    );
}

#[test]
fn example_is_valid_and_illustrative() {
    let sc = schema();
    let v = example(&sc);
    let doc = encode(&sc, &v).unwrap();
    assert_eq!(decode(&sc, doc.as_bytes()).unwrap().value, v);
    assert_eq!(v.field("root.flag"), Some(&Value::Bool(true)));
    assert_eq!(v.field("root.i32"), Some(&Value::I64(42)));
    assert_eq!(v.field("root.i64"), Some(&Value::I64(-1_234_567_890_123)));
    assert_eq!(v.field("root.u8"), Some(&Value::U64(200)));
    assert_eq!(v.field("root.u64"), Some(&Value::U64((1 << 53) + 1)));
    assert_eq!(v.field("root.s"), Some(&Value::String(s("example"))));
    assert_eq!(v.field("root.bytes"), Some(&Value::Bytes(vec![0, 1, 255])));
    assert_eq!(
        v.field("root.shape"),
        Some(&Value::Variant {
            case: s("shape.circle"),
            fields: vec![(s("circle.r"), Value::U64(200))]
        })
    );
    // A self-containing record cannot have a value; example still ends.
    let rec = Schema::from_graph(TypeGraph {
        types: vec![record("r", vec![field("r.me", FieldType::Nested(0))])],
    })
    .unwrap();
    let v = example(&rec);
    assert!(encode(&rec, &v).is_err());
}

/// Random values of the sample graph (every case, boundary scalars).
fn arb_value() -> impl Strategy<Value = Value> {
    spx_tests::values::arb_value(schema().graph())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn decode_of_encode_is_identity(v in arb_value()) {
        let sc = schema();
        let doc = encode(&sc, &v).unwrap();
        let framed = doc.ends_with("}\n") && !doc[..doc.len() - 1].contains(['\n', '\r']);
        prop_assert!(framed);
        // Valid JSON whose value serde_json reads back the same way.
        let j: serde_json::Value = serde_json::from_str(&doc).unwrap();
        prop_assert_eq!(j["value"]["fields"]["root.s"].as_str(), v.field("root.s").and_then(|s| match s { Value::String(s) => Some(s.as_str()), _ => None }));
        let d = decode(&sc, doc.as_bytes()).unwrap();
        prop_assert_eq!(d.value, v);
        prop_assert_eq!(d.canonical, doc);
    }
}
