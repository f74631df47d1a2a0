//! The checked type graph that derivation produces and every later stage
//! (rendering, decoding, encoding, projections, code generation) consumes.

/// The constants of FORMAT.md §1.
pub mod limits {
    /// At most this many types in a graph.
    pub const MAX_TYPES: usize = 64;
    /// At most this depth (the root is depth 0).
    pub const MAX_DEPTH: usize = 16;
    /// At most this many UTF-8 bytes in a string field.
    pub const MAX_STRING_BYTES: usize = 4096;
    /// At most this many elements in a Bytes field.
    pub const MAX_BYTES_LEN: usize = 4096;
    /// At most this many bytes in a value document.
    pub const MAX_DOCUMENT_BYTES: usize = 65536;
    /// At most this many bytes in a schema document.
    pub const MAX_SCHEMA_BYTES: usize = 262144;
    /// The schema document id.
    pub const SCHEMA_ID: &str = "semaprax.agent-interaction-schema.v1";
    /// The value document id.
    pub const VALUE_ID: &str = "semaprax.agent-interaction-value.v1";
    /// Domain of `root_type_revision` (50 bytes and a NUL).
    pub const REVISION_DOMAIN: &[u8] = b"semaprax.agent-interaction-schema.type-revision.v1\0";
    /// Domain of the schema digest (43 bytes and a NUL).
    pub const DIGEST_DOMAIN: &[u8] = b"semaprax.agent-interaction-schema.digest.v1\0";
}

/// A scalar representation (FORMAT.md §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Repr {
    /// `bool`
    Bool,
    /// `i32`
    I32,
    /// `i64`
    I64,
    /// `u8`
    U8,
    /// `usize`, represented as `u64`
    U64,
    /// `string`, at most 4096 UTF-8 bytes
    String,
    /// `Bytes`, at most 4096 elements
    Bytes,
}

impl Repr {
    /// The `representation` name in the schema document.
    pub const fn name(self) -> &'static str {
        match self {
            Repr::Bool => "bool",
            Repr::I32 => "i32",
            Repr::I64 => "i64",
            Repr::U8 => "u8",
            Repr::U64 => "u64",
            Repr::String => "string",
            Repr::Bytes => "bytes",
        }
    }

    /// Parses a `representation` name.
    pub fn from_name(name: &str) -> Option<Repr> {
        Some(match name {
            "bool" => Repr::Bool,
            "i32" => Repr::I32,
            "i64" => Repr::I64,
            "u8" => Repr::U8,
            "u64" => Repr::U64,
            "string" => Repr::String,
            "bytes" => Repr::Bytes,
            _ => return None,
        })
    }

    /// True for the four exact integer representations.
    pub const fn is_integer(self) -> bool {
        matches!(self, Repr::I32 | Repr::I64 | Repr::U8 | Repr::U64)
    }

    /// `(minimum, maximum)` as decimal text, for integers.
    pub const fn bounds(self) -> Option<(&'static str, &'static str)> {
        match self {
            Repr::I32 => Some(("-2147483648", "2147483647")),
            Repr::I64 => Some(("-9223372036854775808", "9223372036854775807")),
            Repr::U8 => Some(("0", "255")),
            Repr::U64 => Some(("0", "18446744073709551615")),
            _ => None,
        }
    }
}

/// The type of one field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FieldType {
    /// A scalar leaf.
    Scalar(Repr),
    /// A reference to another type of the graph, by index into
    /// [`TypeGraph::types`].
    Nested(usize),
}

/// One field of a record or of a variant case.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Field {
    /// The persistent stable id.
    pub stable_id: String,
    /// The display name in the source (empty when the graph was read back
    /// from a schema document, which carries no names).
    pub name: String,
    /// The field's type.
    pub ty: FieldType,
}

/// One case of a variant.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Case {
    /// The persistent stable id.
    pub stable_id: String,
    /// The display name (empty when unknown).
    pub name: String,
    /// The payload fields, possibly none.
    pub fields: Vec<Field>,
}

/// What a type is.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TypeKind {
    /// A record and its fields.
    Record {
        /// Fields in declaration order.
        fields: Vec<Field>,
    },
    /// A variant and its cases (never empty).
    Variant {
        /// Cases in declaration order.
        cases: Vec<Case>,
    },
}

/// One type of the graph.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TypeNode {
    /// The persistent stable id.
    pub stable_id: String,
    /// The display name (empty when unknown).
    pub name: String,
    /// Record or variant.
    pub kind: TypeKind,
}

/// A derived type graph: every type reachable from the root, dependency
/// first, root last (FORMAT.md §4).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TypeGraph {
    /// The types in output-list order; the root is the last one.
    pub types: Vec<TypeNode>,
}

impl TypeGraph {
    /// The index of the root type (the last one).
    pub fn root_index(&self) -> usize {
        self.types.len().saturating_sub(1)
    }

    /// The root type.
    ///
    /// # Panics
    /// Never for a derived graph, which always holds at least its root.
    pub fn root(&self) -> &TypeNode {
        &self.types[self.root_index()]
    }

    /// The root's stable id.
    pub fn root_type_id(&self) -> &str {
        &self.root().stable_id
    }

    /// The index of the type with this stable id.
    pub fn index_of(&self, stable_id: &str) -> Option<usize> {
        self.types.iter().position(|t| t.stable_id == stable_id)
    }

    /// The fields of type `ty`: a record's, or those of case `case` of a
    /// variant (none before a case is known, and none for an index out of
    /// range).
    ///
    /// ```
    /// let g = spx_schema::graph::TypeGraph { types: Vec::new() };
    /// assert!(g.fields_of(0, None).is_empty());
    /// ```
    pub fn fields_of(&self, ty: usize, case: Option<usize>) -> &[Field] {
        match self.types.get(ty).map(|t| &t.kind) {
            Some(TypeKind::Record { fields }) => fields,
            Some(TypeKind::Variant { cases }) => case
                .and_then(|c| cases.get(c))
                .map_or(&[], |c| c.fields.as_slice()),
            None => &[],
        }
    }

    /// The cases of type `ty` (none for a record, or an index out of
    /// range).
    pub fn cases_of(&self, ty: usize) -> &[Case] {
        match self.types.get(ty).map(|t| &t.kind) {
            Some(TypeKind::Variant { cases }) => cases,
            _ => &[],
        }
    }

    /// True when type `ty` is a variant.
    pub fn is_variant(&self, ty: usize) -> bool {
        matches!(
            self.types.get(ty).map(|t| &t.kind),
            Some(TypeKind::Variant { .. })
        )
    }
}
