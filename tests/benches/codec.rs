//! Decode and encode throughput over the committed corpus
//! (tests/fixtures/bench/), per decoder and document. See
//! docs/PERFORMANCE.md; `scripts/bench-ratios` turns the results into the
//! table and ratios.
//!
//! The streaming decoder's group is `stream/<document>`: `chunks-4k` (the
//! document fed in 4 KiB chunks), `bytes-1` (one byte at a time) and
//! `whole` (one buffer), each to `finish` with the canonical bytes kept, the rows `scripts/bench-ratios`
//! compares with `decode/<document>/engine` and with each other.
//!
//! ```text
//! cargo bench -p spx-tests --bench codec
//! ```

mod common;

use common::{stream, Doc, DECODERS, ENCODERS, STREAMS};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_millis(2500))
        .sample_size(30)
}

fn codec(c: &mut Criterion) {
    let corpus = Doc::corpus();
    for doc in &corpus {
        let mut group = c.benchmark_group(format!("decode/{}", doc.name));
        group.throughput(Throughput::Bytes(doc.bytes.len() as u64));
        for name in DECODERS {
            let run = doc.decoder(name);
            group.bench_function(name, |b| b.iter(|| run(black_box(&doc.bytes))));
        }
        group.finish();
    }
    for doc in &corpus {
        let mut group = c.benchmark_group(format!("stream/{}", doc.name));
        group.throughput(Throughput::Bytes(doc.bytes.len() as u64));
        for (name, size) in STREAMS {
            group.bench_function(name, |b| {
                b.iter(|| stream(&doc.schema, black_box(&doc.bytes), size))
            });
        }
        group.finish();
    }
    for doc in &corpus {
        let mut group = c.benchmark_group(format!("encode/{}", doc.name));
        group.throughput(Throughput::Bytes(doc.bytes.len() as u64));
        for name in ENCODERS {
            let run = doc.encoder(name);
            group.bench_function(name, |b| b.iter(|| run(black_box(&doc.bytes))));
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = config();
    targets = codec
}
criterion_main!(benches);
