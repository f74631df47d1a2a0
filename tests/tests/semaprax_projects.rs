//! Projects (`semaprax.toml`, issue 12): a root whose types span several
//! modules derives byte-identical to the same types in one module; every
//! refusal of a project, located; source binding over every file read; a
//! drift across modules through the build helper's pins.
//!
//! Fixtures: tests/fixtures/projects/shop (four modules, `semaprax.project.v1`:
//! shop.app imports from shop.lines and shop.people, which both import
//! shop.money, a chain and a diamond), its one-module twin
//! tests/fixtures/projects/shop-single.spx, and tests/fixtures/projects/desk
//! (the `semaprax.manifest.v1` shape, a module declaring `Result`).

use spx_build::{Config, PinPolicy};
use spx_schema::binding::{self, SourceSet};
use spx_schema::diag::{Location, Span};
use spx_schema::lock::LOCK_DRIFT;
use spx_schema::{Diagnostic, Schema, Severity};
use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/projects")
}

const SHOP_ROOTS: [&str; 5] = [
    "shop.order",
    "shop.status",
    "shop.line",
    "shop.customer",
    "shop.money",
];

struct TempDir(PathBuf);

impl TempDir {
    /// A fresh directory holding `files` (path, text).
    fn with(name: &str, files: &[(&str, &str)]) -> TempDir {
        let p = std::env::temp_dir().join(format!("spx-projects-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        let dir = TempDir(p);
        for (path, text) in files {
            dir.write(path, text);
        }
        dir
    }
    fn path(&self) -> &Path {
        &self.0
    }
    fn write(&self, path: &str, text: &str) {
        let full = self.0.join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, text).unwrap();
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const MANIFEST_ABC: &str =
    "schema = \"semaprax.project.v1\"\nname = \"p\"\nentry = \"p.a\"\nsources = [\"a.spx\", \"b.spx\", \"c.spx\"]\n";
const A: &str = "module p.a;\nuse type @id(\"p.b\") from p.b as B;\n@id(\"p.a\")\nrecord A {\n    @id(\"p.a.b\")\n    b: B,\n}\n";
const B: &str = "module p.b;\nuse type @id(\"p.c\") from p.c as C;\n@id(\"p.b\")\nrecord B {\n    @id(\"p.b.c\")\n    c: C,\n}\n";
const C: &str = "module p.c;\n@id(\"p.c\")\nrecord C {\n    @id(\"p.c.n\")\n    n: i64,\n}\n";

/// (code, rule, `path:line:col`) of a diagnostic, asserting it carries a
/// span and a help.
fn located(d: &Diagnostic) -> (&'static str, &'static str, String) {
    assert!(d.help.is_some(), "no help: {d}");
    assert!(
        matches!(d.location, Location::Source { span: Some(_), .. }),
        "no span: {d:?}"
    );
    (d.code.as_str(), d.rule, d.location.to_string())
}

// ------------------------------------------------------------ same bytes

#[test]
fn a_project_derives_the_bytes_of_its_one_module_twin() {
    let manifest = fixtures().join("shop/semaprax.toml");
    let single = fixtures().join("shop-single.spx");
    for root in SHOP_ROOTS {
        let p = binding::compile_file(&manifest, "shop/semaprax.toml", root).unwrap();
        let s = binding::compile_file(&single, "shop-single.spx", root).unwrap();
        assert_eq!(p.document(), s.document(), "{root}");
        assert_eq!(p.digest(), s.digest(), "{root}");
        // The graph, names included (the macro generates from them).
        assert_eq!(p.graph(), s.graph(), "{root}");
    }
    // The root of the diamond holds every type once, dependencies first.
    let order = binding::compile_file(&manifest, "m", "shop.order").unwrap();
    let ids: Vec<&str> = order
        .graph()
        .types
        .iter()
        .map(|t| t.stable_id.as_str())
        .collect();
    assert_eq!(
        ids,
        [
            "shop.money",
            "shop.customer",
            "shop.line",
            "shop.status",
            "shop.order"
        ]
    );
    // The alias `Buyer` names the declaration `Customer`.
    assert_eq!(order.graph().types[1].name, "Customer");
}

#[test]
fn the_manifest_v1_shape_reads_and_a_module_may_declare_result() {
    let set =
        SourceSet::read(&fixtures().join("desk/semaprax.toml"), "desk/semaprax.toml").unwrap();
    let w = set.workspace();
    let m = w.manifest.as_ref().unwrap();
    assert_eq!(
        (m.schema.as_str(), m.name.as_deref(), m.entry.as_deref()),
        ("semaprax.manifest.v1", Some("desk"), Some("desk.app"))
    );
    let names: Vec<(&str, &str)> = w
        .modules
        .iter()
        .map(|m| (m.name.as_str(), m.path.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("desk.app", "desk/src/app.spx"),
            ("desk.model", "desk/src/model.spx"),
            ("desk.result", "desk/src/result.spx"),
        ]
    );
    // `Result` is the module's own record, not the prelude's variant.
    let reply = set.derive("desk.reply").unwrap();
    let ids: Vec<&str> = reply
        .graph()
        .types
        .iter()
        .map(|t| t.stable_id.as_str())
        .collect();
    assert_eq!(ids, ["desk.ticket", "desk.result", "desk.reply"]);
    // The `std.io` import resolves to nothing in the project: a note.
    let notes: Vec<(&str, &str, String)> = w
        .all_notes()
        .map(|n| {
            assert_eq!(n.severity, Severity::Note);
            located(n)
        })
        .collect();
    assert_eq!(
        notes,
        [(
            "SPX-J001",
            "project.unknown_module",
            "desk/src/app.spx:4:1".to_owned()
        )]
    );
    set.recheck().unwrap();
}

#[test]
fn chains_resolve_through_every_module_and_files_are_listed() {
    let dir = TempDir::with("chain", &abc(A, B, C));
    let set = SourceSet::read(&dir.path().join("semaprax.toml"), "semaprax.toml").unwrap();
    let files: Vec<PathBuf> = set.files().map(Path::to_path_buf).collect();
    assert_eq!(
        files,
        ["semaprax.toml", "a.spx", "b.spx", "c.spx"].map(|f| dir.path().join(f))
    );
    let s = set.derive("p.a").unwrap();
    let one = spx_schema::source::read_module(
        "one.spx",
        &format!(
            "module one;\n{}\n{}\n{}",
            &A[A.find("@id(\"p.a\")").unwrap()..],
            &B[B.find("@id(\"p.b\")").unwrap()..],
            &C[C.find("@id(\"p.c\")").unwrap()..]
        ),
    )
    .unwrap();
    assert_eq!(
        s.document(),
        Schema::derive(&one, "p.a").unwrap().document()
    );
    // A root may live in any module.
    assert_eq!(set.derive("p.c").unwrap().graph().types.len(), 1);
}

// ------------------------------------------------------------- refusals

/// The files of the three-module project p.a -> p.b -> p.c, with these
/// module texts.
fn abc<'t>(a: &'t str, b: &'t str, c: &'t str) -> [(&'static str, &'t str); 4] {
    [
        ("semaprax.toml", MANIFEST_ABC),
        ("a.spx", a),
        ("b.spx", b),
        ("c.spx", c),
    ]
}

/// (code, `path:line:col`) of every diagnostic.
fn codes_at(errs: &[Diagnostic]) -> Vec<(&'static str, String)> {
    errs.iter()
        .map(|d| (d.code.as_str(), d.location.to_string()))
        .collect()
}

/// Reads the project in `files` and derives `root`; the errors.
fn refused(name: &str, files: &[(&str, &str)], root: &str) -> Vec<Diagnostic> {
    let dir = TempDir::with(name, files);
    binding::compile_file(&dir.path().join("semaprax.toml"), "semaprax.toml", root).unwrap_err()
}

#[test]
fn an_import_from_a_module_not_in_the_project_is_refused_at_the_use() {
    let b = B.replace("from p.c", "from p.cc");
    let errs = refused("unknown-module", &abc(A, &b, C), "p.a");
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(
        located(&errs[0]),
        ("SPX-J001", "project.unknown_module", "b.spx:2:1".to_owned())
    );
    assert_eq!(
        errs[0].message,
        "`C` is imported from module `p.cc`, which is not in the project"
    );
    // The span is the whole `use` clause.
    let clause = "use type @id(\"p.c\") from p.cc as C;";
    assert_eq!(
        errs[0].location,
        Location::Source {
            path: "b.spx".into(),
            line: 2,
            column: 1,
            span: Some(Span {
                start: "module p.b;\n".len(),
                end: "module p.b;\n".len() + clause.len()
            }),
        }
    );
    assert!(errs[0]
        .help
        .as_deref()
        .unwrap()
        .contains("`p.a`, `p.b`, `p.c`"));
    // A root that does not reach the import derives.
    let dir = TempDir::with("unknown-module-unreached", &abc(A, &b, C));
    binding::compile_file(&dir.path().join("semaprax.toml"), "semaprax.toml", "p.c").unwrap();
}

#[test]
fn an_import_of_an_id_its_module_does_not_declare_is_refused_at_the_use() {
    let b = B.replace("@id(\"p.c\") from", "@id(\"p.see\") from");
    let errs = refused("unknown-id", &abc(A, &b, C), "p.a");
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(
        located(&errs[0]),
        ("SPX-J002", "project.unknown_id", "b.spx:2:1".to_owned())
    );
    assert_eq!(
        errs[0].message,
        "`C` is imported as \"p.see\" from module `p.c`, which declares no type with that stable id"
    );
    assert_eq!(
        errs[0].help.as_deref(),
        Some("correct the `@id` of the import (its types: \"p.c\", in `c.spx`)")
    );
}

#[test]
fn an_alias_that_collides_is_refused_at_the_use() {
    // The alias `C` is also a type declared in the importing module.
    let b = format!("{B}@id(\"p.b.own\")\nrecord C {{\n}}\n");
    let errs = refused("alias", &abc(A, &b, C), "p.a");
    let got: Vec<(&str, &str, String)> = errs
        .iter()
        .map(|d| (d.code.as_str(), d.rule, d.location.to_string()))
        .collect();
    assert_eq!(
        got,
        [("SPX-S107", "decl.duplicate_name", "b.spx:2:1".to_owned())]
    );
    // Two aliases of one name.
    let a = A.replace("as B;\n", "as B;\nuse type @id(\"p.c\") from p.c as B;\n");
    let errs = refused("alias-twice", &abc(&a, B, C), "p.a");
    let got: Vec<(&str, String)> = errs
        .iter()
        .map(|d| (d.code.as_str(), d.location.to_string()))
        .collect();
    assert_eq!(got, [("SPX-S107", "a.spx:3:1".to_owned())]);
}

#[test]
fn two_modules_declaring_one_stable_id_are_refused_at_the_second() {
    let c = C.replace("@id(\"p.c.n\")", "@id(\"p.b.c\")");
    let errs = refused("duplicate-id", &abc(A, B, &c), "p.c");
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(
        located(&errs[0]),
        ("SPX-J003", "project.duplicate_id", "c.spx:5:5".to_owned())
    );
    assert_eq!(
        errs[0].message,
        "stable id \"p.b.c\" is declared by two modules of the project: `p.c` here and `p.b` at b.spx:6:5"
    );
}

#[test]
fn two_sources_declaring_one_module_are_refused() {
    let c = C.replace("module p.c;", "module p.b;");
    let errs = refused("duplicate-module", &abc(A, B, &c), "p.a");
    assert_eq!(
        located(&errs[0]),
        (
            "SPX-J004",
            "project.duplicate_module",
            "c.spx:1:8".to_owned()
        )
    );
    assert_eq!(
        errs[0].message,
        "module `p.b` is declared by two sources of the project (first by `b.spx`)"
    );
}

#[test]
fn a_missing_source_is_refused_at_its_manifest_entry() {
    let errs = refused(
        "missing",
        &[("semaprax.toml", MANIFEST_ABC), ("a.spx", A), ("c.spx", C)],
        "p.a",
    );
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(
        located(&errs[0]),
        (
            "SPX-J005",
            "project.source_missing",
            "semaprax.toml:4:21".to_owned()
        )
    );
    // The span is the entry's string.
    let start = MANIFEST_ABC.find("\"b.spx\"").unwrap();
    assert_eq!(
        errs[0].location,
        Location::Source {
            path: "semaprax.toml".into(),
            line: 4,
            column: 21,
            span: Some(Span {
                start,
                end: start + "\"b.spx\"".len()
            }),
        }
    );
    assert_eq!(
        errs[0].message,
        "source `b.spx` listed in the manifest does not exist (looked for `b.spx`)"
    );
}

#[test]
fn every_module_error_is_reported_with_its_file() {
    let b = B.replace("c: C,", "c: Missing,");
    let c = C.replace("n: i64,", "n: i64 ;");
    let errs = refused("module-errors", &abc(A, &b, &c), "p.a");
    assert_eq!(
        codes_at(&errs),
        [
            ("SPX-S110", "b.spx:6:8".to_owned()),
            ("SPX-P002", "c.spx:5:11".to_owned())
        ]
    );
}

#[test]
fn a_manifest_that_cannot_be_read_is_an_unreadable_file() {
    for (text, rule) in [
        (
            "schema = \"semaprax.project.v1\"\nsources = [\"a.spx\"\n",
            "manifest.syntax",
        ),
        (
            "schema = \"cargo\"\nsources = [\"a.spx\"]\n",
            "manifest.schema",
        ),
        (
            "schema = \"semaprax.project.v1\"\nname = \"p\"\n",
            "manifest.key",
        ),
    ] {
        let errs = refused(
            "unreadable",
            &[("semaprax.toml", text), ("a.spx", C)],
            "p.c",
        );
        assert_eq!(errs.len(), 1);
        assert_eq!(
            (errs[0].code, errs[0].rule),
            (binding::SOURCE_UNREADABLE, rule),
            "{text}"
        );
        assert!(errs[0].help.is_some());
    }
    // A manifest that does not exist.
    let errs = binding::compile_file(
        Path::new("/nonexistent/semaprax.toml"),
        "x/semaprax.toml",
        "r",
    )
    .unwrap_err();
    assert_eq!(
        (errs[0].code, errs[0].rule),
        (binding::SOURCE_UNREADABLE, "source.unreadable")
    );
}

#[test]
fn a_single_file_import_is_unresolved_and_says_where_to_look() {
    let dir = TempDir::with("single", &[("b.spx", B)]);
    let errs = binding::compile_file(&dir.path().join("b.spx"), "src/b.spx", "p.b").unwrap_err();
    assert_eq!(errs.len(), 1);
    let d = &errs[0];
    assert_eq!(
        (d.code.as_str(), d.rule, d.location.to_string()),
        ("SPX-Z202", "type.unresolved", "src/b.spx:6:5".to_owned())
    );
    assert_eq!(
        d.message,
        "AgentInteractionSchema invariant failed: type.unresolved"
    );
    assert_eq!(
        d.help.as_deref(),
        Some("`C` is imported with `use type` (id \"p.c\") from module `p.c`, which a single file cannot read: name the project's `semaprax.toml` (which lists that module) instead of `src/b.spx`, or declare the type in this module")
    );
}

// ------------------------------------------------------------- binding

#[test]
fn a_concurrent_edit_of_the_second_module_fails_closed() {
    let dir = TempDir::with("race", &abc(A, B, C));
    let manifest = dir.path().join("semaprax.toml");
    // Rewritten with the same bytes: success.
    let s = binding::compile_file_with_hook(&manifest, "semaprax.toml", "p.a", || {
        dir.write("b.spx", B);
    })
    .unwrap();
    assert_eq!(s.root_type_id(), "p.a");
    // The second module changed between derivation and the re-check.
    let errs = binding::compile_file_with_hook(&manifest, "semaprax.toml", "p.a", || {
        dir.write("b.spx", &B.replace("c: C,", "c: C, @id(\"p.b.x\") x: i64,"));
    })
    .unwrap_err();
    let got: Vec<(&str, &str, String)> = errs
        .iter()
        .map(|d| (d.code.as_str(), d.rule, d.location.to_string()))
        .collect();
    assert_eq!(got, [("SPX-F002", "source.changed", "b.spx".to_owned())]);
    dir.write("b.spx", B);
    // A module the root does not reach is re-checked too, and so is the
    // manifest.
    let errs = binding::compile_file_with_hook(&manifest, "semaprax.toml", "p.c", || {
        dir.write("a.spx", &format!("{A}\n"));
        dir.write("semaprax.toml", &format!("{MANIFEST_ABC}\n"));
    })
    .unwrap_err();
    let got: Vec<String> = errs.iter().map(|d| d.location.to_string()).collect();
    assert_eq!(got, ["semaprax.toml", "a.spx"]);
}

// ------------------------------------------------------ pins and drift

#[test]
fn a_drift_in_a_second_module_fails_the_build_helper_with_the_diff() {
    let dir = TempDir::with(
        "drift",
        &[
            ("agents/semaprax.toml", MANIFEST_ABC),
            ("agents/a.spx", A),
            ("agents/b.spx", B),
            ("agents/c.spx", C),
        ],
    );
    let compile = |policy| {
        Config::new()
            .source("agents/semaprax.toml")
            .root("p.a")
            .package_dir(dir.path())
            .out_dir(dir.path().join("out"))
            .cargo_output(false)
            .pin_policy(policy)
            .compile()
    };
    let first = compile(PinPolicy::Create).unwrap();
    assert_eq!(first[0].source, "agents/semaprax.toml");
    let lock = std::fs::read_to_string(dir.path().join("spx.lock")).unwrap();
    assert!(
        lock.contains("{\"source\":\"agents/semaprax.toml\",\"root\":\"p.a\","),
        "{lock}"
    );
    // The module two imports away changes structurally.
    dir.write("agents/c.spx", &C.replace("n: i64,", "n: usize,"));
    let err = compile(PinPolicy::Create).unwrap_err();
    assert!(err.has_code(LOCK_DRIFT), "{err}");
    let text = err.to_string();
    assert!(
        text.contains("  =     ~ field \"p.c.n\": i64 -> u64 (in record \"p.c\")\n"),
        "{text}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("spx.lock")).unwrap(),
        lock
    );
    // Every file read is listed for the rebuild directives.
    let derived = spx_schema::lock::derive_all(
        dir.path(),
        &[spx_schema::lock::Source {
            path: "agents/semaprax.toml".into(),
            roots: vec!["p.a".into()],
        }],
        spx_schema::lock::RootsFrom::Config,
        &mut spx_schema::diag::Sources::new(),
    )
    .unwrap();
    assert_eq!(
        derived[0].files,
        ["semaprax.toml", "a.spx", "b.spx", "c.spx"].map(|f| dir.path().join("agents").join(f))
    );
}
