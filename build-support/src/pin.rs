//! Pinning for the `spx pin` command: re-pin a package, or check that its
//! `spx.lock` and `spx.lock.d/` are exactly what its sources derive.

use crate::core::{self, Mode, Resolved, Scope};
use crate::{Error, Source};
use std::path::Path;

/// What happened to one pin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PinChange {
    /// The pin already had the derived digest.
    Unchanged,
    /// The root had no pin; one was created.
    Created,
    /// The pin was rewritten (it had digest `from`).
    Updated {
        /// The previous digest.
        from: String,
    },
    /// The pin named a root that is no longer configured and was removed.
    Removed,
}

/// One line of a [`PinReport`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PinEntry {
    /// The package-relative source path.
    pub source: String,
    /// The root's stable id.
    pub root: String,
    /// The digest now pinned (for [`PinChange::Removed`], the digest the
    /// removed pin had).
    pub digest: String,
    /// What happened.
    pub change: PinChange,
}

/// The result of [`run`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PinReport {
    /// One entry per derived root, then one per removed pin.
    pub entries: Vec<PinEntry>,
    /// True when a file of the package was written or removed (never in
    /// check mode).
    pub wrote: bool,
}

/// Re-pins (or, with `check_only`, checks) the package in `package_dir`
/// from its `[package.metadata.spx]`.
///
/// Re-pinning makes `spx.lock` hold exactly the configured roots with
/// their derived digests (stale pins are removed with their pinned
/// documents) and rewrites `spx.lock.d/`; it writes nothing when all is
/// current. It is an explicit request, so it writes even when `CI` is set.
///
/// Checking writes nothing and fails (SPX-L003 drift, SPX-L004 missing or
/// stale pin, SPX-L005 missing or different pinned document, SPX-L001
/// malformed lock) exactly when re-pinning would change something.
///
/// ```no_run
/// let report = spx_build::pin::run(std::path::Path::new("."), true)?;
/// assert!(!report.wrote);
/// # Ok::<(), spx_build::Error>(())
/// ```
pub fn run(package_dir: &Path, check_only: bool) -> Result<PinReport, Error> {
    let sources = crate::metadata::read_sources(package_dir)?;
    run_sources(package_dir, &sources, check_only)
}

/// [`run`] with an explicit list of sources instead of the package's
/// metadata.
///
/// ```no_run
/// use spx_build::Source;
/// let sources = [Source { path: "agents/planner.spx".into(), roots: vec!["planner.proposal".into()] }];
/// spx_build::pin::run_sources(std::path::Path::new("."), &sources, false)?;
/// # Ok::<(), spx_build::Error>(())
/// ```
pub fn run_sources(
    package_dir: &Path,
    sources: &[Source],
    check_only: bool,
) -> Result<PinReport, Error> {
    let derived = core::derive_all(package_dir, sources)?;
    let resolved = Resolved {
        mode: if check_only {
            Mode::Check
        } else {
            Mode::Update
        },
        note: None,
        why_check: "`spx pin --check` only checks",
    };
    let plan = core::reconcile(package_dir, &derived, &resolved, Scope::Exact)?;
    let wrote = core::apply(package_dir, &plan)?;
    let entries = plan
        .changes
        .iter()
        .map(|(p, c)| PinEntry {
            source: p.source.clone(),
            root: p.root.clone(),
            digest: p.digest.clone(),
            change: c.clone(),
        })
        .collect();
    Ok(PinReport { entries, wrote })
}
