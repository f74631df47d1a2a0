//! The leaf rules of the canonical form, one byte (or one piece) at a
//! time, for readers that see a document as it arrives ([`crate::stream`]).
//!
//! Each rule here is the incremental form of a rule the rest of the codec
//! applies to whole leaves, built on the same pieces and tested against
//! them:
//!
//! | here | the rule it steps through | tested against |
//! |---|---|---|
//! | [`DecimalPrefix`] | `-?(0\|[1-9][0-9]*)` without `-0`, and each representation's range ([`super::scalar`]) | [`super::scalar::parse_integer`] (built on it), [`super::read::Cursor`]'s integers |
//! | [`ElementPrefix`] | a byte-array element: digits only, no leading zero, at most 255 | [`super::scalar::byte_element`] (built on it), `Cursor::bytes` |
//! | [`StringPrefix`] | the §2 quoting: which characters are written as themselves, the five short escapes, `\u00xx` in lowercase for the other controls ([`super::quote`]), at most 4096 decoded bytes | `Cursor::string` |
//!
//! A prefix is *viable* when some continuation of it is a canonical leaf
//! within its bound: the stream refuses at the first byte after which a
//! leaf is no longer viable.

use super::quote::{lower_hex, short_escape, unicode_escaped};
use super::scalar::{signed, signed_fits, unsigned_fits, Int};
use crate::graph::{limits, Repr};

/// A canonical decimal integer read one byte at a time.
///
/// It tracks two things apart: whether the text so far is still a prefix
/// of the canonical form `-?(0|[1-9][0-9]*)` (never `-0`), and its value.
/// Digits past `u64::MAX` keep the text canonical but out of every range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DecimalPrefix {
    negative: bool,
    /// The digits read so far.
    digits: u32,
    /// The magnitude, `None` once it no longer fits a `u64`.
    magnitude: Option<u64>,
    /// The first digit was `0` (so no digit may follow).
    zero: bool,
    /// The text is no longer a prefix of a canonical decimal.
    broken: bool,
}

impl DecimalPrefix {
    /// Nothing read yet.
    pub const fn new() -> Self {
        DecimalPrefix {
            negative: false,
            digits: 0,
            magnitude: Some(0),
            zero: false,
            broken: false,
        }
    }

    /// Reads one byte; false when the text is no longer a prefix of a
    /// canonical decimal (and from then on).
    pub fn push(&mut self, b: u8) -> bool {
        if self.broken {
            return false;
        }
        match b {
            b'-' if self.digits == 0 && !self.negative => self.negative = true,
            b'0'..=b'9' if self.zero => self.broken = true,
            b'0' if self.digits == 0 && self.negative => self.broken = true,
            b'0'..=b'9' => {
                self.zero = self.digits == 0 && b == b'0';
                self.digits += 1;
                self.magnitude = self
                    .magnitude
                    .and_then(|m| m.checked_mul(10))
                    .and_then(|m| m.checked_add(u64::from(b - b'0')));
            }
            _ => self.broken = true,
        }
        !self.broken
    }

    /// True while the text so far is a prefix of a canonical decimal.
    pub fn canonical(&self) -> bool {
        !self.broken
    }

    /// True once a digit has been read.
    pub fn has_digits(&self) -> bool {
        self.digits > 0
    }

    /// What the text so far already decides, whatever follows it (but the
    /// end): `Some(Err("value.integer"))` once it is not a prefix of a
    /// canonical decimal, `Some(Err("value.integer_range"))` once its
    /// digits are out of `repr`'s range, `None` while a continuation can
    /// still be admitted or a lone `-` waits for what follows.
    pub fn decided(&self, repr: Repr) -> Option<&'static str> {
        if self.broken {
            Some("value.integer")
        } else if self.digits > 0 && !self.fits(repr) {
            Some("value.integer_range")
        } else {
            None
        }
    }

    /// True when some continuation of the text so far is a canonical
    /// decimal within the range of `repr`: more digits only make the
    /// magnitude larger, so the value so far must already fit (a lone `-`
    /// fits the signed representations only).
    pub fn viable(&self, repr: Repr) -> bool {
        if self.broken {
            return false;
        }
        if self.digits == 0 {
            return !self.negative || matches!(repr, Repr::I32 | Repr::I64);
        }
        self.fits(repr)
    }

    fn fits(&self, repr: Repr) -> bool {
        match (repr, self.magnitude) {
            (_, None) => false,
            (Repr::U8 | Repr::U64, Some(m)) => !self.negative && unsigned_fits(repr, m),
            (Repr::I32 | Repr::I64, Some(m)) => {
                signed(self.negative, m).is_some_and(|v| signed_fits(repr, v))
            }
            _ => false,
        }
    }

    /// The verdict on the whole text: the integer, or
    /// `Err("value.integer")` when it is not a canonical decimal and
    /// `Err("value.integer_range")` when it is one outside `repr`'s range.
    pub fn finish(&self, repr: Repr) -> Result<Int, &'static str> {
        if self.broken || self.digits == 0 {
            return Err("value.integer");
        }
        if !repr.is_integer() {
            return Err("value.representation");
        }
        if !self.fits(repr) {
            return Err("value.integer_range");
        }
        let m = self.magnitude.unwrap_or(0);
        Ok(match repr {
            Repr::U8 | Repr::U64 => Int::Unsigned(m),
            _ => Int::Signed(signed(self.negative, m).unwrap_or(0)),
        })
    }
}

/// A byte-array element read one byte at a time: a JSON number written
/// with digits only, whose value is at most 255.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ElementPrefix {
    value: u16,
    digits: u8,
    broken: bool,
}

impl ElementPrefix {
    /// Nothing read yet.
    pub const fn new() -> Self {
        ElementPrefix {
            value: 0,
            digits: 0,
            broken: false,
        }
    }

    /// Reads one byte; false when the text is no longer a prefix of an
    /// element (a sign, a fraction, an exponent, a leading zero, a value
    /// over 255), and from then on.
    pub fn push(&mut self, b: u8) -> bool {
        if self.broken {
            return false;
        }
        let ok = b.is_ascii_digit() && !(self.digits == 1 && self.value == 0);
        let value = self.value * 10 + u16::from(b.wrapping_sub(b'0'));
        if !ok || value > 255 {
            self.broken = true;
            return false;
        }
        self.value = value;
        self.digits += 1;
        true
    }

    /// The element, when the text so far is a whole one.
    pub fn value(&self) -> Option<u8> {
        if self.broken || self.digits == 0 {
            return None;
        }
        u8::try_from(self.value).ok()
    }

    /// How many leading bytes of `raw` form a viable element prefix: the
    /// index of the first byte after which `raw` can no longer be an
    /// element (`raw.len()` when it is one).
    pub fn viable_len(raw: &[u8]) -> usize {
        let mut e = ElementPrefix::new();
        raw.iter().take_while(|&&b| e.push(b)).count()
    }
}

/// The character that `\` followed by `b` stands for in the canonical
/// form: the inverse of [`short_escape`] (`"`, `\`, `n`, `r`, `t`).
pub fn short_unescape(b: u8) -> Option<char> {
    ['"', '\\', '\n', '\r', '\t']
        .into_iter()
        .find(|&c| short_escape(c).and_then(|e| e.as_bytes().get(1)) == Some(&b))
}

/// True for a character the canonical form writes as itself (FORMAT.md
/// §2): neither `"` nor `\` nor a control character.
pub fn plain_char(c: char) -> bool {
    short_escape(c).is_none() && !unicode_escaped(c)
}

/// The length of the run at the start of `b` (whole UTF-8 characters)
/// that the canonical form writes as itself: up to the first `"`, `\`, C0
/// control, DEL or C1 control (0xC2 0x80..=0x9F), i.e. the first character
/// that is not [`plain_char`].
fn plain_len(b: &[u8]) -> usize {
    use super::kernel::{Kernel, Native};
    // The kernel finds the run up to the first `"`, `\`, control, DEL or
    // 0xC2; a 0xC2 that does not begin a C1 control is part of the run.
    let mut k = 0;
    loop {
        k += Native::plain_run(b.get(k..).unwrap_or_default());
        match b.get(k) {
            Some(0xc2) if !matches!(b.get(k + 1), Some(0x80..=0x9f)) => k += 1,
            _ => return k,
        }
    }
}

/// The content of a whole string written as itself: when `b` (what
/// follows the opening quote) starts with characters the canonical form
/// writes as themselves, at most 4096 bytes of them, and then the closing
/// quote, their length `n`. This is what [`StringPrefix::feed`] reads
/// from a fresh prefix as `Fed::Closed(n + 1)`, with those bytes as the
/// text, in one step; `None` when it would read anything else.
pub fn plain_string(b: &[u8]) -> Option<usize> {
    let n = plain_len(b);
    (b.get(n) == Some(&b'"') && n <= limits::MAX_STRING_BYTES).then_some(n)
}

/// [`plain_len`] byte by byte: the definition its tests hold it to.
#[cfg(test)]
fn plain_len_bytewise(b: &[u8]) -> usize {
    let mut k = 0;
    while let Some(&c) = b.get(k) {
        match c {
            b'"' | b'\\' | 0x00..=0x1f | 0x7f => break,
            0xc2 if matches!(b.get(k + 1), Some(0x80..=0x9f)) => break,
            _ => k += 1,
        }
    }
    k
}

/// Where a string's escape stands, after the bytes read so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Escape {
    /// Not in an escape.
    #[default]
    None,
    /// Just after `\`.
    Backslash,
    /// After `\u` and `n` hex digits (the canonical form only allows
    /// `\u00` and two more), `value` being their value so far.
    Hex {
        /// Hex digits read (0 to 3).
        n: u8,
        /// Their value so far.
        value: u8,
    },
}

/// What [`StringPrefix::feed`] reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fed {
    /// Every byte was read; the string is still open.
    More,
    /// The closing quote: this many bytes were read, the quote included.
    Closed(usize),
    /// The byte at this index is not canonical here (what precedes it was
    /// read).
    Deviates(usize),
    /// The character (or escape) starting at this index would take the
    /// decoded text past 4096 bytes (what precedes it was read).
    TooLong(usize),
}

/// What [`StringPrefix::special`] did with a byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Special {
    Read,
    Closed,
    Deviates,
    TooLong,
}

/// A canonical string's content (after its opening quote) read a piece at
/// a time, decoded into a buffer the caller owns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StringPrefix {
    esc: Escape,
    /// Decoded bytes so far.
    len: usize,
}

impl StringPrefix {
    /// At the start of the content.
    pub const fn new() -> Self {
        StringPrefix {
            esc: Escape::None,
            len: 0,
        }
    }

    /// Where the escape stands.
    pub fn escape(&self) -> Escape {
        self.esc
    }

    /// The decoded length so far.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when nothing has been decoded yet.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Reads one ASCII byte that the canonical form writes as itself
    /// (neither `"` nor `\\` nor a control), outside an escape, when the
    /// decoded text has room for it: exactly what [`feed`](Self::feed)
    /// does with it, for a reader that gets one byte at a time. False, and
    /// nothing read, for any other byte or state ([`feed`](Self::feed)
    /// then decides).
    #[inline]
    pub fn push_plain(&mut self, b: u8, out: &mut String) -> bool {
        let plain = (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\';
        if !plain || self.esc != Escape::None || self.len >= limits::MAX_STRING_BYTES {
            return false;
        }
        self.len += 1;
        out.push(char::from(b));
        true
    }

    /// [`push_plain`](Self::push_plain) for a character of any length:
    /// read when the canonical form writes it as itself ([`plain_char`]),
    /// outside an escape, with room for its bytes.
    #[inline]
    pub fn push_plain_char(&mut self, c: char, out: &mut String) -> bool {
        let n = c.len_utf8();
        if !plain_char(c) || self.esc != Escape::None || self.len + n > limits::MAX_STRING_BYTES {
            return false;
        }
        self.len += n;
        out.push(c);
        true
    }

    /// Reads `s` (whole characters: it is `&str`), appending the decoded
    /// text to `out`, up to the closing quote, the first byte that is not
    /// canonical, or the first character that would exceed 4096 decoded
    /// bytes.
    pub fn feed(&mut self, s: &str, out: &mut String) -> Fed {
        let b = s.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if self.esc == Escape::None {
                // A run of characters written as themselves.
                let run = plain_len(b.get(i..).unwrap_or_default());
                if run > 0 {
                    let text = s.get(i..i + run).unwrap_or_default();
                    let room = limits::MAX_STRING_BYTES - self.len;
                    if text.len() > room {
                        // The first character that does not fit.
                        let at = text
                            .char_indices()
                            .find(|&(k, c)| k + c.len_utf8() > room)
                            .map_or(0, |(k, _)| k);
                        out.push_str(text.get(..at).unwrap_or_default());
                        self.len += at;
                        return Fed::TooLong(i + at);
                    }
                    out.push_str(text);
                    self.len += run;
                    i += run;
                    continue;
                }
            }
            match self.special(b.get(i).copied().unwrap_or(0), out) {
                Special::Read => i += 1,
                Special::Closed => return Fed::Closed(i + 1),
                Special::Deviates => return Fed::Deviates(i),
                Special::TooLong => return Fed::TooLong(i),
            }
        }
        Fed::More
    }

    /// Reads one ASCII byte of an escape (the `\` that begins it too), as
    /// [`feed`](Self::feed) does, for a reader that gets one byte at a
    /// time. False, and nothing read, for any other byte or state: the
    /// closing quote, a byte that is not canonical here, an escape that
    /// would take the text past 4096 bytes ([`feed`](Self::feed) then
    /// decides).
    #[inline]
    pub fn push_escape(&mut self, b: u8, out: &mut String) -> bool {
        b < 0x80 && self.special(b, out) == Special::Read
    }

    /// One byte that is not in a run of plain characters: the closing
    /// quote, a byte of an escape, or a byte that deviates. Nothing
    /// changes unless it is [`Special::Read`].
    #[inline]
    fn special(&mut self, c: u8, out: &mut String) -> Special {
        match self.esc {
            Escape::None => match c {
                b'"' => Special::Closed,
                b'\\' => {
                    if self.len >= limits::MAX_STRING_BYTES {
                        return Special::TooLong;
                    }
                    self.esc = Escape::Backslash;
                    Special::Read
                }
                _ => Special::Deviates,
            },
            Escape::Backslash => {
                if let Some(ch) = short_unescape(c) {
                    out.push(ch);
                    self.len += 1;
                    self.esc = Escape::None;
                } else if c == b'u' {
                    self.esc = Escape::Hex { n: 0, value: 0 };
                } else {
                    return Special::Deviates;
                }
                Special::Read
            }
            Escape::Hex { n, value } => {
                let digit = match n {
                    0 | 1 => (c == b'0').then_some(0),
                    _ => lower_hex(c),
                };
                let Some(d) = digit else {
                    return Special::Deviates;
                };
                let value = value << 4 | d;
                if n == 2 {
                    // `\u00` and one digit: the next must make a control
                    // without a short form, within the bound.
                    let room = limits::MAX_STRING_BYTES - self.len;
                    let controls = (0..16u8)
                        .map(|l| char::from(value << 4 | l))
                        .filter(|&c| unicode_escaped(c));
                    let mut any = false;
                    let mut fits = false;
                    for c in controls {
                        any = true;
                        fits |= c.len_utf8() <= room;
                    }
                    if !any {
                        return Special::Deviates;
                    }
                    if !fits {
                        return Special::TooLong;
                    }
                    self.esc = Escape::Hex { n: 3, value };
                } else if n == 3 {
                    let ch = char::from(value);
                    if !unicode_escaped(ch) {
                        return Special::Deviates;
                    }
                    if self.len + ch.len_utf8() > limits::MAX_STRING_BYTES {
                        return Special::TooLong;
                    }
                    out.push(ch);
                    self.len += ch.len_utf8();
                    self.esc = Escape::None;
                } else {
                    self.esc = Escape::Hex { n: n + 1, value };
                }
                Special::Read
            }
        }
    }
}

#[cfg(test)]
mod tests {
    /// The kernel-based run length is the byte-by-byte one on every
    /// position of strings mixing plain runs, escapes, controls, DEL, C1
    /// controls and other two-byte characters starting with 0xC2.
    #[test]
    fn plain_len_is_its_bytewise_definition() {
        let pieces: [&str; 12] = [
            "a",
            "plain text ",
            "\"",
            "\\",
            "\u{1}",
            "\u{7f}",
            "\u{85}",
            "\u{a9}",
            "é",
            "\u{9f}",
            "\u{a0}",
            "0123456789abcdefghijklmnopqrstuvwxyz0123456789",
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..2000 {
            let mut text = String::new();
            for _ in 0..(seed % 9) {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                text.push_str(pieces[(seed >> 33) as usize % pieces.len()]);
            }
            let b = text.as_bytes();
            for i in 0..=b.len() {
                assert_eq!(
                    super::plain_len(&b[i..]),
                    super::plain_len_bytewise(&b[i..]),
                    "{text:?} at {i}"
                );
            }
        }
    }

    use super::*;
    use crate::codec::testing::{Rng, STRING_PIECES};
    use crate::codec::Cursor;
    use crate::scalar::parse_integer;

    /// `plain_string` is `feed` from a fresh prefix wherever it says the
    /// string is whole: random joins of the pieces of the string tests.
    #[test]
    fn plain_string_is_feed_of_a_whole_plain_string() {
        let mut rng = Rng(0x0dd_ba11);
        let mut whole = 0;
        for _ in 0..20_000 {
            let mut t = String::new();
            for _ in 0..(rng.next() % 6) {
                t.push_str(rng.pick(STRING_PIECES));
            }
            if rng.next().is_multiple_of(50) {
                t = format!("{}\"", "a".repeat(4095 + (rng.next() % 3) as usize));
            }
            let mut p = StringPrefix::new();
            let mut text = String::new();
            let fed = p.feed(&t, &mut text);
            match plain_string(t.as_bytes()) {
                Some(n) => {
                    whole += 1;
                    assert_eq!(fed, Fed::Closed(n + 1), "{t:?}");
                    assert_eq!(text, t[..n], "{t:?}");
                }
                // Not whole and plain: either not closed, or with an
                // escape on the way.
                None => {
                    let raw = match fed {
                        Fed::Closed(k) => t.as_bytes().get(..k - 1),
                        _ => None,
                    };
                    assert_ne!(raw, Some(text.as_bytes()), "{t:?}");
                }
            }
        }
        assert!(whole > 500, "{whole}");
    }

    /// `push_plain` is `feed` on one ASCII byte wherever it reads one: in
    /// every escape state, at the 4096-byte bound and before it, for every
    /// ASCII byte; and it declines exactly where `feed` does anything but
    /// read the byte as itself.
    #[test]
    fn push_plain_is_feed_of_one_byte() {
        let starts = [
            "", "ab", "\\", "\\u", "\\u0", "\\u00", "\\u000", "\\u001", "\\u007", "x\\n",
        ];
        let mut read = 0;
        for start in starts {
            for len in [0usize, 4094, 4095, 4096, 4097] {
                let mut base = StringPrefix::new();
                let mut text = String::new();
                let prefix = format!("{}{start}", "a".repeat(len.saturating_sub(2)));
                if base.feed(&prefix, &mut text) != Fed::More {
                    continue;
                }
                for b in 0u8..0x80 {
                    let one = [b];
                    let one = std::str::from_utf8(&one).unwrap();
                    let (mut p, mut t) = (base, text.clone());
                    let (mut q, mut u) = (base, text.clone());
                    let fed = q.feed(one, &mut u);
                    // With `push_escape`, every ASCII byte that `feed`
                    // reads and stays open with is read the same way.
                    let (mut e, mut w) = (base, text.clone());
                    let either = e.push_plain(b, &mut w) || e.push_escape(b, &mut w);
                    if fed == Fed::More {
                        assert!(either, "{start:?} {len} {b}: feed reads it");
                        assert_eq!((e, &w), (q, &u), "{start:?} {len} {b}");
                    } else {
                        assert!(!either, "{start:?} {len} {b}: feed stops at it");
                        assert_eq!((e, &w), (base, &text), "declined, nothing read");
                    }
                    if p.push_plain(b, &mut t) {
                        read += 1;
                        assert_eq!((fed, p, &t), (Fed::More, q, &u), "{start:?} {len} {b}");
                        assert_eq!(u.len(), text.len() + 1);
                    } else {
                        assert_eq!((p, &t), (base, &text), "declined, nothing read");
                        let as_itself = base.escape() == Escape::None
                            && fed == Fed::More
                            && u.len() == text.len() + 1
                            && u.ends_with(char::from(b));
                        assert!(!as_itself, "{start:?} {len} {b}: feed reads it as itself");
                    }
                }
            }
        }
        assert!(read > 1000, "{read}");
        // Characters of every length, at and before the bound.
        let mut chars = 0;
        for c in [
            'é', '\u{85}', '\u{9f}', '\u{a0}', '€', '→', '日', '😀', 'a', '"', '\\',
        ] {
            for len in [0usize, 4092, 4093, 4094, 4095, 4096] {
                for start in ["", "\\"] {
                    let mut base = StringPrefix::new();
                    let mut text = String::new();
                    let prefix = format!("{}{start}", "a".repeat(len));
                    if base.feed(&prefix, &mut text) != Fed::More {
                        continue;
                    }
                    let (mut p, mut t) = (base, text.clone());
                    let (mut q, mut u) = (base, text.clone());
                    let fed = q.feed(c.encode_utf8(&mut [0; 4]), &mut u);
                    if p.push_plain_char(c, &mut t) {
                        chars += 1;
                        assert_eq!((fed, p, &t), (Fed::More, q, &u), "{c:?} {len} {start:?}");
                    } else {
                        assert_eq!((p, &t), (base, &text));
                        let as_itself = base.escape() == Escape::None
                            && fed == Fed::More
                            && u.len() == text.len() + c.len_utf8();
                        assert!(!as_itself, "{c:?} {len} {start:?}: feed reads it");
                    }
                }
            }
        }
        assert!(chars > 20, "{chars}");
    }

    /// Every text over an alphabet of the bytes that matter, up to length 4,
    /// and the boundaries: `viable` is exactly "some completion is an
    /// admitted integer", `finish` exactly `parse_integer`, and the Cursor's
    /// in-place readers admit exactly the same texts.
    #[test]
    fn decimal_prefix_is_the_integer_rule() {
        let alphabet = [b'0', b'1', b'2', b'5', b'9', b'-', b'+', b'x'];
        let mut texts: Vec<Vec<u8>> = vec![Vec::new()];
        let mut frontier = texts.clone();
        for _ in 0..4 {
            let mut next = Vec::new();
            for t in &frontier {
                for &a in &alphabet {
                    let mut u = t.clone();
                    u.push(a);
                    next.push(u);
                }
            }
            texts.extend(next.iter().cloned());
            frontier = next;
        }
        for edge in [
            "-2147483648",
            "-2147483649",
            "2147483647",
            "2147483648",
            "-9223372036854775808",
            "-9223372036854775809",
            "9223372036854775807",
            "18446744073709551615",
            "18446744073709551616",
            "255",
            "256",
            "99999999999999999999999",
            "99999999999999999999999x",
        ] {
            texts.push(edge.as_bytes().to_vec());
        }
        for repr in [Repr::I32, Repr::I64, Repr::U8, Repr::U64] {
            for t in &texts {
                let mut d = DecimalPrefix::new();
                for &b in t {
                    d.push(b);
                }
                assert_eq!(d.finish(repr), parse_integer(repr, t), "{repr:?} {t:?}");
                let quoted = format!("\"{}\"", String::from_utf8_lossy(t));
                let mut c = Cursor::new(&quoted);
                let cursor = match repr {
                    Repr::I32 => c.i32().map(|v| Int::Signed(v.into())),
                    Repr::I64 => c.i64().map(Int::Signed),
                    Repr::U8 => c.u8().map(|v| Int::Unsigned(v.into())),
                    _ => c.u64().map(Int::Unsigned),
                };
                assert_eq!(cursor, d.finish(repr).ok(), "cursor {repr:?} {t:?}");
                // Viable: some completion by up to 20 more digits is admitted.
                let completes = d.finish(repr).is_ok()
                    || (1..=20).any(|n| {
                        ["0", "1", "9"].iter().any(|digit| {
                            let mut e = d;
                            (0..n).all(|_| e.push(digit.as_bytes()[0])) && e.finish(repr).is_ok()
                        })
                    });
                assert_eq!(d.viable(repr), completes, "viable {repr:?} {t:?}");
            }
        }
    }

    #[test]
    fn element_prefix() {
        for v in 0u32..=1000 {
            let text = v.to_string();
            let mut e = ElementPrefix::new();
            let all = text.bytes().all(|b| e.push(b));
            assert_eq!(all, v <= 255, "{v}");
            assert_eq!(e.value(), u8::try_from(v).ok(), "{v}");
            let array = format!("[{text}]");
            let mut c = Cursor::new(&array);
            assert_eq!(c.bytes().map(|b| b[0]), e.value(), "{v}");
        }
        for (raw, len) in [
            ("256", 2),
            ("-1", 0),
            ("1.0", 1),
            ("1e0", 1),
            ("01", 1),
            ("25", 2),
        ] {
            assert_eq!(ElementPrefix::viable_len(raw.as_bytes()), len, "{raw}");
        }
    }

    #[test]
    fn short_escapes_invert() {
        assert_eq!(short_unescape(b'n'), Some('\n'));
        assert_eq!(short_unescape(b'"'), Some('"'));
        assert_eq!(short_unescape(b'/'), None);
        assert_eq!(short_unescape(b'b'), None);
        assert!(plain_char('/') && plain_char('é') && !plain_char('\u{85}'));
    }

    /// A string read in pieces of every size agrees with the Cursor's
    /// string reader on every text of `same_language_as_before`'s kind.
    #[test]
    fn string_prefix_is_the_string_rule() {
        let pieces = STRING_PIECES;
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut next = move || rng.next();
        for round in 0..20_000 {
            let mut t = String::from("\"");
            for _ in 0..next() % 10 {
                t.push_str(pieces[(next() % pieces.len() as u64) as usize]);
            }
            if next() % 4 != 0 {
                t.push('"');
            }
            if round % 7 == 0 {
                t = format!("\"{}\"", "é".repeat(2047 + (next() % 3) as usize));
            }
            let mut c = Cursor::new(&t);
            let want = c.string();
            for step in [1usize, 2, 3, 7, 1000] {
                let mut p = StringPrefix::new();
                let mut out = String::new();
                let body = &t[1..];
                let mut at = 0;
                let got = loop {
                    let mut end = (at + step).min(body.len());
                    while !body.is_char_boundary(end) {
                        end += 1;
                    }
                    match p.feed(&body[at..end], &mut out) {
                        Fed::More if end == body.len() => break None,
                        Fed::More => at = end,
                        Fed::Closed(_) => break Some(out.clone()),
                        Fed::Deviates(_) | Fed::TooLong(_) => break None,
                    }
                };
                assert_eq!(got, want, "{t:?} in pieces of {step}");
            }
        }
    }
}
