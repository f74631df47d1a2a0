//! Source binding (FORMAT.md §5): derive from one snapshot of the source
//! bytes and re-check, immediately before success, that the file still
//! holds exactly those bytes.

use crate::diag::{Code, Diagnostic, Location, Sources};
use crate::schema::Schema;
use crate::source::{read_module, Module};
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
        let bytes = std::fs::read(path).map_err(|e| {
            Diagnostic::error(
                SOURCE_UNREADABLE,
                "source.unreadable",
                format!("cannot read source `{display}`: {e}"),
            )
            .at(Location::File {
                path: display.to_owned(),
            })
        })?;
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

    /// Derives the schema of `root_type_id` from this snapshot and
    /// re-checks it before success (FORMAT.md §5).
    pub fn compile(&self, root_type_id: &str) -> Result<Schema, Vec<Diagnostic>> {
        let module = self.read_module()?;
        let schema = Schema::derive(&module, root_type_id).map_err(|d| vec![d])?;
        self.recheck().map_err(|d| vec![d])?;
        Ok(schema)
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

/// Derives the schema of `root_type_id` from the file at `path`, bound to
/// one snapshot of its bytes. `display` names the file in diagnostics.
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
    let snap = Snapshot::take(path, display).map_err(|d| vec![d])?;
    let module = snap.read_module()?;
    let schema = Schema::derive(&module, root_type_id).map_err(|d| vec![d])?;
    between();
    snap.recheck().map_err(|d| vec![d])?;
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
        return Err(vec![z204_too_large()]);
    }
    let snap = Snapshot::take(path, display).map_err(|d| vec![d])?;
    verify_snapshot(&snap, root_type_id, document)
}

fn z204_too_large() -> Diagnostic {
    Diagnostic::error(Code::Z204, "schema_bytes", crate::diag::Z204_MESSAGE)
}

/// [`verify_bundle`] against a snapshot already taken.
pub fn verify_snapshot(
    snap: &Snapshot,
    root_type_id: &str,
    document: &[u8],
) -> Result<Schema, Vec<Diagnostic>> {
    if document.len() > crate::graph::limits::MAX_SCHEMA_BYTES {
        return Err(vec![z204_too_large()]);
    }
    let schema = snap.compile(root_type_id)?;
    if schema.document().as_bytes() != document {
        return Err(vec![Diagnostic::error(
            Code::Z204,
            "schema.replay",
            crate::diag::Z204_MESSAGE,
        )]);
    }
    Ok(schema)
}
