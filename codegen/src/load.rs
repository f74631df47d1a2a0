//! Stage 2: read the `.spx` (or the project a `semaprax.toml` lists) once,
//! derive every root, check every pin.

use super::emit::RootExtras;
use super::input::{MacroInput, RootArg};
use spx_schema::binding::SourceSet;
use spx_schema::diag::{Code, Diagnostic, Location, Renderer, Sources};
use spx_schema::lock::{self, MacroBuild, MacroPins, MacroSource};
use spx_schema::source::workspace::Workspace;
use spx_schema::Schema;
use std::path::{Path, PathBuf};
use syn::LitStr;

/// A display name cannot become a Rust identifier, or two collide
/// (rule `macro.name`).
pub const NAME: Code = Code("SPX-M001");
/// The `source` path is refused by the source-path rule (absolute, empty,
/// with `\\` or a control character, or naming a directory), or
/// `CARGO_MANIFEST_DIR` is unknown (rule `macro.source_path`).
pub const SOURCE_PATH: Code = Code("SPX-M002");
/// The engine cannot read back a document it rendered (rule
/// `macro.internal`); a bug, never the user's mistake.
pub const INTERNAL: Code = Code("SPX-M003");

/// What stage 2 produced.
pub struct Loaded {
    /// The module (or the project's modules), when it was read.
    pub workspace: Option<Workspace>,
    /// Every root's schema, when every root derived (even if a pin is
    /// wrong, so that the items can still be generated).
    pub roots: Option<Vec<(Schema, RootExtras)>>,
    /// The files read (a project's manifest and every module), absolute,
    /// for `include_bytes!`.
    pub dependencies: Vec<PathBuf>,
    /// Every error, on the argument it concerns.
    pub errors: Vec<syn::Error>,
    /// The texts the diagnostics point into (the source as read, and a
    /// malformed `spx.lock`), for [`render`].
    pub sources: Sources,
}

/// The text of a `compile_error!`: `d` rendered uncoloured with its source
/// line and carets ([`Renderer`]), the rule in the title. A diagnostic
/// without a location is placed at `path`, the source as the user wrote
/// it.
pub fn render(d: &Diagnostic, path: &str, sources: &Sources) -> String {
    let placed;
    let d = if d.location == Location::None {
        placed = d.clone().at(Location::File {
            path: path.to_owned(),
        });
        &placed
    } else {
        d
    };
    Renderer::plain().rule_in_title(true).render(d, sources)
}

/// What the argument check established: the source and where to read it.
struct Args<'a> {
    /// The `source` literal, for spans.
    lit: &'a LitStr,
    /// The path as the user wrote it: every message starts with it.
    display: String,
    /// The file to read.
    path: PathBuf,
    /// The pins the roots are checked against.
    pins: MacroPins,
    /// False when an argument is wrong: a mistake in the arguments may be
    /// a misplaced or malformed digest, so no root is also reported as
    /// unpinned or drifted.
    check_pins: bool,
}

impl Args<'_> {
    fn error(&self, text: String) -> syn::Error {
        syn::Error::new(self.lit.span(), text)
    }
}

/// Runs stage 2: check the arguments, read the source, derive each root,
/// check each pin, recheck the snapshot. What the call knows of the
/// package's build script is read from the environment
/// ([`MacroBuild::from_env`]).
pub fn load(input: &MacroInput, manifest_dir: Option<&Path>) -> Loaded {
    load_with(input, manifest_dir, MacroBuild::from_env())
}

/// [`load`] with what the call knows of the package's build script given
/// explicitly.
pub fn load_with(input: &MacroInput, manifest_dir: Option<&Path>, build: MacroBuild) -> Loaded {
    let mut out = Loaded {
        workspace: None,
        roots: None,
        dependencies: Vec::new(),
        errors: input.errors.clone(),
        sources: Sources::new(),
    };
    let Some(mut args) = check_arguments(input, manifest_dir, build, &mut out.errors) else {
        return out;
    };
    let Some(set) = read_source(&args, &mut out) else {
        return out;
    };
    let mut all_derived = true;
    let mut roots = Vec::with_capacity(input.roots.len());
    for r in &input.roots {
        let Some(schema) = derive_root(&args, &set, r, &out.sources, &mut out.errors) else {
            all_derived = false;
            continue;
        };
        check_pin(&mut args, r, &schema, &mut out);
        let extras = RootExtras::of(&schema);
        roots.push((schema, extras));
    }
    out.dependencies.extend(args.pins.lock_file());
    all_derived &= recheck_snapshot(&args, &set, &out.sources, &mut out.errors);
    if all_derived && !roots.is_empty() {
        out.roots = Some(roots);
    }
    out.workspace = Some(set.into_workspace());
    out
}

/// Phase 1: a `root` and a `source` are given, the source path passes the
/// source-path rule, and the manifest directory is known.
fn check_arguments<'a>(
    input: &'a MacroInput,
    manifest_dir: Option<&'a Path>,
    build: MacroBuild,
    errors: &mut Vec<syn::Error>,
) -> Option<Args<'a>> {
    if !input.saw_root {
        errors.push(syn::Error::new(
            input.span,
            "missing key `root`: the stable id of at least one root type",
        ));
    }
    let Some(lit) = &input.source else {
        if !input.saw_source {
            errors.push(syn::Error::new(
                input.span,
                "missing key `source`: the `.spx` file to read, relative to CARGO_MANIFEST_DIR",
            ));
        }
        return None;
    };
    let display = lit.value();
    let source = match MacroSource::of(&display) {
        Ok(s) => s,
        Err(e) => {
            errors.push(syn::Error::new(
                lit.span(),
                format!(
                    "{display}: error[{SOURCE_PATH}]: the source path {} (rule `macro.source_path`)",
                    e.reason("CARGO_MANIFEST_DIR")
                ),
            ));
            return None;
        }
    };
    let Some(dir) = manifest_dir else {
        errors.push(syn::Error::new(
            lit.span(),
            format!(
                "{display}: error[{SOURCE_PATH}]: CARGO_MANIFEST_DIR is not set, so `{display}` cannot be found (rule `macro.source_path`)"
            ),
        ));
        return None;
    };
    Some(Args {
        lit,
        path: dir.join(source.relative_path()),
        pins: MacroPins::new(dir, &display, source).with_build(build),
        display,
        check_pins: input.errors.is_empty(),
    })
}

/// Phase 2: one snapshot of the source (of a project's manifest and each
/// of its modules), read as modules; every text read is recorded for
/// rendering.
fn read_source(args: &Args<'_>, out: &mut Loaded) -> Option<SourceSet> {
    match SourceSet::read_recording(&args.path, &args.display, &mut out.sources) {
        Ok(set) => {
            out.dependencies.extend(set.files().map(Path::to_path_buf));
            Some(set)
        }
        Err(diags) => {
            // Depend on what exists, so a fix triggers a new expansion.
            if args.path.is_file() {
                out.dependencies.push(args.path.clone());
            }
            let unreadable = |d: &Diagnostic| d.code == spx_schema::binding::SOURCE_UNREADABLE;
            for d in diags.iter().filter(|d| d.is_error()) {
                let d = if unreadable(d)
                    && d.location
                        == (Location::File {
                            path: args.display.clone(),
                        }) {
                    d.clone()
                        .with_note("the path is relative to the calling crate's CARGO_MANIFEST_DIR")
                } else {
                    d.clone()
                };
                out.errors
                    .push(args.error(render(&d, &args.display, &out.sources)));
            }
            None
        }
    }
}

/// Phase 3: the schema of one root, read back by the engine (a failure to
/// read it back is an engine bug, reported but not fatal).
fn derive_root(
    args: &Args<'_>,
    set: &SourceSet,
    r: &RootArg,
    sources: &Sources,
    errors: &mut Vec<syn::Error>,
) -> Option<Schema> {
    let root = r.root.value();
    let schema = match set.derive(&root) {
        Ok(s) => s,
        Err(d) => {
            let d = d.with_note(format!(
                "while deriving root `{root}`, the `root:` argument of this call"
            ));
            errors.push(syn::Error::new(
                r.root.span(),
                render(&d, &args.display, sources),
            ));
            return None;
        }
    };
    if let Err(d) = Schema::parse_document(schema.document().as_bytes()) {
        errors.push(syn::Error::new(
            r.root.span(),
            format!(
                "{}: error[{INTERNAL}]: the engine cannot read back the schema of `{root}`: {d} (rule `macro.internal`)",
                args.display
            ),
        ));
    }
    Some(schema)
}

/// Phase 4: the root's pin, the `digest:` after it or its pin in
/// `spx.lock` (read on first need), checked by the engine.
fn check_pin(args: &mut Args<'_>, r: &RootArg, schema: &Schema, out: &mut Loaded) {
    let literal = r.digest.as_ref().map(LitStr::value);
    if literal.is_none() {
        if let Err(d) = args.pins.read_lock() {
            if let Some(text) = args.pins.lock_text() {
                out.sources.insert(lock::LOCK_FILE, text);
            }
            let d = args
                .pins
                .explain_lock_error(d, schema.root_type_id())
                .with_note("while looking up the pin of this root");
            out.errors.push(syn::Error::new(
                r.root.span(),
                render(&d, lock::LOCK_FILE, &out.sources),
            ));
        }
    }
    if !args.check_pins {
        return;
    }
    if let Err(d) = args.pins.check(schema, literal.as_deref()) {
        let span = r.digest.as_ref().map_or(r.root.span(), LitStr::span);
        out.errors.push(syn::Error::new(
            span,
            render(&d, &args.display, &out.sources),
        ));
    }
}

/// Phase 5: every file read still holds its snapshot's bytes (FORMAT.md
/// §5).
fn recheck_snapshot(
    args: &Args<'_>,
    set: &SourceSet,
    sources: &Sources,
    errors: &mut Vec<syn::Error>,
) -> bool {
    match set.recheck() {
        Ok(()) => true,
        Err(ds) => {
            for d in ds {
                errors.push(args.error(render(&d, &args.display, sources)));
            }
            false
        }
    }
}

/// Where the declaration, field or case with this stable id is named: the
/// module's path as displayed, and the position.
pub fn position_of<'w>(
    workspace: &'w Workspace,
    stable_id: &str,
) -> Option<(&'w str, spx_schema::source::Pos)> {
    workspace
        .position_of(stable_id)
        .map(|(m, p)| (m.path.as_str(), p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use spx_schema::lock::{Lock, Pin};

    const SPX: &str =
        "module t;\n\n@id(\"t.flag\")\nrecord Flag {\n    @id(\"t.flag.on\")\n    on: bool,\n}\n";

    /// A package `<tmp>/<name>/` with `agents/p.spx`, and `spx.lock`
    /// pinning `t.flag` of it (under `agents/p.spx`) to `digest`.
    struct Package(PathBuf);

    impl Package {
        fn new(name: &str, digest: Option<&str>) -> Package {
            let dir =
                std::env::temp_dir().join(format!("spx-gen-load-{}-{name}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(dir.join("agents")).unwrap();
            std::fs::write(dir.join("agents/p.spx"), SPX).unwrap();
            let schema = derived();
            let mut pin = Pin::of("agents/p.spx", &schema);
            if let Some(d) = digest {
                pin.digest = d.to_owned();
            }
            Lock { pins: vec![pin] }.write(&dir).unwrap();
            Package(dir)
        }

        fn load(&self, args: &str) -> (Loaded, Vec<String>) {
            let input: MacroInput = syn::parse_str(args).unwrap();
            let loaded = load_with(&input, Some(&self.0), MacroBuild::default());
            let errors = loaded.errors.iter().map(ToString::to_string).collect();
            (loaded, errors)
        }
    }

    impl Drop for Package {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn derived() -> Schema {
        let module = spx_schema::source::read_module("agents/p.spx", SPX).unwrap();
        Schema::derive(&module, "t.flag").unwrap()
    }

    #[test]
    fn every_spelling_of_the_source_finds_its_pin_in_spx_lock() {
        let pkg = Package::new("spellings", None);
        for source in [
            "agents/p.spx",
            "./agents/p.spx",
            "agents//p.spx",
            "agents/./p.spx",
            "x/../agents/p.spx",
        ] {
            let (loaded, errors) = pkg.load(&format!("source: \"{source}\", root: \"t.flag\""));
            assert_eq!(errors, Vec::<String>::new(), "{source}");
            assert!(loaded.roots.is_some(), "{source}");
            assert_eq!(
                loaded.dependencies,
                [pkg.0.join("agents/p.spx"), pkg.0.join("spx.lock")],
                "{source}"
            );
        }
    }

    #[test]
    fn a_pin_found_under_another_spelling_is_checked() {
        let other = format!("sha256:{}", "0".repeat(64));
        let pkg = Package::new("drift", Some(&other));
        let (loaded, errors) = pkg.load("source: \"./agents//p.spx\", root: \"t.flag\"");
        assert_eq!(errors.len(), 1);
        assert_eq!(
            errors[0],
            format!(
                "error[SPX-L003]: the schema of root `t.flag` no longer has its pinned digest (rule `lock.drift`)
--> ./agents//p.spx
 = note: schema drift for root \"t.flag\"
           pinned digest:  {other}
           derived digest: {digest}
           the pinned schema document is unavailable (spx.lock.d/ is missing it or it is unreadable), so no structural diff can be shown
 = help: re-pin with `spx pin` once the root is listed in `[package.metadata.spx]` of Cargo.toml (no build script of this package pins it), or pin it in the macro with `digest: \"{digest}\",` after the root",
                digest = derived().digest()
            )
        );
        // Only the pin is wrong: the items are still generated.
        assert!(loaded.roots.is_some());
    }

    #[test]
    fn refused_paths_name_the_rule() {
        let pkg = Package::new("refused", None);
        for (source, reason) in [
            ("/etc/p.spx", "must be relative to CARGO_MANIFEST_DIR"),
            (
                "\\\\agents\\\\p.spx",
                "must be relative to CARGO_MANIFEST_DIR",
            ),
            ("C:/agents/p.spx", "must be relative to CARGO_MANIFEST_DIR"),
            ("agents\\\\p.spx", "must use `/` as separator"),
            ("", "is empty"),
            (
                "agents/",
                "does not name a file (it ends with `/`, `.` or `..`)",
            ),
            (
                "agents/p.spx/..",
                "does not name a file (it ends with `/`, `.` or `..`)",
            ),
        ] {
            let (loaded, errors) = pkg.load(&format!(
                "source: \"{source}\", root: \"t.flag\", digest: \"{}\"",
                derived().digest()
            ));
            let shown = source.replace("\\\\", "\\");
            assert_eq!(
                errors,
                [format!(
                    "{shown}: error[SPX-M002]: the source path {reason} (rule `macro.source_path`)"
                )],
                "{source}"
            );
            assert!(loaded.dependencies.is_empty());
        }
    }

    #[test]
    fn a_source_outside_the_package_is_pinned_in_the_call_only() {
        let pkg = Package::new("outside", None);
        let name = pkg.0.file_name().unwrap().to_str().unwrap().to_owned();
        let source = format!("../{name}/agents/p.spx");
        let digest = derived().digest().to_owned();
        let (loaded, errors) = pkg.load(&format!(
            "source: \"{source}\", root: \"t.flag\", digest: \"{digest}\""
        ));
        assert_eq!(errors, Vec::<String>::new());
        assert_eq!(loaded.dependencies, [pkg.0.join(&source)]);
        // Without `digest:`, spx.lock cannot pin it (even though it holds a
        // pin of the same file under its package-relative path).
        let (_, errors) = pkg.load(&format!("source: \"{source}\", root: \"t.flag\""));
        assert_eq!(
            errors,
            [format!(
                "error[SPX-L004]: root `t.flag` has no pin (rule `lock.unpinned`)
--> {source}
 = note: derived digest: {digest}
 = help: pin it here with `digest: \"{digest}\",` after the root (spx.lock cannot pin `{source}`: it is outside the package)"
            )]
        );
    }

    #[test]
    fn the_macro_hints_run() {
        let pkg = Package::new("hints", None);
        let digest = derived().digest().to_owned();
        // A wrong literal digest: the help gives the one to write, and
        // writing it compiles.
        let wrong = format!("sha256:{}", "1".repeat(64));
        let (_, errors) = pkg.load(&format!(
            "source: \"agents/p.spx\", root: \"t.flag\", digest: \"{wrong}\""
        ));
        assert_eq!(errors.len(), 1);
        let help = format!(
            "= help: to accept the derived schema, pin it in the macro: digest: \"{digest}\""
        );
        assert!(errors[0].ends_with(&help), "{}", errors[0]);
        let (loaded, errors) = pkg.load(&format!(
            "source: \"agents/p.spx\", root: \"t.flag\", digest: \"{digest}\""
        ));
        assert_eq!(errors, Vec::<String>::new());
        assert!(loaded.roots.is_some());

        // Without a pin: what the build script pins decides the hint.
        std::fs::remove_file(pkg.0.join("spx.lock")).unwrap();
        let input: MacroInput =
            syn::parse_str("source: \"./agents/p.spx\", root: \"t.flag\"").unwrap();
        let text = |build: MacroBuild| {
            let loaded = load_with(&input, Some(&pkg.0), build);
            loaded
                .errors
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
        };
        let listed = MacroBuild {
            build: Some(lock::BuildRoots {
                from_metadata: true,
                update_env: true,
                roots: vec![("agents/p.spx".into(), "t.flag".into())],
            }),
            update_pins: false,
            ci: false,
        };
        let errors = text(listed.clone());
        assert!(
            errors[0].contains(&format!("= help: pin it here with `digest: \"{digest}\",` after the root, or pin it in spx.lock with `cargo build` or `spx pin`")),
            "{}",
            errors[0]
        );
        // The build script does not list the root, and SPX_UPDATE_PINS is
        // set: the note says why it does nothing.
        let unlisted = MacroBuild {
            build: Some(lock::BuildRoots {
                roots: vec![("agents/p.spx".into(), "t.other".into())],
                ..listed.build.clone().unwrap()
            }),
            update_pins: true,
            ci: false,
        };
        let errors = text(unlisted);
        assert!(errors[0].contains("= note: SPX_UPDATE_PINS is set, but the build script does not pin root \"t.flag\" of source \"agents/p.spx\""), "{}", errors[0]);
        assert!(errors[0].contains("and run `cargo build` or `spx pin` (no build script of this package pins this root)"), "{}", errors[0]);
        let errors = text(MacroBuild {
            update_pins: true,
            ..MacroBuild::default()
        });
        assert!(errors[0].contains("= note: SPX_UPDATE_PINS is set, but no build script of this package runs spx-build, so nothing re-pins root \"t.flag\""), "{}", errors[0]);
        assert!(
            !errors[0].contains("SPX_UPDATE_PINS=1 cargo build"),
            "{}",
            errors[0]
        );
    }

    #[test]
    fn a_project_source_depends_on_its_manifest_and_every_module() {
        let pkg = Package::new("project", None);
        std::fs::write(
            pkg.0.join("agents/semaprax.toml"),
            "schema = \"semaprax.project.v1\"\nname = \"t\"\nentry = \"t.app\"\nsources = [\"app.spx\", \"p.spx\"]\n",
        )
        .unwrap();
        std::fs::write(
            pkg.0.join("agents/app.spx"),
            "module t.app;\nuse type @id(\"t.flag\") from t as Flag;\n@id(\"t.holder\")\nrecord Holder {\n    @id(\"t.holder.flag\")\n    flag: Flag,\n}\n",
        )
        .unwrap();
        let single = spx_schema::source::read_module(
            "one.spx",
            "module one;\n@id(\"t.holder\")\nrecord Holder {\n    @id(\"t.holder.flag\")\n    flag: Flag,\n}\n@id(\"t.flag\")\nrecord Flag {\n    @id(\"t.flag.on\")\n    on: bool,\n}\n",
        )
        .unwrap();
        let digest = Schema::derive(&single, "t.holder")
            .unwrap()
            .digest()
            .to_owned();
        let (loaded, errors) = pkg.load(&format!(
            "source: \"agents/semaprax.toml\", root: \"t.holder\", digest: \"{digest}\""
        ));
        assert_eq!(errors, Vec::<String>::new());
        assert_eq!(
            loaded.dependencies,
            [
                pkg.0.join("agents/semaprax.toml"),
                pkg.0.join("agents/app.spx"),
                pkg.0.join("agents/p.spx"),
            ]
        );
        let roots = loaded.roots.unwrap();
        assert_eq!(roots[0].0.digest(), digest);
        // A module's error names the module's file.
        std::fs::write(
            pkg.0.join("agents/p.spx"),
            "module t;\nrecord R { x: Nope, }\n",
        )
        .unwrap();
        let (loaded, errors) = pkg.load(&format!(
            "source: \"agents/semaprax.toml\", root: \"t.holder\", digest: \"{digest}\""
        ));
        assert!(loaded.roots.is_none());
        assert_eq!(errors.len(), 1);
        assert!(errors[0].starts_with("error[SPX-S110]: "), "{}", errors[0]);
        assert!(
            errors[0].contains("--> agents/p.spx:2:15\n"),
            "{}",
            errors[0]
        );
    }
}
