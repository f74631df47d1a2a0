//! A driver for instruction-count profiles (docs/PERFORMANCE.md):
//!
//! ```text
//! cargo bench -p spx-tests --bench profile --no-run      # prints the binary's path
//! valgrind --tool=callgrind <binary> decode generated large 200
//! ```
//!
//! runs one decoder (or encoder, with `encode`) on one document of the
//! corpus the given number of times. `string current <doc> <n>` and
//! `string proposed <doc> <n>` instead read every string of the document
//! with the generated decoder's string reader (`Cursor::string`) or with
//! the rewrite proposed in docs/PERFORMANCE.md ([`proposed_string`]);
//! `bytes current|proposed <doc> <n>` likewise for byte arrays
//! (`Cursor::bytes`, [`proposed_bytes`]). The difference between two runs with
//! different counts, divided by the difference of the counts, is the exact
//! instruction count of one call, free of setup. Without arguments (as under
//! `cargo bench` or `cargo test --benches`) it does nothing.

mod common;

use common::Doc;
use spx_runtime::__private::Cursor;
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
        _ => panic!("`decode`, `encode`, `string` or `bytes`, not {kind}"),
    };
    let mut total = 0;
    for _ in 0..n {
        total += run(black_box(&doc.bytes));
    }
    assert!(total > 0 || n == 0, "the calls failed");
    println!("{kind} {name} {} x{n}", doc.name);
}

/// Reads every string of `doc`'s value, quoted canonically as in the
/// document, with the current or the proposed string reader.
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
    let mut quoted = Vec::new();
    collect(&doc.value, &mut quoted);
    for q in &quoted {
        let current = Cursor::new(q.as_bytes()).string();
        assert_eq!(current, proposed_string(q.as_bytes()).map(|(s, _)| s));
        assert!(current.is_some());
    }
    match which {
        "current" => Box::new(move |_| {
            quoted
                .iter()
                .map(|q| {
                    Cursor::new(q.as_bytes())
                        .string()
                        .map_or(0, |s| s.len() + 1)
                })
                .sum()
        }),
        "proposed" => Box::new(move |_| {
            quoted
                .iter()
                .map(|q| proposed_string(q.as_bytes()).map_or(0, |(s, _)| s.len() + 1))
                .sum()
        }),
        _ => panic!("`current` or `proposed`, not {which}"),
    }
}

/// Bytes that end a plain run: `"`, `\\`, C0 controls, DEL, and 0xC2 (the
/// lead byte of the C1 controls U+0080..U+009F, which must be escaped).
const SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = true;
        i += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t[0x7f] = true;
    t[0xc2] = true;
    t
};

/// The length of the plain run at the start of `s`: eight bytes at a time
/// while no byte of the word can be special (SWAR, no `unsafe`), then one
/// table lookup per byte.
fn plain_run(s: &[u8]) -> usize {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    let has_zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    let mut n = 0;
    for chunk in s.chunks_exact(8) {
        let mut w = [0u8; 8];
        w.copy_from_slice(chunk);
        let v = u64::from_ne_bytes(w);
        // A byte below 0x20, or equal to 0x22, 0x5c, 0x7f or 0xc2.
        let special = (v.wrapping_sub(ONES * 0x20) & !v & HIGH)
            | has_zero(v ^ (ONES * 0x22))
            | has_zero(v ^ (ONES * 0x5c))
            | has_zero(v ^ (ONES * 0x7f))
            | has_zero(v ^ (ONES * 0xc2));
        if special != 0 {
            break;
        }
        n += 8;
    }
    n + s
        .get(n..)
        .unwrap_or(&[])
        .iter()
        .take_while(|b| !SPECIAL[usize::from(**b)])
        .count()
}

/// The proposed `Cursor::string`: the same language (a canonically quoted
/// string of at most 4096 UTF-8 bytes), but plain runs are found with one
/// table lookup per byte and copied with one `extend_from_slice` each,
/// instead of one `match` and one `push` per byte after the first escape.
/// Returns the string and the number of bytes read.
pub fn proposed_string(bytes: &[u8]) -> Option<(String, usize)> {
    let rest = bytes.strip_prefix(b"\"")?;
    let mut buf: Vec<u8> = Vec::new();
    let mut start = 0;
    let mut i = 0;
    loop {
        i += plain_run(rest.get(i..)?);
        match *rest.get(i)? {
            b'"' => {
                let s = if buf.is_empty() && start == 0 {
                    std::str::from_utf8(rest.get(..i)?).ok()?.to_owned()
                } else {
                    buf.extend_from_slice(rest.get(start..i)?);
                    String::from_utf8(buf).ok()?
                };
                if s.len() > 4096 {
                    return None;
                }
                return Some((s, i + 2));
            }
            b'\\' => {
                if buf.capacity() == 0 {
                    buf.reserve(rest.len().min(4096 + 4));
                }
                buf.extend_from_slice(rest.get(start..i)?);
                match *rest.get(i + 1)? {
                    e @ (b'"' | b'\\') => buf.push(e),
                    b'n' => buf.push(b'\n'),
                    b'r' => buf.push(b'\r'),
                    b't' => buf.push(b'\t'),
                    b'u' => {
                        let hex = rest.get(i + 2..i + 6)?;
                        let v = u8::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()?;
                        let lower = hex.iter().all(|h| matches!(h, b'0'..=b'9' | b'a'..=b'f'));
                        if !lower
                            || !matches!(v, 0x00..=0x08 | 0x0b | 0x0c | 0x0e..=0x1f | 0x7f..=0x9f)
                        {
                            return None;
                        }
                        let mut tmp = [0u8; 4];
                        buf.extend_from_slice(char::from(v).encode_utf8(&mut tmp).as_bytes());
                        i += 4;
                    }
                    _ => return None,
                }
                i += 2;
                start = i;
            }
            0xc2 => {
                if matches!(rest.get(i + 1), Some(0x80..=0x9f)) {
                    return None;
                }
                i += 1;
            }
            _ => return None,
        }
    }
}

/// Reads every byte array of `doc`'s value, rendered canonically as in the
/// document, with the current or the proposed reader.
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
    let mut arrays = Vec::new();
    collect(&doc.value, &mut arrays);
    for a in &arrays {
        let current = Cursor::new(a.as_bytes()).bytes();
        assert_eq!(current, proposed_bytes(a.as_bytes()).map(|(v, _)| v));
        assert!(current.is_some());
    }
    match which {
        "current" => Box::new(move |_| {
            arrays
                .iter()
                .map(|a| Cursor::new(a.as_bytes()).bytes().map_or(0, |v| v.len() + 1))
                .sum()
        }),
        "proposed" => Box::new(move |_| {
            arrays
                .iter()
                .map(|a| proposed_bytes(a.as_bytes()).map_or(0, |(v, _)| v.len() + 1))
                .sum()
        }),
        _ => panic!("`current` or `proposed`, not {which}"),
    }
}

/// The proposed `Cursor::bytes`: the same language (`[]`, `[0,1,255]`, at
/// most 4096 elements, no leading zeros), with the vector reserved once
/// (an upper bound from the remaining input), one index into the input
/// and no per-element bound check (the element count is checked once at
/// the end; the 65536-byte document bound already bounds the work).
/// Returns the bytes and the number of input bytes read.
pub fn proposed_bytes(s: &[u8]) -> Option<(Vec<u8>, usize)> {
    if s.first() != Some(&b'[') {
        return None;
    }
    if s.get(1) == Some(&b']') {
        return Some((Vec::new(), 2));
    }
    let digit = |i: usize| s.get(i).map_or(10, |b| u32::from(b.wrapping_sub(b'0')));
    // Every element takes at least two bytes (`0,` or `0]`).
    let mut out = Vec::with_capacity((s.len() / 2).min(4096));
    let mut i = 1;
    loop {
        let mut v = digit(i);
        if v > 9 {
            return None;
        }
        i += 1;
        if v != 0 {
            let b = digit(i);
            if b < 10 {
                v = v * 10 + b;
                i += 1;
                let c = digit(i);
                if c < 10 {
                    v = v * 10 + c;
                    i += 1;
                    if v > 255 {
                        return None;
                    }
                }
            }
        }
        out.push(v as u8);
        match s.get(i)? {
            b',' => i += 1,
            b']' => {
                return (out.len() <= 4096).then_some((out, i + 1));
            }
            _ => return None,
        }
    }
}
