//! Every pin diagnostic and hint, for the build helper, `spx pin` and the
//! macro. The build helper's diagnostics quote ids canonically and name
//! the source in their location; the macro's are rendered into a
//! `compile_error!` that starts with the source path, so they name the root
//! in backticks.

use super::format::Pin;
use super::hints::{MacroBuild, Repin};
use super::path::SourcePathError;
use super::{
    BUILD_CONFIG, LOCK_DRIFT, LOCK_FILE, LOCK_IO, LOCK_MALFORMED, LOCK_PINNED_DOCUMENT,
    LOCK_UNPINNED,
};
use crate::diag::{Diagnostic, Location};
use crate::diff::drift_message;
use crate::quote::quote;
use crate::schema::Schema;

/// The hint of a drift where both commands re-pin (see [`Repin::hint`]
/// for the hint of a given situation).
pub const REPIN_HINT: &str = "re-pin with `SPX_UPDATE_PINS=1 cargo build` or `spx pin`";

/// The detail of every SPX-L001.
const GENERATED: &str =
    "spx.lock is written by spx (a build running spx-build, or `spx pin`), never by hand";

/// The `cargo:warning` when `CI` and `SPX_UPDATE_PINS` are both set.
pub(crate) const CI_WINS: &str =
    "spx: SPX_UPDATE_PINS is ignored because CI is set: nothing is written to the package in CI";

/// SPX-L001 at `spx.lock:line:column`.
pub(crate) fn malformed(
    rule: &'static str,
    message: impl Into<String>,
    line: u32,
    column: u32,
) -> Diagnostic {
    Diagnostic::error(LOCK_MALFORMED, rule, message)
        .at(Location::Source {
            path: LOCK_FILE.to_owned(),
            line,
            column,
            span: None,
        })
        .with_detail(GENERATED)
}

/// An SPX-L001 from reading `spx.lock`, with the help that re-creates it
/// in the situation `repin` describes (a lock left with merge-conflict
/// markers is re-created the same way: its pins are derived again).
pub(crate) fn recreate(d: Diagnostic, repin: Repin) -> Diagnostic {
    if d.code != LOCK_MALFORMED {
        return d;
    }
    let why = if d.message.contains("merge-conflict") {
        "; the pins are derived again from the sources, so the conflict needs no resolving by hand"
    } else {
        ""
    };
    let help = format!("{}{why}", repin.hint("re-create it", false));
    d.with_help(help)
}

/// The warning of a run that re-created a malformed `spx.lock`.
pub(crate) fn recreated(malformed: &Diagnostic) -> Diagnostic {
    Diagnostic::warning(
        LOCK_MALFORMED,
        "lock.recreated",
        format!(
            "spx.lock was malformed ({}{}); it was re-created from the configured roots",
            malformed.message,
            match &malformed.location {
                Location::Source { line, column, .. } => format!(" at {LOCK_FILE}:{line}:{column}"),
                _ => String::new(),
            }
        ),
    )
    .at(Location::File {
        path: LOCK_FILE.to_owned(),
    })
}

/// The SPX-L001 `lock.source` message of a source path that is not the
/// normal form of a package-relative path (`Ok` is that normal form).
pub(crate) fn abnormal_source(source: &str, normal: Result<String, SourcePathError>) -> String {
    match normal {
        Err(e) => format!("source path {} {e}", quote(source)),
        Ok(n) => format!(
            "source path {} is not in normal form (write {})",
            quote(source),
            quote(&n)
        ),
    }
}

/// SPX-B001 `build.source_path`: a configured source path is refused by
/// the source-path rule.
pub fn bad_source_path(raw: &str, e: SourcePathError) -> Diagnostic {
    Diagnostic::error(
        BUILD_CONFIG,
        "build.source_path",
        format!("source path {} {e}", quote(raw)),
    )
    .with_detail(
        "give sources relative to the package root (the directory of Cargo.toml), e.g. `agents/planner.spx`",
    )
}

/// The note of a root that does not derive: where it was configured.
pub(crate) fn root_origin(from: super::RootsFrom, n: usize, source: &str, root: &str) -> String {
    match from {
        super::RootsFrom::Metadata => format!(
            "while deriving root {}, listed in `roots` of source #{n} ({}) in `[package.metadata.spx]` of Cargo.toml",
            quote(root),
            quote(source)
        ),
        super::RootsFrom::Config => format!(
            "while deriving root {} of source {}, given to the build configuration (`Config::root`)",
            quote(root),
            quote(source)
        ),
    }
}

/// The note of a source that cannot be read: where it was configured.
pub(crate) fn source_origin(from: super::RootsFrom, n: usize, source: &str) -> String {
    match from {
        super::RootsFrom::Metadata => format!(
            "{} is the `path` of source #{n} in `[package.metadata.spx]` of Cargo.toml, relative to the package root",
            quote(source)
        ),
        super::RootsFrom::Config => format!(
            "{} was given to the build configuration (`Config::source`), relative to the package root",
            quote(source)
        ),
    }
}

/// SPX-L002: `what` (read, write, create, remove) failed on `path`.
pub(crate) fn io_error(path: &str, what: &str, e: &std::io::Error) -> Diagnostic {
    Diagnostic::error(LOCK_IO, "lock.io", format!("cannot {what} `{path}`: {e}")).at(
        Location::File {
            path: path.to_owned(),
        },
    )
}

/// SPX-L003 for a build: `derived` (from `source`) no longer has the digest
/// of `pin`; `pinned` is the pinned document, if it could be read.
pub(crate) fn drift(
    source: &str,
    pin: &Pin,
    pinned: Option<&Schema>,
    derived: &Schema,
    repin: Repin,
) -> Diagnostic {
    let root = derived.root_type_id();
    Diagnostic::error(
        LOCK_DRIFT,
        "lock.drift",
        format!(
            "the schema of root {} derived from {} no longer matches its pin in spx.lock",
            quote(root),
            quote(source)
        ),
    )
    .at(Location::File {
        path: source.to_owned(),
    })
    .with_detail(drift_message(root, &pin.digest, pinned, derived, ""))
    .with_help(repin.hint("re-pin", false))
}

/// SPX-L004 `lock.unpinned` for a build that may not write: `derived` has
/// no pin (or there is no lock); `why_check` says why nothing is written.
pub(crate) fn unpinned(
    source: &str,
    derived: &Schema,
    lock_exists: bool,
    why_check: &str,
    repin: Repin,
) -> Diagnostic {
    let what = if lock_exists {
        "has no pin in spx.lock"
    } else {
        "is not pinned: spx.lock is missing"
    };
    Diagnostic::error(
        LOCK_UNPINNED,
        "lock.unpinned",
        format!(
            "root {} of source {} {what}",
            quote(derived.root_type_id()),
            quote(source)
        ),
    )
    .at(Location::File {
        path: LOCK_FILE.to_owned(),
    })
    .with_detail(format!(
        "nothing is written because {why_check}\nderived digest: {}",
        derived.digest()
    ))
    .with_help(repin.hint("pin it", true))
}

/// SPX-L004 `lock.stale`: `pin` names a root that is not configured.
pub(crate) fn stale(pin: &Pin) -> Diagnostic {
    Diagnostic::error(
        LOCK_UNPINNED,
        "lock.stale",
        format!(
            "spx.lock pins root {} of source {}, which is no longer configured",
            quote(&pin.root),
            quote(&pin.source)
        ),
    )
    .at(Location::File {
        path: LOCK_FILE.to_owned(),
    })
    .with_help("run `spx pin` to remove stale pins")
}

/// SPX-L005: the pinned document of `root` (at `relative`) is missing or
/// is not the pinned schema.
pub(crate) fn pinned_document(root: &str, relative: String) -> Diagnostic {
    Diagnostic::error(
        LOCK_PINNED_DOCUMENT,
        "lock.pinned_document",
        format!(
            "the pinned document of root {} is missing or is not the pinned schema",
            quote(root)
        ),
    )
    .at(Location::File { path: relative })
    .with_help("run `spx pin` to write it, and commit spx.lock.d/")
}

/// SPX-B001 `build.root_conflict`: two sources derive `root` differently.
pub(crate) fn root_conflict(root: &str, first: &str, second: &str) -> Diagnostic {
    Diagnostic::error(
        BUILD_CONFIG,
        "build.root_conflict",
        format!(
            "root {} is derived from both {} and {} with different schemas; a root id must name one schema per package",
            quote(root),
            quote(first),
            quote(second)
        ),
    )
    .with_help("configure the root for one of the two sources only, or give the other declaration its own `@id`")
}

/// SPX-L004 `lock.unpinned` for a macro root without `digest:` and without
/// a pin in `spx.lock`; `key` is the source's pin key (`None` when the
/// source leaves the package, so `spx.lock` cannot pin it), `build` what
/// the call knows of the package's build script.
pub(crate) fn unpinned_in_macro(
    source: &str,
    key: Option<&str>,
    derived: &Schema,
    build: &MacroBuild,
) -> Diagnostic {
    let root = derived.root_type_id();
    let digest = derived.digest();
    let repin = build.repin(key, root);
    let in_lock = match (key, repin.commands(true)) {
        (None, _) => format!(" (spx.lock cannot pin `{source}`: it is outside the package)"),
        (Some(_), Some(_)) => format!(", or {}", repin.hint("pin it in spx.lock", true)),
        (Some(k), None) => {
            let run = match &build.build {
                Some(b) if b.from_metadata && b.update_env => "`cargo build` or `spx pin`",
                _ => "`spx pin`",
            };
            format!(
                "; or pin it in spx.lock: list it in `[package.metadata.spx]` of Cargo.toml (`sources = [{{ path = {}, roots = [{}] }}]`) and run {run} (no build script of this package pins this root)",
                quote(k),
                quote(root)
            )
        }
    };
    let d = Diagnostic::error(
        LOCK_UNPINNED,
        "lock.unpinned",
        format!("root `{root}` has no pin"),
    )
    .at(Location::File {
        path: source.to_owned(),
    })
    .with_detail(format!("derived digest: {digest}"))
    .with_help(format!(
        "pin it here with `digest: \"{digest}\",` after the root{in_lock}"
    ));
    match build.update_pins_note(key, root) {
        Some(n) => d.with_note(n),
        None => d,
    }
}

/// SPX-L003 for a macro root whose pin (`digest:` in the call when
/// `literal`, else its pin in `spx.lock` under `key`) is `pinned_digest`.
pub(crate) fn drift_in_macro(
    source: &str,
    key: Option<&str>,
    pinned_digest: &str,
    pinned: Option<&Schema>,
    derived: &Schema,
    literal: bool,
    build: &MacroBuild,
) -> Diagnostic {
    let root = derived.root_type_id();
    let help = if literal {
        format!(
            "to accept the derived schema, pin it in the macro: digest: \"{}\"",
            derived.digest()
        )
    } else {
        format!(
            "{}, or pin it in the macro with `digest: \"{}\",` after the root",
            build.repin(key, root).hint("re-pin", false),
            derived.digest()
        )
    };
    let d = Diagnostic::error(
        LOCK_DRIFT,
        "lock.drift",
        format!("the schema of root `{root}` no longer has its pinned digest"),
    )
    .at(Location::File {
        path: source.to_owned(),
    })
    .with_detail(drift_message(root, pinned_digest, pinned, derived, ""))
    .with_help(help);
    match (literal, build.update_pins_note(key, root)) {
        (false, Some(n)) => d.with_note(n),
        _ => d,
    }
}

/// The `cargo:warning` text of a build that created or rewrote the pin of
/// `derived` (the id quoted, so no character of it can break cargo's
/// output); `None` when the pin did not change.
pub fn pin_written(derived: &Schema, change: &super::PinChange) -> Option<String> {
    let root = derived.root_type_id();
    let digest = derived.digest();
    match change {
        super::PinChange::Created => Some(format!(
            "spx: pinned {} in spx.lock ({digest}); commit spx.lock and spx.lock.d/",
            quote(root)
        )),
        super::PinChange::Updated { from } => Some(format!(
            "spx: re-pinned {} in spx.lock ({from} -> {digest}); commit spx.lock and spx.lock.d/",
            quote(root)
        )),
        super::PinChange::Unchanged | super::PinChange::Removed => None,
    }
}
