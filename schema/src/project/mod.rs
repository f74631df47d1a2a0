//! Provider projections (FORMAT.md §8) and the dialect adapters for OpenAI,
//! Anthropic and Gemini structured outputs.
//!
//! [`draft2020`] renders the one canonical JSON Schema draft 2020-12
//! document. Every dialect adapter is a pure function of that document: it
//! parses it back into an ordered tree, rewrites it, and writes it out
//! compactly (no whitespace, one LF at the end). Keys keep the order of the
//! canonical projection; a keyword that replaces another takes its place
//! (`oneOf` → `anyOf`, `const` → `enum`, the `x-*` integer annotations →
//! one `description`), and Gemini's `propertyOrdering` follows `properties`
//! directly. Properties stay in declaration order.
//!
//! What a dialect cannot express is reported in a machine-readable loss
//! list ([`Projection::losses`], [`Projection::losses_json`]); every loss
//! names the rule by which the decoder (and [`crate::admit`]) still enforces
//! it. A projection is presentation only: it may be broader than the decoder,
//! never narrower.
//!
//! ```
//! use spx_schema::graph::{Field, FieldType, Repr, TypeGraph, TypeKind, TypeNode};
//! use spx_schema::project::{project, Dialect};
//! let graph = TypeGraph { types: vec![TypeNode {
//!     stable_id: "geo.point".into(), name: "Point".into(),
//!     kind: TypeKind::Record { fields: vec![Field {
//!         stable_id: "geo.point.x".into(), name: "x".into(), ty: FieldType::Scalar(Repr::U8) }] },
//! }]};
//! let schema = spx_schema::Schema::from_graph(graph).unwrap();
//! let p = project(&schema, Dialect::Gemini).unwrap();
//! assert!(p.document.contains("\"propertyOrdering\":[\"geo.point.x\"]"));
//! assert_eq!(p.schema_name, None);
//! ```

mod anthropic;
mod draft2020;
mod gemini;
pub mod grammar;
mod integer;
pub mod keys;
mod openai;

pub use draft2020::{draft2020, draft2020_with, ref_to, DIALECT_URI, ID_PREFIX};
pub use integer::{integer_pattern, IntegerPattern};
pub use keys::{KeyMap, KeyRule, Rename};
pub use openai::{schema_name, MAX_ENUM_VALUES, MAX_NESTING, MAX_PROPERTIES, MAX_STRING_LENGTH};

use crate::diag::{Code, Diagnostic};
use crate::graph::{Repr, TypeKind};
use crate::json::{self, Json};
use crate::quote::{push_pointer_token, quote_into};
use crate::schema::Schema;
use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

/// SPX-Z207: a projection exceeds a provider's documented schema limit
/// (rules `openai.max_properties`, `openai.max_nesting`,
/// `openai.max_string_length`, `openai.max_enum_values`).
pub const Z207: Code = Code("SPX-Z207");

/// A provider schema dialect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// The canonical JSON Schema draft 2020-12 projection (FORMAT.md §8).
    Draft2020,
    /// OpenAI strict structured outputs / strict function calling.
    OpenAi,
    /// Anthropic tool `input_schema` and strict structured outputs.
    Anthropic,
    /// Gemini `responseJsonSchema`.
    Gemini,
    /// A grammar in llguidance's Lark syntax whose language is the
    /// canonical value documents themselves ([`grammar`]), for engines that
    /// constrain decoding with a grammar (llama.cpp, vLLM, SGLang, …).
    Lark,
}

impl Dialect {
    /// Every JSON Schema dialect, in a fixed order: the projections a
    /// provider constrains a *value* with, that [`crate::admit`] reads the
    /// value of, and that the code `spx_interaction!` generates precomputes
    /// (`Root::provider_schema`). The grammar dialects are
    /// [`Dialect::GRAMMARS`].
    pub const JSON_SCHEMA: [Dialect; 4] = [
        Dialect::Draft2020,
        Dialect::OpenAi,
        Dialect::Anthropic,
        Dialect::Gemini,
    ];

    /// Every grammar dialect: the document is a grammar whose language is
    /// the whole canonical value document, envelope included.
    pub const GRAMMARS: [Dialect; 1] = [Dialect::Lark];

    /// The name used on the command line: `draft2020`, `openai`,
    /// `anthropic`, `gemini` or `lark`.
    pub const fn name(self) -> &'static str {
        match self {
            Dialect::Draft2020 => "draft2020",
            Dialect::OpenAi => "openai",
            Dialect::Anthropic => "anthropic",
            Dialect::Gemini => "gemini",
            Dialect::Lark => "lark",
        }
    }

    /// True for a grammar dialect ([`Dialect::GRAMMARS`]): what a model
    /// constrained by it writes is the canonical value document itself.
    pub const fn is_grammar(self) -> bool {
        matches!(self, Dialect::Lark)
    }

    /// True when this dialect's projection of `schema` wraps the root value
    /// as `{"value": …}`: OpenAI and Anthropic, for a variant root (their
    /// root must be a plain `type: object` schema, not `anyOf`).
    pub fn wraps_root(self, schema: &Schema) -> bool {
        matches!(self, Dialect::OpenAi | Dialect::Anthropic)
            && matches!(
                schema.graph().types.last().map(|t| &t.kind),
                Some(TypeKind::Variant { .. })
            )
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error of [`Dialect::from_str`]: the text named no dialect.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownDialect(pub String);

impl fmt::Display for UnknownDialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown dialect `{}`: expected one of draft2020, openai, anthropic, gemini",
            self.0
        )
    }
}

impl std::error::Error for UnknownDialect {}

impl FromStr for Dialect {
    type Err = UnknownDialect;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Dialect::JSON_SCHEMA
            .into_iter()
            .chain(Dialect::GRAMMARS)
            .find(|d| d.name() == s)
            .ok_or_else(|| UnknownDialect(s.to_string()))
    }
}

/// What happened to a keyword a dialect cannot carry as is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LossAction {
    /// The keyword is absent from the dialect's document.
    Dropped,
    /// The keyword was replaced by an equivalent or weaker form.
    Rewritten,
}

impl LossAction {
    /// `dropped` or `rewritten`.
    pub const fn as_str(self) -> &'static str {
        match self {
            LossAction::Dropped => "dropped",
            LossAction::Rewritten => "rewritten",
        }
    }
}

/// One keyword of the canonical projection that a dialect drops or
/// rewrites.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Loss {
    /// JSON Pointer of the schema object, in the dialect's document, that
    /// lost (or holds the rewritten form of) the keyword.
    pub pointer: String,
    /// The keyword of the canonical projection, e.g. `maxLength`.
    pub keyword: String,
    /// Dropped or rewritten.
    pub action: LossAction,
    /// Why nothing is lost at admission: the decoder rule that still
    /// enforces it, or why the rewrite is equivalent.
    pub guarantee: String,
}

/// A dialect's projection of one schema.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Projection {
    /// The document, compact, ending with one LF (for a grammar dialect,
    /// the grammar's text).
    pub document: String,
    /// Every keyword dropped or rewritten, in document walk order (none for
    /// a grammar dialect).
    pub losses: Vec<Loss>,
    /// For a grammar dialect, every bound the grammar enforces more
    /// narrowly than the decoder ([`grammar::Narrowing`]); none for a JSON
    /// Schema dialect, which is never narrower than the decoder.
    pub narrowings: Vec<grammar::Narrowing>,
    /// The name to send with the schema: OpenAI's
    /// `response_format.json_schema.name` (or a strict function's `name`)
    /// and Anthropic's tool `name`; `None` for draft 2020-12 and Gemini,
    /// which take no name. It is [`schema_name`] of the root id: the id
    /// itself when it matches `^[a-zA-Z0-9_-]{1,64}$` (both providers'
    /// rule), otherwise the id with every other character replaced by `_`,
    /// cut to 51 characters, and `-` plus 12 hex digits of its SHA-256, so
    /// that it always matches and two roots never share one.
    pub schema_name: Option<String>,
    /// Every stable id the document writes under a safe key
    /// ([`KeyMap::renames`]); empty for draft 2020-12, which writes the
    /// ids as they are.
    pub renames: Vec<Rename>,
}

impl Projection {
    /// The key report as JSON ([`KeyMap::renames_json`]).
    pub fn renames_json(&self) -> String {
        keys::renames_json(&self.renames)
    }

    /// The whole report: `{"dialect":…,"schema_name":…|null,"losses":[…],"keys":[…]}`
    /// with [`Projection::losses_json`] and [`Projection::renames_json`],
    /// compact, with one LF at the end.
    pub fn report_json(&self, dialect: Dialect) -> String {
        let mut s = String::from("{\"dialect\":");
        quote_into(&mut s, dialect.name());
        s.push_str(",\"schema_name\":");
        match &self.schema_name {
            Some(n) => quote_into(&mut s, n),
            None => s.push_str("null"),
        }
        s.push_str(",\"losses\":");
        s.push_str(self.losses_json().trim_end());
        s.push_str(",\"keys\":");
        s.push_str(self.renames_json().trim_end());
        s.push_str("}\n");
        s
    }

    /// The loss report as JSON: an array of
    /// `{"pointer":…,"keyword":…,"action":"dropped"|"rewritten","guarantee":…}`
    /// in [`Projection::losses`] order, compact, with one LF at the end; for
    /// a grammar dialect, the [`Projection::narrowings`] as
    /// `{"field":…,"rule":…,"enforced":{<unit>:<n>}}` instead (a projection
    /// has one kind of entry or the other, never both).
    pub fn losses_json(&self) -> String {
        let mut s = String::from("[");
        for (i, l) in self.losses.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            s.push_str("{\"pointer\":");
            quote_into(&mut s, &l.pointer);
            s.push_str(",\"keyword\":");
            quote_into(&mut s, &l.keyword);
            s.push_str(",\"action\":");
            quote_into(&mut s, l.action.as_str());
            s.push_str(",\"guarantee\":");
            quote_into(&mut s, &l.guarantee);
            s.push('}');
        }
        if !self.losses.is_empty() && !self.narrowings.is_empty() {
            s.push(',');
        }
        grammar::write_narrowings(&mut s, &self.narrowings);
        s.push_str("]\n");
        s
    }
}

/// Choices of a projection beyond the dialect.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Options {
    /// Write the `.spx` documentation ([`Schema::docs`]) as `description`
    /// into the draft 2020-12 projection too ([`draft2020_with`]). Off by
    /// default, so that the canonical projection keeps the bytes of
    /// FORMAT.md §8. The OpenAI, Anthropic and Gemini documents always
    /// carry the documentation.
    pub draft2020_descriptions: bool,
}

/// Projects `schema` for `dialect` with the default [`Options`].
///
/// Draft 2020-12, Anthropic, Gemini and Lark never fail. OpenAI refuses a schema
/// over one of OpenAI's documented limits with [`Z207`].
pub fn project(schema: &Schema, dialect: Dialect) -> Result<Projection, Diagnostic> {
    project_with(schema, dialect, Options::default())
}

/// Projects `schema` for `dialect`; the keys are those of
/// [`KeyMap::new`]`(schema, dialect)`.
pub fn project_with(
    schema: &Schema,
    dialect: Dialect,
    options: Options,
) -> Result<Projection, Diagnostic> {
    project_keyed(schema, &KeyMap::new(schema, dialect), options)
}

/// Projects `schema` with a key map already built for it (its dialect is
/// the map's).
pub fn project_keyed(
    schema: &Schema,
    keys: &KeyMap,
    options: Options,
) -> Result<Projection, Diagnostic> {
    match keys.dialect() {
        Dialect::Draft2020 => Ok(Projection {
            document: draft2020_with(schema, options.draft2020_descriptions),
            losses: Vec::new(),
            narrowings: Vec::new(),
            schema_name: None,
            renames: Vec::new(),
        }),
        Dialect::OpenAi => openai::project(schema, keys),
        Dialect::Anthropic => anthropic::project(schema, keys),
        Dialect::Gemini => gemini::project(schema, keys),
        Dialect::Lark => {
            let g = grammar::Grammar::build(schema);
            Ok(Projection {
                document: g.lark(),
                losses: Vec::new(),
                narrowings: g.narrowings,
                schema_name: None,
                renames: Vec::new(),
            })
        }
    }
}

/// What a dialect does to the canonical projection.
pub(crate) struct Profile {
    /// Wrap a variant root as `{"value": …}` (root must be `type: object`).
    pub(crate) wrap_variant_root: bool,
    /// Keywords dropped wherever they occur (besides `x-*`).
    pub(crate) drop: &'static [&'static str],
    /// `const` → one-element `enum`.
    pub(crate) const_to_enum: bool,
    /// Add `propertyOrdering` after every `properties`.
    pub(crate) property_ordering: bool,
    /// The integer `pattern` written in place of the canonical
    /// `^-?[0-9]+$` (where the dialect keeps `pattern`).
    pub(crate) integer_pattern: Option<IntegerPattern>,
}

/// The decoder rule that still enforces a keyword, in words.
fn guarantee(keyword: &str) -> &'static str {
    match keyword {
        "$schema" | "$id" => "identification only; it constrains nothing",
        "$ref" => "equivalent: the root definition is inlined at the document root (for OpenAI and Anthropic a variant root is wrapped as {\"value\": …}, which admission unwraps)",
        "oneOf" => "equivalent: the cases' \"case\" constants are pairwise distinct, so at most one alternative matches",
        "const" => "equivalent: a one-element enum admits exactly the constant",
        "maxLength" => "the decoder refuses a string over 4096 UTF-8 bytes (SPX-Z206 value.string_bytes)",
        "maxItems" => "the decoder refuses a Bytes value over 4096 elements (SPX-Z206 value.bytes_length)",
        "minimum" | "maximum" => "the decoder refuses a byte outside 0..=255 (SPX-Z206 value.bytes_element)",
        "pattern" => "the decoder refuses an integer string that is not its canonical decimal form: digits, a leading '-' only for a signed representation, no leading zeros, not -0 (SPX-Z206 value.integer)",
        "x-representation" | "x-minimum" | "x-maximum" => "rewritten into \"description\"; the decoder refuses an integer outside its representation's bounds (SPX-Z206 value.integer_range)",
        _ => "the decoder enforces the canonical schema",
    }
}

fn internal(what: &str) -> Diagnostic {
    Diagnostic::error(
        Z207,
        "projection.internal",
        format!("internal error while projecting: {what}"),
    )
}

/// Runs the shared rewrite of `profile` over the canonical projection with
/// the schema's documentation ([`draft2020_with`]): the keys of `keys`
/// first (property keys, `required`, `$defs` names and `$ref`s), then the
/// keyword rewrite.
pub(crate) fn adapt(
    schema: &Schema,
    profile: &Profile,
    keys: &KeyMap,
) -> Result<(Json, Vec<Loss>), Diagnostic> {
    let text = draft2020_with(schema, true);
    let doc = Json::read(&text, &json::OWN_DOCUMENTS)
        .map_err(|_| internal("canonical projection unreadable"))?;
    let Json::Object(members) = doc else {
        return Err(internal("canonical projection is not an object"));
    };
    let mut defs = Vec::new();
    for (k, v) in members {
        if k == "$defs" {
            if let Json::Object(d) = v {
                defs = d;
            }
        }
    }
    let graph = schema.graph();
    if defs.len() != graph.types.len() {
        return Err(internal("one definition per type"));
    }
    let refs: HashMap<String, String> = graph
        .types
        .iter()
        .enumerate()
        .map(|(i, t)| (ref_to(&t.stable_id), ref_to(keys.def_name(i))))
        .collect();
    for (i, (name, def)) in defs.iter_mut().enumerate() {
        rename_fields(def, i, keys);
        rename_refs(def, &refs);
        *name = keys.def_name(i).to_owned();
    }
    let Some((_, root_schema)) = defs.pop() else {
        return Err(internal("root definition missing"));
    };
    let mut losses = Vec::new();
    for (kw, action) in [
        ("$schema", LossAction::Dropped),
        ("$id", LossAction::Dropped),
        ("$ref", LossAction::Rewritten),
    ] {
        losses.push(Loss {
            pointer: String::new(),
            keyword: kw.to_string(),
            action,
            guarantee: guarantee(kw).to_string(),
        });
    }
    let wrap = profile.wrap_variant_root && root_schema.get("oneOf").is_some();
    let mut root = if wrap {
        Json::Object(vec![
            ("type".into(), Json::String("object".into())),
            ("additionalProperties".into(), Json::Bool(false)),
            (
                "required".into(),
                Json::Array(vec![Json::String("value".into())]),
            ),
            (
                "properties".into(),
                Json::Object(vec![("value".into(), root_schema)]),
            ),
        ])
    } else {
        root_schema
    };
    rewrite(&mut root, &mut String::new(), profile, &mut losses);
    for (k, d) in defs.iter_mut() {
        let mut p = String::from("/$defs");
        push_pointer_token(&mut p, k);
        rewrite(d, &mut p, profile, &mut losses);
    }
    if !defs.is_empty() {
        if let Json::Object(m) = &mut root {
            m.push(("$defs".into(), Json::Object(defs)));
        }
    }
    Ok((root, losses))
}

/// The member `key` of an object, mutably.
fn member<'j>(node: &'j mut Json, key: &str) -> Option<&'j mut Json> {
    match node {
        Json::Object(m) => m.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v),
        _ => None,
    }
}

/// Writes the safe keys of type `ty` into its definition: the property keys
/// and `required` of its fields object (of each case's, for a variant).
fn rename_fields(def: &mut Json, ty: usize, keys: &KeyMap) {
    let rename = |case_schema: &mut Json, case: Option<usize>| {
        let names = keys.field_keys(ty, case);
        let Some(fields) = member(case_schema, "properties").and_then(|p| member(p, "fields"))
        else {
            return;
        };
        if let Some(Json::Array(req)) = member(fields, "required") {
            for (r, name) in req.iter_mut().zip(names) {
                *r = Json::String(name.clone());
            }
        }
        if let Some(Json::Object(props)) = member(fields, "properties") {
            for ((k, _), name) in props.iter_mut().zip(names) {
                k.clone_from(name);
            }
        }
    };
    match member(def, "oneOf") {
        Some(Json::Array(cases)) => {
            for (j, c) in cases.iter_mut().enumerate() {
                rename(c, Some(j));
            }
        }
        _ => rename(def, None),
    }
}

/// Rewrites every `$ref` below `node` to the renamed definition.
fn rename_refs(node: &mut Json, refs: &HashMap<String, String>) {
    match node {
        Json::Object(m) => {
            for (k, v) in m.iter_mut() {
                match v {
                    Json::String(r) if k == "$ref" => {
                        if let Some(to) = refs.get(r.as_str()) {
                            r.clone_from(to);
                        }
                    }
                    _ => rename_refs(v, refs),
                }
            }
        }
        Json::Array(a) => a.iter_mut().for_each(|v| rename_refs(v, refs)),
        _ => {}
    }
}

fn loss(losses: &mut Vec<Loss>, pointer: &str, keyword: &str, action: LossAction) {
    losses.push(Loss {
        pointer: pointer.to_string(),
        keyword: keyword.to_string(),
        action,
        guarantee: guarantee(keyword).to_string(),
    });
}

/// Rewrites one schema object (and the schemas below it) in place.
fn rewrite(node: &mut Json, ptr: &mut String, profile: &Profile, losses: &mut Vec<Loss>) {
    let Json::Object(members) = node else {
        return;
    };
    // A documented nested field, `{"$ref":…,"description":…}`: OpenAI and
    // Gemini allow no keyword beside `$ref`, so the reference moves into a
    // one-element `anyOf` (equivalent) and the description stays outside.
    if members.len() > 1 {
        if let Some(i) = members.iter().position(|(k, _)| k == "$ref") {
            let r = members.remove(i);
            members.push(("anyOf".into(), Json::Array(vec![Json::Object(vec![r])])));
        }
    }
    let len = ptr.len();
    let mut out: Vec<(String, Json)> = Vec::with_capacity(members.len() + 1);
    let mut integer: [Option<String>; 3] = [None, None, None];
    let mut description_at = None;
    let mut doc_at = None;
    for (k, mut v) in std::mem::take(members) {
        match k.as_str() {
            "description" => {
                doc_at = Some(out.len());
                out.push((k, v));
            }
            "oneOf" | "anyOf" => {
                if k == "oneOf" {
                    loss(losses, ptr, "oneOf", LossAction::Rewritten);
                }
                if let Json::Array(items) = &mut v {
                    for (i, item) in items.iter_mut().enumerate() {
                        ptr.push_str(&format!("/anyOf/{i}"));
                        rewrite(item, ptr, profile, losses);
                        ptr.truncate(len);
                    }
                }
                out.push(("anyOf".into(), v));
            }
            "const" if profile.const_to_enum => {
                loss(losses, ptr, "const", LossAction::Rewritten);
                out.push(("enum".into(), Json::Array(vec![v])));
            }
            "properties" => {
                let mut order = Vec::new();
                if let Json::Object(props) = &mut v {
                    for (name, sub) in props.iter_mut() {
                        ptr.push_str("/properties");
                        push_pointer_token(ptr, name);
                        rewrite(sub, ptr, profile, losses);
                        ptr.truncate(len);
                        order.push(Json::String(name.clone()));
                    }
                }
                out.push((k, v));
                if profile.property_ordering {
                    out.push(("propertyOrdering".into(), Json::Array(order)));
                }
            }
            "items" => {
                ptr.push_str("/items");
                rewrite(&mut v, ptr, profile, losses);
                ptr.truncate(len);
                out.push((k, v));
            }
            x if x.starts_with("x-") => {
                loss(losses, ptr, x, LossAction::Rewritten);
                let slot = match x {
                    "x-representation" => Some(0),
                    "x-minimum" => Some(1),
                    "x-maximum" => Some(2),
                    _ => None,
                };
                if let (Some(i), Json::String(s)) = (slot, v) {
                    integer[i] = Some(s);
                }
                description_at.get_or_insert(out.len());
            }
            d if profile.drop.contains(&d) => loss(losses, ptr, d, LossAction::Dropped),
            _ => out.push((k, v)),
        }
    }
    if let Some(at) = description_at {
        let [repr, min, max] = integer;
        let repr = repr.as_deref().and_then(Repr::from_name);
        let (min, max) = (min.unwrap_or_default(), max.unwrap_or_default());
        let form = if min.starts_with('-') {
            "digits with an optional leading '-', no leading zeros"
        } else {
            "digits only, no leading zeros"
        };
        let name = repr.map_or("", Repr::name);
        let text =
            format!("{name} integer written as a decimal string ({form}), from {min} to {max}");
        match doc_at.and_then(|i| out.get_mut(i)) {
            Some((_, Json::String(doc))) => *doc = format!("{doc}\n\n{text}"),
            _ => out.insert(
                at.min(out.len()),
                ("description".into(), Json::String(text)),
            ),
        }
        if let (Some(style), Some(repr)) = (profile.integer_pattern, repr) {
            if let Some((_, p)) = out.iter_mut().find(|(k, _)| k == "pattern") {
                *p = Json::String(integer_pattern(repr, style));
            }
        }
    }
    *members = out;
}

/// Writes a dialect document: compact, one LF at the end.
pub(crate) fn finish(doc: &Json) -> String {
    let mut s = String::new();
    json::write(&mut s, doc);
    s.push('\n');
    s
}
