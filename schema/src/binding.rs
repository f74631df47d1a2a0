//! Source binding (FORMAT.md §5): derive from one snapshot of the source
//! bytes and re-check, immediately before success, that the file still
//! holds exactly those bytes.
//!
//! A source is a `.spx` module or a project manifest (a file whose name
//! ends in `.toml`, such as `semaprax.toml`): then the manifest and every
//! module it lists are snapshotted, and all of them are re-checked before
//! success, so a concurrent edit of any module fails closed.

use crate::diag::{Code, Diagnostic, Location};
use crate::schema::Schema;
use crate::source::manifest::{is_manifest, parse_manifest};
use crate::source::workspace::Workspace;
use crate::source::{codes, read_module, Module};
use std::path::{Path, PathBuf};

/// A file could not be read.
pub const SOURCE_UNREADABLE: Code = Code("SPX-F001");
/// The source changed between the snapshot and the final check.
pub const SOURCE_CHANGED: Code = Code("SPX-F002");
/// The source is not UTF-8.
pub const SOURCE_UTF8: Code = Code("SPX-F003");

/// One exact snapshot of a source file.
#[derive(Debug, Clone)]
pub struct Snapshot {
    path: PathBuf,
    display: String,
    bytes: Vec<u8>,
}

impl Snapshot {
    /// Reads the file at `path`; `display` is how diagnostics name it.
    pub fn take(path: &Path, display: &str) -> Result<Snapshot, Diagnostic> {
        let bytes = std::fs::read(path).map_err(|e| unreadable(display, &e))?;
        Ok(Snapshot {
            path: path.to_owned(),
            display: display.to_owned(),
            bytes,
        })
    }

    /// The snapshot's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The snapshot as text, refusing non-UTF-8 source.
    pub fn text(&self) -> Result<&str, Diagnostic> {
        std::str::from_utf8(&self.bytes).map_err(|e| {
            Diagnostic::error(
                SOURCE_UTF8,
                "source.utf8",
                format!(
                    "source `{}` is not UTF-8 (invalid byte at offset {})",
                    self.display,
                    e.valid_up_to()
                ),
            )
            .at(Location::File {
                path: self.display.clone(),
            })
        })
    }

    /// Reads the module from the snapshot.
    pub fn read_module(&self) -> Result<Module, Vec<Diagnostic>> {
        read_module(&self.display, self.text().map_err(|d| vec![d])?)
    }

    /// Fails closed unless the file still holds exactly the snapshot bytes.
    pub fn recheck(&self) -> Result<(), Diagnostic> {
        match std::fs::read(&self.path) {
            Ok(now) if now == self.bytes => Ok(()),
            _ => Err(Diagnostic::error(
                SOURCE_CHANGED,
                "source.changed",
                format!(
                    "source `{}` changed while it was being read; nothing was derived from it",
                    self.display
                ),
            )
            .at(Location::File {
                path: self.display.clone(),
            })),
        }
    }
}

/// One source read from snapshots: the workspace (one module, or a
/// project's modules) and the snapshot of every file read (the manifest
/// first).
#[derive(Debug, Clone)]
pub struct SourceSet {
    workspace: Workspace,
    snapshots: Vec<Snapshot>,
}

/// How the module `source` listed in a manifest displayed as
/// `manifest` is named in diagnostics: the manifest's directory joined
/// with the entry.
fn module_display(manifest: &str, source: &str) -> String {
    match Path::new(manifest).parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.join(source).to_string_lossy().into_owned(),
        _ => source.to_owned(),
    }
}

impl SourceSet {
    /// Reads the source at `path` (a `.spx` module, or a manifest when its
    /// file name ends in `.toml`); `display` names it in diagnostics. Every
    /// module's errors are returned together.
    pub fn read(path: &Path, display: &str) -> Result<SourceSet, Vec<Diagnostic>> {
        let first = Snapshot::take(path, display).map_err(|d| vec![d])?;
        if !is_manifest(path) {
            let module = first.read_module()?;
            return Ok(SourceSet {
                workspace: Workspace::single(module),
                snapshots: vec![first],
            });
        }
        let manifest =
            parse_manifest(display, first.text().map_err(|d| vec![d])?).map_err(|d| vec![d])?;
        let dir = path.parent().unwrap_or_else(|| Path::new(""));
        let mut snapshots = vec![first];
        let mut modules = Vec::with_capacity(manifest.sources.len());
        let mut errors = Vec::new();
        for s in &manifest.sources {
            let shown = module_display(display, &s.path);
            let file = dir.join(&s.path);
            let snap = match std::fs::read(&file) {
                Ok(bytes) => Snapshot {
                    path: file,
                    display: shown,
                    bytes,
                },
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    errors.push(
                        Diagnostic::error(
                            codes::SOURCE_MISSING,
                            "project.source_missing",
                            format!(
                                "source `{}` listed in the manifest does not exist (looked for `{shown}`)",
                                s.path
                            ),
                        )
                        .at(s.pos.location(display))
                        .with_help(
                            "create the module, or correct or remove this entry of `sources` (paths are relative to the manifest's directory)",
                        ),
                    );
                    continue;
                }
                Err(e) => {
                    errors.push(unreadable(&shown, &e));
                    continue;
                }
            };
            match snap.read_module() {
                Ok(m) => modules.push(m),
                Err(ds) => errors.extend(ds),
            }
            snapshots.push(snap);
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(SourceSet {
            workspace: Workspace::project(manifest, modules)?,
            snapshots,
        })
    }

    /// The modules read.
    pub fn workspace(&self) -> &Workspace {
        &self.workspace
    }

    /// The workspace, taken out of the set (after [`SourceSet::recheck`]).
    pub fn into_workspace(self) -> Workspace {
        self.workspace
    }

    /// Every file read, in order (the manifest first).
    pub fn files(&self) -> impl Iterator<Item = &Path> {
        self.snapshots.iter().map(|s| s.path.as_path())
    }

    /// Derives the schema of `root_type_id` from the snapshots.
    pub fn derive(&self, root_type_id: &str) -> Result<Schema, Diagnostic> {
        Schema::derive_workspace(&self.workspace, root_type_id)
    }

    /// Fails closed unless every file still holds exactly its snapshot's
    /// bytes (every changed file is reported).
    pub fn recheck(&self) -> Result<(), Vec<Diagnostic>> {
        let changed: Vec<Diagnostic> = self
            .snapshots
            .iter()
            .filter_map(|s| s.recheck().err())
            .collect();
        if changed.is_empty() {
            Ok(())
        } else {
            Err(changed)
        }
    }
}

fn unreadable(display: &str, e: &std::io::Error) -> Diagnostic {
    Diagnostic::error(
        SOURCE_UNREADABLE,
        "source.unreadable",
        format!("cannot read source `{display}`: {e}"),
    )
    .at(Location::File {
        path: display.to_owned(),
    })
}

/// Derives the schema of `root_type_id` from the source at `path` (a
/// `.spx` module or a project manifest), bound to one snapshot of every
/// file read. `display` names the source in diagnostics.
pub fn compile_file(
    path: &Path,
    display: &str,
    root_type_id: &str,
) -> Result<Schema, Vec<Diagnostic>> {
    compile_file_with_hook(path, display, root_type_id, || {})
}

/// [`compile_file`] with a hook run between derivation and the final
/// re-check, so tests can prove that a concurrent write fails closed.
#[doc(hidden)]
pub fn compile_file_with_hook(
    path: &Path,
    display: &str,
    root_type_id: &str,
    between: impl FnOnce(),
) -> Result<Schema, Vec<Diagnostic>> {
    let set = SourceSet::read(path, display)?;
    let schema = set.derive(root_type_id).map_err(|d| vec![d])?;
    between();
    set.recheck()?;
    Ok(schema)
}

/// Bundle verification (SPX-Z204): `document` must be byte-identical to a
/// fresh derivation from the source.
pub fn verify_bundle(
    path: &Path,
    display: &str,
    root_type_id: &str,
    document: &[u8],
) -> Result<Schema, Vec<Diagnostic>> {
    if document.len() > crate::graph::limits::MAX_SCHEMA_BYTES {
        return Err(vec![Diagnostic::error(
            Code::Z204,
            "schema_bytes",
            crate::diag::Z204_MESSAGE,
        )]);
    }
    let schema = compile_file(path, display, root_type_id)?;
    if schema.document().as_bytes() != document {
        return Err(vec![Diagnostic::error(
            Code::Z204,
            "schema.replay",
            crate::diag::Z204_MESSAGE,
        )]);
    }
    Ok(schema)
}
