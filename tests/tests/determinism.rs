//! Determinism: the same derivation, run in separate processes (this test
//! binary re-spawned in a child mode, so each run has its own hash seeds,
//! allocator state and address layout), from different working
//! directories and through different paths to the same file — relative,
//! absolute, with `./` and `..` segments, through a symlink — prints
//! identical bytes: the schema document, its revision and digest, every
//! provider projection, and an example value document.

use spx_schema::binding::compile_file;
use spx_schema::project::{self, Dialect};
use spx_schema::{encode, Schema};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The child mode: set to `<path>\t<root>`, the `child` test prints the
/// artifacts of that derivation between markers and nothing else matters.
const CHILD_ENV: &str = "SPX_DETERMINISM_CHILD";
const BEGIN: &str = "<<<spx-determinism-begin>>>";
const END: &str = "<<<spx-determinism-end>>>";

/// Every artifact of one derivation, as one string.
fn artifacts(schema: &Schema) -> String {
    let mut out = String::new();
    out.push_str(schema.document());
    out.push_str(schema.revision());
    out.push('\n');
    out.push_str(schema.digest());
    out.push('\n');
    out.push_str(&project::draft2020(schema));
    for dialect in Dialect::JSON_SCHEMA {
        match project::project(schema, dialect) {
            Ok(p) => {
                out.push_str(&p.document);
                out.push_str(&p.losses_json());
                out.push_str(p.schema_name.as_deref().unwrap_or("-"));
            }
            Err(e) => out.push_str(&e.to_json_line()),
        }
        out.push('\n');
    }
    let doc = encode::encode(schema, &encode::example(schema)).unwrap();
    out.push_str(&doc);
    out
}

/// The child side: derive and print.
#[test]
fn child() {
    let Ok(spec) = std::env::var(CHILD_ENV) else {
        return;
    };
    let (path, root) = spec.split_once('\t').expect("path<TAB>root");
    let text = match compile_file(Path::new(path), "determinism.spx", root) {
        Ok(schema) => artifacts(&schema),
        Err(errs) => errs
            .iter()
            .map(|e| e.to_json_line() + "\n")
            .collect::<String>(),
    };
    println!("{BEGIN}{text}{END}");
}

/// Runs the child mode in `cwd` with `path` and returns what it printed.
fn run_child(cwd: &Path, path: &Path, root: &str) -> String {
    let exe = std::env::current_exe().unwrap();
    let out = Command::new(exe)
        .args(["child", "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD_ENV, format!("{}\t{root}", path.display()))
        .current_dir(cwd)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let start = stdout.find(BEGIN).expect("child printed nothing") + BEGIN.len();
    let end = stdout.rfind(END).unwrap();
    stdout[start..end].to_owned()
}

struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// (fixture file, root) pairs: records, variants, shared nodes, every
/// scalar, escaped and non-ASCII ids.
const CASES: &[(&str, &str)] = &[
    ("fuzz/fuzz.spx", "fz.root.é"),
    ("fuzz/fuzz.spx", "fz.event"),
    ("macro/planner.spx", "planner.proposal"),
    ("spx/diamond.spx", "dia.top"),
    ("spx/scalars.spx", "sc.record"),
];

#[test]
fn two_processes_many_paths_one_output() {
    let base = std::env::temp_dir().join(format!("spx-determinism-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let scratch = Scratch(base.clone());
    let work = base.join("work");
    let other = base.join("elsewhere/deeper");
    std::fs::create_dir_all(work.join("sub")).unwrap();
    std::fs::create_dir_all(&other).unwrap();

    for (file, root) in CASES {
        let name = Path::new(file).file_name().unwrap();
        let real = work.join(name);
        std::fs::copy(fixtures().join(file), &real).unwrap();
        let link = base.join("link.spx");
        let _ = std::fs::remove_file(&link);
        #[cfg(unix)]
        std::os::unix::fs::symlink(&real, &link).unwrap();

        // In process, from the fixture itself.
        let reference = artifacts(&compile_file(&fixtures().join(file), "x.spx", root).unwrap());

        let mut runs: Vec<(String, PathBuf, PathBuf)> = vec![
            ("absolute".into(), base.clone(), real.clone()),
            ("relative".into(), work.clone(), PathBuf::from(name)),
            (
                "dot segments".into(),
                work.join("sub"),
                Path::new("./../sub/.././").join(name),
            ),
            (
                "absolute with dot segments".into(),
                other.clone(),
                work.join("sub/../.").join(name),
            ),
            (
                "relative from elsewhere".into(),
                other.clone(),
                Path::new("../../work").join(name),
            ),
        ];
        if cfg!(unix) {
            runs.push(("symlink".into(), other.clone(), link.clone()));
            runs.push(("relative symlink".into(), base.clone(), "link.spx".into()));
        }
        for (what, cwd, path) in &runs {
            let out = run_child(cwd, path, root);
            assert!(
                out == reference,
                "{file} {root}: {what} ({}) in {} differs\n--- in process\n{reference}\n--- child\n{out}",
                path.display(),
                cwd.display()
            );
        }
        // The same twice more from the same place: no state carried over.
        assert_eq!(run_child(&base, &real, root), run_child(&base, &real, root));
    }
    drop(scratch);
    assert!(!base.exists());
}

/// The child mode reports refusals too, and those are deterministic and
/// name the file only as the display name given (never the path).
#[test]
fn refusals_are_deterministic_and_path_free() {
    let base = std::env::temp_dir().join(format!("spx-determinism-refusal-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    std::fs::create_dir_all(&base).unwrap();
    let _scratch = Scratch(base.clone());
    let path = base.join("bad.spx");
    std::fs::write(
        &path,
        "module m;\n@id(\"r\")\nrecord R {\n    @id(\"r.x\")\n    x: f64,\n}\n",
    )
    .unwrap();
    let a = run_child(&base, Path::new("bad.spx"), "r");
    let b = run_child(Path::new("/"), &path, "r");
    assert_eq!(a, b);
    assert!(a.contains("\"code\":\"SPX-Z202\""), "{a}");
    assert!(a.contains("type.field.unsupported"), "{a}");
    assert!(!a.contains(base.to_str().unwrap()), "{a}");
}
