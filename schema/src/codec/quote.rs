//! Canonical JSON string quoting (FORMAT.md §2) and JSON Pointer tokens.
//!
//! The escape rule lives here once: [`short_escape`] and
//! [`unicode_escaped`] say which characters are escaped and how,
//! [`quote_into`] writes them, and the string reader of
//! [`super::read::Cursor`] admits exactly their output.

use super::kernel::{Kernel, Native};

/// The short escape of `c`, when it has one: `\"`, `\\`, `\n`, `\r`, `\t`.
#[inline]
pub const fn short_escape(c: char) -> Option<&'static str> {
    match c {
        '"' => Some("\\\""),
        '\\' => Some("\\\\"),
        '\n' => Some("\\n"),
        '\r' => Some("\\r"),
        '\t' => Some("\\t"),
        _ => None,
    }
}

/// True for the characters written as `\u00` and two lowercase hex digits:
/// every `char::is_control` character (U+0000..U+001F, U+007F..U+009F)
/// without a short form.
#[inline]
pub fn unicode_escaped(c: char) -> bool {
    c.is_control() && short_escape(c).is_none()
}

/// The value of one lowercase hex digit of a `\u00xx` escape (`0-9a-f`;
/// uppercase is not canonical).
#[inline]
pub fn lower_hex(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        _ => None,
    }
}

/// Appends `s` to `out` as a canonical JSON string, quotes included.
///
/// Escapes exactly `"`, `\`, LF, CR and TAB by their short forms and every
/// other `char::is_control` character as `\u` plus four lowercase hex digits;
/// everything else is written literally.
#[inline]
pub fn quote_into(out: &mut String, s: &str) {
    quote_into_with::<Native>(out, s)
}

/// [`quote_into`] with the scanning kernel `K` (the tests hold the
/// [`Native`] one against [`super::kernel::Portable`]).
///
/// The runs between characters that are escaped are found by
/// [`Kernel::plain_run`] (which stops at `"`, `\`, the C0 controls, DEL and
/// 0xC2, the lead byte of the C1 controls U+0080..U+009F) and copied whole.
pub fn quote_into_with<K: Kernel>(out: &mut String, s: &str) {
    let b = s.as_bytes();
    out.reserve(b.len() + 2);
    out.push('"');
    // `run` is where the current plain run starts, `i` the scan position;
    // both are only ever before ASCII bytes or 0xC2 lead bytes, so they are
    // char boundaries.
    let mut run = 0;
    let mut i = 0;
    while i < b.len() {
        i += K::plain_run(&b[i..]);
        let Some(&c) = b.get(i) else { break };
        let (escape, width) = match c {
            // U+0080..U+009F are escaped; U+00A0..U+00BF are plain.
            0xc2 => match b.get(i + 1) {
                Some(&next @ 0x80..=0x9f) => (Some(next), 2),
                _ => (None, 2),
            },
            _ => (Some(c), 1),
        };
        if let Some(code) = escape {
            out.push_str(&s[run..i]);
            match short_escape(char::from(code)) {
                Some(e) => out.push_str(e),
                None => {
                    const HEX: &[u8; 16] = b"0123456789abcdef";
                    out.push_str("\\u00");
                    out.push(char::from(HEX[usize::from(code >> 4)]));
                    out.push(char::from(HEX[usize::from(code & 0xf)]));
                }
            }
            run = i + width;
        }
        i += width;
    }
    out.push_str(&s[run..]);
    out.push('"');
}

/// `s` as a canonical JSON string, quotes included.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    quote_into(&mut out, s);
    out
}

/// Appends `/` and `token` escaped as an RFC 6901 reference token
/// (`~` → `~0`, `/` → `~1`) to a JSON Pointer.
pub fn push_pointer_token(pointer: &mut String, token: &str) {
    pointer.push('/');
    for c in token.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_exactly_the_specified_set() {
        assert_eq!(quote("a\"b\\c\nd\re\tf"), r#""a\"b\\c\nd\re\tf""#);
        assert_eq!(
            quote("\u{8}\u{c}\u{7f}\u{85}\u{9f}"),
            r#""\u0008\u000c\u007f\u0085\u009f""#
        );
        assert_eq!(quote("/é\u{a0}\u{2028}"), "\"/é\u{a0}\u{2028}\"");
        assert_eq!(quote("\u{0}\u{1f}"), r#""\u0000\u001f""#);
    }

    /// `quote_into` as it was before the kernel scan (char by char), the
    /// oracle of [`quoting_is_as_before`].
    fn oracle(s: &str) -> String {
        let mut out = String::from("\"");
        for c in s.chars() {
            match short_escape(c) {
                Some(e) => out.push_str(e),
                None if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
                None => out.push(c),
            }
        }
        out.push('"');
        out
    }

    #[test]
    fn quoting_is_as_before() {
        let pieces = [
            "a",
            "abcdefghijklmnopqrstuvwxyz0123456789",
            "\"",
            "\\",
            "\n",
            "\r",
            "\t",
            "\u{0}",
            "\u{1f}",
            "\u{7f}",
            "\u{80}",
            "\u{85}",
            "\u{9f}",
            "\u{a0}",
            "\u{bf}",
            "\u{c0}",
            "é",
            "→",
            "日本語",
            "😀",
            "\u{2028}",
            " ",
        ];
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for _ in 0..20_000 {
            let n = next() % 16;
            let s: String = (0..n)
                .map(|_| pieces[(next() % pieces.len() as u64) as usize])
                .collect();
            let want = oracle(&s);
            assert_eq!(quote(&s), want, "{s:?}");
            let mut p = String::from("x");
            quote_into_with::<super::super::kernel::Portable>(&mut p, &s);
            assert_eq!(p[1..], want, "{s:?}");
        }
        // Every character below U+0100 at every offset of a 40-byte string.
        for c in (0u32..0x100).filter_map(char::from_u32) {
            for k in 0..40 {
                let s = format!("{}{c}{}", "a".repeat(k), "b".repeat(40 - k));
                assert_eq!(quote(&s), oracle(&s), "{c:?} at {k}");
            }
        }
    }

    #[test]
    fn pointer_tokens() {
        let mut p = String::new();
        push_pointer_token(&mut p, "a/b~c");
        assert_eq!(p, "/a~1b~0c");
    }
}
