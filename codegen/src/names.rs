//! Stage 3: Rust identifiers from `.spx` display names.
//!
//! Types and cases become CamelCase, fields snake_case; a Rust keyword
//! becomes a raw identifier (`r#type`); a name that cannot be a Rust
//! identifier at all (`self`, `Self`, `super`, `crate`, `_`) is an error.

use proc_macro2::{Ident, Span};

/// Keywords of every edition, strict and reserved, that can be written as
/// raw identifiers.
const RAW_OK: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "do", "dyn",
    "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let",
    "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref", "return",
    "static", "struct", "trait", "true", "try", "type", "typeof", "unsafe", "unsized", "use",
    "virtual", "where", "while", "yield",
];

/// Names no Rust identifier can take, not even a raw one.
const NEVER: &[&str] = &["self", "Self", "super", "crate", "_"];

/// CamelCase: each `_`-separated part starts with an uppercase letter; the
/// rest of each part is kept (`geo_point` → `GeoPoint`, `HTTPServer` stays).
pub(crate) fn camel(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for part in name.split('_').filter(|p| !p.is_empty()) {
        let mut chars = part.chars();
        if let Some(c) = chars.next() {
            out.extend(c.to_uppercase());
            out.push_str(chars.as_str());
        }
    }
    out
}

/// snake_case: a `_` before an uppercase letter that follows a lowercase
/// letter or digit, or that starts a new word after an acronym
/// (`maxLen` → `max_len`, `HTTPServer` → `http_server`); leading
/// underscores are kept.
pub(crate) fn snake(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::with_capacity(name.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if c.is_uppercase() && i > 0 {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            if prev.is_lowercase() || prev.is_ascii_digit() || (prev.is_uppercase() && next_lower) {
                out.push('_');
            }
        }
        out.extend(c.to_lowercase());
    }
    out
}

/// The identifier for `converted` (already cased), or why there is none.
pub(crate) fn ident(original: &str, converted: &str) -> Result<Ident, String> {
    let valid = converted
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && converted
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !valid || NEVER.contains(&converted) {
        return Err(if converted == original {
            format!("the name `{original}` cannot become a Rust identifier")
        } else {
            format!(
                "the name `{original}` cannot become a Rust identifier (it would be `{converted}`)"
            )
        });
    }
    if RAW_OK.contains(&converted) {
        Ok(Ident::new_raw(converted, Span::call_site()))
    } else {
        Ok(Ident::new(converted, Span::call_site()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn casing() {
        assert_eq!(camel("Point"), "Point");
        assert_eq!(camel("geo_point"), "GeoPoint");
        assert_eq!(camel("_x"), "X");
        assert_eq!(camel("HTTPServer"), "HTTPServer");
        assert_eq!(snake("x"), "x");
        assert_eq!(snake("max_len"), "max_len");
        assert_eq!(snake("maxLen"), "max_len");
        assert_eq!(snake("HTTPServer"), "http_server");
        assert_eq!(snake("_x"), "_x");
        assert_eq!(snake("Self"), "self");
        assert_eq!(snake("v2Beta"), "v2_beta");
    }

    #[test]
    fn idents() {
        assert_eq!(ident("type", "type").unwrap().to_string(), "r#type");
        assert_eq!(ident("x", "x").unwrap().to_string(), "x");
        for bad in ["self", "Self", "super", "crate", "_", ""] {
            assert!(ident(bad, bad).is_err(), "{bad}");
        }
        assert!(ident("__", "").is_err());
    }
}
