//! Adversarial inputs for the three doors that read untrusted text — the
//! strict decoder (dynamic and generated), admission of provider output
//! (`admit`, every dialect) and the `.spx` reader — each refused with the
//! exact code, rule and location, in time and memory bounded by the input
//! (no test here measures time: the bench `tests/benches/adversarial.rs`
//! does, and docs/RELIABILITY.md gives its figures).
//!
//! Crash reproducers found by the fuzz targets (`fuzz/`) are kept here as
//! regression tests too.

use spx_runtime::engine::admit::admit;
use spx_runtime::engine::decode::decode;
use spx_runtime::engine::encode::{encode, example};
use spx_runtime::engine::graph::{Field, FieldType, Repr, TypeGraph, TypeKind, TypeNode};
use spx_runtime::engine::project::Dialect;
use spx_runtime::engine::source::read_module;
use spx_runtime::engine::{self, binding};
use spx_runtime::{Code, Diagnostic, Interaction, Location, Schema, Value};
use std::path::Path;

#[allow(clippy::large_enum_variant, dead_code)]
mod fixture {
    spx_runtime::spx_interaction! {
        source: "fixtures/fuzz/fuzz.spx",
        root: "fz.root.é",
        digest: "sha256:4ca5e0c55ecbf6453a59b567b78aff8cb1b48b242cf3207e9e606401a8c907bc",
        root: "fz.event",
        digest: "sha256:1d046f1912e4651f0c47b78c079558a278ab9c3cd998ae9a0bc194b89bf04f88",
    }
}
use fixture::{Event, Root};

const MAX: usize = 65536;

fn schema() -> &'static Schema {
    Root::schema()
}

/// The example document of the fixture root (every scalar, every
/// integer representation, nested records, a variant, an empty record).
fn valid() -> String {
    encode(schema(), &example(schema())).unwrap()
}

/// The `<VALUE>` part of `doc`, as a provider would send it.
fn value_part(doc: &str) -> &str {
    let start = doc.find(",\"value\":").unwrap() + ",\"value\":".len();
    &doc[start..doc.len() - 2]
}

fn pointer(e: &Diagnostic) -> &str {
    match &e.location {
        Location::Pointer(p) => p,
        other => panic!("not a pointer: {other:?}"),
    }
}

fn show(bytes: &[u8]) -> String {
    let s = String::from_utf8_lossy(bytes);
    let head: String = s.chars().take(120).collect();
    format!("{head}… ({} bytes)", bytes.len())
}

/// Decodes with the dynamic and the generated decoder, which must give
/// the same refusal, and checks its code, rule and pointer.
fn decode_refused(bytes: &[u8], code: Code, rule: &str, ptr: &str) -> Diagnostic {
    let e = match decode(schema(), bytes) {
        Ok(_) => panic!("admitted: {}", show(bytes)),
        Err(e) => e,
    };
    assert_eq!(
        (e.code, e.rule, pointer(&e)),
        (code, rule, ptr),
        "{e:?}\non {}",
        show(bytes)
    );
    let g = Root::decode(bytes).expect_err("the generated decoder admitted it");
    assert_eq!(g, e, "generated vs dynamic on {}", show(bytes));
    e
}

/// Admits with every dialect (the fixture root is a record, so no dialect
/// wraps it) and checks the code, rule and pointer.
fn admit_refused(bytes: &[u8], code: Code, rule: &str, ptr: &str) -> Diagnostic {
    let mut first = None;
    for dialect in Dialect::JSON_SCHEMA {
        let e = match admit(schema(), dialect, bytes) {
            Ok(_) => panic!("{dialect} admitted: {}", show(bytes)),
            Err(e) => e,
        };
        assert_eq!(
            (e.code, e.rule, pointer(&e)),
            (code, rule, ptr),
            "{dialect}: {e:?}\non {}",
            show(bytes)
        );
        first.get_or_insert(e);
    }
    first.unwrap()
}

// ---------------------------------------------------------------------
// Size and nesting.

#[test]
fn one_byte_over_the_bound_is_document_bytes_before_anything_else() {
    for fill in [b'[', b'{', b'"', b'\xff', b' '] {
        let bytes = vec![fill; MAX + 1];
        decode_refused(&bytes, Code::Z206, "document_bytes", "");
        admit_refused(&bytes, Code::Z206, "document_bytes", "");
    }
    // A valid document padded to 65537 bytes.
    let mut doc = valid().into_bytes();
    doc.splice(0..0, std::iter::repeat_n(b' ', MAX + 1 - doc.len()));
    assert_eq!(doc.len(), MAX + 1);
    decode_refused(&doc, Code::Z206, "document_bytes", "");
}

#[test]
fn sixty_four_kib_of_open_brackets() {
    for open in [b'[', b'{'] {
        // Exactly at the bound, no LF: framing comes first.
        let bytes = vec![open; MAX];
        decode_refused(&bytes, Code::Z205, "document.framing", "");
        // At the bound with its LF: the parser refuses the nesting.
        let mut bytes = vec![open; MAX - 1];
        bytes.push(b'\n');
        decode_refused(&bytes, Code::Z205, "json.syntax", "");
        // admit has no framing: the nesting bound of the value.
        let bytes = vec![open; MAX];
        if open == b'[' {
            // Refused where the 37th container opens.
            admit_refused(&bytes, Code::Z206, "value.max_depth", &"/0".repeat(36));
        } else {
            // `{{` is a syntax error at the second byte.
            admit_refused(&bytes, Code::Z205, "json.syntax", "");
        }
    }
    // Nested objects that are well-formed as far as they go.
    let unit = b"{\"fields\":";
    let mut bytes = Vec::new();
    while bytes.len() + unit.len() < MAX {
        bytes.extend_from_slice(unit);
    }
    bytes.push(b'\n');
    decode_refused(&bytes, Code::Z205, "json.syntax", "");
    let e = admit_refused(
        &bytes[..bytes.len() - 1],
        Code::Z206,
        "value.max_depth",
        &"/fields".repeat(36),
    );
    assert!(e.detail.unwrap().contains("36"));
}

#[test]
fn balanced_deep_nesting() {
    for depth in [128usize, 1000, 32767] {
        let mut s = "[".repeat(depth);
        s.push_str(&"]".repeat(depth));
        let mut doc = s.clone().into_bytes();
        doc.push(b'\n');
        decode_refused(&doc, Code::Z205, "json.syntax", "");
        admit_refused(
            s.as_bytes(),
            Code::Z206,
            "value.max_depth",
            &"/0".repeat(36),
        );
    }
    // A nesting the JSON parser accepts (127) is refused by the envelope.
    let doc = format!("{}{}\n", "[".repeat(127), "]".repeat(127));
    decode_refused(doc.as_bytes(), Code::Z205, "envelope.shape", "");
}

// ---------------------------------------------------------------------
// Integers.

/// The pointers (in the document) of every integer field of the example,
/// with the representation.
fn integer_fields() -> Vec<(&'static str, Repr)> {
    vec![
        (
            "/value/fields/fz.root.pair/fields/fz.pair.left/fields/fz.leaf.n",
            Repr::I32,
        ),
        (
            "/value/fields/fz.root.pair/fields/fz.pair.right/fields/fz.leaf.n",
            Repr::I32,
        ),
        ("/value/fields/fz.root.leaf/fields/fz.leaf.n", Repr::I32),
        ("/value/fields/fz.root.count", Repr::U64),
        ("/value/fields/fz.root.delta", Repr::I64),
        ("/value/fields/fz.root.byte", Repr::U8),
    ]
}

/// The example document with the `k`-th integer (in document order)
/// replaced by the quoted `text`.
fn with_integer(doc: &str, k: usize, text: &str) -> String {
    let values = [
        "\"42\"",
        "\"42\"",
        "\"42\"",
        "\"9007199254740993\"",
        "\"-1234567890123\"",
        "\"200\"",
    ];
    let mut at = 0;
    for (i, v) in values.iter().enumerate() {
        let pos = at + doc[at..].find(v).unwrap();
        if i == k {
            return format!("{}\"{text}\"{}", &doc[..pos], &doc[pos + v.len()..]);
        }
        at = pos + v.len();
    }
    unreachable!()
}

#[test]
fn huge_integers_in_every_integer_field() {
    let doc = valid();
    let nines = |n: usize| "9".repeat(n);
    for (k, (ptr, repr)) in integer_fields().into_iter().enumerate() {
        let (min, max) = repr.bounds().unwrap();
        let mut out_of_range = vec![
            nines(20),
            nines(40),
            nines(30_000),
            format!("-{}", nines(30_000)),
            "18446744073709551616".to_owned(),
            "-9223372036854775809".to_owned(),
        ];
        if min == "0" {
            out_of_range.push("-1".to_owned());
        }
        // One past each bound.
        let past = |s: &str, up: bool| -> String {
            let n: i128 = s.parse().unwrap();
            (if up { n + 1 } else { n - 1 }).to_string()
        };
        out_of_range.push(past(max, true));
        if min != "0" {
            out_of_range.push(past(min, false));
        }
        for text in &out_of_range {
            let m = with_integer(&doc, k, text);
            decode_refused(m.as_bytes(), Code::Z206, "value.integer_range", ptr);
            let provider = value_part(&m);
            admit_refused(
                provider.as_bytes(),
                Code::Z206,
                "value.integer_range",
                ptr.strip_prefix("/value").unwrap(),
            );
        }
        // The bounds themselves are admitted.
        for text in [min, max] {
            let m = with_integer(&doc, k, text);
            let d = decode(schema(), m.as_bytes()).unwrap();
            assert_eq!(Root::decode(m.as_bytes()).unwrap().to_value(), d.value);
        }
        // Malformed (not range) integers: value.integer.
        for text in ["", "-", "+1", "01", "-0", "1.0", "1e3", " 1", "0x10", "١"] {
            let m = with_integer(&doc, k, text);
            decode_refused(m.as_bytes(), Code::Z206, "value.integer", ptr);
        }
    }
}

#[test]
fn huge_numbers_in_a_bytes_array() {
    let doc = valid();
    let ptr = "/value/fields/fz.root.blob/0";
    for n in ["256", "99999999999999999999", "-1", "1.0", "1e2", "-0"] {
        let m = doc.replace("[0,1,255]", &format!("[{n},1,255]"));
        decode_refused(m.as_bytes(), Code::Z206, "value.bytes_element", ptr);
        admit_refused(
            value_part(&m).as_bytes(),
            Code::Z206,
            "value.bytes_element",
            "/fields/fz.root.blob/0",
        );
    }
    // A number too big for any float is not JSON to the strict parser.
    let m = doc.replace("[0,1,255]", &format!("[{},1,255]", "9".repeat(30_000)));
    decode_refused(m.as_bytes(), Code::Z205, "json.syntax", "");
    // 4097 elements: the length, before any element.
    let long = format!("[{}1]", "256,".repeat(4096));
    let m = doc.replace("[0,1,255]", &long);
    decode_refused(
        m.as_bytes(),
        Code::Z206,
        "value.bytes_length",
        "/value/fields/fz.root.blob",
    );
}

// ---------------------------------------------------------------------
// Strings and escapes.

fn with_label(doc: &str, json_string_body: &str) -> String {
    doc.replace("\"example\"", &format!("\"{json_string_body}\""))
}

#[test]
fn long_runs_of_escapes() {
    let doc = valid();
    let ptr = "/value/fields/fz.root.label";
    let admit_ptr = "/fields/fz.root.label";

    // 4096 backslashes (8192 bytes escaped) are a canonical 4096-byte string.
    let m = with_label(&doc, &"\\\\".repeat(4096));
    let d = decode(schema(), m.as_bytes()).unwrap();
    assert_eq!(
        d.value.field("fz.root.label"),
        Some(&Value::String("\\".repeat(4096)))
    );
    assert_eq!(Root::decode(m.as_bytes()).unwrap().label, "\\".repeat(4096));
    // One more is over the bound.
    let m = with_label(&doc, &"\\\\".repeat(4097));
    decode_refused(m.as_bytes(), Code::Z206, "value.string_bytes", ptr);
    admit_refused(
        value_part(&m).as_bytes(),
        Code::Z206,
        "value.string_bytes",
        admit_ptr,
    );

    // 4096 × \u0061: a valid 4096-byte string, not canonical; admit takes it.
    let m = with_label(&doc, &"\\u0061".repeat(4096));
    decode_refused(m.as_bytes(), Code::Z205, "canonical.mismatch", ptr);
    let a = admit(schema(), Dialect::Draft2020, value_part(&m).as_bytes()).unwrap();
    assert_eq!(a.canonical, with_label(&doc, &"a".repeat(4096)));
    // 10000 of them: the string bound comes first (step 9 before 10).
    let m = with_label(&doc, &"\\u0061".repeat(10_000));
    decode_refused(m.as_bytes(), Code::Z206, "value.string_bytes", ptr);
    admit_refused(
        value_part(&m).as_bytes(),
        Code::Z206,
        "value.string_bytes",
        admit_ptr,
    );

    // Surrogate pairs: 1100 × U+1D11E is 4400 bytes.
    let m = with_label(&doc, &"\\ud834\\udd1e".repeat(1100));
    decode_refused(m.as_bytes(), Code::Z206, "value.string_bytes", ptr);
    admit_refused(
        value_part(&m).as_bytes(),
        Code::Z206,
        "value.string_bytes",
        admit_ptr,
    );
    // 1024 of them is exactly 4096 bytes.
    let m = with_label(&doc, &"\\ud834\\udd1e".repeat(1024));
    decode_refused(m.as_bytes(), Code::Z205, "canonical.mismatch", ptr);
    let a = admit(schema(), Dialect::OpenAi, value_part(&m).as_bytes()).unwrap();
    assert_eq!(a.canonical, with_label(&doc, &"𝄞".repeat(1024)));

    // A control character must be escaped; the canonical escape of U+001F
    // is lowercase, 4096 of them are admitted (24576 bytes of escapes).
    let m = with_label(&doc, &"\\u001f".repeat(4096));
    decode(schema(), m.as_bytes()).unwrap();
    let m = with_label(&doc, &"\\u001F".repeat(4096));
    decode_refused(m.as_bytes(), Code::Z205, "canonical.mismatch", ptr);

    // An unterminated run of escapes to the end of the document.
    let mut m = doc.replace("\"example\"", "\"");
    m.truncate(m.find("\"fz.root.label\":\"").unwrap() + 17);
    m.push_str(&"\\\\".repeat(20_000));
    m.push('\n');
    decode_refused(m.as_bytes(), Code::Z205, "json.syntax", "");
    // An odd run of backslashes escapes the closing quote.
    let m = with_label(&doc, &"\\".repeat(20_001));
    decode_refused(m.as_bytes(), Code::Z205, "json.syntax", "");
    // Invalid escapes.
    for bad in ["\\x41", "\\u004", "\\u00g1", "\\U0041", "\\'", "\\a", "\\0"] {
        let m = with_label(&doc, bad);
        decode_refused(m.as_bytes(), Code::Z205, "json.syntax", "");
        admit_refused(
            value_part(&m).as_bytes(),
            Code::Z205,
            "json.syntax",
            admit_ptr,
        );
    }
}

#[test]
fn lone_surrogate_escapes() {
    let doc = valid();
    for bad in [
        "\\ud800",
        "\\udc00",
        "\\udfff",
        "\\ud800x",
        "\\ud800\\u0041",
        "\\udbff\\udbff",
        "\\udc00\\ud800",
        "a\\ud83d",
    ] {
        let m = with_label(&doc, bad);
        decode_refused(m.as_bytes(), Code::Z205, "json.syntax", "");
        admit_refused(
            value_part(&m).as_bytes(),
            Code::Z205,
            "json.syntax",
            "/fields/fz.root.label",
        );
        // In a key too.
        let m = doc.replace("\"fz.root.ok\"", &format!("\"fz.root.ok{bad}\""));
        decode_refused(m.as_bytes(), Code::Z205, "json.syntax", "");
        admit_refused(
            value_part(&m).as_bytes(),
            Code::Z205,
            "json.syntax",
            "/fields",
        );
    }
}

// ---------------------------------------------------------------------
// UTF-8.

#[test]
fn invalid_utf8_at_every_position() {
    let doc = valid().into_bytes();
    let provider = value_part(std::str::from_utf8(&doc).unwrap())
        .as_bytes()
        .to_vec();
    for i in 0..doc.len() {
        let mut m = doc.clone();
        m[i] = 0xff;
        decode_refused(&m, Code::Z206, "utf8", "");
        let mut m = doc.clone();
        m.insert(i, 0x80);
        decode_refused(&m, Code::Z206, "utf8", "");
        // Cutting a multi-byte character (the é of the root id).
        if doc[i] >= 0xc0 {
            decode_refused(&doc[..i + 1], Code::Z206, "utf8", "");
        }
    }
    for i in 0..provider.len() {
        let mut m = provider.clone();
        m[i] = 0xff;
        admit_refused(&m, Code::Z206, "utf8", "");
        let mut m = provider.clone();
        m.insert(i, 0xc3);
        admit_refused(&m, Code::Z206, "utf8", "");
    }
}

/// Overlong encodings, UTF-8-encoded surrogates, code points past
/// U+10FFFF, stray continuation bytes and truncated sequences.
const BAD_UTF8: &[&[u8]] = &[
    b"\xc0\x80",
    b"\xc1\xbf",
    b"\xe0\x80\x80",
    b"\xe0\x9f\xbf",
    b"\xf0\x80\x80\x80",
    b"\xf0\x8f\xbf\xbf",
    b"\xed\xa0\x80",
    b"\xed\xbf\xbf",
    b"\xed\xa0\xbd\xed\xb2\xa9",
    b"\xf4\x90\x80\x80",
    b"\xf5\x80\x80\x80",
    b"\xf8\x88\x80\x80\x80",
    b"\xfc\x84\x80\x80\x80\x80",
    b"\x80",
    b"\xbf",
    b"\xe2\x82",
    b"\xf0\x9f\x98",
    b"\xfe",
];

#[test]
fn overlong_and_surrogate_encodings() {
    let doc = valid();
    let provider = value_part(&doc).to_owned();
    // Inside a string value, a key, between tokens, first and last.
    let places = |s: &str| -> Vec<usize> {
        vec![
            0,
            s.find("example").unwrap() + 3,
            s.find("fz.root.ok").unwrap() + 2,
            s.find(",\"fz.root.byte\"").unwrap(),
            s.len() - 1,
        ]
    };
    for bad in BAD_UTF8 {
        for at in places(&doc) {
            let mut m = doc.clone().into_bytes();
            m.splice(at..at, bad.iter().copied());
            decode_refused(&m, Code::Z206, "utf8", "");
        }
        for at in places(&provider) {
            let mut m = provider.clone().into_bytes();
            m.splice(at..at, bad.iter().copied());
            admit_refused(&m, Code::Z206, "utf8", "");
        }
        // UTF-8 is checked before the size of… no: size first.
        let mut big = doc.clone().into_bytes();
        big.extend_from_slice(bad);
        big.resize(MAX + 1, b' ');
        decode_refused(&big, Code::Z206, "document_bytes", "");
    }
    // The reader's door: a .spx file with bad UTF-8 is SPX-F003.
    let dir = scratch("utf8");
    for (i, bad) in BAD_UTF8.iter().enumerate() {
        let path = dir.join(format!("bad{i}.spx"));
        let mut text = b"module m;\n// ".to_vec();
        text.extend_from_slice(bad);
        text.extend_from_slice(b"\n@id(\"r\")\nrecord R {\n}\n");
        std::fs::write(&path, &text).unwrap();
        let errs = binding::compile_file(&path, "bad.spx", "r").unwrap_err();
        assert_eq!(errs.len(), 1);
        assert_eq!(
            (errs[0].code, errs[0].rule),
            (binding::SOURCE_UTF8, "source.utf8")
        );
        assert_eq!(
            errs[0].location,
            Location::File {
                path: "bad.spx".into()
            }
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---------------------------------------------------------------------
// The `.spx` reader.

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("spx-adversarial-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Reads `text`, expecting exactly one error with `code` and `rule` at
/// `line:column`.
fn reader_refused(text: &str, code: &str, rule: &str, line: u32, column: u32) {
    let errs = read_module("adv.spx", text).expect_err("the reader accepted it");
    let e = &errs[0];
    let Location::Source {
        path,
        line: l,
        column: c,
        span: Some(span),
    } = &e.location
    else {
        panic!("no source location with a span: {errs:?}");
    };
    assert_eq!(
        (e.code.as_str(), e.rule, path.as_str(), *l, *c),
        (code, rule, "adv.spx", line, column),
        "{errs:?}"
    );
    assert!(span.start <= span.end && span.end <= text.len(), "{errs:?}");
}

#[test]
fn reader_sixty_four_kib_of_delimiters() {
    let n = MAX;
    // At item position: not an item. Unbalanced delimiters, attributes on
    // nothing and unterminated literals are refused; anything else is an
    // unknown item, skipped with a note (today's language rule).
    for c in ["{", "(", "[", "@", "'"] {
        let text = format!("module m;\n{}", c.repeat(n));
        let errs = read_module("adv.spx", &text).expect_err(c);
        assert!(
            matches!(errs[0].location, Location::Source { line: 2, .. }),
            "{c}: {errs:?}"
        );
    }
    // (`"` repeated an even number of times is empty string literals.)
    for c in ["<", "\""] {
        let m = read_module("adv.spx", &format!("module m;\n{}", c.repeat(n))).unwrap();
        assert_eq!(m.notes.len(), 1, "{c}");
        assert_eq!(
            (m.notes[0].code.as_str(), m.notes[0].rule),
            ("SPX-N001", "syntax.unknown_item")
        );
    }
    reader_refused(
        &format!("module m;\n{}", "{".repeat(n)),
        "SPX-P003",
        "syntax.unbalanced_delimiter",
        2,
        n as u32,
    );
    // In a skipped item: unbalanced.
    // (located at the innermost delimiter that is never closed)
    for c in ["{", "(", "["] {
        let text = format!("module m;\nfn f() {}", c.repeat(n));
        reader_refused(
            &text,
            "SPX-P003",
            "syntax.unbalanced_delimiter",
            2,
            7 + n as u32,
        );
    }
    // Closers alone.
    let text = format!("module m;\nfn f() {}", "}".repeat(n));
    reader_refused(&text, "SPX-P003", "syntax.unbalanced_delimiter", 2, 8);
    // In a field type.
    let text = format!("module m;\nrecord R {{ x: A{} }}", "<".repeat(n));
    reader_refused(&text, "SPX-P002", "syntax.unexpected_token", 2, 17);
}

#[test]
fn reader_deep_type_nesting() {
    for depth in [100usize, 10_000] {
        let ty = format!("{}i64{}", "Option<".repeat(depth), ">".repeat(depth));
        let text =
            format!("module m;\n@id(\"r\")\nrecord R {{\n    @id(\"r.x\")\n    x: {ty},\n}}\n");
        let errs = read_module("adv.spx", &text).unwrap_err();
        assert_eq!(
            (errs[0].code.as_str(), errs[0].rule),
            ("SPX-P008", "syntax.type_nesting"),
            "{errs:?}"
        );
        let ty = format!("{}i64{}", "[".repeat(depth), "; 1]".repeat(depth));
        let text = format!("module m;\nrecord R {{ x: {ty}, }}\n");
        let errs = read_module("adv.spx", &text).unwrap_err();
        assert_eq!(
            (errs[0].code.as_str(), errs[0].rule),
            ("SPX-P008", "syntax.type_nesting"),
            "{errs:?}"
        );
        let ty = format!("{}i64{}", "fn(".repeat(depth), ")".repeat(depth));
        let text = format!("module m;\nrecord R {{ x: {ty}, }}\n");
        let errs = read_module("adv.spx", &text).unwrap_err();
        assert_eq!(
            (errs[0].code.as_str(), errs[0].rule),
            ("SPX-P008", "syntax.type_nesting"),
            "{errs:?}"
        );
    }
}

#[test]
fn reader_long_tokens() {
    // A 64 KiB integer literal does not fit an i64.
    let text = format!("module m;\nfn f() {{ {} }}", "9".repeat(MAX));
    reader_refused(&text, "SPX-P007", "syntax.integer_range", 2, 10);
    // A 64 KiB identifier and a 64 KiB id are read.
    let long = "a".repeat(MAX);
    let text = format!("module m;\n@id(\"{long}\")\nrecord {long} {{\n}}\n");
    let m = read_module("adv.spx", &text).unwrap();
    let s = Schema::derive(&m, &long).unwrap();
    assert!(s.document().contains(&long));
    // 30000 escapes in an id.
    let text = format!(
        "module m;\n@id(\"{}\")\nrecord R {{\n}}\n",
        "\\n".repeat(30_000)
    );
    let m = read_module("adv.spx", &text).unwrap();
    Schema::derive(&m, &"\n".repeat(30_000)).unwrap();
    // A bad escape after 30000 good ones.
    let text = format!(
        "module m;\n@id(\"{}\\q\")\nrecord R {{\n}}\n",
        "\\n".repeat(30_000)
    );
    reader_refused(&text, "SPX-P005", "syntax.string_escape", 2, 60_006);
    // Unterminated string of 64 KiB.
    let text = format!("module m;\n@id(\"{}", "x".repeat(MAX));
    reader_refused(&text, "SPX-P004", "syntax.unterminated_string", 2, 5);
    // A 64 KiB comment.
    let text = format!(
        "module m;\n//{}\n@id(\"r\")\nrecord R {{\n}}\n",
        "/".repeat(MAX)
    );
    read_module("adv.spx", &text).unwrap();
}

/// `n` records chained by one field each: `t0 ← t1 ← … ← t{n-1}`.
fn chain_module(n: usize, fan_out: usize) -> String {
    let mut s = String::from("module chain;\n");
    for i in 0..n {
        s.push_str(&format!("@id(\"t{i}\")\nrecord T{i} {{\n"));
        s.push_str(&format!("    @id(\"t{i}.v\")\n    v: i64,\n"));
        if i > 0 {
            for k in 0..fan_out {
                s.push_str(&format!("    @id(\"t{i}.f{k}\")\n    f{k}: T{},\n", i - 1));
            }
        }
        s.push_str("}\n");
    }
    s
}

#[test]
fn reader_deep_and_wide_type_graphs() {
    // Depth 16 is the bound, 17 is refused.
    let m = read_module("chain.spx", &chain_module(18, 1)).unwrap();
    Schema::derive(&m, "t16").unwrap();
    let e = Schema::derive(&m, "t17").unwrap_err();
    assert_eq!((e.code, e.rule), (Code::Z202, "type.max_depth"));
    // 10000 declarations read; the derivation stops at the depth bound.
    let m = read_module("chain.spx", &chain_module(10_000, 1)).unwrap();
    let e = Schema::derive(&m, "t9999").unwrap_err();
    assert_eq!((e.code, e.rule), (Code::Z202, "type.max_depth"));
    // 65 types side by side: type.max_types.
    let mut s = String::from("module wide;\n");
    for i in 0..64 {
        s.push_str(&format!("@id(\"l{i}\")\nrecord L{i} {{\n}}\n"));
    }
    s.push_str("@id(\"root\")\nrecord Root {\n");
    for i in 0..64 {
        s.push_str(&format!("    @id(\"root.{i}\")\n    f{i}: L{i},\n"));
    }
    s.push_str("}\n");
    let m = read_module("wide.spx", &s).unwrap();
    let e = Schema::derive(&m, "root").unwrap_err();
    assert_eq!((e.code, e.rule), (Code::Z202, "type.max_types"));
    // A DAG with fan-out 8 and depth 16 derives (17 types): its schema is
    // small even though every value of it is astronomically large.
    let m = read_module("dag.spx", &chain_module(17, 8)).unwrap();
    let s = Schema::derive(&m, "t16").unwrap();
    assert_eq!(s.graph().types.len(), 17);
    // The decoder refuses any document for it within the size bound: the
    // smallest value needs 8^16 leaves.
    let doc = encode(&s, &Value::Record(vec![])).unwrap_err();
    assert_eq!((doc.code, doc.rule), (Code::Z206, "value.fields.missing"));
}

/// Regression for the exponential `encode::example` (see
/// docs/RELIABILITY.md, "Findings"): for a DAG whose every value is
/// larger than a document may be, the example must stay bounded. With
/// fan-out 2 and depth 16 the smallest value has 2^17 - 1 records; the
/// example may not build more value nodes than a 65536-byte document can
/// hold (each node takes at least 2 bytes).
#[test]
fn example_of_a_wide_dag_is_bounded() {
    let m = read_module("dag.spx", &chain_module(17, 2)).unwrap();
    let s = Schema::derive(&m, "t16").unwrap();
    fn nodes(v: &Value) -> usize {
        match v {
            Value::Record(f) | Value::Variant { fields: f, .. } => {
                1 + f.iter().map(|(_, v)| nodes(v)).sum::<usize>()
            }
            _ => 1,
        }
    }
    let v = example(&s);
    assert!(
        nodes(&v) <= MAX / 2,
        "encode::example built {} value nodes for a schema no document can hold",
        nodes(&v)
    );
}

// ---------------------------------------------------------------------
// Another door: the generated decoder of a variant root.

#[test]
fn the_variant_root_refuses_the_same_way() {
    let s = Event::schema();
    for bytes in [
        vec![b'['; MAX + 1],
        {
            let mut b = vec![b'{'; MAX - 1];
            b.push(b'\n');
            b
        },
        b"\xed\xa0\x80\n".to_vec(),
    ] {
        let d = decode(s, &bytes).unwrap_err();
        assert_eq!(Event::decode(&bytes).unwrap_err(), d);
    }
    let _ = engine::project::draft2020(s);
}

#[test]
fn the_fixture_is_what_the_tests_assume() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let s = binding::compile_file(&dir.join("fixtures/fuzz/fuzz.spx"), "fuzz.spx", "fz.root.é")
        .unwrap();
    assert_eq!(s.document(), Root::SCHEMA_JSON);
    let ints: Vec<Repr> = integer_fields().into_iter().map(|(_, r)| r).collect();
    assert_eq!(ints.len(), 6);
    let graph: &TypeGraph = s.graph();
    let root: &TypeNode = graph.root();
    let TypeKind::Record { fields } = &root.kind else {
        panic!()
    };
    let reprs: Vec<Repr> = fields
        .iter()
        .filter_map(|f: &Field| match f.ty {
            FieldType::Scalar(r) if r.is_integer() => Some(r),
            _ => None,
        })
        .collect();
    assert_eq!(reprs, [Repr::U64, Repr::I64, Repr::U8]);
}
