//! # spx-build — derive Agent Interaction Schemas in `build.rs`
//!
//! `spx-build` reads semaprax `.spx` modules at build time, derives the
//! canonical Agent Interaction Schema v1 of each configured root, writes the
//! schema documents and their provider projections to `OUT_DIR`, and pins
//! every root's digest in a committed `spx.lock` at the package root, so
//! that a change to a type that an agent exchanges can never slip through a
//! build unnoticed. It is a thin door onto the engine, `spx-schema`: the
//! `spx_interaction!` macro and the `spx` CLI derive exactly the same bytes.
//!
//! ## From zero to a working build script
//!
//! `Cargo.toml`:
//!
//! ```toml
//! [build-dependencies]
//! spx-build = "0.1"
//!
//! [package.metadata.spx]
//! sources = [{ path = "agents/planner.spx", roots = ["planner.proposal"] }]
//! ```
//!
//! `build.rs`:
//!
//! ```no_run
//! fn main() -> Result<(), spx_build::Error> {
//!     spx_build::Config::from_metadata()?.compile()?;
//!     Ok(())
//! }
//! ```
//!
//! or, without metadata, with the builder (the shape of `prost-build`):
//!
//! ```no_run
//! fn main() -> Result<(), spx_build::Error> {
//!     spx_build::Config::new()
//!         .source("agents/planner.spx")
//!         .root("planner.proposal")
//!         .compile()?;
//!     Ok(())
//! }
//! ```
//!
//! or the one-line convenience [`compile`]:
//!
//! ```no_run
//! fn main() -> Result<(), spx_build::Error> {
//!     spx_build::compile("agents/planner.spx", &["planner.proposal"])?;
//!     Ok(())
//! }
//! ```
//!
//! The first `cargo build` creates `spx.lock` and `spx.lock.d/`: commit
//! both. From then on:
//!
//! | situation | outcome |
//! |---|---|
//! | derived digest equals the pin | build goes on, nothing is written |
//! | a root has no pin yet (or there is no `spx.lock`) | the pin is created |
//! | a structural change (the digest moved) | the build fails with the drift explanation: pinned and derived digests and every change by stable id |
//! | a display rename only | nothing changes: schema documents carry no names |
//! | `SPX_UPDATE_PINS=1` | drifted pins are rewritten |
//! | `CI` is set | nothing is ever written to the package; a missing lock or pin fails the build |
//!
//! A failed build leaves the previous `spx.lock` and `spx.lock.d/` exactly
//! as they were: every root is derived and checked first, and the files are
//! written only when everything passed, each atomically (temporary file and
//! rename), the lock last.
//!
//! ## Outputs
//!
//! For each root `r`, in `$OUT_DIR/spx/` (see [`Config::out_dir`]):
//! `<r>.schema.json` (the canonical document) and `<r>.<dialect>.json` for
//! each provider projection (`draft2020`, `openai`, `anthropic`, `gemini`).
//! A root id that is not made of `a-z 0-9 . _ -` is escaped in file names
//! as [`spx_schema::lock::pin_file_stem`] does. Files are only written when
//! their bytes change, so cargo does not rebuild what did not change.
//!
//! ## Cargo directives
//!
//! [`Config::compile`] prints `cargo:rerun-if-changed` for every source
//! (for a project's `semaprax.toml`, also for every module it lists),
//! for `spx.lock` (and for `Cargo.toml` when the configuration came from
//! metadata), and `cargo:rerun-if-env-changed` for `SPX_UPDATE_PINS` and
//! `CI`. Printing any `rerun-if-changed` replaces cargo's default (rerun
//! when any file of the package changes): list your other inputs yourself
//! if the build script has any.
//!
//! ## Environment
//!
//! * `CI`: set to anything but the empty string, `0` or `false` (any case),
//!   the helper never writes into the package.
//! * `SPX_UPDATE_PINS`: set likewise, drifted pins are rewritten (ignored,
//!   with a note, when `CI` is set).
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod consumers;
mod metadata;
mod outputs;
pub mod pin;

use spx_schema::diag::{Code, Diagnostic, Renderer, Sources};
use spx_schema::lock::{self as pins, BuildRoots, Repin, RootsFrom, Scope};
use spx_schema::Schema;
use std::fmt;
use std::path::{Path, PathBuf};

pub use spx_schema::lock::{PinPolicy, Source, BUILD_CONFIG, REPIN_HINT};

/// `[package.metadata.spx]` is missing or malformed, or `cargo metadata`
/// failed.
pub const BUILD_METADATA: Code = Code("SPX-B002");
/// An output could not be written to `OUT_DIR`.
pub const BUILD_OUTPUT: Code = Code("SPX-B003");

/// What a build did for one root.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Compiled {
    /// The source path as configured, in normal form (package-relative,
    /// the key of its pin in `spx.lock`).
    pub source: String,
    /// The root's stable id.
    pub root: String,
    /// The derived schema.
    pub schema: Schema,
    /// `$OUT_DIR/spx/<root>.schema.json`.
    pub schema_path: PathBuf,
    /// The provider projections written beside it: dialect name and path.
    pub projections: Vec<(String, PathBuf)>,
    /// What happened to the root's pin.
    pub pin: pin::PinChange,
}

/// A failed build: every diagnostic found, in order, and the source texts
/// they point into.
///
/// `Display` writes each diagnostic in its compact form (`error[CODE]:
/// message` with its location, detail, note and help lines), separated by
/// blank lines; [`Error::render`] shows them with their source lines.
#[derive(Clone, PartialEq, Eq)]
pub struct Error {
    diagnostics: Vec<Diagnostic>,
    sources: Sources,
    printed: bool,
}

impl Error {
    /// An error carrying `diagnostics`.
    ///
    /// ```
    /// let e = spx_build::Error::new(Vec::new());
    /// assert!(e.diagnostics().is_empty());
    /// ```
    pub fn new(diagnostics: Vec<Diagnostic>) -> Error {
        Error {
            diagnostics,
            sources: Sources::new(),
            printed: false,
        }
    }

    /// An error carrying `diagnostics` and the texts they point into.
    pub fn with_sources(diagnostics: Vec<Diagnostic>, sources: Sources) -> Error {
        Error {
            diagnostics,
            sources,
            printed: false,
        }
    }

    /// Every diagnostic, in the order found.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The source texts the diagnostics point into.
    pub fn sources(&self) -> &Sources {
        &self.sources
    }

    /// Every diagnostic rendered with its source lines and carets
    /// ([`spx_schema::diag::Renderer`]), each followed by a line feed;
    /// ANSI-coloured when `color`.
    ///
    /// ```
    /// let e = spx_build::Error::new(vec![spx_schema::Diagnostic::z202("type.unresolved")]);
    /// assert_eq!(
    ///     e.render(false),
    ///     "error[SPX-Z202]: AgentInteractionSchema invariant failed: type.unresolved\n"
    /// );
    /// ```
    pub fn render(&self, color: bool) -> String {
        let renderer = Renderer::colored(color);
        let mut out = String::new();
        for d in &self.diagnostics {
            out.push_str(&renderer.render(d, &self.sources));
            out.push('\n');
        }
        out
    }

    /// True when some diagnostic has this code.
    pub fn has_code(&self, code: Code) -> bool {
        self.diagnostics.iter().any(|d| d.code == code)
    }
}

impl From<Vec<Diagnostic>> for Error {
    fn from(diagnostics: Vec<Diagnostic>) -> Error {
        Error::new(diagnostics)
    }
}

impl From<Diagnostic> for Error {
    fn from(d: Diagnostic) -> Error {
        Error::new(vec![d])
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.diagnostics.iter().enumerate() {
            if i > 0 {
                f.write_str("\n\n")?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Error {
    /// When the diagnostics were already printed to stderr by
    /// [`Config::compile`] (so `fn main() -> Result<(), Error>` does not
    /// print them twice), a one-line summary; otherwise the full text.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.printed {
            write!(
                f,
                "spx-build failed with {} diagnostic(s), printed above",
                self.diagnostics.len()
            )
        } else {
            write!(f, "{self}")
        }
    }
}

impl std::error::Error for Error {}

/// The build configuration (a builder in the style of `prost-build`).
///
/// Every setter takes `&mut self` and returns `&mut Self`, so calls chain;
/// [`Config::compile`] does the work.
#[derive(Debug, Clone)]
pub struct Config {
    sources: Vec<Source>,
    problems: Vec<Diagnostic>,
    out_dir: Option<PathBuf>,
    consumers_dir: Option<PathBuf>,
    package_dir: Option<PathBuf>,
    projections: bool,
    cargo_output: bool,
    policy: PinPolicy,
    from_manifest: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            sources: Vec::new(),
            problems: Vec::new(),
            out_dir: None,
            consumers_dir: None,
            package_dir: None,
            projections: true,
            cargo_output: true,
            policy: PinPolicy::FromEnv,
            from_manifest: false,
        }
    }
}

impl Config {
    /// A configuration with no sources and every default: outputs in
    /// `$OUT_DIR/spx`, the package at `$CARGO_MANIFEST_DIR`, projections on,
    /// cargo directives and diagnostics printed, pin policy from the
    /// environment.
    ///
    /// ```
    /// let config = spx_build::Config::new();
    /// assert!(config.sources().is_empty());
    /// ```
    pub fn new() -> Config {
        Config::default()
    }

    /// A configuration read from `[package.metadata.spx]` in the
    /// `Cargo.toml` of the package being built (`$CARGO_MANIFEST_DIR`),
    /// through `cargo metadata`:
    ///
    /// ```toml
    /// [package.metadata.spx]
    /// sources = [
    ///     { path = "agents/planner.spx", roots = ["planner.proposal", "planner.step"] },
    /// ]
    /// ```
    ///
    /// Unknown keys, a missing table, an empty `roots` list or a path that
    /// is not package-relative are refused with SPX-B002. The returned
    /// configuration also prints `cargo:rerun-if-changed` for `Cargo.toml`.
    ///
    /// ```no_run
    /// // build.rs
    /// fn main() -> Result<(), spx_build::Error> {
    ///     spx_build::Config::from_metadata()?.compile()?;
    ///     Ok(())
    /// }
    /// ```
    pub fn from_metadata() -> Result<Config, Error> {
        let dir = manifest_dir().map_err(Error::from)?;
        Config::from_metadata_in(&dir)
    }

    /// [`Config::from_metadata`] for the package whose `Cargo.toml` is in
    /// `package_dir`; also sets [`Config::package_dir`] to it.
    ///
    /// ```no_run
    /// let config = spx_build::Config::from_metadata_in(std::path::Path::new("examples/agent-host"))?;
    /// assert!(!config.sources().is_empty());
    /// # Ok::<(), spx_build::Error>(())
    /// ```
    pub fn from_metadata_in(package_dir: &Path) -> Result<Config, Error> {
        let sources = metadata::read_sources(package_dir)?;
        let mut config = Config::new();
        config.sources = sources;
        config.package_dir = Some(package_dir.to_path_buf());
        config.from_manifest = true;
        Ok(config)
    }

    /// Adds a `.spx` source, or a project's `semaprax.toml` (any file whose
    /// name ends in `.toml`: its listed modules are read together),
    /// relative to the package root and `/`-separated (a `\` is read as
    /// `/`). Roots given next with [`Config::root`] attach to it. No source
    /// is configured by default.
    ///
    /// The path is normalised lexically ([`spx_schema::lock::normalize_source`]):
    /// `./agents/planner.spx` and `agents//planner.spx` are
    /// `agents/planner.spx`, the key of its pins in `spx.lock`. An absolute
    /// path, or one that leaves the package, is reported by
    /// [`Config::compile`] (SPX-B001 `build.source_path`).
    ///
    /// ```
    /// let mut config = spx_build::Config::new();
    /// config.source("./agents//planner.spx").root("planner.proposal");
    /// assert_eq!(config.sources()[0].path, "agents/planner.spx");
    /// ```
    pub fn source(&mut self, path: impl AsRef<Path>) -> &mut Self {
        let raw = path.as_ref().to_string_lossy().replace('\\', "/");
        let path = match pins::normalize_source(&raw) {
            Ok(normal) => normal,
            Err(e) => {
                self.problems.push(pins::bad_source_path(&raw, e));
                raw
            }
        };
        self.sources.push(Source {
            path,
            roots: Vec::new(),
        });
        self
    }

    /// Adds a root (a record or variant stable id) to the last source
    /// given with [`Config::source`]. A root before any source is reported
    /// by [`Config::compile`] (SPX-B001). No root is configured by default.
    ///
    /// ```
    /// let mut config = spx_build::Config::new();
    /// config
    ///     .source("agents/planner.spx")
    ///     .root("planner.proposal")
    ///     .root("planner.observation");
    /// assert_eq!(config.sources()[0].roots, ["planner.proposal", "planner.observation"]);
    /// ```
    pub fn root(&mut self, stable_id: impl Into<String>) -> &mut Self {
        let id = stable_id.into();
        match self.sources.last_mut() {
            Some(s) => s.roots.push(id),
            None => self.problems.push(Diagnostic::error(
                BUILD_CONFIG,
                "build.root_without_source",
                format!(
                    "root {} was given before any source; call `.source(\"…\")` first",
                    spx_schema::quote::quote(&id)
                ),
            )),
        }
        self
    }

    /// Where the schema documents and projections go. Default:
    /// `$OUT_DIR/spx`.
    ///
    /// ```
    /// let mut config = spx_build::Config::new();
    /// config.out_dir("target/spx-schemas");
    /// ```
    pub fn out_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// Also write the TypeScript and Python consumer modules of every
    /// source (all of its roots in one module, as `spx gen` writes them) to
    /// `dir`: `<dir>/<stem>.ts` and `<dir>/<stem>.py`, where `<stem>` is the
    /// source's file stem with characters other than ASCII letters, digits
    /// and `_` replaced by `_` (`agents/planner.spx` → `planner.ts`,
    /// `planner.py`). A relative `dir` is relative to the package root, so
    /// a Rust host can keep the TypeScript UI it ships in step with its
    /// types. Files are written only when their bytes change; in a run that
    /// may not write into the package (`CI` set, or
    /// [`PinPolicy::Check`]), nothing is written and a stale file fails the
    /// build. Default: none (no consumer modules).
    ///
    /// ```
    /// let mut config = spx_build::Config::new();
    /// config.consumers_dir("ui/src/generated");
    /// ```
    pub fn consumers_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        self.consumers_dir = Some(dir.into());
        self
    }

    /// The package root: where sources are resolved and `spx.lock` lives.
    /// Default: `$CARGO_MANIFEST_DIR`.
    ///
    /// ```
    /// let mut config = spx_build::Config::new();
    /// config.package_dir("examples/agent-host");
    /// ```
    pub fn package_dir(&mut self, dir: impl Into<PathBuf>) -> &mut Self {
        self.package_dir = Some(dir.into());
        self
    }

    /// Whether to write the provider projections beside each schema
    /// document. Default: `true`.
    ///
    /// ```
    /// let mut config = spx_build::Config::new();
    /// config.projections(false);
    /// ```
    pub fn projections(&mut self, enabled: bool) -> &mut Self {
        self.projections = enabled;
        self
    }

    /// Whether [`Config::compile`] prints `cargo:` directives to stdout and
    /// its diagnostics to stderr. Default: `true` (right for `build.rs`;
    /// turn it off when calling from another tool).
    ///
    /// ```
    /// let mut config = spx_build::Config::new();
    /// config.cargo_output(false);
    /// ```
    pub fn cargo_output(&mut self, enabled: bool) -> &mut Self {
        self.cargo_output = enabled;
        self
    }

    /// How pins are treated. Default: [`PinPolicy::FromEnv`] (`CI` →
    /// check only, `SPX_UPDATE_PINS=1` → update, otherwise create missing
    /// pins and refuse drift).
    ///
    /// ```
    /// let mut config = spx_build::Config::new();
    /// config.pin_policy(spx_build::PinPolicy::Check);
    /// ```
    pub fn pin_policy(&mut self, policy: PinPolicy) -> &mut Self {
        self.policy = policy;
        self
    }

    /// The sources configured so far.
    ///
    /// ```
    /// let mut config = spx_build::Config::new();
    /// config.source("a.spx").root("a.root");
    /// assert_eq!(config.sources().len(), 1);
    /// ```
    pub fn sources(&self) -> &[Source] {
        &self.sources
    }

    /// Derives every root, writes the outputs, checks and maintains
    /// `spx.lock`. On failure every diagnostic is returned and, with
    /// [`Config::cargo_output`] on, printed as `cargo::error=` lines (one
    /// per line of its rendering, with the source line and carets), which
    /// cargo shows at the top of the failed build and which fail the build
    /// even if the build script ignores the error (cargo 1.84 and later).
    /// Nothing is written into the package and the previous lock stays as
    /// it was.
    ///
    /// With [`Config::cargo_output`] on it also sets `SPX_BUILD_ROOTS` for
    /// the crate (`cargo:rustc-env`): the roots this build pins, so that an
    /// `spx_interaction!` call can tell whether `SPX_UPDATE_PINS=1 cargo
    /// build` or `spx pin` would pin its root.
    ///
    /// ```no_run
    /// let compiled = spx_build::Config::new()
    ///     .source("agents/planner.spx")
    ///     .root("planner.proposal")
    ///     .compile()?;
    /// println!("{}", compiled[0].schema.digest());
    /// # Ok::<(), spx_build::Error>(())
    /// ```
    pub fn compile(&self) -> Result<Vec<Compiled>, Error> {
        let result = self.compile_inner();
        match result {
            Ok(c) => Ok(c),
            Err(mut e) => {
                if self.cargo_output {
                    print!("{}", cargo_errors(&e.render(false)));
                    e.printed = true;
                }
                Err(e)
            }
        }
    }

    fn compile_inner(&self) -> Result<Vec<Compiled>, Error> {
        let package_dir = match &self.package_dir {
            Some(d) => d.clone(),
            None => manifest_dir()?,
        };
        if self.cargo_output {
            for s in &self.sources {
                println!(
                    "cargo:rerun-if-changed={}",
                    package_dir.join(&s.path).display()
                );
            }
            println!(
                "cargo:rerun-if-changed={}",
                package_dir.join(pins::LOCK_FILE).display()
            );
            if self.from_manifest {
                println!(
                    "cargo:rerun-if-changed={}",
                    package_dir.join("Cargo.toml").display()
                );
            }
            println!("cargo:rerun-if-env-changed=SPX_UPDATE_PINS");
            println!("cargo:rerun-if-env-changed=CI");
            let roots = BuildRoots {
                from_metadata: self.from_manifest,
                update_env: self.policy == PinPolicy::FromEnv,
                roots: self
                    .sources
                    .iter()
                    .flat_map(|s| s.roots.iter().map(|r| (s.path.clone(), r.clone())))
                    .collect(),
            };
            println!(
                "cargo:rustc-env={}={}",
                pins::BUILD_ROOTS_VAR,
                roots.encode()
            );
        }
        let mut problems = self.problems.clone();
        for s in &self.sources {
            if s.roots.is_empty() {
                problems.push(Diagnostic::error(
                    BUILD_CONFIG,
                    "build.source_without_roots",
                    format!(
                        "source {} has no root; add `.root(\"…\")` after it",
                        spx_schema::quote::quote(&s.path)
                    ),
                ));
            }
        }
        if !problems.is_empty() {
            return Err(Error::new(problems));
        }
        let policy = self.policy.resolve();
        let out_dir = match &self.out_dir {
            Some(d) => d.clone(),
            None => match std::env::var_os("OUT_DIR") {
                Some(d) => PathBuf::from(d).join("spx"),
                None => {
                    return Err(Error::new(vec![Diagnostic::error(
                        BUILD_CONFIG,
                        "build.out_dir",
                        "OUT_DIR is not set: call this from build.rs or set `.out_dir(..)`",
                    )]))
                }
            },
        };
        if self.cargo_output {
            if let Some(note) = policy.note {
                println!("cargo:warning={note}");
            }
        }
        let from = if self.from_manifest {
            RootsFrom::Metadata
        } else {
            RootsFrom::Config
        };
        let mut texts = Sources::new();
        let derived = pins::derive_all(&package_dir, &self.sources, from, &mut texts)
            .map_err(|ds| Error::with_sources(ds, texts.clone()))?;
        if self.cargo_output {
            // A project's modules, read through its manifest: cargo reruns
            // the build when any of them changes.
            let mut printed: Vec<PathBuf> = self
                .sources
                .iter()
                .map(|s| package_dir.join(&s.path))
                .collect();
            for file in derived.iter().flat_map(|d| d.files.iter()) {
                if !printed.contains(file) {
                    println!("cargo:rerun-if-changed={}", file.display());
                    printed.push(file.clone());
                }
            }
        }
        let repin = Repin {
            update_env: self.policy == PinPolicy::FromEnv && in_build_script(),
            spx_pin: self.from_manifest,
            ci: policy.ci,
            policy_in_code: self.policy != PinPolicy::FromEnv,
        };
        let plan = pins::reconcile(
            &package_dir,
            &derived,
            &policy,
            Scope::Configured,
            repin,
            &mut texts,
        )
        .map_err(|ds| Error::with_sources(ds, texts.clone()))?;
        if self.cargo_output {
            for w in plan.warnings() {
                println!("cargo:warning=spx: {}", status_line(w));
            }
        }
        // Outputs first (they never touch the package), then the pins.
        let mut compiled = Vec::with_capacity(derived.len());
        for d in &derived {
            let (schema_path, projections) =
                outputs::write(&out_dir, &d.schema, self.projections, self.cargo_output)?;
            compiled.push(Compiled {
                source: d.source.clone(),
                root: d.schema.root_type_id().to_owned(),
                schema: d.schema.clone(),
                schema_path,
                projections,
                pin: plan.change_of(&d.source, d.schema.root_type_id()),
            });
        }
        if let Some(dir) = &self.consumers_dir {
            let check_only = policy.mode == pins::Mode::Check;
            consumers::write(&package_dir.join(dir), &derived, check_only)?;
        }
        if self.cargo_output {
            for c in &compiled {
                if let Some(note) = pins::pin_written(&c.schema, &c.pin) {
                    println!("cargo:warning={note}");
                }
            }
        }
        pins::apply(&package_dir, &plan)?;
        Ok(compiled)
    }
}

/// The sources of `[package.metadata.spx]` in the `Cargo.toml` of
/// `package_dir`; `None` when the package has no such table (or the
/// manifest is a virtual workspace manifest). SPX-F001 when the manifest
/// cannot be read, SPX-B002 when the table is malformed.
///
/// ```no_run
/// let sources = spx_build::package_sources(std::path::Path::new("examples/agent-host"))?;
/// assert!(sources.is_some());
/// # Ok::<(), spx_build::Error>(())
/// ```
pub fn package_sources(package_dir: &Path) -> Result<Option<Vec<Source>>, Error> {
    let (members, this) = metadata::workspace(&package_dir.join("Cargo.toml"))?;
    match this.and_then(|i| members.get(i)) {
        Some(p) if p.metadata.get("spx").is_some() => {
            Ok(Some(metadata::sources_from_value(&p.metadata)?))
        }
        _ => Ok(None),
    }
}

/// Derives `roots` of one `source` with every default (the one-line
/// convenience for the common case): same as
/// `Config::new().source(source).root(..)….compile()`.
///
/// ```no_run
/// // build.rs
/// fn main() -> Result<(), spx_build::Error> {
///     spx_build::compile("agents/planner.spx", &["planner.proposal"])?;
///     Ok(())
/// }
/// ```
pub fn compile(source: impl AsRef<Path>, roots: &[&str]) -> Result<Vec<Compiled>, Error> {
    let mut config = Config::new();
    config.source(source);
    for r in roots {
        config.root(*r);
    }
    config.compile()
}

/// True when running as a build script (cargo sets these for build
/// scripts only).
fn in_build_script() -> bool {
    ["OUT_DIR", "HOST", "TARGET"]
        .iter()
        .all(|v| std::env::var_os(v).is_some())
}

/// `text` as `cargo::error=` lines, one per line.
fn cargo_errors(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        out.push_str("cargo::error=");
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// A warning on one line, for a `cargo:warning`: `warning[CODE]: message`.
fn status_line(d: &Diagnostic) -> String {
    format!("warning[{}]: {}", d.code, d.message.replace('\n', " "))
}

fn manifest_dir() -> Result<PathBuf, Diagnostic> {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map(PathBuf::from)
        .ok_or_else(|| {
            Diagnostic::error(
                BUILD_CONFIG,
                "build.package_dir",
                "CARGO_MANIFEST_DIR is not set: call this from build.rs or set `.package_dir(..)`",
            )
        })
}
