//! `[package.metadata.spx]`, read through `cargo metadata`.

use crate::{Source, BUILD_METADATA};
use serde_json::Value as J;
use spx_schema::diag::{Diagnostic, Location};
use spx_schema::quote::quote;
use std::path::Path;

fn problem(message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(BUILD_METADATA, "build.metadata", message)
        .at(Location::File {
            path: "Cargo.toml".to_owned(),
        })
        .with_detail(
            "expected, in Cargo.toml:\n[package.metadata.spx]\nsources = [{ path = \"agents/planner.spx\", roots = [\"planner.proposal\"] }]",
        )
}

/// Reads the sources of the package whose `Cargo.toml` is in `package_dir`.
pub(crate) fn read_sources(package_dir: &Path) -> Result<Vec<Source>, Diagnostic> {
    let manifest = package_dir.join("Cargo.toml");
    let metadata = cargo_metadata::MetadataCommand::new()
        .manifest_path(&manifest)
        .no_deps()
        .other_options(vec!["--offline".to_owned()])
        .exec()
        .map_err(|e| problem(format!("`cargo metadata` failed: {e}")))?;
    let wanted = std::fs::canonicalize(&manifest).unwrap_or(manifest);
    let package = metadata
        .packages
        .iter()
        .find(|p| std::fs::canonicalize(p.manifest_path.as_std_path()).is_ok_and(|m| m == wanted))
        .ok_or_else(|| problem("`cargo metadata` did not list this package"))?;
    sources_from_value(&package.metadata)
}

/// Validates the JSON form of `[package.metadata]`.
pub(crate) fn sources_from_value(metadata: &J) -> Result<Vec<Source>, Diagnostic> {
    let spx = metadata
        .get("spx")
        .ok_or_else(|| problem("Cargo.toml has no [package.metadata.spx] table"))?;
    let table = spx
        .as_object()
        .ok_or_else(|| problem("[package.metadata.spx] must be a table"))?;
    if let Some(k) = table.keys().find(|k| k.as_str() != "sources") {
        return Err(problem(format!(
            "unknown key {} in [package.metadata.spx] (expected only `sources`)",
            quote(k)
        )));
    }
    let list = table
        .get("sources")
        .and_then(J::as_array)
        .ok_or_else(|| problem("[package.metadata.spx] needs `sources`, an array of tables"))?;
    if list.is_empty() {
        return Err(problem("[package.metadata.spx] `sources` is empty"));
    }
    let mut out = Vec::with_capacity(list.len());
    for (i, item) in list.iter().enumerate() {
        let n = i + 1;
        let obj = item.as_object().ok_or_else(|| {
            problem(format!(
                "source #{n} in [package.metadata.spx] must be a table {{ path = \"…\", roots = [\"…\"] }}"
            ))
        })?;
        if let Some(k) = obj.keys().find(|k| !matches!(k.as_str(), "path" | "roots")) {
            return Err(problem(format!(
                "unknown key {} in source #{n} of [package.metadata.spx] (expected `path` and `roots`)",
                quote(k)
            )));
        }
        let raw = obj
            .get("path")
            .and_then(J::as_str)
            .ok_or_else(|| problem(format!("source #{n} needs `path`, a string")))?;
        let path = spx_schema::lock::normalize_source(raw)
            .map_err(|why| problem(format!("source #{n}: path {} {why}", quote(raw))))?;
        let roots_v = obj
            .get("roots")
            .and_then(J::as_array)
            .ok_or_else(|| problem(format!("source #{n} needs `roots`, an array of strings")))?;
        if roots_v.is_empty() {
            return Err(problem(format!("source #{n} has an empty `roots` list")));
        }
        let mut roots = Vec::with_capacity(roots_v.len());
        for r in roots_v {
            let r = r
                .as_str()
                .ok_or_else(|| problem(format!("source #{n}: every root must be a string")))?;
            roots.push(r.to_owned());
        }
        out.push(Source { path, roots });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_sources() {
        let v: J = serde_json::from_str(
            r#"{"spx":{"sources":[{"path":"agents/p.spx","roots":["p.a","p.b"]}]}}"#,
        )
        .unwrap();
        let s = sources_from_value(&v).unwrap();
        assert_eq!(s[0].path, "agents/p.spx");
        assert_eq!(s[0].roots, ["p.a", "p.b"]);
    }

    #[test]
    fn normalises_paths_and_refuses_what_leaves_the_package() {
        for (path, want) in [
            ("agents/p.spx", Ok("agents/p.spx")),
            ("./agents/p.spx", Ok("agents/p.spx")),
            ("agents//p.spx", Ok("agents/p.spx")),
            ("x/../agents/p.spx", Ok("agents/p.spx")),
            (
                "../p.spx",
                Err("source #1: path \"../p.spx\" leaves the package root (a `..` climbs above it)"),
            ),
            (
                "/agents/p.spx",
                Err("source #1: path \"/agents/p.spx\" must be relative to the package root"),
            ),
            (
                "agents\\p.spx",
                Err("source #1: path \"agents\\\\p.spx\" must use `/` as separator"),
            ),
            (
                "agents/",
                Err("source #1: path \"agents/\" does not name a file (it ends with `/`, `.` or `..`)"),
            ),
        ] {
            let v = serde_json::json!({"spx": {"sources": [{"path": path, "roots": ["p.a"]}]}});
            let got = sources_from_value(&v);
            match want {
                Ok(normal) => assert_eq!(got.unwrap()[0].path, normal, "{path}"),
                Err(message) => {
                    let d = got.unwrap_err();
                    assert_eq!((d.code, d.rule), (BUILD_METADATA, "build.metadata"), "{path}");
                    assert_eq!(d.message, message, "{path}");
                }
            }
        }
    }

    #[test]
    fn refuses_unknown_keys_and_bad_paths() {
        for (text, needle) in [
            (r#"{}"#, "no [package.metadata.spx]"),
            (r#"{"spx":{"source":[]}}"#, "unknown key \"source\""),
            (r#"{"spx":{"sources":[]}}"#, "is empty"),
            (
                r#"{"spx":{"sources":[{"path":"/abs.spx","roots":["a"]}]}}"#,
                "must be relative",
            ),
            (
                r#"{"spx":{"sources":[{"path":"a.spx","roots":[]}]}}"#,
                "empty `roots`",
            ),
            (
                r#"{"spx":{"sources":[{"path":"a.spx","roots":["a"],"x":1}]}}"#,
                "unknown key \"x\"",
            ),
        ] {
            let v: J = serde_json::from_str(text).unwrap();
            let d = sources_from_value(&v).unwrap_err();
            assert_eq!(d.code, BUILD_METADATA);
            assert_eq!(d.rule, "build.metadata");
            assert!(d.message.contains(needle), "{text}: {}", d.message);
        }
    }
}
