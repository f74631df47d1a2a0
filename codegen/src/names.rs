//! Stage 3: identifiers from `.spx` display names, for every language spx
//! generates (the one home of the naming rules).
//!
//! The rules shared by all three languages, so that one `.spx` gives the
//! same names in Rust, TypeScript and Python: types and cases become
//! CamelCase ([`camel`]), fields snake_case ([`snake`]); a name must then be
//! an ASCII identifier that Rust can hold ([`is_identifier`]: `self`,
//! `Self`, `super`, `crate` and `_` cannot be). Each language then escapes
//! its own keywords: Rust writes a raw identifier (`r#type`), Python
//! appends `_` (`class_`, `None_`), and TypeScript needs nothing (types are
//! CamelCase, fields are property names). A name that the generated module
//! itself uses (`SpxError`, a platform global it calls) is refused, as are
//! two names that would collide; [`plan`] applies all of it for the
//! TypeScript and Python generators.

use crate::emit::NameError;
use proc_macro2::{Ident, Span};
use spx_schema::graph::{Field, TypeKind, TypeNode};
use spx_schema::Schema;
use std::collections::HashMap;

/// Keywords of every edition, strict and reserved, that can be written as
/// raw identifiers.
const RAW_OK: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "do", "dyn",
    "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl", "in", "let",
    "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref", "return",
    "static", "struct", "trait", "true", "try", "type", "typeof", "unsafe", "unsized", "use",
    "virtual", "where", "while", "yield",
];

/// Names no Rust identifier can take, not even a raw one.
const NEVER: &[&str] = &["self", "Self", "super", "crate", "_"];

/// CamelCase: each `_`-separated part starts with an uppercase letter; the
/// rest of each part is kept (`geo_point` → `GeoPoint`, `HTTPServer` stays).
pub fn camel(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for part in name.split('_').filter(|p| !p.is_empty()) {
        let mut chars = part.chars();
        if let Some(c) = chars.next() {
            out.extend(c.to_uppercase());
            out.push_str(chars.as_str());
        }
    }
    out
}

/// snake_case: a `_` before an uppercase letter that follows a lowercase
/// letter or digit, or that starts a new word after an acronym
/// (`maxLen` → `max_len`, `HTTPServer` → `http_server`); leading
/// underscores are kept.
pub fn snake(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::with_capacity(name.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if c.is_uppercase() && i > 0 {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            if prev.is_lowercase() || prev.is_ascii_digit() || (prev.is_uppercase() && next_lower) {
                out.push('_');
            }
        }
        out.extend(c.to_lowercase());
    }
    out
}

/// True when `converted` (already cased) can be a name in every language:
/// an ASCII letter or `_`, then ASCII letters, digits and `_`, and none of
/// the names no Rust identifier can take (`self`, `Self`, `super`, `crate`,
/// `_`).
pub fn is_identifier(converted: &str) -> bool {
    converted
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && converted
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !NEVER.contains(&converted)
}

/// The identifier for `converted` (already cased), or why there is none.
pub(crate) fn ident(original: &str, converted: &str) -> Result<Ident, String> {
    if !is_identifier(converted) {
        return Err(if converted == original {
            format!("the name `{original}` cannot become a Rust identifier")
        } else {
            format!(
                "the name `{original}` cannot become a Rust identifier (it would be `{converted}`)"
            )
        });
    }
    if RAW_OK.contains(&converted) {
        Ok(Ident::new_raw(converted, Span::call_site()))
    } else {
        Ok(Ident::new(converted, Span::call_site()))
    }
}

/// A display name cannot become an identifier of a consumer module's
/// language, or two collide (rule `gen.name`): the code of every
/// [`NameError`] of [`plan`], at the `spx gen` and `spx_build` doors.
pub const CONSUMER_NAME: spx_schema::diag::Code = spx_schema::diag::Code("SPX-G001");

/// A language spx generates a consumer module in, besides Rust.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Language {
    /// TypeScript (`spx gen typescript`).
    TypeScript,
    /// Python (`spx gen python`).
    Python,
}

impl Language {
    /// The language's name in messages.
    pub const fn title(self) -> &'static str {
        match self {
            Language::TypeScript => "TypeScript",
            Language::Python => "Python",
        }
    }
}

/// Python's keywords (`keyword.kwlist`): a type or field with one of these
/// names gets a trailing `_` (PEP 8), as Rust writes `r#type`.
pub const PYTHON_KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// Module-level names a generated TypeScript module defines or uses: its
/// error class and the platform globals its runtime calls or names as
/// types. A type named like one of them would shadow it.
pub const TYPESCRIPT_RESERVED: &[&str] = &[
    "SpxError",
    "Array",
    "BigInt",
    "Error",
    "JSON",
    "Map",
    "Object",
    "Record",
    "String",
    "TextDecoder",
    "TypeError",
    "Uint8Array",
];

/// Module-level names a generated Python module defines or uses (its error
/// class and the builtins its runtime names).
pub const PYTHON_RESERVED: &[&str] = &[
    "SpxError",
    "Exception",
    "RecursionError",
    "TypeError",
    "UnicodeDecodeError",
    "UnicodeEncodeError",
    "ValueError",
];

/// The names of one type in a generated TypeScript or Python module.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeNames {
    /// The type's name: a TypeScript interface or union type; a Python
    /// frozen dataclass (record) or the base class of a variant's cases.
    pub name: String,
    /// A record's field names, in declaration order (empty for a variant).
    pub fields: Vec<String>,
    /// A variant's cases, in declaration order (empty for a record).
    pub cases: Vec<CaseNames>,
    /// Python, for a variant: the `Union` alias of its case classes
    /// (`ShapeUnion`); empty otherwise.
    pub union: String,
}

/// The names of one case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseNames {
    /// The case's own name, CamelCase (`Circle`): TypeScript's `case` tag.
    pub tag: String,
    /// The interface (TypeScript) or dataclass (Python) of the case: the
    /// variant's name followed by the case's (`ShapeCircle`).
    pub class: String,
    /// The case's field names, in declaration order.
    pub fields: Vec<String>,
}

/// Every name of a generated module: per type stable id.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Names {
    /// The names of each type, by stable id.
    pub types: HashMap<String, TypeNames>,
}

/// The types of `schemas` (the roots of one module, in order), each once:
/// types shared between roots keep their first place.
pub fn type_order(schemas: &[Schema]) -> Vec<&TypeNode> {
    let mut order: Vec<&TypeNode> = Vec::new();
    for s in schemas {
        for t in &s.graph().types {
            if !order.iter().any(|o| o.stable_id == t.stable_id) {
                order.push(t);
            }
        }
    }
    order
}

/// Names every type, case and field of `schemas` for `lang`, or reports
/// every name that cannot be one (each once, in declaration order).
///
/// With several roots, the fields of a root record, and of a root
/// variant's cases, may not be named `decode` or `encode` in Python, where
/// the root's class (the record's, or the cases' base class) also holds
/// the root's `decode` and `encode`.
pub fn plan(schemas: &[Schema], lang: Language) -> Result<Names, Vec<NameError>> {
    let mut planner = Planner {
        lang,
        errors: Vec::new(),
        taken: HashMap::new(),
    };
    let several = schemas.len() > 1;
    let roots: Vec<&str> = schemas.iter().map(|s| s.root_type_id()).collect();
    let mut names = Names::default();
    for t in type_order(schemas) {
        let is_root = several && roots.contains(&t.stable_id.as_str());
        let tn = planner.type_names(t, is_root);
        names.types.insert(t.stable_id.clone(), tn);
    }
    if planner.errors.is_empty() {
        Ok(names)
    } else {
        Err(planner.errors)
    }
}

struct Planner<'a> {
    lang: Language,
    errors: Vec<NameError>,
    /// Module-level names taken so far, with the stable id that took each.
    taken: HashMap<String, &'a str>,
}

impl<'a> Planner<'a> {
    fn error(&mut self, stable_id: &str, message: String) {
        self.errors.push(NameError {
            stable_id: stable_id.to_owned(),
            message,
        });
    }

    /// The cased name of `name`, checked against the shared rule, or None
    /// after reporting why not.
    fn cased(&mut self, stable_id: &str, name: &str, cased: String, what: &str) -> Option<String> {
        if name.is_empty() {
            self.error(
                stable_id,
                format!("the {what} `{stable_id}` has no display name"),
            );
            return None;
        }
        if !is_identifier(&cased) {
            let lang = self.lang.title();
            let it = if cased == name {
                String::new()
            } else {
                format!(" (it would be `{cased}`)")
            };
            self.error(
                stable_id,
                format!("the name `{name}` cannot become a {lang} identifier{it} (the {what} `{stable_id}`)"),
            );
            return None;
        }
        Some(cased)
    }

    /// A module-level name: escaped, checked against the reserved names,
    /// and claimed (a second claim is a collision).
    fn claim(&mut self, stable_id: &'a str, name: String, what: &str) -> String {
        let name = match self.lang {
            Language::Python if PYTHON_KEYWORDS.contains(&name.as_str()) => format!("{name}_"),
            _ => name,
        };
        let reserved = match self.lang {
            Language::TypeScript => TYPESCRIPT_RESERVED,
            Language::Python => PYTHON_RESERVED,
        };
        let lang = self.lang.title();
        if reserved.contains(&name.as_str()) {
            self.error(
                stable_id,
                format!("the name `{name}` is reserved in a generated {lang} module (the {what} `{stable_id}`)"),
            );
        } else if let Some(other) = self.taken.insert(name.clone(), stable_id) {
            if other != stable_id {
                self.error(
                    stable_id,
                    format!("`{other}` and `{stable_id}` would both be named `{name}` in {lang}"),
                );
            }
        }
        name
    }

    fn type_names(&mut self, t: &'a TypeNode, is_root: bool) -> TypeNames {
        let what = "type";
        let base = self.cased(&t.stable_id, &t.name, camel(&t.name), what);
        let name = match &base {
            Some(b) => self.claim(&t.stable_id, b.clone(), what),
            None => String::new(),
        };
        match &t.kind {
            TypeKind::Record { fields } => {
                let extra: &[&str] = if is_root && self.lang == Language::Python {
                    &["decode", "encode"]
                } else {
                    &[]
                };
                TypeNames {
                    name,
                    fields: self.field_names(fields, extra),
                    cases: Vec::new(),
                    union: String::new(),
                }
            }
            TypeKind::Variant { cases } => {
                let mut out = Vec::with_capacity(cases.len());
                let mut tags: HashMap<String, &str> = HashMap::new();
                for c in cases {
                    let tag = self
                        .cased(&c.stable_id, &c.name, camel(&c.name), "case")
                        .unwrap_or_default();
                    if !tag.is_empty() {
                        if let Some(prev) = tags.insert(tag.clone(), &c.stable_id) {
                            let lang = self.lang.title();
                            self.error(
                                &c.stable_id,
                                format!("the cases `{prev}` and `{}` would both be named `{tag}` in {lang}", c.stable_id),
                            );
                        }
                    }
                    let class = match (&base, tag.is_empty()) {
                        (Some(b), false) => self.claim(&c.stable_id, format!("{b}{tag}"), "case"),
                        _ => String::new(),
                    };
                    // TypeScript's discriminant; in Python, the members a
                    // root's base class gives every case.
                    let extra: &[&str] = match self.lang {
                        Language::TypeScript => &["case"],
                        Language::Python if is_root => &["decode", "encode"],
                        Language::Python => &[],
                    };
                    out.push(CaseNames {
                        tag,
                        class,
                        fields: self.field_names(&c.fields, extra),
                    });
                }
                let union = match (&base, self.lang) {
                    (Some(b), Language::Python) => {
                        self.claim(&t.stable_id, format!("{b}Union"), "type")
                    }
                    _ => String::new(),
                };
                TypeNames {
                    name,
                    fields: Vec::new(),
                    cases: out,
                    union,
                }
            }
        }
    }

    /// The field names of one list; `extra` are names reserved in it.
    fn field_names(&mut self, fields: &[Field], extra: &[&str]) -> Vec<String> {
        let lang = self.lang.title();
        let mut out: Vec<String> = Vec::with_capacity(fields.len());
        for f in fields {
            let Some(cased) = self.cased(&f.stable_id, &f.name, snake(&f.name), "field") else {
                out.push(String::new());
                continue;
            };
            let name = match self.lang {
                Language::Python if PYTHON_KEYWORDS.contains(&cased.as_str()) => {
                    format!("{cased}_")
                }
                _ => cased,
            };
            let refused = match self.lang {
                Language::TypeScript => name == "__proto__",
                // Class-private (mangled) and special names, and the
                // prefix of the module's own names.
                Language::Python => name.starts_with("__") || name.starts_with("_spx"),
            };
            if refused || extra.contains(&name.as_str()) {
                self.error(
                    &f.stable_id,
                    format!("the name `{name}` is reserved in a generated {lang} module (the field `{}`)", f.stable_id),
                );
            } else if let Some((prev, _)) = fields.iter().zip(&out).find(|(_, o)| **o == name) {
                self.error(
                    &f.stable_id,
                    format!(
                        "the fields `{}` and `{}` would both be named `{name}` in {lang}",
                        prev.stable_id, f.stable_id
                    ),
                );
            }
            out.push(name);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn casing() {
        assert_eq!(camel("Point"), "Point");
        assert_eq!(camel("geo_point"), "GeoPoint");
        assert_eq!(camel("_x"), "X");
        assert_eq!(camel("HTTPServer"), "HTTPServer");
        assert_eq!(snake("x"), "x");
        assert_eq!(snake("max_len"), "max_len");
        assert_eq!(snake("maxLen"), "max_len");
        assert_eq!(snake("HTTPServer"), "http_server");
        assert_eq!(snake("_x"), "_x");
        assert_eq!(snake("Self"), "self");
        assert_eq!(snake("v2Beta"), "v2_beta");
    }

    #[test]
    fn idents() {
        assert_eq!(ident("type", "type").unwrap().to_string(), "r#type");
        assert_eq!(ident("x", "x").unwrap().to_string(), "x");
        for bad in ["self", "Self", "super", "crate", "_", ""] {
            assert!(ident(bad, bad).is_err(), "{bad}");
        }
        assert!(ident("__", "").is_err());
    }

    fn schema(src: &str, root: &str) -> Schema {
        let m = spx_schema::source::read_module("t.spx", src).unwrap();
        Schema::derive(&m, root).unwrap()
    }

    const SRC: &str = "module t;\n@id(\"t.r\")\nrecord geo_point {\n  @id(\"t.r.a\") maxLen: i64,\n  @id(\"t.r.b\") class: bool,\n  @id(\"t.r.c\") v: None,\n}\n@id(\"t.v\")\nvariant None {\n  @id(\"t.v.a\") true,\n  @id(\"t.v.b\") go_on { @id(\"t.v.b.x\") case: u8, },\n}\n";

    #[test]
    fn the_same_names_in_every_language_with_each_ones_escapes() {
        let s = [schema(SRC, "t.r")];
        let py = plan(&s, Language::Python).unwrap();
        let r = &py.types["t.r"];
        assert_eq!(r.name, "GeoPoint");
        assert_eq!(r.fields, ["max_len", "class_", "v"]);
        let v = &py.types["t.v"];
        assert_eq!((v.name.as_str(), v.union.as_str()), ("None_", "NoneUnion"));
        let cases: Vec<(&str, &str)> = v
            .cases
            .iter()
            .map(|c| (c.tag.as_str(), c.class.as_str()))
            .collect();
        assert_eq!(cases, [("True", "NoneTrue"), ("GoOn", "NoneGoOn")]);
        assert_eq!(v.cases[1].fields, ["case"]);
        // TypeScript: no escapes, but `case` is the discriminant.
        let errors = plan(&s, Language::TypeScript).unwrap_err();
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].stable_id, "t.v.b.x");
        assert_eq!(
            errors[0].message,
            "the name `case` is reserved in a generated TypeScript module (the field `t.v.b.x`)"
        );
    }

    #[test]
    fn reserved_names_collisions_and_missing_names_are_each_reported() {
        let src = "module t;\n@id(\"t.a\")\nrecord SpxError { @id(\"t.a.x\") __x: i64, @id(\"t.a.y\") _spx_y: i64, }\n@id(\"t.b\")\nrecord Uint8Array { @id(\"t.b.x\") x_y: i64, @id(\"t.b.y\") xY: i64, @id(\"t.b.z\") r: SpxError, }\n@id(\"t.d\")\nrecord TA {}\n@id(\"t.c\")\nrecord T_a { @id(\"t.c.x\") x: TA, @id(\"t.c.y\") y: Uint8Array, }\n";
        let s = [schema(src, "t.c")];
        let messages = |lang| -> Vec<String> {
            plan(&s, lang)
                .unwrap_err()
                .into_iter()
                .map(|e| format!("{}: {}", e.stable_id, e.message))
                .collect()
        };
        assert_eq!(
            messages(Language::TypeScript),
            [
                "t.a: the name `SpxError` is reserved in a generated TypeScript module (the type `t.a`)",
                "t.b: the name `Uint8Array` is reserved in a generated TypeScript module (the type `t.b`)",
                "t.b.y: the fields `t.b.x` and `t.b.y` would both be named `x_y` in TypeScript",
                "t.c: `t.d` and `t.c` would both be named `TA` in TypeScript",
            ]
        );
        assert_eq!(
            messages(Language::Python),
            [
                "t.a: the name `SpxError` is reserved in a generated Python module (the type `t.a`)",
                "t.a.x: the name `__x` is reserved in a generated Python module (the field `t.a.x`)",
                "t.a.y: the name `_spx_y` is reserved in a generated Python module (the field `t.a.y`)",
                "t.b.y: the fields `t.b.x` and `t.b.y` would both be named `x_y` in Python",
                "t.c: `t.d` and `t.c` would both be named `TA` in Python",
            ]
        );
        // A graph read back from a document has no names.
        let bare = Schema::parse_document(s[0].document().as_bytes()).unwrap();
        let e = plan(&[bare], Language::Python).unwrap_err();
        assert_eq!(e[0].message, "the type `t.d` has no display name");
    }

    #[test]
    fn the_typescript_runtime_names_only_reserved_globals() {
        // Every capitalised identifier the runtime uses that it does not
        // declare itself must be reserved, or a type of that name would
        // shadow it.
        let rt = crate::typescript::RUNTIME;
        let mut declared = std::collections::HashSet::new();
        for w in [
            "class ",
            "interface ",
            "type ",
            "const ",
            "function ",
            "declare const ",
        ] {
            for part in rt.split(w).skip(1) {
                let name: String = part
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '$')
                    .collect();
                declared.insert(name);
            }
        }
        let mut used = std::collections::BTreeSet::new();
        let code: String = rt
            .lines()
            .filter(|l| {
                !l.trim_start().starts_with("//")
                    && !l.trim_start().starts_with('*')
                    && !l.trim_start().starts_with("/**")
            })
            .collect::<Vec<_>>()
            .join("\n");
        let mut word = String::new();
        let mut in_string: Option<char> = None;
        for c in code.chars().chain(std::iter::once(' ')) {
            if let Some(q) = in_string {
                if c == q {
                    in_string = None;
                }
                continue;
            }
            if c.is_ascii_alphanumeric() || c == '_' || c == '$' {
                word.push(c);
                continue;
            }
            if word.starts_with(|w: char| w.is_ascii_uppercase()) && !declared.contains(&word) {
                used.insert(word.clone());
            }
            word.clear();
            if c == '"' || c == '\'' {
                in_string = Some(c);
            }
        }
        let unreserved: Vec<&String> = used
            .iter()
            .filter(|u| !TYPESCRIPT_RESERVED.contains(&u.as_str()))
            .collect();
        assert!(
            unreserved.is_empty(),
            "globals the runtime uses without reserving them: {unreserved:?}"
        );
    }
}
