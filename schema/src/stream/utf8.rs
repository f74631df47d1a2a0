//! UTF-8 across chunks: the one check of FORMAT.md §7 step 2, for bytes
//! that arrive in pieces cut anywhere. A character cut by a chunk boundary
//! is held (at most three bytes) until its last byte arrives; the streams
//! only ever see whole characters.

/// What one chunk holds, once checked.
#[derive(Debug)]
pub(super) struct Checked<'c> {
    /// A character completed by the chunk's first bytes (begun in the
    /// previous chunk), with the offset in the stream of its first byte.
    pub head: Option<(char, u64)>,
    /// The whole characters that follow it.
    pub body: &'c str,
    /// The offset in the stream of `body`'s first byte.
    pub body_at: u64,
    /// The offset in the stream of the first byte after which the bytes
    /// can no longer be UTF-8, when the chunk holds one (after `body`).
    pub invalid: Option<u64>,
}

/// The bytes of a character not yet complete.
#[derive(Debug, Default, Clone)]
pub(super) struct Utf8 {
    held: [u8; 4],
    len: u8,
    /// The offset in the stream of the held character's first byte.
    at: u64,
}

/// True for the bytes that can start a character of two to four bytes.
fn is_lead(b: u8) -> bool {
    (0xC2..=0xF4).contains(&b)
}

/// What one more byte does to the character being assembled
/// ([`Utf8::next`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Next {
    /// The byte begins or continues a character that is not complete yet.
    Held,
    /// The byte completes this character, whose first byte is at this
    /// offset.
    Char(char, u64),
    /// Anything else: an ASCII byte, or a byte that cannot begin or
    /// continue a character here ([`Utf8::check`] reports those).
    Other,
}

impl Utf8 {
    /// What [`Utf8::check`] does with the chunk `[b]`, for a
    /// reader fed one byte at a time, without changing anything: hold it,
    /// complete a character with it, or something else. The caller then
    /// [`hold`](Utf8::hold)s the byte or [`clear`](Utf8::clear)s the
    /// completed character, or leaves both to `check`.
    #[inline]
    pub fn next(&self, b: u8) -> Next {
        let n = usize::from(self.len);
        if n == 0 {
            return if is_lead(b) { Next::Held } else { Next::Other };
        }
        let mut bytes = self.held;
        if let Some(slot) = bytes.get_mut(n) {
            *slot = b;
        }
        match std::str::from_utf8(bytes.get(..n + 1).unwrap_or_default()) {
            Ok(s) => match s.chars().next() {
                Some(c) => Next::Char(c, self.at),
                None => Next::Other,
            },
            Err(e) if e.error_len().is_none() => Next::Held,
            Err(_) => Next::Other,
        }
    }

    /// Holds `b`, at offset `at`, as [`Utf8::next`] said ([`Next::Held`]).
    #[inline]
    pub fn hold(&mut self, b: u8, at: u64) {
        let n = usize::from(self.len);
        if n == 0 {
            self.at = at;
        }
        if let Some(slot) = self.held.get_mut(n) {
            *slot = b;
            self.len += 1;
        }
    }

    /// Forgets the character [`Utf8::next`] completed ([`Next::Char`]).
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// True when a character is waiting for its last bytes.
    pub fn pending(&self) -> bool {
        self.len > 0
    }

    /// The offset of the held character's first byte.
    pub fn pending_at(&self) -> u64 {
        self.at
    }

    /// Checks `chunk`, whose first byte is at offset `at` in the stream.
    /// FORMAT.md §7 steps 1 and 2 for the next chunk of a stream that has
    /// received `fed` bytes: the part of it within the size bound (the
    /// byte at offset 65536 is never admitted), checked, and whether the
    /// chunk went past the bound. `fed` advances by the part checked.
    pub fn bounded<'c>(&mut self, fed: &mut u64, chunk: &'c [u8]) -> (Checked<'c>, bool) {
        let max = crate::graph::limits::MAX_DOCUMENT_BYTES as u64;
        let room = max.saturating_sub(*fed) as usize;
        let over = chunk.len() > room;
        let chunk = chunk.get(..room.min(chunk.len())).unwrap_or_default();
        let start = *fed;
        *fed += chunk.len() as u64;
        (self.check(chunk, start), over)
    }

    pub fn check<'c>(&mut self, chunk: &'c [u8], at: u64) -> Checked<'c> {
        let mut head = None;
        let mut rest = chunk;
        let mut rest_at = at;
        if self.len > 0 {
            // Complete the held character one byte at a time.
            let mut i = 0;
            loop {
                let Some(&b) = chunk.get(i) else {
                    // The chunk ended first: still held.
                    return Checked {
                        head: None,
                        body: "",
                        body_at: at + chunk.len() as u64,
                        invalid: None,
                    };
                };
                let n = usize::from(self.len);
                if let Some(slot) = self.held.get_mut(n) {
                    *slot = b;
                }
                self.len += 1;
                let bytes = self.held.get(..n + 1).unwrap_or_default();
                match std::str::from_utf8(bytes) {
                    Ok(s) => {
                        head = s.chars().next().map(|c| (c, self.at));
                        self.len = 0;
                        i += 1;
                        break;
                    }
                    Err(e) if e.error_len().is_some() => {
                        self.len = 0;
                        return Checked {
                            head: None,
                            body: "",
                            body_at: at + i as u64,
                            invalid: Some(at + i as u64),
                        };
                    }
                    Err(_) => i += 1,
                }
            }
            rest = chunk.get(i..).unwrap_or_default();
            rest_at = at + i as u64;
        }
        match simdutf8::compat::from_utf8(rest) {
            Ok(body) => Checked {
                head,
                body,
                body_at: rest_at,
                invalid: None,
            },
            Err(e) => {
                let valid = e.valid_up_to();
                let body =
                    std::str::from_utf8(rest.get(..valid).unwrap_or_default()).unwrap_or_default();
                match e.error_len() {
                    Some(n) => {
                        let lead = rest.get(valid).copied().unwrap_or(0);
                        let bad = valid + if is_lead(lead) { n } else { 0 };
                        Checked {
                            head,
                            body,
                            body_at: rest_at,
                            invalid: Some(rest_at + bad as u64),
                        }
                    }
                    None => {
                        // A character cut by the end of the chunk.
                        let tail = rest.get(valid..).unwrap_or_default();
                        self.len = tail.len() as u8;
                        for (slot, &b) in self.held.iter_mut().zip(tail) {
                            *slot = b;
                        }
                        self.at = rest_at + valid as u64;
                        Checked {
                            head,
                            body,
                            body_at: rest_at,
                            invalid: None,
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `next` with `hold` and `clear` is `check` of one-byte chunks,
    /// wherever it holds or completes: every sequence of up to three bytes
    /// over the bytes that matter, and every character's encoding.
    #[test]
    fn next_is_check_of_one_byte() {
        let alphabet = [
            0x41u8, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc2, 0xc3, 0xdf, 0xe0, 0xe2, 0xed,
            0xef, 0xf0, 0xf4, 0xf5, 0xff,
        ];
        let mut texts: Vec<Vec<u8>> = Vec::new();
        for a in alphabet {
            for b in alphabet {
                for c in alphabet {
                    texts.push(vec![a, b, c]);
                }
            }
        }
        for c in ['é', '\u{85}', '€', '日', '😀', '\u{10ffff}', '\u{fffd}'] {
            let mut t = c.to_string().into_bytes();
            t.push(b'x');
            texts.push(t);
        }
        let mut agreed = (0, 0);
        for t in &texts {
            let (mut quick, mut full) = (Utf8::default(), Utf8::default());
            for (k, &b) in t.iter().enumerate() {
                let at = k as u64;
                let one = [b];
                let c = full.check(&one, at);
                match quick.next(b) {
                    Next::Held => {
                        quick.hold(b, at);
                        assert!(c.head.is_none() && c.body.is_empty() && c.invalid.is_none());
                        assert!(full.pending(), "{t:?} at {k}");
                        agreed.0 += 1;
                    }
                    Next::Char(ch, start) => {
                        quick.clear();
                        assert_eq!(c.head, Some((ch, start)), "{t:?} at {k}");
                        assert!(c.body.is_empty() && c.invalid.is_none() && !full.pending());
                        agreed.1 += 1;
                    }
                    // `check` decides; the quick state is left as it was
                    // (and this text is done with).
                    Next::Other => break,
                }
                assert_eq!(quick.pending(), full.pending(), "{t:?} at {k}");
                assert_eq!((quick.len, quick.at), (full.len, full.at), "{t:?} at {k}");
            }
        }
        assert!(agreed.0 > 1000 && agreed.1 > 100, "{agreed:?}");
    }

    /// Whatever the cutting, the characters that come out are the text's,
    /// and an invalid sequence is found at the first byte that makes it
    /// invalid (the byte after the longest valid start of a sequence).
    #[test]
    fn characters_across_chunks() {
        let texts: [&[u8]; 9] = [
            "aé€😀b".as_bytes(),
            b"ab\xffcd",
            b"a\xc3(",
            b"a\xe2\x82(",
            b"\xed\xa0\x80",
            b"\xf0\x9f\x98",
            b"\xc0\xaf",
            b"\x80",
            b"\xf4\x90\x80\x80",
        ];
        let first_bad = [
            None,
            Some(2),
            Some(2),
            Some(3),
            Some(1),
            None,
            Some(0),
            Some(0),
            Some(1),
        ];
        for (t, bad) in texts.iter().zip(first_bad) {
            for step in 1..=t.len().max(1) {
                let mut u = Utf8::default();
                let mut out = String::new();
                let mut invalid = None;
                for (k, chunk) in t.chunks(step).enumerate() {
                    let c = u.check(chunk, (k * step) as u64);
                    if let Some((ch, _)) = c.head {
                        out.push(ch);
                    }
                    out.push_str(c.body);
                    if c.invalid.is_some() {
                        invalid = c.invalid;
                        break;
                    }
                }
                assert_eq!(invalid, bad.map(|b: u64| b), "{t:?} by {step}");
                if bad.is_none() && !u.pending() {
                    assert_eq!(out.as_bytes(), *t, "{t:?} by {step}");
                }
            }
        }
    }
}
