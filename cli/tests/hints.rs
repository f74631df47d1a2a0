//! Every hint is a command that works where it is given: each test makes a
//! real package fail, checks the `help:` it gets, then runs exactly the
//! commands the help names (`cargo build` with or without
//! `SPX_UPDATE_PINS=1`, `spx pin`, a `digest:` in the macro) and shows that
//! they fix it. A conflicted `spx.lock` is recovered by each of its two
//! suggested ways.
//!
//! The packages are copies of `tests/fixtures/host` under
//! `CARGO_TARGET_TMPDIR`, built offline with one shared nested target
//! directory (`spx-hints-target`), so the dependencies compile once.
//! `CI` and `SPX_UPDATE_PINS` are always set explicitly, so the outer
//! environment (a CI runner sets `CI`) never changes what a case tests.
//! The package harness is shared with `tests/tests/e2e_build.rs`
//! (`spx_tests::host`).

use spx_tests::host::{workspace, Package};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn shared_target() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("spx-hints-target")
}

const SPX: &str = "agents/fx.spx";

/// What the package is made of.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// The fixture: a build script from `[package.metadata.spx]`.
    BuildScript,
    /// No build script and no metadata: a macro call without `digest:`.
    MacroOnly,
    /// The fixture's build script and metadata (root `fx.shape`), plus a
    /// macro call for root `fx.point`, which the metadata does not list.
    BuildScriptAndMacro,
}

struct Host(Package);

impl std::ops::Deref for Host {
    type Target = Package;
    fn deref(&self) -> &Package {
        &self.0
    }
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

impl Host {
    fn new(case: &str, kind: Kind) -> Host {
        let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("spx-hint-hosts");
        let files: &[&str] = match kind {
            Kind::BuildScript => &["build.rs", "src/main.rs"],
            Kind::MacroOnly => &[],
            Kind::BuildScriptAndMacro => &["build.rs"],
        };
        let host = Host(Package::new(&root, "spx-hint", case, files));
        let ws = workspace();
        let runtime = format!(
            "\n[dependencies]\nspx-runtime = {{ path = {:?} }}\n",
            ws.join("runtime").to_str().unwrap()
        );
        let manifest = host.dir.join("Cargo.toml");
        match kind {
            Kind::BuildScript => {}
            Kind::MacroOnly => std::fs::write(
                &manifest,
                format!(
                    "[package]\nname = \"{}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n{runtime}\n[workspace]\n",
                    host.name
                ),
            )
            .unwrap(),
            Kind::BuildScriptAndMacro => {
                let mut text = std::fs::read_to_string(&manifest).unwrap();
                text.push_str(&runtime);
                std::fs::write(&manifest, text).unwrap();
            }
        }
        if kind != Kind::BuildScript {
            let root = if kind == Kind::MacroOnly {
                "fx.shape"
            } else {
                "fx.point"
            };
            host.write(
                "src/main.rs",
                &format!(
                    "mod fx {{\n    spx_runtime::spx_interaction! {{\n        source: \"agents/fx.spx\",\n        root: \"{root}\",\n    }}\n}}\n\nfn main() {{}}\n"
                ),
            );
        }
        host
    }

    fn cargo(&self, env: &[(&str, &str)]) -> Output {
        self.cargo_build(&shared_target(), env)
    }

    fn build_ok(&self, env: &[(&str, &str)]) -> String {
        let o = self.cargo(env);
        assert!(o.status.success(), "build failed:\n{}", text(&o));
        text(&o)
    }

    fn build_err(&self, env: &[(&str, &str)]) -> String {
        let o = self.cargo(env);
        assert!(!o.status.success(), "build succeeded:\n{}", text(&o));
        text(&o)
    }

    /// `spx` run in `folder` of the package.
    fn spx_in(&self, folder: &str, args: &[&str]) -> Output {
        let dir = self.dir.join(folder);
        std::fs::create_dir_all(&dir).unwrap();
        Command::new(env!("CARGO_BIN_EXE_spx"))
            .args(args)
            .current_dir(dir)
            .env_remove("CI")
            .output()
            .expect("spx runs")
    }

    fn spx(&self, args: &[&str]) -> Output {
        self.spx_in(".", args)
    }

    fn spx_ok(&self, args: &[&str]) -> String {
        let o = self.spx(args);
        assert_eq!(o.status.code(), Some(0), "spx {args:?}:\n{}", text(&o));
        text(&o)
    }

    fn spx_err(&self, args: &[&str]) -> String {
        let o = self.spx(args);
        assert_eq!(o.status.code(), Some(1), "spx {args:?}:\n{}", text(&o));
        text(&o)
    }

    fn lock(&self) -> Option<String> {
        std::fs::read_to_string(self.dir.join("spx.lock")).ok()
    }

    fn write(&self, file: &str, contents: &str) {
        std::fs::write(self.dir.join(file), contents).unwrap();
    }

    fn edit(&self, f: impl FnOnce(&str) -> String) {
        let path = self.dir.join(SPX);
        let old = std::fs::read_to_string(&path).unwrap();
        let new = f(&old);
        assert_ne!(new, old);
        std::fs::write(&path, new).unwrap();
    }
}

/// A structural change of `fx.shape` (and of `fx.point`).
fn retype(text: &str) -> String {
    text.replace("    x: i64,", "    x: i32,")
}

fn undo_retype(text: &str) -> String {
    text.replace("    x: i32,", "    x: i64,")
}

/// `lock` as a git merge would leave it when two branches re-pinned the
/// same root differently.
fn conflicted(lock: &str) -> String {
    let lines: Vec<&str> = lock.lines().collect();
    let pin = lines[1];
    let theirs = pin.replace(
        &pin[pin.rfind("sha256:").unwrap()..pin.len() - 2],
        &format!("sha256:{}", "0".repeat(64)),
    );
    format!(
        "{}\n<<<<<<< HEAD\n{pin}\n=======\n{theirs}\n>>>>>>> other-branch\n{}\n",
        lines[0],
        lines[lines.len() - 1]
    )
}

#[test]
fn a_conflicted_lock_is_recovered_by_both_suggested_commands() {
    let host = Host::new("conflict", Kind::BuildScript);
    host.build_ok(&[]);
    let clean = host.lock().unwrap();
    let broken = conflicted(&clean);

    host.write("spx.lock", &broken);
    let err = host.build_err(&[]);
    assert!(
        err.contains("error[SPX-L001]: spx.lock holds git merge-conflict markers"),
        "{err}"
    );
    assert!(err.contains("--> spx.lock:2:1"), "{err}");
    assert!(
        err.contains("2 | <<<<<<< HEAD"),
        "the marker line is shown:\n{err}"
    );
    assert!(
        err.contains("= help: re-create it with `SPX_UPDATE_PINS=1 cargo build` or `spx pin`; the pins are derived again from the sources, so the conflict needs no resolving by hand"),
        "{err}"
    );
    // `spx pin --check` refuses it with the same hint, writing nothing.
    let check = host.spx_err(&["pin", "--check"]);
    assert!(check.contains("error[SPX-L001]"), "{check}");
    assert!(
        check.contains("re-create it with `SPX_UPDATE_PINS=1 cargo build` or `spx pin`"),
        "{check}"
    );
    assert_eq!(host.lock().unwrap(), broken);

    // Way 1: SPX_UPDATE_PINS=1 cargo build.
    let out = host.build_ok(&[("SPX_UPDATE_PINS", "1")]);
    assert!(
        out.contains("spx: warning[SPX-L001]: spx.lock was malformed (spx.lock holds git merge-conflict markers at spx.lock:2:1); it was re-created from the configured roots"),
        "{out}"
    );
    assert_eq!(host.lock().unwrap(), clean);
    host.build_ok(&[]);

    // Way 2: spx pin.
    host.write("spx.lock", &broken);
    host.build_err(&[]);
    let out = host.spx_ok(&["pin"]);
    assert!(
        out.contains("warning[SPX-L001]: spx.lock was malformed (spx.lock holds git merge-conflict markers at spx.lock:2:1); it was re-created from the configured roots"),
        "{out}"
    );
    assert!(
        out.contains("\"agents/fx.spx\" \"fx.shape\" sha256:"),
        "{out}"
    );
    assert_eq!(host.lock().unwrap(), clean);
    host.spx_ok(&["pin", "--check"]);
    host.build_ok(&[]);
}

#[test]
fn drift_hints_name_both_commands_and_both_work() {
    let host = Host::new("drift", Kind::BuildScript);
    host.build_ok(&[]);
    let old = host.lock().unwrap();
    host.edit(retype);
    let err = host.build_err(&[]);
    assert!(
        err.contains("= help: re-pin with `SPX_UPDATE_PINS=1 cargo build` or `spx pin`"),
        "{err}"
    );
    let check = host.spx_err(&["pin", "--check"]);
    assert!(
        check.contains("= help: re-pin with `SPX_UPDATE_PINS=1 cargo build` or `spx pin`"),
        "{check}"
    );
    // The first command.
    host.build_ok(&[("SPX_UPDATE_PINS", "1")]);
    assert_ne!(host.lock().unwrap(), old);
    host.spx_ok(&["pin", "--check"]);
    // The second, from a subfolder of the package (as cargo finds it).
    host.edit(undo_retype);
    host.build_err(&[]);
    let out = host.spx_in("agents", &["pin"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(host.lock().unwrap(), old);
    host.build_ok(&[]);
}

#[test]
fn unpinned_under_ci_says_where_to_pin_and_both_ways_pin() {
    let host = Host::new("ci", Kind::BuildScript);
    let err = host.build_err(&[("CI", "true")]);
    assert!(
        err.contains("= help: pin it with `cargo build` or `spx pin` where `CI` is not set, and commit spx.lock and spx.lock.d/"),
        "{err}"
    );
    assert!(host.lock().is_none());
    // `cargo build` where CI is not set.
    host.build_ok(&[("CI", "false")]);
    let pinned = host.lock().unwrap();
    host.build_ok(&[("CI", "true")]);
    // `spx pin`.
    std::fs::remove_file(host.dir.join("spx.lock")).unwrap();
    host.build_err(&[("CI", "true")]);
    host.spx_ok(&["pin"]);
    assert_eq!(host.lock().unwrap(), pinned);
    host.build_ok(&[("CI", "true")]);
}

#[test]
fn spx_pin_check_hints_run() {
    let host = Host::new("check", Kind::BuildScript);
    // No lock: `spx pin` (or `cargo build`).
    let err = host.spx_err(&["pin", "--check"]);
    assert!(
        err.contains("= help: pin it with `cargo build` or `spx pin`"),
        "{err}"
    );
    host.build_ok(&[]);
    host.spx_ok(&["pin", "--check"]);
    // A missing pinned document: `spx pin`.
    std::fs::remove_file(host.dir.join("spx.lock.d/fx.shape.schema.json")).unwrap();
    let err = host.spx_err(&["pin", "--check"]);
    assert!(err.contains("error[SPX-L005]"), "{err}");
    assert!(
        err.contains("= help: run `spx pin` to write it, and commit spx.lock.d/"),
        "{err}"
    );
    host.spx_ok(&["pin"]);
    host.spx_ok(&["pin", "--check"]);
    // A stale pin: `spx pin`.
    let lock = host.lock().unwrap();
    let lines: Vec<&str> = lock.lines().collect();
    let stale = format!(
        "{}\n{},\n{{\"source\":\"agents/zz.spx\",\"root\":\"old.root\",\"root_type_revision\":\"sha256:{zero}\",\"digest\":\"sha256:{zero}\"}}\n{}\n",
        lines[0],
        lines[1],
        lines[2],
        zero = "0".repeat(64)
    );
    host.write("spx.lock", &stale);
    let err = host.spx_err(&["pin", "--check"]);
    assert!(err.contains("error[SPX-L004]"), "{err}");
    assert!(
        err.contains("= help: run `spx pin` to remove stale pins"),
        "{err}"
    );
    let out = host.spx_ok(&["pin"]);
    assert!(
        out.contains("\"agents/zz.spx\" \"old.root\" sha256:0000000000000000000000000000000000000000000000000000000000000000 removed"),
        "{out}"
    );
    assert_eq!(host.lock().unwrap(), lock);
}

#[test]
fn macro_without_build_script_hints_run() {
    let host = Host::new("macro-only", Kind::MacroOnly);
    let err = host.build_err(&[]);
    assert!(
        err.contains("error[SPX-L004]: root `fx.shape` has no pin"),
        "{err}"
    );
    let digest = {
        let at = err.find("derived digest: ").unwrap() + "derived digest: ".len();
        err[at..at + 71].to_owned()
    };
    assert!(
        err.contains(&format!(
            "= help: pin it here with `digest: \"{digest}\",` after the root; or pin it in spx.lock: list it in `[package.metadata.spx]` of Cargo.toml (`sources = [{{ path = \"agents/fx.spx\", roots = [\"fx.shape\"] }}]`) and run `spx pin` (no build script of this package pins this root)"
        )),
        "{err}"
    );
    assert!(!err.contains("SPX_UPDATE_PINS=1 cargo build"), "{err}");
    // SPX_UPDATE_PINS cannot help here, and the macro says so.
    let err = host.build_err(&[("SPX_UPDATE_PINS", "1")]);
    assert!(
        err.contains("= note: SPX_UPDATE_PINS is set, but no build script of this package runs spx-build, so nothing re-pins root \"fx.shape\""),
        "{err}"
    );

    // Way 1: the digest in the call.
    let main = std::fs::read_to_string(host.dir.join("src/main.rs")).unwrap();
    host.write(
        "src/main.rs",
        &main.replace(
            "root: \"fx.shape\",",
            &format!("root: \"fx.shape\",\n        digest: \"{digest}\","),
        ),
    );
    host.build_ok(&[]);

    // Way 2: the metadata, then `spx pin`.
    host.write("src/main.rs", &main);
    let manifest = std::fs::read_to_string(host.dir.join("Cargo.toml")).unwrap();
    host.write(
        "Cargo.toml",
        &manifest.replace(
            "\n[workspace]",
            "\n[package.metadata.spx]\nsources = [{ path = \"agents/fx.spx\", roots = [\"fx.shape\"] }]\n\n[workspace]",
        ),
    );
    host.build_err(&[]);
    host.spx_ok(&["pin"]);
    host.build_ok(&[]);

    // Drift against that pin: the help names `spx pin` (the macro cannot
    // know the metadata, but only `spx pin` wrote this lock) and the
    // digest, not `SPX_UPDATE_PINS=1 cargo build`.
    host.edit(retype);
    let err = host.build_err(&[]);
    assert!(err.contains("error[SPX-L003]"), "{err}");
    assert!(err.contains("= help: re-pin with `spx pin` once the root is listed in `[package.metadata.spx]` of Cargo.toml (no build script of this package pins it), or pin it in the macro with `digest: \""), "{err}");
    assert!(!err.contains("SPX_UPDATE_PINS=1 cargo build"), "{err}");
    host.spx_ok(&["pin"]);
    host.build_ok(&[]);
}

#[test]
fn macro_root_missing_from_the_metadata_hints_run() {
    let host = Host::new("macro-unlisted", Kind::BuildScriptAndMacro);
    let err = host.build_err(&[("SPX_UPDATE_PINS", "1")]);
    assert!(
        err.contains("error[SPX-L004]: root `fx.point` has no pin"),
        "{err}"
    );
    assert!(
        err.contains("= note: SPX_UPDATE_PINS is set, but the build script does not pin root \"fx.point\" of source \"agents/fx.spx\" (it is not among the roots it is configured with), so nothing re-pins it"),
        "{err}"
    );
    assert!(
        err.contains("list it in `[package.metadata.spx]` of Cargo.toml (`sources = [{ path = \"agents/fx.spx\", roots = [\"fx.point\"] }]`) and run `cargo build` or `spx pin` (no build script of this package pins this root)"),
        "{err}"
    );
    // Listing it, then each command the hint names pins it.
    let manifest = std::fs::read_to_string(host.dir.join("Cargo.toml")).unwrap();
    host.write(
        "Cargo.toml",
        &manifest.replace(
            "roots = [\"fx.shape\"]",
            "roots = [\"fx.shape\", \"fx.point\"]",
        ),
    );
    host.spx_ok(&["pin"]);
    host.build_ok(&[]);
    std::fs::remove_file(host.dir.join("spx.lock")).unwrap();
    host.build_ok(&[]);
    // Drift of a root the build script pins: both commands are named, and
    // `SPX_UPDATE_PINS=1 cargo build` re-pins it for the macro too.
    host.edit(retype);
    let err = host.build_err(&[]);
    assert!(
        err.contains("= help: re-pin with `SPX_UPDATE_PINS=1 cargo build` or `spx pin`"),
        "{err}"
    );
    host.build_ok(&[("SPX_UPDATE_PINS", "1")]);
    host.build_ok(&[]);
}

#[test]
fn pin_works_from_any_folder_and_for_a_workspace() {
    let host = Host::new("workspace", Kind::BuildScript);
    // From a subfolder: the nearest Cargo.toml, as cargo finds it.
    let o = host.spx_in("agents/deeper", &["pin"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let pinned = host.lock().unwrap();
    // --manifest-path from anywhere.
    std::fs::remove_file(host.dir.join("spx.lock")).unwrap();
    let manifest = host.dir.join("Cargo.toml");
    let o = Command::new(env!("CARGO_BIN_EXE_spx"))
        .args(["pin", "--manifest-path", manifest.to_str().unwrap()])
        .current_dir(std::env::temp_dir())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(host.lock().unwrap(), pinned);
    // --workspace (the package is its own workspace).
    std::fs::remove_file(host.dir.join("spx.lock")).unwrap();
    let out = host.spx_ok(&["pin", "--workspace"]);
    assert!(
        out.starts_with(&format!(
            "\"{}\" \"agents/fx.spx\" \"fx.shape\" sha256:",
            host.name
        )),
        "{out}"
    );
    assert_eq!(host.lock().unwrap(), pinned);
    let out = host.spx_ok(&["pin", "--workspace", "--check"]);
    assert!(out.ends_with("pins are current\n"), "{out}");
}
