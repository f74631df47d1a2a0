//! The strict decoder (FORMAT.md §6–7): every rule, precedence, boundaries,
//! non-canonical input, round trips, fast path = spec-ordered path.
//!
//! The documents and their verdicts are in `decode_cases/` (shared with the
//! consumer tests); this file runs each case as a test, then the property
//! tests.
//!
//! Every document of this corpus is also given to the schema's Lark grammar
//! (docs/GRAMMARS.md, `grammar_support`, called from the cases): the
//! grammar refuses what the decoder refuses, and accepts what it admits
//! within the bounds the grammar reports.

mod decode_cases;

use decode_cases::schema;
use proptest::prelude::*;
use spx_schema::decode::{decode, decode_fast_path, decode_fast_path_portable, decode_spec_path};
use spx_schema::encode::encode;
use spx_schema::Value;

macro_rules! case_tests {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                decode_cases::$name();
            }
        )*
    };
}
decode_cases::for_each_case!(case_tests);

// ---------------------------------------------------------------- round trips and agreement

/// Random values of the sample graph (every case, boundary scalars).
fn arb_value() -> impl Strategy<Value = Value> {
    spx_tests::values::arb_value(schema().graph())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn round_trip(v in arb_value()) {
        let s = schema();
        let doc = encode(&s, &v).unwrap();
        let d = decode(&s, doc.as_bytes()).unwrap();
        decode_cases::grammar_support::assert_accepted(&s, doc.as_bytes(), &v);
        prop_assert_eq!(&d.value, &v);
        prop_assert_eq!(&d.canonical, &doc);
        prop_assert_eq!(decode_fast_path(&s, doc.as_bytes()), Some(d.clone()));
        prop_assert_eq!(decode_fast_path_portable(&s, doc.as_bytes()), Some(d.clone()));
        prop_assert_eq!(decode_spec_path(&s, doc.as_bytes()), Ok(d.clone()));
        spx_tests::stream::check_decode(&s, doc.as_bytes(), &Ok(d), None);
    }

    /// Random edits of canonical documents: both paths agree, nothing
    /// panics, and step 4 refuses exactly what serde_json refuses.
    #[test]
    fn mutations_agree(
        v in arb_value(),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), 0u8..3, prop::sample::select(vec![
            b' ', b'"', b'\\', b',', b':', b'{', b'}', b'[', b']', b'0', b'1', b'-', b'e', b'.', b'u', b'a', 0x00, 0x7f, b'\n', b't', 0xc3, 0xa9,
        ])), 1..4),
    ) {
        let s = schema();
        let mut bytes = encode(&s, &v).unwrap().into_bytes();
        for (at, op, b) in edits {
            let i = at.index(bytes.len() + 1);
            match op {
                0 => bytes.insert(i, b),
                1 if i < bytes.len() => { bytes.remove(i); }
                _ if i < bytes.len() => bytes[i] = b,
                _ => {}
            }
        }
        let full = decode(&s, &bytes);
        decode_cases::grammar_support::check(&s, &bytes);
        let spec = decode_spec_path(&s, &bytes);
        prop_assert_eq!(&full, &spec);
        {
            // Up to three random edits: the verdict and the offsets must
            // agree, the diagnostic may differ.
            let _multi = spx_tests::stream::may_differ();
            let canonical = encode(&s, &v).unwrap();
            let same = canonical.bytes().zip(&bytes).take_while(|(a, b)| a == *b).count();
            spx_tests::stream::check_decode(&s, &bytes, &full, Some(same));
        }
        match &full {
            Ok(d) => {
                prop_assert_eq!(d.canonical.as_bytes(), &bytes[..]);
                prop_assert_eq!(decode_fast_path(&s, &bytes), Some(d.clone()));
                prop_assert_eq!(decode_fast_path_portable(&s, &bytes), Some(d.clone()));
            }
            Err(e) => {
                prop_assert!(decode_fast_path(&s, &bytes).is_none());
                prop_assert!(decode_fast_path_portable(&s, &bytes).is_none());
                if let Ok(text) = std::str::from_utf8(&bytes) {
                    if let Some(body) = text.strip_suffix('\n') {
                        if !body.is_empty() && !body.contains(['\n', '\r']) && !body.starts_with('\u{feff}') {
                            let serde_ok = serde_json::from_str::<serde_json::Value>(body).is_ok();
                            prop_assert_eq!(e.rule == "json.syntax", !serde_ok, "{}", body);
                        }
                    }
                }
            }
        }
    }
}
