//! `[package.metadata.spx]`, read through `cargo metadata`.

use crate::{Source, BUILD_METADATA};
use serde_json::Value as J;
use spx_schema::binding::SOURCE_UNREADABLE;
use spx_schema::diag::{Diagnostic, Location};
use spx_schema::quote::quote;
use std::path::{Path, PathBuf};

pub(crate) fn problem(message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(BUILD_METADATA, "build.metadata", message)
        .at(Location::File {
            path: "Cargo.toml".to_owned(),
        })
        .with_detail(
            "expected, in Cargo.toml:\n[package.metadata.spx]\nsources = [{ path = \"agents/planner.spx\", roots = [\"planner.proposal\"] }]",
        )
}

/// One package of a workspace, as `cargo metadata` lists it.
#[derive(Debug, Clone)]
pub(crate) struct Package {
    /// The package name.
    pub name: String,
    /// The directory of its `Cargo.toml`.
    pub dir: PathBuf,
    /// Its `[package.metadata]`, as JSON.
    pub metadata: J,
    /// It has a build script that depends on spx-build (so that
    /// `SPX_UPDATE_PINS=1 cargo build` can re-pin it).
    pub spx_build_script: bool,
}

/// SPX-F001 when `manifest` cannot be read: unreadable input, not a
/// configuration problem.
fn readable(manifest: &Path) -> Result<(), Diagnostic> {
    std::fs::File::open(manifest).map(drop).map_err(|e| {
        let shown = manifest.display().to_string();
        Diagnostic::error(
            SOURCE_UNREADABLE,
            "source.unreadable",
            format!("cannot read `{shown}`: {e}"),
        )
        .at(Location::File { path: shown })
    })
}

/// The workspace members of the workspace `manifest` belongs to, and the
/// member whose manifest `manifest` is (`None` for a virtual manifest).
pub(crate) fn workspace(manifest: &Path) -> Result<(Vec<Package>, Option<usize>), Diagnostic> {
    readable(manifest)?;
    let metadata = cargo_metadata::MetadataCommand::new()
        .manifest_path(manifest)
        .no_deps()
        .other_options(vec!["--offline".to_owned()])
        .exec()
        .map_err(|e| problem(format!("`cargo metadata` failed: {e}")))?;
    let wanted = std::fs::canonicalize(manifest).unwrap_or_else(|_| manifest.to_path_buf());
    let mut out = Vec::new();
    let mut this = None;
    for p in &metadata.packages {
        if !metadata.workspace_members.contains(&p.id) {
            continue;
        }
        let path = p.manifest_path.as_std_path();
        if std::fs::canonicalize(path).is_ok_and(|m| m == wanted) {
            this = Some(out.len());
        }
        let spx_build_script = p
            .targets
            .iter()
            .any(|t| t.kind.iter().any(|k| k.to_string() == "custom-build"))
            && p.dependencies
                .iter()
                .any(|d| d.name == "spx-build" && d.kind == cargo_metadata::DependencyKind::Build);
        out.push(Package {
            name: p.name.to_string(),
            dir: path.parent().map(Path::to_path_buf).unwrap_or_default(),
            metadata: p.metadata.clone(),
            spx_build_script,
        });
    }
    Ok((out, this))
}

/// The package whose `Cargo.toml` is in `package_dir`.
pub(crate) fn package(package_dir: &Path) -> Result<Package, Diagnostic> {
    let manifest = package_dir.join("Cargo.toml");
    let (mut members, this) = workspace(&manifest)?;
    match this {
        Some(i) => Ok(members.swap_remove(i)),
        None => Err(problem("`cargo metadata` did not list this package")),
    }
}

/// Reads the sources of the package whose `Cargo.toml` is in `package_dir`.
pub(crate) fn read_sources(package_dir: &Path) -> Result<Vec<Source>, Diagnostic> {
    sources_from_value(&package(package_dir)?.metadata)
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
