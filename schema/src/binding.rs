//! Source binding (FORMAT.md §5): derive from one snapshot of the source
//! bytes and re-check, immediately before success, that the file still
//! holds exactly those bytes.

use crate::diag::{Code, Diagnostic, Location};
use crate::schema::Schema;
use crate::source::{read_module, Module};
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
