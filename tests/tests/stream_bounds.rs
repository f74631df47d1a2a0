//! The streaming decoder at the bounds, where its fast paths stop: byte
//! arrays read 64 bytes at a time (`codec::read::comma_elements`) at the
//! 4096-element bound, at the 65536-byte bound and with a defect at every
//! offset of a block; and every kind of leaf and literal cut by the
//! 65536-byte bound at every offset, where one-byte feeding reads bytes
//! on its quick path. For every chunking (one byte at a time included),
//! the stream gives the whole-document decoder's verdict
//! (`spx_tests::stream::check_decode`).

use spx_schema::decode::decode;
use spx_schema::encode::encode;
use spx_schema::graph::Repr;
use spx_schema::{Schema, Value};
use spx_tests::graph::{nested, record, scalar, schema};

/// A record of `n` byte-array fields `root.b0`, `root.b1`, ….
fn arrays(n: usize) -> Schema {
    let fields = (0..n)
        .map(|k| scalar(&format!("root.b{k}"), Repr::Bytes))
        .collect();
    schema(vec![record("root", fields)])
}

/// The canonical text of the record of these arrays, written out by hand
/// (the encoder refuses a document over the size bound, and these tests
/// need some).
fn document(s: &Schema, arrays: &[Vec<u8>]) -> String {
    let empty = (0..arrays.len())
        .map(|k| (format!("root.b{k}"), Value::Bytes(Vec::new())))
        .collect();
    let mut doc = encode(s, &Value::Record(empty)).expect("the value encodes");
    for (k, a) in arrays.iter().enumerate() {
        let key = format!("\"root.b{k}\":[]");
        let items: Vec<String> = a.iter().map(u8::to_string).collect();
        let with = format!("\"root.b{k}\":[{}]", items.join(","));
        doc = doc.replacen(&key, &with, 1);
    }
    doc
}

fn check(s: &Schema, doc: &[u8]) -> Option<spx_schema::Diagnostic> {
    spx_tests::stream::check_decode(s, doc, &decode(s, doc), None)
}

/// Values of one, two and three digits, in a pattern that puts element
/// ends at every offset of a block.
fn elements(n: usize, seed: usize) -> Vec<u8> {
    (0..n)
        .map(|k| [7u8, 42, 255, 0, 100, 19, 200][(k * 5 + seed) % 7])
        .collect()
}

#[test]
fn at_the_element_bound() {
    let s = arrays(1);
    let ok = document(&s, &[vec![255; 4096]]);
    assert_eq!(check(&s, ok.as_bytes()), None);
    let ok = document(&s, &[elements(4096, 3)]);
    assert_eq!(check(&s, ok.as_bytes()), None);
    // One element more: refused at the comma after element 4096, whatever
    // the chunking.
    let over = ok.replacen("]", ",9]", 1);
    let d = check(&s, over.as_bytes()).expect("4097 elements are refused");
    assert_eq!((d.code.0, d.rule), ("SPX-Z206", "value.bytes_length"));
}

#[test]
fn at_the_size_bound() {
    // Four arrays of 4096 three-digit elements are 4 × 16 KiB: the
    // document crosses 65536 bytes inside the fourth array.
    let s = arrays(4);
    let full = vec![200u8; 4096];
    let doc = document(&s, &[full.clone(), full.clone(), full.clone(), full]);
    assert!(doc.len() > 65536);
    let d = check(&s, doc.as_bytes()).expect("over the size bound");
    assert_eq!((d.code.0, d.rule), ("SPX-Z206", "document_bytes"));
    // Shortened to end at and around the bound: the last array's length
    // decides, element by element, where the budget runs out.
    let three = vec![200u8; 4096];
    let base = document(&s, &[three.clone(), three.clone(), three.clone(), vec![]]);
    let room = 65536 - base.len();
    let mut verdicts = (0, 0);
    for n in (room / 4).saturating_sub(3)..=(room / 4 + 3) {
        for last in [1u8, 42, 200] {
            let mut fourth = vec![200u8; n];
            if let Some(x) = fourth.last_mut() {
                *x = last;
            }
            let doc = document(&s, &[three.clone(), three.clone(), three.clone(), fourth]);
            match check(&s, doc.as_bytes()) {
                None => verdicts.0 += 1,
                Some(d) => {
                    assert_eq!((d.code.0, d.rule), ("SPX-Z206", "document_bytes"), "{n}");
                    verdicts.1 += 1;
                }
            }
        }
    }
    assert!(verdicts.0 > 0 && verdicts.1 > 0, "{verdicts:?}");
}

#[test]
fn a_defect_at_every_offset_of_a_block() {
    let s = arrays(2);
    let doc = document(&s, &[elements(300, 1), elements(40, 2)]);
    let start = doc.find('[').expect("an array") + 1;
    let defects = [
        "256", "01", "00", "1000", "", " 1", "1 ", "-1", "1.0", "1e2", "x", "\"1\"",
    ];
    let mut refused = 0;
    for at in 0..130 {
        // The element that starts at or after byte `start + at`.
        let from = start + at;
        let Some(rel) = doc[from..].find(|c: char| c.is_ascii_digit()) else {
            continue;
        };
        let el = from + rel;
        if doc.as_bytes()[el - 1].is_ascii_digit() {
            continue;
        }
        let len = doc[el..]
            .find(|c: char| !c.is_ascii_digit())
            .expect("an element ends");
        for bad in defects {
            let mutated = format!("{}{bad}{}", &doc[..el], &doc[el + len..]);
            let d = check(&s, mutated.as_bytes()).expect("refused");
            assert!(d.code.0.starts_with("SPX-Z20"), "{bad} at {el}: {d:?}");
            refused += 1;
        }
    }
    assert!(refused > 500, "{refused}");
}

/// A record of sixteen filler strings, the leaf under test (`root.x`),
/// then a boolean and a nested record (so that something always follows,
/// written as short as it can be): the schema, its document with an empty
/// first filler, and where that filler's content goes.
fn bounded(repr: Repr, leaf: &Value) -> (Schema, String, usize) {
    let mut fields: Vec<_> = (0..16)
        .map(|k| scalar(&format!("root.f{k:02}"), Repr::String))
        .collect();
    fields.push(scalar("root.x", repr));
    fields.push(scalar("root.z", Repr::Bool));
    fields.push(nested("root.sub", 0));
    let s = schema(vec![
        record("sub", vec![scalar("sub.b", Repr::Bool)]),
        record("root", fields),
    ]);
    let mut v: Vec<(String, Value)> = (0..16)
        .map(|k| {
            let n = if k == 0 { 0 } else { 4096 };
            (format!("root.f{k:02}"), Value::String("a".repeat(n)))
        })
        .collect();
    v.push(("root.x".into(), leaf.clone()));
    v.push(("root.z".into(), Value::Bool(true)));
    v.push((
        "root.sub".into(),
        Value::Record(vec![("sub.b".into(), Value::Bool(true))]),
    ));
    let short = encode(&s, &Value::Record(v)).expect("encodes");
    let filler = short.find("\"root.f00\":\"\"").expect("the filler") + 12;
    (s, short, filler)
}

/// The exact offset of a refusal for size: each leaf below, in a document
/// of exactly 65537 bytes whose every byte after the leaf is as short as
/// it can be, is refused at the leaf's *decisive* byte, the first after
/// which even the shortest completion no longer fits (worked out by hand
/// below from the shortest leaf each prefix allows); one byte shorter, the
/// document is admitted.
#[test]
fn the_offset_of_a_refusal_for_size() {
    let cases: [(Repr, Value, usize, &str); 6] = [
        // `"55"`: `"` → `"0"`, `"5` → `"5"`, `"55` is one longer.
        (Repr::U64, Value::U64(55), 2, "the second digit"),
        // `"-5"`: `"` → `"0"`, `"-` → `"-1"`, one longer.
        (Repr::I64, Value::I64(-5), 1, "the minus sign"),
        // `"ab"`: `"` → `""`, `"a` → `"a"`, `"ab` one longer.
        (
            Repr::String,
            Value::String("ab".into()),
            2,
            "the second character",
        ),
        // `"\n"`: `"\` needs an escape's letter and the quote.
        (Repr::String, Value::String("\n".into()), 1, "the backslash"),
        // `"é"`: its first byte needs its second, then the quote.
        (
            Repr::String,
            Value::String("é".into()),
            1,
            "the character's first byte",
        ),
        // `[7,42]`: `[7,` → `[7,0]`, `[7,4` → `[7,4]`, `[7,42` one longer.
        (Repr::Bytes, Value::Bytes(vec![7, 42]), 4, "the last digit"),
    ];
    for (repr, leaf, decisive, what) in cases {
        let (s, short, filler) = bounded(repr, &leaf);
        let at = short.find("\"root.x\":").expect("the leaf's key") + 9;
        for (len, refused) in [(65537usize, true), (65536, false)] {
            let mut doc = short.clone();
            doc.insert_str(filler, &"a".repeat(len - short.len()));
            let d = check(&s, doc.as_bytes());
            assert_eq!(d.is_some(), refused, "{what}: {len} bytes");
            if let Some(d) = d {
                let expected = (at + len - short.len() + decisive) as u64;
                assert_eq!(
                    (d.rule, d.offset),
                    ("document_bytes", Some(expected)),
                    "{what}"
                );
            }
        }
    }
}

/// Every leaf and literal cut by the size bound at every offset: a record
/// of filler strings (the first one's length moves the bound), then the
/// leaf under test, then a boolean (so that something always follows).
#[test]
fn every_leaf_at_the_size_bound() {
    let leaves: [(Repr, Value, &str); 6] = [
        (
            Repr::String,
            Value::String("naïve → 😀\u{85}é".into()),
            "characters of two to four bytes",
        ),
        (
            Repr::String,
            Value::String("plain text".into()),
            "plain text",
        ),
        (
            Repr::String,
            Value::String("a\nb\u{1}c".into()),
            "an escape",
        ),
        (
            Repr::U64,
            Value::U64(18_446_744_073_709_551_615),
            "an integer",
        ),
        (
            Repr::I64,
            Value::I64(-9_223_372_036_854_775_808),
            "a negative integer",
        ),
        (
            Repr::Bytes,
            Value::Bytes(vec![7, 42, 255, 0, 100]),
            "a byte array",
        ),
    ];
    let mut outcomes = (0, 0);
    for (repr, leaf, what) in leaves {
        let (s, short, filler) = bounded(repr, &leaf);
        let x = short.find("\"root.x\":").expect("the leaf's key");
        // Byte `cut` of `short` moves to offset 65536 with 65536 - cut
        // bytes of filler: from the leaf's key to the end of the document.
        let mut cuts = 0;
        for cut in x..=short.len() {
            let Some(first) = 65536usize.checked_sub(cut).filter(|&n| n <= 4096) else {
                continue;
            };
            cuts += 1;
            let mut doc = short.clone();
            doc.insert_str(filler, &"a".repeat(first));
            match check(&s, doc.as_bytes()) {
                None => outcomes.0 += 1,
                Some(d) => {
                    let got = (d.code.0, d.rule);
                    assert_eq!(got, ("SPX-Z206", "document_bytes"), "{what} {cut}");
                    outcomes.1 += 1;
                }
            }
        }
        assert_eq!(cuts, short.len() + 1 - x, "{what}: every offset");
    }
    assert!(outcomes.0 > 0 && outcomes.1 > 100, "{outcomes:?}");
}

/// A refusal is final, whatever comes after it and however it is fed: an
/// empty chunk, one byte (the one-byte path), a long chunk, `finish`.
#[test]
fn a_refusal_is_final() {
    let s = arrays(1);
    let doc = document(&s, &[vec![7, 42]]);
    let bad = doc.replacen("42", "420", 1);
    for sizes in [vec![1usize], vec![3], vec![bad.len()]] {
        let mut d = spx_schema::stream::StreamDecoder::new(&s);
        let refusal = spx_tests::stream::pieces(bad.as_bytes(), &sizes)
            .into_iter()
            .find_map(|c| d.feed(c).err())
            .expect("refused");
        assert_eq!(refusal.rule, "value.bytes_element", "{sizes:?}");
        for next in [&b""[..], b"1", b",", &[b'7'; 40][..]] {
            assert_eq!(
                d.feed(next),
                Err(refusal.clone()),
                "{sizes:?} then {next:?}"
            );
            let mut events = 0;
            let again = d.feed_with(next, &mut |_| events += 1);
            assert_eq!((again, events), (Err(refusal.clone()), 0), "{sizes:?}");
        }
        assert_eq!(d.finish().map(|_| ()), Err(refusal), "{sizes:?}");
    }
}
