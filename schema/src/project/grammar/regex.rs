//! The regular languages of the leaves: a small regular-expression tree
//! that the grammar printers write in their own syntax, and the leaf
//! languages built from the codec's rules (never restated by hand).
//!
//! | leaf | language | built from |
//! |---|---|---|
//! | bool | `true` or `false` | — |
//! | integer | the quoted canonical decimals of exactly the representation's range | [`Repr::bounds`], the rule of [`crate::scalar`] (`-?(0\|[1-9][0-9]*)`, no `-0`) |
//! | string | `"`, at most `n` characters each written as §2 writes it, `"` | [`crate::quote::short_escape`], [`crate::quote::unicode_escaped`] |
//! | bytes | `[`, at most `n` canonical `u8` decimals joined by `,`, `]` | the `u8` language above |

use crate::graph::Repr;
use crate::quote::{short_escape, unicode_escaped};
use std::fmt::Write;
use std::sync::OnceLock;

/// A regular expression over Unicode text.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Regex {
    /// Exactly this text.
    Text(String),
    /// One character in one of these inclusive ranges or, when `negated`,
    /// one Unicode scalar value in none of them.
    Class {
        /// Inclusive ranges, sorted and disjoint.
        ranges: Vec<(char, char)>,
        /// True for the complement.
        negated: bool,
    },
    /// The concatenation of the parts.
    Seq(Vec<Regex>),
    /// Any one of the alternatives.
    Alt(Vec<Regex>),
    /// `min` to `max` repetitions of the inner expression.
    Repeat {
        /// What is repeated.
        inner: Box<Regex>,
        /// Fewest repetitions.
        min: usize,
        /// Most repetitions.
        max: usize,
    },
}

impl Regex {
    fn text(s: &str) -> Regex {
        Regex::Text(s.to_owned())
    }

    fn class(ranges: &[(char, char)]) -> Regex {
        Regex::Class {
            ranges: ranges.to_vec(),
            negated: false,
        }
    }

    fn repeat(inner: Regex, min: usize, max: usize) -> Regex {
        Regex::Repeat {
            inner: Box::new(inner),
            min,
            max,
        }
    }

    /// The length in UTF-8 bytes of the longest text the expression
    /// matches.
    pub fn max_len(&self) -> usize {
        match self {
            Regex::Text(s) => s.len(),
            Regex::Class { ranges, negated } => {
                if *negated {
                    // Some four-byte scalar value stays outside any class
                    // this module builds.
                    4
                } else {
                    ranges
                        .iter()
                        .map(|&(_, hi)| hi.len_utf8())
                        .max()
                        .unwrap_or(0)
                }
            }
            Regex::Seq(parts) => parts.iter().map(Regex::max_len).sum(),
            Regex::Alt(alts) => alts.iter().map(Regex::max_len).max().unwrap_or(0),
            Regex::Repeat { inner, max, .. } => inner.max_len() * max,
        }
    }

    /// Writes the expression in the syntax of Rust's `regex` crate (which
    /// llguidance's `/…/` terminals use). Characters that are not ASCII
    /// letters, digits or plain punctuation are written as `\x{…}`.
    pub fn write_rust(&self, out: &mut String) {
        match self {
            Regex::Text(s) => {
                for c in s.chars() {
                    push_char(out, c, false);
                }
            }
            Regex::Class { ranges, negated }
                if !*negated && ranges.len() == 1 && ranges[0].0 == ranges[0].1 =>
            {
                push_char(out, ranges[0].0, false);
            }
            Regex::Class { ranges, negated } => {
                out.push('[');
                if *negated {
                    out.push('^');
                }
                for &(lo, hi) in ranges {
                    push_char(out, lo, true);
                    if hi != lo {
                        out.push('-');
                        push_char(out, hi, true);
                    }
                }
                out.push(']');
            }
            Regex::Seq(parts) => {
                for p in parts {
                    p.write_atom_or_seq(out);
                }
            }
            Regex::Alt(alts) => {
                for (i, a) in alts.iter().enumerate() {
                    if i > 0 {
                        out.push('|');
                    }
                    a.write_rust(out);
                }
            }
            Regex::Repeat { inner, min, max } => {
                inner.write_atom(out);
                match (min, max) {
                    (0, 1) => out.push('?'),
                    (m, n) if m == n => {
                        let _ = write!(out, "{{{m}}}");
                    }
                    (m, n) => {
                        let _ = write!(out, "{{{m},{n}}}");
                    }
                }
            }
        }
    }

    /// Writes `self` so that it can stand inside a concatenation.
    fn write_atom_or_seq(&self, out: &mut String) {
        match self {
            Regex::Alt(alts) if alts.len() > 1 => self.write_group(out),
            _ => self.write_rust(out),
        }
    }

    /// Writes `self` so that a repetition operator applies to all of it.
    fn write_atom(&self, out: &mut String) {
        match self {
            Regex::Class { .. } => self.write_rust(out),
            Regex::Text(s) if s.chars().count() == 1 => self.write_rust(out),
            _ => self.write_group(out),
        }
    }

    fn write_group(&self, out: &mut String) {
        out.push('(');
        self.write_rust(out);
        out.push(')');
    }
}

/// Writes one character of a regex, escaped when it could mean anything
/// else.
fn push_char(out: &mut String, c: char, in_class: bool) {
    let meta: &[char] = if in_class {
        &['\\', '[', ']', '^', '-', '&', '~']
    } else {
        &[
            '\\', '.', '+', '*', '?', '(', ')', '|', '[', ']', '{', '}', '^', '$', '#', '&', '-',
            '~',
        ]
    };
    if meta.contains(&c) {
        out.push('\\');
        out.push(c);
    } else if c.is_ascii_graphic() && c != '/' || c == ' ' {
        out.push(c);
    } else {
        let _ = write!(out, "\\x{{{:X}}}", u32::from(c));
    }
}

/// Sorted, merged inclusive ranges of the characters `keep` selects among
/// `chars`.
fn ranges_of(chars: impl Iterator<Item = char>, keep: impl Fn(char) -> bool) -> Vec<(char, char)> {
    let mut out: Vec<(char, char)> = Vec::new();
    for c in chars.filter(|&c| keep(c)) {
        match out.last_mut() {
            Some((_, hi)) if u32::from(*hi) + 1 == u32::from(c) => *hi = c,
            _ => out.push((c, c)),
        }
    }
    out
}

/// One character of a canonical string's body (FORMAT.md §2), as
/// [`crate::quote::quote_into`] writes it: a character written literally,
/// a short escape, or `\u00` and two lowercase hex digits.
pub fn string_char() -> &'static Regex {
    static CHAR: OnceLock<Regex> = OnceLock::new();
    CHAR.get_or_init(|| {
        let escaped = |c: char| short_escape(c).is_some() || unicode_escaped(c);
        // Every escaped character is a control character or one of `"`
        // and `\`, all below U+00A0; nothing above is ever escaped.
        let low = || (0u32..0xa0).filter_map(char::from_u32);
        let literal = Regex::Class {
            ranges: ranges_of(low(), escaped),
            negated: true,
        };
        let mut shorts: Vec<char> = low()
            .filter_map(short_escape)
            .filter_map(|e| e.chars().nth(1))
            .collect();
        shorts.sort_unstable();
        let short = Regex::Seq(vec![
            Regex::text("\\"),
            Regex::class(&ranges_of(shorts.into_iter(), |_| true)),
        ]);
        // `\u00` then the two hex digits, grouped by the first digit.
        let mut by_high: Vec<(u32, Vec<char>)> = Vec::new();
        for c in low().filter(|&c| unicode_escaped(c)) {
            let v = u32::from(c);
            let lo = char::from_digit(v & 0xf, 16).unwrap_or('0');
            match by_high.last_mut() {
                Some((h, los)) if *h == v >> 4 => los.push(lo),
                _ => by_high.push((v >> 4, vec![lo])),
            }
        }
        let unicode = Regex::Seq(vec![
            Regex::text("\\u00"),
            Regex::Alt(
                by_high
                    .into_iter()
                    .map(|(h, mut los)| {
                        los.sort_unstable();
                        let high = char::from_digit(h, 16).unwrap_or('0').to_string();
                        let low = ranges_of(los.into_iter(), |_| true);
                        if low == [(low[0].0, low[0].0)] {
                            Regex::Text(format!("{high}{}", low[0].0))
                        } else {
                            Regex::Seq(vec![Regex::Text(high), Regex::class(&low)])
                        }
                    })
                    .collect(),
            ),
        ]);
        Regex::Alt(vec![literal, short, unicode])
    })
}

/// A canonical string of at most `max_chars` characters, quotes included.
pub fn string(max_chars: usize) -> Regex {
    Regex::Seq(vec![
        Regex::text("\""),
        Regex::repeat(string_char().clone(), 0, max_chars),
        Regex::text("\""),
    ])
}

/// `true` or `false`.
pub fn boolean() -> Regex {
    Regex::Alt(vec![Regex::text("true"), Regex::text("false")])
}

/// The canonical decimals `0..=max` (`max` given as canonical digits).
fn at_most(max: &str) -> Regex {
    let mut alts = vec![Regex::text("0")];
    alts.extend(positive_at_most(max));
    Regex::Alt(alts)
}

/// The canonical decimals `1..=max`, as alternatives.
fn positive_at_most(max: &str) -> Vec<Regex> {
    const ANY: (char, char) = ('0', '9');
    let digits: Vec<char> = max.chars().collect();
    let len = digits.len();
    let mut alts = Vec::new();
    // Fewer digits than `max`: any first digit but 0.
    if len >= 2 {
        alts.push(Regex::Seq(vec![
            Regex::class(&[('1', '9')]),
            Regex::repeat(Regex::class(&[ANY]), 0, len - 2),
        ]));
    }
    // As many digits as `max`: equal up to position i, smaller at i (at
    // most equal at the last position), then anything.
    for i in 0..len {
        let lowest = if i == 0 { '1' } else { '0' };
        let last = i + 1 == len;
        let top = u32::from(digits[i]) - u32::from(!last);
        let Some(top) = char::from_u32(top).filter(|&t| t >= lowest) else {
            continue;
        };
        let mut seq = Vec::new();
        if i > 0 {
            seq.push(Regex::Text(digits[..i].iter().collect()));
        }
        seq.push(Regex::class(&[(lowest, top)]));
        match len - i - 1 {
            0 => {}
            1 => seq.push(Regex::class(&[ANY])),
            rest => seq.push(Regex::repeat(Regex::class(&[ANY]), rest, rest)),
        }
        alts.push(Regex::Seq(seq));
    }
    alts
}

/// The canonical decimals of exactly `repr`'s range, unquoted.
fn decimal(repr: Repr) -> Regex {
    let Some((min, max)) = repr.bounds() else {
        return Regex::Alt(Vec::new());
    };
    match min.strip_prefix('-') {
        None => at_most(max),
        Some(magnitude) => {
            let Regex::Alt(mut alts) = at_most(max) else {
                unreachable!("at_most builds alternatives")
            };
            alts.push(Regex::Seq(vec![
                Regex::text("-"),
                Regex::Alt(positive_at_most(magnitude)),
            ]));
            Regex::Alt(alts)
        }
    }
}

/// An integer of `repr` as the decimal string the canonical form writes,
/// quotes included.
pub fn integer(repr: Repr) -> Regex {
    Regex::Seq(vec![Regex::text("\""), decimal(repr), Regex::text("\"")])
}

/// A byte array of at most `max_elements` elements.
pub fn bytes(max_elements: usize) -> Regex {
    let body = match max_elements {
        0 => Vec::new(),
        n => vec![Regex::repeat(
            Regex::Seq(vec![
                decimal(Repr::U8),
                Regex::repeat(
                    Regex::Seq(vec![Regex::text(","), decimal(Repr::U8)]),
                    0,
                    n - 1,
                ),
            ]),
            0,
            1,
        )],
    };
    let mut seq = vec![Regex::text("[")];
    seq.extend(body);
    seq.push(Regex::text("]"));
    Regex::Seq(seq)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rust(r: &Regex) -> String {
        let mut s = String::new();
        r.write_rust(&mut s);
        s
    }

    #[test]
    fn every_escaped_character_is_below_u00a0() {
        // `string_char` relies on it.
        for c in (0u32..=0x10ffff).filter_map(char::from_u32) {
            if short_escape(c).is_some() || unicode_escaped(c) {
                assert!(u32::from(c) < 0xa0, "{c:?}");
            }
        }
    }

    #[test]
    fn the_string_character_is_the_quoting_rule() {
        assert_eq!(
            rust(string_char()),
            r#"[^\x{0}-\x{1F}"\\\x{7F}-\x{9F}]|\\["\\nrt]|\\u00(0[0-8b-ce-f]|1[0-9a-f]|7f|8[0-9a-f]|9[0-9a-f])"#
        );
        assert_eq!(string(3).max_len(), 2 + 3 * 6);
    }

    #[test]
    fn integer_ranges_are_exact() {
        assert_eq!(
            rust(&integer(Repr::U8)),
            r#""(0|[1-9][0-9]?|1[0-9]{2}|2[0-4][0-9]|25[0-5])""#
        );
        assert_eq!(
            rust(&integer(Repr::I32)),
            concat!(
                r#""(0|[1-9][0-9]{0,8}|1[0-9]{9}|20[0-9]{8}|21[0-3][0-9]{7}|214[0-6][0-9]{6}|2147[0-3][0-9]{5}|21474[0-7][0-9]{4}|214748[0-2][0-9]{3}|2147483[0-5][0-9]{2}|21474836[0-3][0-9]|214748364[0-7]"#,
                r#"|\-([1-9][0-9]{0,8}|1[0-9]{9}|20[0-9]{8}|21[0-3][0-9]{7}|214[0-6][0-9]{6}|2147[0-3][0-9]{5}|21474[0-7][0-9]{4}|214748[0-2][0-9]{3}|2147483[0-5][0-9]{2}|21474836[0-3][0-9]|214748364[0-8]))""#
            )
        );
        assert_eq!(integer(Repr::I64).max_len(), 22);
        assert_eq!(integer(Repr::U64).max_len(), 22);
    }

    #[test]
    fn bytes_and_bools() {
        assert_eq!(rust(&bytes(0)), r"\[\]");
        assert_eq!(
            rust(&bytes(3)),
            r"\[((0|[1-9][0-9]?|1[0-9]{2}|2[0-4][0-9]|25[0-5])(,(0|[1-9][0-9]?|1[0-9]{2}|2[0-4][0-9]|25[0-5])){0,2})?\]"
        );
        assert_eq!(bytes(4096).max_len(), 2 + 3 + 4095 * 4);
        assert_eq!(rust(&boolean()), "true|false");
    }
}
