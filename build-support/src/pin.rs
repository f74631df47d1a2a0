//! Pinning for the `spx pin` command: re-pin a package, or check that its
//! `spx.lock` and `spx.lock.d/` are exactly what its sources derive. The
//! work is the engine's ([`spx_schema::lock::repin`]); this module reads
//! the package's `[package.metadata.spx]` for it.

use crate::{metadata, Error, Source};
use spx_schema::diag::Sources;
use spx_schema::lock::{Repin, RootsFrom};
use std::path::{Path, PathBuf};

pub use spx_schema::lock::{PinChange, PinEntry, PinReport};

/// Re-pins (or, with `check_only`, checks) the package in `package_dir`
/// from its `[package.metadata.spx]`.
///
/// Re-pinning makes `spx.lock` hold exactly the configured roots with
/// their derived digests (stale pins are removed with their pinned
/// documents) and rewrites `spx.lock.d/`; it writes nothing when all is
/// current. It is an explicit request, so it writes even when `CI` is set.
/// A malformed `spx.lock` (a hand edit, git merge-conflict markers) is
/// re-created, with a warning in [`PinReport::warnings`].
///
/// Checking writes nothing and fails (SPX-L003 drift, SPX-L004 missing or
/// stale pin, SPX-L005 missing or different pinned document, SPX-L001
/// malformed lock) exactly when re-pinning would change something. A
/// `Cargo.toml` that cannot be read is SPX-F001.
///
/// ```no_run
/// let report = spx_build::pin::run(std::path::Path::new("."), true)?;
/// assert!(!report.wrote);
/// # Ok::<(), spx_build::Error>(())
/// ```
pub fn run(package_dir: &Path, check_only: bool) -> Result<PinReport, Error> {
    let package = metadata::package(package_dir)?;
    run_package(&package, check_only)
}

fn run_package(package: &metadata::Package, check_only: bool) -> Result<PinReport, Error> {
    let sources = metadata::sources_from_value(&package.metadata)?;
    let repin = Repin {
        update_env: package.spx_build_script,
        spx_pin: true,
        ci: false,
        policy_in_code: false,
    };
    repin_with(
        &package.dir,
        &sources,
        check_only,
        RootsFrom::Metadata,
        repin,
    )
}

fn repin_with(
    dir: &Path,
    sources: &[Source],
    check_only: bool,
    from: RootsFrom,
    repin: Repin,
) -> Result<PinReport, Error> {
    let mut texts = Sources::new();
    spx_schema::lock::repin(dir, sources, check_only, from, repin, &mut texts)
        .map_err(|ds| Error::with_sources(ds, texts))
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
    repin_with(
        package_dir,
        sources,
        check_only,
        RootsFrom::Config,
        Repin::default(),
    )
}

/// The outcome of [`run_workspace`] for one member.
#[derive(Debug)]
#[non_exhaustive]
pub struct MemberPins {
    /// The package name.
    pub name: String,
    /// The directory of its `Cargo.toml`.
    pub dir: PathBuf,
    /// What [`run`] did for it.
    pub result: Result<PinReport, Error>,
}

/// [`run`] for every member of the workspace of `manifest_path` (a
/// `Cargo.toml`, virtual or not) that has a `[package.metadata.spx]`, in
/// `cargo metadata` order. Members without the table are skipped; a
/// workspace where no member has one is SPX-B002.
///
/// ```no_run
/// for member in spx_build::pin::run_workspace(std::path::Path::new("Cargo.toml"), true)? {
///     println!("{}: {}", member.name, member.result.is_ok());
/// }
/// # Ok::<(), spx_build::Error>(())
/// ```
pub fn run_workspace(manifest_path: &Path, check_only: bool) -> Result<Vec<MemberPins>, Error> {
    let (members, _) = metadata::workspace(manifest_path)?;
    let mut out = Vec::new();
    for m in members.iter().filter(|m| m.metadata.get("spx").is_some()) {
        out.push(MemberPins {
            name: m.name.clone(),
            dir: m.dir.clone(),
            result: run_package(m, check_only),
        });
    }
    if out.is_empty() {
        return Err(Error::from(metadata::problem(format!(
            "no member of the workspace of `{}` has a [package.metadata.spx] table",
            manifest_path.display()
        ))));
    }
    Ok(out)
}

/// The manifest `spx pin` works on when no path is given: the nearest
/// `Cargo.toml` in `dir` or one of its parents, as cargo finds it.
///
/// ```
/// let here = std::env::current_dir().unwrap();
/// assert!(spx_build::pin::find_manifest(&here).is_some());
/// ```
pub fn find_manifest(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .map(|d| d.join("Cargo.toml"))
        .find(|m| m.is_file())
}

/// Whether `manifest_path` is the manifest of a package (`false` for a
/// virtual workspace manifest). SPX-F001 when it cannot be read.
///
/// ```no_run
/// assert!(spx_build::pin::is_package(std::path::Path::new("Cargo.toml"))?);
/// # Ok::<(), spx_build::Error>(())
/// ```
pub fn is_package(manifest_path: &Path) -> Result<bool, Error> {
    Ok(metadata::workspace(manifest_path)?.1.is_some())
}
