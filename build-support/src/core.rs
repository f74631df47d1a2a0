//! Derivation of every configured root, and the pin plan: what the lock and
//! the pinned documents must become, decided completely before anything is
//! written.

use crate::pin::PinChange;
use crate::{Error, Source, BUILD_CONFIG, REPIN_HINT};
use spx_schema::diag::{Diagnostic, Location};
use spx_schema::lock::{self, Lock, Pin, LOCK_DRIFT, LOCK_PINNED_DOCUMENT, LOCK_UNPINNED};
use spx_schema::quote::quote;
use spx_schema::Schema;
use std::path::Path;

/// How [`crate::Config::compile`] treats `spx.lock`.
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mode {
    Create,
    Update,
    Check,
}

pub(crate) struct Resolved {
    pub(crate) mode: Mode,
    pub(crate) note: Option<&'static str>,
    pub(crate) why_check: &'static str,
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
    pub(crate) fn resolve(self) -> Resolved {
        let check = |why| Resolved {
            mode: Mode::Check,
            note: None,
            why_check: why,
        };
        let plain = |mode| Resolved {
            mode,
            note: None,
            why_check: "",
        };
        match self {
            PinPolicy::Create => plain(Mode::Create),
            PinPolicy::Update => plain(Mode::Update),
            PinPolicy::Check => check("the pin policy is Check"),
            PinPolicy::FromEnv => {
                let ci = env_flag("CI");
                let update = env_flag("SPX_UPDATE_PINS");
                match (ci, update) {
                    (true, true) => Resolved {
                        note: Some(
                            "spx: SPX_UPDATE_PINS is ignored because CI is set: nothing is written to the package in CI",
                        ),
                        ..check("CI is set")
                    },
                    (true, false) => check("CI is set"),
                    (false, true) => plain(Mode::Update),
                    (false, false) => plain(Mode::Create),
                }
            }
        }
    }
}

/// One derived root.
pub(crate) struct Derived {
    pub(crate) source: String,
    pub(crate) schema: Schema,
}

/// Derives every root of every source, collecting every diagnostic.
pub(crate) fn derive_all(package_dir: &Path, sources: &[Source]) -> Result<Vec<Derived>, Error> {
    let mut out: Vec<Derived> = Vec::new();
    let mut errors = Vec::new();
    for s in sources {
        for root in &s.roots {
            if out
                .iter()
                .any(|d| d.source == s.path && d.schema.root_type_id() == root)
            {
                continue;
            }
            match spx_schema::binding::compile_file(&package_dir.join(&s.path), &s.path, root) {
                Ok(schema) => out.push(Derived {
                    source: s.path.clone(),
                    schema,
                }),
                Err(ds) => errors.extend(ds),
            }
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(Error::new(errors))
    }
}

/// Which pins a run owns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scope {
    /// Only the derived roots; other pins are left alone (a build script
    /// may be one of several writers).
    Configured,
    /// Exactly the derived roots: other pins are stale (`spx pin`).
    Exact,
}

/// Everything a run will do, decided before writing.
pub(crate) struct Plan {
    pub(crate) mode: Mode,
    pub(crate) lock: Lock,
    pub(crate) documents: Vec<Schema>,
    pub(crate) remove_documents: Vec<String>,
    pub(crate) changes: Vec<(Pin, PinChange)>,
}

impl Plan {
    pub(crate) fn change_of(&self, source: &str, root: &str) -> PinChange {
        self.changes
            .iter()
            .find(|(p, _)| p.source == source && p.root == root)
            .map_or(PinChange::Unchanged, |(_, c)| c.clone())
    }
}

fn drift(package_dir: &Path, d: &Derived, pin: &Pin) -> Diagnostic {
    let root = d.schema.root_type_id();
    let pinned = lock::read_pinned_schema(package_dir, root);
    Diagnostic::error(
        LOCK_DRIFT,
        "lock.drift",
        format!(
            "the schema of root {} derived from {} no longer matches its pin in spx.lock",
            quote(root),
            quote(&d.source)
        ),
    )
    .at(Location::File {
        path: d.source.clone(),
    })
    .with_detail(spx_schema::diff::drift_message(
        root,
        &pin.digest,
        pinned.as_ref(),
        &d.schema,
        REPIN_HINT,
    ))
}

fn unpinned(d: &Derived, lock_exists: bool, why_check: &str) -> Diagnostic {
    let root = d.schema.root_type_id();
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
            quote(root),
            quote(&d.source)
        ),
    )
    .at(Location::File {
        path: lock::LOCK_FILE.to_owned(),
    })
    .with_detail(format!(
        "nothing is written because {why_check}: run `cargo build` (or `spx pin`) locally and commit spx.lock and spx.lock.d/\nderived digest: {}",
        d.schema.digest()
    ))
}

/// Decides the new lock and the pinned documents. Fails (writing nothing)
/// on a malformed lock, on drift outside [`Mode::Update`], and on anything
/// missing in [`Mode::Check`]; with [`Scope::Exact`] and [`Mode::Check`]
/// also on stale pins and missing or different pinned documents.
pub(crate) fn reconcile(
    package_dir: &Path,
    derived: &[Derived],
    resolved: &Resolved,
    scope: Scope,
) -> Result<Plan, Error> {
    let mode = resolved.mode;
    let old = Lock::read(package_dir).map_err(Error::from)?;
    let mut errors = Vec::new();
    let mut new = old.clone().unwrap_or_default();
    let mut changes = Vec::new();
    for d in derived {
        let root = d.schema.root_type_id();
        let fresh = Pin::of(d.source.clone(), &d.schema);
        match old.as_ref().and_then(|l| l.find(&d.source, root)) {
            None if mode == Mode::Check => {
                errors.push(unpinned(d, old.is_some(), resolved.why_check))
            }
            None => {
                new.upsert(fresh.clone());
                changes.push((fresh, PinChange::Created));
            }
            Some(p) if p.matches(&d.schema) => changes.push((fresh, PinChange::Unchanged)),
            Some(p) if mode == Mode::Update => {
                let from = p.digest.clone();
                new.upsert(fresh.clone());
                changes.push((fresh, PinChange::Updated { from }));
            }
            Some(p) => errors.push(drift(package_dir, d, p)),
        }
    }
    let mut remove_documents = Vec::new();
    if scope == Scope::Exact {
        let is_derived = |p: &Pin| {
            derived
                .iter()
                .any(|d| d.source == p.source && d.schema.root_type_id() == p.root)
        };
        let stale: Vec<Pin> = new
            .pins
            .iter()
            .filter(|p| !is_derived(p))
            .cloned()
            .collect();
        for p in stale {
            if mode == Mode::Check {
                errors.push(
                    Diagnostic::error(
                        LOCK_UNPINNED,
                        "lock.stale",
                        format!(
                            "spx.lock pins root {} of source {}, which is no longer configured",
                            quote(&p.root),
                            quote(&p.source)
                        ),
                    )
                    .at(Location::File {
                        path: lock::LOCK_FILE.to_owned(),
                    })
                    .with_detail("run `spx pin` to remove stale pins"),
                );
            } else {
                new.pins.retain(|q| q != &p);
                if !new.pins.iter().any(|q| q.root == p.root) {
                    remove_documents.push(p.root.clone());
                }
                changes.push((p, PinChange::Removed));
            }
        }
    }
    // One pinned document per root: two sources may not pin one root id
    // with two different schemas.
    for (i, p) in new.pins.iter().enumerate() {
        if let Some(q) = new.pins[..i]
            .iter()
            .find(|q| q.root == p.root && q.digest != p.digest)
        {
            errors.push(Diagnostic::error(
                BUILD_CONFIG,
                "build.root_conflict",
                format!(
                    "root {} is derived from both {} and {} with different schemas; a root id must name one schema per package",
                    quote(&p.root),
                    quote(&q.source),
                    quote(&p.source)
                ),
            ));
        }
    }
    let mut documents: Vec<Schema> = Vec::new();
    for d in derived {
        if documents
            .iter()
            .any(|s| s.root_type_id() == d.schema.root_type_id())
        {
            continue;
        }
        let pinned_as_derived = old.as_ref().is_some_and(|l| {
            l.find(&d.source, d.schema.root_type_id())
                .is_some_and(|p| p.matches(&d.schema))
        });
        if mode == Mode::Check && scope == Scope::Exact && pinned_as_derived {
            let path = lock::pinned_schema_path(package_dir, d.schema.root_type_id());
            let ok = std::fs::read(&path).is_ok_and(|b| b == d.schema.document().as_bytes());
            if !ok {
                errors.push(
                    Diagnostic::error(
                        LOCK_PINNED_DOCUMENT,
                        "lock.pinned_document",
                        format!(
                            "the pinned document of root {} is missing or is not the pinned schema",
                            quote(d.schema.root_type_id())
                        ),
                    )
                    .at(Location::File {
                        path: lock::pinned_schema_relative(d.schema.root_type_id()),
                    })
                    .with_detail("run `spx pin` and commit spx.lock.d/"),
                );
            }
        }
        documents.push(d.schema.clone());
    }
    if !errors.is_empty() {
        return Err(Error::new(errors));
    }
    Ok(Plan {
        mode,
        lock: new,
        documents,
        remove_documents,
        changes,
    })
}

/// Writes the plan: pinned documents first, the lock last (the commit
/// point). Nothing at all in [`Mode::Check`].
pub(crate) fn apply(package_dir: &Path, plan: &Plan) -> Result<bool, Error> {
    if plan.mode == Mode::Check {
        return Ok(false);
    }
    let mut wrote = false;
    for s in &plan.documents {
        wrote |= lock::write_pinned_schema(package_dir, s)?;
    }
    for root in &plan.remove_documents {
        wrote |= lock::remove_pinned_schema(package_dir, root)?;
    }
    wrote |= plan.lock.write(package_dir)?;
    Ok(wrote)
}

/// The provider projections of `schema`: dialect name and document bytes.
/// A dialect that refuses the schema (OpenAI's documented limits, SPX-Z207)
/// is skipped and its diagnostic returned as a warning: the schema is still
/// valid for the decoder and the other providers.
pub(crate) fn projections(schema: &Schema) -> (Vec<(String, String)>, Vec<Diagnostic>) {
    let mut out = Vec::new();
    let mut warnings = Vec::new();
    for dialect in spx_schema::project::Dialect::ALL {
        match spx_schema::project::project(schema, dialect) {
            Ok(p) => out.push((dialect.name().to_owned(), p.document)),
            Err(mut d) => {
                d.severity = spx_schema::Severity::Warning;
                warnings.push(d);
            }
        }
    }
    (out, warnings)
}
