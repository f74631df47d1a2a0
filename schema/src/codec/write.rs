//! The writers of the canonical value form's leaves (FORMAT.md §6).
//!
//! Each appends exactly the canonical text of one leaf. The writers of
//! bounded leaves return `false`, having written nothing, when the value
//! exceeds its bound (FORMAT.md §1): the engine's encoder then reports the
//! SPX-Z206 rule, and the generated writers hand the value to it.

use super::quote::quote_into;
use crate::graph::limits;

/// Appends the decimal digits of `n` (no quotes).
#[inline]
pub fn push_u64(out: &mut String, mut n: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &buf[i..] {
        out.push(char::from(d));
    }
}

/// Appends a canonical boolean.
#[inline]
pub fn write_bool(out: &mut String, v: bool) {
    out.push_str(if v { "true" } else { "false" });
}

/// Appends a canonical quoted signed integer (`i32` or `i64`).
#[inline]
pub fn write_i64(out: &mut String, v: i64) {
    out.push('"');
    if v < 0 {
        out.push('-');
    }
    push_u64(out, v.unsigned_abs());
    out.push('"');
}

/// Appends a canonical quoted unsigned integer (`u8` or `u64`).
#[inline]
pub fn write_u64(out: &mut String, v: u64) {
    out.push('"');
    push_u64(out, v);
    out.push('"');
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

/// Appends a canonical byte array; `false` when it has over 4096 elements.
#[inline]
pub fn write_bytes(out: &mut String, v: &[u8]) -> bool {
    if v.len() > limits::MAX_BYTES_LEN {
        return false;
    }
    out.push('[');
    for (i, &b) in v.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_u64(out, u64::from(b));
    }
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
        }
        let all: Vec<u8> = (0..=255).chain(0..=255).collect();
        for len in [0, 1, 15, 16, 17, 32, 33, all.len()] {
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
