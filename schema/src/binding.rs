//! Source binding (FORMAT.md §5): derive from one snapshot of the source
//! bytes and re-check, immediately before success, that the file still
//! holds exactly those bytes.
//!
//! A source is a `.spx` module or a project manifest (a file whose name
//! ends in `.toml`, such as `semaprax.toml`): then the manifest and every
//! module it lists are snapshotted, and all of them are re-checked before
//! success, so a concurrent edit of any module fails closed.

use crate::diag::{Code, Diagnostic, Location, Sources};
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

/// One exact snapshot of a source file (or of text read once from a
/// stream, such as standard input).
#[derive(Debug, Clone)]
pub struct Snapshot {
    /// The file re-checked before success; `None` for text that came from
    /// a stream, which nothing can change after it was read.
    path: Option<PathBuf>,
    display: String,
    bytes: Vec<u8>,
}

impl Snapshot {
    /// Reads the file at `path`; `display` is how diagnostics name it.
    pub fn take(path: &Path, display: &str) -> Result<Snapshot, Diagnostic> {
        let bytes = std::fs::read(path).map_err(|e| unreadable(display, &e))?;
        Ok(Snapshot {
            path: Some(path.to_owned()),
            display: display.to_owned(),
            bytes,
        })
    }

    /// A snapshot of `bytes` read once from a stream (standard input);
    /// `display` is how diagnostics name it. [`Snapshot::recheck`] always
    /// passes: no file can change under it.
    pub fn from_bytes(display: &str, bytes: Vec<u8>) -> Snapshot {
        Snapshot {
            path: None,
            display: display.to_owned(),
            bytes,
        }
    }

    /// How diagnostics name this source.
    pub fn display(&self) -> &str {
        &self.display
    }

    /// Records the snapshot's text in `sources` under the name its
    /// diagnostics use, so that they render with the exact source lines
    /// ([`crate::diag::Renderer`]). Nothing is recorded for non-UTF-8 bytes.
    pub fn record(&self, sources: &mut Sources) {
        if let Ok(text) = std::str::from_utf8(&self.bytes) {
            sources.insert(self.display.clone(), text);
        }
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
        let Some(path) = &self.path else {
            return Ok(());
        };
        match std::fs::read(path) {
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
            })
            .with_help("run it again once nothing is writing the file")),
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
        SourceSet::read_recording(path, display, &mut Sources::new())
    }

    /// [`SourceSet::read`], recording the text of every file as it is read
    /// in `sources` (also when reading fails), so that every diagnostic,
    /// the refusals of reading included, renders with its source lines.
    pub fn read_recording(
        path: &Path,
        display: &str,
        sources: &mut Sources,
    ) -> Result<SourceSet, Vec<Diagnostic>> {
        let first = Snapshot::take(path, display).map_err(|d| vec![d])?;
        first.record(sources);
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
                    path: Some(file),
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
            snap.record(sources);
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

    /// The set of one module read from `snap` (for example text read once
    /// from standard input, which cannot name a project's other files).
    pub fn from_snapshot(snap: Snapshot) -> Result<SourceSet, Vec<Diagnostic>> {
        let module = snap.read_module()?;
        Ok(SourceSet {
            workspace: Workspace::single(module),
            snapshots: vec![snap],
        })
    }

    /// Derives `root_type_id` and re-checks every file before success
    /// (FORMAT.md §5).
    pub fn compile(&self, root_type_id: &str) -> Result<Schema, Vec<Diagnostic>> {
        let schema = self.derive(root_type_id).map_err(|d| vec![d])?;
        self.recheck()?;
        Ok(schema)
    }

    /// Bundle verification (SPX-Z204) against this set: `document` must
    /// be byte-identical to a fresh derivation of `root_type_id`.
    pub fn verify(&self, root_type_id: &str, document: &[u8]) -> Result<Schema, Vec<Diagnostic>> {
        if document.len() > crate::graph::limits::MAX_SCHEMA_BYTES {
            return Err(vec![z204_too_large()]);
        }
        replayed(self.compile(root_type_id)?, document)
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
        self.snapshots.iter().filter_map(|s| s.path.as_deref())
    }

    /// Records the text of every file read in `sources`, under the names
    /// diagnostics use, so that they render with their source lines.
    pub fn record(&self, sources: &mut Sources) {
        for s in &self.snapshots {
            s.record(sources);
        }
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
/// fresh derivation from the source (a `.spx` module or a project
/// manifest).
pub fn verify_bundle(
    path: &Path,
    display: &str,
    root_type_id: &str,
    document: &[u8],
) -> Result<Schema, Vec<Diagnostic>> {
    if document.len() > crate::graph::limits::MAX_SCHEMA_BYTES {
        return Err(vec![z204_too_large()]);
    }
    SourceSet::read(path, display)?.verify(root_type_id, document)
}

fn z204_too_large() -> Diagnostic {
    Diagnostic::error(Code::Z204, "schema_bytes", crate::diag::Z204_MESSAGE)
}

/// `schema`, when `document` is exactly its canonical document (SPX-Z204).
fn replayed(schema: Schema, document: &[u8]) -> Result<Schema, Vec<Diagnostic>> {
    if schema.document().as_bytes() != document {
        return Err(vec![Diagnostic::error(
            Code::Z204,
            "schema.replay",
            crate::diag::Z204_MESSAGE,
        )]);
    }
    Ok(schema)
}
