//! The reader: RFC 8259 text into a [`Tree`], iteratively (an explicit
//! stack of at most [`Options::max_nesting`] open containers), with the
//! policies its users differ in given as [`Options`].

use std::borrow::Cow;
use std::collections::HashSet;

use super::tree::{string_text, Kind, Node, Tree};
use crate::quote::{push_pointer_token, quote_into};

/// How the reader treats what RFC 8259 leaves open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Options {
    /// A key written twice in one object.
    pub duplicates: Duplicates,
    /// At most this many arrays/objects may be open at once; the next
    /// opening bracket is [`ErrorKind::Depth`].
    pub max_nesting: usize,
    /// A leading U+FEFF.
    pub bom: Bom,
    /// Numbers whose value is out of the range of an `f64`.
    pub numbers: Numbers,
}

/// A key written twice in one object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Duplicates {
    /// Both occurrences stay in the tree; [`Tree::lookup`] sees the last
    /// one (serde_json's map semantics).
    Keep,
    /// [`ErrorKind::DuplicateKey`] at the second occurrence (keys compared
    /// after unescaping).
    Refuse,
}

/// A leading byte order mark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bom {
    /// Not JSON: a syntax error like any other character.
    Refuse,
    /// Skipped, as RFC 8259 §8.1 allows a parser to do.
    Skip,
}

/// Numbers whose value is out of the range of an `f64`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Numbers {
    /// Every number RFC 8259's grammar allows.
    Any,
    /// A number that is not zero and rounds to ±infinity as an `f64`
    /// (`1e400`, an integer of 310 digits) is [`ErrorKind::NumberRange`],
    /// as serde_json refuses it.
    FiniteF64,
}

/// Why the text was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ErrorKind {
    /// Not RFC 8259 JSON: the grammar wanted `expected` where it found
    /// `found` (`None`: the end of the text).
    Syntax {
        expected: &'static str,
        found: Option<char>,
    },
    /// A number out of the range of an `f64` ([`Numbers::FiniteF64`]).
    NumberRange,
    /// A key written twice in one object ([`Duplicates::Refuse`]).
    DuplicateKey(String),
    /// More than this many arrays/objects open at once.
    Depth(usize),
}

/// A refusal: what, the byte offset in the text, and the JSON Pointer of
/// the innermost member or element being read (or just read) there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ReadError {
    pub kind: ErrorKind,
    pub offset: usize,
    pub pointer: String,
}

impl ReadError {
    /// The reason in words: `expected ',' or ']' in an array, found "x"`.
    pub fn reason(&self) -> String {
        match &self.kind {
            ErrorKind::Syntax { expected, found } => {
                let found = match found {
                    None => "the end of the text".to_string(),
                    Some(c) => {
                        let mut q = String::new();
                        quote_into(&mut q, c.encode_utf8(&mut [0; 4]));
                        q
                    }
                };
                format!("expected {expected}, found {found}")
            }
            ErrorKind::NumberRange => "number out of range (overflows f64)".to_string(),
            ErrorKind::DuplicateKey(key) => {
                let mut q = String::new();
                quote_into(&mut q, key);
                format!("the key {q} occurs more than once in the same object")
            }
            ErrorKind::Depth(max) => format!("nesting deeper than {max} arrays/objects"),
        }
    }

    /// The 1-based line and column (in characters) of the offset in `text`.
    pub fn line_column(&self, text: &str) -> (usize, usize) {
        let before = text
            .as_bytes()
            .get(..self.offset)
            .unwrap_or(text.as_bytes());
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let column = String::from_utf8_lossy(before.get(line_start..).unwrap_or_default())
            .chars()
            .count()
            + 1;
        (line, column)
    }
}

/// What the grammar expected where it refused, in the words of every
/// refusal ([`ErrorKind::Syntax`]); the push form ([`super::push`]) says
/// the same.
pub(super) mod expect {
    pub const VALUE: &str = "a JSON value";
    pub const KEY: &str = "a string key";
    pub const COLON: &str = "':' after an object key";
    pub const OBJECT_NEXT: &str = "',' or '}' in an object";
    pub const ARRAY_NEXT: &str = "',' or ']' in an array";
    pub const END: &str = "the end of the text after the value";
    pub const LEADING_ZERO: &str = "no digit after a leading zero";
    pub const DIGIT: &str = "a digit in a number";
    pub const FRACTION: &str = "a digit after '.'";
    pub const EXPONENT: &str = "a digit in an exponent";
    pub const HEX: &str = "four hex digits after \\u";
    pub const CLOSE_STRING: &str = "'\"' closing a string";
    pub const NO_CONTROL: &str = "no raw control character inside a string";
    pub const ESCAPE: &str = "a valid escape after '\\'";
    pub const PAIR: &str = "a \\u low surrogate after a \\u high surrogate";
    pub const LONE_LOW: &str = "no lone \\u low surrogate (it encodes no character)";
}

/// True for a number (its whole text) that [`Numbers::FiniteF64`] refuses:
/// not zero, and rounding to ±infinity as an `f64`.
pub(super) fn overflows_f64(text: &str) -> bool {
    text.parse::<f64>().map(f64::is_infinite).unwrap_or(true)
}

/// Reads `text` as exactly one JSON value surrounded by optional
/// whitespace (space, tab, LF, CR).
pub(crate) fn read<'a>(text: &'a str, options: &Options) -> Result<Tree<'a>, ReadError> {
    let mut r = Reader {
        src: text,
        b: text.as_bytes(),
        pos: 0,
        nodes: Vec::with_capacity(text.len() / 8),
        stack: Vec::new(),
        keys: Vec::new(),
        opts: *options,
    };
    if options.bom == Bom::Skip && text.starts_with('\u{FEFF}') {
        r.pos = '\u{FEFF}'.len_utf8();
    }
    r.run()?;
    Ok(Tree {
        src: text,
        nodes: r.nodes,
    })
}

type RResult<T> = Result<T, ReadError>;

/// Where the reader is when it refuses: reading a value (or a key), or
/// just after a complete value. It decides which member or element the
/// pointer names.
#[derive(Clone, Copy, PartialEq, Eq)]
enum At {
    Reading,
    After,
}

struct Reader<'a> {
    src: &'a str,
    b: &'a [u8],
    pos: usize,
    nodes: Vec<Node>,
    /// Indices of the open containers.
    stack: Vec<usize>,
    /// The keys seen so far in each open object, by nesting level (only
    /// with [`Duplicates::Refuse`]; reused from object to object).
    keys: Vec<KeySet<'a>>,
    opts: Options,
}

impl<'a> Reader<'a> {
    /// One value after another until the top-level value is complete.
    fn run(&mut self) -> RResult<()> {
        self.ws();
        loop {
            if self.value()? {
                continue;
            }
            // A value is complete: close containers or go on to the next one.
            loop {
                self.ws();
                let Some(&top) = self.stack.last() else {
                    if self.pos != self.b.len() {
                        return Err(self.syntax(At::After, expect::END));
                    }
                    return Ok(());
                };
                let is_obj = self.nodes.get(top).map(|n| n.kind) == Some(Kind::Object);
                match self.peek() {
                    Some(b',') => {
                        self.pos += 1;
                        self.ws();
                        if is_obj {
                            self.member_key()?;
                        }
                        break;
                    }
                    Some(b'}') if is_obj => self.close(),
                    Some(b']') if !is_obj => self.close(),
                    _ if is_obj => return Err(self.syntax(At::After, expect::OBJECT_NEXT)),
                    _ => return Err(self.syntax(At::After, expect::ARRAY_NEXT)),
                }
            }
        }
    }

    /// Reads the value at `pos`. Returns `true` when it opened a non-empty
    /// container (whose first value comes next), `false` when a value is
    /// complete.
    fn value(&mut self) -> RResult<bool> {
        match self.peek() {
            Some(c @ (b'{' | b'[')) => {
                if self.stack.len() >= self.opts.max_nesting {
                    return Err(self.fail(At::Reading, ErrorKind::Depth(self.opts.max_nesting)));
                }
                let (kind, close) = if c == b'{' {
                    (Kind::Object, b'}')
                } else {
                    (Kind::Array, b']')
                };
                self.open(kind);
                self.ws();
                if self.peek() == Some(close) {
                    self.close();
                    return Ok(false);
                }
                if kind == Kind::Object {
                    self.member_key()?;
                }
                Ok(true)
            }
            Some(b'"') => self.string().map(|_| false),
            Some(b't') => self.literal(b"true", Kind::Bool(true)).map(|_| false),
            Some(b'f') => self.literal(b"false", Kind::Bool(false)).map(|_| false),
            Some(b'n') => self.literal(b"null", Kind::Null).map(|_| false),
            Some(b'-' | b'0'..=b'9') => self.number().map(|_| false),
            _ => Err(self.syntax(At::Reading, expect::VALUE)),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    fn fail(&self, at: At, kind: ErrorKind) -> ReadError {
        ReadError {
            kind,
            offset: self.pos,
            pointer: self.pointer(at),
        }
    }

    fn syntax(&self, at: At, expected: &'static str) -> ReadError {
        let found = self.src.get(self.pos..).and_then(|s| s.chars().next());
        self.fail(at, ErrorKind::Syntax { expected, found })
    }

    /// The pointer of the innermost member or element being read (or, just
    /// after a complete value, the one just read): an object contributes the
    /// key of its current member once that key has been read.
    fn pointer(&self, at: At) -> String {
        let mut ptr = String::new();
        for (level, &open) in self.stack.iter().enumerate() {
            let inner = self.stack.get(level + 1).copied();
            // The children complete so far, up to the open inner container.
            let (mut count, mut last, mut before_last) = (0usize, None, None);
            let mut child = open + 1;
            while child < self.nodes.len() && Some(child) != inner {
                before_last = last;
                last = Some(child);
                count += 1;
                child = self.nodes.get(child).map_or(child + 1, |n| n.next as usize);
            }
            let just_read = at == At::After && inner.is_none();
            if self.nodes.get(open).map(|n| n.kind) == Some(Kind::Object) {
                // Children alternate key and value: an odd count ends on the
                // key of the member being read.
                let key = if count % 2 == 1 {
                    last
                } else if just_read {
                    before_last
                } else {
                    None
                };
                if let Some(k) = key.and_then(|k| self.nodes.get(k)) {
                    push_pointer_token(&mut ptr, &string_text(self.src, *k));
                }
            } else {
                let index = if just_read {
                    count.saturating_sub(1)
                } else {
                    count
                };
                push_pointer_token(&mut ptr, &index.to_string());
            }
        }
        ptr
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

    fn open(&mut self, kind: Kind) {
        let idx = self.nodes.len();
        self.nodes.push(Node {
            kind,
            start: self.pos as u32,
            end: self.pos as u32,
            next: 0,
        });
        self.pos += 1;
        if kind == Kind::Object && self.opts.duplicates == Duplicates::Refuse {
            let level = self.stack.len();
            if self.keys.len() <= level {
                self.keys.resize_with(level + 1, KeySet::default);
            }
            if let Some(set) = self.keys.get_mut(level) {
                set.clear();
            }
        }
        self.stack.push(idx);
    }

    /// Closes the innermost open container at its closing bracket.
    fn close(&mut self) {
        self.pos += 1;
        let next = self.nodes.len() as u32;
        if let Some(n) = self.stack.pop().and_then(|idx| self.nodes.get_mut(idx)) {
            n.end = self.pos as u32;
            n.next = next;
        }
    }

    /// At the start of an object member: a string key, `:`, whitespace.
    fn member_key(&mut self) -> RResult<()> {
        if self.peek() != Some(b'"') {
            return Err(self.syntax(At::Reading, expect::KEY));
        }
        self.string()?;
        if self.opts.duplicates == Duplicates::Refuse {
            self.refuse_duplicate()?;
        }
        self.ws();
        if self.peek() != Some(b':') {
            return Err(self.syntax(At::Reading, expect::COLON));
        }
        self.pos += 1;
        self.ws();
        Ok(())
    }

    /// The key just read, against the keys of its object so far.
    fn refuse_duplicate(&mut self) -> RResult<()> {
        let Some(&key) = self.nodes.last() else {
            return Ok(());
        };
        let text = string_text(self.src, key);
        let level = self.stack.len().saturating_sub(1);
        let fresh = match self.keys.get_mut(level) {
            Some(set) => set.insert(text.clone()),
            None => true,
        };
        if fresh {
            return Ok(());
        }
        Err(self.fail(At::Reading, ErrorKind::DuplicateKey(text.into_owned())))
    }

    fn literal(&mut self, text: &[u8], kind: Kind) -> RResult<()> {
        let start = self.pos;
        if !self.b.get(start..).unwrap_or_default().starts_with(text) {
            return Err(self.syntax(At::Reading, expect::VALUE));
        }
        self.pos += text.len();
        self.leaf(kind, start);
        Ok(())
    }

    fn digits(&mut self) -> usize {
        let from = self.pos;
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
        self.pos - from
    }

    fn number(&mut self) -> RResult<()> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => {
                self.pos += 1;
                if let Some(b'0'..=b'9') = self.peek() {
                    return Err(self.syntax(At::Reading, expect::LEADING_ZERO));
                }
            }
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.syntax(At::Reading, expect::DIGIT)),
        }
        let mut plain = true;
        if self.peek() == Some(b'.') {
            plain = false;
            self.pos += 1;
            if self.digits() == 0 {
                return Err(self.syntax(At::Reading, expect::FRACTION));
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            plain = false;
            self.pos += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            if self.digits() == 0 {
                return Err(self.syntax(At::Reading, expect::EXPONENT));
            }
        }
        // Only an exponent or a very long integer can overflow an f64.
        if self.opts.numbers == Numbers::FiniteF64 && (!plain || self.pos - start > 300) {
            let text = self.src.get(start..self.pos).unwrap_or_default();
            if overflows_f64(text) {
                self.pos = start;
                return Err(self.fail(At::Reading, ErrorKind::NumberRange));
            }
        }
        self.leaf(Kind::Number, start);
        Ok(())
    }

    fn hex4(&mut self) -> RResult<u32> {
        let mut n = 0u32;
        for _ in 0..4 {
            let d = match self.peek() {
                Some(c @ b'0'..=b'9') => c - b'0',
                Some(c @ b'a'..=b'f') => c - b'a' + 10,
                Some(c @ b'A'..=b'F') => c - b'A' + 10,
                _ => return Err(self.syntax(At::Reading, expect::HEX)),
            };
            n = n * 16 + u32::from(d);
            self.pos += 1;
        }
        Ok(n)
    }

    /// Reads a string starting at its opening quote.
    fn string(&mut self) -> RResult<()> {
        let start = self.pos;
        self.pos += 1;
        let mut escaped = false;
        loop {
            // The run of bytes that stand for themselves, in one tight loop.
            let rest = self.b.get(self.pos..).unwrap_or_default();
            self.pos += rest
                .iter()
                .position(|&c| c == b'"' || c == b'\\' || c < 0x20)
                .unwrap_or(rest.len());
            match self.peek() {
                None => return Err(self.syntax(At::Reading, expect::CLOSE_STRING)),
                Some(b'"') => {
                    self.pos += 1;
                    break;
                }
                Some(b'\\') => {
                    escaped = true;
                    self.pos += 1;
                    self.escape()?;
                }
                Some(c) if c < 0x20 => return Err(self.syntax(At::Reading, expect::NO_CONTROL)),
                Some(_) => self.pos += 1,
            }
        }
        self.leaf(Kind::String { escaped }, start);
        Ok(())
    }

    /// The escape after a `\` (at `pos`). A `\u` escape must encode a
    /// character: a high surrogate only followed by a `\u` low surrogate, no
    /// low surrogate on its own.
    fn escape(&mut self) -> RResult<()> {
        const PAIR: &str = expect::PAIR;
        match self.peek() {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => {
                self.pos += 1;
                Ok(())
            }
            Some(b'u') => {
                self.pos += 1;
                let hi = self.hex4()?;
                if (0xDC00..0xE000).contains(&hi) {
                    self.pos -= 6;
                    return Err(self.syntax(At::Reading, expect::LONE_LOW));
                }
                if !(0xD800..0xDC00).contains(&hi) {
                    return Ok(());
                }
                if !self
                    .b
                    .get(self.pos..)
                    .unwrap_or_default()
                    .starts_with(b"\\u")
                {
                    return Err(self.syntax(At::Reading, PAIR));
                }
                self.pos += 2;
                let lo = self.hex4()?;
                if !(0xDC00..0xE000).contains(&lo) {
                    self.pos -= 6;
                    return Err(self.syntax(At::Reading, PAIR));
                }
                Ok(())
            }
            _ => Err(self.syntax(At::Reading, expect::ESCAPE)),
        }
    }
}

/// The distinct keys of one object: a short list while it is small, a hash
/// set once it is not.
#[derive(Default, Debug)]
pub(super) struct KeySet<'a> {
    few: Vec<Cow<'a, str>>,
    many: HashSet<Cow<'a, str>>,
}

impl<'a> KeySet<'a> {
    const FEW: usize = 16;

    pub(super) fn clear(&mut self) {
        self.few.clear();
        self.many.clear();
    }

    /// Adds `key`; false when it was already there.
    pub(super) fn insert(&mut self, key: Cow<'a, str>) -> bool {
        if self.many.is_empty() {
            if self.few.contains(&key) {
                return false;
            }
            if self.few.len() < Self::FEW {
                self.few.push(key);
                return true;
            }
            self.many.extend(self.few.drain(..));
        }
        self.many.insert(key)
    }
}
