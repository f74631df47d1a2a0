//! The writers of the canonical value form's leaves (FORMAT.md §6).
//!
//! Each appends exactly the canonical text of one leaf. The writers of
//! bounded leaves return `false`, having written nothing, when the value
//! exceeds its bound (FORMAT.md §1): the engine's encoder then reports the
//! SPX-Z206 rule, and the generated writers hand the value to it.

use super::quote::quote_into;
use crate::graph::limits;

/// `"00"` to `"99"`, two bytes each: the digit pairs of [`push_u64`].
const PAIRS: &[u8; 200] = &{
    let mut t = [0u8; 200];
    let mut i = 0;
    while i < 100 {
        t[2 * i] = b'0' + (i / 10) as u8;
        t[2 * i + 1] = b'0' + (i % 10) as u8;
        i += 1;
    }
    t
};

/// The decimal digits of `n` at the end of `buf`, two at a time
/// (itoa-style); returns where they start.
#[inline]
fn digits(buf: &mut [u8; 20], mut n: u64) -> usize {
    let mut i = buf.len();
    while n >= 100 {
        let pair = (n % 100) as usize * 2;
        n /= 100;
        i -= 2;
        buf[i..i + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    }
    if n >= 10 {
        let pair = n as usize * 2;
        i -= 2;
        buf[i..i + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    } else {
        i -= 1;
        buf[i] = b'0' + n as u8;
    }
    i
}

/// Appends ASCII bytes (digits, separators) to `out`.
#[inline]
fn push_ascii(out: &mut String, ascii: &[u8]) {
    // Only ever digits, commas, brackets and quotes: the check cannot fail
    // and is a few instructions for so few bytes.
    out.push_str(std::str::from_utf8(ascii).unwrap_or_default());
}

/// Appends the decimal digits of `n` (no quotes).
#[inline]
pub fn push_u64(out: &mut String, n: u64) {
    let mut buf = [0u8; 20];
    let i = digits(&mut buf, n);
    push_ascii(out, &buf[i..]);
}

/// Appends a canonical boolean.
#[inline]
pub fn write_bool(out: &mut String, v: bool) {
    out.push_str(if v { "true" } else { "false" });
}

/// Appends a canonical quoted signed integer (`i32` or `i64`).
#[inline]
pub fn write_i64(out: &mut String, v: i64) {
    // `"-` and twenty digits at most.
    let mut buf = [0u8; 24];
    let mut digit_buf = [0u8; 20];
    let i = digits(&mut digit_buf, v.unsigned_abs());
    let mut n = 0;
    buf[0] = b'"';
    n += 1;
    if v < 0 {
        buf[1] = b'-';
        n += 1;
    }
    let len = 20 - i;
    buf[n..n + len].copy_from_slice(&digit_buf[i..]);
    n += len;
    buf[n] = b'"';
    push_ascii(out, &buf[..n + 1]);
}

/// Appends a canonical quoted unsigned integer (`u8` or `u64`).
#[inline]
pub fn write_u64(out: &mut String, v: u64) {
    let mut buf = [0u8; 22];
    let mut digit_buf = [0u8; 20];
    let i = digits(&mut digit_buf, v);
    let len = 20 - i;
    buf[0] = b'"';
    buf[1..1 + len].copy_from_slice(&digit_buf[i..]);
    buf[1 + len] = b'"';
    push_ascii(out, &buf[..len + 2]);
}

/// Appends a canonically quoted string; `false` when it is over 4096 bytes.
#[inline]
pub fn write_string(out: &mut String, v: &str) -> bool {
    if v.len() > limits::MAX_STRING_BYTES {
        return false;
    }
    quote_into(out, v);
    true
}

/// `0,` to `255,`: every byte value's decimal digits and a comma, in the
/// first bytes of four, and the length of that text.
const ELEMENTS: [([u8; 4], u8); 256] = {
    let mut t = [([0u8; 4], 0u8); 256];
    let mut v = 0;
    while v < 256 {
        let (e, len) = &mut t[v];
        if v >= 100 {
            *e = [
                b'0' + (v / 100) as u8,
                b'0' + (v / 10 % 10) as u8,
                b'0' + (v % 10) as u8,
                b',',
            ];
            *len = 4;
        } else if v >= 10 {
            *e = [b'0' + (v / 10) as u8, b'0' + (v % 10) as u8, b',', 0];
            *len = 3;
        } else {
            *e = [b'0' + v as u8, b',', 0, 0];
            *len = 2;
        }
        v += 1;
    }
    t
};

/// Appends a canonical byte array; `false` when it has over 4096 elements.
///
/// Each element is one table entry ([`ELEMENTS`]: its digits and a comma)
/// stored whole into a stack buffer, 64 elements at a time; the buffer is
/// appended at once, and the last comma becomes the `]`.
#[inline]
pub fn write_bytes(out: &mut String, v: &[u8]) -> bool {
    if v.len() > limits::MAX_BYTES_LEN {
        return false;
    }
    if v.is_empty() {
        out.push_str("[]");
        return true;
    }
    out.reserve(v.len() * 4 + 1);
    out.push('[');
    // 64 elements of at most four bytes, and the three bytes a last
    // four-byte store may write past its element.
    let mut buf = [0u8; 256 + 3];
    for chunk in v.chunks(64) {
        let mut n = 0;
        for &b in chunk {
            let (text, len) = ELEMENTS[usize::from(b)];
            // `n` is at most 63 * 4 here: the store is in bounds, and the
            // mask lets the compiler see it.
            let at = n & 255;
            buf[at..at + 4].copy_from_slice(&text);
            n += usize::from(len);
        }
        push_ascii(out, &buf[..n]);
    }
    out.pop();
    out.push(']');
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writers() {
        let mut s = String::new();
        write_i64(&mut s, i64::MIN);
        write_u64(&mut s, 0);
        write_bool(&mut s, true);
        assert!(write_bytes(&mut s, &[0, 10, 255]));
        assert!(write_string(&mut s, "a\u{1}"));
        assert_eq!(s, "\"-9223372036854775808\"\"0\"true[0,10,255]\"a\\u0001\"");
        assert!(!write_string(&mut s, &"x".repeat(4097)));
        assert!(!write_bytes(&mut s, &[0; 4097]));
    }

    #[test]
    fn decimals_are_rust_s_own() {
        let mut n: u64 = 1;
        let mut samples = vec![0, 9, 10, 99, 100, 999, 1000, u64::MAX, u64::MAX - 1];
        for _ in 0..200 {
            // xorshift
            n ^= n << 13;
            n ^= n >> 7;
            n ^= n << 17;
            samples.push(n);
            samples.push(n >> (n % 64));
        }
        samples.extend(0..=1000);
        for &v in &samples {
            let mut s = String::from("x");
            push_u64(&mut s, v);
            assert_eq!(s, format!("x{v}"));
            let mut s = String::from("x");
            write_u64(&mut s, v);
            assert_eq!(s, format!("x\"{v}\""));
            for i in [
                v as i64,
                (v as i64).wrapping_neg(),
                (v >> 1) as i64,
                -((v >> 1) as i64),
            ] {
                let mut s = String::from("x");
                write_i64(&mut s, i);
                assert_eq!(s, format!("x\"{i}\""));
            }
        }
        for i in [i64::MIN, i64::MIN + 1, i64::MAX, -1, 0, 1, -10, -99, -100] {
            let mut s = String::new();
            write_i64(&mut s, i);
            assert_eq!(s, format!("\"{i}\""));
        }
        let all: Vec<u8> = (0..=255).chain(0..=255).collect();
        for len in [
            0,
            1,
            15,
            16,
            17,
            32,
            33,
            63,
            64,
            65,
            127,
            128,
            129,
            256,
            all.len(),
        ] {
            let mut s = String::new();
            assert!(write_bytes(&mut s, &all[..len]));
            let want: Vec<String> = all[..len].iter().map(u8::to_string).collect();
            assert_eq!(s, format!("[{}]", want.join(",")), "{len}");
        }
    }

    #[test]
    fn over_the_bound_nothing_is_written() {
        let mut s = String::from("x");
        assert!(!write_string(&mut s, &"y".repeat(4097)));
        assert!(!write_bytes(&mut s, &[1; 4097]));
        assert_eq!(s, "x");
        assert!(write_string(&mut s, &"y".repeat(4096)));
        assert!(write_bytes(&mut s, &[1; 4096]));
        assert_eq!(s.len(), 1 + 4098 + 2 + 4096 * 2 - 1);
    }
}
