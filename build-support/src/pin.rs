//! Pinning for the `spx pin` command: re-pin a package, or check that its
//! `spx.lock` and `spx.lock.d/` are exactly what its sources derive. The
//! work is the engine's ([`spx_schema::lock::repin`]); this module reads
//! the package's `[package.metadata.spx]` for it.

use crate::{Error, Source};
use std::path::Path;

pub use spx_schema::lock::{PinChange, PinEntry, PinReport};

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
    spx_schema::lock::repin(package_dir, sources, check_only).map_err(Error::new)
}
