//! trybuild UI tests of `spx_interaction!` (tests/ui/*.rs must fail to
//! compile with the `.stderr` beside them; tests/ui/pass/*.rs must build
//! and run). Regenerate with `TRYBUILD=overwrite` and review the diff.
//!
//! Under trybuild, `CARGO_MANIFEST_DIR` is trybuild's scratch crate
//! `<target dir>/tests/trybuild/spx-tests/`, not `tests/`. So this test
//! first copies `tests/fixtures/macro/` there, which lets every UI file say
//! `source: "fixtures/macro/x.spx"`, and writes the `spx.lock` (with its
//! `spx.lock.d/`) that the lock-pin cases read.

use spx_schema::lock::{self, Lock, Pin};
use std::path::{Path, PathBuf};

/// The target directory trybuild builds in: `CARGO_TARGET_DIR` when set,
/// else the directory above this test binary that holds cargo's
/// `CACHEDIR.TAG`.
fn target_dir(manifest: &Path) -> PathBuf {
    if let Some(dir) = std::env::var_os("CARGO_TARGET_DIR") {
        let dir = PathBuf::from(dir);
        return if dir.is_absolute() {
            dir
        } else {
            manifest.parent().unwrap_or(manifest).join(dir)
        };
    }
    let exe = std::env::current_exe().expect("test binary path");
    exe.ancestors()
        .find(|d| d.join("CACHEDIR.TAG").is_file())
        .map(Path::to_path_buf)
        .unwrap_or_else(|| manifest.parent().unwrap_or(manifest).join("target"))
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let dst = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &dst);
        } else {
            let bytes = std::fs::read(entry.path()).unwrap();
            if std::fs::read(&dst).ok().as_deref() != Some(&bytes[..]) {
                std::fs::write(&dst, bytes).unwrap();
            }
        }
    }
}

fn derive(fixtures: &Path, file: &str, root: &str) -> spx_schema::Schema {
    spx_schema::binding::compile_file(&fixtures.join(file), file, root).expect("fixture derives")
}

#[test]
fn ui() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let project = target_dir(manifest).join("tests/trybuild/spx-tests");
    let fixtures = manifest.join("fixtures/macro");
    copy_dir(&fixtures, &project.join("fixtures/macro"));

    // spx.lock: locked.flag pinned right; drift.plan (now derived from
    // drift_new.spx) pinned to the digest of drift_old.spx, whose document
    // is the pinned one in spx.lock.d/.
    let locked = derive(&fixtures, "locked.spx", "locked.flag");
    let old = derive(&fixtures, "drift_old.spx", "drift.plan");
    let lock = Lock {
        pins: vec![
            Pin::of("fixtures/macro/locked.spx", &locked),
            Pin::of("fixtures/macro/drift_new.spx", &old),
        ],
    };
    lock.write(&project).expect("write spx.lock");
    lock::write_pinned_schema(&project, &old).expect("write pinned document");
    lock::write_pinned_schema(&project, &locked).expect("write pinned document");

    // The macro's hints depend on what it knows of the package's build
    // script and on `CI`/`SPX_UPDATE_PINS` (docs/MACRO.md); the expected
    // `.stderr` files are those of a plain local build without a build
    // script, whatever the outer environment (a CI runner sets `CI`).
    for var in ["CI", "SPX_UPDATE_PINS", spx_schema::lock::BUILD_ROOTS_VAR] {
        std::env::remove_var(var);
    }
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/*.rs");
    t.pass("ui/pass/*.rs");
}
