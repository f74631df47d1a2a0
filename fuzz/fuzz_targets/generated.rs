//! Arbitrary bytes → the decoder `spx_interaction!` generated for
//! `tests/fixtures/fuzz/fuzz.spx`, compared with the dynamic decoder:
//! the same value, or the same code, rule and pointer (else a panic).
//!
//! The generated decoder reads its leaves with the codec's `Cursor` and its
//! native (SIMD) kernels; the same input is also read, at every `[` and `"`
//! (the first 64), by the string and byte-array readers with the native
//! and the portable kernel, which must agree on the value and on where
//! they stop, and the engine's fast path with both kernels must agree.
#![no_main]

use libfuzzer_sys::fuzz_target;
use spx_runtime::engine::codec::Cursor;
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

/// The string and byte-array readers, native against portable kernel.
fn check_readers(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let starts = text
        .bytes()
        .enumerate()
        .filter(|&(_, b)| b == b'[' || b == b'"')
        .take(64);
    for (i, b) in starts {
        // An ASCII byte: a char boundary.
        let rest = &text[i..];
        let (mut n, mut p) = (Cursor::new(rest), Cursor::portable(rest));
        if b == b'[' {
            assert_eq!(n.bytes(), p.bytes(), "bytes at {i}");
        } else {
            assert_eq!(n.string(), p.string(), "string at {i}");
        }
        assert_eq!(n.position(), p.position(), "position after {i}");
    }
}

fuzz_target!(|data: &[u8]| {
    check::<fixture::Root>(data);
    check::<fixture::Event>(data);
    check_readers(data);
    let schema = <fixture::Root as Interaction>::schema();
    assert_eq!(
        decode::decode_fast_path(schema, data),
        decode::decode_fast_path_portable(schema, data),
        "the fast path's kernels disagree"
    );
});
