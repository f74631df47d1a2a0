//! A project manifest, `semaprax.toml`, read with a TOML library.
//!
//! Two shapes are read (both are in use in the semaprax repository):
//!
//! ```toml
//! schema = "semaprax.project.v1"
//! name = "calculator"
//! entry = "calculator.app"
//! sources = ["src/app.spx", "src/core.spx"]
//! ```
//!
//! ```toml
//! schema = "semaprax.manifest.v1"
//! [package]
//! name = "nested-order-json"
//! [modules]
//! entry = "orders.app"
//! sources = ["src/app.spx", "src/schema.spx"]
//! ```
//!
//! The repository's manifests carry later versions of both schemas
//! (`semaprax.project.v3` … `v13`, `semaprax.manifest.v2`); each version only
//! adds keys, so every `semaprax.project.vN` and `semaprax.manifest.vN` is
//! read the same way. Only `schema` and `sources` are required; `name` and `entry` are read
//! when present; every other key (`web_exports`, `tests`, `[exports]`,
//! `[dependencies]`, …) is ignored, since a schema does not need it. The
//! paths in `sources` are relative to the manifest's directory.
//!
//! A manifest that cannot be read as one (not TOML, an unknown `schema`, no
//! `sources` list of strings) is an unreadable file: SPX-F001 with a
//! `manifest.*` rule, located at the offending text (the CLI exits 2).

use super::model::Pos;
use crate::diag::{Code, Diagnostic};

/// The two families of `schema` values a manifest may have: each is followed
/// by a version, `v1`, `v2`, … (see [`is_manifest_schema`]).
pub const MANIFEST_SCHEMAS: [&str; 2] = ["semaprax.project.v", "semaprax.manifest.v"];

/// Whether `schema` names a manifest this build reads: one of
/// [`MANIFEST_SCHEMAS`] followed by a version number (`semaprax.project.v1`,
/// `semaprax.project.v13`, `semaprax.manifest.v2`, …).
pub fn is_manifest_schema(schema: &str) -> bool {
    MANIFEST_SCHEMAS.iter().any(|family| {
        schema.strip_prefix(family).is_some_and(|version| {
            !version.is_empty()
                && !version.starts_with('0')
                && version.bytes().all(|b| b.is_ascii_digit())
        })
    })
}

/// A file whose name ends with this is read as a project manifest wherever
/// a source is named.
pub const MANIFEST_SUFFIX: &str = ".toml";

/// The code of a manifest that cannot be read (that of an unreadable file).
const UNREADABLE: Code = Code("SPX-F001");

/// One entry of `sources`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ManifestSource {
    /// The path as written, relative to the manifest's directory.
    pub path: String,
    /// Where the entry (its string) is in the manifest.
    pub pos: Pos,
}

/// A read `semaprax.toml`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Manifest {
    /// The manifest's path as the caller gave it (used in diagnostics).
    pub path: String,
    /// `schema`: a version of one of [`MANIFEST_SCHEMAS`].
    pub schema: String,
    /// The project's name (`name`, or `[package] name`), when given.
    pub name: Option<String>,
    /// The entry module (`entry`, or `[modules] entry`), when given.
    pub entry: Option<String>,
    /// The sources, in order.
    pub sources: Vec<ManifestSource>,
}

/// True when `path` names a manifest rather than a `.spx` module.
pub fn is_manifest(path: &std::path::Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.ends_with(MANIFEST_SUFFIX))
}

/// The position of the byte range `range` of `text` (1-based line and
/// column in characters). A range outside the text is clamped to it.
fn pos_of(text: &str, range: std::ops::Range<usize>) -> Pos {
    let mut start = range.start.min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let before = &text[..start];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    let clamp = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
    Pos {
        line: clamp(line),
        column: clamp(column),
        start: clamp(start),
        end: clamp(range.end.clamp(start, text.len())),
    }
}

fn refuse(
    path: &str,
    text: &str,
    rule: &'static str,
    msg: String,
    at: std::ops::Range<usize>,
    help: &str,
) -> Diagnostic {
    Diagnostic::error(UNREADABLE, rule, msg)
        .at(pos_of(text, at).location(path))
        .with_help(help)
}

const EXPECTED: &str = "a project manifest reads: schema = \"semaprax.project.v1\", name = \"…\", entry = \"a.b\", sources = [\"src/a.spx\", …] (paths relative to the manifest)";

/// Reads the manifest `text`; `path` names it in diagnostics.
pub fn parse_manifest(path: &str, text: &str) -> Result<Manifest, Diagnostic> {
    use toml::de::{DeTable, DeValue};
    let doc = DeTable::parse(text).map_err(|e| {
        refuse(
            path,
            text,
            "manifest.syntax",
            format!(
                "manifest `{path}` is not valid TOML: {}",
                e.message().trim_end()
            ),
            e.span().unwrap_or(0..0),
            "fix the TOML syntax at this place",
        )
    })?;
    let root = doc.get_ref();
    let whole = 0..text.len().min(1);
    let string = |table: &DeTable<'_>, key: &str| -> Result<Option<String>, Diagnostic> {
        match table.get(key) {
            None => Ok(None),
            Some(v) => match v.get_ref() {
                DeValue::String(s) => Ok(Some(s.to_string())),
                other => Err(refuse(
                    path,
                    text,
                    "manifest.key",
                    format!(
                        "`{key}` in manifest `{path}` must be a string, found {}",
                        other.type_str()
                    ),
                    v.span(),
                    EXPECTED,
                )),
            },
        }
    };
    let schema = match root.get("schema") {
        None => {
            return Err(refuse(
                path,
                text,
                "manifest.schema",
                format!("manifest `{path}` has no `schema` key"),
                whole,
                EXPECTED,
            ))
        }
        Some(v) => match v.get_ref() {
            DeValue::String(s) if is_manifest_schema(s) => s.to_string(),
            _ => {
                return Err(refuse(
                    path,
                    text,
                    "manifest.schema",
                    format!(
                        "manifest `{path}` has an unknown `schema` (this build reads {})",
                        MANIFEST_SCHEMAS.map(|s| format!("\"{s}N\"")).join(" and ")
                    ),
                    v.span(),
                    EXPECTED,
                ))
            }
        },
    };
    // `semaprax.manifest.v1` keeps the project's keys in tables.
    let table = |name: &str| -> Result<Option<&DeTable<'_>>, Diagnostic> {
        match root.get(name) {
            None => Ok(None),
            Some(v) => match v.get_ref() {
                DeValue::Table(t) => Ok(Some(t)),
                other => Err(refuse(
                    path,
                    text,
                    "manifest.key",
                    format!(
                        "`{name}` in manifest `{path}` must be a table, found {}",
                        other.type_str()
                    ),
                    v.span(),
                    EXPECTED,
                )),
            },
        }
    };
    let package = table("package")?;
    let modules = table("modules")?;
    let name = match string(root, "name")? {
        Some(n) => Some(n),
        None => package.map(|p| string(p, "name")).transpose()?.flatten(),
    };
    let mut entry = string(root, "entry")?;
    let mut sources_value = root.get("sources");
    if let Some(m) = modules {
        if entry.is_none() {
            entry = string(m, "entry")?;
        }
        if sources_value.is_none() {
            sources_value = m.get("sources");
        }
    }
    let Some(sources_value) = sources_value else {
        return Err(refuse(
            path,
            text,
            "manifest.key",
            format!("manifest `{path}` has no `sources` list"),
            whole,
            EXPECTED,
        ));
    };
    let DeValue::Array(items) = sources_value.get_ref() else {
        return Err(refuse(
            path,
            text,
            "manifest.key",
            format!(
                "`sources` in manifest `{path}` must be an array of paths, found {}",
                sources_value.get_ref().type_str()
            ),
            sources_value.span(),
            EXPECTED,
        ));
    };
    let mut sources = Vec::with_capacity(items.len());
    for item in items.iter() {
        match item.get_ref() {
            DeValue::String(s) if !s.is_empty() => sources.push(ManifestSource {
                path: s.to_string(),
                pos: pos_of(text, item.span()),
            }),
            other => {
                return Err(refuse(
                    path,
                    text,
                    "manifest.key",
                    format!(
                        "every entry of `sources` in manifest `{path}` must be a non-empty path, found {}",
                        if other.is_str() { "an empty string" } else { other.type_str() }
                    ),
                    item.span(),
                    EXPECTED,
                ))
            }
        }
    }
    if sources.is_empty() {
        return Err(refuse(
            path,
            text,
            "manifest.key",
            format!("`sources` in manifest `{path}` is empty"),
            sources_value.span(),
            EXPECTED,
        ));
    }
    Ok(Manifest {
        path: path.to_owned(),
        schema,
        name,
        entry,
        sources,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_shapes_are_read_and_other_keys_ignored() {
        let m = parse_manifest(
            "p/semaprax.toml",
            "schema = \"semaprax.project.v1\"\nname = \"calc\"\nentry = \"calc.app\"\nsources = [\"src/app.spx\", \"src/core.spx\"]\nweb_exports = [\"calc.add\"]\ntests = [\"calc.tests\"]\n",
        )
        .unwrap();
        assert_eq!(m.schema, "semaprax.project.v1");
        assert_eq!(m.name.as_deref(), Some("calc"));
        assert_eq!(m.entry.as_deref(), Some("calc.app"));
        let got: Vec<(&str, u32, u32)> = m
            .sources
            .iter()
            .map(|s| (s.path.as_str(), s.pos.line, s.pos.column))
            .collect();
        assert_eq!(got, [("src/app.spx", 4, 12), ("src/core.spx", 4, 27)]);
        let m = parse_manifest(
            "semaprax.toml",
            "schema = \"semaprax.manifest.v1\"\n\n[package]\nname = \"orders\"\nversion = \"0.1.0\"\n\n[modules]\nentry = \"orders.app\"\nsources = [\"src/app.spx\"]\n\n[dependencies]\nstd.data.json.scan = \"=0.1.0\"\n",
        )
        .unwrap();
        assert_eq!(m.name.as_deref(), Some("orders"));
        assert_eq!(m.entry.as_deref(), Some("orders.app"));
        assert_eq!(m.sources[0].path, "src/app.spx");
        assert_eq!((m.sources[0].pos.line, m.sources[0].pos.column), (9, 12));
    }

    #[test]
    fn every_version_of_both_schemas_is_read() {
        for (schema, read) in [
            ("semaprax.project.v1", true),
            ("semaprax.project.v13", true),
            ("semaprax.manifest.v1", true),
            ("semaprax.manifest.v2", true),
            ("semaprax.project.v", false),
            ("semaprax.project.v0", false),
            ("semaprax.project.v01", false),
            ("semaprax.project.v1a", false),
            ("semaprax.project", false),
            ("semaprax.workspace.v1", false),
        ] {
            assert_eq!(is_manifest_schema(schema), read, "{schema}");
        }
        // The shapes of the repository's later versions (additive keys).
        let m = parse_manifest(
            "semaprax.toml",
            "schema = \"semaprax.project.v13\"\nname = \"https-client\"\nversion = \"1.0.0\"\nprofile = \"https-command-io.v1\"\nentry = \"https_client.app\"\nsources = [\"src/app.spx\", \"src/tests.spx\"]\ncommand = \"https-client.fetch\"\ncapabilities = [\"network.http\"]\n",
        )
        .unwrap();
        assert_eq!(m.schema, "semaprax.project.v13");
        assert_eq!(m.sources.len(), 2);
        let m = parse_manifest(
            "semaprax.toml",
            "schema = \"semaprax.manifest.v2\"\n\n[package]\nname = \"native-law-example\"\n\n[modules]\nentry = \"native_law.app\"\nsources = [\"src/LAWS.spx\", \"src/app.spx\"]\nlaw_sources = [\"src/LAWS.spx\"]\n",
        )
        .unwrap();
        assert_eq!(m.entry.as_deref(), Some("native_law.app"));
        assert_eq!(m.sources.len(), 2);
    }

    #[test]
    fn what_cannot_be_read_is_refused_at_its_place() {
        for (text, rule, at) in [
            (
                "schema = \"semaprax.project.v1\"\nsources = [\n",
                "manifest.syntax",
                "m.toml:2:12",
            ),
            (
                "name = \"x\"\nsources = [\"a.spx\"]\n",
                "manifest.schema",
                "m.toml:1:1",
            ),
            (
                "schema = \"semaprax.workspace.v1\"\nsources = [\"a.spx\"]\n",
                "manifest.schema",
                "m.toml:1:10",
            ),
            (
                "schema = \"semaprax.project.v1\"\n",
                "manifest.key",
                "m.toml:1:1",
            ),
            (
                "schema = \"semaprax.project.v1\"\nsources = \"a.spx\"\n",
                "manifest.key",
                "m.toml:2:11",
            ),
            (
                "schema = \"semaprax.project.v1\"\nsources = [\"a.spx\", 3]\n",
                "manifest.key",
                "m.toml:2:21",
            ),
            (
                "schema = \"semaprax.project.v1\"\nsources = []\n",
                "manifest.key",
                "m.toml:2:11",
            ),
            (
                "schema = \"semaprax.project.v1\"\nname = 1\nsources = [\"a.spx\"]\n",
                "manifest.key",
                "m.toml:2:8",
            ),
        ] {
            let e = parse_manifest("m.toml", text).unwrap_err();
            assert_eq!((e.code, e.rule), (UNREADABLE, rule), "{text:?}: {e}");
            assert_eq!(e.location.to_string(), at, "{text:?}: {e}");
            assert!(e.help.is_some());
            assert!(matches!(
                e.location,
                crate::Location::Source { span: Some(_), .. }
            ));
        }
    }

    #[test]
    fn positions_count_characters() {
        let p = pos_of("é\nab", 4..5);
        assert_eq!((p.line, p.column, p.start, p.end), (2, 2, 4, 5));
        let p = pos_of("é", 1..9);
        assert_eq!((p.line, p.column, p.start, p.end), (1, 1, 0, 2));
    }
}
