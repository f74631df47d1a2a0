//! The engine's one JSON reader.
//!
//! [`read`] parses RFC 8259 text, without recursion, into a compact span
//! [`Tree`] (one node per value, at most one per input byte; strings are
//! unescaped only when asked for). Strictly RFC 8259: no trailing commas,
//! no leading zeros, no `+`, no comments, no raw U+0000–U+001F in strings,
//! only the escapes `\" \\ \/ \b \f \n \r \t \uXXXX`, exactly one value with
//! optional surrounding whitespace; a `\u` escape must encode a character
//! (no lone surrogate). What its users differ in is [`Options`]:
//!
//! | user | duplicates | nesting | leading U+FEFF | numbers |
//! |---|---|---|---|---|
//! | strict decoding, step 4 ([`crate::decode`]) | kept, the last one counts | 127 (serde_json's) | refused (step 3 already did) | finite as `f64` |
//! | admission ([`crate::admit`]) | refused, with the pointer | 36 (the deepest valid value) | skipped | any |
//! | the engine's own documents ([`OWN_DOCUMENTS`]: schema documents, `spx.lock` pins, the projection the adapters rewrite) | refused | 1024 | skipped | any |
//!
//! Every refusal is a [`ReadError`]: what, the byte offset, and the JSON
//! Pointer of the member or element being read. [`Json`] is an owned,
//! ordered copy of a tree with a compact writer, for the documents the
//! adapters rewrite.

mod owned;
pub(crate) mod push;
mod read;
mod tree;

pub(crate) use owned::{write, Json};

/// How the engine reads back documents it wrote itself (a schema document,
/// a pin of `spx.lock`, the canonical projection the adapters rewrite):
/// duplicates refused, a generous nesting bound, a leading U+FEFF skipped.
/// Each of those readers then requires an exact canonical replay, so the
/// reading only has to be unambiguous.
pub(crate) const OWN_DOCUMENTS: Options = Options {
    duplicates: Duplicates::Refuse,
    max_nesting: 1024,
    bom: Bom::Skip,
    numbers: Numbers::Any,
};
pub(crate) use read::{read, Bom, Duplicates, ErrorKind, Numbers, Options, ReadError};
pub(crate) use tree::{Kind, Tree};

#[cfg(test)]
mod tests {
    use super::*;

    /// The decoder's step 4 (also for the push form's tests).
    pub(super) const STRICT: Options = Options {
        duplicates: Duplicates::Keep,
        max_nesting: 127,
        bom: Bom::Refuse,
        numbers: Numbers::FiniteF64,
    };

    /// Admission's reading, with a small nesting bound.
    pub(super) fn tolerant(max_nesting: usize) -> Options {
        Options {
            duplicates: Duplicates::Refuse,
            max_nesting,
            bom: Bom::Skip,
            numbers: Numbers::Any,
        }
    }

    fn strict_ok(s: &str) -> bool {
        read(s, &STRICT).is_ok()
    }

    #[test]
    fn accepts_and_refuses_like_serde_json() {
        for s in [
            "{}",
            " [ 1 , -0 , 0.5e-3 , true , null , \"\\ud83d\\ude00\\/\" ] ",
            "{\"a\":{\"b\":[]}}",
            "1e-400",
            "0e999999999999",
            "{\"a\":1,\"a\":2}",
        ] {
            assert!(strict_ok(s), "{s}");
            assert!(serde_json::from_str::<serde_json::Value>(s).is_ok());
        }
        for s in [
            "",
            "{",
            "[1,]",
            "{\"a\":1,}",
            "01",
            "1.",
            "1e",
            "+1",
            "1e400",
            "\"\\ud800\"",
            "\"\\udc00\"",
            "\"\\ud800\\u0041\"",
            "\"\u{1}\"",
            "\"\\x\"",
            "[] []",
            "{1:2}",
            "tru",
            "\u{feff}1",
        ] {
            assert!(!strict_ok(s), "{s}");
            assert!(serde_json::from_str::<serde_json::Value>(s).is_err(), "{s}");
        }
    }

    #[test]
    fn nesting_limit_matches_serde_json() {
        for depth in [126usize, 127, 128, 129] {
            let s = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
            assert_eq!(
                strict_ok(&s),
                serde_json::from_str::<serde_json::Value>(&s).is_ok(),
                "{depth}"
            );
        }
        assert!(strict_ok(&format!(
            "{}{}",
            "[".repeat(127),
            "]".repeat(127)
        )));
        let e = read(&"[".repeat(40_000), &STRICT).unwrap_err();
        assert_eq!((e.kind, e.offset), (ErrorKind::Depth(127), 127));
    }

    #[test]
    fn tree_shape_and_text() {
        let t = read("{\"a\\n\":[1,2],\"b\":\"x\\u00e9\\ud83d\\ude00\"}", &STRICT).unwrap();
        let members: Vec<_> = t.members(0).collect();
        assert_eq!(members.len(), 2);
        assert_eq!(t.text(members[0].0), "a\n");
        assert_eq!(t.len(members[0].1), 2);
        assert_eq!(t.text(members[1].1), "xé😀");
        assert!(t.text_eq(members[1].0, "b"));
        assert_eq!(t.describe(0), "an object with keys \"a\\n\", \"b\"");
        assert_eq!(t.describe(members[0].1), "an array of 2 elements");
        // Kept duplicates: the last occurrence counts.
        let t = read("{\"a\":1,\"\\u0061\":2}", &STRICT).unwrap();
        assert_eq!(t.lookup(0, "a").map(|v| t.raw(v)), Some("2"));
    }

    #[test]
    fn owned_copy_and_compact_writer() {
        let v = Json::read(
            " {\"b\" : [1, -2.5e+3, true, false, null, {}, [[]]],\n\"a\":\"x\\u00e9\\ud83d\\ude00\\/\"} ",
            &tolerant(64),
        )
        .unwrap();
        let mut s = String::new();
        write(&mut s, &v);
        assert_eq!(
            s,
            "{\"b\":[1,-2.5e+3,true,false,null,{},[[]]],\"a\":\"xé😀/\"}"
        );
        assert_eq!(
            Json::read("\u{feff}1", &tolerant(64)),
            Ok(Json::Number("1".into()))
        );
    }

    #[test]
    fn refusals_carry_the_pointer_of_the_place_being_read() {
        let cases: [(&str, &str, &str); 14] = [
            (
                "{\"a\":{\"b\":1,\"b\":2}}",
                "/a/b",
                "the key \"b\" occurs more than once in the same object",
            ),
            (
                "{\"a\":{\"b\":1,\"\\u0062\":2}}",
                "/a/b",
                "the key \"b\" occurs more than once in the same object",
            ),
            (
                "{\"a\":[1,2,01]}",
                "/a/2",
                "expected no digit after a leading zero, found \"1\"",
            ),
            (
                "{\"a\":[1,2 3]}",
                "/a/1",
                "expected ',' or ']' in an array, found \"3\"",
            ),
            ("{\"a\":[1,]}", "/a/1", "expected a JSON value, found \"]\""),
            (
                "{\"a\":1 \"b\"}",
                "/a",
                "expected ',' or '}' in an object, found \"\\\"\"",
            ),
            (
                "{\"a\":[1] x}",
                "/a",
                "expected ',' or '}' in an object, found \"x\"",
            ),
            ("{\"a\":1,}", "", "expected a string key, found \"}\""),
            (
                "{\"a\" 1}",
                "/a",
                "expected ':' after an object key, found \"1\"",
            ),
            (
                "{\"a\":\"\\ud800x\"}",
                "/a",
                "expected a \\u low surrogate after a \\u high surrogate, found \"x\"",
            ),
            (
                "[\"\\udc00\"]",
                "/0",
                "expected no lone \\u low surrogate (it encodes no character), found \"\\\\\"",
            ),
            (
                "[\"a\nb\"]",
                "/0",
                "expected no raw control character inside a string, found \"\\n\"",
            ),
            ("[tru]", "/0", "expected a JSON value, found \"t\""),
            (
                "[] x",
                "",
                "expected the end of the text after the value, found \"x\"",
            ),
        ];
        for (text, pointer, reason) in cases {
            let e = read(text, &tolerant(64)).unwrap_err();
            assert_eq!(
                (e.pointer.as_str(), e.reason().as_str()),
                (pointer, reason),
                "{text}"
            );
        }
        let e = read("[[[[1]]]]", &tolerant(3)).unwrap_err();
        assert_eq!(
            (e.kind, e.pointer.as_str()),
            (ErrorKind::Depth(3), "/0/0/0")
        );
        let e = read(&"[".repeat(100_000), &tolerant(64)).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Depth(64));
        let text = "{\n  \"a\": [1,\n  é, 2]}";
        let e = read(text, &tolerant(64)).unwrap_err();
        assert_eq!((e.offset, e.line_column(text)), (15, (3, 3)));
        // Only the strict options refuse a number that overflows an f64.
        let e = read("[0,-1e400]", &STRICT).unwrap_err();
        assert_eq!((e.kind, e.offset), (ErrorKind::NumberRange, 3));
        assert!(read("[0,-1e400]", &tolerant(64)).is_ok());
        for bad in [
            "",
            "{",
            "[1,]",
            "{\"a\":1,}",
            "\"\\ud800\"",
            "\"\\udc00x\"",
            "\"a\nb\"",
            "1 2",
            "tru",
            "-",
            "1.",
            "1e",
            "{\"a\" 1}",
            "{1:2}",
            "'a'",
            "+1",
            "\"\\x\"",
        ] {
            assert!(read(bad, &tolerant(64)).is_err(), "{bad:?}");
        }
    }
}
