//! `spx_build::Config::consumers_dir`: the build helper writes the same
//! TypeScript and Python modules as `spx gen` (one per source, all of its
//! roots), only when their bytes change, and in a run that may not write it
//! refuses a stale one; plus the golden files of the generated modules.

use spx_build::{Config, PinPolicy};
use std::path::{Path, PathBuf};

fn package(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("consumers_build")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("agents")).unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/spx/agent_desk.spx");
    std::fs::copy(fixture, dir.join("agents/agent-desk.spx")).unwrap();
    dir
}

fn config(dir: &Path, policy: PinPolicy) -> Config {
    let mut config = Config::new();
    config
        .source("agents/agent-desk.spx")
        .root("desk.reply")
        .root("desk.proposal")
        .package_dir(dir)
        .out_dir(dir.join("out"))
        .consumers_dir("ui/generated")
        .pin_policy(policy)
        .cargo_output(false);
    config
}

fn expected(dir: &Path) -> (String, String) {
    let path = dir.join("agents/agent-desk.spx");
    let schemas: Vec<_> = ["desk.reply", "desk.proposal"]
        .iter()
        .map(|r| spx_schema::binding::compile_file(&path, "agent-desk.spx", r).unwrap())
        .collect();
    (
        spx_gen::typescript::generate(&schemas).unwrap(),
        spx_gen::python::generate(&schemas).unwrap(),
    )
}

#[test]
fn the_build_helper_writes_the_modules_of_each_source() {
    let dir = package("writes");
    config(&dir, PinPolicy::Create).compile().unwrap();
    let (ts, py) = expected(&dir);
    let ts_path = dir.join("ui/generated/agent_desk.ts");
    let py_path = dir.join("ui/generated/agent_desk.py");
    assert_eq!(std::fs::read_to_string(&ts_path).unwrap(), ts);
    assert_eq!(std::fs::read_to_string(&py_path).unwrap(), py);
    // Unchanged bytes are not rewritten (a file made read-only stays).
    let mut perms = std::fs::metadata(&ts_path).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&ts_path, perms.clone()).unwrap();
    let before = std::fs::metadata(&ts_path).unwrap().modified().unwrap();
    config(&dir, PinPolicy::Create).compile().unwrap();
    assert_eq!(
        std::fs::metadata(&ts_path).unwrap().modified().unwrap(),
        before
    );
    #[allow(clippy::permissions_set_readonly_false)]
    perms.set_readonly(false);
    std::fs::set_permissions(&ts_path, perms).unwrap();
    // A stale module is refused where nothing may be written, and rewritten
    // otherwise.
    std::fs::write(&py_path, "stale\n").unwrap();
    let err = config(&dir, PinPolicy::Check).compile().unwrap_err();
    let d = &err.diagnostics()[0];
    assert_eq!((d.code.as_str(), d.rule), ("SPX-B003", "build.output"));
    assert_eq!(std::fs::read_to_string(&py_path).unwrap(), "stale\n");
    config(&dir, PinPolicy::Create).compile().unwrap();
    assert_eq!(std::fs::read_to_string(&py_path).unwrap(), py);
}

/// The generated TypeScript and Python of the help-desk fixture (two
/// roots) and of one root alone, up to the fixed runtime each ends with.
/// `SPX_BLESS=1` rewrites them; review the diff.
#[test]
fn golden_consumer_modules() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = dir.join("fixtures/spx/agent_desk.spx");
    let derive = |r: &str| spx_schema::binding::compile_file(&path, "agent_desk.spx", r).unwrap();
    let both = [derive("desk.reply"), derive("desk.proposal")];
    let one = [derive("desk.reply")];
    for (name, schemas) in [("agent_desk", &both[..]), ("desk_reply", &one[..])] {
        for (ext, text, runtime, file) in [
            (
                "ts",
                spx_gen::typescript::generate(schemas).unwrap(),
                spx_gen::typescript::RUNTIME,
                "codegen/src/typescript/runtime.ts",
            ),
            (
                "py",
                spx_gen::python::generate(schemas).unwrap(),
                spx_gen::python::RUNTIME,
                "codegen/src/python/runtime.py",
            ),
        ] {
            // The fixed runtime ends every module, the same bytes in each:
            // the golden file holds the rest, the per-schema part.
            let head = text
                .strip_suffix(runtime)
                .unwrap_or_else(|| panic!("the {ext} module of {name} ends with its runtime"));
            let text = format!("{head}<the fixed runtime: {file}>\n");
            let golden = dir.join("golden/consumers").join(format!("{name}.{ext}"));
            if std::env::var_os("SPX_BLESS").is_some() {
                std::fs::create_dir_all(golden.parent().unwrap()).unwrap();
                std::fs::write(&golden, &text).unwrap();
            }
            let want = std::fs::read_to_string(&golden).unwrap_or_default();
            assert!(
                want == text,
                "the generated {ext} of {name} differs from {}; rerun with SPX_BLESS=1 and review the diff",
                golden.display()
            );
        }
    }
}
