//! The `.spx` lexer (LANGUAGE.md "Lexical facts"): positions are 1-based
//! lines and columns counted in Unicode scalar values.

use super::codes;
use super::model::Pos;
use crate::diag::{Code, Diagnostic};

/// One token kind. Keywords are identifiers; the parser reads them in
/// context (`session` may be a field name).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Tok {
    Ident(String),
    /// A string literal, escapes decoded.
    Str(String),
    Char,
    /// An integer literal's magnitude (a leading `-` is a separate token),
    /// with its type suffix when it has one (`255u8`).
    Int(u128),
    Float,
    Punct(&'static str),
    /// A character that starts no token (`#`, `&`, `é` outside a literal).
    /// Inside a skipped body it is skipped like any token; where the
    /// reader is strict it is SPX-P001.
    Unknown(char),
    Eof,
}

impl Tok {
    /// How a token is named in "expected …, found …" messages.
    pub(crate) fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Str(_) => "a string literal".to_owned(),
            Tok::Char => "a char literal".to_owned(),
            Tok::Int(_) => "an integer literal".to_owned(),
            Tok::Float => "a float literal".to_owned(),
            Tok::Punct(p) => format!("`{p}`"),
            Tok::Unknown(c) => format!("`{}`", c.escape_debug()),
            Tok::Eof => "the end of the file".to_owned(),
        }
    }
}

/// A token, where it starts and the bytes it covers.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Token {
    pub tok: Tok,
    pub pos: Pos,
}

/// Punctuation, longest first so that `::` wins over `:`. (`|` separates
/// match patterns; any other character that starts no token is a
/// [`Tok::Unknown`].)
const PUNCT: [&str; 31] = [
    "::", "->", "=>", "==", "!=", "<=", ">=", "&&", "||", "@", "(", ")", "{", "}", "[", "]", ":",
    ".", ",", ";", "=", "<", ">", "+", "-", "*", "/", "%", "?", "!", "|",
];

/// The integer type suffixes (`0usize`, `255u8`, `-7i32`) and the largest
/// magnitude each admits: the type's maximum, or for a signed type its
/// minimum's magnitude, since the `-` is a separate token.
const INT_SUFFIXES: [(&str, u128); 12] = [
    ("i8", 1 << 7),
    ("i16", 1 << 15),
    ("i32", 1 << 31),
    ("i64", 1 << 63),
    ("i128", 1 << 127),
    ("isize", 1 << 63),
    ("u8", u8::MAX as u128),
    ("u16", u16::MAX as u128),
    ("u32", u32::MAX as u128),
    ("u64", u64::MAX as u128),
    ("u128", u128::MAX),
    ("usize", u64::MAX as u128),
];

/// The largest magnitude of an unsuffixed integer literal: an `i64`'s
/// (`-9223372036854775808` is a `-` and this literal).
const UNSUFFIXED_MAX: u128 = 1 << 63;

pub(crate) fn error(
    path: &str,
    code: Code,
    rule: &'static str,
    msg: String,
    pos: Pos,
) -> Diagnostic {
    Diagnostic::error(code, rule, msg).at(pos.location(path))
}

struct Lexer<'a> {
    path: &'a str,
    chars: Vec<char>,
    i: usize,
    /// Byte offset of `chars[i]`.
    byte: usize,
    line: u32,
    column: u32,
}

impl Lexer<'_> {
    fn peek(&self, k: usize) -> Option<char> {
        self.chars.get(self.i + k).copied()
    }

    /// The position of the next character (an empty range there).
    fn pos(&self) -> Pos {
        let at = u32::try_from(self.byte).unwrap_or(u32::MAX);
        Pos {
            line: self.line,
            column: self.column,
            start: at,
            end: at,
        }
    }

    /// `start` extended to the current position (what was read since).
    fn since(&self, start: Pos) -> Pos {
        start.to(self.pos())
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek(0)?;
        self.i += 1;
        self.byte += c.len_utf8();
        if c == '\n' {
            self.line = self.line.saturating_add(1);
            self.column = 1;
        } else {
            self.column = self.column.saturating_add(1);
        }
        Some(c)
    }

    fn err(&self, code: Code, rule: &'static str, msg: String, pos: Pos) -> Diagnostic {
        error(self.path, code, rule, msg, pos)
    }

    fn string(&mut self, start: Pos) -> Result<Tok, Diagnostic> {
        let mut s = String::new();
        loop {
            let here = self.pos();
            match self.bump() {
                None => {
                    return Err(self.err(
                        codes::UNTERMINATED_STRING,
                        "syntax.unterminated_string",
                        "unterminated string literal".to_owned(),
                        self.since(start),
                    ))
                }
                Some('"') => return Ok(Tok::Str(s)),
                Some('\\') => {
                    let e = self.bump();
                    s.push(match e {
                        Some('u') => self.unicode_escape(here)?,
                        Some('n') => '\n',
                        Some('r') => '\r',
                        Some('t') => '\t',
                        Some('"') => '"',
                        Some('\\') => '\\',
                        None => {
                            return Err(self.err(
                                codes::UNTERMINATED_STRING,
                                "syntax.unterminated_string",
                                "unterminated string literal".to_owned(),
                                self.since(start),
                            ))
                        }
                        Some(other) => {
                            return Err(self.err(
                                codes::STRING_ESCAPE,
                                "syntax.string_escape",
                                format!(
                                    "unknown escape `\\{}` in a string literal (only \\n \\r \\t \\\" \\\\ are allowed)",
                                    other.escape_debug()
                                ),
                                self.since(here),
                            ))
                        }
                    });
                }
                Some(c) => s.push(c),
            }
        }
    }

    /// The rest of a `\u{1..6 hex}` escape in a string literal, after the
    /// `u`; `here` is where its backslash is.
    fn unicode_escape(&mut self, here: Pos) -> Result<char, Diagnostic> {
        let bad = |l: &Self| {
            l.err(
                codes::STRING_ESCAPE,
                "syntax.string_escape",
                "invalid `\\u{…}` escape in a string literal: it takes 1 to 6 hex digits naming a Unicode scalar value".to_owned(),
                l.since(here),
            )
            .with_help("write a code point such as `\\u{1f600}` (not a surrogate, at most `\\u{10ffff}`)")
        };
        if self.peek(0) != Some('{') {
            return Err(bad(self));
        }
        self.bump();
        let mut v: u32 = 0;
        let mut n = 0;
        loop {
            match self.peek(0) {
                Some('}') => {
                    self.bump();
                    break;
                }
                Some(c) if c.is_ascii_hexdigit() && n < 6 => {
                    self.bump();
                    v = v * 16 + c.to_digit(16).unwrap_or(0);
                    n += 1;
                }
                _ => return Err(bad(self)),
            }
        }
        match char::from_u32(v) {
            Some(c) if n > 0 => Ok(c),
            _ => Err(bad(self)),
        }
    }

    fn char_lit(&mut self, start: Pos) -> Result<Tok, Diagnostic> {
        let bad = |l: &Self, what: &str| {
            l.err(
                codes::CHAR_LITERAL,
                "syntax.char_literal",
                format!("invalid char literal: {what}"),
                l.since(start),
            )
        };
        match self.bump() {
            None | Some('\n') => return Err(bad(self, "unterminated")),
            Some('\'') => return Err(bad(self, "empty")),
            Some('\\') => match self.bump() {
                Some('n' | 'r' | 't' | '0' | '\\' | '\'') => {}
                Some('u') => {
                    if self.bump() != Some('{') {
                        return Err(bad(self, "expected `{` after `\\u`"));
                    }
                    let mut v: u32 = 0;
                    let mut n = 0;
                    loop {
                        match self.bump() {
                            Some('}') => break,
                            Some(c) if c.is_ascii_hexdigit() && n < 6 => {
                                v = v * 16 + c.to_digit(16).unwrap_or(0);
                                n += 1;
                            }
                            _ => return Err(bad(self, "`\\u{…}` takes 1 to 6 hex digits")),
                        }
                    }
                    if n == 0 || char::from_u32(v).is_none() {
                        return Err(bad(self, "`\\u{…}` is not a Unicode scalar value"));
                    }
                }
                _ => return Err(bad(self, "unknown escape")),
            },
            Some(_) => {}
        }
        if self.bump() != Some('\'') {
            return Err(bad(self, "expected a closing `'`"));
        }
        Ok(Tok::Char)
    }

    fn number(&mut self, start: Pos) -> Result<Tok, Diagnostic> {
        let mut text = String::new();
        while let Some(c) = self.peek(0).filter(char::is_ascii_digit) {
            text.push(c);
            self.bump();
        }
        if self.peek(0) == Some('.') && self.peek(1).is_some_and(|c| c.is_ascii_digit()) {
            self.bump();
            while self.peek(0).is_some_and(|c| c.is_ascii_digit()) {
                self.bump();
            }
            self.float_suffix();
            return Ok(Tok::Float);
        }
        if self.float_suffix() {
            return Ok(Tok::Float);
        }
        // A type suffix is the identifier that follows the digits directly.
        let mut k = 0;
        let mut word = String::new();
        while let Some(c) = self
            .peek(k)
            .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        {
            word.push(c);
            k += 1;
        }
        let suffix = INT_SUFFIXES.iter().find(|(name, _)| *name == word);
        if suffix.is_some() {
            for _ in 0..k {
                self.bump();
            }
        }
        let (ty, max) = suffix.copied().unwrap_or(("i64", UNSUFFIXED_MAX));
        let value = text
            .bytes()
            .try_fold(0u128, |v, d| {
                v.checked_mul(10)?.checked_add(u128::from(d - b'0'))
            })
            .filter(|v| *v <= max);
        match value {
            Some(v) => Ok(Tok::Int(v)),
            None if suffix.is_none() => Err(self.err(
                codes::INTEGER_RANGE,
                "syntax.integer_range",
                format!("integer literal `{text}` does not fit in an i64"),
                self.since(start),
            )),
            None => Err(self
                .err(
                    codes::INTEGER_RANGE,
                    "syntax.integer_range",
                    format!("integer literal `{text}{ty}` does not fit in its type `{ty}`"),
                    self.since(start),
                )
                .with_help(format!(
                    "a `{ty}` literal is at most {max}{}; use a wider type suffix",
                    if ty.starts_with('i') {
                        " in magnitude"
                    } else {
                        ""
                    }
                ))),
        }
    }

    /// Consumes an `f32` or `f64` suffix directly after a number.
    fn float_suffix(&mut self) -> bool {
        let is_suffix = self.peek(0) == Some('f')
            && matches!(
                (self.peek(1), self.peek(2)),
                (Some('3'), Some('2')) | (Some('6'), Some('4'))
            )
            && !self
                .peek(3)
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        if is_suffix {
            self.bump();
            self.bump();
            self.bump();
        }
        is_suffix
    }

    fn next(&mut self) -> Result<Token, Diagnostic> {
        loop {
            match self.peek(0) {
                Some(c) if c.is_whitespace() => {
                    self.bump();
                }
                Some('\u{feff}') if self.i == 0 => {
                    self.bump();
                }
                Some('/') if self.peek(1) == Some('/') => {
                    while self.peek(0).is_some_and(|c| c != '\n') {
                        self.bump();
                    }
                }
                _ => break,
            }
        }
        let pos = self.pos();
        let Some(c) = self.peek(0) else {
            return Ok(Token { tok: Tok::Eof, pos });
        };
        let tok = if c.is_ascii_alphabetic() || c == '_' {
            let mut s = String::new();
            while let Some(c) = self
                .peek(0)
                .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
            {
                s.push(c);
                self.bump();
            }
            Tok::Ident(s)
        } else if c.is_ascii_digit() {
            self.number(pos)?
        } else if c == '"' {
            self.bump();
            self.string(pos)?
        } else if c == '\'' {
            self.bump();
            self.char_lit(pos)?
        } else {
            let p = PUNCT.iter().find(|p| {
                p.chars()
                    .enumerate()
                    .all(|(k, pc)| self.peek(k) == Some(pc))
            });
            match p {
                Some(p) => {
                    for _ in 0..p.chars().count() {
                        self.bump();
                    }
                    Tok::Punct(p)
                }
                None => {
                    self.bump();
                    Tok::Unknown(c)
                }
            }
        };
        Ok(Token {
            tok,
            pos: self.since(pos),
        })
    }
}

/// Splits `text` into tokens, ending with one [`Tok::Eof`].
pub(crate) fn lex(path: &str, text: &str) -> Result<Vec<Token>, Diagnostic> {
    let mut l = Lexer {
        path,
        chars: text.chars().collect(),
        i: 0,
        byte: 0,
        line: 1,
        column: 1,
    };
    let mut out = Vec::new();
    loop {
        let t = l.next()?;
        let eof = t.tok == Tok::Eof;
        out.push(t);
        if eof {
            return Ok(out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        lex("t.spx", s)
            .unwrap()
            .into_iter()
            .map(|t| t.tok)
            .collect()
    }

    /// Every token covers exactly its bytes, multi-byte text included, and
    /// a refusal covers what was read of the bad literal.
    #[test]
    fn tokens_carry_byte_spans() {
        // `é` starts no token: its token (refused where the reader is
        // strict, SPX-P001) covers its two bytes.
        let t = lex("t.spx", "é x").unwrap();
        assert_eq!(t[0].tok, Tok::Unknown('é'));
        assert_eq!(
            t[0].pos.location("t.spx"),
            crate::diag::Location::Source {
                path: "t.spx".into(),
                line: 1,
                column: 1,
                span: Some(crate::diag::Span { start: 0, end: 2 }),
            }
        );
        let text = "x_1 \"aé\" 'b' 12 :: //c\n}";
        let got: Vec<(u32, u32, u32, u32)> = lex("t.spx", text)
            .unwrap()
            .iter()
            .map(|t| (t.pos.line, t.pos.column, t.pos.start, t.pos.end))
            .collect();
        assert_eq!(
            got,
            vec![
                (1, 1, 0, 3),
                (1, 5, 4, 9),
                (1, 10, 10, 13),
                (1, 14, 14, 16),
                (1, 17, 17, 19),
                (2, 1, 24, 25),
                (2, 2, 25, 25),
            ]
        );
        let bad = lex("t.spx", "x \"a\\q\"").unwrap_err();
        assert_eq!(bad.rule, "syntax.string_escape");
        assert_eq!(
            bad.location,
            crate::diag::Location::Source {
                path: "t.spx".into(),
                line: 1,
                column: 5,
                span: Some(crate::diag::Span { start: 4, end: 6 }),
            }
        );
    }

    #[test]
    fn punctuation_and_literals() {
        assert_eq!(
            toks("a::b -> => <= >= != == && || '}' \"}//\" 1.5f32 7 // x }"),
            vec![
                Tok::Ident("a".into()),
                Tok::Punct("::"),
                Tok::Ident("b".into()),
                Tok::Punct("->"),
                Tok::Punct("=>"),
                Tok::Punct("<="),
                Tok::Punct(">="),
                Tok::Punct("!="),
                Tok::Punct("=="),
                Tok::Punct("&&"),
                Tok::Punct("||"),
                Tok::Char,
                Tok::Str("}//".into()),
                Tok::Float,
                Tok::Int(7),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn positions_count_characters() {
        let t = lex("t.spx", "\"é\" x\n  \"a\nb\" y").unwrap();
        let p: Vec<(u32, u32)> = t.iter().map(|t| (t.pos.line, t.pos.column)).collect();
        assert_eq!(p, vec![(1, 1), (1, 5), (2, 3), (3, 4), (3, 5)]);
    }

    #[test]
    fn char_escapes() {
        for ok in [
            r"'\n'",
            r"'\0'",
            r"'\''",
            r"'\\'",
            r"'\u{1F600}'",
            r"'\u{0}'",
        ] {
            assert_eq!(toks(ok), vec![Tok::Char, Tok::Eof], "{ok}");
        }
        for bad in [
            r"'\q'",
            r"'\u{}'",
            r"'\u{1234567}'",
            r"'\u{D800}'",
            "''",
            "'ab'",
            "'a",
        ] {
            let e = lex("t.spx", bad).unwrap_err();
            assert_eq!(e.rule, "syntax.char_literal", "{bad}");
        }
    }

    #[test]
    fn unicode_escapes_in_strings() {
        assert_eq!(
            toks(r#""a\u{41}\u{1f600}\u{0}\u{10FFFF}""#),
            vec![Tok::Str("aA\u{1f600}\u{0}\u{10ffff}".into()), Tok::Eof]
        );
        for bad in [
            r#""\u{}""#,
            r#""\u{1234567}""#,
            r#""\u{D800}""#,
            r#""\u{110000}""#,
            r#""\u41""#,
            r#""\u{4g}""#,
            r#""\u{41""#,
        ] {
            let e = lex("t.spx", bad).unwrap_err();
            assert_eq!(
                (e.code, e.rule),
                (codes::STRING_ESCAPE, "syntax.string_escape"),
                "{bad}"
            );
            assert!(e.help.is_some(), "{bad}");
            // Located at the backslash.
            assert!(
                e.location.to_string().starts_with("t.spx:1:2"),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn integer_suffixes_and_ranges() {
        assert_eq!(
            toks("0usize 255u8 7i32 18446744073709551615usize 9223372036854775808 128i8 1f32 2.5f64 3x"),
            vec![
                Tok::Int(0),
                Tok::Int(255),
                Tok::Int(7),
                Tok::Int(u128::from(u64::MAX)),
                Tok::Int(1 << 63),
                Tok::Int(128),
                Tok::Float,
                Tok::Float,
                Tok::Int(3),
                Tok::Ident("x".into()),
                Tok::Eof
            ]
        );
        for (bad, msg) in [
            (
                "256u8",
                "integer literal `256u8` does not fit in its type `u8`",
            ),
            (
                "18446744073709551616usize",
                "integer literal `18446744073709551616usize` does not fit in its type `usize`",
            ),
            (
                "129i8",
                "integer literal `129i8` does not fit in its type `i8`",
            ),
            (
                "9223372036854775809",
                "integer literal `9223372036854775809` does not fit in an i64",
            ),
        ] {
            let e = lex("t.spx", bad).unwrap_err();
            assert_eq!(
                (e.code, e.rule, e.message.as_str()),
                (codes::INTEGER_RANGE, "syntax.integer_range", msg)
            );
            assert_eq!(e.location.to_string(), "t.spx:1:1");
        }
        assert!(lex("t.spx", "256u8").unwrap_err().help.is_some());
    }

    #[test]
    fn unknown_characters_are_tokens() {
        assert_eq!(
            toks("a | b # c & d"),
            vec![
                Tok::Ident("a".into()),
                Tok::Punct("|"),
                Tok::Ident("b".into()),
                Tok::Unknown('#'),
                Tok::Ident("c".into()),
                Tok::Unknown('&'),
                Tok::Ident("d".into()),
                Tok::Eof
            ]
        );
    }
}
