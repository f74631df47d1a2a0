//! The checked model of one `.spx` module: every type declaration, exactly
//! as far as derivation needs it. Everything else in the module is skipped.

use crate::diag::Diagnostic;

/// A place in the source: where a token or construct starts (1-based line
/// and column, in characters) and the byte range it covers, so that a
/// diagnostic can underline exactly that text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Pos {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in Unicode scalar values.
    pub column: u32,
    /// Byte offset of the first byte.
    pub start: u32,
    /// Byte offset one past the last byte (`start` for an empty range).
    pub end: u32,
}

impl Pos {
    /// The byte range as a [`crate::diag::Span`].
    pub const fn span(self) -> crate::diag::Span {
        crate::diag::Span {
            start: self.start as usize,
            end: self.end as usize,
        }
    }

    /// This position extended to the end of `last` (a construct from this
    /// token to that one).
    pub const fn to(self, last: Pos) -> Pos {
        Pos {
            end: if last.end > self.end {
                last.end
            } else {
                self.end
            },
            ..self
        }
    }

    /// The location of this position in the file `path`.
    pub fn location(self, path: &str) -> crate::diag::Location {
        crate::diag::Location::Source {
            path: path.to_owned(),
            line: self.line,
            column: self.column,
            span: Some(self.span()),
        }
    }
}

/// The kind of a modelled declaration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DeclKind {
    /// `record`
    Record,
    /// `variant`
    Variant,
    /// `class`
    Class,
    /// `resource`
    Resource,
}

impl DeclKind {
    /// The keyword, also used in automatic identities (`auto:record:…`).
    pub const fn keyword(self) -> &'static str {
        match self {
            DeclKind::Record => "record",
            DeclKind::Variant => "variant",
            DeclKind::Class => "class",
            DeclKind::Resource => "resource",
        }
    }
}

/// A builtin type name in field position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Builtin {
    /// `bool`
    Bool,
    /// `i32`
    I32,
    /// `i64`
    I64,
    /// `u8`
    U8,
    /// `usize`
    Usize,
    /// `u32` (today's language; not a scalar of FORMAT.md §3)
    U32,
    /// `string`
    String,
    /// `Bytes`
    Bytes,
    /// `char`
    Char,
    /// `f32`
    F32,
    /// `f64`
    F64,
    /// `str`
    Str,
}

impl Builtin {
    /// The builtin named `name`, if any.
    pub fn from_name(name: &str) -> Option<Builtin> {
        Some(match name {
            "bool" => Builtin::Bool,
            "i32" => Builtin::I32,
            "i64" => Builtin::I64,
            "u8" => Builtin::U8,
            "usize" => Builtin::Usize,
            "u32" => Builtin::U32,
            "string" => Builtin::String,
            "Bytes" => Builtin::Bytes,
            "char" => Builtin::Char,
            "f32" => Builtin::F32,
            "f64" => Builtin::F64,
            "str" => Builtin::Str,
            _ => return None,
        })
    }

    /// True for the Copy scalars of semaprax "Copy Variants"
    /// (`bool i32 i64 u8 usize u32 char f32 f64`).
    pub const fn is_copy_scalar(self) -> bool {
        !matches!(self, Builtin::String | Builtin::Bytes | Builtin::Str)
    }

    /// The name as written in source.
    pub const fn name(self) -> &'static str {
        match self {
            Builtin::Bool => "bool",
            Builtin::I32 => "i32",
            Builtin::I64 => "i64",
            Builtin::U8 => "u8",
            Builtin::Usize => "usize",
            Builtin::U32 => "u32",
            Builtin::String => "string",
            Builtin::Bytes => "Bytes",
            Builtin::Char => "char",
            Builtin::F32 => "f32",
            Builtin::F64 => "f64",
            Builtin::Str => "str",
        }
    }
}

/// A builtin generic type of one type argument (today's language):
/// `Vec<T>`, `Box<T>`, `List<T>`, `Iter<T>`. Read in any field; refused by
/// derivation (`type.field.unsupported`: bounded lists are not part of
/// Agent Interaction Schema v1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Container {
    /// `Vec<T>`
    Vec,
    /// `Box<T>`
    Box,
    /// `List<T>`
    List,
    /// `Iter<T>`
    Iter,
}

impl Container {
    /// The container named `name`, if any.
    pub fn from_name(name: &str) -> Option<Container> {
        Some(match name {
            "Vec" => Container::Vec,
            "Box" => Container::Box,
            "List" => Container::List,
            "Iter" => Container::Iter,
            _ => return None,
        })
    }

    /// The name as written in source.
    pub const fn name(self) -> &'static str {
        match self {
            Container::Vec => "Vec",
            Container::Box => "Box",
            Container::List => "List",
            Container::Iter => "Iter",
        }
    }
}

/// What a named type in field position refers to, once resolved.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Target {
    /// A declaration of this module (or of the prelude), by index into
    /// [`Module::decls`].
    Decl(usize),
    /// A `use type @id("…") … as Alias` import: not resolved by this
    /// profile, it names a foreign stable id.
    Alias {
        /// The imported persistent id.
        stable_id: String,
    },
    /// A type parameter of the enclosing declaration.
    Param,
}

/// A type in field position.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TypeExpr {
    /// One of the builtins.
    Builtin(Builtin),
    /// A named type, possibly with type arguments (`Name<A, B>`).
    Named {
        /// The name as written.
        name: String,
        /// Its type arguments, possibly none.
        args: Vec<TypeExpr>,
        /// What it resolves to.
        target: Target,
    },
    /// `[T; N]`
    Array {
        /// Element type.
        elem: Box<TypeExpr>,
        /// Length.
        len: u64,
    },
    /// `Slice<T>`
    Slice(Box<TypeExpr>),
    /// `Vec<T>`, `Box<T>`, `List<T>` or `Iter<T>`.
    Container {
        /// Which builtin generic.
        kind: Container,
        /// Its type argument.
        elem: Box<TypeExpr>,
    },
    /// `fn(A, B) -> R`
    Fn {
        /// Parameter types.
        params: Vec<TypeExpr>,
        /// Return type (`None` when omitted).
        ret: Option<Box<TypeExpr>>,
    },
}

/// One field of a record, class or variant case.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FieldDecl {
    /// The display name.
    pub name: String,
    /// The stable id: the explicit `@id`, or the automatic one.
    pub stable_id: String,
    /// True when the id came from an explicit `@id("…")`.
    pub persistent: bool,
    /// The field's type.
    pub ty: TypeExpr,
    /// Where the field's name is.
    pub pos: Pos,
    /// Where the field's type expression is (all of it).
    pub ty_pos: Pos,
}

/// One case of a variant.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CaseDecl {
    /// The display name.
    pub name: String,
    /// The stable id: the explicit `@id`, or the automatic one.
    pub stable_id: String,
    /// True when the id came from an explicit `@id("…")`.
    pub persistent: bool,
    /// The payload fields (none for `B,`).
    pub fields: Vec<FieldDecl>,
    /// Where the case's name is.
    pub pos: Pos,
}

/// One modelled type declaration.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TypeDecl {
    /// record, variant, class or resource.
    pub kind: DeclKind,
    /// The display name.
    pub name: String,
    /// The stable id: the explicit `@id`, the automatic one, or the
    /// compiler-owned one for prelude types.
    pub stable_id: String,
    /// True for an explicit `@id` and for prelude types.
    pub persistent: bool,
    /// The type parameters, in order.
    pub params: Vec<String>,
    /// Fields of a record or class (classes keep only their fields).
    pub fields: Vec<FieldDecl>,
    /// Cases of a variant.
    pub cases: Vec<CaseDecl>,
    /// True for the compiler-owned `Option` and `Result`.
    pub prelude: bool,
    /// Where the declaration's name is (the default position for prelude
    /// types).
    pub pos: Pos,
}

/// One `use type @id("X") from a.b as Alias;` clause.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Import {
    /// The alias the module uses.
    pub alias: String,
    /// The imported persistent id.
    pub stable_id: String,
    /// The module path after `from`.
    pub from: String,
    /// The whole clause, from `use` to its end.
    pub pos: Pos,
}

impl TypeDecl {
    /// Every stable id the declaration introduces, in source order: its
    /// own, then its fields', then each case's and its fields', with
    /// whether it is persistent and where it is named.
    pub fn ids(&self) -> impl Iterator<Item = (&str, bool, Pos)> + '_ {
        fn field(f: &FieldDecl) -> (&str, bool, Pos) {
            (f.stable_id.as_str(), f.persistent, f.pos)
        }
        std::iter::once((self.stable_id.as_str(), self.persistent, self.pos))
            .chain(self.fields.iter().map(field))
            .chain(self.cases.iter().flat_map(move |k| {
                std::iter::once((k.stable_id.as_str(), k.persistent, k.pos))
                    .chain(k.fields.iter().map(field))
            }))
    }
}

/// One read and checked `.spx` module.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Module {
    /// The path as the caller gave it (used in diagnostics).
    pub path: String,
    /// The module path from `module a.b.c;`.
    pub name: String,
    /// Where the module path is in the header.
    pub name_pos: Pos,
    /// Every modelled declaration in source order, followed by the prelude
    /// declarations (`Option`, `Result`).
    pub decls: Vec<TypeDecl>,
    /// The `use type` imports, in source order (a field whose type is one
    /// of their aliases has a [`Target::Alias`]).
    pub imports: Vec<Import>,
    /// Warnings (for example automatic identities).
    pub warnings: Vec<Diagnostic>,
    /// Notes (severity [`crate::Severity::Note`]): what the reader skipped
    /// without knowing it (`spx check --verbose`).
    pub notes: Vec<Diagnostic>,
    /// The documentation of declarations, fields and cases, by stable id
    /// ([`super::docs`]); never part of the schema's identity.
    pub docs: super::Docs,
}

impl Module {
    /// The declaration with this stable id.
    pub fn decl_by_id(&self, stable_id: &str) -> Option<(usize, &TypeDecl)> {
        self.decls
            .iter()
            .enumerate()
            .find(|(_, d)| d.stable_id == stable_id)
    }

    /// The `use type` import whose alias is `alias`.
    pub fn import(&self, alias: &str) -> Option<&Import> {
        self.imports.iter().find(|i| i.alias == alias)
    }

    /// Where the declaration, field or case with this stable id is named.
    pub fn position_of(&self, stable_id: &str) -> Option<Pos> {
        for d in self.decls.iter().filter(|d| !d.prelude) {
            if let Some((_, _, pos)) = d.ids().find(|(id, _, _)| *id == stable_id) {
                return Some(pos);
            }
        }
        None
    }
}
