//! Bounded cost of the streams (issue 16): feeding the 60 KiB bench
//! document one byte at a time is linear, not quadratic, in the input. The
//! precise ratio is a bench row (`stream/large`, `bytes-1` against `whole`,
//! `scripts/bench-ratios`); this test only tells linear from quadratic, with
//! a margin wide enough for a shared machine and a debug build (a
//! quadratic stream would be thousands of times slower on 61440 bytes).

use spx_schema::project::Dialect;
use spx_schema::stream::{StreamAdmitter, StreamDecoder};
use spx_schema::Schema;
use std::time::{Duration, Instant};

const LARGE: &[u8] = include_bytes!("../fixtures/bench/large.json");

fn schema() -> Schema {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/bench");
    spx_schema::binding::compile_file(
        &dir.join("bench.spx"),
        "fixtures/bench/bench.spx",
        "bench.proposal",
    )
    .unwrap()
}

/// The fastest of three runs of `f`.
fn best(f: impl Fn()) -> Duration {
    (0..3)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap()
}

fn decode_by(schema: &Schema, size: usize) {
    let mut s = StreamDecoder::new(schema);
    for chunk in LARGE.chunks(size) {
        s.feed(chunk).unwrap();
    }
    s.finish_value().unwrap();
}

/// The document's value: raw provider output for admission.
fn answer() -> &'static [u8] {
    let text = std::str::from_utf8(LARGE).unwrap();
    let start = text.find("\"value\":").unwrap() + 8;
    &LARGE[start..LARGE.len() - 2]
}

fn admit_by(schema: &Schema, size: usize) {
    let mut s = StreamAdmitter::new(schema, Dialect::Draft2020);
    for chunk in answer().chunks(size) {
        s.feed(chunk).unwrap();
    }
    s.finish().unwrap();
}

#[test]
fn one_byte_feeding_is_linear_on_the_60_kib_document() {
    assert_eq!(LARGE.len(), 61440);
    let schema = schema();
    let whole = best(|| decode_by(&schema, LARGE.len()));
    let bytes = best(|| decode_by(&schema, 1));
    eprintln!("decoder: 1-byte {bytes:?}, whole {whole:?}");
    assert!(
        bytes < whole * 25 + Duration::from_millis(50),
        "decoder: 1-byte feeding {bytes:?}, whole buffer {whole:?}"
    );
    let whole = best(|| admit_by(&schema, answer().len()));
    let bytes = best(|| admit_by(&schema, 1));
    eprintln!("admitter: 1-byte {bytes:?}, whole {whole:?}");
    assert!(
        bytes < whole * 25 + Duration::from_millis(50),
        "admitter: 1-byte feeding {bytes:?}, whole buffer {whole:?}"
    );
}
