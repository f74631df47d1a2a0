//! The `pattern` of an integer leaf: the canonical decimal form of a
//! representation as a regular expression, as strict as the decoder
//! (`scalar::parse_integer`): no `+`, no leading zeros, no `-0`, no `-` at
//! all for an unsigned representation.
//!
//! Patterns use only anchors, character classes, groups, alternation and
//! bounded `{m,n}` quantifiers (no lookaround, no backreferences), the
//! subset OpenAI and Anthropic document.

use crate::graph::Repr;

/// How strict an integer `pattern` is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IntegerPattern {
    /// `^-?[0-9]+$`: the canonical projection's pattern (FORMAT.md §8),
    /// kept byte for byte; the decoder does the rest.
    Canonical,
    /// The canonical form with at most as many digits as the
    /// representation's bounds (`^(0|[1-9][0-9]{0,2})$` for `u8`): a value
    /// the pattern admits may still be out of range (`999`), which the
    /// decoder refuses (`value.integer_range`).
    Digits,
    /// Exactly the canonical decimal strings from the minimum to the
    /// maximum: the pattern admits what the decoder admits, no more.
    Exact,
}

/// The pattern of `repr` (an integer representation) in `style`; the
/// canonical pattern for any other representation.
///
/// ```
/// use spx_schema::graph::Repr;
/// use spx_schema::project::{integer_pattern, IntegerPattern};
/// assert_eq!(integer_pattern(Repr::U8, IntegerPattern::Digits), "^(0|[1-9][0-9]{0,2})$");
/// assert_eq!(integer_pattern(Repr::I32, IntegerPattern::Digits), "^(0|-?[1-9][0-9]{0,9})$");
/// assert_eq!(
///     integer_pattern(Repr::U8, IntegerPattern::Exact),
///     "^(0|[1-9][0-9]?|1[0-9]{2}|2[0-4][0-9]|25[0-5])$"
/// );
/// ```
pub fn integer_pattern(repr: Repr, style: IntegerPattern) -> String {
    let Some((min, max)) = repr.bounds() else {
        return "^-?[0-9]+$".to_owned();
    };
    let negative = min.strip_prefix('-');
    match style {
        IntegerPattern::Canonical => "^-?[0-9]+$".to_owned(),
        IntegerPattern::Digits => {
            let digits = max.len().max(negative.map_or(0, str::len));
            let sign = if negative.is_some() { "-?" } else { "" };
            format!("^(0|{sign}[1-9][0-9]{{0,{}}})$", digits - 1)
        }
        IntegerPattern::Exact => {
            let mut alts = vec!["0".to_owned()];
            alts.extend(up_to(max));
            if let Some(abs) = negative {
                alts.push(format!("-({})", up_to(abs).join("|")));
            }
            format!("^({})$", alts.join("|"))
        }
    }
}

/// Alternatives matching exactly the decimal strings of 1..=`max`
/// without leading zeros (`max` is digits, no leading zero).
fn up_to(max: &str) -> Vec<String> {
    let digits: Vec<u8> = max.bytes().map(|b| b - b'0').collect();
    let len = digits.len();
    let mut alts = Vec::new();
    // Fewer digits than `max`: anything.
    if len >= 2 {
        alts.push(match len - 2 {
            0 => "[1-9]".to_owned(),
            1 => "[1-9][0-9]?".to_owned(),
            k => format!("[1-9][0-9]{{0,{k}}}"),
        });
    }
    // As many digits: the digits of `max` up to `i`, then a smaller one at
    // `i` and anything after (at the last digit: up to it, inclusive).
    for i in 0..len {
        let low = u8::from(i == 0);
        let d = digits[i];
        let last = i + 1 == len;
        let top = if last { d } else { d.saturating_sub(1) };
        if d < low || (!last && d == low) {
            continue;
        }
        let mut alt: String = max[..i].to_owned();
        alt.push_str(&class(low, top));
        alt.push_str(&any(len - 1 - i));
        alts.push(alt);
    }
    alts
}

/// `[a-b]`, or the digit itself when `a == b`.
fn class(a: u8, b: u8) -> String {
    if a == b {
        a.to_string()
    } else {
        format!("[{a}-{b}]")
    }
}

/// `n` digits of any value.
fn any(n: usize) -> String {
    match n {
        0 => String::new(),
        1 => "[0-9]".to_owned(),
        n => format!("[0-9]{{{n}}}"),
    }
}
