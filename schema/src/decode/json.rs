//! Step 4 of FORMAT.md §7: a strict, iterative JSON parser into a compact
//! span tree.
//!
//! "Valid JSON" means exactly what `serde_json::from_slice::<serde_json::Value>`
//! accepts (see `docs/DECODING.md`): RFC 8259, plus refusal of `\u` lone
//! surrogates, of numbers whose value rounds to an infinite `f64`, and of
//! more than [`MAX_NESTING`] nested arrays/objects. The parser never
//! recurses, and the tree holds at most one node per input byte.

use std::borrow::Cow;

/// serde_json refuses the 128th nested array/object (its recursion budget
/// starts at 128 and fails when it reaches 0), so at most 127 may be open.
pub(crate) const MAX_NESTING: usize = 127;

/// What a node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Null,
    Bool(bool),
    Number,
    /// A string; `escaped` when its text contains at least one `\`.
    String {
        escaped: bool,
    },
    Array,
    Object,
}

/// One node of the tree, in pre-order. An object's children alternate key
/// (a `String` node) and value.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Node {
    pub kind: Kind,
    /// Byte offset of the first byte (the `"` of a string, the `{` …).
    pub start: u32,
    /// Byte offset one past the last byte.
    pub end: u32,
    /// Index of the first node after this node's subtree.
    pub next: u32,
}

/// A parsed document.
pub(crate) struct Tree<'a> {
    pub src: &'a str,
    pub nodes: Vec<Node>,
}

/// Why and where the text is not JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SyntaxError {
    pub offset: usize,
    pub reason: &'static str,
}

struct Parser<'a> {
    b: &'a [u8],
    pos: usize,
    nodes: Vec<Node>,
}

type PResult<T> = Result<T, SyntaxError>;

impl Parser<'_> {
    fn err<T>(&self, reason: &'static str) -> PResult<T> {
        Err(SyntaxError {
            offset: self.pos,
            reason,
        })
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    fn leaf(&mut self, kind: Kind, start: usize) {
        let next = self.nodes.len() as u32 + 1;
        self.nodes.push(Node {
            kind,
            start: start as u32,
            end: self.pos as u32,
            next,
        });
    }

    fn open(&mut self, kind: Kind) -> usize {
        let idx = self.nodes.len();
        self.nodes.push(Node {
            kind,
            start: self.pos as u32,
            end: self.pos as u32,
            next: 0,
        });
        self.pos += 1;
        idx
    }

    fn close(&mut self, idx: usize) {
        self.pos += 1;
        let next = self.nodes.len() as u32;
        if let Some(n) = self.nodes.get_mut(idx) {
            n.end = self.pos as u32;
            n.next = next;
        }
    }

    fn literal(&mut self, text: &[u8], kind: Kind) -> PResult<()> {
        let start = self.pos;
        for &expected in text {
            match self.peek() {
                None => return self.err("end of input inside a literal"),
                Some(c) if c == expected => self.pos += 1,
                Some(_) => return self.err("expected `true`, `false` or `null`"),
            }
        }
        self.leaf(kind, start);
        Ok(())
    }

    fn hex4(&mut self) -> PResult<u32> {
        let mut n = 0u32;
        for _ in 0..4 {
            let d = match self.peek() {
                Some(c @ b'0'..=b'9') => c - b'0',
                Some(c @ b'a'..=b'f') => c - b'a' + 10,
                Some(c @ b'A'..=b'F') => c - b'A' + 10,
                None => return self.err("end of input inside a \\u escape"),
                Some(_) => return self.err("invalid \\u escape"),
            };
            n = n * 16 + u32::from(d);
            self.pos += 1;
        }
        Ok(n)
    }

    fn string(&mut self) -> PResult<()> {
        let start = self.pos;
        self.pos += 1;
        let mut escaped = false;
        loop {
            match self.peek() {
                None => return self.err("end of input inside a string"),
                Some(b'"') => {
                    self.pos += 1;
                    break;
                }
                Some(b'\\') => {
                    escaped = true;
                    self.pos += 1;
                    match self.peek() {
                        Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {
                            self.pos += 1
                        }
                        Some(b'u') => {
                            self.pos += 1;
                            let n = self.hex4()?;
                            if (0xDC00..=0xDFFF).contains(&n) {
                                return self.err("lone trailing surrogate in a \\u escape");
                            }
                            if (0xD800..=0xDBFF).contains(&n) {
                                if self.peek() != Some(b'\\') {
                                    return self.err("lone leading surrogate in a \\u escape");
                                }
                                self.pos += 1;
                                if self.peek() != Some(b'u') {
                                    return self.err("lone leading surrogate in a \\u escape");
                                }
                                self.pos += 1;
                                let n2 = self.hex4()?;
                                if !(0xDC00..=0xDFFF).contains(&n2) {
                                    return self.err("lone leading surrogate in a \\u escape");
                                }
                            }
                        }
                        None => return self.err("end of input inside an escape"),
                        Some(_) => return self.err("invalid escape"),
                    }
                }
                Some(c) if c < 0x20 => {
                    return self.err("control character (U+0000–U+001F) inside a string")
                }
                Some(_) => self.pos += 1,
            }
        }
        self.leaf(Kind::String { escaped }, start);
        Ok(())
    }

    fn digits(&mut self) -> usize {
        let from = self.pos;
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
        self.pos - from
    }

    fn number(&mut self) -> PResult<()> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => {
                self.pos += 1;
                if let Some(b'0'..=b'9') = self.peek() {
                    return self.err("leading zero in a number");
                }
            }
            Some(b'1'..=b'9') => {
                self.digits();
            }
            None => return self.err("end of input inside a number"),
            Some(_) => return self.err("invalid number"),
        }
        let mut plain = true;
        if self.peek() == Some(b'.') {
            plain = false;
            self.pos += 1;
            if self.digits() == 0 {
                return self.err("expected a digit after the decimal point");
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            plain = false;
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            if self.digits() == 0 {
                return self.err("expected a digit in the exponent");
            }
        }
        // Only an exponent or a very long integer can overflow an f64.
        if !plain || self.pos - start > 300 {
            let text = std::str::from_utf8(self.b.get(start..self.pos).unwrap_or_default())
                .unwrap_or_default();
            if text.parse::<f64>().map(f64::is_infinite).unwrap_or(true) {
                return Err(SyntaxError {
                    offset: start,
                    reason: "number out of range (overflows f64)",
                });
            }
        }
        self.leaf(Kind::Number, start);
        Ok(())
    }

    /// At the start of an object member: a string key, `:`, whitespace.
    fn member_key(&mut self) -> PResult<()> {
        match self.peek() {
            Some(b'"') => self.string()?,
            None => return self.err("end of input, expected an object key"),
            Some(_) => return self.err("expected a string key"),
        }
        self.ws();
        match self.peek() {
            Some(b':') => self.pos += 1,
            None => return self.err("end of input, expected `:`"),
            Some(_) => return self.err("expected `:`"),
        }
        self.ws();
        Ok(())
    }
}

/// Parses `src` as exactly one JSON value surrounded by optional whitespace.
pub(crate) fn parse(src: &str) -> Result<Tree<'_>, SyntaxError> {
    let mut p = Parser {
        b: src.as_bytes(),
        pos: 0,
        nodes: Vec::with_capacity(src.len() / 8),
    };
    // Indices of the open containers.
    let mut stack: Vec<usize> = Vec::new();
    p.ws();
    'value: loop {
        // One value starts at `p.pos`.
        match p.peek() {
            None => return p.err("end of input, expected a value"),
            Some(c @ (b'{' | b'[')) => {
                if stack.len() >= MAX_NESTING {
                    return p.err("nesting deeper than 127 arrays/objects");
                }
                let (kind, close) = if c == b'{' {
                    (Kind::Object, b'}')
                } else {
                    (Kind::Array, b']')
                };
                let idx = p.open(kind);
                p.ws();
                if p.peek() == Some(close) {
                    p.close(idx);
                } else {
                    stack.push(idx);
                    if kind == Kind::Object {
                        p.member_key()?;
                    }
                    continue 'value;
                }
            }
            Some(b'"') => p.string()?,
            Some(b't') => p.literal(b"true", Kind::Bool(true))?,
            Some(b'f') => p.literal(b"false", Kind::Bool(false))?,
            Some(b'n') => p.literal(b"null", Kind::Null)?,
            Some(b'-' | b'0'..=b'9') => p.number()?,
            Some(_) => return p.err("expected a value"),
        }
        // A value is complete: close containers or go on to the next one.
        loop {
            p.ws();
            let Some(&top) = stack.last() else {
                if p.pos != p.b.len() {
                    return p.err("trailing characters after the value");
                }
                return Ok(Tree {
                    src,
                    nodes: p.nodes,
                });
            };
            let is_obj = p.nodes.get(top).map(|n| n.kind) == Some(Kind::Object);
            match p.peek() {
                Some(b',') => {
                    p.pos += 1;
                    p.ws();
                    if is_obj {
                        p.member_key()?;
                    }
                    continue 'value;
                }
                Some(b'}') if is_obj => {
                    p.close(top);
                    stack.pop();
                }
                Some(b']') if !is_obj => {
                    p.close(top);
                    stack.pop();
                }
                None => return p.err("end of input inside an array or object"),
                Some(_) if is_obj => return p.err("expected `,` or `}`"),
                Some(_) => return p.err("expected `,` or `]`"),
            }
        }
    }
}

impl<'a> Tree<'a> {
    /// The node at `idx` (the tree is never empty after a successful parse).
    pub fn node(&self, idx: usize) -> Node {
        self.nodes.get(idx).copied().unwrap_or(Node {
            kind: Kind::Null,
            start: 0,
            end: 0,
            next: idx as u32 + 1,
        })
    }

    /// The direct children of a container, in document order.
    pub fn children(&self, idx: usize) -> Children<'_, 'a> {
        let node = self.node(idx);
        Children {
            tree: self,
            at: idx + 1,
            end: (node.next as usize).max(idx + 1),
        }
    }

    /// `(key, value)` node pairs of an object, in document order.
    pub fn members(&self, idx: usize) -> Members<'_, 'a> {
        Members {
            children: self.children(idx),
        }
    }

    /// The number of elements of an array.
    pub fn len(&self, idx: usize) -> usize {
        self.children(idx).count()
    }

    /// The raw text of a node.
    pub fn raw(&self, idx: usize) -> &'a str {
        let n = self.node(idx);
        self.src
            .get(n.start as usize..n.end as usize)
            .unwrap_or_default()
    }

    /// The unescaped text of a string node.
    pub fn text(&self, idx: usize) -> Cow<'a, str> {
        let n = self.node(idx);
        let inner = self
            .src
            .get(n.start as usize + 1..(n.end as usize).saturating_sub(1))
            .unwrap_or_default();
        match n.kind {
            Kind::String { escaped: true } => Cow::Owned(unescape(inner)),
            _ => Cow::Borrowed(inner),
        }
    }

    /// True when the string node `idx` unescapes to exactly `expected`.
    pub fn text_eq(&self, idx: usize, expected: &str) -> bool {
        match self.node(idx).kind {
            Kind::String { escaped: false } => self.text(idx) == expected,
            Kind::String { escaped: true } => *self.text(idx) == *expected,
            _ => false,
        }
    }
}

/// Iterator over a container's children.
pub(crate) struct Children<'t, 'a> {
    tree: &'t Tree<'a>,
    at: usize,
    end: usize,
}

impl Iterator for Children<'_, '_> {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        if self.at >= self.end {
            return None;
        }
        let idx = self.at;
        self.at = (self.tree.node(idx).next as usize).max(idx + 1);
        Some(idx)
    }
}

/// Iterator over an object's `(key, value)` pairs.
pub(crate) struct Members<'t, 'a> {
    children: Children<'t, 'a>,
}

impl Iterator for Members<'_, '_> {
    type Item = (usize, usize);
    fn next(&mut self) -> Option<(usize, usize)> {
        let k = self.children.next()?;
        let v = self.children.next()?;
        Some((k, v))
    }
}

/// Unescapes the inside of a string the parser accepted.
fn unescape(inner: &str) -> String {
    let mut out = String::with_capacity(inner.len());
    let mut rest = inner;
    while let Some(i) = rest.find('\\') {
        out.push_str(rest.get(..i).unwrap_or_default());
        let b = rest.as_bytes();
        let (c, used) = match b.get(i + 1) {
            Some(b'"') => ('"', 2),
            Some(b'\\') => ('\\', 2),
            Some(b'/') => ('/', 2),
            Some(b'b') => ('\u{8}', 2),
            Some(b'f') => ('\u{c}', 2),
            Some(b'n') => ('\n', 2),
            Some(b'r') => ('\r', 2),
            Some(b't') => ('\t', 2),
            Some(b'u') => {
                let hi = hex_at(rest, i + 2);
                if (0xD800..=0xDBFF).contains(&hi) {
                    let lo = hex_at(rest, i + 8);
                    let cp = 0x10000 + ((hi - 0xD800) << 10) + (lo.wrapping_sub(0xDC00) & 0x3FF);
                    (char::from_u32(cp).unwrap_or('\u{FFFD}'), 12)
                } else {
                    (char::from_u32(hi).unwrap_or('\u{FFFD}'), 6)
                }
            }
            _ => ('\u{FFFD}', 2),
        };
        out.push(c);
        rest = rest.get(i + used..).unwrap_or_default();
    }
    out.push_str(rest);
    out
}

fn hex_at(s: &str, at: usize) -> u32 {
    s.get(at..at + 4)
        .and_then(|h| u32::from_str_radix(h, 16).ok())
        .unwrap_or(0xFFFD)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(s: &str) -> bool {
        parse(s).is_ok()
    }

    #[test]
    fn accepts_and_refuses_like_serde_json() {
        for s in [
            "{}",
            " [ 1 , -0 , 0.5e-3 , true , null , \"\\ud83d\\ude00\\/\" ] ",
            "{\"a\":{\"b\":[]}}",
            "1e-400",
            "0e999999999999",
        ] {
            assert!(ok(s), "{s}");
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
        ] {
            assert!(!ok(s), "{s}");
            assert!(serde_json::from_str::<serde_json::Value>(s).is_err(), "{s}");
        }
    }

    #[test]
    fn nesting_limit_matches_serde_json() {
        for depth in [126usize, 127, 128, 129] {
            let s = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
            assert_eq!(
                ok(&s),
                serde_json::from_str::<serde_json::Value>(&s).is_ok(),
                "{depth}"
            );
        }
        assert!(ok(&format!("{}{}", "[".repeat(127), "]".repeat(127))));
        assert!(!ok(&"[".repeat(40_000)));
    }

    #[test]
    fn tree_shape_and_text() {
        let t = parse("{\"a\\n\":[1,2],\"b\":\"x\\u00e9\\ud83d\\ude00\"}").unwrap();
        let members: Vec<_> = t.members(0).collect();
        assert_eq!(members.len(), 2);
        assert_eq!(t.text(members[0].0), "a\n");
        assert_eq!(t.len(members[0].1), 2);
        assert_eq!(t.text(members[1].1), "xé😀");
        assert!(t.text_eq(members[1].0, "b"));
    }
}
