//! Canonical JSON string quoting (FORMAT.md §2) and JSON Pointer tokens.
//!
//! The escape rule lives here once: [`short_escape`] and
//! [`unicode_escaped`] say which characters are escaped and how,
//! [`quote_into`] writes them, and the string reader of
//! [`super::read::Cursor`] admits exactly their output.

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
pub fn quote_into(out: &mut String, s: &str) {
    out.push('"');
    let mut start = 0;
    for (i, c) in s.char_indices() {
        let esc = short_escape(c);
        if esc.is_none() && !c.is_control() {
            continue;
        }
        out.push_str(&s[start..i]);
        match esc {
            Some(e) => out.push_str(e),
            None => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                let v = c as u32;
                out.push_str("\\u00");
                out.push(HEX[(v >> 4) as usize & 0xf] as char);
                out.push(HEX[v as usize & 0xf] as char);
            }
        }
        start = i + c.len_utf8();
    }
    out.push_str(&s[start..]);
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

    #[test]
    fn pointer_tokens() {
        let mut p = String::new();
        push_pointer_token(&mut p, "a/b~c");
        assert_eq!(p, "/a~1b~0c");
    }
}
