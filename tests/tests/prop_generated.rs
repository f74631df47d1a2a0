//! Property test: the decoder and encoder that `spx_interaction!` generates
//! for `tests/fixtures/fuzz/fuzz.spx` agree with the dynamic engine on
//! everything — the same value, or the same code, rule, pointer (and
//! message and detail) — over valid documents of random values and over
//! mutations of them (the same mutations as `prop_roundtrip.rs`), and over
//! documents of the other root. The schema's Lark grammar gives the same
//! verdict on each of them (docs/GRAMMARS.md).

mod grammar_support;
mod prop_support;

use prop_support::*;
use proptest::prelude::*;
use spx_runtime::engine::{self, decode::decode, encode::encode};
use spx_runtime::{Interaction, Schema, Value};

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

/// Checks one document against one root; returns true when admitted.
fn agree<T: Interaction + std::fmt::Debug>(doc: &[u8]) -> Result<bool, TestCaseError> {
    let generated = T::decode(doc);
    let dynamic = decode(T::schema(), doc);
    grammar_support::check(T::schema(), doc);
    let show = || String::from_utf8_lossy(&doc[..doc.len().min(300)]).into_owned();
    // The typed stream (`Root::stream()`) in 3-byte chunks: the same
    // verdict and value (its diagnostic names the first impossible byte:
    // docs/STREAMING.md).
    let mut stream = T::stream();
    for chunk in doc.chunks(3) {
        if stream.feed(chunk).is_err() {
            break;
        }
    }
    match (stream.finish(), &generated) {
        (Ok(s), Ok(g)) => prop_assert_eq!(s.to_value(), g.to_value(), "{}", show()),
        (Err(s), Err(_)) => prop_assert!(s.offset.is_some(), "{}", show()),
        (s, g) => prop_assert!(false, "stream {:?} vs generated {:?} on {}", s, g, show()),
    }
    match (&generated, &dynamic) {
        (Ok(v), Ok(d)) => {
            prop_assert_eq!(&v.to_value(), &d.value, "{}", show());
            let encoded = v.encode();
            prop_assert_eq!(encoded.as_ref(), Ok(&d.canonical));
            Ok(true)
        }
        (Err(a), Err(b)) => {
            prop_assert_eq!(
                (a.code, a.rule, &a.location),
                (b.code, b.rule, &b.location),
                "{}",
                show()
            );
            prop_assert_eq!(a, b, "{}", show());
            Ok(false)
        }
        _ => Err(TestCaseError::fail(format!(
            "generated {generated:?} vs dynamic {dynamic:?} on {}",
            show()
        ))),
    }
}

fn schema_of<T: Interaction>() -> Schema {
    // The generated SCHEMA_JSON is the engine's derivation of the file.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let derived = engine::binding::compile_file(
        &dir.join("fixtures/fuzz/fuzz.spx"),
        "fixtures/fuzz/fuzz.spx",
        T::ROOT_TYPE_ID,
    )
    .expect("the fixture derives");
    assert_eq!(derived.document(), T::SCHEMA_JSON);
    derived
}

fn root_value() -> BoxedStrategy<Value> {
    arb_value(schema_of::<Root>().graph())
}

fn event_value() -> BoxedStrategy<Value> {
    arb_value(schema_of::<Event>().graph())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn generated_and_dynamic_agree_on_root_documents(value in root_value(), seed in any::<u64>()) {
        let schema = Root::schema();
        let Ok(doc) = encode(schema, &value) else { return Ok(()) };
        prop_assert!(agree::<Root>(doc.as_bytes())?);
        let typed = Root::decode(doc.as_bytes()).unwrap();
        prop_assert_eq!(typed.to_value(), value);
        let mut r = XorShift(seed | 1);
        for _ in 0..16 {
            let m = any_mutation(doc.as_bytes(), &mut r);
            agree::<Root>(&m)?;
            agree::<Event>(&m)?;
        }
    }

    #[test]
    fn generated_and_dynamic_agree_on_event_documents(value in event_value(), seed in any::<u64>()) {
        let schema = Event::schema();
        let Ok(doc) = encode(schema, &value) else { return Ok(()) };
        prop_assert!(agree::<Event>(doc.as_bytes())?);
        prop_assert!(!agree::<Root>(doc.as_bytes())?);
        let mut r = XorShift(seed | 1);
        for _ in 0..16 {
            let m = any_mutation(doc.as_bytes(), &mut r);
            agree::<Event>(&m)?;
        }
    }

    #[test]
    fn generated_and_dynamic_agree_on_noise(bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        agree::<Root>(&bytes)?;
        agree::<Event>(&bytes)?;
    }
}
