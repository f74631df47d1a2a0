//! The reader of [`super::read`] in push form: the same grammar, options
//! and refusals (kind, byte offset, JSON Pointer, words), for text that
//! arrives a piece at a time. It builds no tree: it hands each token to the
//! caller as soon as it is complete (strings in pieces, with the byte
//! offset of each), keeping only the open containers, the keys of the open
//! objects (when duplicates are refused), the key or number being read and
//! the state of an escape.
//!
//! The streams of [`crate::stream`] read with it: admission of a provider's
//! output as it arrives, and the strict decoder once a document has left
//! the canonical form (to find out what the whole-document decoder would
//! say). It is tested to accept exactly what [`super::read`] accepts, and
//! to refuse with the same [`ReadError`], for every way of cutting a text
//! into pieces.

use std::borrow::Cow;

use super::read::{
    expect, overflows_f64, Bom, Duplicates, ErrorKind, KeySet, Numbers, Options, ReadError,
};
use crate::quote::push_pointer_token;

/// What a value starts as, from its first byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Start {
    Object,
    Array,
    String,
    Number,
    /// `true`, `false` or `null`.
    Literal,
}

/// A token, as soon as it is complete. Offsets are byte offsets in the
/// whole text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tok<'a> {
    /// The first byte of a value, at `at`.
    Begin { start: Start, at: u64 },
    /// A piece of decoded string text (of a key when `key`), whose first
    /// byte is at `at` in the text: a run written as itself, or (when
    /// `escaped`) the character of one escape.
    Text {
        key: bool,
        text: &'a str,
        at: u64,
        escaped: bool,
    },
    /// An object key, complete and unescaped (checked for duplicates);
    /// its closing quote is at `at`.
    Key { text: &'a str, at: u64 },
    /// The closing quote of a string value.
    StrEnd { at: u64 },
    /// A number, complete; it starts at `at`.
    Number { raw: &'a str, at: u64 },
    /// `true` or `false`, complete; it starts at `at`.
    Bool { value: bool, at: u64 },
    /// `null`, complete; it starts at `at`.
    Null { at: u64 },
    /// The `}` closing an object.
    ObjEnd { at: u64 },
    /// The `]` closing an array.
    ArrEnd { at: u64 },
    /// A `,` between two members or elements.
    Comma { at: u64 },
    /// The top-level value is complete (only whitespace may follow).
    End,
}

/// Why [`Push::feed`] stopped: the text is not JSON, or the caller's sink
/// refused a token.
#[derive(Debug)]
pub(crate) enum Stop<E> {
    Json(ReadError),
    Sink(E),
}

impl<E> From<ReadError> for Stop<E> {
    fn from(e: ReadError) -> Self {
        Stop::Json(e)
    }
}

/// Where an escape stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Esc {
    /// Not in an escape.
    None,
    /// Just after `\`.
    Backslash,
    /// After `\u` and `n` hex digits of `value`; `low` for the second
    /// escape of a surrogate pair.
    Hex { n: u8, value: u32, low: bool },
    /// After a high surrogate: `\` must follow.
    PairBackslash,
    /// After a high surrogate and `\`: `u` must follow.
    PairU,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Num {
    /// After `-`.
    Sign,
    /// After a leading `0`.
    Zero,
    /// In the integer digits.
    Int,
    /// After `.`.
    Dot,
    /// In the fraction digits.
    Frac,
    /// After `e`/`E`.
    Exp,
    /// After the exponent's sign.
    ExpSign,
    /// In the exponent digits.
    ExpDigits,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// A value is expected (whitespace first).
    Value,
    /// After `[`: a value or `]`.
    FirstElement,
    /// After `{`: a key or `}`.
    FirstKey,
    /// After `,` in an object: a key.
    Key,
    /// After a key: `:`.
    Colon,
    /// After a value: `,` or the closing bracket, or the end at the top.
    After,
    /// In a string (a key when `key`).
    Str {
        key: bool,
        esc: Esc,
    },
    Number(Num),
    /// In `true`/`false`/`null`: `i` bytes of `lit` read.
    Literal {
        lit: &'static [u8],
        i: u8,
    },
}

/// One open container, as the reader's pointer sees it.
#[derive(Debug, Default)]
struct Level {
    object: bool,
    /// Array: the elements complete so far.
    count: usize,
    /// Object: the key of the member being read, or of the last one read.
    key: Option<String>,
    /// Object: a key has been read and its value is not complete.
    pending: bool,
}

/// Where the reader is when it refuses (as in [`super::read`]): reading a
/// value or key, or just after a complete value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum At {
    Reading,
    After,
}

/// The incremental reader.
#[derive(Debug)]
pub(crate) struct Push {
    opts: Options,
    /// The offset of the next byte.
    pos: u64,
    state: State,
    /// The top-level value has been read.
    done: bool,
    /// Nothing but (skipped) whitespace has been read yet.
    fresh: bool,
    stack: Vec<Level>,
    /// The keys of each open object, by nesting level (duplicates refused).
    keys: Vec<KeySet<'static>>,
    /// The key or the number being read.
    buf: String,
    /// Where the current string, number or literal started.
    tok_at: u64,
    /// Where the current escape (its `\`) started.
    esc_at: u64,
    /// A high surrogate waiting for its low half.
    high: u32,
}

type Fed<E> = Result<(), Stop<E>>;

impl Push {
    /// At the start of a text.
    pub(crate) fn new(opts: Options) -> Push {
        Push {
            opts,
            pos: 0,
            state: State::Value,
            done: false,
            fresh: true,
            stack: Vec::new(),
            keys: Vec::new(),
            buf: String::new(),
            tok_at: 0,
            esc_at: 0,
            high: 0,
        }
    }

    /// In the middle of a text whose open containers are `objects`
    /// (outermost first, `true` for an object), at offset `pos`, where a
    /// value (`Resume::Value`), a first key or `}` (`Resume::FirstKey`) …
    /// is expected. For a reader that knows where a document stands (the
    /// strict decoder, which has only read canonical text so far) and now
    /// needs the grammar's verdict on what follows. The pointers of its
    /// refusals name no keys.
    pub(crate) fn resume(opts: Options, objects: &[bool], pos: u64, at: Resume) -> Push {
        let mut p = Push::new(opts);
        p.fresh = false;
        p.pos = pos;
        for &object in objects {
            p.stack.push(Level {
                object,
                pending: object,
                ..Level::default()
            });
            p.keys.push(KeySet::default());
        }
        p.state = match at {
            Resume::Value => State::Value,
            Resume::FirstKey => State::FirstKey,
            Resume::FirstElement => State::FirstElement,
            Resume::Key => State::Key,
            Resume::Colon => State::Colon,
            Resume::After => State::After,
            Resume::InString { key, esc, start } => {
                p.tok_at = start;
                State::Str { key, esc }
            }
        };
        if let Some(l) = p.stack.last_mut() {
            l.pending = matches!(at, Resume::Value | Resume::Colon)
                || matches!(at, Resume::InString { key: false, .. });
        }
        p.done = p.stack.is_empty() && at == Resume::After;
        p
    }

    /// The offset of the next byte.
    pub(crate) fn pos(&self) -> u64 {
        self.pos
    }

    /// True inside a string escape (including between the halves of a
    /// surrogate pair).
    pub(crate) fn in_escape(&self) -> bool {
        matches!(self.state, State::Str { esc, .. } if esc != Esc::None)
    }

    fn pointer(&self, at: At) -> String {
        let mut ptr = String::new();
        let n = self.stack.len();
        for (i, l) in self.stack.iter().enumerate() {
            let just_read = at == At::After && i + 1 == n;
            if l.object {
                if l.pending || just_read {
                    if let Some(k) = &l.key {
                        push_pointer_token(&mut ptr, k);
                    }
                }
            } else {
                let index = if just_read {
                    l.count.saturating_sub(1)
                } else {
                    l.count
                };
                push_pointer_token(&mut ptr, &index.to_string());
            }
        }
        ptr
    }

    fn fail(&self, at: At, offset: u64, kind: ErrorKind) -> ReadError {
        ReadError {
            kind,
            offset: offset as usize,
            pointer: self.pointer(at),
        }
    }

    fn syntax(
        &self,
        at: At,
        offset: u64,
        expected: &'static str,
        found: Option<char>,
    ) -> ReadError {
        self.fail(at, offset, ErrorKind::Syntax { expected, found })
    }

    /// Reads `text`, handing each complete token to `sink`.
    pub(crate) fn feed<E>(
        &mut self,
        text: &str,
        sink: &mut impl FnMut(Tok<'_>) -> Result<(), E>,
    ) -> Fed<E> {
        let b = text.as_bytes();
        let base = self.pos;
        let mut i = 0usize;
        let found = |i: usize| text.get(i..).and_then(|s| s.chars().next());
        while i < b.len() {
            let c = b.get(i).copied().unwrap_or(0);
            let at = base + i as u64;
            self.pos = at;
            match self.state {
                State::Str {
                    key,
                    esc: Esc::None,
                } => {
                    // The run of bytes that stand for themselves.
                    let rest = b.get(i..).unwrap_or_default();
                    let run = rest
                        .iter()
                        .position(|&x| x == b'"' || x == b'\\' || x < 0x20)
                        .unwrap_or(rest.len());
                    if run > 0 {
                        let piece = text.get(i..i + run).unwrap_or_default();
                        self.text(key, piece, at, sink)?;
                        i += run;
                        continue;
                    }
                    match c {
                        b'"' => {
                            i += 1;
                            self.end_string(key, at, sink)?;
                        }
                        b'\\' => {
                            self.esc_at = at;
                            self.state = State::Str {
                                key,
                                esc: Esc::Backslash,
                            };
                            i += 1;
                        }
                        _ => {
                            return Err(self
                                .syntax(At::Reading, at, expect::NO_CONTROL, found(i))
                                .into())
                        }
                    }
                }
                State::Str { key, esc } => {
                    self.escape(key, esc, c, at, found(i), sink)?;
                    i += 1;
                }
                State::Number(n) => {
                    if self.number_byte(n, c, at, found(i))? {
                        i += 1;
                    } else {
                        self.end_number(sink)?;
                    }
                }
                State::Literal { lit, i: k } => {
                    if lit.get(usize::from(k)) != Some(&c) {
                        let first = lit.first().map(|&x| char::from(x));
                        return Err(self
                            .syntax(At::Reading, self.tok_at, expect::VALUE, first)
                            .into());
                    }
                    i += 1;
                    if usize::from(k) + 1 == lit.len() {
                        self.pos = at + 1;
                        let tok = match lit.first() {
                            Some(b't') => Tok::Bool {
                                value: true,
                                at: self.tok_at,
                            },
                            Some(b'f') => Tok::Bool {
                                value: false,
                                at: self.tok_at,
                            },
                            _ => Tok::Null { at: self.tok_at },
                        };
                        sink(tok).map_err(Stop::Sink)?;
                        self.value_done(sink)?;
                    } else {
                        self.state = State::Literal { lit, i: k + 1 };
                    }
                }
                _ => {
                    if self.fresh
                        && self.opts.bom == Bom::Skip
                        && text.get(i..).is_some_and(|s| s.starts_with('\u{FEFF}'))
                    {
                        self.fresh = false;
                        i += '\u{FEFF}'.len_utf8();
                        continue;
                    }
                    self.fresh = false;
                    if matches!(c, b' ' | b'\t' | b'\n' | b'\r') {
                        i += 1;
                        continue;
                    }
                    self.structural(c, at, found(i), sink)?;
                    i += 1;
                }
            }
        }
        self.pos = base + b.len() as u64;
        Ok(())
    }

    /// The end of the text.
    pub(crate) fn finish<E>(&mut self, sink: &mut impl FnMut(Tok<'_>) -> Result<(), E>) -> Fed<E> {
        let at = self.pos;
        match self.state {
            State::Number(n) => match n {
                Num::Zero | Num::Int | Num::Frac | Num::ExpDigits => {
                    self.end_number(sink)?;
                    self.finish(sink)
                }
                Num::Sign => Err(self.syntax(At::Reading, at, expect::DIGIT, None).into()),
                Num::Dot => Err(self.syntax(At::Reading, at, expect::FRACTION, None).into()),
                Num::Exp | Num::ExpSign => {
                    Err(self.syntax(At::Reading, at, expect::EXPONENT, None).into())
                }
            },
            State::Literal { lit, .. } => {
                let first = lit.first().map(|&x| char::from(x));
                Err(self
                    .syntax(At::Reading, self.tok_at, expect::VALUE, first)
                    .into())
            }
            State::Str { esc, .. } => {
                let (offset, expected, found) = match esc {
                    Esc::None => (at, expect::CLOSE_STRING, None),
                    Esc::Backslash => (at, expect::ESCAPE, None),
                    Esc::Hex { .. } => (at, expect::HEX, None),
                    Esc::PairBackslash => (at, expect::PAIR, None),
                    Esc::PairU => (at - 1, expect::PAIR, Some('\\')),
                };
                Err(self.syntax(At::Reading, offset, expected, found).into())
            }
            State::After if self.done => Ok(()),
            State::After => {
                let object = self.stack.last().is_some_and(|l| l.object);
                let expected = if object {
                    expect::OBJECT_NEXT
                } else {
                    expect::ARRAY_NEXT
                };
                Err(self.syntax(At::After, at, expected, None).into())
            }
            State::Value | State::FirstElement => {
                Err(self.syntax(At::Reading, at, expect::VALUE, None).into())
            }
            State::FirstKey | State::Key => {
                Err(self.syntax(At::Reading, at, expect::KEY, None).into())
            }
            State::Colon => Err(self.syntax(At::Reading, at, expect::COLON, None).into()),
        }
    }

    /// A byte outside strings, numbers and literals (not whitespace).
    fn structural<E>(
        &mut self,
        c: u8,
        at: u64,
        found: Option<char>,
        sink: &mut impl FnMut(Tok<'_>) -> Result<(), E>,
    ) -> Fed<E> {
        match self.state {
            State::After => {
                if self.done {
                    return Err(self.syntax(At::After, at, expect::END, found).into());
                }
                let object = self.stack.last().is_some_and(|l| l.object);
                match c {
                    b',' => {
                        self.state = if object { State::Key } else { State::Value };
                        sink(Tok::Comma { at }).map_err(Stop::Sink)
                    }
                    b'}' if object => self.close(at, sink),
                    b']' if !object => self.close(at, sink),
                    _ if object => Err(self
                        .syntax(At::After, at, expect::OBJECT_NEXT, found)
                        .into()),
                    _ => Err(self.syntax(At::After, at, expect::ARRAY_NEXT, found).into()),
                }
            }
            State::FirstKey | State::Key => match c {
                b'}' if self.state == State::FirstKey => self.close(at, sink),
                b'"' => {
                    self.tok_at = at;
                    self.buf.clear();
                    self.state = State::Str {
                        key: true,
                        esc: Esc::None,
                    };
                    Ok(())
                }
                _ => Err(self.syntax(At::Reading, at, expect::KEY, found).into()),
            },
            State::Colon => {
                if c == b':' {
                    self.state = State::Value;
                    Ok(())
                } else {
                    Err(self.syntax(At::Reading, at, expect::COLON, found).into())
                }
            }
            State::FirstElement if c == b']' => self.close(at, sink),
            _ => self.value_start(c, at, found, sink),
        }
    }

    fn value_start<E>(
        &mut self,
        c: u8,
        at: u64,
        found: Option<char>,
        sink: &mut impl FnMut(Tok<'_>) -> Result<(), E>,
    ) -> Fed<E> {
        let start = match c {
            b'{' | b'[' => {
                if self.stack.len() >= self.opts.max_nesting {
                    return Err(self
                        .fail(At::Reading, at, ErrorKind::Depth(self.opts.max_nesting))
                        .into());
                }
                let object = c == b'{';
                sink(Tok::Begin {
                    start: if object { Start::Object } else { Start::Array },
                    at,
                })
                .map_err(Stop::Sink)?;
                let level = self.stack.len();
                if object && self.opts.duplicates == Duplicates::Refuse {
                    if self.keys.len() <= level {
                        self.keys.resize_with(level + 1, KeySet::default);
                    }
                    if let Some(set) = self.keys.get_mut(level) {
                        set.clear();
                    }
                }
                self.stack.push(Level {
                    object,
                    ..Level::default()
                });
                self.state = if object {
                    State::FirstKey
                } else {
                    State::FirstElement
                };
                return Ok(());
            }
            b'"' => {
                self.tok_at = at;
                self.state = State::Str {
                    key: false,
                    esc: Esc::None,
                };
                Start::String
            }
            b't' | b'f' | b'n' => {
                self.tok_at = at;
                let lit: &'static [u8] = match c {
                    b't' => b"true",
                    b'f' => b"false",
                    _ => b"null",
                };
                self.state = State::Literal { lit, i: 1 };
                Start::Literal
            }
            b'-' | b'0'..=b'9' => {
                self.tok_at = at;
                self.buf.clear();
                self.buf.push(char::from(c));
                self.state = State::Number(match c {
                    b'-' => Num::Sign,
                    b'0' => Num::Zero,
                    _ => Num::Int,
                });
                Start::Number
            }
            _ => return Err(self.syntax(At::Reading, at, expect::VALUE, found).into()),
        };
        sink(Tok::Begin { start, at }).map_err(Stop::Sink)
    }

    /// Closes the innermost container at its bracket.
    fn close<E>(&mut self, at: u64, sink: &mut impl FnMut(Tok<'_>) -> Result<(), E>) -> Fed<E> {
        let object = self.stack.pop().is_some_and(|l| l.object);
        self.pos = at + 1;
        let tok = if object {
            Tok::ObjEnd { at }
        } else {
            Tok::ArrEnd { at }
        };
        sink(tok).map_err(Stop::Sink)?;
        self.value_done(sink)
    }

    /// A value is complete in the innermost container (or at the top).
    fn value_done<E>(&mut self, sink: &mut impl FnMut(Tok<'_>) -> Result<(), E>) -> Fed<E> {
        self.state = State::After;
        match self.stack.last_mut() {
            Some(l) if l.object => l.pending = false,
            Some(l) => l.count += 1,
            None => {
                self.done = true;
                sink(Tok::End).map_err(Stop::Sink)?;
            }
        }
        Ok(())
    }

    fn text<E>(
        &mut self,
        key: bool,
        piece: &str,
        at: u64,
        sink: &mut impl FnMut(Tok<'_>) -> Result<(), E>,
    ) -> Fed<E> {
        if key {
            self.buf.push_str(piece);
        }
        sink(Tok::Text {
            key,
            text: piece,
            at,
            escaped: false,
        })
        .map_err(Stop::Sink)
    }

    fn end_string<E>(
        &mut self,
        key: bool,
        at: u64,
        sink: &mut impl FnMut(Tok<'_>) -> Result<(), E>,
    ) -> Fed<E> {
        if !key {
            sink(Tok::StrEnd { at }).map_err(Stop::Sink)?;
            return self.value_done(sink);
        }
        let level = self.stack.len().saturating_sub(1);
        if let Some(l) = self.stack.last_mut() {
            l.key = Some(self.buf.clone());
            l.pending = true;
        }
        if self.opts.duplicates == Duplicates::Refuse {
            let fresh = match self.keys.get_mut(level) {
                Some(set) => set.insert(Cow::Owned(self.buf.clone())),
                None => true,
            };
            if !fresh {
                let kind = ErrorKind::DuplicateKey(self.buf.clone());
                return Err(self.fail(At::Reading, at + 1, kind).into());
            }
        }
        self.state = State::Colon;
        let tok = Tok::Key {
            text: &self.buf,
            at,
        };
        sink(tok).map_err(Stop::Sink)
    }

    /// One byte of an escape.
    fn escape<E>(
        &mut self,
        key: bool,
        esc: Esc,
        c: u8,
        at: u64,
        found: Option<char>,
        sink: &mut impl FnMut(Tok<'_>) -> Result<(), E>,
    ) -> Fed<E> {
        let set = |p: &mut Push, esc| p.state = State::Str { key, esc };
        match esc {
            Esc::None => {}
            Esc::Backslash => {
                let ch = match c {
                    b'"' => '"',
                    b'\\' => '\\',
                    b'/' => '/',
                    b'b' => '\u{8}',
                    b'f' => '\u{c}',
                    b'n' => '\n',
                    b'r' => '\r',
                    b't' => '\t',
                    b'u' => {
                        set(
                            self,
                            Esc::Hex {
                                n: 0,
                                value: 0,
                                low: false,
                            },
                        );
                        return Ok(());
                    }
                    _ => return Err(self.syntax(At::Reading, at, expect::ESCAPE, found).into()),
                };
                set(self, Esc::None);
                return self.decoded(key, ch, sink);
            }
            Esc::Hex { n, value, low } => {
                let d = match c {
                    b'0'..=b'9' => c - b'0',
                    b'a'..=b'f' => c - b'a' + 10,
                    b'A'..=b'F' => c - b'A' + 10,
                    _ => return Err(self.syntax(At::Reading, at, expect::HEX, found).into()),
                };
                let value = value << 4 | u32::from(d);
                if n < 3 {
                    set(
                        self,
                        Esc::Hex {
                            n: n + 1,
                            value,
                            low,
                        },
                    );
                    return Ok(());
                }
                // Four digits: `at` is the last one; the escape began 5 bytes before.
                let escape_start = at - 5;
                if low {
                    if !(0xDC00..0xE000).contains(&value) {
                        return Err(self
                            .syntax(At::Reading, escape_start, expect::PAIR, Some('\\'))
                            .into());
                    }
                    let cp = 0x10000 + ((self.high - 0xD800) << 10) + (value - 0xDC00);
                    set(self, Esc::None);
                    return self.decoded(key, char::from_u32(cp).unwrap_or('\u{FFFD}'), sink);
                }
                if (0xDC00..0xE000).contains(&value) {
                    return Err(self
                        .syntax(At::Reading, escape_start, expect::LONE_LOW, Some('\\'))
                        .into());
                }
                if (0xD800..0xDC00).contains(&value) {
                    self.high = value;
                    set(self, Esc::PairBackslash);
                    return Ok(());
                }
                set(self, Esc::None);
                return self.decoded(key, char::from_u32(value).unwrap_or('\u{FFFD}'), sink);
            }
            Esc::PairBackslash => {
                if c != b'\\' {
                    return Err(self.syntax(At::Reading, at, expect::PAIR, found).into());
                }
                set(self, Esc::PairU);
            }
            Esc::PairU => {
                if c != b'u' {
                    return Err(self
                        .syntax(At::Reading, at - 1, expect::PAIR, Some('\\'))
                        .into());
                }
                set(
                    self,
                    Esc::Hex {
                        n: 0,
                        value: 0,
                        low: true,
                    },
                );
            }
        }
        Ok(())
    }

    /// The character of a complete escape, which began at `esc_at`.
    fn decoded<E>(
        &mut self,
        key: bool,
        ch: char,
        sink: &mut impl FnMut(Tok<'_>) -> Result<(), E>,
    ) -> Fed<E> {
        let mut tmp = [0u8; 4];
        let piece: &str = ch.encode_utf8(&mut tmp);
        let at = self.esc_at;
        if key {
            self.buf.push_str(piece);
        }
        sink(Tok::Text {
            key,
            text: piece,
            at,
            escaped: true,
        })
        .map_err(Stop::Sink)
    }

    /// One byte of a number: true when it belongs to it, false when the
    /// number ended before it.
    fn number_byte(
        &mut self,
        n: Num,
        c: u8,
        at: u64,
        found: Option<char>,
    ) -> Result<bool, ReadError> {
        let digit = c.is_ascii_digit();
        let next = match (n, c) {
            (Num::Sign, b'0') => Num::Zero,
            (Num::Sign, b'1'..=b'9') => Num::Int,
            (Num::Sign, _) => return Err(self.syntax(At::Reading, at, expect::DIGIT, found)),
            (Num::Zero, _) if digit => {
                return Err(self.syntax(At::Reading, at, expect::LEADING_ZERO, found))
            }
            (Num::Int, _) if digit => Num::Int,
            (Num::Zero | Num::Int, b'.') => Num::Dot,
            (Num::Zero | Num::Int | Num::Frac, b'e' | b'E') => Num::Exp,
            (Num::Dot | Num::Frac, _) if digit => Num::Frac,
            (Num::Dot, _) => return Err(self.syntax(At::Reading, at, expect::FRACTION, found)),
            (Num::Exp, b'+' | b'-') => Num::ExpSign,
            (Num::Exp | Num::ExpSign | Num::ExpDigits, _) if digit => Num::ExpDigits,
            (Num::Exp | Num::ExpSign, _) => {
                return Err(self.syntax(At::Reading, at, expect::EXPONENT, found))
            }
            _ => return Ok(false),
        };
        self.buf.push(char::from(c));
        self.state = State::Number(next);
        Ok(true)
    }

    fn end_number<E>(&mut self, sink: &mut impl FnMut(Tok<'_>) -> Result<(), E>) -> Fed<E> {
        let plain = !self.buf.contains(['.', 'e', 'E']);
        if self.opts.numbers == Numbers::FiniteF64
            && (!plain || self.buf.len() > 300)
            && overflows_f64(&self.buf)
        {
            return Err(self
                .fail(At::Reading, self.tok_at, ErrorKind::NumberRange)
                .into());
        }
        sink(Tok::Number {
            raw: &self.buf,
            at: self.tok_at,
        })
        .map_err(Stop::Sink)?;
        self.value_done(sink)
    }
}

/// Where [`Push::resume`] starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Resume {
    /// A value (whitespace first).
    Value,
    /// After `{`: a key or `}`.
    FirstKey,
    /// After `[`: a value or `]`.
    FirstElement,
    /// After `,` in an object: a key.
    Key,
    /// After a key: `:`.
    Colon,
    /// After a value.
    After,
    /// Inside a string whose opening quote is at `start`, at this escape.
    InString { key: bool, esc: Esc, start: u64 },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::read;
    use crate::json::tests::{tolerant, STRICT};

    /// Feeds `text` in pieces of `step` bytes (whole characters), collecting
    /// the tokens as text.
    fn run(text: &str, opts: Options, step: usize) -> (Result<(), ReadError>, Vec<String>) {
        let mut p = Push::new(opts);
        let mut toks = Vec::new();
        let mut sink = |t: Tok<'_>| -> Result<(), ()> {
            toks.push(format!("{t:?}"));
            Ok(())
        };
        let mut at = 0;
        while at < text.len() {
            let mut end = (at + step).min(text.len());
            while !text.is_char_boundary(end) {
                end += 1;
            }
            if let Err(Stop::Json(e)) = p.feed(&text[at..end], &mut sink) {
                return (Err(e), toks);
            }
            at = end;
        }
        let r = match p.finish(&mut sink) {
            Err(Stop::Json(e)) => Err(e),
            _ => Ok(()),
        };
        (r, toks)
    }

    /// The same verdict as the tree reader, with the same error (kind,
    /// offset, pointer), whatever the pieces; and the same tokens.
    fn agrees(text: &str, opts: Options) {
        let want = read(text, &opts).map(|_| ());
        let (first, toks) = run(text, opts, usize::MAX);
        assert_eq!(first, want, "{text:?}");
        for step in [1, 2, 3, 5, 7] {
            let (got, t) = run(text, opts, step);
            assert_eq!(got, want, "{text:?} in pieces of {step}");
            // Text pieces may be cut differently; everything else is the same.
            let merge = |v: &[String]| -> Vec<String> {
                v.iter()
                    .filter(|s| !s.starts_with("Text"))
                    .cloned()
                    .collect()
            };
            assert_eq!(merge(&t), merge(&toks), "{text:?} in pieces of {step}");
        }
    }

    #[test]
    fn the_reader_s_own_cases() {
        for s in [
            "{}",
            " [ 1 , -0 , 0.5e-3 , true , null , \"\\ud83d\\ude00\\/\" ] ",
            "{\"a\":{\"b\":[]}}",
            "1e-400",
            "0e999999999999",
            "{\"a\":1,\"a\":2}",
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
            "{\"a\":{\"b\":1,\"b\":2}}",
            "{\"a\":{\"b\":1,\"\\u0062\":2}}",
            "{\"a\":[1,2,01]}",
            "{\"a\":[1,2 3]}",
            "{\"a\":[1,]}",
            "{\"a\":1 \"b\"}",
            "{\"a\":[1] x}",
            "{\"a\" 1}",
            "{\"a\":\"\\ud800x\"}",
            "[\"\\udc00\"]",
            "[\"a\nb\"]",
            "[tru]",
            "[] x",
            "{\n  \"a\": [1,\n  é, 2]}",
            "[0,-1e400]",
            "\"\\ud800\\",
            "\"\\ud800\\n\"",
            "\"\\ud800\\u",
            "\"\\u12",
            "\"\\",
            "-",
            "[-",
            "{\"a\"",
            "{\"a\":",
            "{\"a\":1",
            "[1",
            "nul",
            "[nulx]",
            "truex",
            "\"é\\u00e9\\t\"",
            "{\"é\\n\":{\"x\":[{\"y\":[1,{\"z\":\"w\"}]}]}}",
            "[[[[1]]]]",
            "[[[[]]]]",
            "\u{feff}\u{feff}1",
            " \u{feff}1",
        ] {
            agrees(s, STRICT);
            agrees(s, tolerant(64));
            agrees(s, tolerant(3));
        }
        agrees(&"[".repeat(200), STRICT);
        agrees(&format!("[{}]", "9".repeat(400)), STRICT);
        agrees(&format!("[1{}]", "0".repeat(400)), STRICT);
    }

    /// Random texts from JSON-ish pieces, every option, every cutting.
    #[test]
    fn random_texts_agree() {
        let pieces = [
            "{",
            "}",
            "[",
            "]",
            ",",
            ":",
            " ",
            "\n",
            "\"",
            "\"a\"",
            "\"b\"",
            "\"\\u0061\"",
            "1",
            "0",
            "-",
            "01",
            "1.5",
            "1e9",
            "1e400",
            ".",
            "e",
            "true",
            "fals",
            "null",
            "\\",
            "\\u",
            "\\ud800",
            "\\udc00",
            "\\n",
            "é",
            "\u{1}",
            "\u{feff}",
            "x",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut valid = 0;
        for _ in 0..6000 {
            let mut t = String::new();
            for _ in 0..next() % 14 {
                t.push_str(pieces[(next() % pieces.len() as u64) as usize]);
            }
            for opts in [STRICT, tolerant(4)] {
                valid += usize::from(read(&t, &opts).is_ok());
                agrees(&t, opts);
            }
        }
        assert!(valid > 100, "{valid}");
    }
}
