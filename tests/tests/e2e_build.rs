//! End-to-end: real `cargo build --offline` runs of a fixture host crate
//! (tests/fixtures/host) whose build script uses spx-build with
//! `[package.metadata.spx]`.
//!
//! Each case copies the fixture into its own package directory (under
//! `CARGO_TARGET_TMPDIR`, removed afterwards) with a unique package name,
//! and all cases share one nested `CARGO_TARGET_DIR`
//! (`CARGO_TARGET_TMPDIR/spx-e2e-target`): the outer `cargo test` holds the
//! lock on `target/debug`, and sharing keeps the dependencies (serde_json,
//! sha2, cargo_metadata, spx-schema, spx-build) compiled once for every
//! case and every later run. `CI` and `SPX_UPDATE_PINS` are always set
//! explicitly, so the outer environment (a CI runner sets `CI`) never
//! changes what a case tests.
//!
//! One case adds `spx-runtime` and replaces the fixture's main with
//! `tests/fixtures/host/macro/main.rs`, a macro host that spells its source
//! differently from the metadata.
//!
//! `spx pin --check` is checked through the library function the CLI calls,
//! `spx_build::pin::run(dir, true)`: the `spx` binary lives in another
//! package, so this test crate cannot run it without building it again.

use spx_schema::lock::{self, Lock, LOCK_DRIFT};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use spx_tests::host::{fixture, workspace, Package};

fn shared_target() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("spx-e2e-target")
}

struct Host(Package);

impl std::ops::Deref for Host {
    type Target = Package;
    fn deref(&self) -> &Package {
        &self.0
    }
}

const SPX: &str = "agents/fx.spx";

impl Host {
    fn new(case: &str) -> Host {
        Host(Package::new(
            &Path::new(env!("CARGO_TARGET_TMPDIR")).join("spx-e2e-hosts"),
            "spx-fixture",
            case,
            &["build.rs", "src/main.rs"],
        ))
    }

    fn build(&self, env: &[(&str, &str)]) -> Output {
        self.cargo_build(&shared_target(), env)
    }

    fn build_ok(&self, env: &[(&str, &str)]) -> String {
        let out = self.build(env);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "build failed:\n{stderr}");
        stderr
    }

    fn build_err(&self, env: &[(&str, &str)]) -> String {
        let out = self.build(env);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(!out.status.success(), "build succeeded:\n{stderr}");
        stderr
    }

    fn run_binary(&self) -> String {
        let out = Command::new(shared_target().join("debug").join(&self.name))
            .output()
            .expect("the fixture binary runs");
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    }

    fn edit(&self, f: impl FnOnce(&str) -> String) {
        let path = self.dir.join(SPX);
        let text = std::fs::read_to_string(&path).unwrap();
        let new = f(&text);
        assert_ne!(new, text, "the edit must change the source");
        std::fs::write(&path, new).unwrap();
    }

    fn derive(&self) -> spx_schema::Schema {
        spx_schema::binding::compile_file(&self.dir.join(SPX), SPX, "fx.shape").unwrap()
    }

    fn lock_bytes(&self) -> Option<Vec<u8>> {
        std::fs::read(self.dir.join("spx.lock")).ok()
    }

    fn pinned_bytes(&self) -> Option<Vec<u8>> {
        std::fs::read(lock::pinned_schema_path(&self.dir, "fx.shape")).ok()
    }
}

/// Retypes `fx.point.x` (i64 → usize), adds `fx.point.z`, adds a case.
fn structural(text: &str) -> String {
    text.replace("    x: i64,", "    x: usize,")
        .replace(
            "    y: i64,\n}",
            "    y: i64,\n    @id(\"fx.point.z\")\n    z: bool,\n}",
        )
        .replace(
            "    Dot,\n",
            "    Dot,\n    @id(\"fx.kind.square\")\n    Square,\n",
        )
}

/// Display renames only: every `@id` stays.
fn rename_only(text: &str) -> String {
    text.replace("Point", "Position")
        .replace("    x: i64,", "    east: i64,")
        .replace("Circle", "Ring")
}

const DRIFT_LINES: [&str; 3] = [
    "~ field \"fx.point.x\": i64 -> u64 (in record \"fx.point\")",
    "+ field \"fx.point.z\": bool (in record \"fx.point\")",
    "+ case \"fx.kind.square\" (in variant \"fx.kind\")",
];

#[test]
fn clean_build_pins_and_a_rebuild_changes_nothing() {
    let host = Host::new("clean");
    let stderr = host.build_ok(&[]);
    let schema = host.derive();
    assert!(
        stderr.contains(&format!(
            "spx: pinned \"fx.shape\" in spx.lock ({}); commit spx.lock and spx.lock.d/",
            schema.digest()
        )),
        "{stderr}"
    );
    let lock = Lock::read(&host.dir)
        .unwrap()
        .expect("spx.lock was created");
    assert_eq!(lock.pins, vec![lock::Pin::of(SPX, &schema)]);
    assert_eq!(host.pinned_bytes().unwrap(), schema.document().as_bytes());
    // The binary embeds the document the build script wrote to OUT_DIR.
    assert_eq!(host.run_binary(), schema.document());
    assert!(spx_build::pin::run(&host.dir, true).is_ok());

    let lock_before = host.lock_bytes().unwrap();
    let stderr = host.build_ok(&[]);
    assert!(!stderr.contains("spx: pinned"), "{stderr}");
    assert_eq!(host.lock_bytes().unwrap(), lock_before);
}

#[test]
fn structural_edit_fails_with_the_drift_explanation() {
    let host = Host::new("drift");
    host.build_ok(&[]);
    let pinned = host.derive();
    let lock_before = host.lock_bytes().unwrap();
    let doc_before = host.pinned_bytes().unwrap();

    host.edit(structural);
    let derived = host.derive();
    let stderr = host.build_err(&[]);
    // Each line of the rendered diagnostic is a `cargo::error`, which cargo
    // prints first, as `error: <package>@<version>: <line>`.
    let e = format!("error: {}@0.0.0: ", host.name);
    assert!(
        stderr.contains(&format!(
            "\n{e}error[SPX-L003]: the schema of root \"fx.shape\" derived from \"agents/fx.spx\" no longer matches its pin in spx.lock\n{e}--> agents/fx.spx\n"
        )),
        "{stderr}"
    );
    assert!(stderr.contains(&format!("  pinned digest:  {}", pinned.digest())));
    assert!(stderr.contains(&format!("  derived digest: {}", derived.digest())));
    for line in DRIFT_LINES {
        assert!(
            stderr.contains(&format!("{e}             {line}\n")),
            "missing {line:?} in:\n{stderr}"
        );
    }
    // The errors come before cargo's dump of the build script's output.
    let first_error = stderr.find(&e).unwrap();
    assert!(first_error < stderr.find("--- stdout").unwrap(), "{stderr}");
    assert!(stderr.contains("re-pin with `SPX_UPDATE_PINS=1 cargo build` or `spx pin`"));
    // The failed build left the pins exactly as they were.
    assert_eq!(host.lock_bytes().unwrap(), lock_before);
    assert_eq!(host.pinned_bytes().unwrap(), doc_before);

    // `spx pin --check` (its library function) fails on the drift too, and
    // writes nothing.
    let err = spx_build::pin::run(&host.dir, true).unwrap_err();
    assert!(err.has_code(LOCK_DRIFT));
    assert!(err.to_string().contains(DRIFT_LINES[0]));
    assert_eq!(host.lock_bytes().unwrap(), lock_before);

    // Still failing on the next build (cargo reruns the script: nothing
    // was cached as a success).
    host.build_err(&[]);
}

#[test]
fn rename_only_edit_builds_without_touching_the_lock() {
    let host = Host::new("rename");
    host.build_ok(&[]);
    let lock_before = host.lock_bytes().unwrap();
    host.edit(rename_only);
    let stderr = host.build_ok(&[]);
    assert!(!stderr.contains("SPX-L003"), "{stderr}");
    assert_eq!(host.lock_bytes().unwrap(), lock_before);
}

#[test]
fn update_pins_repins_and_builds() {
    let host = Host::new("update");
    host.build_ok(&[]);
    let old = host.derive();
    host.edit(structural);
    let new = host.derive();
    let stderr = host.build_ok(&[("SPX_UPDATE_PINS", "1")]);
    assert!(
        stderr.contains(&format!(
            "spx: re-pinned \"fx.shape\" in spx.lock ({} -> {})",
            old.digest(),
            new.digest()
        )),
        "{stderr}"
    );
    let lock = Lock::read(&host.dir).unwrap().unwrap();
    assert_eq!(lock.pins, vec![lock::Pin::of(SPX, &new)]);
    assert_eq!(host.pinned_bytes().unwrap(), new.document().as_bytes());
    // Without the variable the re-pinned tree builds and checks clean.
    host.build_ok(&[]);
    assert_eq!(host.run_binary(), new.document());
    assert!(spx_build::pin::run(&host.dir, true).is_ok());
}

#[test]
fn ci_never_writes() {
    let host = Host::new("ci");
    let stderr = host.build_err(&[("CI", "true")]);
    assert!(
        stderr.contains("error[SPX-L004]: root \"fx.shape\" of source \"agents/fx.spx\" is not pinned: spx.lock is missing"),
        "{stderr}"
    );
    assert!(stderr.contains("nothing is written because CI is set"));
    assert!(host.lock_bytes().is_none());
    assert!(!host.dir.join("spx.lock.d").exists());

    // Pinned locally, drifted, then built in CI with SPX_UPDATE_PINS: CI
    // wins, the build fails and the pins stay.
    host.build_ok(&[]);
    let lock_before = host.lock_bytes().unwrap();
    host.edit(structural);
    let stderr = host.build_err(&[("CI", "true"), ("SPX_UPDATE_PINS", "1")]);
    assert!(stderr.contains("error[SPX-L003]"), "{stderr}");
    assert!(stderr.contains("SPX_UPDATE_PINS is ignored because CI is set"));
    assert_eq!(host.lock_bytes().unwrap(), lock_before);
    // `CI=false` is not CI.
    host.build_ok(&[("CI", "false"), ("SPX_UPDATE_PINS", "1")]);
    assert_ne!(host.lock_bytes().unwrap(), lock_before);
}

/// A macro host: `[package.metadata.spx]` says `agents/fx.spx`, the macro
/// (without `digest:`) says `./agents/fx.spx` and `agents//fx.spx`. The
/// build script pins the root, the macro finds that one pin under both
/// spellings, and the binary encodes and decodes a value with both.
#[test]
fn macro_finds_the_pin_under_another_spelling_of_its_source() {
    let host = Host::new("macro");
    let manifest = host.dir.join("Cargo.toml");
    let mut text = std::fs::read_to_string(&manifest).unwrap();
    text.push_str(&format!(
        "\n[dependencies]\nspx-runtime = {{ path = {:?} }}\n",
        workspace()
            .join("runtime")
            .to_str()
            .expect("UTF-8 workspace path")
    ));
    std::fs::write(&manifest, text).unwrap();
    std::fs::copy(
        fixture().join("macro/main.rs"),
        host.dir.join("src/main.rs"),
    )
    .unwrap();
    let stderr = host.build_ok(&[]);
    assert!(!stderr.contains("SPX-L004"), "{stderr}");
    let schema = host.derive();
    let lock = Lock::read(&host.dir).unwrap().unwrap();
    assert_eq!(lock.pins, vec![lock::Pin::of(SPX, &schema)]);
    let doc = host.run_binary();
    let decoded = spx_schema::decode::decode(&schema, doc.as_bytes()).unwrap();
    assert_eq!(decoded.canonical, doc);
    // In CI (nothing may be written) the pins are found the same way.
    host.build_ok(&[("CI", "true")]);
}

/// A project as the metadata's source: `agents/semaprax.toml` lists
/// `shape.spx` (the root, importing its types) and `geo.spx` (the types
/// of `fx.spx`). The pins and the binary's document are those of the
/// one-module `fx.spx`; an edit of `geo.spx`, which the metadata does not
/// name, makes cargo rerun the build script (`rerun-if-changed` for every
/// module), which fails with the drift.
#[test]
fn a_project_source_rebuilds_when_a_module_changes() {
    let host = Host::new("project");
    let fx = std::fs::read_to_string(host.dir.join(SPX)).unwrap();
    let (types, shape) = fx.split_at(fx.find("@id(\"fx.shape\")").unwrap());
    let geo = types.replace("module fixture.host;", "module fixture.geo;");
    let shape = format!(
        "module fixture.shape;\nuse type @id(\"fx.point\") from fixture.geo as Point;\nuse type @id(\"fx.kind\") from fixture.geo as Kind;\n\n{shape}"
    );
    std::fs::write(host.dir.join("agents/geo.spx"), &geo).unwrap();
    std::fs::write(host.dir.join("agents/shape.spx"), shape).unwrap();
    std::fs::write(
        host.dir.join("agents/semaprax.toml"),
        "schema = \"semaprax.project.v1\"\nname = \"fx\"\nentry = \"fixture.shape\"\nsources = [\"shape.spx\", \"geo.spx\"]\n",
    )
    .unwrap();
    let cargo = std::fs::read_to_string(host.dir.join("Cargo.toml")).unwrap();
    std::fs::write(
        host.dir.join("Cargo.toml"),
        cargo.replace(
            "path = \"agents/fx.spx\"",
            "path = \"agents/semaprax.toml\"",
        ),
    )
    .unwrap();
    std::fs::remove_file(host.dir.join(SPX)).unwrap();

    let single = spx_schema::Schema::derive(
        &spx_schema::source::read_module("fx.spx", &fx).unwrap(),
        "fx.shape",
    )
    .unwrap();
    host.build_ok(&[]);
    let lock = Lock::read(&host.dir)
        .unwrap()
        .expect("spx.lock was created");
    assert_eq!(
        lock.pins,
        vec![lock::Pin::of("agents/semaprax.toml", &single)]
    );
    assert_eq!(host.run_binary(), single.document());
    // A second build settles what the first one wrote (spx.lock is one of
    // the build script's inputs).
    host.build_ok(&[]);

    // The second module changes structurally: the build script reruns.
    std::fs::write(
        host.dir.join("agents/geo.spx"),
        geo.replace("    x: i64,", "    x: usize,"),
    )
    .unwrap();
    let stderr = host.build_err(&[]);
    assert!(
        stderr.contains("error: spx-fixture-project@0.0.0: error[SPX-L003]: the schema of root \"fx.shape\" derived from \"agents/semaprax.toml\" no longer matches its pin in spx.lock\n"),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("cargo::error=             {}\n", DRIFT_LINES[0])),
        "{stderr}"
    );
}
