//! A driver for instruction-count profiles (docs/PERFORMANCE.md):
//!
//! ```text
//! cargo bench -p spx-tests --bench profile --no-run      # prints the binary's path
//! valgrind --tool=callgrind <binary> decode generated large 200
//! ```
//!
//! runs one decoder (or encoder, with `encode`) on one document of the
//! corpus the given number of times. `string reader <doc> <n>` instead reads
//! every string of the document with the generated decoder's string reader
//! (`Cursor::string`), and `bytes reader <doc> <n>` every byte array with
//! `Cursor::bytes`; `stream <row> <doc> <n>` feeds the streaming decoder as
//! the `stream/<doc>/<row>` bench does (`chunks-4k`, `bytes-1`, `whole`);
//! `string portable` and `bytes portable` do the same with
//! the codec's portable kernel (`Cursor::portable`, no SIMD). The difference between two runs with different counts,
//! divided by the difference of the counts, is the exact instruction count
//! of one call, free of setup. Without arguments (as under `cargo bench` or
//! `cargo test --benches`) it does nothing.
//!
//! (The prototypes of the word-at-a-time readers that were measured here
//! as `string|bytes proposed` are now `Cursor::string` and `Cursor::bytes`;
//! their old byte-by-byte versions live on as the oracle of the codec's
//! unit test `same_language_as_before`.)

mod common;

use common::Doc;
use spx_runtime::engine::codec::Cursor;
use spx_runtime::engine::{quote::quote, Value};
use std::hint::black_box;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [kind, name, doc, n] = args.as_slice() else {
        return;
    };
    let n: usize = n.parse().expect("a count");
    let corpus = Doc::corpus();
    let doc = corpus
        .iter()
        .find(|d| d.name == doc)
        .unwrap_or_else(|| panic!("no document {doc}"));
    let run = match kind.as_str() {
        "decode" => doc.decoder(name),
        "encode" => doc.encoder(name),
        "string" => strings(doc, name),
        "bytes" => byte_arrays(doc, name),
        "stream" => {
            let (_, size) = common::STREAMS
                .into_iter()
                .find(|s| s.0 == name)
                .unwrap_or_else(|| panic!("no stream row {name}"));
            let schema = &doc.schema;
            Box::new(move |bytes: &[u8]| common::stream(schema, bytes, size))
        }
        _ => panic!("`decode`, `encode`, `string`, `bytes` or `stream`, not {kind}"),
    };
    let mut total = 0;
    for _ in 0..n {
        total += run(black_box(&doc.bytes));
    }
    assert!(total > 0 || n == 0, "the calls failed");
    println!("{kind} {name} {} x{n}", doc.name);
}

/// Reads every string of `doc`'s value, quoted canonically as in the
/// document, with the generated decoder's string reader.
fn strings<'a>(doc: &Doc, which: &str) -> common::Run<'a> {
    fn collect(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::String(s) => out.push(quote(s)),
            Value::Record(fields) | Value::Variant { fields, .. } => {
                fields.iter().for_each(|(_, v)| collect(v, out))
            }
            _ => {}
        }
    }
    let portable = match which {
        "reader" => false,
        "portable" => true,
        _ => panic!("`string reader` or `string portable`, not `string {which}`"),
    };
    let mut quoted = Vec::new();
    collect(&doc.value, &mut quoted);
    for q in &quoted {
        let mut c = Cursor::new(q);
        assert!(c.string().is_some() && c.at_end(), "{q}");
    }
    Box::new(move |_| {
        quoted
            .iter()
            .map(|q| {
                let s = if portable {
                    Cursor::portable(q).string()
                } else {
                    Cursor::new(q).string()
                };
                s.map_or(0, |s| s.len() + 1)
            })
            .sum()
    })
}

/// Reads every byte array of `doc`'s value, rendered canonically as in the
/// document, with the generated decoder's byte-array reader.
fn byte_arrays<'a>(doc: &Doc, which: &str) -> common::Run<'a> {
    fn collect(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Bytes(b) => {
                let items: Vec<String> = b.iter().map(u8::to_string).collect();
                out.push(format!("[{}]", items.join(",")));
            }
            Value::Record(fields) | Value::Variant { fields, .. } => {
                fields.iter().for_each(|(_, v)| collect(v, out))
            }
            _ => {}
        }
    }
    let portable = match which {
        "reader" => false,
        "portable" => true,
        _ => panic!("`bytes reader` or `bytes portable`, not `bytes {which}`"),
    };
    let mut arrays = Vec::new();
    collect(&doc.value, &mut arrays);
    for a in &arrays {
        let mut c = Cursor::new(a);
        assert!(c.bytes().is_some() && c.at_end(), "{a}");
    }
    Box::new(move |_| {
        arrays
            .iter()
            .map(|a| {
                let v = if portable {
                    Cursor::portable(a).bytes()
                } else {
                    Cursor::new(a).bytes()
                };
                v.map_or(0, |v| v.len() + 1)
            })
            .sum()
    })
}
