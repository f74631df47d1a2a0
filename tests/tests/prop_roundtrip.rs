//! Property tests over random type graphs (records and variants, every
//! scalar, nesting, shared nodes, chains to the maximum depth, stable ids
//! that need JSON and JSON Pointer escaping) and random values of them:
//!
//! - encode then decode gives the identical value and the canonical bytes,
//!   on both decoding paths, and against the schema read back from its
//!   document;
//! - a mutated document (byte flips, insertions, deletions, truncation,
//!   duplicated keys, reordered keys, re-escaped strings, whitespace) is
//!   never admitted unless it is itself byte-identical to the canonical
//!   document of what it decodes to; the mutations that keep the JSON
//!   value are refused as SPX-Z205 `canonical.mismatch`.
//!
//! Every document is also given to the schema's Lark grammar
//! (docs/GRAMMARS.md): refused when the decoder refuses it, accepted when
//! it admits it within the bounds the grammar reports.

mod grammar_support;
mod prop_support;

use prop_support::*;
use proptest::prelude::*;
use spx_schema::decode::{decode, decode_fast_path, decode_spec_path};
use spx_schema::encode::{encode, encode_value_into};
use spx_schema::{Code, Location, Schema};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn encode_then_decode_is_identity((schema, value) in arb_schema_value()) {
        let doc = match encode(&schema, &value) {
            Ok(doc) => doc,
            Err(e) => {
                // Only several maximal strings together can be too big.
                prop_assert_eq!((e.code, e.rule), (Code::Z206, "document_bytes"));
                return Ok(());
            }
        };
        let d = decode(&schema, doc.as_bytes()).map_err(|e| {
            TestCaseError::fail(format!("{e:?}\n{doc}"))
        })?;
        prop_assert_eq!(&d.value, &value);
        prop_assert_eq!(&d.canonical, &doc);
        grammar_support::assert_accepted(&schema, doc.as_bytes(), &value);
        prop_assert_eq!(decode_spec_path(&schema, doc.as_bytes()), Ok(d.clone()));
        prop_assert_eq!(decode_fast_path(&schema, doc.as_bytes()), Some(d.clone()));
        // The streaming decoder, in every chunking: the same value, and
        // events that replay to it.
        spx_tests::stream::check_decode(&schema, doc.as_bytes(), &Ok(d.clone()), None);

        // The <VALUE> part is exactly what encode_value_into writes.
        let mut part = String::new();
        encode_value_into(&mut part, &schema, &value).unwrap();
        let tail = format!(",\"value\":{}}}\n", part);
        prop_assert!(doc.ends_with(&tail));

        // The document reads back to the same schema, which admits the
        // same bytes with the same value.
        let back = Schema::parse_document(schema.document().as_bytes()).unwrap();
        prop_assert_eq!(back.document(), schema.document());
        prop_assert_eq!(back.digest(), schema.digest());
        prop_assert_eq!(decode(&back, doc.as_bytes()), Ok(d));
    }

    #[test]
    fn mutations_are_admitted_only_when_canonical(
        (schema, value) in arb_schema_value(),
        seed in any::<u64>(),
    ) {
        let Ok(doc) = encode(&schema, &value) else { return Ok(()) };
        let mut r = XorShift(seed | 1);
        for _ in 0..24 {
            let m = any_mutation(doc.as_bytes(), &mut r);
            {
                // The stream's verdict and offsets (a mutation may make
                // several violations: the diagnostic may differ).
                let _multi = spx_tests::stream::may_differ();
                let same = doc.bytes().zip(&m).take_while(|(a, b)| a == *b).count();
                spx_tests::stream::check_decode(&schema, &m, &decode(&schema, &m), Some(same));
            }
            grammar_support::check(&schema, &m);
            match decode(&schema, &m) {
                Ok(d) => {
                    prop_assert_eq!(d.canonical.as_bytes(), &m[..]);
                    let again = encode(&schema, &d.value).unwrap();
                    prop_assert_eq!(again.as_bytes(), &m[..]);
                }
                Err(e) => {
                    prop_assert!(e.code == Code::Z205 || e.code == Code::Z206, "{:?}", e);
                    prop_assert!(matches!(e.location, Location::Pointer(_)), "{:?}", e);
                    prop_assert!(m != doc.as_bytes(), "the canonical document was refused: {:?}", e);
                }
            }
        }
    }

    #[test]
    fn value_preserving_rewrites_are_refused_as_not_canonical(
        (schema, value) in arb_schema_value(),
        seed in any::<u64>(),
    ) {
        let Ok(doc) = encode(&schema, &value) else { return Ok(()) };
        let mut r = XorShift(seed | 1);
        for _ in 0..12 {
            let Some((m, kind)) = structural_mutation(&doc, &mut r) else { continue };
            prop_assert_ne!(&m, &doc);
            let e = decode(&schema, m.as_bytes()).expect_err(kind);
            {
                // A reordering or a duplicate is read by the stream as its
                // first difference (docs/DECODING.md, "Streaming").
                let _multi = (kind != "whitespace" && kind != "re-escape")
                    .then(spx_tests::stream::may_differ);
                let same = doc.bytes().zip(m.bytes()).take_while(|(a, b)| a == b).count();
                spx_tests::stream::check_decode(&schema, m.as_bytes(), &Err(e.clone()), Some(same));
            }
            grammar_support::assert_refused(&schema, m.as_bytes());
            let expected = if m.len() > 65536 {
                (Code::Z206, "document_bytes")
            } else {
                (Code::Z205, "canonical.mismatch")
            };
            prop_assert_eq!(
                (e.code, e.rule),
                expected,
                "{}: {:?}\n{}", kind, e, m.chars().take(2000).collect::<String>()
            );
        }
    }
}

/// The three structural rewrites on one known document, so that the
/// mutation helpers themselves are tested.
#[test]
fn structural_mutations_keep_the_json_value() {
    let doc = "{\"a\":{\"fields\":{\"x\":\"1\",\"y/~\":[1,2]}},\"b\":true}\n";
    let mut r = XorShift(7);
    let mut kinds = std::collections::BTreeSet::new();
    for _ in 0..200 {
        if let Some((m, kind)) = structural_mutation(doc, &mut r) {
            kinds.insert(kind);
            let a: serde_json::Value = serde_json::from_str(doc).unwrap();
            // serde_json keeps the last of duplicate keys: same value.
            let b: serde_json::Value = serde_json::from_str(&m).unwrap_or_else(|e| {
                panic!("{kind} broke the JSON: {e}\n{m}");
            });
            assert_eq!(a, b, "{kind}: {m}");
            assert_ne!(m, doc);
        }
    }
    assert_eq!(
        kinds.into_iter().collect::<Vec<_>>(),
        ["duplicate", "re-escape", "reorder", "whitespace"]
    );
}
