//! Leaf rules shared by every decoder, the encoder and admission, so that
//! they can never disagree (FORMAT.md §7, leaves).

use crate::graph::Repr;

/// An exact integer that fits its representation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Int {
    /// For `i32`/`i64`.
    Signed(i64),
    /// For `u8`/`u64`.
    Unsigned(u64),
}

/// Checks the text of a decimal-string integer (the part between the
/// quotes, already unescaped) against `repr`.
///
/// Returns `Err("value.integer")` when it is not `-?digits` with no leading
/// zero (except `0`) or is `-0`, and `Err("value.integer_range")` when it is
/// well formed but outside the bounds (any negative for `u8`/`u64`).
pub fn parse_integer(repr: Repr, text: &[u8]) -> Result<Int, &'static str> {
    let (neg, digits) = match text.first() {
        Some(b'-') => (true, &text[1..]),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return Err("value.integer");
    }
    if digits.len() > 1 && digits[0] == b'0' {
        return Err("value.integer");
    }
    if neg && digits == b"0" {
        return Err("value.integer");
    }
    // Magnitude with saturation: anything past u64::MAX is out of range.
    let mut mag: u64 = 0;
    let mut overflow = false;
    for &d in digits {
        match mag
            .checked_mul(10)
            .and_then(|m| m.checked_add(u64::from(d - b'0')))
        {
            Some(m) => mag = m,
            None => {
                overflow = true;
                break;
            }
        }
    }
    let range = Err("value.integer_range");
    match repr {
        Repr::U8 | Repr::U64 => {
            if neg || overflow {
                return range;
            }
            let max = if repr == Repr::U8 { 255 } else { u64::MAX };
            if mag > max {
                return range;
            }
            Ok(Int::Unsigned(mag))
        }
        Repr::I32 | Repr::I64 => {
            if overflow {
                return range;
            }
            let (min_mag, max) = if repr == Repr::I32 {
                (1u64 << 31, i32::MAX as u64)
            } else {
                (1u64 << 63, i64::MAX as u64)
            };
            if neg {
                if mag > min_mag {
                    return range;
                }
                Ok(Int::Signed((mag as i64).wrapping_neg()))
            } else {
                if mag > max {
                    return range;
                }
                Ok(Int::Signed(mag as i64))
            }
        }
        _ => Err("value.representation"),
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
}
