//! What a run does to the pins: the policy, the derivation of every
//! configured root, and the plan (what `spx.lock` and `spx.lock.d/` must
//! become), decided completely before anything is written, then applied.
//!
//! A build script ([`Scope::Configured`]) owns only the roots it derives;
//! `spx pin` ([`repin`], [`Scope::Exact`]) owns the whole lock.

use super::format::{Lock, Pin};
use super::hints::Repin;
use super::messages;
use super::path::normalize_source;
use super::store::{
    pinned_schema_path, pinned_schema_relative, read_pinned_schema, remove_pinned_schema,
    write_pinned_schema,
};
use crate::diag::{Diagnostic, Sources};
use crate::schema::Schema;
use std::path::Path;

/// How a build treats `spx.lock`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum PinPolicy {
    /// Decide from the environment (the default): `CI` set → [`Check`](PinPolicy::Check);
    /// else `SPX_UPDATE_PINS` set → [`Update`](PinPolicy::Update); else
    /// [`Create`](PinPolicy::Create).
    #[default]
    FromEnv,
    /// Create missing pins (and `spx.lock` itself), refuse drift.
    Create,
    /// Create missing pins and rewrite drifted ones.
    Update,
    /// Write nothing into the package; a missing lock or pin and any drift
    /// fail.
    Check,
}

/// What a run may write, once the policy is resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Create missing pins, refuse drift.
    Create,
    /// Create missing pins and rewrite drifted ones.
    Update,
    /// Write nothing; anything missing or drifted fails.
    Check,
}

/// A resolved [`PinPolicy`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resolved {
    /// What the run may write.
    pub mode: Mode,
    /// A note for the user (a `cargo:warning`), when the environment asked
    /// for something that is ignored.
    pub note: Option<&'static str>,
    /// In [`Mode::Check`], why nothing is written (it ends the sentence
    /// "nothing is written because …"); empty otherwise.
    pub why_check: &'static str,
    /// The mode is [`Mode::Check`] because `CI` is set.
    pub ci: bool,
}

/// `CI`/`SPX_UPDATE_PINS` count as set unless absent, empty, `0` or
/// `false` (any case).
pub(crate) fn env_flag(name: &str) -> bool {
    match std::env::var(name) {
        Ok(v) => {
            let v = v.trim();
            !(v.is_empty() || v == "0" || v.eq_ignore_ascii_case("false"))
        }
        Err(std::env::VarError::NotPresent) => false,
        Err(std::env::VarError::NotUnicode(_)) => true,
    }
}

impl PinPolicy {
    /// The mode of this policy; [`PinPolicy::FromEnv`] reads `CI` and
    /// `SPX_UPDATE_PINS` (set unless absent, empty, `0` or `false` in any
    /// case), and CI wins over an update request, with a note.
    pub fn resolve(self) -> Resolved {
        let check = |why| Resolved {
            mode: Mode::Check,
            note: None,
            why_check: why,
            ci: false,
        };
        let ci = || Resolved {
            ci: true,
            ..check("CI is set")
        };
        let plain = |mode| Resolved {
            mode,
            note: None,
            why_check: "",
            ci: false,
        };
        match self {
            PinPolicy::Create => plain(Mode::Create),
            PinPolicy::Update => plain(Mode::Update),
            PinPolicy::Check => check("the pin policy is Check"),
            PinPolicy::FromEnv => match (env_flag("CI"), env_flag("SPX_UPDATE_PINS")) {
                (true, true) => Resolved {
                    note: Some(messages::CI_WINS),
                    ..ci()
                },
                (true, false) => ci(),
                (false, true) => plain(Mode::Update),
                (false, false) => plain(Mode::Create),
            },
        }
    }
}

/// One `.spx` source and the roots derived from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// The path relative to the package root, `/`-separated; normalised
    /// before use ([`super::normalize_source`]).
    pub path: String,
    /// The roots' stable ids.
    pub roots: Vec<String>,
}

/// One derived root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Derived {
    /// The normal form of the source path: the pin's key.
    pub source: String,
    /// The derived schema.
    pub schema: Schema,
    /// Every file read to derive it: the `.spx` module, or a project's
    /// manifest and each of its modules (for `cargo:rerun-if-changed`).
    pub files: Vec<std::path::PathBuf>,
}

/// Where the roots of a run were configured: the note of a root that
/// does not derive names it, so the user knows what to edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootsFrom {
    /// `[package.metadata.spx]` of the package's `Cargo.toml` (the sources
    /// in their order there).
    Metadata,
    /// The build helper's `Config::source` and `Config::root` calls, or an
    /// explicit list of sources.
    Config,
}

/// Derives every root of every source (a root configured twice for one
/// source once), collecting every diagnostic: SPX-B001 `build.source_path`
/// for a path that is not package-relative, and those of reading and
/// derivation (a root that does not derive gets a note saying where it was
/// configured, per `from`). A source may be a `.spx` module or a project's
/// `semaprax.toml`; each is read once, from one snapshot of every file
/// (whose texts are recorded in `texts` for rendering), and re-checked
/// after its roots derived.
pub fn derive_all(
    package_dir: &Path,
    sources: &[Source],
    from: RootsFrom,
    texts: &mut Sources,
) -> Result<Vec<Derived>, Vec<Diagnostic>> {
    let mut out: Vec<Derived> = Vec::new();
    let mut errors = Vec::new();
    for (i, s) in sources.iter().enumerate() {
        if s.roots.is_empty() {
            continue;
        }
        let path = match normalize_source(&s.path) {
            Ok(p) => p,
            Err(e) => {
                errors.push(messages::bad_source_path(&s.path, e));
                continue;
            }
        };
        let set =
            match crate::binding::SourceSet::read_recording(&package_dir.join(&path), &path, texts)
            {
                Ok(set) => set,
                Err(ds) => {
                    // A source that cannot be read: say where it was configured.
                    errors.extend(ds.into_iter().map(|d| {
                        if d.code == crate::binding::SOURCE_UNREADABLE {
                            d.with_note(messages::source_origin(from, i + 1, &path))
                        } else {
                            d
                        }
                    }));
                    continue;
                }
            };
        let files: Vec<std::path::PathBuf> = set.files().map(Path::to_path_buf).collect();
        let mut derived = Vec::new();
        for root in &s.roots {
            if out
                .iter()
                .chain(derived.iter())
                .any(|d: &Derived| d.source == path && d.schema.root_type_id() == root)
            {
                continue;
            }
            match set.derive(root) {
                Ok(schema) => derived.push(Derived {
                    source: path.clone(),
                    schema,
                    files: files.clone(),
                }),
                Err(d) => errors.push(d.with_note(messages::root_origin(from, i + 1, &path, root))),
            }
        }
        match set.recheck() {
            Ok(()) => out.extend(derived),
            Err(ds) => errors.extend(ds),
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// Which pins a run owns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Only the derived roots; other pins are left alone (a build script
    /// may be one of several writers).
    Configured,
    /// Exactly the derived roots: other pins are stale (`spx pin`).
    Exact,
}

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

/// Everything a run will do, decided before writing.
#[derive(Debug, Clone)]
pub struct Plan {
    mode: Mode,
    lock: Lock,
    documents: Vec<Schema>,
    remove_documents: Vec<String>,
    changes: Vec<(Pin, PinChange)>,
    warnings: Vec<Diagnostic>,
}

impl Plan {
    /// Warnings of the run: `lock.recreated` when a malformed `spx.lock`
    /// was re-created ([`Mode::Update`] only).
    pub fn warnings(&self) -> &[Diagnostic] {
        &self.warnings
    }

    /// What happens to the pin of `root` derived from `source`.
    pub fn change_of(&self, source: &str, root: &str) -> PinChange {
        self.changes
            .iter()
            .find(|(p, _)| p.source == source && p.root == root)
            .map_or(PinChange::Unchanged, |(_, c)| c.clone())
    }

    /// Every pin the run concerns, with what happens to it: one per derived
    /// root, then one per removed pin.
    pub fn changes(&self) -> &[(Pin, PinChange)] {
        &self.changes
    }

    /// The lock the run leaves.
    pub fn lock(&self) -> &Lock {
        &self.lock
    }
}

/// Decides the new lock and the pinned documents. Fails (writing nothing)
/// on drift outside [`Mode::Update`], on anything missing in
/// [`Mode::Check`], and on a malformed lock outside [`Mode::Update`]; with
/// [`Scope::Exact`] and [`Mode::Check`] also on stale pins and missing or
/// different pinned documents. In [`Mode::Update`] a malformed lock (a
/// hand edit, git merge-conflict markers) is re-created from the derived
/// roots, with a `lock.recreated` warning ([`Plan::warnings`]).
///
/// `repin` says which commands re-pin the package where this runs, for
/// the hints of the diagnostics; the text of a malformed lock is recorded
/// in `texts`.
pub fn reconcile(
    package_dir: &Path,
    derived: &[Derived],
    resolved: &Resolved,
    scope: Scope,
    repin: Repin,
    texts: &mut Sources,
) -> Result<Plan, Vec<Diagnostic>> {
    let mode = resolved.mode;
    let mut warnings = Vec::new();
    let old = match Lock::read(package_dir) {
        Ok(old) => old,
        Err(d) => {
            if d.code == super::LOCK_MALFORMED {
                if let Ok(bytes) = std::fs::read(package_dir.join(super::LOCK_FILE)) {
                    texts.insert(
                        super::LOCK_FILE,
                        String::from_utf8_lossy(&bytes).into_owned(),
                    );
                }
            }
            if d.code == super::LOCK_MALFORMED && mode == Mode::Update {
                warnings.push(messages::recreated(&d));
                None
            } else {
                return Err(vec![messages::recreate(d, repin)]);
            }
        }
    };
    let mut errors = Vec::new();
    let mut plan = Plan {
        mode,
        lock: old.clone().unwrap_or_default(),
        documents: Vec::new(),
        remove_documents: Vec::new(),
        changes: Vec::new(),
        warnings,
    };
    for d in derived {
        let fresh = Pin::of(d.source.clone(), &d.schema);
        match old
            .as_ref()
            .and_then(|l| l.find(&d.source, d.schema.root_type_id()))
        {
            None if mode == Mode::Check => errors.push(messages::unpinned(
                &d.source,
                &d.schema,
                old.is_some(),
                resolved.why_check,
                repin,
            )),
            None => {
                plan.lock.upsert(fresh.clone());
                plan.changes.push((fresh, PinChange::Created));
            }
            Some(p) if p.matches(&d.schema) => plan.changes.push((fresh, PinChange::Unchanged)),
            Some(p) if mode == Mode::Update => {
                let from = p.digest.clone();
                plan.lock.upsert(fresh.clone());
                plan.changes.push((fresh, PinChange::Updated { from }));
            }
            Some(p) => {
                let pinned = read_pinned_schema(package_dir, d.schema.root_type_id());
                errors.push(messages::drift(
                    &d.source,
                    p,
                    pinned.as_ref(),
                    &d.schema,
                    repin,
                ));
            }
        }
    }
    if scope == Scope::Exact {
        remove_stale(&mut plan, derived, &mut errors);
    }
    check_root_conflicts(&plan.lock, &mut errors);
    plan.documents = pinned_documents(package_dir, derived, old.as_ref(), mode, scope, &mut errors);
    if errors.is_empty() {
        Ok(plan)
    } else {
        Err(errors)
    }
}

/// [`Scope::Exact`]: a pin of a root that was not derived is stale; in
/// check mode an error, otherwise removed with its pinned document (unless
/// another source still pins that root).
fn remove_stale(plan: &mut Plan, derived: &[Derived], errors: &mut Vec<Diagnostic>) {
    let is_derived = |p: &Pin| {
        derived
            .iter()
            .any(|d| d.source == p.source && d.schema.root_type_id() == p.root)
    };
    let stale: Vec<Pin> = plan
        .lock
        .pins
        .iter()
        .filter(|p| !is_derived(p))
        .cloned()
        .collect();
    for p in stale {
        if plan.mode == Mode::Check {
            errors.push(messages::stale(&p));
        } else {
            plan.lock.pins.retain(|q| q != &p);
            if !plan.lock.pins.iter().any(|q| q.root == p.root) {
                plan.remove_documents.push(p.root.clone());
            }
            plan.changes.push((p, PinChange::Removed));
        }
    }
}

/// One pinned document per root: two sources may not pin one root id with
/// two different schemas.
fn check_root_conflicts(lock: &Lock, errors: &mut Vec<Diagnostic>) {
    for (i, p) in lock.pins.iter().enumerate() {
        if let Some(q) = lock.pins[..i]
            .iter()
            .find(|q| q.root == p.root && q.digest != p.digest)
        {
            errors.push(messages::root_conflict(&p.root, &q.source, &p.source));
        }
    }
}

/// The pinned documents to write, one per root. In check mode with
/// [`Scope::Exact`], a root pinned as derived whose document is missing or
/// different is an error.
fn pinned_documents(
    package_dir: &Path,
    derived: &[Derived],
    old: Option<&Lock>,
    mode: Mode,
    scope: Scope,
    errors: &mut Vec<Diagnostic>,
) -> Vec<Schema> {
    let mut documents: Vec<Schema> = Vec::new();
    for d in derived {
        let root = d.schema.root_type_id();
        if documents.iter().any(|s| s.root_type_id() == root) {
            continue;
        }
        let pinned_as_derived = old.is_some_and(|l| {
            l.find(&d.source, root)
                .is_some_and(|p| p.matches(&d.schema))
        });
        if mode == Mode::Check && scope == Scope::Exact && pinned_as_derived {
            let path = pinned_schema_path(package_dir, root);
            let ok = std::fs::read(&path).is_ok_and(|b| b == d.schema.document().as_bytes());
            if !ok {
                errors.push(messages::pinned_document(
                    root,
                    pinned_schema_relative(root),
                ));
            }
        }
        documents.push(d.schema.clone());
    }
    documents
}

/// Writes the plan: pinned documents first, the lock last (the commit
/// point). Nothing at all in [`Mode::Check`]. Returns true when a file was
/// written or removed.
pub fn apply(package_dir: &Path, plan: &Plan) -> Result<bool, Diagnostic> {
    if plan.mode == Mode::Check {
        return Ok(false);
    }
    let mut wrote = false;
    for s in &plan.documents {
        wrote |= write_pinned_schema(package_dir, s)?;
    }
    for root in &plan.remove_documents {
        wrote |= remove_pinned_schema(package_dir, root)?;
    }
    wrote |= plan.lock.write(package_dir)?;
    Ok(wrote)
}

/// One line of a [`PinReport`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PinEntry {
    /// The package-relative source path (its normal form).
    pub source: String,
    /// The root's stable id.
    pub root: String,
    /// The digest now pinned (for [`PinChange::Removed`], the digest the
    /// removed pin had).
    pub digest: String,
    /// What happened.
    pub change: PinChange,
}

/// The result of [`repin`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PinReport {
    /// One entry per derived root, then one per removed pin.
    pub entries: Vec<PinEntry>,
    /// True when a file of the package was written or removed (never in
    /// check mode).
    pub wrote: bool,
    /// Warnings: `lock.recreated` when a malformed `spx.lock` was
    /// re-created.
    pub warnings: Vec<Diagnostic>,
}

/// Re-pins (or, with `check_only`, checks) the package in `package_dir`
/// for exactly `sources` ([`Scope::Exact`]): what `spx pin` does.
///
/// Re-pinning makes `spx.lock` hold exactly the configured roots with
/// their derived digests (stale pins are removed with their pinned
/// documents) and rewrites `spx.lock.d/`; it writes nothing when all is
/// current. It is an explicit request, so it writes even when `CI` is set.
///
/// A malformed `spx.lock` (a hand edit, git merge-conflict markers) is
/// re-created from the configured roots, with a `lock.recreated` warning.
///
/// Checking writes nothing and fails (SPX-L003 drift, SPX-L004 missing or
/// stale pin, SPX-L005 missing or different pinned document, SPX-L001
/// malformed lock) exactly when re-pinning would change something.
///
/// `from` says where `sources` were configured and `repin` which commands
/// re-pin the package, for the diagnostics; the texts read are recorded
/// in `texts`.
pub fn repin(
    package_dir: &Path,
    sources: &[Source],
    check_only: bool,
    from: RootsFrom,
    repin: Repin,
    texts: &mut Sources,
) -> Result<PinReport, Vec<Diagnostic>> {
    let derived = derive_all(package_dir, sources, from, texts)?;
    let resolved = Resolved {
        mode: if check_only {
            Mode::Check
        } else {
            Mode::Update
        },
        note: None,
        why_check: "`spx pin --check` only checks",
        ci: false,
    };
    let plan = reconcile(package_dir, &derived, &resolved, Scope::Exact, repin, texts)?;
    let wrote = apply(package_dir, &plan).map_err(|d| vec![d])?;
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
    Ok(PinReport {
        entries,
        wrote,
        warnings: plan.warnings,
    })
}
