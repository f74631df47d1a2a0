//! Pins: the one home of everything about `spx.lock`, its pinned
//! documents in `spx.lock.d/`, and the source paths that key them. The
//! build helper (`spx-build`), `spx pin` and the `spx_interaction!` macro
//! (`spx-gen`) all call it; none of them holds a rule or a message of
//! its own about pins.
//!
//! | concern | module |
//! |---|---|
//! | the text of `spx.lock`: [`Lock`], [`Pin`], render and strict parse | `format` |
//! | the files: [`Lock::read`], [`Lock::write`], [`write_atomic`], the pinned documents | `store` |
//! | the source-path rule: [`normalize_source`], [`MacroSource`] | `path` |
//! | a run: [`PinPolicy`], [`derive_all`], [`reconcile`], [`apply`], [`repin`] | `plan` |
//! | a macro call's pin check: [`MacroPins`] | `check` |
//! | every pin diagnostic and hint: [`REPIN_HINT`], [`pin_written`], … | `messages` |
//! | which commands re-pin where ([`Repin`]); what a build script tells its macro calls ([`BuildRoots`], [`MacroBuild`]) | `hints` |
//!
//! The structural explanation of drift is [`crate::diff::drift_message`].

mod check;
mod format;
mod hints;
mod messages;
mod path;
mod plan;
mod store;

pub use check::MacroPins;
pub use format::{is_sha256, Lock, Pin};
pub use hints::{BuildRoots, MacroBuild, Repin, BUILD_ROOTS_VAR};
pub use messages::{bad_source_path, pin_written, REPIN_HINT};
pub use path::{normalize_source, MacroSource, SourcePathError, PACKAGE_ROOT};
pub use plan::{
    apply, derive_all, reconcile, repin, Derived, Mode, PinChange, PinEntry, PinPolicy, PinReport,
    Plan, Resolved, RootsFrom, Scope, Source,
};
pub use store::{
    pin_file_stem, pinned_schema_path, pinned_schema_relative, read_pinned_schema,
    remove_pinned_schema, write_atomic, write_pinned_schema,
};

use crate::diag::Code;

/// The lock file's name, at the package root.
pub const LOCK_FILE: &str = "spx.lock";
/// The directory of pinned schema documents, beside the lock.
pub const PIN_DIR: &str = "spx.lock.d";
/// The lock format version this crate reads and writes.
pub const LOCK_VERSION: u32 = 1;

/// A malformed lock (syntax, order, duplicate, bad digest or path).
pub const LOCK_MALFORMED: Code = Code("SPX-L001");
/// The lock, a pinned document or their directory could not be read or
/// written.
pub const LOCK_IO: Code = Code("SPX-L002");
/// A derived schema no longer has the digest pinned for its root
/// (rule `lock.drift`); the detail is [`crate::diff::drift_message`].
pub const LOCK_DRIFT: Code = Code("SPX-L003");
/// A root has no pin (or there is no `spx.lock`) where nothing may be
/// written: under `CI` or in check mode (rule `lock.unpinned`), or a pin
/// names a root that is no longer configured (rule `lock.stale`).
pub const LOCK_UNPINNED: Code = Code("SPX-L004");
/// In check mode, a pinned document in `spx.lock.d/` is missing or is not
/// the document of its pin (rule `lock.pinned_document`).
pub const LOCK_PINNED_DOCUMENT: Code = Code("SPX-L005");
/// A build configuration problem: a source path refused by the source-path
/// rule (`build.source_path`), two sources deriving one root differently
/// (`build.root_conflict`), and the build helper's own configuration
/// mistakes. `spx-build` re-exports it as `spx_build::BUILD_CONFIG`.
pub const BUILD_CONFIG: Code = Code("SPX-B001");
