//! A small ordered JSON tree, an iterative tolerant RFC 8259 reader that
//! refuses duplicate keys, and a compact deterministic writer.
//!
//! Used by the dialect adapters (which parse the draft 2020-12 projection
//! and rewrite it) and by [`crate::admit`] (which reads raw provider output).
//! Objects keep their members in document order; numbers keep their text.

use crate::quote::{push_pointer_token, quote_into};
use std::collections::HashSet;

/// One JSON value. Objects keep member order; numbers keep their exact text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Json {
    Null,
    Bool(bool),
    /// The number exactly as written (RFC 8259 grammar already checked).
    Number(String),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    /// The member `key` of an object.
    pub(crate) fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// A short description of this value for messages sent back to a model:
    /// `"300"`, `42`, `true`, `null`, `an object`, `an array of 3 elements`.
    pub(crate) fn describe(&self) -> String {
        match self {
            Json::Null => "null".to_string(),
            Json::Bool(b) => b.to_string(),
            Json::Number(n) => {
                if n.len() > 40 {
                    format!("a number of {} digits", n.len())
                } else {
                    n.clone()
                }
            }
            Json::String(s) => {
                if s.chars().count() > 40 {
                    format!("a string of {} UTF-8 bytes", s.len())
                } else {
                    let mut q = String::new();
                    quote_into(&mut q, s);
                    q
                }
            }
            Json::Array(a) => match a.len() {
                0 => "an empty array".to_string(),
                1 => "an array of 1 element".to_string(),
                n => format!("an array of {n} elements"),
            },
            Json::Object(m) => {
                if m.is_empty() {
                    "an empty object".to_string()
                } else {
                    let keys: Vec<String> = m
                        .iter()
                        .take(8)
                        .map(|(k, _)| {
                            let mut q = String::new();
                            quote_into(&mut q, k);
                            q
                        })
                        .collect();
                    let more = if m.len() > 8 { ", …" } else { "" };
                    format!("an object with keys {}{more}", keys.join(", "))
                }
            }
        }
    }
}

/// Appends `v` compactly (no whitespace), strings per FORMAT.md §2.
///
/// Recursive: only ever called on trees this crate built from a schema
/// (bounded by the graph depth), never on untrusted input.
pub(crate) fn write(out: &mut String, v: &Json) {
    match v {
        Json::Null => out.push_str("null"),
        Json::Bool(true) => out.push_str("true"),
        Json::Bool(false) => out.push_str("false"),
        Json::Number(n) => out.push_str(n),
        Json::String(s) => quote_into(out, s),
        Json::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(out, item);
            }
            out.push(']');
        }
        Json::Object(members) => {
            out.push('{');
            for (i, (k, item)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                quote_into(out, k);
                out.push(':');
                write(out, item);
            }
            out.push('}');
        }
    }
}

/// Why reading failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ReadErrorKind {
    /// Not RFC 8259 JSON; the text says what was expected.
    Syntax(String),
    /// A key occurred twice in one object (the pointer names the second).
    DuplicateKey(String),
    /// Containers nested deeper than the bound.
    Depth(usize),
}

/// A reading failure with the JSON Pointer of the place it happened (the
/// innermost member or element being read) and the byte offset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ReadError {
    pub(crate) kind: ReadErrorKind,
    pub(crate) pointer: String,
    pub(crate) offset: usize,
    pub(crate) line: usize,
    pub(crate) column: usize,
}

enum Frame {
    Array(Vec<Json>),
    Object {
        members: Vec<(String, Json)>,
        /// The key of the member being read (meaningful when `has_key`).
        key: String,
        /// False between members, before the next key has been read.
        has_key: bool,
        seen: HashSet<String>,
    },
}

struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    stack: Vec<Frame>,
    max_depth: usize,
}

/// Reads one complete RFC 8259 JSON text (any whitespace, any escapes, one
/// optional leading U+FEFF) without recursion. Containers may nest at most
/// `max_depth` deep; a key repeated in one object is refused.
pub(crate) fn read(text: &str, max_depth: usize) -> Result<Json, ReadError> {
    let mut r = Reader {
        text,
        bytes: text.as_bytes(),
        pos: 0,
        stack: Vec::new(),
        max_depth,
    };
    if text.starts_with('\u{feff}') {
        r.pos = 3;
    }
    r.run()
}

impl<'a> Reader<'a> {
    fn pointer(&self) -> String {
        let mut p = String::new();
        for f in &self.stack {
            match f {
                Frame::Array(items) => {
                    p.push('/');
                    p.push_str(&items.len().to_string());
                }
                Frame::Object {
                    key, has_key: true, ..
                } => push_pointer_token(&mut p, key),
                Frame::Object { .. } => {}
            }
        }
        p
    }

    fn fail(&self, kind: ReadErrorKind) -> ReadError {
        let before = &self.bytes[..self.pos.min(self.bytes.len())];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let column = String::from_utf8_lossy(&before[line_start..])
            .chars()
            .count()
            + 1;
        ReadError {
            kind,
            pointer: self.pointer(),
            offset: self.pos,
            line,
            column,
        }
    }

    fn syntax(&self, expected: &str) -> ReadError {
        let found = match self.bytes.get(self.pos) {
            None => "the end of the text".to_string(),
            Some(_) => {
                let c = self.text[self.pos..].chars().next().unwrap_or('?');
                let mut q = String::new();
                quote_into(&mut q, &c.to_string());
                q
            }
        };
        self.fail(ReadErrorKind::Syntax(format!(
            "expected {expected}, found {found}"
        )))
    }

    fn ws(&mut self) {
        while let Some(&b) = self.bytes.get(self.pos) {
            if matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn push(&mut self, frame: Frame) -> Result<(), ReadError> {
        if self.stack.len() >= self.max_depth {
            return Err(self.fail(ReadErrorKind::Depth(self.max_depth)));
        }
        self.stack.push(frame);
        Ok(())
    }

    /// Reads `"key"` `:` for the object on top of the stack.
    fn member_key(&mut self) -> Result<(), ReadError> {
        if self.peek() != Some(b'"') {
            return Err(self.syntax("a string key"));
        }
        let key = self.string()?;
        let dup = match self.stack.last_mut() {
            Some(Frame::Object {
                key: slot,
                has_key,
                seen,
                ..
            }) => {
                *slot = key.clone();
                *has_key = true;
                !seen.insert(key)
            }
            _ => false,
        };
        if dup {
            let k = match self.stack.last() {
                Some(Frame::Object { key, .. }) => key.clone(),
                _ => String::new(),
            };
            return Err(self.fail(ReadErrorKind::DuplicateKey(k)));
        }
        self.ws();
        if self.peek() != Some(b':') {
            return Err(self.syntax("':' after an object key"));
        }
        self.pos += 1;
        self.ws();
        Ok(())
    }

    fn run(&mut self) -> Result<Json, ReadError> {
        self.ws();
        loop {
            // Read one value, or open a container and go read its first item.
            let mut value = match self.peek() {
                Some(b'{') => {
                    self.push(Frame::Object {
                        members: Vec::new(),
                        key: String::new(),
                        has_key: false,
                        seen: HashSet::new(),
                    })?;
                    self.pos += 1;
                    self.ws();
                    if self.peek() == Some(b'}') {
                        self.pos += 1;
                        self.stack.pop();
                        Json::Object(Vec::new())
                    } else {
                        self.member_key()?;
                        continue;
                    }
                }
                Some(b'[') => {
                    self.push(Frame::Array(Vec::new()))?;
                    self.pos += 1;
                    self.ws();
                    if self.peek() == Some(b']') {
                        self.pos += 1;
                        self.stack.pop();
                        Json::Array(Vec::new())
                    } else {
                        continue;
                    }
                }
                Some(b'"') => Json::String(self.string()?),
                Some(b't') => self.literal("true", Json::Bool(true))?,
                Some(b'f') => self.literal("false", Json::Bool(false))?,
                Some(b'n') => self.literal("null", Json::Null)?,
                Some(b'-' | b'0'..=b'9') => Json::Number(self.number()?),
                _ => return Err(self.syntax("a JSON value")),
            };
            // Attach the finished value to its parents, closing containers.
            loop {
                self.ws();
                match self.stack.last_mut() {
                    None => {
                        if self.pos != self.bytes.len() {
                            return Err(self.syntax("the end of the text after the value"));
                        }
                        return Ok(value);
                    }
                    Some(Frame::Array(items)) => {
                        items.push(value);
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                self.ws();
                                break;
                            }
                            Some(b']') => {
                                self.pos += 1;
                                value = match self.stack.pop() {
                                    Some(Frame::Array(items)) => Json::Array(items),
                                    _ => Json::Null,
                                };
                            }
                            _ => {
                                // Point at the element just read.
                                if let Some(Frame::Array(items)) = self.stack.last_mut() {
                                    items.pop();
                                }
                                return Err(self.syntax("',' or ']' in an array"));
                            }
                        }
                    }
                    Some(Frame::Object {
                        members,
                        key,
                        has_key,
                        ..
                    }) => {
                        members.push((std::mem::take(key), value));
                        *has_key = false;
                        match self.peek() {
                            Some(b',') => {
                                self.pos += 1;
                                self.ws();
                                self.member_key()?;
                                break;
                            }
                            Some(b'}') => {
                                self.pos += 1;
                                value = match self.stack.pop() {
                                    Some(Frame::Object { members, .. }) => Json::Object(members),
                                    _ => Json::Null,
                                };
                            }
                            _ => {
                                if let Some(Frame::Object {
                                    members,
                                    key,
                                    has_key,
                                    ..
                                }) = self.stack.last_mut()
                                {
                                    if let Some((k, _)) = members.pop() {
                                        *key = k;
                                        *has_key = true;
                                    }
                                }
                                return Err(self.syntax("',' or '}' in an object"));
                            }
                        }
                    }
                }
            }
        }
    }

    fn literal(&mut self, word: &str, v: Json) -> Result<Json, ReadError> {
        if self.bytes[self.pos..].starts_with(word.as_bytes()) {
            self.pos += word.len();
            Ok(v)
        } else {
            Err(self.syntax("a JSON value"))
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.pos;
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
        self.pos - start
    }

    fn number(&mut self) -> Result<String, ReadError> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.syntax("a digit in a number")),
        }
        if matches!(self.peek(), Some(b'0'..=b'9')) {
            return Err(self.syntax("no digit after a leading zero"));
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            if self.digits() == 0 {
                return Err(self.syntax("a digit after '.'"));
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if self.digits() == 0 {
                return Err(self.syntax("a digit in an exponent"));
            }
        }
        Ok(self.text[start..self.pos].to_string())
    }

    fn hex4(&mut self) -> Result<u32, ReadError> {
        let mut v = 0u32;
        for _ in 0..4 {
            let d = match self.peek() {
                Some(b @ b'0'..=b'9') => b - b'0',
                Some(b @ b'a'..=b'f') => b - b'a' + 10,
                Some(b @ b'A'..=b'F') => b - b'A' + 10,
                _ => return Err(self.syntax("four hex digits after \\u")),
            };
            v = v * 16 + u32::from(d);
            self.pos += 1;
        }
        Ok(v)
    }

    /// Reads a string starting at its opening quote.
    fn string(&mut self) -> Result<String, ReadError> {
        self.pos += 1;
        let mut out = String::new();
        let mut run = self.pos;
        loop {
            match self.peek() {
                None => return Err(self.syntax("'\"' closing a string")),
                Some(b'"') => {
                    out.push_str(&self.text[run..self.pos]);
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    out.push_str(&self.text[run..self.pos]);
                    self.pos += 1;
                    let c = match self.peek() {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            self.pos += 1;
                            let hi = self.hex4()?;
                            let cp = if (0xD800..0xDC00).contains(&hi) {
                                if !self.bytes[self.pos..].starts_with(b"\\u") {
                                    return Err(self
                                        .syntax("a \\u low surrogate after a \\u high surrogate"));
                                }
                                self.pos += 2;
                                let lo = self.hex4()?;
                                if !(0xDC00..0xE000).contains(&lo) {
                                    self.pos -= 6;
                                    return Err(self
                                        .syntax("a \\u low surrogate after a \\u high surrogate"));
                                }
                                0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                            } else if (0xDC00..0xE000).contains(&hi) {
                                self.pos -= 6;
                                return Err(self.syntax(
                                    "no lone \\u low surrogate (it encodes no character)",
                                ));
                            } else {
                                hi
                            };
                            match char::from_u32(cp) {
                                Some(c) => out.push(c),
                                None => return Err(self.syntax("a valid \\u escape")),
                            }
                            run = self.pos;
                            continue;
                        }
                        _ => return Err(self.syntax("a valid escape after '\\'")),
                    };
                    out.push(c);
                    self.pos += 1;
                    run = self.pos;
                }
                Some(b) if b < 0x20 => {
                    return Err(self.syntax("no raw control character inside a string"))
                }
                Some(_) => self.pos += 1,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(t: &str) -> Json {
        read(t, 64).unwrap()
    }

    #[test]
    fn reads_and_writes_compactly() {
        let v = ok(" {\"b\" : [1, -2.5e+3, true, false, null, {}, []],\n\"a\":\"x\\u00e9\\ud83d\\ude00\\/\"} ");
        let mut s = String::new();
        write(&mut s, &v);
        assert_eq!(
            s,
            "{\"b\":[1,-2.5e+3,true,false,null,{},[]],\"a\":\"xé😀/\"}"
        );
        assert_eq!(ok("\u{feff}1"), Json::Number("1".into()));
    }

    #[test]
    fn refuses_with_pointers() {
        let e = read("{\"a\":{\"b\":1,\"b\":2}}", 64).unwrap_err();
        assert_eq!(e.kind, ReadErrorKind::DuplicateKey("b".into()));
        assert_eq!(e.pointer, "/a/b");
        let e = read("{\"a\":[1,2,01]}", 64).unwrap_err();
        assert!(matches!(e.kind, ReadErrorKind::Syntax(_)));
        assert_eq!(e.pointer, "/a/2");
        let e = read("[[[[1]]]]", 3).unwrap_err();
        assert_eq!(e.kind, ReadErrorKind::Depth(3));
        assert_eq!(e.pointer, "/0/0/0");
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
            assert!(read(bad, 64).is_err(), "{bad:?}");
        }
        let deep = "[".repeat(100_000);
        assert!(matches!(
            read(&deep, 64).unwrap_err().kind,
            ReadErrorKind::Depth(64)
        ));
    }
}
