//! The source-path rule: how a `.spx` path written by a user names a pin.
//!
//! A source path is relative to the package root (the directory of
//! `Cargo.toml`, `CARGO_MANIFEST_DIR`) and `/`-separated. It is normalised
//! lexically, without touching the file system: empty and `.` components
//! are dropped and `..` removes the component before it, so
//! `agents/p.spx`, `./agents/p.spx`, `agents//p.spx` and `x/../agents/p.spx`
//! are one path, `agents/p.spx`, which is the pin's key in `spx.lock` and
//! the file that is read. Symbolic links are not resolved: what is pinned
//! is what was written, once normalised.
//!
//! Refused, by every door with the same reason ([`SourcePathError`]):
//! an empty path, an absolute one (leading `/` or `\`, or any `:`, which
//! is a drive, a scheme or a Windows stream), a `\` anywhere else (it is
//! not a separator), a control character, a path ending in `/`, `.` or
//! `..` (a directory), and a `..` that climbs above the package root.
//! `spx.lock` can pin only a path inside the package; the macro alone may
//! read a source outside it, pinned by a `digest:` written in the call
//! ([`MacroSource::Outside`]).

use std::fmt;

/// Why a source path cannot name a file inside the package.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SourcePathError {
    /// The path is empty.
    Empty,
    /// The path starts with `/` or `\`, or contains `:`.
    Absolute,
    /// The path contains `\` (not at its start).
    Backslash,
    /// The path contains a control character.
    Control,
    /// The path ends with `/`, `.` or `..`: it names a directory.
    NotAFile,
    /// A `..` climbs above the package root.
    LeavesPackage,
}

impl SourcePathError {
    /// Why, as the end of a sentence that starts with the path, naming the
    /// package root `root` (for example `"the package root"` or
    /// `"CARGO_MANIFEST_DIR"`).
    pub fn reason(self, root: &str) -> String {
        match self {
            SourcePathError::Empty => "is empty".to_owned(),
            SourcePathError::Absolute => format!("must be relative to {root}"),
            SourcePathError::Backslash => "must use `/` as separator".to_owned(),
            SourcePathError::Control => "contains a control character".to_owned(),
            SourcePathError::NotAFile => {
                "does not name a file (it ends with `/`, `.` or `..`)".to_owned()
            }
            SourcePathError::LeavesPackage => format!("leaves {root} (a `..` climbs above it)"),
        }
    }
}

impl fmt::Display for SourcePathError {
    /// [`SourcePathError::reason`] with the root called "the package root".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.reason(PACKAGE_ROOT))
    }
}

impl std::error::Error for SourcePathError {}

/// How the package root is named in path diagnostics.
pub const PACKAGE_ROOT: &str = "the package root";

/// The normal form of the package-relative source path `raw`: the pin's
/// key in `spx.lock`, and the path that is read.
///
/// ```
/// use spx_schema::lock::{normalize_source, SourcePathError};
/// assert_eq!(normalize_source("./agents//p.spx").as_deref(), Ok("agents/p.spx"));
/// assert_eq!(normalize_source("x/../p.spx").as_deref(), Ok("p.spx"));
/// assert_eq!(normalize_source("../p.spx"), Err(SourcePathError::LeavesPackage));
/// assert_eq!(normalize_source("/etc/p.spx"), Err(SourcePathError::Absolute));
/// ```
pub fn normalize_source(raw: &str) -> Result<String, SourcePathError> {
    if raw.is_empty() {
        return Err(SourcePathError::Empty);
    }
    if raw.starts_with('/') || raw.starts_with('\\') || raw.contains(':') {
        return Err(SourcePathError::Absolute);
    }
    if raw.contains('\\') {
        return Err(SourcePathError::Backslash);
    }
    if raw.chars().any(char::is_control) {
        return Err(SourcePathError::Control);
    }
    let mut kept: Vec<&str> = Vec::new();
    for component in raw.split('/') {
        match component {
            "" | "." => {}
            ".." => {
                if kept.pop().is_none() {
                    return Err(SourcePathError::LeavesPackage);
                }
            }
            name => kept.push(name),
        }
    }
    let last = raw.rsplit('/').next().unwrap_or(raw);
    if matches!(last, "" | "." | "..") || kept.is_empty() {
        return Err(SourcePathError::NotAFile);
    }
    Ok(kept.join("/"))
}

/// A source path as written in a `spx_interaction!` call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MacroSource {
    /// Inside the package: the normal form, which is the pin's key in
    /// `spx.lock` and the path read.
    Package(String),
    /// A `..` leaves the package: `spx.lock` cannot pin it, only a
    /// `digest:` in the call can. Read as written.
    Outside(String),
}

impl MacroSource {
    /// Classifies `raw`, refusing what [`normalize_source`] refuses except
    /// a `..` that leaves the package.
    pub fn of(raw: &str) -> Result<MacroSource, SourcePathError> {
        match normalize_source(raw) {
            Ok(key) => Ok(MacroSource::Package(key)),
            Err(SourcePathError::LeavesPackage) => Ok(MacroSource::Outside(raw.to_owned())),
            Err(e) => Err(e),
        }
    }

    /// The path to read, relative to the package root.
    pub fn relative_path(&self) -> &str {
        match self {
            MacroSource::Package(p) | MacroSource::Outside(p) => p,
        }
    }

    /// The key of the source's pins in `spx.lock`, when it can have any.
    pub fn pin_key(&self) -> Option<&str> {
        match self {
            MacroSource::Package(p) => Some(p),
            MacroSource::Outside(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use SourcePathError as E;

    #[test]
    fn spellings_of_one_path_have_one_normal_form() {
        for raw in [
            "agents/planner.spx",
            "./agents/planner.spx",
            "agents//planner.spx",
            "agents/./planner.spx",
            ".//agents///planner.spx",
            "x/../agents/planner.spx",
            "agents/x/y/../../planner.spx",
        ] {
            assert_eq!(
                normalize_source(raw).as_deref(),
                Ok("agents/planner.spx"),
                "{raw:?}"
            );
        }
        assert_eq!(normalize_source("p.spx").as_deref(), Ok("p.spx"));
        assert_eq!(normalize_source("./p.spx").as_deref(), Ok("p.spx"));
        assert_eq!(normalize_source("a b/ü.spx").as_deref(), Ok("a b/ü.spx"));
        assert_eq!(normalize_source("...spx").as_deref(), Ok("...spx"));
    }

    #[test]
    fn refusals_and_their_reasons() {
        let cases = [
            ("", E::Empty, "is empty"),
            (
                "/etc/p.spx",
                E::Absolute,
                "must be relative to the package root",
            ),
            (
                "\\p.spx",
                E::Absolute,
                "must be relative to the package root",
            ),
            (
                "C:\\p.spx",
                E::Absolute,
                "must be relative to the package root",
            ),
            (
                "c:p.spx",
                E::Absolute,
                "must be relative to the package root",
            ),
            (
                "a/p.spx:s",
                E::Absolute,
                "must be relative to the package root",
            ),
            ("agents\\p.spx", E::Backslash, "must use `/` as separator"),
            ("a\u{7f}.spx", E::Control, "contains a control character"),
            ("a\n.spx", E::Control, "contains a control character"),
            (
                "agents/",
                E::NotAFile,
                "does not name a file (it ends with `/`, `.` or `..`)",
            ),
            (
                "agents/.",
                E::NotAFile,
                "does not name a file (it ends with `/`, `.` or `..`)",
            ),
            (
                "agents/x/..",
                E::NotAFile,
                "does not name a file (it ends with `/`, `.` or `..`)",
            ),
            (
                ".",
                E::NotAFile,
                "does not name a file (it ends with `/`, `.` or `..`)",
            ),
            (
                "./",
                E::NotAFile,
                "does not name a file (it ends with `/`, `.` or `..`)",
            ),
            (
                "..",
                E::LeavesPackage,
                "leaves the package root (a `..` climbs above it)",
            ),
            (
                "../p.spx",
                E::LeavesPackage,
                "leaves the package root (a `..` climbs above it)",
            ),
            (
                "a/../../p.spx",
                E::LeavesPackage,
                "leaves the package root (a `..` climbs above it)",
            ),
            (
                "./../p.spx",
                E::LeavesPackage,
                "leaves the package root (a `..` climbs above it)",
            ),
        ];
        for (raw, error, reason) in cases {
            assert_eq!(normalize_source(raw), Err(error), "{raw:?}");
            assert_eq!(error.to_string(), reason, "{raw:?}");
        }
        assert_eq!(
            E::Absolute.reason("CARGO_MANIFEST_DIR"),
            "must be relative to CARGO_MANIFEST_DIR"
        );
    }

    #[test]
    fn macro_sources() {
        assert_eq!(
            MacroSource::of("./agents//p.spx"),
            Ok(MacroSource::Package("agents/p.spx".into()))
        );
        let outside = MacroSource::of("../shared/p.spx").unwrap();
        assert_eq!(outside, MacroSource::Outside("../shared/p.spx".into()));
        assert_eq!(outside.pin_key(), None);
        assert_eq!(outside.relative_path(), "../shared/p.spx");
        assert_eq!(MacroSource::of("/p.spx"), Err(E::Absolute));
        assert_eq!(MacroSource::of("a\\p.spx"), Err(E::Backslash));
    }
}
