//! Canonical JSON string quoting (FORMAT.md §2) and JSON Pointer tokens.

/// Appends `s` to `out` as a canonical JSON string, quotes included.
///
/// Escapes exactly `"`, `\`, LF, CR and TAB by their short forms and every
/// other `char::is_control` character as `\u` plus four lowercase hex digits;
/// everything else is written literally.
pub fn quote_into(out: &mut String, s: &str) {
    out.push('"');
    let bytes = s.as_bytes();
    let mut start = 0;
    for (i, c) in s.char_indices() {
        let esc: Option<&str> = match c {
            '"' => Some("\\\""),
            '\\' => Some("\\\\"),
            '\n' => Some("\\n"),
            '\r' => Some("\\r"),
            '\t' => Some("\\t"),
            c if c.is_control() => None,
            _ => continue,
        };
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
    debug_assert!(start <= bytes.len());
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
