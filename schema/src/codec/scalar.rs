//! The decimal-integer rule of the canonical form and the range of each
//! integer representation (FORMAT.md §3, §6, §7 leaves). The in-place
//! reader ([`super::read::Cursor`]), the spec-ordered decoder and admission
//! (through [`parse_integer`]) and the encoder (through [`signed_fits`] and
//! [`unsigned_fits`]) all apply these, so that they can never disagree.

use crate::graph::Repr;

/// An exact integer that fits its representation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Int {
    /// For `i32`/`i64`.
    Signed(i64),
    /// For `u8`/`u64`.
    Unsigned(u64),
}

/// What [`decimal`] read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Decimal {
    /// A canonical decimal; `end` is the index of the first byte after it.
    Value {
        negative: bool,
        magnitude: u64,
        end: usize,
    },
    /// Canonical digits whose magnitude exceeds `u64`; `end` is the index
    /// of the first byte after the digits.
    TooLarge { end: usize },
    /// No digit, a leading `+`, or `-0`.
    Malformed,
}

/// Reads the canonical decimal `-?(0|[1-9][0-9]*)` that starts at `s[at]`,
/// up to the first byte that is not a digit. A `0` ends the number (so `01`
/// reads `0` and leaves `1` to the caller, which refuses it as it refuses
/// any byte other than its terminator), and `-0` is malformed.
#[inline(always)]
pub(crate) fn decimal(s: &[u8], at: usize) -> Decimal {
    let mut i = at;
    let negative = s.get(i) == Some(&b'-');
    i += usize::from(negative);
    let Some(first) = s.get(i) else {
        return Decimal::Malformed;
    };
    let mut magnitude = u64::from(first.wrapping_sub(b'0'));
    if magnitude > 9 {
        return Decimal::Malformed;
    }
    i += 1;
    if magnitude == 0 {
        return if negative {
            Decimal::Malformed
        } else {
            Decimal::Value {
                negative,
                magnitude,
                end: i,
            }
        };
    }
    loop {
        let d = s.get(i).map_or(10, |b| b.wrapping_sub(b'0'));
        if d > 9 {
            return Decimal::Value {
                negative,
                magnitude,
                end: i,
            };
        }
        i += 1;
        match magnitude
            .checked_mul(10)
            .and_then(|m| m.checked_add(u64::from(d)))
        {
            Some(m) => magnitude = m,
            None => {
                let digits = s.get(i..).unwrap_or(&[]);
                let more = digits.iter().take_while(|b| b.is_ascii_digit()).count();
                return Decimal::TooLarge { end: i + more };
            }
        }
    }
}

/// The `i64` of a sign and a magnitude, when it fits.
#[inline(always)]
pub(crate) fn signed(negative: bool, magnitude: u64) -> Option<i64> {
    if negative {
        if magnitude > 1u64 << 63 {
            return None;
        }
        Some((magnitude as i64).wrapping_neg())
    } else {
        i64::try_from(magnitude).ok()
    }
}

/// Checks the text of a decimal-string integer (the part between the
/// quotes, already unescaped) against `repr`.
///
/// Returns `Err("value.integer")` when it is not `-?digits` with no leading
/// zero (except `0`) or is `-0`, and `Err("value.integer_range")` when it is
/// well formed but outside the bounds (any negative for `u8`/`u64`). The
/// rule is [`DecimalPrefix`](super::step::DecimalPrefix), the form a
/// stream steps through one byte at a time.
pub fn parse_integer(repr: Repr, text: &[u8]) -> Result<Int, &'static str> {
    let mut d = super::step::DecimalPrefix::new();
    for &b in text {
        if !d.push(b) {
            break;
        }
    }
    d.finish(repr)
}

/// A bytes element (FORMAT.md §7): a JSON number token written with digits
/// only (no sign, fraction or exponent) whose value is at most 255. The
/// rule is [`ElementPrefix`](super::step::ElementPrefix).
pub fn byte_element(raw: &str) -> Option<u8> {
    let mut e = super::step::ElementPrefix::new();
    if raw.bytes().all(|b| e.push(b)) {
        e.value()
    } else {
        None
    }
}

/// True when a signed value fits `repr` (`i32` or `i64`).
pub fn signed_fits(repr: Repr, v: i64) -> bool {
    match repr {
        Repr::I32 => i32::try_from(v).is_ok(),
        Repr::I64 => true,
        _ => false,
    }
}

/// True when an unsigned value fits `repr` (`u8` or `u64`).
pub fn unsigned_fits(repr: Repr, v: u64) -> bool {
    match repr {
        Repr::U8 => v <= 255,
        Repr::U64 => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_forms_and_ranges() {
        use Int::*;
        assert_eq!(parse_integer(Repr::I64, b"0"), Ok(Signed(0)));
        assert_eq!(
            parse_integer(Repr::I64, b"-9223372036854775808"),
            Ok(Signed(i64::MIN))
        );
        assert_eq!(
            parse_integer(Repr::I64, b"9223372036854775808"),
            Err("value.integer_range")
        );
        assert_eq!(
            parse_integer(Repr::I32, b"-2147483648"),
            Ok(Signed(i32::MIN as i64))
        );
        assert_eq!(
            parse_integer(Repr::I32, b"-2147483649"),
            Err("value.integer_range")
        );
        assert_eq!(
            parse_integer(Repr::U64, b"18446744073709551615"),
            Ok(Unsigned(u64::MAX))
        );
        assert_eq!(
            parse_integer(Repr::U64, b"18446744073709551616"),
            Err("value.integer_range")
        );
        assert_eq!(
            parse_integer(Repr::U64, b"99999999999999999999999"),
            Err("value.integer_range")
        );
        assert_eq!(parse_integer(Repr::U8, b"-1"), Err("value.integer_range"));
        assert_eq!(parse_integer(Repr::U8, b"256"), Err("value.integer_range"));
        for bad in [
            &b"-0"[..],
            b"01",
            b"+1",
            b"",
            b"-",
            b"1e3",
            b"1.0",
            b" 1",
            b"0x1",
        ] {
            assert_eq!(
                parse_integer(Repr::I64, bad),
                Err("value.integer"),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn the_format_is_checked_before_the_range() {
        // Digits past `u64::MAX` are out of range, unless something other
        // than a digit follows them: then they are not an integer at all.
        let big = b"99999999999999999999999";
        assert_eq!(parse_integer(Repr::U64, big), Err("value.integer_range"));
        assert_eq!(
            parse_integer(Repr::I64, b"-99999999999999999999999"),
            Err("value.integer_range")
        );
        assert_eq!(
            parse_integer(Repr::U64, b"99999999999999999999999x"),
            Err("value.integer")
        );
        assert_eq!(
            parse_integer(Repr::String, b"7"),
            Err("value.representation")
        );
        assert_eq!(
            decimal(b"\"12\"", 1),
            Decimal::Value {
                negative: false,
                magnitude: 12,
                end: 3
            }
        );
        assert_eq!(decimal(b"-0", 0), Decimal::Malformed);
        assert_eq!(
            decimal(b"01", 0),
            Decimal::Value {
                negative: false,
                magnitude: 0,
                end: 1
            }
        );
    }
}
