//! The in-place readers of the canonical value form: [`Cursor`].
//!
//! A reader consumes exactly one canonical leaf (or literal) at the cursor
//! and returns it, or returns `None` at the first byte that is not exactly
//! canonical, having checked the leaf's bound (FORMAT.md §1) on the way.
//! What a `None` leaves the cursor at is unspecified: callers give up. Only
//! [`Cursor::lit`], [`Cursor::eat`] and [`Cursor::eat_quoted`] never move on
//! a mismatch, so a caller can try the next alternative.
//!
//! The string and byte-array readers work eight bytes at a time; their
//! byte-by-byte predecessors are kept as the oracle of the unit test
//! `same_language_as_before` (docs/PERFORMANCE.md).

use super::kernel::{ByteBlock, Kernel, Native, Portable};
use super::quote::{lower_hex, quote_into, unicode_escaped};
use super::scalar::{self, Decimal};
use crate::graph::limits;
use std::marker::PhantomData;

/// A position in a value document, with the scratch buffers of the string
/// and byte-array readers.
///
/// The document is validated as UTF-8 once, up front ([`Cursor::new`] takes
/// a `&str`); the string reader then only cuts it before ASCII bytes or
/// UTF-8 lead bytes, so every piece it copies is valid by construction and
/// nothing is validated twice.
///
/// `K` is the scanning [`Kernel`]: [`Native`] (the default, what
/// [`Cursor::new`] gives) or [`Portable`] ([`Cursor::with_kernel`]); both
/// read exactly the same language.
#[derive(Debug)]
pub struct Cursor<'a, K: Kernel = Native> {
    text: &'a str,
    pos: usize,
    /// Where a string with escapes is assembled (reused; the result is an
    /// exact-size copy).
    string_buf: String,
    /// Where a byte array is assembled (reused; the result is an exact-size
    /// copy).
    bytes_buf: Vec<u8>,
    kernel: PhantomData<K>,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `text`, with the [`Native`] kernel.
    #[inline]
    pub fn new(text: &'a str) -> Self {
        Cursor::with_kernel(text)
    }
}

impl<'a> Cursor<'a, Portable> {
    /// A cursor at the start of `text`, with the [`Portable`] kernel (the
    /// reference the tests hold the native one against).
    #[inline]
    pub fn portable(text: &'a str) -> Self {
        Cursor::with_kernel(text)
    }
}

impl<'a, K: Kernel> Cursor<'a, K> {
    /// A cursor at the start of `text`, with the kernel `K`.
    #[inline]
    pub fn with_kernel(text: &'a str) -> Self {
        Cursor {
            text,
            pos: 0,
            string_buf: String::new(),
            bytes_buf: Vec::new(),
            kernel: PhantomData,
        }
    }

    /// The byte offset of the cursor in its text.
    #[inline]
    pub fn position(&self) -> usize {
        self.pos
    }

    /// True when every byte has been read.
    #[inline]
    pub fn at_end(&self) -> bool {
        self.pos == self.text.len()
    }

    #[inline]
    fn rest(&self) -> &'a [u8] {
        self.text.as_bytes().get(self.pos..).unwrap_or(&[])
    }

    /// Consumes exactly `lit`, or fails.
    #[inline]
    pub fn lit(&mut self, lit: &[u8]) -> Option<()> {
        if self.rest().starts_with(lit) {
            self.pos += lit.len();
            Some(())
        } else {
            None
        }
    }

    /// Consumes `lit` if it is next; true when it was.
    #[inline]
    pub fn eat(&mut self, lit: &[u8]) -> bool {
        self.lit(lit).is_some()
    }

    /// Consumes the canonical quoting (FORMAT.md §2) of `expected` if it is
    /// next; true when it was (the cursor does not move otherwise). Free of
    /// allocation unless `expected` holds a character that is escaped, or
    /// one led by 0xC2.
    #[inline]
    pub fn eat_quoted(&mut self, expected: &str) -> bool {
        let e = expected.as_bytes();
        let n = e.len();
        if K::plain_run(e) == n {
            let rest = self.rest();
            let matched = rest.first() == Some(&b'"')
                && rest.get(1..=n) == Some(e)
                && rest.get(n + 1) == Some(&b'"');
            if matched {
                self.pos += n + 2;
            }
            matched
        } else {
            let mut q = String::with_capacity(n + 8);
            quote_into(&mut q, expected);
            self.eat(q.as_bytes())
        }
    }

    /// Consumes exactly the canonical quoting of `expected`, or fails.
    #[inline]
    pub fn quoted(&mut self, expected: &str) -> Option<()> {
        self.eat_quoted(expected).then_some(())
    }

    /// `true` or `false`.
    #[inline]
    pub fn bool(&mut self) -> Option<bool> {
        if self.eat(b"true") {
            Some(true)
        } else if self.eat(b"false") {
            Some(false)
        } else {
            None
        }
    }

    /// A canonical quoted decimal: `(negative, magnitude)`, with no leading
    /// zero, no `-0` and a magnitude that fits `u64` ([`scalar::decimal`]).
    /// Parsed in place.
    #[inline]
    fn decimal(&mut self) -> Option<(bool, u64)> {
        let s = self.text.as_bytes();
        if s.get(self.pos) != Some(&b'"') {
            return None;
        }
        match scalar::decimal(s, self.pos + 1) {
            Decimal::Value {
                negative,
                magnitude,
                end,
            } if s.get(end) == Some(&b'"') => {
                self.pos = end + 1;
                Some((negative, magnitude))
            }
            _ => None,
        }
    }

    /// An `i64` as a canonical quoted decimal.
    #[inline]
    pub fn i64(&mut self) -> Option<i64> {
        let (negative, magnitude) = self.decimal()?;
        scalar::signed(negative, magnitude)
    }

    /// An `i32` as a canonical quoted decimal.
    #[inline]
    pub fn i32(&mut self) -> Option<i32> {
        i32::try_from(self.i64()?).ok()
    }

    /// A `u64` as a canonical quoted decimal.
    #[inline]
    pub fn u64(&mut self) -> Option<u64> {
        match self.decimal()? {
            (false, mag) => Some(mag),
            (true, _) => None,
        }
    }

    /// A `u8` as a canonical quoted decimal.
    #[inline]
    pub fn u8(&mut self) -> Option<u8> {
        u8::try_from(self.u64()?).ok()
    }

    /// A canonically quoted string of at most 4096 UTF-8 bytes.
    ///
    /// Plain runs are found by the kernel ([`Kernel::plain_run`]) and
    /// copied whole; a string without escapes is one copy of its slice of
    /// the document, one with escapes is assembled in a reused buffer and
    /// copied out at its exact size. The 4096-byte bound is checked once,
    /// before the result is allocated (the 65536-byte document bound
    /// already bounds the scan).
    pub fn string(&mut self) -> Option<String> {
        let text = self.text;
        let s = text.as_bytes();
        if s.get(self.pos) != Some(&b'"') {
            return None;
        }
        // `run` is where the current plain run starts, `i` the scan position.
        let mut run = self.pos + 1;
        let mut i = run;
        let mut escaped = false;
        loop {
            i += K::plain_run(s.get(i..)?);
            match *s.get(i)? {
                b'"' => {
                    // Cut before an ASCII byte: a char boundary.
                    let tail = text.get(run..i)?;
                    self.pos = i + 1;
                    return if !escaped {
                        (tail.len() <= limits::MAX_STRING_BYTES).then(|| tail.to_owned())
                    } else if self.string_buf.len() + tail.len() <= limits::MAX_STRING_BYTES {
                        self.string_buf.push_str(tail);
                        Some(self.string_buf.as_str().to_owned())
                    } else {
                        None
                    };
                }
                b'\\' => {
                    if !escaped {
                        escaped = true;
                        self.string_buf.clear();
                    }
                    self.string_buf.push_str(text.get(run..i)?);
                    match *s.get(i + 1)? {
                        b'"' => self.string_buf.push('"'),
                        b'\\' => self.string_buf.push('\\'),
                        b'n' => self.string_buf.push('\n'),
                        b'r' => self.string_buf.push('\r'),
                        b't' => self.string_buf.push('\t'),
                        b'u' => {
                            // `\u00` and two lowercase hex digits, only for
                            // the controls without a short form.
                            let [b'0', b'0', h, l] = *s.get(i + 2..i + 6)? else {
                                return None;
                            };
                            let c = char::from(lower_hex(h)? << 4 | lower_hex(l)?);
                            if !unicode_escaped(c) {
                                return None;
                            }
                            self.string_buf.push(c);
                            i += 4;
                        }
                        _ => return None,
                    }
                    i += 2;
                    run = i;
                }
                // A C1 control must be escaped; any other character led by
                // 0xC2 (U+00A0..U+00BF) is plain and two bytes long.
                0xc2 => {
                    if matches!(s.get(i + 1), Some(0x80..=0x9f)) {
                        return None;
                    }
                    i += 2;
                }
                // A raw C0 control or DEL.
                _ => return None,
            }
        }
    }

    /// A canonical byte array (`[]`, `[0,1,255]`) of at most 4096 elements.
    ///
    /// The array is read 64 bytes at a time ([`byte_blocks`]): the kernel
    /// classifies the block and computes every element's value at once
    /// ([`Kernel::byte_block`]); a few operations on the block's 64-bit masks
    /// then check every element of the block (one to three digits, no
    /// leading zero, at most 255, separated by single commas) and the
    /// values are picked out at the elements' last digits. No position
    /// depends on a value loaded from the block before it, so the elements
    /// are independent of each other.
    ///
    /// The elements go to a reused buffer, first its 128 first slots, then
    /// (for a longer array) 8192 (zeroed at most once per document); the
    /// result is an exact-size copy. The 4096-element bound is checked
    /// after each block.
    pub fn bytes(&mut self) -> Option<Vec<u8>> {
        const SHORT: usize = 128;
        const LONG: usize = 8192;
        self.lit(b"[")?;
        if self.eat(b"]") {
            return Some(Vec::new());
        }
        let s = self.text.as_bytes();
        let mut at = (self.pos, 0);
        let mut buf = std::mem::take(&mut self.bytes_buf);
        if buf.len() < SHORT {
            buf.resize(SHORT, 0);
        }
        if !byte_blocks::<K, SHORT>(s, &mut at, buf.first_chunk_mut::<SHORT>()?)? {
            if buf.len() < LONG {
                buf.resize(LONG, 0);
            }
            if !byte_blocks::<K, LONG>(s, &mut at, buf.first_chunk_mut::<LONG>()?)? {
                return None;
            }
        }
        let (i, n) = at;
        let v = buf
            .get(..n)
            .filter(|v| v.len() <= limits::MAX_BYTES_LEN)
            .map(<[u8]>::to_vec);
        self.bytes_buf = buf;
        self.pos = i;
        v
    }
}

/// The 64-byte block of `s` at `i` and the two bytes before it, as
/// [`Kernel::byte_block`] takes it: past either end of `s`, zeros (neither
/// digits nor commas, so they stop an array, and are not `]`).
#[inline(always)]
fn window<R>(s: &[u8], i: usize, then: impl FnOnce(&[u8; 66]) -> R) -> R {
    match i
        .checked_sub(2)
        .and_then(|from| s.get(from..))
        .and_then(<[u8]>::first_chunk)
    {
        Some(w) => then(w),
        None => {
            let mut w = [0u8; 66];
            for (k, to) in w.iter_mut().enumerate() {
                if let Some(&b) = (i + k).checked_sub(2).and_then(|j| s.get(j)) {
                    *to = b;
                }
            }
            then(&w)
        }
    }
}

/// What one block of a byte array holds, read from the first byte of an
/// element (the byte before the block is a separator: `[` or `,`).
#[derive(Debug, Clone, Copy)]
struct Scan {
    /// The first byte that is neither a digit nor a comma (it ends the
    /// array), as a one-bit mask, or 0.
    stop: u64,
    /// The separators up to and including `stop` (all of them when there
    /// is none).
    seps: u64,
    /// The last digit of each element ended by one of `seps`.
    units: u64,
    /// Where an element ended by one of `seps` is not canonical: empty,
    /// four digits or more, a leading zero, over 255.
    bad: u64,
}

/// Scans one block: `None` when it holds 64 digits in a row (no element
/// of up to three digits can be read there).
///
/// In the block, with `nd` the bytes that are not digits: the first one
/// that is not a comma either (`stop`) ends the array. The separators up
/// to it delimit complete elements; an element cut by the block's end is
/// read again, whole, by the next block, which starts right after the last
/// separator.
#[inline(always)]
fn scan(b: &ByteBlock) -> Option<Scan> {
    let nd = !b.digit;
    let stop = nd & !b.comma;
    let seps = nd & (stop ^ stop.wrapping_sub(1));
    if seps == 0 {
        return None;
    }
    let last = 63 - seps.leading_zeros();
    let region = u64::MAX >> (63 - last);
    let digit = b.digit & region;
    // An element's last digit is followed by a separator; the byte before
    // the block is one (the `[` or a `,`).
    let units = digit & (seps >> 1);
    let tens = digit & (units >> 1);
    let hundreds = digit & (tens >> 1);
    let first = digit & !(digit << 1);
    let bad = (seps & ((seps << 1) | 1)) // an empty element
        | (digit & (hundreds >> 1)) // four digits or more
        | (first & b.zero & !units) // a leading zero
        | (units & b.range_bad); // over 255
    Some(Scan {
        stop,
        seps,
        units,
        bad,
    })
}

/// Reads byte-array elements from `s`, 64-byte block by 64-byte block,
/// from `at.0` (the first byte of an element: the array's `[` or a `,` is
/// right before it), storing them in `room` from `at.1` on and advancing
/// both. `Some(true)` after the closing `]`, `Some(false)` when `room` may
/// not have space for the elements of another block (64; `N` is a power of
/// two, so the stores need no bounds check), `None` at the first block
/// that is not canonical, or once more than 4096 elements were read.
#[inline(always)]
fn byte_blocks<K: Kernel, const N: usize>(
    s: &[u8],
    at: &mut (usize, usize),
    room: &mut [u8; N],
) -> Option<bool> {
    let (mut i, mut n) = *at;
    loop {
        if n + 64 > N {
            *at = (i, n);
            return Some(false);
        }
        let b = window(s, i, K::byte_block);
        let x = scan(&b)?;
        if x.bad != 0 {
            return None;
        }
        let mut u = x.units;
        while u != 0 {
            room[n & (N - 1)] = b.values[u.trailing_zeros() as usize & 63];
            n += 1;
            u &= u - 1;
        }
        if n > limits::MAX_BYTES_LEN {
            return None;
        }
        if x.stop != 0 {
            let end = i + x.stop.trailing_zeros() as usize;
            if s.get(end) != Some(&b']') {
                return None;
            }
            *at = (end + 1, n);
            return Some(true);
        }
        i += 64 - x.seps.leading_zeros() as usize;
    }
}

/// The streaming decoder's byte-array run ([`crate::stream`]): from `i`,
/// the first byte of an element of an array of which `out` holds the
/// elements so far, reads every whole element that a comma follows, block
/// by block, and returns the position after the last comma read (`i` when
/// none was). It reads only canonical elements (one to three digits, no
/// leading zero, at most 255), and stops before a block that holds
/// anything else, before the element that ends the array or is cut by the
/// end of `s`, and before a block whose elements would bring `out` to
/// `max` elements or more: the caller reads those one byte at a time, by
/// the rule that decides them. Every element read goes to `out`.
pub(crate) fn comma_elements<K: Kernel>(
    s: &[u8],
    i: usize,
    out: &mut Vec<u8>,
    max: usize,
) -> usize {
    let mut i = i;
    loop {
        let b = window(s, i, K::byte_block);
        let Some(x) = scan(&b) else { return i };
        // The elements that a comma ends: those before `stop`.
        let commas = x.seps & !x.stop;
        if commas == 0 {
            return i;
        }
        let last = 63 - commas.leading_zeros() as usize;
        // Every byte up to the last comma read.
        let taken = u64::MAX >> (63 - last);
        if x.bad & taken != 0 {
            return i;
        }
        let units = x.units & taken;
        let count = units.count_ones() as usize;
        if out.len() + count >= max {
            return i;
        }
        let mut vals = [0u8; 64];
        let mut k = 0;
        let mut u = units;
        while u != 0 {
            vals[k & 63] = b.values[u.trailing_zeros() as usize & 63];
            k += 1;
            u &= u - 1;
        }
        out.extend_from_slice(vals.get(..k).unwrap_or_default());
        i += last + 1;
        if x.stop != 0 {
            return i;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The string reader, and how many bytes it consumed.
    fn string<K: Kernel>(t: &str) -> Option<(String, usize)> {
        let mut c = Cursor::<K>::with_kernel(t);
        let v = c.string()?;
        Some((v, c.pos))
    }

    /// The string reader on a string that must be read whole.
    fn s<K: Kernel>(t: &str) -> Option<String> {
        string::<K>(t).map(|(v, n)| {
            assert_eq!(n, t.len(), "{t:?}");
            v
        })
    }

    /// The byte-array reader on an array that must be read whole.
    fn b<K: Kernel>(t: &str) -> Option<Vec<u8>> {
        let mut c = Cursor::<K>::with_kernel(t);
        let v = c.bytes()?;
        assert!(c.at_end(), "{t:?}");
        Some(v)
    }

    fn integers<K: Kernel>() {
        let (s, b, string) = (s::<K>, b::<K>, string::<K>);
        let _ = (&s, &b, &string);
        let ok = |s: &str| Cursor::<K>::with_kernel(s).i64();
        assert_eq!(ok("\"0\""), Some(0));
        assert_eq!(ok("\"-9223372036854775808\""), Some(i64::MIN));
        assert_eq!(ok("\"9223372036854775807\""), Some(i64::MAX));
        assert_eq!(ok("\"9223372036854775808\""), None);
        assert_eq!(ok("\"-9223372036854775809\""), None);
        assert_eq!(ok("\"-7\""), Some(-7));
        assert_eq!(ok("\"10\""), Some(10));
        for bad in [
            "\"-0\"", "\"01\"", "\"00\"", "\"+1\"", "\"\"", "\"-\"", "0", "\"1", "\"0", "\"-01\"",
            "\"1.0\"", "\"1e3\"", "\" 1\"", "\"1 \"", "\"--1\"", "\"0x1\"", "\"",
        ] {
            assert_eq!(ok(bad), None, "{bad}");
        }
        assert_eq!(Cursor::<K>::with_kernel("\"255\"").u8(), Some(255));
        assert_eq!(Cursor::<K>::with_kernel("\"256\"").u8(), None);
        assert_eq!(Cursor::<K>::with_kernel("\"-1\"").u64(), None);
        assert_eq!(Cursor::<K>::with_kernel("\"-0\"").u64(), None);
        assert_eq!(
            Cursor::<K>::with_kernel("\"18446744073709551615\"").u64(),
            Some(u64::MAX)
        );
        assert_eq!(
            Cursor::<K>::with_kernel("\"18446744073709551616\"").u64(),
            None
        );
        assert_eq!(
            Cursor::<K>::with_kernel("\"99999999999999999999\"").u64(),
            None
        );
        assert_eq!(
            Cursor::<K>::with_kernel("\"-2147483648\"").i32(),
            Some(i32::MIN)
        );
        assert_eq!(Cursor::<K>::with_kernel("\"2147483648\"").i32(), None);
        // The cursor stops right after the closing quote.
        let mut c = Cursor::<K>::with_kernel("\"12\",");
        assert_eq!(c.u64(), Some(12));
        assert!(c.eat(b","));
        assert!(c.at_end());
    }

    fn strings_only_canonical<K: Kernel>() {
        let (s, b, string) = (s::<K>, b::<K>, string::<K>);
        let _ = (&s, &b, &string);
        assert_eq!(
            s(r#""a\"b\\c\nd\re\tf""#).as_deref(),
            Some("a\"b\\c\nd\re\tf")
        );
        assert_eq!(
            s(r#""\u0008\u007f\u0085""#).as_deref(),
            Some("\u{8}\u{7f}\u{85}")
        );
        assert_eq!(s("\"/é\u{a0}\"").as_deref(), Some("/é\u{a0}"));
        for bad in [
            r#""\u000a""#,
            r#""\u0041""#,
            r#""\u007F""#,
            r#""\/""#,
            r#""\b""#,
            "\"\u{7f}\"",
            "\"\u{85}\"",
            "\"\n\"",
            "\"abc",
        ] {
            assert_eq!(s(bad), None, "{bad:?}");
        }
        let long = format!("\"{}\"", "a".repeat(4097));
        assert_eq!(s(&long), None);
        let max = format!("\"{}\"", "a".repeat(4096));
        assert_eq!(s(&max).map(|v| v.len()), Some(4096));
    }

    fn strings_at_the_edges<K: Kernel>() {
        let (s, b, string) = (s::<K>, b::<K>, string::<K>);
        let _ = (&s, &b, &string);
        assert_eq!(s(r#""""#).as_deref(), Some(""));
        assert_eq!(string(r#""","#), Some((String::new(), 2)));
        assert_eq!(string(r#""ab"cd""#), Some(("ab".to_owned(), 4)));
        // Escapes at the start, the end, alone, in a row, at every offset
        // of an eight-byte word.
        assert_eq!(s(r#""\nabc""#).as_deref(), Some("\nabc"));
        assert_eq!(s(r#""abc\n""#).as_deref(), Some("abc\n"));
        assert_eq!(s(r#""\\""#).as_deref(), Some("\\"));
        assert_eq!(s(r#""\"""#).as_deref(), Some("\""));
        assert_eq!(s(r#""\\\"\\""#).as_deref(), Some("\\\"\\"));
        for k in 0..20 {
            let pad = "x".repeat(k);
            let t = format!("\"{pad}\\t{pad}\\\"{pad}\"");
            assert_eq!(s(&t), Some(format!("{pad}\t{pad}\"{pad}")), "{t}");
            let t = format!("\"{pad}\"");
            assert_eq!(s(&t), Some(pad.clone()));
            // A raw control or DEL at every offset.
            for bad in ['\u{0}', '\u{1f}', '\u{7f}', '\n', '\u{80}', '\u{9f}'] {
                let t = format!("\"{pad}{bad}{pad}\"");
                assert_eq!(s(&t), None, "{t:?}");
            }
            // The other characters led by 0xC2, and the first of 0xC3.
            let t = format!("\"{pad}\u{a0}\u{bf}\u{c0}{pad}\"");
            assert_eq!(s(&t), Some(format!("{pad}\u{a0}\u{bf}\u{c0}{pad}")));
        }
        // Every short escape, and what they stand for.
        for (esc, ch) in [
            ("\\\"", '"'),
            ("\\\\", '\\'),
            ("\\n", '\n'),
            ("\\r", '\r'),
            ("\\t", '\t'),
        ] {
            assert_eq!(s(&format!("\"{esc}\"")), Some(ch.to_string()));
        }
        // Short forms that exist in JSON but not in the canonical form.
        for bad in ["\\b", "\\f", "\\/", "\\a", "\\ ", "\\", "\\x41"] {
            assert_eq!(s(&format!("\"{bad}\"")), None, "{bad}");
        }
        // Every `\u00XX`: admitted exactly for the controls without a
        // short form, in lowercase.
        for v in 0u32..=0xff {
            let expected = char::from_u32(v)
                .filter(|c| c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
                .map(String::from);
            assert_eq!(s(&format!("\"\\u{v:04x}\"")), expected, "{v:#x}");
            if format!("{v:04x}") != format!("{v:04X}") {
                assert_eq!(s(&format!("\"\\u{v:04X}\"")), None, "{v:#X}");
            }
        }
        // `\u` escapes of printable characters, surrogate pairs and lone
        // surrogates: never canonical.
        for bad in [
            r#""\u00e9""#,
            r#""\u2192""#,
            r#""\ud83d\ude00""#,
            r#""\ud83d""#,
            r#""\ude00""#,
            r#""\u0100""#,
            r#""\u001""#,
            r#""\u""#,
            r#""\u00""#,
            r#""\u001g""#,
        ] {
            assert_eq!(s(bad), None, "{bad}");
        }
        // Multi-byte UTF-8 next to escapes.
        assert_eq!(
            s("\"é\\n日本語\\t€\\u0085→\"").as_deref(),
            Some("é\n日本語\t€\u{85}→")
        );
        assert_eq!(s("\"\\\"😀\\\"\"").as_deref(), Some("\"😀\""));
        assert_eq!(s("\"\u{a0}\\n\u{a0}\"").as_deref(), Some("\u{a0}\n\u{a0}"));
        // Unterminated, at every offset of the scan.
        for t in [
            "\"",
            "\"a",
            "\"abcdefghijk",
            "\"abc\\",
            "\"abc\\\"",
            "\"\\u00",
            "\"é",
        ] {
            assert_eq!(s(t), None, "{t:?}");
        }
        assert_eq!(s("abc"), None);
    }

    fn strings_4096_bytes<K: Kernel>() {
        let (s, b, string) = (s::<K>, b::<K>, string::<K>);
        let _ = (&s, &b, &string);
        // The bound is on the decoded bytes, with or without escapes, and
        // counts UTF-8 bytes, not characters.
        let a = |n: usize| "a".repeat(n);
        assert_eq!(s(&format!("\"{}\"", a(4096))).map(|v| v.len()), Some(4096));
        assert_eq!(s(&format!("\"{}\"", a(4097))), None);
        assert_eq!(
            s(&format!("\"{}\\n\"", a(4095))).map(|v| v.len()),
            Some(4096)
        );
        assert_eq!(s(&format!("\"{}\\n\"", a(4096))), None);
        assert_eq!(
            s(&format!("\"\\n{}\"", a(4095))).map(|v| v.len()),
            Some(4096)
        );
        assert_eq!(s(&format!("\"\\n{}\"", a(4096))), None);
        // `\u0085` is six bytes in the document, two decoded.
        let c1 = "\\u0085".repeat(2048);
        assert_eq!(s(&format!("\"{c1}\"")).map(|v| v.len()), Some(4096));
        assert_eq!(s(&format!("\"{c1}a\"")), None);
        let e = "é".repeat(2048);
        assert_eq!(s(&format!("\"{e}\"")).map(|v| v.len()), Some(4096));
        assert_eq!(s(&format!("\"{e}a\"")), None);
    }

    fn byte_arrays<K: Kernel>() {
        let (s, b, string) = (s::<K>, b::<K>, string::<K>);
        let _ = (&s, &b, &string);
        assert_eq!(b("[]"), Some(vec![]));
        assert_eq!(b("[0,1,255]"), Some(vec![0, 1, 255]));
        assert_eq!(b("[0]"), Some(vec![0]));
        assert_eq!(b("[255]"), Some(vec![255]));
        assert_eq!(
            b("[9,10,99,100,199,200,249,250]"),
            Some(vec![9, 10, 99, 100, 199, 200, 249, 250])
        );
        for bad in [
            "[256]",
            "[01]",
            "[-0]",
            "[1.0]",
            "[1,]",
            "[ 1]",
            "[",
            "[00]",
            "[1000]",
            "[-1]",
            "[0,256]",
            "[300]",
            "[999]",
            "[260]",
            "[2550]",
            "[001]",
            "[010]",
            "[1 ]",
            "[1,,2]",
            "[,1]",
            "[1",
            "[1,",
            "[12",
            "[123",
            "[123,",
            "[1e2]",
            "[+1]",
            "[0x1]",
            "[\"1\"]",
            "]",
            "[1}",
            "[1:2]",
            "[,]",
            "[ ]",
            "[\u{663}]",
        ] {
            assert_eq!(Cursor::<K>::with_kernel(bad).bytes(), None, "{bad}");
        }
        // Every value, alone and between others.
        for v in 0u32..=999 {
            let expected = u8::try_from(v).ok().map(|v| vec![v]);
            assert_eq!(b(&format!("[{v}]")), expected, "{v}");
            let expected = u8::try_from(v).ok().map(|v| vec![7, v, 7]);
            assert_eq!(b(&format!("[7,{v},7]")), expected, "{v}");
            assert_eq!(b(&format!("[0{v}]")), None, "0{v}");
        }
        // The cursor stops right after `]`.
        let mut c = Cursor::<K>::with_kernel("[1,2]]");
        assert_eq!(c.bytes(), Some(vec![1, 2]));
        assert!(c.eat(b"]"));
        let max = format!("[{}]", vec!["7"; 4096].join(","));
        assert_eq!(b(&max).map(|v| v.len()), Some(4096));
        let max = format!("[{}]", vec!["255"; 4096].join(","));
        assert_eq!(b(&max), Some(vec![255; 4096]));
        let over = format!("[{}]", vec!["7"; 4097].join(","));
        assert_eq!(b(&over), None);
        let over = format!("[{}]", vec!["0"; 4097].join(","));
        assert_eq!(b(&over), None);
    }

    /// The readers as they were before the word-at-a-time rewrite (byte by
    /// byte, validating each string), kept as the oracle of
    /// [`same_language_as_before`].
    mod oracle {
        use super::super::{limits, lower_hex};

        pub fn string(rest: &[u8]) -> Option<(String, usize)> {
            let rest = rest.strip_prefix(b"\"")?;
            let mut buf = Vec::new();
            let mut i = 0;
            loop {
                let b = *rest.get(i)?;
                match b {
                    b'"' => {
                        if buf.len() > limits::MAX_STRING_BYTES {
                            return None;
                        }
                        return Some((String::from_utf8(buf).ok()?, i + 2));
                    }
                    b'\\' => {
                        let e = *rest.get(i + 1)?;
                        match e {
                            b'"' | b'\\' => buf.push(e),
                            b'n' => buf.push(b'\n'),
                            b'r' => buf.push(b'\r'),
                            b't' => buf.push(b'\t'),
                            b'u' => {
                                let hex = rest.get(i + 2..i + 6)?;
                                if &hex[..2] != b"00" {
                                    return None;
                                }
                                let v = lower_hex(hex[2])? << 4 | lower_hex(hex[3])?;
                                let c = match v {
                                    0x09 | 0x0a | 0x0d => return None,
                                    0x00..=0x1f | 0x7f..=0x9f => char::from(v),
                                    _ => return None,
                                };
                                let mut tmp = [0u8; 4];
                                buf.extend_from_slice(c.encode_utf8(&mut tmp).as_bytes());
                                i += 4;
                            }
                            _ => return None,
                        }
                        i += 2;
                    }
                    0x00..=0x1f | 0x7f => return None,
                    0xc2 if matches!(rest.get(i + 1), Some(0x80..=0x9f)) => return None,
                    _ => {
                        buf.push(b);
                        i += 1;
                    }
                }
            }
        }

        pub fn bytes(s: &[u8]) -> Option<(Vec<u8>, usize)> {
            let mut i = 1;
            if s.first() != Some(&b'[') {
                return None;
            }
            let mut out = Vec::new();
            if s.get(1) == Some(&b']') {
                return Some((out, 2));
            }
            loop {
                let mut v = u32::from(s.get(i)?.wrapping_sub(b'0'));
                if v > 9 {
                    return None;
                }
                i += 1;
                if v != 0 {
                    for _ in 0..2 {
                        match s.get(i) {
                            Some(d @ b'0'..=b'9') => {
                                v = v * 10 + u32::from(d - b'0');
                                i += 1;
                            }
                            _ => break,
                        }
                    }
                }
                out.push(u8::try_from(v).ok()?);
                if out.len() > limits::MAX_BYTES_LEN {
                    return None;
                }
                match s.get(i)? {
                    b',' => i += 1,
                    b']' => return Some((out, i + 1)),
                    _ => return None,
                }
            }
        }
    }

    use crate::codec::testing::{Rng, STRING_PIECES};

    /// On random texts built from the pieces that matter (quotes, every
    /// escape, controls, C1 lead bytes, multi-byte characters, runs long
    /// enough to cross eight-byte words), the readers accept exactly what
    /// the byte-by-byte readers accepted, return the same values and stop at
    /// the same byte.
    fn same_language_as_before<K: Kernel>() {
        let (s, b, string) = (s::<K>, b::<K>, string::<K>);
        let _ = (&s, &b, &string);
        let byte_pieces = [
            "0", "1", "9", "10", "25", "99", "100", "199", "255", "256", "999", "1000", "00", "01",
            "-0", "1.0", ",", ",", ",", "]", " ", "\"", "a",
        ];
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let (mut admitted_strings, mut admitted_arrays) = (0, 0);
        for _ in 0..40_000 {
            let mut t = String::from("\"");
            let n = rng.next() % 12;
            for _ in 0..n {
                t.push_str(rng.pick(STRING_PIECES));
            }
            if !rng.next().is_multiple_of(4) {
                t.push('"');
            }
            if rng.next().is_multiple_of(2) {
                t.push_str(rng.pick(STRING_PIECES));
            }
            let got = string(&t);
            assert_eq!(got, oracle::string(t.as_bytes()), "{t:?}");
            admitted_strings += usize::from(got.is_some());

            let mut t = String::from("[");
            let n = rng.next() % 10;
            for k in 0..n {
                if k > 0 && !rng.next().is_multiple_of(8) {
                    t.push(',');
                }
                t.push_str(rng.pick(&byte_pieces));
            }
            if !rng.next().is_multiple_of(4) {
                t.push(']');
            }
            if rng.next().is_multiple_of(2) {
                t.push_str(rng.pick(&byte_pieces));
            }
            let mut c = Cursor::<K>::with_kernel(&t);
            let got = c.bytes().map(|v| (v, c.pos));
            assert_eq!(got, oracle::bytes(t.as_bytes()), "{t:?}");
            admitted_arrays += usize::from(got.is_some());
        }
        // Both languages were exercised, not only their refusals.
        assert!(admitted_strings > 4_000, "{admitted_strings}");
        assert!(admitted_arrays > 4_000, "{admitted_arrays}");

        // Longer arrays of mostly valid elements, so that every pairing of
        // element lengths meets every position in the two-element word,
        // with one defect (or none) somewhere, and a varied end.
        let valid = ["0", "1", "9", "10", "25", "99", "100", "199", "255"];
        let mut admitted_long = 0;
        for _ in 0..40_000 {
            let n = rng.next() % 40;
            let mut items: Vec<&str> = (0..n).map(|_| rng.pick(&valid)).collect();
            if n > 0 && rng.next().is_multiple_of(3) {
                let k = (rng.next() % n) as usize;
                items[k] = rng.pick(&byte_pieces);
            }
            let mut t = format!("[{}", items.join(","));
            if !rng.next().is_multiple_of(8) {
                t.push(']');
            }
            let tail = rng.next() % 4;
            for _ in 0..tail {
                t.push_str(rng.pick(&byte_pieces));
            }
            let mut c = Cursor::<K>::with_kernel(&t);
            let got = c.bytes().map(|v| (v, c.pos));
            assert_eq!(got, oracle::bytes(t.as_bytes()), "{t:?}");
            admitted_long += usize::from(got.is_some());
        }
        assert!(admitted_long > 20_000, "{admitted_long}");

        // Every defect at every element of a 70-element array (about three
        // 64-byte blocks), the array starting at every offset of a block
        // (after a prefix the cursor reads first), and cut short at every
        // length: so that defects, separators and the end meet every
        // position of the block and both sides of a block's edge.
        let base: Vec<&str> = (0..70).map(|_| rng.pick(&valid)).collect();
        let defects = [
            "", "256", "999", "1000", "01", "00", "-1", " ", "a", "\u{e9}", "2550",
        ];
        let mut checked = 0;
        for offset in 0..64 {
            let prefix = "p".repeat(offset);
            for k in (0..base.len()).step_by(7) {
                for defect in defects {
                    let mut items = base.clone();
                    items[k] = defect;
                    let t = format!("{prefix}[{}]x", items.join(","));
                    let mut c = Cursor::<K>::with_kernel(&t);
                    c.lit(prefix.as_bytes()).expect("the prefix");
                    let got = c.bytes().map(|v| (v, c.pos - offset));
                    let want = oracle::bytes(&t.as_bytes()[offset..]);
                    assert_eq!(got, want, "{t:?}");
                    checked += 1;
                }
            }
            let t = format!("{prefix}[{}]", base.join(","));
            for cut in offset + 1..=t.len() {
                let t = &t[..cut];
                let mut c = Cursor::<K>::with_kernel(t);
                c.lit(prefix.as_bytes()).expect("the prefix");
                let got = c.bytes().map(|v| (v, c.pos - offset));
                assert_eq!(got, oracle::bytes(&t.as_bytes()[offset..]), "{t:?}");
            }
        }
        assert!(checked > 7_000, "{checked}");

        // Every escape, special character and defect at every offset of an
        // 8-, 16- and 32-byte block (for a wider scan or fixed-size copies
        // of short runs), after runs of lengths around those sizes, with
        // the string followed by more of the document or ending it (the
        // blocks and copies that do not fit).
        let special = [
            "\\n",
            "\\\"",
            "\\u0085",
            "\\u007f",
            "\\u0009",
            "\\b",
            "\u{a0}",
            "\u{85}",
            "é",
            "日本語",
            "\u{0}",
            "\u{7f}",
            "\"",
            "\\",
        ];
        let mut admitted_positions = 0;
        for k in 0..70 {
            let pad = &"abcdefghijklmnopqrstuvwxyz0123456789".repeat(2)[..k];
            for sp in special {
                for m in [0, 1, 15, 16, 17, 31, 32, 33, 40] {
                    let after = &"ABCDEFGHIJKLMNOPQRSTUVWXYZ".repeat(2)[..m];
                    for end in [
                        "\"",
                        "\"}\n",
                        "\",\"x\":\"ABCDEFGHIJKLMNOPQRSTUVWXYZ\"}\n",
                        "",
                    ] {
                        let t = format!("\"{pad}{sp}{after}{sp}{pad}{end}");
                        let got = string(&t);
                        assert_eq!(got, oracle::string(t.as_bytes()), "{t:?}");
                        admitted_positions += usize::from(got.is_some());
                    }
                }
            }
        }
        assert!(admitted_positions > 10_000, "{admitted_positions}");
    }

    /// The definition of [`comma_elements`]: from `i`, every element of one
    /// to three digits, without a leading zero, at most 255, that a comma
    /// follows, one at a time; the position after the last such comma.
    fn comma_elements_definition(s: &[u8], mut i: usize, out: &mut Vec<u8>) -> usize {
        loop {
            let digits = s.get(i..).unwrap_or_default();
            let n = digits.iter().take_while(|b| b.is_ascii_digit()).count();
            let text = std::str::from_utf8(&digits[..n]).unwrap_or_default();
            let canonical = (1..=3).contains(&n) && !(n > 1 && text.starts_with('0'));
            match text.parse::<u16>() {
                Ok(v) if canonical && v <= 255 && s.get(i + n) == Some(&b',') => {
                    out.push(v as u8);
                    i += n + 1;
                }
                _ => return i,
            }
        }
    }

    fn comma_elements_agree<K: Kernel>() {
        let pieces = [
            "0", "7", "12", "99", "100", "255", "256", "300", "01", "00", "1234", "", " ", "x",
        ];
        let mut rng = crate::codec::testing::Rng(0x5eed_0b17);
        let (mut whole_runs, mut total) = (0, 0);
        for round in 0..20_000 {
            let count = (rng.next() % 90) as usize;
            let clean = round % 2 == 0;
            let mut t = String::from("[");
            for k in 0..count {
                if k > 0 {
                    t.push(',');
                }
                let p = if clean {
                    ["0", "7", "12", "99", "100", "255"][(rng.next() % 6) as usize]
                } else {
                    pieces[(rng.next() % pieces.len() as u64) as usize]
                };
                t.push_str(p);
            }
            if !rng.next().is_multiple_of(4) {
                t.push(']');
            }
            let s = t.as_bytes();
            // The first byte of an element: after the `[` or after a comma.
            let skip = (rng.next() % 3) as usize * usize::from(!clean);
            let from = std::iter::once(1)
                .chain(
                    s.iter()
                        .enumerate()
                        .filter(|(_, &b)| b == b',')
                        .map(|(k, _)| k + 1),
                )
                .nth(skip)
                .unwrap_or(1)
                .min(s.len());
            let mut expected = vec![9u8; 3];
            let end = comma_elements_definition(s, from, &mut expected);
            let max = if round % 7 == 0 {
                4 + count / 2
            } else {
                usize::MAX
            };
            let mut got = vec![9u8; 3];
            let at = comma_elements::<K>(s, from, &mut got, max);
            // A prefix of the definition's run, ending after a comma...
            assert!(at <= end, "{t:?} from {from}: {at} > {end}");
            assert_eq!(got[..], expected[..got.len()], "{t:?}");
            assert!(got.len() < max, "{t:?}");
            // ... which the definition then completes.
            let mut rest = got.clone();
            assert_eq!(comma_elements_definition(s, at, &mut rest), end, "{t:?}");
            assert_eq!(rest, expected, "{t:?}");
            // Canonical elements under the bound: all of them, at once.
            if clean && max == usize::MAX {
                assert_eq!(at, end, "{t:?}");
                whole_runs += 1;
            }
            total += got.len();
        }
        assert!(
            whole_runs > 8_000 && total > 100_000,
            "{whole_runs} {total}"
        );
    }

    /// Every test above, once per kernel.
    macro_rules! per_kernel {
        ($($name:ident),*) => {
            mod native {
                $(#[test] fn $name() { super::$name::<super::Native>() })*
            }
            mod portable {
                $(#[test] fn $name() { super::$name::<super::Portable>() })*
            }
        };
    }
    per_kernel!(
        integers,
        strings_only_canonical,
        strings_at_the_edges,
        strings_4096_bytes,
        byte_arrays,
        comma_elements_agree,
        same_language_as_before
    );
}
