//! The documents of the strict decoder's tests (FORMAT.md §6–7): every
//! rule, precedence, boundaries, non-canonical input, with the engine's
//! exact verdict asserted on each.
//!
//! Each case is a plain function, listed in [`for_each_case`]: `decode.rs`
//! runs each as a `#[test]`, and `consumers.rs` runs them all while
//! recording every document (`spx_tests::corpus`), to send the same corpus
//! through the generated TypeScript and Python decoders.

#[path = "../grammar_support/mod.rs"]
pub(crate) mod grammar_support;

use spx_schema::decode::{decode, decode_fast_path, decode_fast_path_portable, decode_spec_path};
use spx_schema::encode::encode;
use spx_schema::graph::{FieldType, Repr, TypeGraph};
use spx_schema::{Code, Diagnostic, Location, Schema, Value};

// ---------------------------------------------------------------- fixtures

use spx_tests::graph::{case, field, record, scalar, variant};

/// inner (0), shape (1), root (2).
pub(crate) fn schema() -> Schema {
    spx_tests::graph::sample()
}

const VALUE: &str = r#"{"fields":{"root.flag":true,"root.i32":"-5","root.i64":"9007199254740993","root.u8":"255","root.u64":"18446744073709551615","root.s":"héllo","root.bytes":[0,1,255],"outer.inner":{"fields":{"inner.x":"7","inner.b":false}},"root.shape":{"case":"shape.rect","fields":{"rect.w":"3","rect.h":"4"}}}}"#;

fn envelope(s: &Schema, value: &str) -> String {
    format!(
        "{{\"schema\":\"semaprax.agent-interaction-value.v1\",\"root_type_id\":\"{}\",\"schema_digest\":\"{}\",\"value\":{value}}}\n",
        s.root_type_id(),
        s.digest()
    )
}

fn valid() -> String {
    envelope(&schema(), VALUE)
}

/// The valid document with `from` (which must occur exactly once) replaced.
fn replaced(from: &str, to: &str) -> String {
    let v = valid();
    assert_eq!(v.matches(from).count(), 1, "`{from}` must occur once");
    v.replacen(from, to, 1)
}

fn expected_value() -> Value {
    let s = |x: &str| x.to_string();
    Value::Record(vec![
        (s("root.flag"), Value::Bool(true)),
        (s("root.i32"), Value::I64(-5)),
        (s("root.i64"), Value::I64(9_007_199_254_740_993)),
        (s("root.u8"), Value::U64(255)),
        (s("root.u64"), Value::U64(u64::MAX)),
        (s("root.s"), Value::String(s("héllo"))),
        (s("root.bytes"), Value::Bytes(vec![0, 1, 255])),
        (
            s("outer.inner"),
            Value::Record(vec![
                (s("inner.x"), Value::I64(7)),
                (s("inner.b"), Value::Bool(false)),
            ]),
        ),
        (
            s("root.shape"),
            Value::Variant {
                case: s("shape.rect"),
                fields: vec![(s("rect.w"), Value::I64(3)), (s("rect.h"), Value::I64(4))],
            },
        ),
    ])
}

// ---------------------------------------------------------------- helpers

/// The engine's verdict on `bytes`, with the document recorded for the
/// consumer tests (`spx_tests::corpus`) when they are collecting.
fn recorded(s: &Schema, bytes: &[u8]) -> Result<spx_schema::decode::Decoded, Diagnostic> {
    spx_tests::corpus::record(s, bytes);
    decode(s, bytes)
}

const Z205_MESSAGE: &str =
    "AgentInteractionValue is not canonical semaprax.agent-interaction-value.v1 JSON";

/// Asserts a refusal with exactly this code, rule, pointer and message, the
/// same diagnostic from the spec-ordered path, and no fast-path admission.
#[track_caller]
fn refused(
    s: &Schema,
    bytes: impl AsRef<[u8]>,
    code: Code,
    rule: &str,
    pointer: &str,
) -> Diagnostic {
    let bytes = bytes.as_ref();
    let shown = String::from_utf8_lossy(&bytes[..bytes.len().min(300)]).into_owned();
    let d = match recorded(s, bytes) {
        Ok(_) => panic!("admitted, expected {code} {rule}: {shown}"),
        Err(d) => d,
    };
    assert_eq!(
        (d.code, d.rule, &d.location),
        (code, rule, &Location::Pointer(pointer.into())),
        "{shown}\n{d}"
    );
    let message = if code == Code::Z205 {
        Z205_MESSAGE.to_string()
    } else {
        format!("AgentInteractionValue invariant failed: {rule}")
    };
    assert_eq!(d.message, message);
    assert_eq!(
        decode_spec_path(s, bytes),
        Err(d.clone()),
        "paths disagree: {shown}"
    );
    assert!(decode_fast_path(s, bytes).is_none());
    assert!(decode_fast_path_portable(s, bytes).is_none());
    grammar_support::assert_refused(s, bytes);
    streamed(s, bytes, &Err(d.clone()));
    d
}

/// The streaming decoder on the same bytes, in every chunking: the same
/// verdict, value and (unless the test says the document has more than
/// one violation) diagnostic, refused no earlier than the first byte that
/// differs from the test's valid document.
fn streamed(s: &Schema, bytes: &[u8], whole: &Result<spx_schema::decode::Decoded, Diagnostic>) {
    let v = valid();
    let same = v.bytes().zip(bytes).take_while(|(a, b)| a == *b).count();
    let viable = (s.digest() == schema().digest()).then_some(same);
    spx_tests::stream::check_decode(s, bytes, whole, viable);
}

#[track_caller]
fn z205(bytes: impl AsRef<[u8]>, rule: &str, pointer: &str) -> Diagnostic {
    refused(&schema(), bytes, Code::Z205, rule, pointer)
}

#[track_caller]
fn z206(bytes: impl AsRef<[u8]>, rule: &str, pointer: &str) -> Diagnostic {
    refused(&schema(), bytes, Code::Z206, rule, pointer)
}

/// Asserts admission by both paths, with the input as canonical text.
#[track_caller]
fn admitted(s: &Schema, bytes: impl AsRef<[u8]>) -> Value {
    let bytes = bytes.as_ref();
    let d = recorded(s, bytes).unwrap_or_else(|e| {
        panic!(
            "refused: {e}\n{}",
            String::from_utf8_lossy(&bytes[..bytes.len().min(300)])
        )
    });
    assert_eq!(d.canonical.as_bytes(), bytes);
    assert_eq!(decode_spec_path(s, bytes).as_ref(), Ok(&d));
    assert_eq!(decode_fast_path(s, bytes).as_ref(), Some(&d));
    assert_eq!(decode_fast_path_portable(s, bytes).as_ref(), Some(&d));
    streamed(s, bytes, &Ok(d.clone()));
    assert_eq!(encode(s, &d.value).as_deref(), Ok(d.canonical.as_str()));
    grammar_support::assert_accepted(s, bytes, &d.value);
    d.value
}

fn field_ptr(id: &str) -> String {
    format!("/value/fields/{id}")
}

// ---------------------------------------------------------------- admission

pub(crate) fn the_valid_document_is_admitted_with_exact_scalars() {
    let v = admitted(&schema(), valid());
    assert_eq!(v, expected_value());
}

pub(crate) fn every_variant_case_is_admitted() {
    let s = schema();
    for (shape, case, fields) in [
        (
            r#"{"case":"shape.circle","fields":{"circle.r":"0"}}"#,
            "shape.circle",
            vec![("circle.r".to_string(), Value::U64(0))],
        ),
        (r#"{"case":"shape.none","fields":{}}"#, "shape.none", vec![]),
    ] {
        let doc = replaced(
            r#"{"case":"shape.rect","fields":{"rect.w":"3","rect.h":"4"}}"#,
            shape,
        );
        let v = admitted(&s, doc);
        assert_eq!(
            v.field("root.shape"),
            Some(&Value::Variant {
                case: case.into(),
                fields
            })
        );
    }
}

// ---------------------------------------------------------------- steps 1–8

pub(crate) fn step1_document_bytes() {
    // 65537 bytes of otherwise harmless text.
    let mut doc = valid().trim_end().to_string();
    doc.push_str(&" ".repeat(65536 - doc.len()));
    doc.push('\n');
    assert_eq!(doc.len(), 65537);
    z206(&doc, "document_bytes", "");
    // Exactly 65536 bytes is not refused for its size (whitespace is).
    doc.remove(doc.len() - 2);
    assert_eq!(doc.len(), 65536);
    z205(&doc, "canonical.mismatch", "");
}

pub(crate) fn step1_document_bytes_comes_before_utf8() {
    let mut bytes = vec![0xFFu8; 65537];
    {
        // Two violations: the stream refuses the first byte (not UTF-8)
        // before it can know the size.
        let _multi = spx_tests::stream::may_differ();
        z206(&bytes, "document_bytes", "");
    }
    bytes.truncate(65536);
    z206(&bytes, "utf8", "");
}

pub(crate) fn step2_utf8() {
    let mut bytes = valid().into_bytes();
    let at = bytes.windows(5).position(|w| w == b"llo\",").unwrap();
    bytes[at] = 0xFF;
    z206(&bytes, "utf8", "");
    // A lone continuation byte, an overlong encoding, a UTF-16 surrogate.
    for bad in [&b"\x80"[..], b"\xC0\xAF", b"\xED\xA0\x80"] {
        let mut b = valid().into_bytes();
        let at = b.windows(3).position(|w| w == b"llo").unwrap();
        b.splice(at..at, bad.iter().copied());
        z206(&b, "utf8", "");
    }
}

pub(crate) fn step2_utf8_comes_before_framing() {
    z206(b"\xFF", "utf8", "");
}

pub(crate) fn step3_framing() {
    let v = valid();
    let body = v.trim_end_matches('\n');
    z205(body, "document.framing", ""); // no LF
    z205(format!("{body}\n\n"), "document.framing", ""); // doubled LF
    z205(format!("{body}\r\n"), "document.framing", ""); // CRLF
    z205(format!("\u{FEFF}{body}\n"), "document.framing", ""); // BOM
    z205("", "document.framing", "");
    z205("\n", "document.framing", "");
    z205(format!("{body}\r"), "document.framing", "");
    // An LF or a CR anywhere in the body, even where JSON allows whitespace.
    z205(v.replacen(",", ",\n", 1), "document.framing", "");
    z205(v.replacen(",", ",\r", 1), "document.framing", "");
    // Pretty-printing always has LFs.
    let pretty =
        serde_json::to_string_pretty(&serde_json::from_str::<serde_json::Value>(body).unwrap())
            .unwrap()
            + "\n";
    z205(pretty, "document.framing", "");
}

pub(crate) fn step4_json_syntax() {
    for bad in [
        "{",
        "{\"schema\":}",
        "{\"schema\":\"x\",}",
        "[1,]",
        "{} {}",
        "nul",
        "'x'",
        "{schema:1}",
    ] {
        // A wrong id, an array or a closed envelope before the syntax
        // error: the stream names the first of the two.
        let _multi = ["{\"schema\":\"x\",}", "[1,]", "{} {}"]
            .contains(&bad)
            .then(spx_tests::stream::may_differ);
        z205(format!("{bad}\n"), "json.syntax", "");
    }
    // Syntax errors deep inside the value.
    z205(replaced("[0,1,255]", "[0,1,255,]"), "json.syntax", "");
    z205(replaced("\"héllo\"", "\"h\\xllo\""), "json.syntax", "");
    z205(replaced("[0,1,255]", "[0,01,255]"), "json.syntax", "");
    z205(replaced("[0,1,255]", "[0,+1,255]"), "json.syntax", "");
    z205(replaced("[0,1,255]", "[0,1e400,255]"), "json.syntax", "");
    z205(replaced("[0,1,255]", "[0,-1e400,255]"), "json.syntax", "");
    z205(
        replaced("[0,1,255]", &format!("[0,1{},255]", "0".repeat(400))),
        "json.syntax",
        "",
    );
}

pub(crate) fn step4_comes_before_the_envelope() {
    // A wrong root id and a trailing comma: the JSON error wins (the
    // stream refuses at the root id, before the comma).
    let _multi = spx_tests::stream::may_differ();
    z205(
        replaced("\"t.root\"", "\"t.other\"").replace("[0,1,255]", "[0,1,255,]"),
        "json.syntax",
        "",
    );
}

pub(crate) fn step5_envelope_shape_and_keys() {
    z205("[]\n", "envelope.shape", "");
    z205("\"x\"\n", "envelope.shape", "");
    z205("{}\n", "envelope.keys", "/schema");
    let v = valid();
    let body = v.strip_suffix("}\n").unwrap();
    // An extra key, reported at the key (document order, first one).
    z205(
        format!("{body},\"zz\":1,\"aa\":2}}\n"),
        "envelope.keys",
        "/zz",
    );
    z205(
        format!("{body},\"a/b~c\":1}}\n"),
        "envelope.keys",
        "/a~1b~0c",
    );
    // A missing key, at the place where it should be.
    let no_value = v.split(",\"value\":").next().unwrap().to_string() + "}\n";
    z205(no_value, "envelope.keys", "/value");
    // Unknown before missing, and before a wrong schema id (the stream
    // refuses at the wrong id, before the unknown key).
    let _multi = spx_tests::stream::may_differ();
    z205(
        "{\"schema\":\"nope\",\"extra\":1}\n",
        "envelope.keys",
        "/extra",
    );
}

pub(crate) fn step6_envelope_schema() {
    z205(
        replaced(
            "\"semaprax.agent-interaction-value.v1\"",
            "\"semaprax.agent-interaction-schema.v1\"",
        ),
        "envelope.schema",
        "/schema",
    );
    z205(
        replaced("\"semaprax.agent-interaction-value.v1\"", "1"),
        "envelope.schema",
        "/schema",
    );
    // Step 6 comes before a wrong root id.
    z205(
        replaced("\"semaprax.agent-interaction-value.v1\"", "null").replace("\"t.root\"", "\"x\""),
        "envelope.schema",
        "/schema",
    );
}

pub(crate) fn step7_root_type_id() {
    z205(
        replaced("\"t.root\"", "7"),
        "envelope.shape",
        "/root_type_id",
    );
    z206(
        replaced("\"t.root\"", "\"t.inner\""),
        "root_type_id",
        "/root_type_id",
    );
}

pub(crate) fn step8_schema_digest() {
    let s = schema();
    let digest = format!("\"{}\"", s.digest());
    z205(replaced(&digest, "[]"), "envelope.shape", "/schema_digest");
    let other = format!("\"sha256:{}\"", "0".repeat(64));
    z206(replaced(&digest, &other), "schema_digest", "/schema_digest");
}

pub(crate) fn root_type_id_comes_before_schema_digest() {
    let s = schema();
    let digest = format!("\"{}\"", s.digest());
    let doc = replaced(&digest, "\"sha256:x\"").replace("\"t.root\"", "\"t.nope\"");
    z206(doc, "root_type_id", "/root_type_id");
    // And a malformed digest comes after a wrong root id too.
    let doc = replaced(&digest, "1").replace("\"t.root\"", "\"t.nope\"");
    z206(doc, "root_type_id", "/root_type_id");
}

// ---------------------------------------------------------------- step 9

pub(crate) fn value_shape() {
    z205(replaced(VALUE, "[]"), "value.shape", "/value");
    z205(replaced(VALUE, "{}"), "value.shape", "/value/fields");
    z205(
        replaced(VALUE, "{\"fields\":[]}"),
        "value.shape",
        "/value/fields",
    );
    z205(
        replaced(
            "{\"fields\":{\"root.flag\"",
            "{\"extra\":1,\"fields\":{\"root.flag\"",
        ),
        "value.shape",
        "/value/extra",
    );
    // Nested record.
    z205(
        replaced(
            "{\"fields\":{\"inner.x\":\"7\",\"inner.b\":false}}",
            "\"7\"",
        ),
        "value.shape",
        "/value/fields/outer.inner",
    );
    // Variant: key set, case not a string, fields not an object.
    let shape = r#"{"case":"shape.rect","fields":{"rect.w":"3","rect.h":"4"}}"#;
    z205(
        replaced(shape, r#"{"fields":{}}"#),
        "value.shape",
        "/value/fields/root.shape/case",
    );
    z205(
        replaced(shape, r#"{"case":"shape.none"}"#),
        "value.shape",
        "/value/fields/root.shape/fields",
    );
    z205(
        replaced(shape, r#"{"case":"shape.none","fields":{},"x":0}"#),
        "value.shape",
        "/value/fields/root.shape/x",
    );
    z205(
        replaced(shape, r#"{"case":1,"fields":{}}"#),
        "value.shape",
        "/value/fields/root.shape/case",
    );
    z205(
        replaced(shape, r#"{"case":"shape.none","fields":null}"#),
        "value.shape",
        "/value/fields/root.shape/fields",
    );
}

pub(crate) fn value_case() {
    let shape = r#"{"case":"shape.rect","fields":{"rect.w":"3","rect.h":"4"}}"#;
    z206(
        replaced(
            shape,
            r#"{"case":"shape.square","fields":{"rect.w":"3","rect.h":"4"}}"#,
        ),
        "value.case",
        "/value/fields/root.shape/case",
    );
}

pub(crate) fn wrong_case_comes_before_malformed_case_fields() {
    let shape = r#"{"case":"shape.rect","fields":{"rect.w":"3","rect.h":"4"}}"#;
    z206(
        replaced(shape, r#"{"case":"shape.square","fields":7}"#),
        "value.case",
        "/value/fields/root.shape/case",
    );
    z206(
        replaced(shape, r#"{"case":"shape.square","fields":{"zz":"x"}}"#),
        "value.case",
        "/value/fields/root.shape/case",
    );
    // A declared case whose fields are malformed.
    z206(
        replaced(
            shape,
            r#"{"case":"shape.circle","fields":{"rect.w":"3","rect.h":"4"}}"#,
        ),
        "value.fields.unknown",
        "/value/fields/root.shape/fields/rect.w",
    );
    z206(
        replaced(
            shape,
            r#"{"case":"shape.circle","fields":{"circle.r":"256"}}"#,
        ),
        "value.integer_range",
        "/value/fields/root.shape/fields/circle.r",
    );
}

pub(crate) fn value_fields_unknown() {
    z206(
        replaced("\"root.flag\":true", "\"zzz\":1,\"root.flag\":true"),
        "value.fields.unknown",
        "/value/fields/zzz",
    );
    // Document order: the first undeclared key is reported.
    z206(
        replaced(
            "\"root.flag\":true",
            "\"zzz\":1,\"aaa\":2,\"root.flag\":true",
        ),
        "value.fields.unknown",
        "/value/fields/zzz",
    );
    // Pointer escaping of the key; the key is unescaped first.
    z206(
        replaced(
            "\"root.flag\":true",
            "\"a/b~c\\u00e9\":1,\"root.flag\":true",
        ),
        "value.fields.unknown",
        "/value/fields/a~1b~0cé",
    );
    z206(
        replaced("\"inner.b\":false", "\"inner.b\":false,\"inner.y\":1"),
        "value.fields.unknown",
        "/value/fields/outer.inner/fields/inner.y",
    );
}

pub(crate) fn value_fields_missing() {
    z206(
        replaced("\"root.flag\":true,", ""),
        "value.fields.missing",
        "/value/fields/root.flag",
    );
    z206(
        replaced(",\"inner.b\":false", ""),
        "value.fields.missing",
        "/value/fields/outer.inner/fields/inner.b",
    );
    z206(
        replaced(",\"rect.h\":\"4\"", ""),
        "value.fields.missing",
        "/value/fields/root.shape/fields/rect.h",
    );
    // Declaration order decides which missing field is reported.
    z206(
        replaced("\"root.flag\":true,\"root.i32\":\"-5\",", ""),
        "value.fields.missing",
        "/value/fields/root.flag",
    );
}

pub(crate) fn unknown_field_comes_before_missing() {
    z206(
        replaced("\"root.flag\":true,", "\"root.flag2\":true,"),
        "value.fields.unknown",
        "/value/fields/root.flag2",
    );
    // Even when the unknown key comes after a malformed declared field
    // (which the stream refuses first).
    let _multi = spx_tests::stream::may_differ();
    z206(
        replaced("\"root.i32\":\"-5\"", "\"root.i32\":\"x\",\"bogus\":0"),
        "value.fields.unknown",
        "/value/fields/bogus",
    );
}

pub(crate) fn earlier_field_error_comes_before_later_missing_field() {
    let no_shape = r#","root.shape":{"case":"shape.rect","fields":{"rect.w":"3","rect.h":"4"}}"#;
    z206(
        replaced(no_shape, ""),
        "value.fields.missing",
        "/value/fields/root.shape",
    );
    z206(
        // root.i32 is malformed and root.shape (the last field) is absent.
        replaced("\"root.i32\":\"-5\"", "\"root.i32\":\"01\"").replace(
            r#","root.shape":{"case":"shape.rect","fields":{"rect.w":"3","rect.h":"4"}}"#,
            "",
        ),
        "value.integer",
        "/value/fields/root.i32",
    );
    z206(
        replaced("\"inner.x\":\"7\",\"inner.b\":false", "\"inner.x\":7"),
        "value.representation",
        "/value/fields/outer.inner/fields/inner.x",
    );
    // A later field's error loses to an earlier missing field.
    z206(
        replaced("\"root.flag\":true,", "").replace("\"root.u8\":\"255\"", "\"root.u8\":\"256\""),
        "value.fields.missing",
        "/value/fields/root.flag",
    );
}

pub(crate) fn value_representation() {
    for (from, to, id) in [
        ("\"root.flag\":true", "\"root.flag\":\"true\"", "root.flag"),
        ("\"root.flag\":true", "\"root.flag\":1", "root.flag"),
        ("\"root.i32\":\"-5\"", "\"root.i32\":-5", "root.i32"),
        (
            "\"root.i64\":\"9007199254740993\"",
            "\"root.i64\":9007199254740993",
            "root.i64",
        ),
        ("\"root.u8\":\"255\"", "\"root.u8\":255", "root.u8"),
        (
            "\"root.u64\":\"18446744073709551615\"",
            "\"root.u64\":null",
            "root.u64",
        ),
        ("\"root.s\":\"héllo\"", "\"root.s\":[]", "root.s"),
        (
            "\"root.bytes\":[0,1,255]",
            "\"root.bytes\":\"AAH/\"",
            "root.bytes",
        ),
        (
            "\"root.bytes\":[0,1,255]",
            "\"root.bytes\":{}",
            "root.bytes",
        ),
    ] {
        z206(replaced(from, to), "value.representation", &field_ptr(id));
    }
}

pub(crate) fn value_integer() {
    for bad in [
        "", "-", "-0", "+1", "01", "-01", "1e3", "1.0", " 1", "1 ", "0x1", "١",
    ] {
        z206(
            replaced("\"root.i32\":\"-5\"", &format!("\"root.i32\":\"{bad}\"")),
            "value.integer",
            &field_ptr("root.i32"),
        );
    }
    // u8/u64 too.
    z206(
        replaced("\"root.u8\":\"255\"", "\"root.u8\":\"-0\""),
        "value.integer",
        &field_ptr("root.u8"),
    );
}

pub(crate) fn value_integer_range() {
    for (from, to, id) in [
        (
            "\"root.i32\":\"-5\"",
            "\"root.i32\":\"-2147483649\"",
            "root.i32",
        ),
        (
            "\"root.i32\":\"-5\"",
            "\"root.i32\":\"2147483648\"",
            "root.i32",
        ),
        (
            "\"root.i64\":\"9007199254740993\"",
            "\"root.i64\":\"9223372036854775808\"",
            "root.i64",
        ),
        (
            "\"root.i64\":\"9007199254740993\"",
            "\"root.i64\":\"-9223372036854775809\"",
            "root.i64",
        ),
        ("\"root.u8\":\"255\"", "\"root.u8\":\"256\"", "root.u8"),
        ("\"root.u8\":\"255\"", "\"root.u8\":\"-1\"", "root.u8"),
        (
            "\"root.u64\":\"18446744073709551615\"",
            "\"root.u64\":\"18446744073709551616\"",
            "root.u64",
        ),
        (
            "\"root.u64\":\"18446744073709551615\"",
            "\"root.u64\":\"-1\"",
            "root.u64",
        ),
        (
            "\"root.u64\":\"18446744073709551615\"",
            "\"root.u64\":\"99999999999999999999999999999999999999\"",
            "root.u64",
        ),
    ] {
        z206(replaced(from, to), "value.integer_range", &field_ptr(id));
    }
}

pub(crate) fn integer_boundaries_are_admitted_exactly() {
    let s = schema();
    for (from, to, id, v) in [
        (
            "\"root.i32\":\"-5\"",
            "\"root.i32\":\"-2147483648\"",
            "root.i32",
            Value::I64(i32::MIN.into()),
        ),
        (
            "\"root.i32\":\"-5\"",
            "\"root.i32\":\"2147483647\"",
            "root.i32",
            Value::I64(i32::MAX.into()),
        ),
        (
            "\"root.i32\":\"-5\"",
            "\"root.i32\":\"0\"",
            "root.i32",
            Value::I64(0),
        ),
        (
            "\"root.i64\":\"9007199254740993\"",
            "\"root.i64\":\"-9223372036854775808\"",
            "root.i64",
            Value::I64(i64::MIN),
        ),
        (
            "\"root.i64\":\"9007199254740993\"",
            "\"root.i64\":\"9223372036854775807\"",
            "root.i64",
            Value::I64(i64::MAX),
        ),
        (
            "\"root.u8\":\"255\"",
            "\"root.u8\":\"0\"",
            "root.u8",
            Value::U64(0),
        ),
        (
            "\"root.u64\":\"18446744073709551615\"",
            "\"root.u64\":\"9007199254740993\"",
            "root.u64",
            Value::U64((1 << 53) + 1),
        ),
    ] {
        let v2 = admitted(&s, replaced(from, to));
        assert_eq!(v2.field(id), Some(&v));
    }
    // 2^53+1 and u64::MAX survive exactly (no float on the way).
    let v = admitted(&s, valid());
    assert_eq!(
        v.field("root.i64"),
        Some(&Value::I64(9_007_199_254_740_993))
    );
    assert_eq!(v.field("root.u64"), Some(&Value::U64(u64::MAX)));
}

pub(crate) fn value_string_bytes_boundary() {
    let s = schema();
    // 2048 two-byte characters = 4096 bytes: admitted.
    let ok = "é".repeat(2048);
    assert_eq!(ok.len(), 4096);
    let v = admitted(&s, replaced("\"héllo\"", &format!("\"{ok}\"")));
    assert_eq!(v.field("root.s"), Some(&Value::String(ok.clone())));
    // Four-byte characters: 1024 of them = 4096 bytes.
    let ok4 = "😀".repeat(1024);
    admitted(&s, replaced("\"héllo\"", &format!("\"{ok4}\"")));
    // 4097 bytes.
    let over = format!("{ok}a");
    z206(
        replaced("\"héllo\"", &format!("\"{over}\"")),
        "value.string_bytes",
        &field_ptr("root.s"),
    );
    // The bound is on the decoded text: 4096 bytes written with escapes
    // (non-canonically) still pass the walk and fail only at step 10.
    let escaped = "\\u00e9".repeat(2048);
    z205(
        replaced("\"héllo\"", &format!("\"{escaped}\"")),
        "canonical.mismatch",
        &field_ptr("root.s"),
    );
    let escaped_over = format!("{escaped}a");
    // Two violations: the stream refuses the first escape.
    let multi = spx_tests::stream::may_differ();
    z206(
        replaced("\"héllo\"", &format!("\"{escaped_over}\"")),
        "value.string_bytes",
        &field_ptr("root.s"),
    );
    drop(multi);
    // 4096 escaped controls (6 input bytes each, 1 decoded byte): admitted.
    let ctl = "\\u0001".repeat(4096);
    let v = admitted(&s, replaced("\"héllo\"", &format!("\"{ctl}\"")));
    assert_eq!(
        v.field("root.s"),
        Some(&Value::String("\u{1}".repeat(4096)))
    );
}

pub(crate) fn value_bytes_boundaries() {
    let s = schema();
    let list = |n: usize, x: &str| format!("[{}]", vec![x; n].join(","));
    let v = admitted(&s, replaced("[0,1,255]", &list(4096, "255")));
    assert_eq!(v.field("root.bytes"), Some(&Value::Bytes(vec![255; 4096])));
    let v = admitted(&s, replaced("[0,1,255]", "[]"));
    assert_eq!(v.field("root.bytes"), Some(&Value::Bytes(vec![])));
    z206(
        replaced("[0,1,255]", &list(4097, "7")),
        "value.bytes_length",
        &field_ptr("root.bytes"),
    );
    // The length comes before any element (the stream refuses the first
    // bad element before it can count them).
    let _multi = spx_tests::stream::may_differ();
    z206(
        replaced("[0,1,255]", &list(4097, "-1")),
        "value.bytes_length",
        &field_ptr("root.bytes"),
    );
    z206(
        replaced("[0,1,255]", &list(4097, "\"x\"")),
        "value.bytes_length",
        &field_ptr("root.bytes"),
    );
}

pub(crate) fn value_bytes_element() {
    for (bad, idx) in [
        ("[0,256]", 1),
        ("[-1]", 0),
        ("[0,-0]", 1),
        ("[1.0]", 0),
        ("[1e0]", 0),
        ("[1E2]", 0),
        ("[0,0.5]", 1),
        ("[2,1,\"1\"]", 2),
        ("[true]", 0),
        ("[null]", 0),
        ("[[1]]", 0),
        ("[1e300]", 0),
        ("[0,1,255,18446744073709551616]", 3),
    ] {
        z206(
            replaced("[0,1,255]", bad),
            "value.bytes_element",
            &format!("/value/fields/root.bytes/{idx}"),
        );
    }
}

/// A recursive hand-built graph (never derived) reaches `value.max_depth`.
fn list_schema() -> Schema {
    Schema::from_graph(TypeGraph {
        types: vec![variant(
            "list",
            vec![
                case("list.nil", vec![]),
                case(
                    "list.cons",
                    vec![
                        scalar("cons.head", Repr::U8),
                        field("cons.tail", FieldType::Nested(0)),
                    ],
                ),
            ],
        )],
    })
    .unwrap()
}

fn list_doc(s: &Schema, n: usize) -> (String, String) {
    let mut v = String::from("{\"case\":\"list.nil\",\"fields\":{}}");
    let mut ptr = String::from("/value");
    for _ in 0..n {
        v = format!(
            "{{\"case\":\"list.cons\",\"fields\":{{\"cons.head\":\"1\",\"cons.tail\":{v}}}}}"
        );
        ptr.push_str("/fields/cons.tail");
    }
    (envelope(s, &v), ptr)
}

pub(crate) fn value_max_depth() {
    let s = list_schema();
    let (ok, _) = list_doc(&s, 16);
    admitted(&s, ok);
    let (deep, ptr) = list_doc(&s, 17);
    refused(&s, deep, Code::Z206, "value.max_depth", &ptr);
}

// ---------------------------------------------------------------- step 10

pub(crate) fn whitespace_anywhere_is_not_canonical() {
    let v = valid();
    // Between every pair of bytes outside strings where JSON allows it.
    let mut in_string = false;
    let mut escaped = false;
    let bytes = v.as_bytes();
    let mut count = 0;
    for i in 1..bytes.len() - 1 {
        let prev = bytes[i - 1];
        if in_string {
            if escaped {
                escaped = false;
            } else if prev == b'\\' {
                escaped = true;
            } else if prev == b'"' {
                in_string = false;
            }
        } else if prev == b'"' {
            in_string = true;
        }
        let boundary = !in_string
            && matches!(
                prev,
                b'{' | b'}' | b'[' | b']' | b',' | b':' | b'"' | b'e' | b'0'..=b'9'
            );
        if !boundary || (prev == b'"' && in_string) {
            continue;
        }
        for ws in [" ", "\t"] {
            let mut doc = v.clone();
            doc.insert_str(i, ws);
            let d = recorded(&schema(), doc.as_bytes());
            grammar_support::assert_refused(&schema(), doc.as_bytes());
            if let Err(d) = &d {
                if d.rule == "json.syntax" {
                    streamed(&schema(), doc.as_bytes(), &Err(d.clone()));
                    continue; // inside a literal or number
                }
            }
            let d = d.expect_err("whitespace admitted");
            assert_eq!(
                (d.code, d.rule),
                (Code::Z205, "canonical.mismatch"),
                "{doc}"
            );
            assert_eq!(decode_spec_path(&schema(), doc.as_bytes()), Err(d.clone()));
            streamed(&schema(), doc.as_bytes(), &Err(d));
            count += 1;
        }
    }
    assert!(count > 60, "{count}");
    // Leading and trailing whitespace of the body.
    z205(format!(" {v}"), "canonical.mismatch", "");
    z205(v.replace("}\n", "} \n"), "canonical.mismatch", "");
    z205(v.replace("}\n", "}\t\n"), "canonical.mismatch", "");
    // Inside a member: the pointer names it.
    z205(
        replaced("\"root.flag\":true", "\"root.flag\": true"),
        "canonical.mismatch",
        &field_ptr("root.flag"),
    );
    z205(
        replaced("[0,1,255]", "[0, 1,255]"),
        "canonical.mismatch",
        &field_ptr("root.bytes"),
    );
    z205(
        replaced("\"inner.x\":\"7\"", "\"inner.x\" :\"7\""),
        "canonical.mismatch",
        "/value/fields/outer.inner/fields/inner.x",
    );
}

pub(crate) fn reordered_keys_are_not_canonical() {
    let s = schema();
    // The stream reads a declared key before its place as the omission of
    // the keys it skips (a later byte decides whether they come after).
    let _multi = spx_tests::stream::may_differ();
    // Envelope.
    let doc = format!(
        "{{\"root_type_id\":\"t.root\",\"schema\":\"semaprax.agent-interaction-value.v1\",\"schema_digest\":\"{}\",\"value\":{VALUE}}}\n",
        s.digest()
    );
    z205(doc, "canonical.mismatch", "/root_type_id");
    // Fields.
    z205(
        replaced(
            "\"root.flag\":true,\"root.i32\":\"-5\"",
            "\"root.i32\":\"-5\",\"root.flag\":true",
        ),
        "canonical.mismatch",
        "/value/fields/root.i32",
    );
    z205(
        replaced(
            "\"inner.x\":\"7\",\"inner.b\":false",
            "\"inner.b\":false,\"inner.x\":\"7\"",
        ),
        "canonical.mismatch",
        "/value/fields/outer.inner/fields/inner.b",
    );
    // Variant keys.
    z205(
        replaced(
            r#"{"case":"shape.rect","fields":{"rect.w":"3","rect.h":"4"}}"#,
            r#"{"fields":{"rect.w":"3","rect.h":"4"},"case":"shape.rect"}"#,
        ),
        "canonical.mismatch",
        "/value/fields/root.shape/fields",
    );
}

pub(crate) fn duplicate_keys_at_every_level_are_refused() {
    let shape = r#"{"case":"shape.rect","fields":{"rect.w":"3","rect.h":"4"}}"#;
    let s = schema();
    let cases: Vec<(String, &str)> = vec![
        // Envelope, identical values.
        (replaced("\"schema\":\"semaprax.agent-interaction-value.v1\",", "\"schema\":\"semaprax.agent-interaction-value.v1\",\"schema\":\"semaprax.agent-interaction-value.v1\","), "/schema"),
        (replaced("\"root_type_id\":\"t.root\",", "\"root_type_id\":\"t.root\",\"root_type_id\":\"t.root\","), "/root_type_id"),
        (replaced(",\"value\":", &format!(",\"schema_digest\":\"{}\",\"value\":", s.digest())), "/schema_digest"),
        (format!("{},\"value\":{VALUE}}}\n", valid().strip_suffix("}\n").unwrap()), ""),
        // Value object, root fields, nested record, nested fields.
        (replaced("{\"fields\":{\"root.flag\":true", "{\"fields\":{},\"fields\":{\"root.flag\":true"), "/value/fields"),
        (replaced("\"root.flag\":true,", "\"root.flag\":true,\"root.flag\":true,"), "/value/fields/root.flag"),
        (replaced("\"root.s\":\"héllo\",", "\"root.s\":\"héllo\",\"root.s\":\"héllo\","), "/value/fields/root.s"),
        (replaced("{\"fields\":{\"inner.x\"", "{\"fields\":{\"inner.x\":\"7\",\"inner.b\":false},\"fields\":{\"inner.x\""), "/value/fields/outer.inner"),
        (replaced("\"inner.b\":false", "\"inner.b\":false,\"inner.b\":false"), "/value/fields/outer.inner/fields"),
        // Variant: case, fields, case fields.
        (replaced(shape, r#"{"case":"shape.rect","case":"shape.rect","fields":{"rect.w":"3","rect.h":"4"}}"#), "/value/fields/root.shape/case"),
        (replaced(shape, r#"{"case":"shape.rect","fields":{"rect.w":"3","rect.h":"4"},"fields":{"rect.w":"3","rect.h":"4"}}"#), "/value/fields/root.shape"),
        (replaced(shape, r#"{"case":"shape.rect","fields":{"rect.w":"3","rect.w":"3","rect.h":"4"}}"#), "/value/fields/root.shape/fields/rect.w"),
    ];
    for (doc, ptr) in cases {
        // A first occurrence unlike the last (the empty fields object): the
        // stream refuses it as incomplete before it sees the second.
        let _multi = doc
            .contains("{\"fields\":{},\"fields\":")
            .then(spx_tests::stream::may_differ);
        z205(doc, "canonical.mismatch", ptr);
    }
}

pub(crate) fn duplicate_keys_walk_sees_the_last_occurrence() {
    let shape = r#"{"case":"shape.rect","fields":{"rect.w":"3","rect.h":"4"}}"#;
    // Two occurrences that differ: which one decides the code is a later
    // byte's business (the stream names the first difference).
    let multi = spx_tests::stream::may_differ();
    // Differing values: the last one is the one checked …
    z206(
        replaced(
            "\"root.i32\":\"-5\"",
            "\"root.i32\":\"-5\",\"root.i32\":\"x\"",
        ),
        "value.integer",
        &field_ptr("root.i32"),
    );
    z206(
        replaced("\"t.root\"", "\"t.root\",\"root_type_id\":\"t.other\""),
        "root_type_id",
        "/root_type_id",
    );
    z206(
        replaced(
            shape,
            r#"{"case":"shape.rect","case":"shape.x","fields":{}}"#,
        ),
        "value.case",
        "/value/fields/root.shape/case",
    );
    // … and an invalid earlier one is only refused at step 10.
    z205(
        replaced(
            "\"root.i32\":\"-5\"",
            "\"root.i32\":\"x\",\"root.i32\":\"-5\"",
        ),
        "canonical.mismatch",
        &field_ptr("root.i32"),
    );
    z205(
        replaced(
            "\"semaprax.agent-interaction-value.v1\"",
            "\"wrong\",\"schema\":\"semaprax.agent-interaction-value.v1\"",
        ),
        "canonical.mismatch",
        "/schema",
    );
    z205(
        replaced(
            shape,
            r#"{"case":"shape.x","fields":7,"case":"shape.rect","fields":{"rect.w":"3","rect.h":"4"}}"#,
        ),
        "canonical.mismatch",
        "/value/fields/root.shape/case",
    );
    drop(multi);
    // A duplicated unknown key is still unknown; the first one is named.
    z206(
        replaced("\"inner.b\":false", "\"inner.b\":false,\"q\":1,\"q\":2"),
        "value.fields.unknown",
        "/value/fields/outer.inner/fields/q",
    );
}

pub(crate) fn non_canonical_escapes_are_refused() {
    let s = schema();
    let with = |text: &str| replaced("\"héllo\"", text);
    for (text, decoded) in [
        ("\"h\\u00e9llo\"", "héllo"),
        ("\"a\\/b\"", "a/b"),
        ("\"\\b\"", "\u{8}"),
        ("\"\\f\"", "\u{c}"),
        ("\"\\u007F\"", "\u{7f}"),
        ("\"\\u001F\"", "\u{1f}"),
        ("\"\\u000a\"", "\n"),
        ("\"\\u0009\"", "\t"),
        ("\"\\u0041\"", "A"),
        ("\"\\ud83d\\ude00\"", "😀"),
        ("\"\\u00a0\"", "\u{a0}"),
    ] {
        z205(with(text), "canonical.mismatch", &field_ptr("root.s"));
        // The walk did read the escape correctly: the canonical form of the
        // same text is admitted.
        let canonical = spx_schema::quote::quote(decoded);
        let v = admitted(&s, with(&canonical));
        assert_eq!(v.field("root.s"), Some(&Value::String(decoded.into())));
    }
    // Escapes in keys and ids are decoded for the walk, refused at step 10.
    z205(
        replaced("\"root.flag\":", "\"root\\u002eflag\":"),
        "canonical.mismatch",
        &field_ptr("root.flag"),
    );
    z205(
        replaced("{\"schema\":", "{\"sch\\u0065ma\":"),
        "canonical.mismatch",
        "/schema",
    );
    z205(
        replaced("\"t.root\"", "\"t\\u002eroot\""),
        "canonical.mismatch",
        "/root_type_id",
    );
    z205(
        replaced("\"shape.rect\"", "\"shape\\u002erect\""),
        "canonical.mismatch",
        "/value/fields/root.shape/case",
    );
    z205(
        replaced("\"root.i32\":\"-5\"", "\"root.i32\":\"-\\u0035\""),
        "canonical.mismatch",
        &field_ptr("root.i32"),
    );
}

pub(crate) fn lone_surrogates_are_not_json() {
    for text in [
        "\"\\ud800\"",
        "\"\\udc00\"",
        "\"\\ud800x\"",
        "\"\\ud800\\u0041\"",
        "\"\\ud800\\ud800\"",
        "\"\\udfff\\ud800\"",
    ] {
        z205(replaced("\"héllo\"", text), "json.syntax", "");
    }
    // In a key too.
    z205(
        replaced("\"root.flag\":", "\"\\ud800\":"),
        "json.syntax",
        "",
    );
}

pub(crate) fn every_control_character() {
    let s = schema();
    let controls = (0u32..=0x1f).chain(0x7f..=0x9f).filter_map(char::from_u32);
    for c in controls {
        let text = format!("a{c}b");
        // Correctly escaped: admitted, and exactly the quoting of FORMAT.md §2.
        let quoted = spx_schema::quote::quote(&text);
        let expected_escape = match c {
            '\n' => "\\n".to_string(),
            '\r' => "\\r".to_string(),
            '\t' => "\\t".to_string(),
            c => format!("\\u{:04x}", c as u32),
        };
        assert_eq!(quoted, format!("\"a{expected_escape}b\""));
        let v = admitted(&s, replaced("\"héllo\"", &quoted));
        assert_eq!(v.field("root.s"), Some(&Value::String(text.clone())));
        // Raw: refused.
        let raw = replaced("\"héllo\"", &format!("\"{text}\""));
        match c {
            '\n' | '\r' => z205(raw, "document.framing", ""),
            c if (c as u32) < 0x20 => z205(raw, "json.syntax", ""),
            _ => z205(raw, "canonical.mismatch", &field_ptr("root.s")),
        };
        // Upper-case hex, where it differs, is refused.
        let upper = format!("\"a\\u{:04X}b\"", c as u32);
        if upper != quoted && !matches!(c, '\n' | '\r' | '\t') {
            z205(
                replaced("\"héllo\"", &upper),
                "canonical.mismatch",
                &field_ptr("root.s"),
            );
        }
    }
}

pub(crate) fn numbers_where_strings_belong_and_odd_forms() {
    z206(
        replaced("\"root.i32\":\"-5\"", "\"root.i32\":-5"),
        "value.representation",
        &field_ptr("root.i32"),
    );
    z205(
        replaced("\"root.i32\":\"-5\"", "\"root.i32\":+5"),
        "json.syntax",
        "",
    );
    z205(
        replaced("\"root.i32\":\"-5\"", "\"root.i32\":05"),
        "json.syntax",
        "",
    );
    z206(
        replaced("\"root.i32\":\"-5\"", "\"root.i32\":-0"),
        "value.representation",
        &field_ptr("root.i32"),
    );
    z206(
        replaced("\"root.i32\":\"-5\"", "\"root.i32\":1e3"),
        "value.representation",
        &field_ptr("root.i32"),
    );
    z206(
        replaced("\"root.i32\":\"-5\"", "\"root.i32\":\"1e3\""),
        "value.integer",
        &field_ptr("root.i32"),
    );
}

pub(crate) fn deep_nesting_never_overflows_the_stack() {
    // An array where the envelope or a byte belongs, nested deeper than
    // JSON's 127: the stream refuses at its first bracket, before the depth
    // decides.
    let _multi = spx_tests::stream::may_differ();
    z205(format!("{}\n", "{".repeat(40_000)), "json.syntax", "");
    z205(format!("{}\n", "[".repeat(40_000)), "json.syntax", "");
    z205(format!("{}\n", "[".repeat(65_535)), "json.syntax", "");
    for open in ["{\"a\":", "[{\"a\":"] {
        z205(
            format!("{}\n", open.repeat(65_000 / open.len())),
            "json.syntax",
            "",
        );
    }
    // Inside the value.
    let deep = format!("{}{}", "[".repeat(30_000), "]".repeat(30_000));
    z205(replaced("[0,1,255]", &deep), "json.syntax", "");
}

pub(crate) fn the_nesting_limit_is_serde_jsons() {
    for depth in [120usize, 124, 125, 126, 127, 128] {
        // The envelope object plus the value's `depth` arrays.
        let deep = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        let doc = replaced(VALUE, &deep);
        let serde_ok = serde_json::from_str::<serde_json::Value>(doc.trim_end()).is_ok();
        let d = recorded(&schema(), doc.as_bytes()).unwrap_err();
        assert_eq!(d.rule == "json.syntax", !serde_ok, "{depth}");
        {
            // Past 126 the depth, decided by a later byte, wins.
            let _multi = (depth >= 127).then(spx_tests::stream::may_differ);
            streamed(&schema(), doc.as_bytes(), &Err(d.clone()));
        }
        assert_eq!(
            d.rule,
            if depth < 127 {
                "value.shape"
            } else {
                "json.syntax"
            }
        );
    }
}

pub(crate) fn ids_with_pointer_and_json_special_characters() {
    let weird = "w/e~i\"r\\d\u{1}é";
    let s = Schema::from_graph(TypeGraph {
        types: vec![record(
            weird,
            vec![scalar("a/b", Repr::U8), scalar("~q\"", Repr::String)],
        )],
    })
    .unwrap();
    let v = Value::Record(vec![
        ("a/b".into(), Value::U64(9)),
        ("~q\"".into(), Value::String("x".into())),
    ]);
    let doc = encode(&s, &v).unwrap();
    assert!(
        doc.contains("\"root_type_id\":\"w/e~i\\\"r\\\\d\\u0001é\""),
        "{doc}"
    );
    assert_eq!(admitted(&s, &doc), v);
    refused(
        &s,
        doc.replace("\"9\"", "\"09\""),
        Code::Z206,
        "value.integer",
        "/value/fields/a~1b",
    );
    refused(
        &s,
        doc.replace(",\"~q\\\"\":\"x\"", ""),
        Code::Z206,
        "value.fields.missing",
        "/value/fields/~0q\"",
    );
    refused(
        &s,
        doc.replace("\\u0001", "\\u0002"),
        Code::Z206,
        "root_type_id",
        "/root_type_id",
    );
}

pub(crate) fn mismatch_detail_names_the_place() {
    let d = z205(
        replaced("\"root.flag\":true", "\"root.flag\": true"),
        "canonical.mismatch",
        &field_ptr("root.flag"),
    );
    let detail = d.detail.unwrap();
    assert!(detail.contains("expected \"true"), "{detail}");
    assert!(detail.contains("found \" true"), "{detail}");
}

pub(crate) fn json_validity_agrees_with_serde_json_on_number_edges() {
    for n in [
        "1e308",
        "1.7976931348623157e308",
        "1.7976931348623158e308",
        "1.7976931348623159e308",
        "2e308",
        "-1e309",
        "1e-400",
        "0e99999999999999999999",
        "1e99999999999999999999",
        "0.0000e400",
        "123456789012345678901234567890",
        "-0.0",
        "0.0e-0",
        "1E+2",
        "1e-0",
    ] {
        let doc = replaced("[0,1,255]", &format!("[{n}]"));
        let d = recorded(&schema(), doc.as_bytes()).unwrap_err();
        grammar_support::assert_refused(&schema(), doc.as_bytes());
        let serde_ok = serde_json::from_str::<serde_json::Value>(doc.trim_end()).is_ok();
        assert_eq!(d.rule == "json.syntax", !serde_ok, "{n}");
        streamed(&schema(), doc.as_bytes(), &Err(d.clone()));
        if serde_ok {
            assert_eq!(d.rule, "value.bytes_element", "{n}");
        }
    }
}

/// Calls `$m!(case, …)` with every case of this file.
macro_rules! for_each_case {
    ($m:ident) => {
        $m!(
            the_valid_document_is_admitted_with_exact_scalars,
            every_variant_case_is_admitted,
            step1_document_bytes,
            step1_document_bytes_comes_before_utf8,
            step2_utf8,
            step2_utf8_comes_before_framing,
            step3_framing,
            step4_json_syntax,
            step4_comes_before_the_envelope,
            step5_envelope_shape_and_keys,
            step6_envelope_schema,
            step7_root_type_id,
            step8_schema_digest,
            root_type_id_comes_before_schema_digest,
            value_shape,
            value_case,
            wrong_case_comes_before_malformed_case_fields,
            value_fields_unknown,
            value_fields_missing,
            unknown_field_comes_before_missing,
            earlier_field_error_comes_before_later_missing_field,
            value_representation,
            value_integer,
            value_integer_range,
            integer_boundaries_are_admitted_exactly,
            value_string_bytes_boundary,
            value_bytes_boundaries,
            value_bytes_element,
            value_max_depth,
            whitespace_anywhere_is_not_canonical,
            reordered_keys_are_not_canonical,
            duplicate_keys_at_every_level_are_refused,
            duplicate_keys_walk_sees_the_last_occurrence,
            non_canonical_escapes_are_refused,
            lone_surrogates_are_not_json,
            every_control_character,
            numbers_where_strings_belong_and_odd_forms,
            deep_nesting_never_overflows_the_stack,
            the_nesting_limit_is_serde_jsons,
            ids_with_pointer_and_json_special_characters,
            mismatch_detail_names_the_place,
            json_validity_agrees_with_serde_json_on_number_edges,
        );
    };
}
pub(crate) use for_each_case;
