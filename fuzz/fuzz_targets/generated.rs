//! Arbitrary bytes → the decoder `spx_interaction!` generated for
//! `tests/fixtures/fuzz/fuzz.spx`, compared with the dynamic decoder:
//! the same value, or the same code, rule and pointer (else a panic).
#![no_main]

use libfuzzer_sys::fuzz_target;
use spx_runtime::engine::decode;
use spx_runtime::Interaction;

#[allow(clippy::large_enum_variant, dead_code)]
mod fixture {
    spx_runtime::spx_interaction! {
        source: "../tests/fixtures/fuzz/fuzz.spx",
        root: "fz.root.é",
        digest: "sha256:4ca5e0c55ecbf6453a59b567b78aff8cb1b48b242cf3207e9e606401a8c907bc",
        root: "fz.event",
        digest: "sha256:1d046f1912e4651f0c47b78c079558a278ab9c3cd998ae9a0bc194b89bf04f88",
    }
}

fn check<T: Interaction + std::fmt::Debug + PartialEq>(data: &[u8]) {
    let generated = T::decode(data);
    let dynamic = decode::decode(T::schema(), data);
    match (&generated, &dynamic) {
        (Ok(v), Ok(d)) => {
            assert_eq!(v.to_value(), d.value, "different values");
            assert_eq!(v.encode().as_deref(), Ok(d.canonical.as_str()));
        }
        (Err(a), Err(b)) => {
            assert_eq!(
                (a.code, a.rule, &a.location),
                (b.code, b.rule, &b.location),
                "different refusals"
            );
            assert_eq!(
                a, b,
                "same code, rule and pointer but other message or detail"
            );
        }
        _ => panic!("generated {generated:?} vs dynamic {dynamic:?}"),
    }
}

fuzz_target!(|data: &[u8]| {
    check::<fixture::Root>(data);
    check::<fixture::Event>(data);
});
