//! The `.spx` parser: the module header, the modelled items (record,
//! variant, class fields, resource) and structural skipping of everything
//! else. It produces an unresolved syntax tree; [`super::check`] resolves
//! names and runs the declaration checks.
//!
//! Inside the modelled declarations the parser is strict. Outside them an
//! item it does not model is skipped by balanced delimiters (or up to its
//! `;`): known items (`fn`, `impl`, `law`, …) silently, anything else with
//! a note (SPX-N001), never with an error as long as the delimiters
//! balance.

use super::codes;
use super::lex::{error, Tok, Token};
use super::model::{DeclKind, Pos};
use crate::diag::{Code, Diagnostic};

/// A note: the reader skipped something it does not model (`spx check
/// --verbose` shows them).
fn note(path: &str, rule: &'static str, msg: String, pos: Pos, help: &str) -> Diagnostic {
    Diagnostic::note(codes::SKIPPED, rule, msg)
        .at(pos.location(path))
        .with_help(help)
}

/// A type as written, names not yet resolved.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum RawType {
    Named {
        name: String,
        args: Vec<RawType>,
        pos: Pos,
    },
    Array {
        elem: Box<RawType>,
        len: u64,
    },
    Fn {
        params: Vec<RawType>,
        ret: Option<Box<RawType>>,
    },
}

/// `@id("…")` as written: the id and where its string literal is.
pub(crate) type RawId = Option<(String, Pos)>;

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RawField {
    pub id: RawId,
    pub name: String,
    pub pos: Pos,
    pub ty: RawType,
    pub ty_pos: Pos,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RawCase {
    pub id: RawId,
    pub name: String,
    pub pos: Pos,
    pub fields: Vec<RawField>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RawDecl {
    pub kind: DeclKind,
    pub id: RawId,
    pub name: String,
    pub pos: Pos,
    pub params: Vec<(String, Pos)>,
    pub fields: Vec<RawField>,
    pub cases: Vec<RawCase>,
}

/// `use type|function|protocol @id("…") from a.b as Alias;`
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RawUse {
    /// `type`, `function` or `protocol`.
    pub kind: String,
    pub id: String,
    /// The module path after `from`.
    pub from: String,
    pub alias: String,
    /// Where the `use` keyword is.
    pub pos: Pos,
    /// The whole clause, from `use` to its end.
    pub clause: Pos,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RawModule {
    pub name: String,
    pub name_pos: Pos,
    pub uses: Vec<RawUse>,
    pub decls: Vec<RawDecl>,
    /// What was skipped without being known (SPX-N001).
    pub notes: Vec<Diagnostic>,
}

/// The keywords of the declarations the reader models (strict).
const MODELLED: [&str; 4] = ["record", "variant", "class", "resource"];

/// Where a skip ends (besides the next item at depth 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ends {
    /// Only at the next item.
    AtItem,
    /// Also after a `;` at depth 0 (`law` items).
    Semicolon,
    /// Also after a `;` at depth 0 or after a `{…}` group closes at depth
    /// 0 (an unknown item).
    SemicolonOrBlock,
    /// Exactly one balanced group: `(…)`, `[…]` or `{…}` (a resource body,
    /// an attribute's arguments).
    Group,
}

const ITEM_KEYWORDS: [&str; 11] = [
    "record",
    "variant",
    "class",
    "resource",
    "interface",
    "protocol",
    "session",
    "agent",
    "impl",
    "fn",
    "law",
];

/// Type expressions nest at most this deep (no input may exhaust the stack).
const MAX_TYPE_NESTING: usize = 32;

struct Parser<'a> {
    path: &'a str,
    toks: &'a [Token],
    i: usize,
    nesting: usize,
    notes: Vec<Diagnostic>,
}

type PResult<T> = Result<T, Diagnostic>;

fn ident_is(t: &Tok, word: &str) -> bool {
    matches!(t, Tok::Ident(s) if s == word)
}

impl Parser<'_> {
    fn tok(&self, k: usize) -> &Tok {
        // The token list always ends with Eof; clamp to it.
        self.toks
            .get(self.i + k)
            .or_else(|| self.toks.last())
            .map_or(&Tok::Eof, |t| &t.tok)
    }

    fn pos(&self) -> Pos {
        self.toks.get(self.i).or_else(|| self.toks.last()).map_or(
            Pos {
                line: 1,
                column: 1,
                ..Pos::default()
            },
            |t| t.pos,
        )
    }

    /// The position of the token just consumed (the current one at the
    /// start).
    fn last(&self) -> Pos {
        match self.i.checked_sub(1).and_then(|k| self.toks.get(k)) {
            Some(t) => t.pos,
            None => self.pos(),
        }
    }

    fn advance(&mut self) {
        if self.i < self.toks.len().saturating_sub(1) {
            self.i += 1;
        }
    }

    fn err(&self, code: Code, rule: &'static str, msg: String, pos: Pos) -> Diagnostic {
        error(self.path, code, rule, msg, pos)
    }

    fn unexpected(&self, expected: &str) -> Diagnostic {
        if let Tok::Unknown(c) = self.tok(0) {
            return self.err(
                codes::UNEXPECTED_CHARACTER,
                "syntax.unexpected_character",
                format!("unexpected character `{}`", c.escape_debug()),
                self.pos(),
            );
        }
        self.err(
            codes::UNEXPECTED_TOKEN,
            "syntax.unexpected_token",
            format!("expected {expected}, found {}", self.tok(0).describe()),
            self.pos(),
        )
    }

    /// The missing `,` after a field or case (`what`) spanning `item`:
    /// located just after its last character, where the comma goes.
    fn missing_comma(&self, what: &str, rule: &str, item: Pos) -> Diagnostic {
        let d = self.unexpected(&format!("`,` after the {what} ({rule})"));
        let last = self.last();
        // Tokens that end a field or case (names, `>`, `]`, `}`) are ASCII:
        // their byte length is their width in characters.
        let at = Pos {
            line: last.line,
            column: last.column + (last.end - last.start),
            start: item.end,
            end: item.end,
        };
        d.at(at.location(self.path))
            .with_help(format!("add `,` here, at the end of the {what}"))
    }

    fn is_punct(&self, k: usize, p: &str) -> bool {
        matches!(self.tok(k), Tok::Punct(q) if *q == p)
    }

    fn eat_punct(&mut self, p: &str) -> bool {
        if self.is_punct(0, p) {
            self.advance();
            true
        } else {
            false
        }
    }

    fn expect_punct(&mut self, p: &str, what: &str) -> PResult<()> {
        if self.eat_punct(p) {
            Ok(())
        } else {
            Err(self.unexpected(&format!("`{p}` {what}")))
        }
    }

    fn ident(&mut self, what: &str) -> PResult<(String, Pos)> {
        match self.tok(0) {
            Tok::Ident(s) => {
                let out = (s.clone(), self.pos());
                self.advance();
                Ok(out)
            }
            _ => Err(self.unexpected(what)),
        }
    }

    fn keyword(&mut self, word: &str) -> PResult<()> {
        if ident_is(self.tok(0), word) {
            self.advance();
            Ok(())
        } else {
            Err(self.unexpected(&format!("`{word}`")))
        }
    }

    fn path(&mut self, what: &str) -> PResult<String> {
        let (mut s, _) = self.ident(what)?;
        while self.is_punct(0, ".") {
            self.advance();
            let (seg, _) = self.ident("a path segment after `.`")?;
            s.push('.');
            s.push_str(&seg);
        }
        Ok(s)
    }

    /// True when the next tokens begin an item (the skipping boundary).
    fn at_item_start(&self) -> bool {
        match self.tok(0) {
            Tok::Eof => true,
            Tok::Punct("@") => true,
            Tok::Ident(k) if ITEM_KEYWORDS.contains(&k.as_str()) => match self.tok(1) {
                Tok::Ident(_) => true,
                Tok::Punct("<") => k == "impl",
                _ => false,
            },
            _ => false,
        }
    }

    /// True when the next tokens begin a member of a class body, or close it.
    fn at_class_member_start(&self) -> bool {
        match self.tok(0) {
            Tok::Eof | Tok::Punct("}") | Tok::Punct("@") => true,
            Tok::Ident(k) if k == "fn" => matches!(self.tok(1), Tok::Ident(_)),
            Tok::Ident(_) => self.is_punct(1, ":"),
            _ => false,
        }
    }

    /// Skips tokens, keeping (), [] and {} balanced, until `stop` holds at
    /// depth 0 (or, by `ends`, just after a `;` or a `{…}` group at depth
    /// 0). Always consumes at least one token. A character the lexer does
    /// not know is skipped like any token, with a note (the first one of
    /// this skip).
    fn skip(&mut self, stop: fn(&Self) -> bool, ends: Ends) -> PResult<()> {
        let mut stack: Vec<(&'static str, Pos)> = Vec::new();
        let mut first = true;
        let mut noted = false;
        loop {
            if stack.is_empty() && !first && stop(self) {
                return Ok(());
            }
            first = false;
            let pos = self.pos();
            match self.tok(0) {
                Tok::Eof => {
                    return match stack.last() {
                        Some((open, at)) => Err(self.err(
                            codes::UNBALANCED,
                            "syntax.unbalanced_delimiter",
                            format!("this `{open}` is never closed"),
                            *at,
                        )),
                        None => Ok(()),
                    }
                }
                Tok::Punct(p @ ("(" | "[" | "{")) => stack.push((p, pos)),
                Tok::Punct(p @ (")" | "]" | "}")) => {
                    let want = match *p {
                        ")" => "(",
                        "]" => "[",
                        _ => "{",
                    };
                    match stack.pop() {
                        Some((open, _)) if open == want => {
                            let block = *p == "}" && ends == Ends::SemicolonOrBlock;
                            if stack.is_empty() && (block || ends == Ends::Group) {
                                self.advance();
                                if block {
                                    self.eat_punct(";");
                                }
                                return Ok(());
                            }
                        }
                        Some((open, at)) => {
                            return Err(self.err(
                                codes::UNBALANCED,
                                "syntax.unbalanced_delimiter",
                                format!(
                                    "`{p}` does not close the `{open}` opened at {}:{}",
                                    at.line, at.column
                                ),
                                pos,
                            ))
                        }
                        None => {
                            return Err(self.err(
                                codes::UNBALANCED,
                                "syntax.unbalanced_delimiter",
                                format!("unexpected closing `{p}`"),
                                pos,
                            ))
                        }
                    }
                }
                Tok::Punct(";")
                    if stack.is_empty()
                        && matches!(ends, Ends::Semicolon | Ends::SemicolonOrBlock) =>
                {
                    self.advance();
                    return Ok(());
                }
                Tok::Unknown(c) if !noted => {
                    noted = true;
                    let msg = format!(
                        "skipped the character `{}`, which the reader does not know, inside a construct it skips",
                        c.escape_debug()
                    );
                    self.notes.push(note(
                        self.path,
                        "syntax.unknown_character",
                        msg,
                        pos,
                        "nothing to do if this is valid semaprax: only record, variant, class and resource declarations are read strictly",
                    ));
                }
                _ => {}
            }
            self.advance();
        }
    }

    /// Skips an item the reader does not know (its first token is not an
    /// item keyword), with a note covering what was skipped.
    fn skip_unknown_item(&mut self) -> PResult<()> {
        let start = self.pos();
        let what = self.tok(0).describe();
        // The keywords of other languages for what a schema needs: the
        // item is skipped, so say what a schema would need instead.
        let help = match self.tok(0) {
            Tok::Ident(k) if k == "enum" => "if this is meant as a schema type, write `variant`: a `.spx` enum is a `variant`, each case with an `@id`; otherwise nothing to do: the reader skips items it does not know by their delimiters",
            Tok::Ident(k) if k == "struct" => "if this is meant as a schema type, write `record`: a `.spx` struct is a `record`, each field with an `@id`; otherwise nothing to do: the reader skips items it does not know by their delimiters",
            _ => "nothing to do if this is valid semaprax: a schema needs only record, variant, class and resource declarations, so the reader skips other items by their delimiters",
        };
        self.skip(Self::at_item_start, Ends::SemicolonOrBlock)?;
        let msg = format!("skipped an item the reader does not know, starting with {what}");
        self.notes.push(note(
            self.path,
            "syntax.unknown_item",
            msg,
            start.to(self.last()),
            help,
        ));
        Ok(())
    }

    /// After a failed `@id`: true when the attributes, read leniently,
    /// stand before a modelled declaration (or nothing), where the error
    /// stands; false when they stand before an item that is skipped.
    fn attributes_before_modelled(&mut self) -> bool {
        while self.eat_punct("@") {
            if matches!(self.tok(0), Tok::Ident(_)) {
                self.advance();
            }
            if self.is_punct(0, "(") && self.skip(|_| false, Ends::Group).is_err() {
                return true;
            }
        }
        match self.tok(0) {
            Tok::Eof => true,
            Tok::Ident(k) => MODELLED.contains(&k.as_str()),
            _ => false,
        }
    }

    /// `@name(args)`: only `@id("…")` is known.
    fn attribute(&mut self) -> PResult<(String, Pos)> {
        self.expect_punct("@", "")?;
        let (name, name_pos) = self.ident("an attribute name after `@`")?;
        if name != "id" {
            return Err(self.err(
                codes::UNKNOWN_ATTRIBUTE,
                "attribute.unknown",
                format!("unknown attribute `@{name}` (the only attribute is `@id(\"…\")`)"),
                name_pos,
            ));
        }
        let bad = |p: &Self, pos: Pos| {
            p.err(
                codes::ATTRIBUTE_ARGUMENT,
                "attribute.argument",
                "`@id` takes exactly one string literal: `@id(\"…\")`".to_owned(),
                pos,
            )
        };
        if !self.eat_punct("(") {
            return Err(bad(self, self.pos()));
        }
        let id_pos = self.pos();
        let id = match self.tok(0) {
            Tok::Str(s) => s.clone(),
            _ => return Err(bad(self, id_pos)),
        };
        self.advance();
        if !self.eat_punct(")") {
            return Err(bad(self, self.pos()));
        }
        Ok((id, id_pos))
    }

    /// Zero or one `@id` before an item, field or case.
    fn id_attr(&mut self) -> PResult<RawId> {
        if !self.is_punct(0, "@") {
            return Ok(None);
        }
        let first = self.attribute()?;
        if self.is_punct(0, "@") {
            let pos = self.pos();
            self.attribute()?;
            return Err(self.err(
                codes::DUPLICATE_ATTRIBUTE,
                "attribute.duplicate",
                "more than one `@id` on one declaration".to_owned(),
                pos,
            ));
        }
        Ok(Some(first))
    }

    fn type_list(&mut self, close: &str) -> PResult<Vec<RawType>> {
        let mut out = Vec::new();
        while !self.is_punct(0, close) {
            out.push(self.ty()?);
            if !self.eat_punct(",") {
                break;
            }
        }
        self.expect_punct(close, "to close the type list")?;
        Ok(out)
    }

    fn ty(&mut self) -> PResult<RawType> {
        if self.nesting >= MAX_TYPE_NESTING {
            return Err(self.err(
                codes::NESTING,
                "syntax.type_nesting",
                format!("type expression nested deeper than {MAX_TYPE_NESTING} levels"),
                self.pos(),
            ));
        }
        self.nesting += 1;
        let out = self.ty_inner();
        self.nesting -= 1;
        out
    }

    fn ty_inner(&mut self) -> PResult<RawType> {
        let pos = self.pos();
        match self.tok(0) {
            Tok::Ident(k) if k == "fn" && self.is_punct(1, "(") => {
                self.advance();
                self.advance();
                let params = self.type_list(")")?;
                let ret = if self.eat_punct("->") {
                    Some(Box::new(self.ty()?))
                } else {
                    None
                };
                Ok(RawType::Fn { params, ret })
            }
            Tok::Ident(name) => {
                let name = name.clone();
                self.advance();
                let args = if self.eat_punct("<") {
                    self.type_list(">")?
                } else {
                    Vec::new()
                };
                Ok(RawType::Named { name, args, pos })
            }
            Tok::Punct("[") => {
                self.advance();
                let elem = self.ty()?;
                self.expect_punct(";", "in a fixed array type `[T; N]`")?;
                let len = match self.tok(0) {
                    Tok::Int(n) => u64::try_from(*n).unwrap_or(0),
                    _ => return Err(self.unexpected("an array length")),
                };
                self.advance();
                self.expect_punct("]", "to close the array type")?;
                Ok(RawType::Array {
                    elem: Box::new(elem),
                    len,
                })
            }
            _ => Err(self.unexpected("a type")),
        }
    }

    fn generics(&mut self) -> PResult<Vec<(String, Pos)>> {
        let mut out = Vec::new();
        if !self.eat_punct("<") {
            return Ok(out);
        }
        while !self.is_punct(0, ">") {
            out.push(self.ident("a type parameter name")?);
            if !self.eat_punct(",") {
                break;
            }
        }
        self.expect_punct(">", "to close the type parameters")?;
        Ok(out)
    }

    /// `[@id] name: Type,` (the comma is optional before the closing `}`).
    fn field(&mut self) -> PResult<RawField> {
        let id = self.id_attr()?;
        let (name, pos) = self.ident("a field name")?;
        self.expect_punct(":", "after the field name")?;
        let ty_start = self.pos();
        let ty = self.ty()?;
        let ty_pos = ty_start.to(self.last());
        if !self.eat_punct(",") && !self.is_punct(0, "}") {
            return Err(self.missing_comma(
                "field",
                "a comma separates fields; only the last may omit it",
                ty_start.to(self.last()),
            ));
        }
        Ok(RawField {
            id,
            name,
            pos,
            ty,
            ty_pos,
        })
    }

    fn fields(&mut self) -> PResult<Vec<RawField>> {
        self.expect_punct("{", "to open the fields")?;
        let mut out = Vec::new();
        while !self.eat_punct("}") {
            out.push(self.field()?);
        }
        Ok(out)
    }

    fn cases(&mut self) -> PResult<Vec<RawCase>> {
        self.expect_punct("{", "to open the cases")?;
        let mut out = Vec::new();
        while !self.eat_punct("}") {
            let id = self.id_attr()?;
            let (name, pos) = self.ident("a case name")?;
            let fields = if self.is_punct(0, "{") {
                self.fields()?
            } else {
                Vec::new()
            };
            if !self.eat_punct(",") {
                return Err(self.missing_comma(
                    "case",
                    "a comma after every case is mandatory",
                    pos.to(self.last()),
                ));
            }
            out.push(RawCase {
                id,
                name,
                pos,
                fields,
            });
        }
        Ok(out)
    }

    /// A class body: fields are kept, methods skipped.
    fn class_body(&mut self) -> PResult<Vec<RawField>> {
        self.expect_punct("{", "to open the class body")?;
        let mut out = Vec::new();
        loop {
            if self.eat_punct("}") {
                return Ok(out);
            }
            let save = self.i;
            let id = self.id_attr()?;
            if ident_is(self.tok(0), "fn") && matches!(self.tok(1), Tok::Ident(_)) {
                self.skip(Self::at_class_member_start, Ends::AtItem)?;
                continue;
            }
            if matches!(self.tok(0), Tok::Ident(_)) && self.is_punct(1, ":") {
                self.i = save;
                out.push(self.field()?);
                continue;
            }
            let _ = id;
            return Err(self.unexpected("a field, a method (`fn`) or `}` in the class body"));
        }
    }

    fn module(&mut self) -> PResult<RawModule> {
        self.keyword("module")
            .map_err(|_| self.unexpected("`module a.b.c;` first"))?;
        let name_start = self.pos();
        let name = self.path("a module path")?;
        let name_pos = name_start.to(self.last());
        self.eat_punct(";");

        let mut uses = Vec::new();
        while ident_is(self.tok(0), "use") {
            let pos = self.pos();
            self.advance();
            let kind = match self.tok(0) {
                Tok::Ident(k) if matches!(k.as_str(), "type" | "function" | "protocol") => {
                    k.clone()
                }
                _ => return Err(self.unexpected("`type`, `function` or `protocol` after `use`")),
            };
            self.advance();
            if !self.is_punct(0, "@") {
                return Err(self.unexpected("`@id(\"…\")` in the `use` clause"));
            }
            let (id, _) = self.attribute()?;
            self.keyword("from")?;
            let from = self.path("a module path after `from`")?;
            self.keyword("as")?;
            let (alias, _) = self.ident("an alias name after `as`")?;
            self.eat_punct(";");
            uses.push(RawUse {
                kind,
                id,
                from,
                alias,
                pos,
                clause: pos.to(self.last()),
            });
        }

        if ident_is(self.tok(0), "permit") && self.is_punct(1, "{") {
            self.advance();
            self.skip(|_| false, Ends::Group)?;
        }

        let mut decls = Vec::new();
        loop {
            if *self.tok(0) == Tok::Eof {
                return Ok(RawModule {
                    name,
                    name_pos,
                    uses,
                    decls,
                    notes: std::mem::take(&mut self.notes),
                });
            }
            let item = self.i;
            let id = match self.id_attr() {
                Ok(id) => id,
                Err(e) => {
                    // An attribute the reader does not know stands on an
                    // item it skips: skip both.
                    self.i = item;
                    if self.attributes_before_modelled() {
                        return Err(e);
                    }
                    self.i = item;
                    self.skip_unknown_item()?;
                    continue;
                }
            };
            let kind = match self.tok(0) {
                Tok::Ident(k) if self.at_item_start() => match k.as_str() {
                    "record" => Some(DeclKind::Record),
                    "variant" => Some(DeclKind::Variant),
                    "class" => Some(DeclKind::Class),
                    "resource" => Some(DeclKind::Resource),
                    _ => None,
                },
                Tok::Ident(k) if MODELLED.contains(&k.as_str()) => {
                    let what = format!("a name after `{k}`");
                    self.advance();
                    return Err(self.unexpected(&what));
                }
                Tok::Ident(k) if k == "use" || k == "permit" => {
                    return Err(self.unexpected(
                        "an item (`use` and `permit` are only allowed before the first item)",
                    ))
                }
                _ => {
                    self.skip_unknown_item()?;
                    continue;
                }
            };
            let Some(kind) = kind else {
                // `law` items end at their `;`; the other known items at
                // the next item.
                let ends = if ident_is(self.tok(0), "law") {
                    Ends::Semicolon
                } else {
                    Ends::AtItem
                };
                self.skip(Self::at_item_start, ends)?;
                continue;
            };
            self.advance();
            let (name, pos) = self.ident("a name")?;
            let params = self.generics()?;
            let mut decl = RawDecl {
                kind,
                id,
                name,
                pos,
                params,
                fields: Vec::new(),
                cases: Vec::new(),
            };
            match kind {
                DeclKind::Record => decl.fields = self.fields()?,
                DeclKind::Variant => decl.cases = self.cases()?,
                DeclKind::Class => {
                    // `class Dog : Animal { … }`: the bases are types.
                    if self.eat_punct(":") {
                        loop {
                            self.ty()?;
                            if !self.eat_punct(",") {
                                break;
                            }
                        }
                    }
                    decl.fields = self.class_body()?;
                }
                DeclKind::Resource => {
                    if !self.eat_punct(";") {
                        if !self.is_punct(0, "{") {
                            return Err(self.unexpected("`;` or `{` after the resource name"));
                        }
                        self.skip(|_| false, Ends::Group)?;
                        self.eat_punct(";");
                    }
                }
            }
            decls.push(decl);
        }
    }
}

/// Parses a token list (ending with Eof). Stops at the first syntax error.
pub(crate) fn parse(path: &str, toks: &[Token]) -> Result<RawModule, Diagnostic> {
    Parser {
        path,
        toks,
        i: 0,
        nesting: 0,
        notes: Vec::new(),
    }
    .module()
}
