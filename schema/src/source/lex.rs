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
    Str(String),
    Char,
    Int(i64),
    Float,
    Punct(&'static str),
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

/// Punctuation, longest first so that `::` wins over `:`.
const PUNCT: [&str; 30] = [
    "::", "->", "=>", "==", "!=", "<=", ">=", "&&", "||", "@", "(", ")", "{", "}", "[", "]", ":",
    ".", ",", ";", "=", "<", ">", "+", "-", "*", "/", "%", "?", "!",
];

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
            if self.peek(0) == Some('f')
                && self.peek(1) == Some('3')
                && self.peek(2) == Some('2')
                && !self
                    .peek(3)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
            {
                self.bump();
                self.bump();
                self.bump();
            }
            return Ok(Tok::Float);
        }
        text.parse::<i64>().map(Tok::Int).map_err(|_| {
            self.err(
                codes::INTEGER_RANGE,
                "syntax.integer_range",
                format!("integer literal `{text}` does not fit in an i64"),
                self.since(start),
            )
        })
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
                    let mut at = pos;
                    at.end = at.start + c.len_utf8() as u32;
                    return Err(self.err(
                        codes::UNEXPECTED_CHARACTER,
                        "syntax.unexpected_character",
                        format!("unexpected character `{}`", c.escape_debug()),
                        at,
                    ));
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
        // `é` starts no token: the refusal covers its two bytes.
        assert_eq!(
            lex("t.spx", "é x").unwrap_err().location,
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
}
