//! A broken `spx.lock` can always be recovered from, in process: the build
//! helper with the Update policy (`SPX_UPDATE_PINS=1`) and `spx pin`
//! (`spx_build::pin`) re-create a malformed lock, merge-conflict markers
//! included, and the hints of a configuration that sets its own pin policy
//! name what works for it. (`cli/tests/hints.rs` runs the same with real
//! `cargo build` and `spx` processes.)

use spx_build::pin;
use spx_build::{Config, PinPolicy, Source};
use spx_schema::diag::Location;
use spx_schema::lock::{Lock, LOCK_MALFORMED, LOCK_UNPINNED};
use std::path::{Path, PathBuf};

const MODULE: &str =
    "module fx;\n@id(\"fx.point\")\nrecord Point {\n    @id(\"fx.point.x\")\n    x: i64,\n}\n";

struct Package(PathBuf);

impl Drop for Package {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl Package {
    fn new(name: &str) -> Package {
        let dir = std::env::temp_dir().join(format!("spx-recovery-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("agents")).unwrap();
        std::fs::write(dir.join("agents/fx.spx"), MODULE).unwrap();
        Package(dir)
    }
    fn path(&self) -> &Path {
        &self.0
    }
    fn config(&self, policy: PinPolicy) -> Config {
        let mut c = Config::new();
        c.source("agents/fx.spx")
            .root("fx.point")
            .package_dir(self.path())
            .out_dir(self.path().join("out"))
            .cargo_output(false)
            .pin_policy(policy);
        c
    }
    fn lock(&self) -> String {
        std::fs::read_to_string(self.path().join("spx.lock")).unwrap()
    }
    fn write_lock(&self, text: &str) {
        std::fs::write(self.path().join("spx.lock"), text).unwrap();
    }
}

fn sources() -> Vec<Source> {
    vec![Source {
        path: "agents/fx.spx".into(),
        roots: vec!["fx.point".into()],
    }]
}

fn conflicted(lock: &str) -> String {
    let lines: Vec<&str> = lock.lines().collect();
    format!(
        "{}\n<<<<<<< HEAD\n{}\n=======\n{}\n>>>>>>> theirs\n{}\n",
        lines[0],
        lines[1],
        lines[1].replace("sha256:", "sha256:0"),
        lines[2]
    )
}

#[test]
fn conflict_markers_are_named_as_such() {
    let d = Lock::parse(b"{\"spx_lock\":1,\"pins\":[\n<<<<<<< HEAD\n]}\n").unwrap_err();
    assert_eq!((d.code, d.rule), (LOCK_MALFORMED, "lock.syntax"));
    assert_eq!(d.message, "spx.lock holds git merge-conflict markers");
    assert_eq!(
        d.location,
        Location::Source {
            path: "spx.lock".into(),
            line: 2,
            column: 1,
            span: None
        }
    );
    for marker in ["=======", ">>>>>>> b", "||||||| base"] {
        let text = format!("{{\"spx_lock\":1,\"pins\":[\n{marker}\n]}}\n");
        let d = Lock::parse(text.as_bytes()).unwrap_err();
        assert_eq!(
            d.message, "spx.lock holds git merge-conflict markers",
            "{marker}"
        );
    }
}

#[test]
fn the_update_policy_recreates_a_conflicted_lock() {
    let pkg = Package::new("update");
    pkg.config(PinPolicy::Create).compile().unwrap();
    let clean = pkg.lock();
    let broken = conflicted(&clean);
    pkg.write_lock(&broken);

    // Create refuses it, leaves it, and says what re-creates it: this
    // configuration sets its policy itself and has no metadata.
    let err = pkg.config(PinPolicy::Create).compile().unwrap_err();
    let d = &err.diagnostics()[0];
    assert_eq!((d.code, d.rule), (LOCK_MALFORMED, "lock.syntax"));
    assert_eq!(
        d.help.as_deref(),
        Some("re-create it by running this configuration once with `.pin_policy(PinPolicy::Update)` (it sets its pin policy itself, so `SPX_UPDATE_PINS` does not apply); the pins are derived again from the sources, so the conflict needs no resolving by hand")
    );
    // The lock text is kept for rendering: the marker line is shown.
    let shown = err.render(false);
    assert!(shown.contains("2 | <<<<<<< HEAD"), "{shown}");
    assert_eq!(pkg.lock(), broken);

    // The hint, run.
    let compiled = pkg.config(PinPolicy::Update).compile().unwrap();
    assert_eq!(compiled[0].pin, pin::PinChange::Created);
    assert_eq!(pkg.lock(), clean);
    pkg.config(PinPolicy::Check).compile().unwrap();
}

#[test]
fn spx_pin_recreates_a_malformed_lock_and_check_refuses_it() {
    let pkg = Package::new("pin");
    pin::run_sources(pkg.path(), &sources(), false).unwrap();
    let clean = pkg.lock();
    for broken in [conflicted(&clean), "garbage\n".to_owned(), String::new()] {
        pkg.write_lock(&broken);
        let err = pin::run_sources(pkg.path(), &sources(), true).unwrap_err();
        assert_eq!(err.diagnostics()[0].code, LOCK_MALFORMED);
        assert_eq!(pkg.lock(), broken, "--check writes nothing");
        let report = pin::run_sources(pkg.path(), &sources(), false).unwrap();
        assert_eq!(report.warnings.len(), 1);
        let w = &report.warnings[0];
        assert_eq!((w.code, w.rule), (LOCK_MALFORMED, "lock.recreated"));
        assert!(
            w.message.starts_with("spx.lock was malformed (")
                && w.message
                    .ends_with("); it was re-created from the configured roots"),
            "{}",
            w.message
        );
        assert!(report.wrote);
        assert_eq!(pkg.lock(), clean);
        assert!(pin::run_sources(pkg.path(), &sources(), true).is_ok());
    }
}

#[test]
fn an_explicit_check_policy_names_what_pins() {
    let pkg = Package::new("check");
    let err = pkg.config(PinPolicy::Check).compile().unwrap_err();
    let d = &err.diagnostics()[0];
    assert_eq!((d.code, d.rule), (LOCK_UNPINNED, "lock.unpinned"));
    assert_eq!(
        d.help.as_deref(),
        Some("pin it by running this configuration once with `.pin_policy(PinPolicy::Update)` (it sets its pin policy itself, so `SPX_UPDATE_PINS` does not apply)")
    );
    pkg.config(PinPolicy::Update).compile().unwrap();
    pkg.config(PinPolicy::Check).compile().unwrap();
}

#[test]
fn a_root_that_does_not_derive_says_where_it_was_configured() {
    let pkg = Package::new("origin");
    let mut c = pkg.config(PinPolicy::Create);
    c.root("fx.pont");
    let err = c.compile().unwrap_err();
    let d = &err.diagnostics()[0];
    assert_eq!(d.rule, "type.unresolved");
    assert_eq!(
        d.notes,
        ["while deriving root \"fx.pont\" of source \"agents/fx.spx\", given to the build configuration (`Config::root`)"]
    );
    assert_eq!(
        d.help.as_deref(),
        Some("did you mean \"fx.point\"?\nthe roots of module `fx` that derive, closest first: \"fx.point\"")
    );
    assert_eq!(
        d.location,
        Location::File {
            path: "agents/fx.spx".into()
        }
    );
    // From metadata, the note names the Cargo.toml key.
    std::fs::create_dir_all(pkg.path().join("src")).unwrap();
    std::fs::write(pkg.path().join("src/lib.rs"), "").unwrap();
    std::fs::write(
        pkg.path().join("Cargo.toml"),
        "[package]\nname = \"fx\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n[package.metadata.spx]\nsources = [{ path = \"agents/fx.spx\", roots = [\"fx.pont\"] }]\n\n[workspace]\n",
    )
    .unwrap();
    let err = pin::run(pkg.path(), false).unwrap_err();
    assert_eq!(
        err.diagnostics()[0].notes,
        ["while deriving root \"fx.pont\", listed in `roots` of source #1 (\"agents/fx.spx\") in `[package.metadata.spx]` of Cargo.toml"]
    );
    let shown = err.render(false);
    assert!(shown.starts_with("error[SPX-Z202]: AgentInteractionSchema invariant failed: type.unresolved\n--> agents/fx.spx\n"), "{shown}");
}
