//! The Lark grammars (`spx provider-schema --dialect lark`, docs/GRAMMARS.md)
//! run in llguidance with a byte-level tokenizer, against the strict
//! decoder, in both directions:
//!
//! - soundness: every document the decoder refuses is refused by the
//!   grammar (leaf-level tables of escapes, integers and byte arrays,
//!   thousands of differential mutations, documents at 65535, 65536 and
//!   65537 bytes, random schemas with ids that need escaping);
//! - completeness: every document the decoder admits is accepted, unless
//!   it lies beyond a bound the grammar reports as narrowed, and then it is
//!   refused (the report is exact); documents right at each enforced bound
//!   are accepted;
//! - sampling: a random sampler under the grammar writes thousands of
//!   documents per fixture root, every one admitted, reaching every case
//!   and every field.
//!
//! The decode corpus (tests/decode.rs) checks the grammar on each of its
//! documents too. `SPX_GRAMMAR_SAMPLES` (default 2000) sets the samples per
//! root and `SPX_GRAMMAR_MUTATIONS` (default 4000) the mutations per
//! fixture root.

#[path = "project/fixtures.rs"]
mod fixtures;
mod grammar_support;
mod prop_support;

use grammar_support::{assert_accepted, assert_refused, check, grammar, Narrowed};
use prop_support::{any_mutation, arb_schema_value, structural_mutation, XorShift};
use proptest::prelude::*;
use spx_schema::codec::envelope;
use spx_schema::decode::decode;
use spx_schema::encode::{encode, example};
use spx_schema::graph::limits::{MAX_BYTES_LEN, MAX_DOCUMENT_BYTES};
use spx_schema::graph::{FieldType, Repr, TypeKind};
use spx_schema::project::grammar::{
    Enforced, Grammar as Model, Narrowing, DOCUMENT, MAX_STRING_CHARS, RULE_DOCUMENT_BYTES,
    RULE_STRING_BYTES,
};
use spx_schema::project::{project, Dialect};
use spx_schema::quote::quote;
use spx_schema::{Schema, Value};
use spx_tests::graph::{field, record, scalar, schema, variant};
use std::collections::BTreeSet;
use std::path::PathBuf;

fn knob(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Every fixture root: the projection fixtures, the decoder's sample, and
/// every root of the `.spx` fixtures (read back from their golden schema
/// documents).
fn roots() -> Vec<(String, Schema)> {
    let mut out: Vec<(String, Schema)> = fixtures::all()
        .into_iter()
        .map(|(n, s)| (n.to_owned(), s))
        .collect();
    out.push(("sample".into(), spx_tests::graph::sample()));
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("golden/schema");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for f in files {
        let doc = std::fs::read(&f).unwrap();
        let s = Schema::parse_document(&doc).unwrap();
        out.push((f.file_name().unwrap().to_string_lossy().into_owned(), s));
    }
    out
}

/// The document of `value`, with the envelope of `schema`.
fn doc_of(schema: &Schema, value: &str) -> String {
    format!(
        "{}{value}{}",
        envelope::prefix(schema.root_type_id(), schema.digest()),
        envelope::END
    )
}

// ------------------------------------------------------------ the printer

#[test]
fn every_fixture_grammar_compiles_and_accepts_its_example() {
    for (name, s) in roots() {
        let g = grammar(&s);
        let doc = encode(&s, &example(&s)).unwrap();
        assert!(g.accepts(doc.as_bytes()), "{name}: {doc}\n{}", g.text());
        // Not a prefix, not an extension.
        assert!(!g.accepts(&doc.as_bytes()[..doc.len() - 1]), "{name}");
        assert!(!g.accepts(format!("{doc}\n").as_bytes()), "{name}");
        assert!(!g.accepts(b""), "{name}");
    }
}

#[test]
fn the_projection_is_the_model_printed() {
    for (name, s) in roots() {
        let p = project(&s, Dialect::Lark).unwrap();
        let m = Model::build(&s);
        assert_eq!(p.document, m.lark(), "{name}");
        assert_eq!(p.losses_json(), m.narrowings_json(), "{name}");
        assert!(p.losses.is_empty() && p.schema_name.is_none());
        // One rule per type, written once however often it is used.
        for (i, t) in s.graph().types.iter().enumerate() {
            let def = format!("\n{}: ", m.rules[i].name);
            assert_eq!(
                p.document.matches(&def).count(),
                1,
                "{name}: {}",
                t.stable_id
            );
        }
    }
}

#[test]
fn dialect_lark_is_a_grammar_dialect() {
    assert_eq!("lark".parse::<Dialect>().unwrap(), Dialect::Lark);
    assert_eq!(Dialect::Lark.to_string(), "lark");
    assert!(Dialect::Lark.is_grammar());
    assert!(Dialect::JSON_SCHEMA.iter().all(|d| !d.is_grammar()));
    assert_eq!(Dialect::GRAMMARS, [Dialect::Lark]);
    // What a model writes under the grammar is the document itself:
    // admission is the strict decoder.
    let s = spx_tests::graph::sample();
    let doc = encode(&s, &example(&s)).unwrap();
    let a = spx_schema::admit::admit(&s, Dialect::Lark, doc.as_bytes()).unwrap();
    assert_eq!(a.canonical, doc);
    let e = spx_schema::admit::admit(&s, Dialect::Lark, b"{\"fields\":{}}\n").unwrap_err();
    assert_eq!(e, decode(&s, b"{\"fields\":{}}\n").unwrap_err());
}

#[test]
fn a_small_schema_prints_exactly_this_grammar() {
    let s = schema(vec![
        record("p.in", vec![]),
        variant(
            "p.v",
            vec![
                ("p.v.a", vec![]),
                (
                    "p.v.b",
                    vec![
                        scalar("p.b.flag", Repr::Bool),
                        field("p.b.in", FieldType::Nested(0)),
                    ],
                ),
            ],
        ),
    ]);
    let g = Model::build(&s);
    let prefix = quote(&envelope::prefix("p.v", s.digest()));
    let expected = format!(
        concat!(
            "%llguidance {{}}\n\n",
            "// The canonical value documents of one Agent Interaction Schema v1 root\n",
            "// (FORMAT.md §6), written by spx. Narrowed bounds: `spx provider-schema --losses`.\n\n",
            "start: {} t1_p_v \"}}\\n\"\n",
            "\n// record \"p.in\"\n",
            "t0_p_in: \"{{\\\"fields\\\":{{}}}}\"\n",
            "\n// variant \"p.v\"\n",
            "t1_p_v: \"{{\\\"case\\\":\\\"p.v.a\\\",\\\"fields\\\":{{}}}}\"\n",
            "    | \"{{\\\"case\\\":\\\"p.v.b\\\",\\\"fields\\\":{{\\\"p.b.flag\\\":\" BOOL \",\\\"p.b.in\\\":\" t0_p_in \"}}}}\"\n",
            "\nBOOL: /true|false/\n",
        ),
        prefix
    );
    assert_eq!(g.lark(), expected);
    assert!(g.narrowings.is_empty());
    assert_eq!(g.narrowings_json(), "[]\n");
    let longest = envelope::prefix("p.v", s.digest()).len()
        + "{\"case\":\"p.v.b\",\"fields\":{\"p.b.flag\":false,\"p.b.in\":{\"fields\":{}}}}".len()
        + 2;
    assert_eq!(g.max_document_bytes, longest);
}

#[test]
fn a_string_is_narrowed_to_1024_characters_and_reported() {
    let s = schema(vec![record(
        "r",
        vec![scalar("r.s", Repr::String), scalar("r.b", Repr::Bytes)],
    )]);
    let g = Model::build(&s);
    assert_eq!(
        g.narrowings_json(),
        "[{\"field\":\"r.s\",\"rule\":\"value.string_bytes\",\"enforced\":{\"max_chars\":1024}}]\n"
    );
    assert!(g.lark().contains("STRING_1024: /\"("));
    assert!(g.lark().contains("BYTES_4096: /\\[("));
}

#[test]
fn the_longest_document_under_the_common_cap_is_computed_exactly() {
    // Four full byte arrays are 4 × 16385 bytes: over 65536.
    let fields: Vec<spx_schema::graph::Field> = (0..4)
        .map(|i| scalar(&format!("r.b{i}"), Repr::Bytes))
        .chain([scalar("r.s", Repr::String)])
        .collect();
    let s = schema(vec![record("r", fields)]);
    let g = Model::build(&s);
    assert!(g.max_document_bytes <= MAX_DOCUMENT_BYTES);
    let cap = match g.narrowings[0].enforced {
        Enforced::MaxElements(n) => n,
        e => panic!("{e:?}"),
    };
    assert!(cap < MAX_BYTES_LEN && cap > 3000, "{cap}");
    // One more element would not fit.
    let doc = |cap: usize| {
        let prefix = envelope::prefix("r", s.digest()).len();
        let array = 2 + 4 * cap - 1;
        prefix + "{\"fields\":{".len() + 4 * (",\"r.b0\":".len() + array) - 1
            + ",\"r.s\":".len()
            + 2
            + 6 * MAX_STRING_CHARS.min(cap)
            + "}}".len()
            + 2
    };
    assert_eq!(g.max_document_bytes, doc(cap));
    assert!(doc(cap + 1) > MAX_DOCUMENT_BYTES);
    let last = g.narrowings.last().unwrap();
    assert_eq!(
        (last.field.as_str(), last.rule, last.enforced),
        (DOCUMENT, RULE_DOCUMENT_BYTES, Enforced::MaxBytes(doc(cap)))
    );
    assert_eq!(g.narrowings.len(), 6);
    assert_eq!(
        g.narrowings[4],
        Narrowing {
            field: "r.s".into(),
            rule: RULE_STRING_BYTES,
            enforced: Enforced::MaxChars(MAX_STRING_CHARS)
        }
    );
}

// ------------------------------------------------------- leaf-level tables

/// One record with one field of `repr`.
fn one(repr: Repr) -> Schema {
    schema(vec![record("g.one", vec![scalar("g.one.v", repr)])])
}

fn one_doc(s: &Schema, leaf: &str) -> String {
    doc_of(s, &format!("{{\"fields\":{{\"g.one.v\":{leaf}}}}}"))
}

#[test]
fn every_escape_and_every_character_of_the_first_256() {
    let s = one(Repr::String);
    let mut bodies: Vec<String> = Vec::new();
    for c in (0u32..0x100).filter_map(char::from_u32) {
        bodies.push(c.to_string());
        bodies.push(format!("a{c}b"));
        bodies.push(format!("\\{c}"));
        for hex in [
            format!("{:04x}", u32::from(c)),
            format!("{:04X}", u32::from(c)),
        ] {
            bodies.push(format!("\\u{hex}"));
        }
    }
    for odd in [
        "\\ud834\\udd1e",
        "\\ud800",
        "\\u00",
        "\\u00a",
        "\\",
        "\\\\\\",
        "\u{2028}",
        "\u{feff}",
        "\u{fffd}",
        "\u{10ffff}",
        "𝄞",
        "\\U0041",
        "\\x41",
    ] {
        bodies.push(odd.to_owned());
    }
    let (mut admitted, mut refused) = (0, 0);
    for b in &bodies {
        let doc = one_doc(&s, &format!("\"{b}\""));
        match decode(&s, doc.as_bytes()) {
            Ok(d) => {
                admitted += 1;
                assert!(assert_accepted(&s, doc.as_bytes(), &d.value));
            }
            Err(_) => {
                refused += 1;
                assert_refused(&s, doc.as_bytes());
            }
        }
    }
    // Every character below U+0100 has exactly one admitted form.
    assert!(
        admitted > 256 + 200 && refused > 700,
        "{admitted} {refused}"
    );
    // Invalid UTF-8 inside a string.
    for bad in [
        &b"\xff"[..],
        b"\xc2",
        b"\xc0\x80",
        b"\xed\xa0\x80",
        b"\xf4\x90\x80\x80",
    ] {
        let mut doc = one_doc(&s, "\"a\"").into_bytes();
        let at = doc.len() - 5;
        doc.splice(at..at, bad.iter().copied());
        check(&s, &doc);
    }
}

#[test]
fn integers_at_and_past_every_bound() {
    for repr in [Repr::I32, Repr::I64, Repr::U8, Repr::U64] {
        let s = one(repr);
        let (min, max) = repr.bounds().unwrap();
        let mut texts: Vec<String> = vec![
            min.into(),
            max.into(),
            "0".into(),
            "-0".into(),
            "00".into(),
            "01".into(),
            "+1".into(),
            "-".into(),
            "".into(),
            "1e3".into(),
            "1.0".into(),
            " 1".into(),
            "-1".into(),
            "1".into(),
            "9".repeat(40),
            format!("-{}", "9".repeat(40)),
        ];
        // One past each bound, one within, and every length below.
        for bound in [min, max] {
            let (neg, digits) = match bound.strip_prefix('-') {
                Some(d) => (true, d),
                None => (false, bound),
            };
            let n: u128 = digits.parse().unwrap();
            for m in [n.saturating_sub(1), n, n + 1, n * 10, n + 10] {
                texts.push(format!("{}{m}", if neg { "-" } else { "" }));
            }
            for len in 1..digits.len() {
                texts.push(format!("{}{}", if neg { "-" } else { "" }, "9".repeat(len)));
                texts.push(format!(
                    "{}1{}",
                    if neg { "-" } else { "" },
                    "0".repeat(len)
                ));
            }
        }
        let mut admitted = 0;
        for t in &texts {
            let doc = one_doc(&s, &format!("\"{t}\""));
            if decode(&s, doc.as_bytes()).is_ok() {
                admitted += 1;
            }
            check(&s, doc.as_bytes());
            // Unquoted, never.
            check(&s, one_doc(&s, t).as_bytes());
        }
        assert!(admitted > 8, "{repr:?}");
    }
}

#[test]
fn byte_arrays_at_and_past_every_bound() {
    let s = one(Repr::Bytes);
    let mut arrays: Vec<String> = [
        "[]",
        "[0]",
        "[255]",
        "[256]",
        "[00]",
        "[-0]",
        "[-1]",
        "[1.0]",
        "[1,]",
        "[,1]",
        "[ 1]",
        "[1e0]",
        "[\"1\"]",
        "[0,1,255]",
        "[01]",
        "[true]",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for n in 0..=256u32 {
        arrays.push(format!("[{n}]"));
    }
    for len in [4095, 4096, 4097] {
        arrays.push(format!("[{}]", vec!["255"; len].join(",")));
        arrays.push(format!("[{}]", vec!["0"; len].join(",")));
    }
    for a in &arrays {
        check(&s, one_doc(&s, a).as_bytes());
    }
    let full = one_doc(&s, &format!("[{}]", vec!["255"; 4096].join(",")));
    assert!(grammar(&s).accepts(full.as_bytes()));
}

#[test]
fn bools_and_shapes() {
    let s = one(Repr::Bool);
    for leaf in [
        "true", "false", "True", "1", "\"true\"", "null", "tru", "falsee",
    ] {
        check(&s, one_doc(&s, leaf).as_bytes());
    }
    assert!(grammar(&s).accepts(one_doc(&s, "false").as_bytes()));
}

// ------------------------------------------------------------- the bounds

#[test]
fn strings_are_accepted_up_to_1024_characters_of_any_width() {
    let s = one(Repr::String);
    let n = Narrowed::of(&s);
    assert_eq!(n.fields["g.one.v"], ("max_chars".to_owned(), 1024));
    let g = grammar(&s);
    for c in ['a', 'é', '€', '𝄞', '\u{1}', '\u{85}', '"'] {
        let at = c.to_string().repeat(MAX_STRING_CHARS);
        let doc = one_doc(&s, &quote(&at));
        assert!(g.accepts(doc.as_bytes()), "{c:?} × 1024");
        // One more: the decoder may admit it (4096 bytes and fewer), the
        // grammar never does: that is the reported narrowing.
        let over = c.to_string().repeat(MAX_STRING_CHARS + 1);
        let doc = one_doc(&s, &quote(&over));
        assert!(!g.accepts(doc.as_bytes()), "{c:?} × 1025");
        check(&s, doc.as_bytes());
    }
    // The decoder's own bound: 4096 one-byte characters are admitted but
    // beyond the narrowing, 4097 are refused by both.
    let doc = one_doc(&s, &quote(&"a".repeat(4096)));
    assert!(decode(&s, doc.as_bytes()).is_ok() && !g.accepts(doc.as_bytes()));
    check(&s, one_doc(&s, &quote(&"a".repeat(4097))).as_bytes());
}

/// A record of `strings` string fields and `arrays` bytes fields: big
/// enough to need the document narrowing.
fn heavy(strings: usize, arrays: usize) -> Schema {
    let mut fields = Vec::new();
    for i in 0..strings {
        fields.push(scalar(&format!("h.s{i}"), Repr::String));
    }
    for i in 0..arrays {
        fields.push(scalar(&format!("h.b{i}"), Repr::Bytes));
    }
    schema(vec![record("h.root", fields)])
}

/// The longest document of `heavy` with strings of `chars` characters and
/// arrays of `elements` elements: strings of `\u0001` escapes, arrays of
/// `255` (written by hand: it may be over the decoder's bounds).
fn heavy_doc(s: &Schema, chars: usize, elements: usize) -> String {
    let TypeKind::Record { fields } = &s.graph().root().kind else {
        unreachable!()
    };
    let mut value = String::from("{\"fields\":{");
    for (i, f) in fields.iter().enumerate() {
        if i > 0 {
            value.push(',');
        }
        value.push_str(&quote(&f.stable_id));
        value.push(':');
        match f.ty {
            FieldType::Scalar(Repr::String) => {
                value.push_str(&format!("\"{}\"", "\\u0001".repeat(chars)))
            }
            _ => value.push_str(&format!("[{}]", vec!["255"; elements].join(","))),
        }
    }
    value.push_str("}}");
    doc_of(s, &value)
}

#[test]
fn the_document_bound_narrows_every_field_to_one_cap_and_reports_it() {
    // Twelve strings of `\u0001` escapes alone are over 65536 bytes.
    let s = heavy(12, 3);
    let m = Model::build(&s);
    let n = Narrowed::of(&s);
    let chars = match m.narrowings[0].enforced {
        Enforced::MaxChars(c) => c,
        e => panic!("{e:?}"),
    };
    assert!(chars < MAX_STRING_CHARS);
    for i in 0..12 {
        assert_eq!(
            n.fields[&format!("h.s{i}")],
            ("max_chars".into(), chars as u64)
        );
    }
    for i in 0..3 {
        assert_eq!(
            n.fields[&format!("h.b{i}")],
            ("max_elements".into(), chars as u64)
        );
    }
    let json = m.narrowings_json();
    assert!(json.contains(&format!(
        "{{\"field\":\"h.s0\",\"rule\":\"document_bytes\",\"enforced\":{{\"max_chars\":{chars}}}}}"
    )));
    assert!(json.ends_with(&format!(
        "{{\"field\":\"document\",\"rule\":\"document_bytes\",\"enforced\":{{\"max_bytes\":{}}}}}]\n",
        m.max_document_bytes
    )));
    let g = grammar(&s);
    // Right at the bound: the longest document is accepted and is exactly
    // the reported length; one more character or element is refused.
    let at = heavy_doc(&s, chars, chars);
    assert_eq!(at.len(), m.max_document_bytes);
    assert!(at.len() <= 65536);
    assert!(g.accepts(at.as_bytes()));
    assert!(assert_accepted(
        &s,
        at.as_bytes(),
        &decode(&s, at.as_bytes()).unwrap().value
    ));
    for (c, e) in [(chars + 1, chars), (chars, chars + 1)] {
        let over = heavy_doc(&s, c, e);
        assert!(!g.accepts(over.as_bytes()));
        check(&s, over.as_bytes());
    }
}

/// An admitted document of `heavy(1, 4)` of exactly `len` bytes (at most
/// 65536): three full arrays, a fourth long enough, and a string of plain
/// characters that pads to `len`.
fn doc_of_len(s: &Schema, len: usize) -> String {
    let value = |k: usize, pad: usize| {
        let mut fields = vec![("h.s0".to_owned(), Value::String("a".repeat(pad)))];
        for i in 0..4 {
            let n = if i < 3 { 4096 } else { k };
            fields.push((format!("h.b{i}"), Value::Bytes(vec![255; n])));
        }
        Value::Record(fields)
    };
    let base = |k: usize| encode(s, &value(k, 0)).map_or(usize::MAX, |d| d.len());
    let k = (0..=4096)
        .rev()
        .find(|&k| base(k).saturating_add(100) <= len)
        .unwrap();
    let doc = encode(s, &value(k, len - base(k))).unwrap();
    assert_eq!(doc.len(), len);
    doc
}

#[test]
fn documents_at_65535_65536_and_65537_bytes() {
    let s = heavy(1, 4);
    let m = Model::build(&s);
    let g = grammar(&s);
    let at_bound = doc_of_len(&s, 65536);
    // One more plain character in the string: 65537 bytes.
    let over = at_bound.replacen("\"aaaa", "\"aaaaa", 1);
    for doc in [doc_of_len(&s, 65535), at_bound, over] {
        let d = decode(&s, doc.as_bytes());
        match doc.len() {
            65537 => assert_eq!(d.unwrap_err().rule, "document_bytes"),
            len => assert!(d.is_ok(), "{len}"),
        }
        check(&s, doc.as_bytes());
        // Full arrays are beyond the document narrowing: refused.
        assert!(!g.accepts(doc.as_bytes()), "{}", doc.len());
    }
    // Within the caps (strings at 1024 characters, arrays at the common
    // cap), the longest document is accepted.
    let n = Narrowed::of(&s);
    let (chars, elements) = (n.fields["h.s0"].1 as usize, n.fields["h.b0"].1 as usize);
    assert_eq!(chars, MAX_STRING_CHARS);
    assert!(elements < 4096);
    let at = heavy_doc(&s, chars, elements);
    assert_eq!(at.len(), m.max_document_bytes);
    assert!(g.accepts(at.as_bytes()));
}

#[test]
fn a_schema_without_a_fitting_document_gets_a_grammar_that_accepts_nothing() {
    // 2^13 empty leaves: every document is over 65536 bytes.
    let mut types = vec![record("n.leaf", vec![])];
    for d in 0..13 {
        let below = types.len() - 1;
        types.push(record(
            &format!("n.c{d}"),
            vec![
                field(&format!("n.c{d}.l"), FieldType::Nested(below)),
                field(&format!("n.c{d}.r"), FieldType::Nested(below)),
            ],
        ));
    }
    let s = schema(types);
    assert_eq!(
        project(&s, Dialect::Lark).unwrap().losses_json(),
        "[{\"field\":\"document\",\"rule\":\"document_bytes\",\"enforced\":{\"max_bytes\":0}}]\n"
    );
    let g = grammar(&s);
    let doc = encode(&s, &example(&s));
    assert_eq!(doc.unwrap_err().rule, "document_bytes");
    assert!(!g.accepts(b""));
    assert!(!g.accepts(envelope::prefix(s.root_type_id(), s.digest()).as_bytes()));
}

#[test]
fn cases_that_cannot_fit_are_left_out_and_the_rest_is_sampled() {
    let big = (0..4)
        .map(|i| scalar(&format!("x.big.{i}"), Repr::I64))
        .collect();
    let mut types = vec![variant("x.leaf", vec![("x.small", vec![]), ("x.big", big)])];
    for d in 0..9 {
        let below = types.len() - 1;
        types.push(record(
            &format!("x.c{d}"),
            vec![
                field(&format!("x.c{d}.l"), FieldType::Nested(below)),
                field(&format!("x.c{d}.r"), FieldType::Nested(below)),
            ],
        ));
    }
    let s = schema(types);
    let n = Narrowed::of(&s);
    assert_eq!(n.fields["x.big"], ("max_occurrences".into(), 0));
    let g = grammar(&s);
    let mut rng = XorShift(17);
    for _ in 0..5 {
        let doc = g.sample(&mut |n| rng.below(n), 50);
        let d = decode(&s, &doc).unwrap();
        assert!(!String::from_utf8(doc).unwrap().contains("x.big"));
        assert!(assert_accepted(&s, d.canonical.as_bytes(), &d.value));
    }
}

// ------------------------------------------------------ corpora, mutations

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Values from the property generators (strings at the 4096-byte bound
    /// included) over every fixture root: accepted exactly when within the
    /// reported bounds.
    #[test]
    fn property_values_of_every_fixture(
        (i, v) in (0..roots().len()).prop_flat_map(|i| {
            let s = roots().swap_remove(i).1;
            (Just(i), spx_tests::values::arb_value(s.graph()))
        })
    ) {
        let s = roots().swap_remove(i).1;
        let Ok(doc) = encode(&s, &v) else { return Ok(()) };
        assert_accepted(&s, doc.as_bytes(), &v);
    }

    /// Random schemas (shared nodes, deep chains, ids that need JSON
    /// escaping): the value's document and its mutations, both ways.
    #[test]
    fn random_schemas_values_and_mutations(
        (s, v) in arb_schema_value(),
        seed in any::<u64>(),
    ) {
        let Ok(doc) = encode(&s, &v) else { return Ok(()) };
        assert_accepted(&s, doc.as_bytes(), &v);
        let mut r = XorShift(seed | 1);
        for _ in 0..24 {
            check(&s, &any_mutation(doc.as_bytes(), &mut r));
            if let Some((m, _)) = structural_mutation(&doc, &mut r) {
                check(&s, m.as_bytes());
            }
        }
    }
}

#[test]
fn differential_mutations_of_every_fixture_root() {
    let per_root = knob("SPX_GRAMMAR_MUTATIONS", 4000);
    let mut r = XorShift(0x5eed);
    let mut refused = 0usize;
    for (name, s) in roots() {
        let g = grammar(&s);
        let mut seeds: Vec<String> = vec![encode(&s, &example(&s)).unwrap()];
        let mut rng = XorShift(r.next() | 1);
        while seeds.len() < 8 {
            seeds.push(String::from_utf8(g.sample(&mut |n| rng.below(n), 40)).unwrap());
        }
        for i in 0..per_root {
            let base = seeds[i % seeds.len()].as_bytes();
            let mut m = any_mutation(base, &mut r);
            if r.one_in(3) && !m.is_empty() {
                // A second, byte-level mutation.
                let at = r.below(m.len());
                match r.below(3) {
                    0 => m[at] ^= 1 << r.below(8),
                    1 => m.insert(at, r.next() as u8),
                    _ => {
                        m.remove(at);
                    }
                }
            }
            match decode(&s, &m) {
                Ok(d) => {
                    assert!(assert_accepted(&s, &m, &d.value), "{name}");
                }
                Err(_) => {
                    refused += 1;
                    assert!(!g.accepts(&m), "{name}: {}", String::from_utf8_lossy(&m));
                }
            }
        }
    }
    assert!(refused > per_root * 8, "{refused}");
}

// ---------------------------------------------------------------- sampling

/// Every case and field of the values below `t`.
fn reached(s: &Schema, t: usize, v: &Value, seen: &mut BTreeSet<String>) {
    let (fields, values) = match (&s.graph().types[t].kind, v) {
        (TypeKind::Record { fields }, Value::Record(vs)) => (fields, vs),
        (TypeKind::Variant { cases }, Value::Variant { case, fields: vs }) => {
            seen.insert(case.clone());
            let c = cases.iter().find(|c| &c.stable_id == case).unwrap();
            (&c.fields, vs)
        }
        _ => unreachable!(),
    };
    for (f, (_, fv)) in fields.iter().zip(values) {
        seen.insert(f.stable_id.clone());
        if let FieldType::Nested(j) = f.ty {
            reached(s, j, fv, seen);
        }
    }
}

fn every_case_and_field(s: &Schema) -> BTreeSet<String> {
    let mut all = BTreeSet::new();
    for t in &s.graph().types {
        match &t.kind {
            TypeKind::Record { fields } => all.extend(fields.iter().map(|f| f.stable_id.clone())),
            TypeKind::Variant { cases } => {
                for c in cases {
                    all.insert(c.stable_id.clone());
                    all.extend(c.fields.iter().map(|f| f.stable_id.clone()));
                }
            }
        }
    }
    all
}

#[test]
fn sampled_documents_are_all_admitted_and_reach_every_case_and_field() {
    let samples = knob("SPX_GRAMMAR_SAMPLES", 2000);
    let mut total = 0usize;
    for (k, (name, s)) in roots().into_iter().enumerate() {
        let g = grammar(&s);
        let mut rng = XorShift(0x9e37_79b9_7f4a_7c15 ^ k as u64);
        let mut seen = BTreeSet::new();
        let mut distinct = BTreeSet::new();
        let mut escapes = 0usize;
        for i in 0..samples {
            // Mostly short leaves; every tenth document with long ones.
            let close = if i % 10 == 9 { 2 } else { 35 };
            let doc = g.sample(&mut |n| rng.below(n), close);
            let d = decode(&s, &doc).unwrap_or_else(|e| {
                panic!(
                    "{name}: a sampled document is refused: {e}\n{}",
                    String::from_utf8_lossy(&doc)
                )
            });
            assert_eq!(d.canonical.as_bytes(), &doc[..]);
            reached(&s, s.graph().root_index(), &d.value, &mut seen);
            escapes += d.canonical.matches("\\u00").count();
            distinct.insert(doc);
            total += 1;
        }
        assert_eq!(seen, every_case_and_field(&s), "{name}");
        assert!(
            distinct.len() * 4 > samples || every_case_and_field(&s).len() < 3,
            "{name}: {}",
            distinct.len()
        );
        let has_string = s.document().contains("\"representation\":\"string\"");
        assert!(
            !has_string || escapes > 0,
            "{name}: no \\u00 escape sampled"
        );
    }
    assert_eq!(total, samples * roots().len());
}

#[test]
fn tokens_that_straddle_the_lexemes_sample_and_check_the_same_way() {
    // A tokenizer cut from the documents themselves: pieces of 2 to 12
    // bytes at random offsets, so that tokens span keys, quotes, commas,
    // escapes and the parts of multi-byte characters.
    let mut r = XorShift(0x70c);
    for (name, s) in roots() {
        let g = grammar(&s);
        let mut pieces = Vec::new();
        let mut docs = Vec::new();
        for _ in 0..40 {
            let d = g.sample(&mut |n| r.below(n), 30);
            for _ in 0..60 {
                let at = r.below(d.len());
                let len = 2 + r.below(11);
                pieces.push(d[at..(at + len).min(d.len())].to_vec());
            }
            docs.push(d);
        }
        let env = grammar_support::tokenizer(&pieces);
        let t = grammar_support::Tokenized::compile(g.text(), &env);
        for _ in 0..60 {
            let doc = t.sample(&mut |n| r.below(n), 30);
            let d = decode(&s, &doc)
                .unwrap_or_else(|e| panic!("{name}: {e}\n{}", String::from_utf8_lossy(&doc)));
            assert!(assert_accepted(&s, &doc, &d.value));
        }
        for d in &docs {
            assert!(t.accepts(d), "{name}");
            for _ in 0..20 {
                let m = any_mutation(d, &mut r);
                assert_eq!(
                    t.accepts(&m),
                    g.accepts(&m),
                    "{name}: {}",
                    String::from_utf8_lossy(&m)
                );
            }
        }
    }
}

// ------------------------------------------------------------- the depth

/// A chain of variants `v0..=v{n}` (each `stop`, or `more` holding the one
/// below), shared by a short path and a long one: the root holds `v{n}`
/// directly and through `extra` records. Deep in the long path the
/// decoder refuses what it admits on the short one (`value.max_depth`).
fn shared_deep(n: usize, extra: usize) -> Schema {
    let mut types = Vec::new();
    for i in 0..=n {
        let more = if i == 0 {
            vec![]
        } else {
            vec![field(&format!("v{i}.more.next"), FieldType::Nested(i - 1))]
        };
        types.push(variant(
            &format!("v{i}"),
            vec![
                (format!("v{i}.stop").as_str(), vec![]),
                (format!("v{i}.more").as_str(), more),
            ],
        ));
    }
    for e in 0..extra {
        let below = types.len() - 1;
        types.push(record(
            &format!("x{e}"),
            vec![field(&format!("x{e}.in"), FieldType::Nested(below))],
        ));
    }
    let chain = n;
    let long = types.len() - 1;
    types.push(record(
        "root",
        vec![
            field("root.short", FieldType::Nested(chain)),
            field("root.long", FieldType::Nested(long)),
        ],
    ));
    schema(types)
}

/// The canonical text of a value of records, variants and `u8`s, written
/// by hand: `encode` refuses values deeper than 16.
fn text(v: &Value) -> String {
    let fields = |fs: &[(String, Value)]| {
        let inner: Vec<String> = fs
            .iter()
            .map(|(k, v)| format!("{}:{}", quote(k), text(v)))
            .collect();
        format!("\"fields\":{{{}}}", inner.join(","))
    };
    match v {
        Value::Record(fs) => format!("{{{}}}", fields(fs)),
        Value::Variant { case, fields: fs } => {
            format!("{{\"case\":{},{}}}", quote(case), fields(fs))
        }
        Value::U64(n) => format!("\"{n}\""),
        _ => unreachable!(),
    }
}

/// `v{n}` taking `more` `k` times (at most `n`), then `stop`.
fn chain_value(n: usize, k: usize) -> Value {
    let mut v = Value::Variant {
        case: format!("v{}.stop", n - k),
        fields: vec![],
    };
    for i in (n - k + 1)..=n {
        v = Value::Variant {
            case: format!("v{i}.more"),
            fields: vec![(format!("v{i}.more.next"), v)],
        };
    }
    v
}

#[test]
fn a_shared_type_reached_deeper_than_16_is_exact_at_every_depth() {
    let (n, extra) = (15, 3);
    let s = shared_deep(n, extra);
    let m = Model::build(&s);
    assert!(m.narrowings.is_empty(), "{:?}", m.narrowings);
    assert!(m.rules.iter().any(|r| r.depth.is_some()));
    let g = grammar(&s);
    // `root.short` holds v15 at depth 1 (the chain reaches depth 16);
    // `root.long` holds it at depth 1 + extra.
    for short in [0, 14, 15] {
        for long in [0, 11, 12, 13, 15] {
            let mut inner = chain_value(n, long);
            for e in 0..extra {
                inner = Value::Record(vec![(format!("x{e}.in"), inner)]);
            }
            let v = Value::Record(vec![
                ("root.short".into(), chain_value(n, short)),
                ("root.long".into(), inner),
            ]);
            let doc = doc_of(&s, &text(&v));
            let admitted = decode(&s, doc.as_bytes()).is_ok();
            // The long path: root 0, x2..x0 at 1..=3, v15 at 4, its
            // deepest value at 4 + long.
            assert_eq!(admitted, 4 + long <= 16, "{short} {long}");
            assert_eq!(g.accepts(doc.as_bytes()), admitted, "{short} {long}");
        }
    }
    let mut rng = XorShift(99);
    for _ in 0..300 {
        let doc = g.sample(&mut |n| rng.below(n), 20);
        assert!(
            decode(&s, &doc).is_ok(),
            "{}",
            String::from_utf8_lossy(&doc)
        );
    }
}

#[test]
fn a_recursive_hand_built_graph_is_unrolled_to_depth_16() {
    let s = schema(vec![variant(
        "list",
        vec![
            ("list.nil", vec![]),
            (
                "list.cons",
                vec![
                    scalar("cons.head", Repr::U8),
                    field("cons.tail", FieldType::Nested(0)),
                ],
            ),
        ],
    )]);
    let m = Model::build(&s);
    assert!(m.narrowings.is_empty());
    assert_eq!(m.rules.len(), 17);
    let g = grammar(&s);
    let mut v = Value::Variant {
        case: "list.nil".into(),
        fields: vec![],
    };
    for k in 1..=17 {
        v = Value::Variant {
            case: "list.cons".into(),
            fields: vec![("cons.head".into(), Value::U64(7)), ("cons.tail".into(), v)],
        };
        let doc = doc_of(&s, &text(&v));
        assert_eq!(decode(&s, doc.as_bytes()).is_ok(), k <= 16, "{k}");
        assert_eq!(g.accepts(doc.as_bytes()), k <= 16, "{k}");
    }
}
