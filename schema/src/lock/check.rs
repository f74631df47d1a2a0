//! The pin check of `spx_interaction!`: each root of a call is compared
//! with the `digest:` written after it, or else with its pin in the
//! package's `spx.lock` (read at most once per call, on first need).

use super::format::Lock;
use super::hints::MacroBuild;
use super::messages;
use super::path::MacroSource;
use super::store::read_pinned_schema;
use super::LOCK_FILE;
use crate::diag::Diagnostic;
use crate::schema::Schema;
use std::path::{Path, PathBuf};

/// The pins one macro call checks its roots against.
#[derive(Debug)]
pub struct MacroPins {
    package_dir: PathBuf,
    written: String,
    source: MacroSource,
    lock: Option<Option<Lock>>,
    build: MacroBuild,
    lock_text: Option<String>,
}

impl MacroPins {
    /// The pins of `source` (as classified by [`MacroSource::of`] from
    /// `written`, the path as the call spells it) in the package at
    /// `package_dir`. Nothing is read yet. The hints assume no build script
    /// ([`MacroBuild::default`]) until [`MacroPins::with_build`].
    pub fn new(package_dir: &Path, written: &str, source: MacroSource) -> MacroPins {
        MacroPins {
            package_dir: package_dir.to_path_buf(),
            written: written.to_owned(),
            source,
            lock: None,
            build: MacroBuild::default(),
            lock_text: None,
        }
    }

    /// What the call knows about the package's build script (usually
    /// [`MacroBuild::from_env`]), so that its hints name only commands that
    /// re-pin this root.
    pub fn with_build(mut self, build: MacroBuild) -> MacroPins {
        self.build = build;
        self
    }

    /// The text of a malformed `spx.lock` read by [`MacroPins::read_lock`],
    /// for rendering its diagnostic.
    pub fn lock_text(&self) -> Option<&str> {
        self.lock_text.as_deref()
    }

    /// Reads `spx.lock` unless it was read already. The error (SPX-L001,
    /// SPX-L002) is returned by the call that read; the roots are then
    /// checked as if there were no lock.
    pub fn read_lock(&mut self) -> Result<(), Diagnostic> {
        if self.lock.is_some() {
            return Ok(());
        }
        let read = Lock::read(&self.package_dir);
        self.lock = Some(read.as_ref().ok().cloned().flatten());
        // No root of the call is named yet: the hint is added for the first
        // root that needs the lock ([`MacroPins::explain_lock_error`]).
        read.map(drop).inspect_err(|d| {
            if d.code == super::LOCK_MALFORMED {
                self.lock_text = std::fs::read(self.package_dir.join(LOCK_FILE))
                    .ok()
                    .map(|b| String::from_utf8_lossy(&b).into_owned());
            }
        })
    }

    /// [`MacroPins::read_lock`]'s error with the hint for `root`.
    pub fn explain_lock_error(&self, d: Diagnostic, root: &str) -> Diagnostic {
        messages::recreate(d, self.build.repin(self.source.pin_key(), root))
    }

    /// `spx.lock`, when it was read and exists: a file the expansion
    /// depends on.
    pub fn lock_file(&self) -> Option<PathBuf> {
        let path = self.package_dir.join(LOCK_FILE);
        (self.lock.is_some() && path.is_file()).then_some(path)
    }

    /// Checks `derived` against `literal` (the `digest:` after the root in
    /// the call) or, without one, against its pin in `spx.lock` (call
    /// [`MacroPins::read_lock`] first). Errs with SPX-L004 `lock.unpinned`
    /// when there is no pin, SPX-L003 `lock.drift` (with the structural
    /// diff against the pinned document in `spx.lock.d/`, when it is the
    /// pinned one) when the digests differ.
    pub fn check(&self, derived: &Schema, literal: Option<&str>) -> Result<(), Diagnostic> {
        let root = derived.root_type_id();
        let pinned = match literal {
            Some(d) => Some(d),
            None => self
                .source
                .pin_key()
                .and_then(|key| self.lock.as_ref()?.as_ref()?.find(key, root))
                .map(|p| p.digest.as_str()),
        };
        match pinned {
            None => Err(messages::unpinned_in_macro(
                &self.written,
                self.source.pin_key(),
                derived,
                &self.build,
            )),
            Some(p) if p != derived.digest() => {
                let document =
                    read_pinned_schema(&self.package_dir, root).filter(|s| s.digest() == p);
                Err(messages::drift_in_macro(
                    &self.written,
                    self.source.pin_key(),
                    p,
                    document.as_ref(),
                    derived,
                    literal.is_some(),
                    &self.build,
                ))
            }
            Some(_) => Ok(()),
        }
    }
}
