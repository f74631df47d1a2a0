//! `spx.lock` (render/parse, refusals, atomic writes), the structural diff
//! and drift message, and the pinning policies of spx-build run in-process
//! on temporary packages (the real `cargo build` runs are in e2e_build.rs).

use spx_build::pin::{self, PinChange};
use spx_build::{Config, PinPolicy, Source};
use spx_schema::diag::Location;
use spx_schema::diff::{diff_graphs, drift_message, Change, Owner, TypeRef};
use spx_schema::lock::{
    self, is_sha256, pin_file_stem, read_pinned_schema, write_atomic, Lock, Pin, LOCK_DRIFT,
    LOCK_MALFORMED, LOCK_PINNED_DOCUMENT, LOCK_UNPINNED,
};
use spx_schema::Schema;
use std::path::{Path, PathBuf};

// ------------------------------------------------------------ helpers --

struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let p = std::env::temp_dir().join(format!("spx-lock-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const HEX_A: &str = "sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
const HEX_B: &str = "sha256:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";

fn pin(source: &str, root: &str) -> Pin {
    Pin {
        source: source.into(),
        root: root.into(),
        root_type_revision: HEX_A.into(),
        digest: HEX_B.into(),
    }
}

fn pin_line(source: &str, root: &str) -> String {
    format!(
        "{{\"source\":\"{source}\",\"root\":\"{root}\",\"root_type_revision\":\"{HEX_A}\",\"digest\":\"{HEX_B}\"}}"
    )
}

const MODULE_V1: &str = "module fx;

@id(\"fx.kind\")
variant Kind {
    @id(\"fx.kind.dot\")
    Dot,
    @id(\"fx.kind.circle\")
    Circle {
        @id(\"fx.kind.circle.r\")
        r: u8,
    },
}

@id(\"fx.point\")
record Point {
    @id(\"fx.point.x\")
    x: i64,
    @id(\"fx.point.y\")
    y: i64,
}

@id(\"fx.shape\")
record Shape {
    @id(\"fx.shape.at\")
    at: Point,
    @id(\"fx.shape.kind\")
    kind: Kind,
    @id(\"fx.shape.label\")
    label: string,
}
";

fn schema_of(text: &str, root: &str) -> Schema {
    let module = spx_schema::source::read_module("fx.spx", text).unwrap();
    Schema::derive(&module, root).unwrap()
}

/// A structural edit: x retyped, z added, y removed, a case added, Circle
/// dropped, label retyped to a nested type.
fn module_v2() -> String {
    MODULE_V1
        .replace("    x: i64,\n    @id(\"fx.point.y\")\n    y: i64,", "    x: usize,\n    @id(\"fx.point.z\")\n    z: bool,")
        .replace(
            "    @id(\"fx.kind.circle\")\n    Circle {\n        @id(\"fx.kind.circle.r\")\n        r: u8,\n    },\n",
            "    @id(\"fx.kind.square\")\n    Square,\n",
        )
}

fn rename_only() -> String {
    MODULE_V1
        .replace("Point", "Position")
        .replace("x: i64", "east: i64")
        .replace("Circle", "Ring")
        .replace("record Shape", "record Figure")
}

// ------------------------------------------------- render and parse --

#[test]
fn render_is_sorted_one_pin_per_line_with_final_lf() {
    let lock = Lock {
        pins: vec![
            pin("b/x.spx", "r.a"),
            pin("a.spx", "r.z"),
            pin("a.spx", "r.b"),
        ],
    };
    let text = lock.render();
    assert_eq!(
        text,
        format!(
            "{{\"spx_lock\":1,\"pins\":[\n{},\n{},\n{}\n]}}\n",
            pin_line("a.spx", "r.b"),
            pin_line("a.spx", "r.z"),
            pin_line("b/x.spx", "r.a")
        )
    );
    let back = Lock::parse(text.as_bytes()).unwrap();
    assert_eq!(back.render(), text);
    assert_eq!(back.pins.len(), 3);
    assert_eq!(back.find("a.spx", "r.z").unwrap().digest, HEX_B);
    assert!(back.find("a.spx", "r.a").is_none());
}

#[test]
fn render_quotes_ids_canonically() {
    let lock = Lock {
        pins: vec![pin("agents/ü.spx", "weird \"id\"\u{7f}")],
    };
    let text = lock.render();
    assert!(
        text.contains("\"root\":\"weird \\\"id\\\"\\u007f\""),
        "{text}"
    );
    assert_eq!(Lock::parse(text.as_bytes()).unwrap(), lock);
}

#[test]
fn empty_lock_round_trips() {
    let text = Lock::default().render();
    assert_eq!(text, "{\"spx_lock\":1,\"pins\":[\n]}\n");
    assert_eq!(Lock::parse(text.as_bytes()).unwrap(), Lock::default());
}

fn refusal(text: &str) -> (&'static str, u32, u32, String) {
    let d = Lock::parse(text.as_bytes()).unwrap_err();
    assert_eq!(d.code, LOCK_MALFORMED, "{d}");
    assert!(d.is_error());
    match d.location {
        Location::Source {
            path,
            line,
            column,
            span: None,
        } => {
            assert_eq!(path, "spx.lock");
            (d.rule, line, column, d.message)
        }
        other => panic!("no source location: {other:?}"),
    }
}

#[test]
fn malformed_locks_are_refused_with_rule_and_position() {
    let good_a = pin_line("a.spx", "r.a");
    let good_b = pin_line("a.spx", "r.b");
    let cases: Vec<(String, &str, u32, u32)> = vec![
        // not ending with LF
        (
            format!("{{\"spx_lock\":1,\"pins\":[\n{good_a}\n]}}"),
            "lock.syntax",
            3,
            3,
        ),
        // CRLF
        (
            format!("{{\"spx_lock\":1,\"pins\":[\r\n{good_a}\n]}}\n"),
            "lock.syntax",
            1,
            23,
        ),
        // wrong header
        ("{\"pins\":[\n]}\n".to_owned(), "lock.syntax", 1, 3),
        // unsupported version
        (
            "{\"spx_lock\":2,\"pins\":[\n]}\n".to_owned(),
            "lock.version",
            1,
            1,
        ),
        // no footer
        (
            format!("{{\"spx_lock\":1,\"pins\":[\n{good_a}\n"),
            "lock.syntax",
            2,
            1,
        ),
        // missing comma between pins
        (
            format!("{{\"spx_lock\":1,\"pins\":[\n{good_a}\n{good_b}\n]}}\n"),
            "lock.syntax",
            2,
            210,
        ),
        // trailing comma on the last pin
        (
            format!("{{\"spx_lock\":1,\"pins\":[\n{good_a},\n]}}\n"),
            "lock.syntax",
            2,
            210,
        ),
        // not JSON
        (
            "{\"spx_lock\":1,\"pins\":[\n{\"source\":\n]}\n".to_owned(),
            "lock.syntax",
            2,
            10,
        ),
        // wrong keys
        (
            "{\"spx_lock\":1,\"pins\":[\n{\"source\":\"a.spx\"}\n]}\n".to_owned(),
            "lock.pin",
            2,
            1,
        ),
        // whitespace inside a pin
        (
            format!(
                "{{\"spx_lock\":1,\"pins\":[\n{}\n]}}\n",
                good_a.replace(",\"root\"", ", \"root\"")
            ),
            "lock.syntax",
            2,
            19,
        ),
        // unsorted
        (
            format!("{{\"spx_lock\":1,\"pins\":[\n{good_b},\n{good_a}\n]}}\n"),
            "lock.order",
            3,
            1,
        ),
        // duplicate
        (
            format!("{{\"spx_lock\":1,\"pins\":[\n{good_a},\n{good_a}\n]}}\n"),
            "lock.duplicate",
            3,
            1,
        ),
        // bad digest
        (
            format!(
                "{{\"spx_lock\":1,\"pins\":[\n{}\n]}}\n",
                good_a.replace(HEX_B, "sha256:BB")
            ),
            "lock.digest",
            2,
            136,
        ),
        // absolute source path
        (
            format!(
                "{{\"spx_lock\":1,\"pins\":[\n{}\n]}}\n",
                pin_line("/etc/a.spx", "r.a")
            ),
            "lock.source",
            2,
            11,
        ),
        // `..` in a source path
        (
            format!(
                "{{\"spx_lock\":1,\"pins\":[\n{}\n]}}\n",
                pin_line("../a.spx", "r.a")
            ),
            "lock.source",
            2,
            11,
        ),
        // empty root
        (
            format!(
                "{{\"spx_lock\":1,\"pins\":[\n{}\n]}}\n",
                pin_line("a.spx", "")
            ),
            "lock.root",
            2,
            26,
        ),
    ];
    for (text, rule, line, col) in cases {
        let (got_rule, got_line, got_col, message) = refusal(&text);
        assert_eq!(
            (got_rule, got_line, got_col),
            (rule, line, col),
            "{text:?}: {message}"
        );
    }
}

#[test]
fn same_root_with_two_digests_is_refused() {
    let mut other = pin("b.spx", "r.a");
    other.digest = HEX_A.into();
    let text = format!(
        "{{\"spx_lock\":1,\"pins\":[\n{},\n{}\n]}}\n",
        pin_line("a.spx", "r.a"),
        {
            let mut s = String::new();
            // rendered through Lock to stay canonical
            let l = Lock { pins: vec![other] };
            s.push_str(l.render().lines().nth(1).unwrap());
            s
        }
    );
    let (rule, line, col, message) = refusal(&text);
    assert_eq!((rule, line, col), ("lock.root_conflict", 3, 1), "{message}");
}

#[test]
fn non_utf8_lock_is_refused() {
    let (rule, line, col, _) = refusal("{\"spx_lock\":1,\"pins\":[\n\u{0}]}\n");
    assert_eq!(rule, "lock.syntax");
    assert_eq!((line, col), (2, 1));
    let d = Lock::parse(b"{\"spx_lock\":1,\"pins\":[\n\xff]}\n").unwrap_err();
    assert_eq!(d.rule, "lock.utf8");
    assert_eq!(
        d.location,
        Location::Source {
            path: "spx.lock".into(),
            line: 2,
            column: 1,
            span: None,
        }
    );
    assert!(d
        .to_string()
        .starts_with("error[SPX-L001]: spx.lock is not UTF-8\n  --> spx.lock:2:1"));
}

#[test]
fn read_absent_lock_is_none_and_present_lock_parses() {
    let dir = TempDir::new("read");
    assert_eq!(Lock::read(dir.path()).unwrap(), None);
    let lock = Lock {
        pins: vec![pin("a.spx", "r.a")],
    };
    assert!(lock.write(dir.path()).unwrap());
    assert_eq!(Lock::read(dir.path()).unwrap(), Some(lock));
    std::fs::write(dir.path().join("spx.lock"), "<<<<<<< HEAD\n").unwrap();
    let d = Lock::read(dir.path()).unwrap_err();
    assert_eq!((d.code, d.rule), (LOCK_MALFORMED, "lock.syntax"));
}

#[test]
fn helpers() {
    assert!(is_sha256(HEX_A));
    assert!(!is_sha256("sha256:AA"));
    assert!(!is_sha256(&HEX_A.replace("sha256:", "sha512:")));
    assert_eq!(pin_file_stem("planner.proposal"), "planner.proposal");
    assert_eq!(pin_file_stem("Planner.X"), "%50lanner.%58");
    assert_eq!(pin_file_stem("a/b c%"), "a%2Fb%20c%25");
    assert_eq!(pin_file_stem(".."), "%2E.");
    assert_eq!(pin_file_stem("é"), "%C3%A9");
    assert_eq!(
        lock::pinned_schema_relative("planner.proposal"),
        "spx.lock.d/planner.proposal.schema.json"
    );
}

// ------------------------------------------------------ atomic writes --

#[test]
fn atomic_write_writes_only_changed_bytes_and_leaves_no_temp_files() {
    let dir = TempDir::new("atomic");
    let path = dir.path().join("out.json");
    assert!(write_atomic(&path, b"one\n").unwrap());
    assert_eq!(std::fs::read(&path).unwrap(), b"one\n");
    let before = std::fs::metadata(&path).unwrap().modified().unwrap();
    assert!(!write_atomic(&path, b"one\n").unwrap());
    assert_eq!(
        std::fs::metadata(&path).unwrap().modified().unwrap(),
        before
    );
    assert!(write_atomic(&path, b"two\n").unwrap());
    assert_eq!(std::fs::read(&path).unwrap(), b"two\n");
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["out.json"]);
}

#[test]
fn atomic_write_failure_leaves_the_old_file() {
    let dir = TempDir::new("atomic-fail");
    let path = dir.path().join("missing-dir").join("out.json");
    assert!(write_atomic(&path, b"x").is_err());
    assert!(!path.exists());
    // A directory in the way of the rename: the old entry stays, no temp left.
    let blocked = dir.path().join("blocked");
    std::fs::create_dir_all(blocked.join("inner")).unwrap();
    assert!(write_atomic(&blocked, b"x").is_err());
    assert!(blocked.join("inner").is_dir());
    let leftovers = std::fs::read_dir(dir.path())
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .contains(".tmp.")
        })
        .count();
    assert_eq!(leftovers, 0);
}

#[test]
fn pinned_schema_round_trip() {
    let dir = TempDir::new("pinned");
    let s = schema_of(MODULE_V1, "fx.shape");
    assert_eq!(read_pinned_schema(dir.path(), "fx.shape"), None);
    assert!(lock::write_pinned_schema(dir.path(), &s).unwrap());
    assert!(!lock::write_pinned_schema(dir.path(), &s).unwrap());
    let back = read_pinned_schema(dir.path(), "fx.shape").unwrap();
    assert_eq!(back.digest(), s.digest());
    assert_eq!(back.document(), s.document());
    // A document of another root under this root's name is not its pin.
    let other = schema_of(MODULE_V1, "fx.point");
    std::fs::write(
        lock::pinned_schema_path(dir.path(), "fx.shape"),
        other.document(),
    )
    .unwrap();
    assert_eq!(read_pinned_schema(dir.path(), "fx.shape"), None);
    std::fs::write(lock::pinned_schema_path(dir.path(), "fx.shape"), "{}\n").unwrap();
    assert_eq!(read_pinned_schema(dir.path(), "fx.shape"), None);
}

// ------------------------------------------------------------- diffs --

#[test]
fn diff_names_every_change_by_stable_id() {
    let old = schema_of(MODULE_V1, "fx.shape");
    let new = schema_of(&module_v2(), "fx.shape");
    let changes = diff_graphs(old.graph(), new.graph());
    let point = || Owner::Record("fx.point".into());
    assert_eq!(
        changes,
        vec![
            Change::FieldRetyped {
                owner: point(),
                id: "fx.point.x".into(),
                from: TypeRef::Scalar("i64"),
                to: TypeRef::Scalar("u64")
            },
            Change::FieldRemoved {
                owner: point(),
                id: "fx.point.y".into(),
                ty: TypeRef::Scalar("i64")
            },
            Change::FieldAdded {
                owner: point(),
                id: "fx.point.z".into(),
                ty: TypeRef::Scalar("bool")
            },
            Change::CaseRemoved {
                variant: "fx.kind".into(),
                id: "fx.kind.circle".into()
            },
            Change::CaseAdded {
                variant: "fx.kind".into(),
                id: "fx.kind.square".into()
            },
        ]
    );
    let lines: Vec<String> = changes.iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        [
            "~ field \"fx.point.x\": i64 -> u64 (in record \"fx.point\")",
            "- field \"fx.point.y\": i64 (in record \"fx.point\")",
            "+ field \"fx.point.z\": bool (in record \"fx.point\")",
            "- case \"fx.kind.circle\" (in variant \"fx.kind\")",
            "+ case \"fx.kind.square\" (in variant \"fx.kind\")",
        ]
    );
}

#[test]
fn diff_types_kinds_nested_targets_order_and_case_fields() {
    let old = "module m;
@id(\"m.a\") record A { @id(\"m.a.v\") v: i64, }
@id(\"m.b\") record B { @id(\"m.b.v\") v: i64, }
@id(\"m.c\") variant C { @id(\"m.c.one\") One { @id(\"m.c.one.n\") n: i32, }, @id(\"m.c.two\") Two, }
@id(\"m.k\") record K { @id(\"m.k.v\") v: bool, }
@id(\"m.root\") record Root {
    @id(\"m.root.a\") a: A,
    @id(\"m.root.c\") c: C,
    @id(\"m.root.k\") k: K,
    @id(\"m.root.p\") p: bool,
    @id(\"m.root.q\") q: string,
}
";
    let new = "module m;
@id(\"m.a\") record A { @id(\"m.a.v\") v: i64, }
@id(\"m.b\") record B { @id(\"m.b.v\") v: i64, }
@id(\"m.c\") variant C { @id(\"m.c.two\") Two, @id(\"m.c.one\") One { @id(\"m.c.one.n\") n: u8, }, }
@id(\"m.k\") variant K { @id(\"m.k.only\") Only, }
@id(\"m.root\") record Root {
    @id(\"m.root.a\") a: B,
    @id(\"m.root.c\") c: C,
    @id(\"m.root.k\") k: K,
    @id(\"m.root.q\") q: string,
    @id(\"m.root.p\") p: bool,
}
";
    let changes = diff_graphs(
        schema_of(old, "m.root").graph(),
        schema_of(new, "m.root").graph(),
    );
    let lines: Vec<String> = changes.iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        [
            "- type \"m.a\" (record)",
            "~ field \"m.c.one.n\": i32 -> u8 (in case \"m.c.one\" of variant \"m.c\")",
            "~ case order of variant \"m.c\": [\"m.c.one\", \"m.c.two\"] -> [\"m.c.two\", \"m.c.one\"]",
            "~ type \"m.k\": record -> variant",
            "~ field \"m.root.a\": nested \"m.a\" -> nested \"m.b\" (in record \"m.root\")",
            "~ field order of record \"m.root\": [\"m.root.a\", \"m.root.c\", \"m.root.k\", \"m.root.p\", \"m.root.q\"] -> [\"m.root.a\", \"m.root.c\", \"m.root.k\", \"m.root.q\", \"m.root.p\"]",
            "+ type \"m.b\" (record)",
        ]
    );
}

#[test]
fn rename_only_is_no_change() {
    let old = schema_of(MODULE_V1, "fx.shape");
    let renamed = schema_of(&rename_only(), "fx.shape");
    assert_eq!(old.digest(), renamed.digest());
    assert!(diff_graphs(old.graph(), renamed.graph()).is_empty());
}

#[test]
fn drift_message_exact_text() {
    let old = schema_of(MODULE_V1, "fx.shape");
    let new = schema_of(&module_v2(), "fx.shape");
    let hint = "re-pin with `SPX_UPDATE_PINS=1 cargo build` or `spx pin`";
    let msg = drift_message("fx.shape", old.digest(), Some(&old), &new, hint);
    assert_eq!(
        msg,
        format!(
            "schema drift for root \"fx.shape\"
  pinned digest:  {}
  derived digest: {}
  changes by stable id (pinned -> derived):
    ~ field \"fx.point.x\": i64 -> u64 (in record \"fx.point\")
    - field \"fx.point.y\": i64 (in record \"fx.point\")
    + field \"fx.point.z\": bool (in record \"fx.point\")
    - case \"fx.kind.circle\" (in variant \"fx.kind\")
    + case \"fx.kind.square\" (in variant \"fx.kind\")
{hint}",
            old.digest(),
            new.digest()
        )
    );
    let unavailable = drift_message("fx.shape", old.digest(), None, &new, hint);
    assert_eq!(
        unavailable,
        format!(
            "schema drift for root \"fx.shape\"
  pinned digest:  {}
  derived digest: {}
  the pinned schema document is unavailable (spx.lock.d/ is missing it or it is unreadable), so no structural diff can be shown
{hint}",
            old.digest(),
            new.digest()
        )
    );
    // A pinned document that is not the pinned digest is not trusted.
    let mismatched = drift_message("fx.shape", HEX_B, Some(&old), &new, hint);
    assert!(mismatched.contains(&format!(
        "  the pinned schema document in spx.lock.d/ has digest {} instead of the pinned one, so no structural diff can be shown\n",
        old.digest()
    )));
    assert!(!mismatched.contains("changes by stable id"));
}

// ---------------------------------------------- the build helper, in-process --

struct Package {
    dir: TempDir,
}

impl Package {
    fn new(name: &str, text: &str) -> Package {
        let dir = TempDir::new(name);
        std::fs::create_dir_all(dir.path().join("agents")).unwrap();
        std::fs::write(dir.path().join("agents/fx.spx"), text).unwrap();
        Package { dir }
    }
    fn path(&self) -> &Path {
        self.dir.path()
    }
    fn edit(&self, text: &str) {
        std::fs::write(self.path().join("agents/fx.spx"), text).unwrap();
    }
    /// A configuration of this package with `sources`, each a path and
    /// its roots.
    fn config(&self, sources: &[(&str, &[&str])]) -> Config {
        let mut config = Config::new();
        for (path, roots) in sources {
            config.source(path);
            for r in *roots {
                config.root(*r);
            }
        }
        config
            .package_dir(self.path())
            .out_dir(self.path().join("out"))
            .cargo_output(false);
        config
    }
    fn compile(&self, policy: PinPolicy) -> Result<Vec<spx_build::Compiled>, spx_build::Error> {
        self.config(&[("agents/fx.spx", &["fx.shape", "fx.point"])])
            .pin_policy(policy)
            .compile()
    }
    fn lock_bytes(&self) -> Option<Vec<u8>> {
        std::fs::read(self.path().join("spx.lock")).ok()
    }
    fn pinned_bytes(&self, root: &str) -> Option<Vec<u8>> {
        std::fs::read(lock::pinned_schema_path(self.path(), root)).ok()
    }
    /// Makes the package a cargo package whose `Cargo.toml` ends with
    /// `metadata` (a `[package.metadata.spx]` table, or nothing).
    fn manifest(&self, metadata: &str) {
        std::fs::create_dir_all(self.path().join("src")).unwrap();
        std::fs::write(self.path().join("src/lib.rs"), "").unwrap();
        std::fs::write(
            self.path().join("Cargo.toml"),
            format!("[package]\nname = \"fx\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n{metadata}[workspace]\n"),
        )
        .unwrap();
    }
    fn sources() -> Vec<Source> {
        vec![Source {
            path: "agents/fx.spx".into(),
            roots: vec!["fx.shape".into(), "fx.point".into()],
        }]
    }
}

#[test]
fn create_policy_pins_then_refuses_drift_keeping_the_lock() {
    let pkg = Package::new("create", MODULE_V1);
    let compiled = pkg.compile(PinPolicy::Create).unwrap();
    assert_eq!(compiled.len(), 2);
    assert_eq!(compiled[0].pin, PinChange::Created);
    let shape = schema_of(MODULE_V1, "fx.shape");
    let lock = Lock::read(pkg.path()).unwrap().unwrap();
    assert_eq!(
        lock.find("agents/fx.spx", "fx.shape"),
        Some(&Pin::of("agents/fx.spx", &shape))
    );
    assert_eq!(
        pkg.pinned_bytes("fx.shape").unwrap(),
        shape.document().as_bytes()
    );
    // Outputs in out_dir, projections included.
    let out = pkg.path().join("out");
    assert_eq!(
        std::fs::read_to_string(out.join("fx.shape.schema.json")).unwrap(),
        shape.document()
    );
    assert_eq!(
        std::fs::read_to_string(out.join("fx.shape.draft2020.json")).unwrap(),
        spx_schema::project::draft2020(&shape)
    );
    for d in ["openai", "anthropic", "gemini"] {
        assert!(out.join(format!("fx.shape.{d}.json")).is_file(), "{d}");
    }
    // Second run: unchanged.
    let again = pkg.compile(PinPolicy::Create).unwrap();
    assert_eq!(again[0].pin, PinChange::Unchanged);

    let lock_before = pkg.lock_bytes().unwrap();
    let pinned_before = pkg.pinned_bytes("fx.shape").unwrap();
    pkg.edit(&module_v2());
    let err = pkg.compile(PinPolicy::Create).unwrap_err();
    assert!(err.diagnostics().iter().all(|d| d.code == LOCK_DRIFT));
    assert_eq!(err.diagnostics().len(), 2, "{err}");
    let d = &err.diagnostics()[0];
    assert_eq!(d.rule, "lock.drift");
    assert_eq!(
        d.location,
        Location::File {
            path: "agents/fx.spx".into()
        }
    );
    let text = err.to_string();
    assert!(text.starts_with("error[SPX-L003]: the schema of root \"fx.shape\" derived from \"agents/fx.spx\" no longer matches its pin in spx.lock\n  --> agents/fx.spx\n  = schema drift for root \"fx.shape\"\n"), "{text}");
    assert!(text.contains("  =     ~ field \"fx.point.x\": i64 -> u64 (in record \"fx.point\")\n"));
    // This configuration sets its pin policy in code and has no metadata:
    // neither `SPX_UPDATE_PINS=1 cargo build` nor `spx pin` would re-pin it,
    // so the hint names what does (and "Update re-pins" below runs it).
    assert!(text.contains("  = help: re-pin by running this configuration once with `.pin_policy(PinPolicy::Update)`"), "{text}");
    assert_eq!(pkg.lock_bytes().unwrap(), lock_before);
    assert_eq!(pkg.pinned_bytes("fx.shape").unwrap(), pinned_before);

    // A rename is not drift.
    pkg.edit(&rename_only());
    pkg.compile(PinPolicy::Create).unwrap();
    assert_eq!(pkg.lock_bytes().unwrap(), lock_before);

    // Update re-pins.
    pkg.edit(&module_v2());
    let updated = pkg.compile(PinPolicy::Update).unwrap();
    assert_eq!(
        updated[0].pin,
        PinChange::Updated {
            from: shape.digest().to_owned()
        }
    );
    let v2 = schema_of(&module_v2(), "fx.shape");
    assert_eq!(
        pkg.pinned_bytes("fx.shape").unwrap(),
        v2.document().as_bytes()
    );
    assert_eq!(
        Lock::read(pkg.path())
            .unwrap()
            .unwrap()
            .find("agents/fx.spx", "fx.shape")
            .unwrap()
            .digest,
        v2.digest()
    );
}

#[test]
fn check_policy_never_writes() {
    let pkg = Package::new("check", MODULE_V1);
    let err = pkg.compile(PinPolicy::Check).unwrap_err();
    assert_eq!(err.diagnostics().len(), 2);
    for d in err.diagnostics() {
        assert_eq!((d.code, d.rule), (LOCK_UNPINNED, "lock.unpinned"));
    }
    assert!(err
        .to_string()
        .contains("is not pinned: spx.lock is missing"));
    assert!(pkg.lock_bytes().is_none());
    assert!(!pkg.path().join("spx.lock.d").exists());
    // With pins in place, Check passes and writes nothing, even a missing
    // pinned document.
    pkg.compile(PinPolicy::Create).unwrap();
    std::fs::remove_file(lock::pinned_schema_path(pkg.path(), "fx.point")).unwrap();
    pkg.compile(PinPolicy::Check).unwrap();
    assert!(pkg.pinned_bytes("fx.point").is_none());
    // Drift under Check fails the same way as under Create.
    pkg.edit(&module_v2());
    let err = pkg.compile(PinPolicy::Check).unwrap_err();
    assert!(err.has_code(LOCK_DRIFT));
}

#[test]
fn malformed_lock_fails_the_build_and_is_left_alone() {
    let pkg = Package::new("malformed", MODULE_V1);
    std::fs::write(pkg.path().join("spx.lock"), "garbage\n").unwrap();
    // Issue 13: only a run that may re-pin (Update, `SPX_UPDATE_PINS=1`)
    // re-creates a malformed lock; Create and Check fail and leave it.
    for policy in [PinPolicy::Create, PinPolicy::Check] {
        let err = pkg.compile(policy).unwrap_err();
        assert_eq!(err.diagnostics().len(), 1);
        assert_eq!(err.diagnostics()[0].code, LOCK_MALFORMED);
        assert_eq!(pkg.lock_bytes().unwrap(), b"garbage\n");
    }
}

#[test]
fn source_errors_are_all_reported_and_nothing_is_written() {
    let pkg = Package::new(
        "bad-source",
        "module fx;\n@id(\"fx.shape\")\nrecord Shape {\n    x: i64,\n}\n",
    );
    let err = pkg.compile(PinPolicy::Create).unwrap_err();
    // fx.shape: automatic field identity; fx.point: unresolved.
    let rules: Vec<&str> = err.diagnostics().iter().map(|d| d.rule).collect();
    assert_eq!(rules, ["type.field.identity_origin", "type.unresolved"]);
    assert!(pkg.lock_bytes().is_none());
}

#[test]
fn config_mistakes_are_diagnostics() {
    let err = Config::new()
        .root("orphan")
        .source("/abs/x.spx")
        .source("y.spx")
        .package_dir("/nonexistent")
        .out_dir("/nonexistent/out")
        .cargo_output(false)
        .compile()
        .unwrap_err();
    let rules: Vec<&str> = err.diagnostics().iter().map(|d| d.rule).collect();
    assert_eq!(
        rules,
        [
            "build.root_without_source",
            "build.source_path",
            "build.source_without_roots",
            "build.source_without_roots"
        ]
    );
    assert!(err
        .diagnostics()
        .iter()
        .all(|d| d.code == spx_build::BUILD_CONFIG));
}

#[test]
fn pin_run_checks_and_repins_exactly_the_configured_roots() {
    let pkg = Package::new("pin-run", MODULE_V1);
    let sources = Package::sources();
    let err = pin::run_sources(pkg.path(), &sources, true).unwrap_err();
    assert!(err.diagnostics().iter().all(|d| d.rule == "lock.unpinned"));
    assert!(pkg.lock_bytes().is_none());

    let report = pin::run_sources(pkg.path(), &sources, false).unwrap();
    assert!(report.wrote);
    assert_eq!(report.entries.len(), 2);
    assert!(report
        .entries
        .iter()
        .all(|e| e.change == PinChange::Created));
    let report = pin::run_sources(pkg.path(), &sources, true).unwrap();
    assert!(!report.wrote);
    assert!(report
        .entries
        .iter()
        .all(|e| e.change == PinChange::Unchanged));

    // A missing pinned document fails the check only.
    std::fs::remove_file(lock::pinned_schema_path(pkg.path(), "fx.point")).unwrap();
    let err = pin::run_sources(pkg.path(), &sources, true).unwrap_err();
    assert_eq!(err.diagnostics().len(), 1);
    let d = &err.diagnostics()[0];
    assert_eq!(
        (d.code, d.rule),
        (LOCK_PINNED_DOCUMENT, "lock.pinned_document")
    );
    assert_eq!(
        d.location,
        Location::File {
            path: "spx.lock.d/fx.point.schema.json".into()
        }
    );
    assert!(pin::run_sources(pkg.path(), &sources, false).unwrap().wrote);

    // Drift: check fails with the diff, re-pin updates.
    pkg.edit(&module_v2());
    let err = pin::run_sources(pkg.path(), &sources, true).unwrap_err();
    assert!(err.has_code(LOCK_DRIFT));
    assert!(err
        .to_string()
        .contains("+ case \"fx.kind.square\" (in variant \"fx.kind\")"));
    let report = pin::run_sources(pkg.path(), &sources, false).unwrap();
    assert!(matches!(
        report.entries[0].change,
        PinChange::Updated { .. }
    ));

    // A root no longer configured is stale: the check fails, re-pinning
    // removes it and its pinned document.
    let fewer = vec![Source {
        path: "agents/fx.spx".into(),
        roots: vec!["fx.shape".into()],
    }];
    let err = pin::run_sources(pkg.path(), &fewer, true).unwrap_err();
    assert_eq!(err.diagnostics().len(), 1);
    assert_eq!(err.diagnostics()[0].rule, "lock.stale");
    let report = pin::run_sources(pkg.path(), &fewer, false).unwrap();
    assert_eq!(report.entries.last().unwrap().change, PinChange::Removed);
    assert_eq!(report.entries.last().unwrap().root, "fx.point");
    assert!(pkg.pinned_bytes("fx.point").is_none());
    assert_eq!(Lock::read(pkg.path()).unwrap().unwrap().pins.len(), 1);
}

#[test]
fn pin_run_reads_package_metadata() {
    let pkg = Package::new("metadata", MODULE_V1);
    pkg.manifest("[package.metadata.spx]\nsources = [{ path = \"agents/fx.spx\", roots = [\"fx.shape\"] }]\n\n");
    let report = pin::run(pkg.path(), false).unwrap();
    assert_eq!(report.entries.len(), 1);
    assert_eq!(report.entries[0].root, "fx.shape");
    assert!(pin::run(pkg.path(), true).is_ok());

    pkg.manifest("");
    let err = pin::run(pkg.path(), true).unwrap_err();
    assert_eq!(err.diagnostics()[0].code, spx_build::BUILD_METADATA);
    assert_eq!(
        err.diagnostics()[0].message,
        "Cargo.toml has no [package.metadata.spx] table"
    );
}

// ------------------------------------------------------- source paths --

#[test]
fn lock_keeps_only_normal_source_paths() {
    for (source, message) in [
        (
            "./a.spx",
            "source path \"./a.spx\" is not in normal form (write \"a.spx\")",
        ),
        (
            "b//a.spx",
            "source path \"b//a.spx\" is not in normal form (write \"b/a.spx\")",
        ),
        (
            "b/../a.spx",
            "source path \"b/../a.spx\" is not in normal form (write \"a.spx\")",
        ),
        (
            "../a.spx",
            "source path \"../a.spx\" leaves the package root (a `..` climbs above it)",
        ),
        (
            "/etc/a.spx",
            "source path \"/etc/a.spx\" must be relative to the package root",
        ),
        (
            "\\\\a.spx",
            "source path \"\\\\a.spx\" must be relative to the package root",
        ),
        (
            "C:/a.spx",
            "source path \"C:/a.spx\" must be relative to the package root",
        ),
        (
            "b\\\\a.spx",
            "source path \"b\\\\a.spx\" must use `/` as separator",
        ),
        ("", "source path \"\" is empty"),
        (
            "b/",
            "source path \"b/\" does not name a file (it ends with `/`, `.` or `..`)",
        ),
    ] {
        let text = format!(
            "{{\"spx_lock\":1,\"pins\":[\n{}\n]}}\n",
            pin_line(source, "r.a")
        );
        let (rule, line, col, got) = refusal(&text);
        assert_eq!((rule, line, col), ("lock.source", 2, 11), "{source}");
        assert_eq!(got, message, "{source}");
    }
}

#[test]
fn every_spelling_of_a_source_builds_one_pin() {
    let pkg = Package::new("spellings", MODULE_V1);
    let build = |source: &str| {
        pkg.config(&[(source, &["fx.shape"])])
            .pin_policy(PinPolicy::Create)
            .compile()
    };
    let first = build("./agents/fx.spx").unwrap();
    assert_eq!(first[0].source, "agents/fx.spx");
    assert_eq!(first[0].pin, PinChange::Created);
    let lock_bytes = pkg.lock_bytes().unwrap();
    let shape = schema_of(MODULE_V1, "fx.shape");
    assert_eq!(
        Lock::read(pkg.path()).unwrap().unwrap().pins,
        [Pin::of("agents/fx.spx", &shape)]
    );
    for spelling in ["agents/fx.spx", "agents//fx.spx", "x/../agents/./fx.spx"] {
        let again = build(spelling).unwrap();
        assert_eq!(again[0].source, "agents/fx.spx", "{spelling}");
        assert_eq!(again[0].pin, PinChange::Unchanged, "{spelling}");
        assert_eq!(pkg.lock_bytes().unwrap(), lock_bytes, "{spelling}");
    }
    // Under `spx pin --check`, too: one pin, not stale.
    let sources = [Source {
        path: ".//agents/fx.spx".into(),
        roots: vec!["fx.shape".into()],
    }];
    let report = pin::run_sources(pkg.path(), &sources, true).unwrap();
    assert_eq!(report.entries.len(), 1);
    assert_eq!(report.entries[0].source, "agents/fx.spx");
    assert_eq!(report.entries[0].change, PinChange::Unchanged);
}

#[test]
fn a_source_path_that_leaves_the_package_is_refused_by_every_door() {
    let pkg = Package::new("leaves", MODULE_V1);
    let err = pkg
        .config(&[
            ("../agents/fx.spx", &["fx.shape"]),
            ("/agents/fx.spx", &["fx.shape"]),
        ])
        .compile()
        .unwrap_err();
    let got: Vec<(&str, &str, &str)> = err
        .diagnostics()
        .iter()
        .map(|d| (d.code.as_str(), d.rule, d.message.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            (
                "SPX-B001",
                "build.source_path",
                "source path \"../agents/fx.spx\" leaves the package root (a `..` climbs above it)"
            ),
            (
                "SPX-B001",
                "build.source_path",
                "source path \"/agents/fx.spx\" must be relative to the package root"
            ),
        ]
    );
    // `spx pin` with an explicit source list: the same diagnostic.
    let sources = [Source {
        path: "../agents/fx.spx".into(),
        roots: vec!["fx.shape".into()],
    }];
    let err = pin::run_sources(pkg.path(), &sources, false).unwrap_err();
    assert_eq!(err.diagnostics().len(), 1);
    let d = &err.diagnostics()[0];
    assert_eq!(
        (d.code.as_str(), d.rule, d.message.as_str()),
        got[0],
        "the same diagnostic as Config::source"
    );
    assert_eq!(d.detail, Some("give sources relative to the package root (the directory of Cargo.toml), e.g. `agents/planner.spx`".to_owned()));
    assert!(pkg.lock_bytes().is_none());
}

#[test]
fn pin_run_keys_metadata_paths_by_their_normal_form() {
    let pkg = Package::new("metadata-spelling", MODULE_V1);
    pkg.manifest("[package.metadata.spx]\nsources = [{ path = \"./agents//fx.spx\", roots = [\"fx.shape\"] }]\n\n");
    let report = pin::run(pkg.path(), false).unwrap();
    assert_eq!(report.entries[0].source, "agents/fx.spx");
    let lock = Lock::read(pkg.path()).unwrap().unwrap();
    assert_eq!(lock.pins[0].source, "agents/fx.spx");
    assert!(lock.find("./agents/fx.spx", "fx.shape").is_some());
    assert!(pin::run(pkg.path(), true).is_ok());
}
