//! Worst case per byte: decoding time of the slowest adversarial inputs
//! against a valid document of similar size, for the dynamic decoder, the
//! generated decoder, `admit` and the `.spx` reader. Criterion reports
//! throughput (bytes/s); docs/RELIABILITY.md records the figures.
//!
//! `cargo bench -p spx-tests --bench adversarial`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use spx_runtime::engine::admit::admit;
use spx_runtime::engine::decode::decode;
use spx_runtime::engine::encode::{encode, example};
use spx_runtime::engine::project::Dialect;
use spx_runtime::engine::source::read_module;
use spx_runtime::{Interaction, Value};
use std::hint::black_box;
use std::time::Duration;

#[allow(clippy::large_enum_variant, dead_code)]
mod fixture {
    spx_runtime::spx_interaction! {
        source: "fixtures/fuzz/fuzz.spx",
        root: "fz.root.é",
        digest: "sha256:4ca5e0c55ecbf6453a59b567b78aff8cb1b48b242cf3207e9e606401a8c907bc",
    }
}
use fixture::Root;

const MAX: usize = 65536;

/// A valid canonical document of about 41 KiB: the example with a
/// 4096-byte string of escaped control characters and a 4096-byte array.
fn big_valid() -> String {
    let s = Root::schema();
    let Value::Record(mut fields) = example(s) else {
        unreachable!()
    };
    for (id, v) in &mut fields {
        match id.as_str() {
            "fz.root.label" => *v = Value::String("\u{1f}".repeat(4096)),
            "fz.root.blob" => *v = Value::Bytes(vec![255; 4096]),
            _ => {}
        }
    }
    encode(s, &Value::Record(fields)).unwrap()
}

fn value_part(doc: &str) -> &str {
    let start = doc.find(",\"value\":").unwrap() + ",\"value\":".len();
    &doc[start..doc.len() - 2]
}

/// (name, bytes) of the value documents to decode.
fn documents() -> Vec<(&'static str, Vec<u8>)> {
    let small = encode(Root::schema(), &example(Root::schema())).unwrap();
    let big = big_valid();
    let pad = |mut v: Vec<u8>, to: usize| {
        v.truncate(to);
        v
    };
    let mut out = vec![
        ("valid_small", small.clone().into_bytes()),
        ("valid_41k", big.clone().into_bytes()),
    ];
    // Whitespace between every token of the big document: a full parse,
    // walk and re-render before the canonical comparison fails.
    let spaced: String = big
        .trim_end()
        .chars()
        .flat_map(|c| {
            if c == ',' || c == ':' {
                vec![c, ' ']
            } else {
                vec![c]
            }
        })
        .collect::<String>()
        + "\n";
    out.push(("spaced_valid", pad(spaced.into_bytes(), MAX)));
    let mut v = vec![b'['; MAX - 1];
    v.push(b'\n');
    out.push(("brackets_64k", v));
    let mut v = Vec::new();
    while v.len() + 10 < MAX {
        v.extend_from_slice(b"{\"fields\":");
    }
    v.push(b'\n');
    out.push(("open_objects_64k", v));
    // The label as 4096 \u0061 escapes, then an integer of 30000 digits.
    let esc = small.replace("\"example\"", &format!("\"{}\"", "\\u0061".repeat(4096)));
    out.push(("escaped_string", esc.into_bytes()));
    let huge = small.replace("\"200\"", &format!("\"{}\"", "9".repeat(30_000)));
    out.push(("huge_integer", huge.into_bytes()));
    let bs = small.replace("\"example\"", &format!("\"{}\"", "\\\\".repeat(30_000)));
    out.push(("backslashes", bs.into_bytes()));
    // Invalid UTF-8 in the last byte before the LF of a 64 KiB document.
    let mut v = big.clone().into_bytes();
    let n = v.len();
    v.splice(n - 3..n - 3, std::iter::repeat_n(b' ', MAX - n - 1));
    let last = v.len() - 2;
    v[last] = 0xff;
    out.push(("bad_utf8_at_end", v));
    // A lone surrogate at the end of a long string.
    let lone = small.replace("\"example\"", &format!("\"{}\\ud800\"", "a".repeat(40_000)));
    out.push(("lone_surrogate_late", lone.into_bytes()));
    // 6000 unknown keys in one fields object.
    let keys: String = (0..6000).map(|i| format!("\"k{i}\":0,")).collect();
    let many = small.replacen("{\"fields\":{", &format!("{{\"fields\":{{{keys}"), 1);
    out.push(("many_keys", pad(many.into_bytes(), MAX)));
    out
}

fn bench_decode(c: &mut Criterion) {
    let mut g = c.benchmark_group("decode");
    g.measurement_time(Duration::from_secs(2));
    g.warm_up_time(Duration::from_millis(300));
    g.sample_size(20);
    for (name, doc) in documents() {
        g.throughput(Throughput::Bytes(doc.len() as u64));
        g.bench_with_input(BenchmarkId::new("dynamic", name), &doc, |b, d| {
            b.iter(|| black_box(decode(Root::schema(), black_box(d)).is_ok()))
        });
        g.bench_with_input(BenchmarkId::new("generated", name), &doc, |b, d| {
            b.iter(|| black_box(Root::decode(black_box(d)).is_ok()))
        });
    }
    g.finish();
}

fn bench_admit(c: &mut Criterion) {
    let mut g = c.benchmark_group("admit");
    g.measurement_time(Duration::from_secs(2));
    g.warm_up_time(Duration::from_millis(300));
    g.sample_size(20);
    let big = big_valid();
    let mut inputs: Vec<(&str, Vec<u8>)> = vec![
        ("valid_41k", value_part(&big).as_bytes().to_vec()),
        ("brackets_64k", vec![b'['; MAX]),
    ];
    let pretty: String = value_part(&big)
        .chars()
        .flat_map(|c| {
            if c == ',' {
                vec![c, '\n', ' ', ' ']
            } else {
                vec![c]
            }
        })
        .collect();
    inputs.push(("pretty_valid", pretty.into_bytes()));
    let keys: String = (0..6000).map(|i| format!("\"k{i}\":0,")).collect();
    inputs.push((
        "many_keys",
        format!("{{{keys}\"fields\":{{}}}}").into_bytes(),
    ));
    for (name, text) in inputs {
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_with_input(BenchmarkId::from_parameter(name), &text, |b, t| {
            b.iter(|| black_box(admit(Root::schema(), Dialect::OpenAi, black_box(t)).is_ok()))
        });
    }
    g.finish();
}

fn bench_reader(c: &mut Criterion) {
    let mut g = c.benchmark_group("reader");
    g.measurement_time(Duration::from_secs(2));
    g.warm_up_time(Duration::from_millis(300));
    g.sample_size(20);
    let fixture = include_str!("../fixtures/macro/planner.spx");
    let mut inputs: Vec<(&str, String)> = vec![("planner_fixture", fixture.to_owned())];
    inputs.push((
        "braces_64k",
        format!("module m;\nfn f() {}", "{".repeat(MAX)),
    ));
    inputs.push((
        "angles_64k",
        format!("module m;\nrecord R {{ x: A{} }}", "<".repeat(MAX)),
    ));
    inputs.push((
        "deep_type",
        format!(
            "module m;\nrecord R {{ x: {}i64{}, }}",
            "Option<".repeat(9000),
            ">".repeat(9000)
        ),
    ));
    inputs.push((
        "long_comment",
        format!("module m;\n//{}\n", "/".repeat(MAX)),
    ));
    for (name, text) in inputs {
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_with_input(BenchmarkId::from_parameter(name), &text, |b, t| {
            b.iter(|| black_box(read_module("b.spx", black_box(t)).is_ok()))
        });
    }
    g.finish();
}

criterion_group!(benches, bench_decode, bench_admit, bench_reader);
criterion_main!(benches);
