//! Today's semaprax language (issue 12, LANGUAGE.md "Today's language"):
//! every module of tests/fixtures/today reads, with exactly the declarations,
//! types and notes asserted here; derivation refuses the builtin generics
//! and `u32` with SPX-Z202 `type.field.unsupported` and a help; inside the
//! declarations a schema needs the reader stays strict.
//!
//! `SPX_SEMAPRAX_CORPUS=<dir> cargo test -p spx-tests --test today -- --ignored`
//! reads every `.spx` file under `<dir>` (a checkout of the semaprax
//! repository) and lists what is refused.

use spx_schema::derive::{CONTAINER_HELP, U32_HELP};
use spx_schema::source::{
    read_module, Builtin, Container, DeclKind, Import, Module, Pos, Target, TypeExpr,
};
use spx_schema::{Diagnostic, Schema, Severity};
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/today")
}

fn read(name: &str) -> Module {
    let text = std::fs::read_to_string(dir().join(name)).unwrap();
    read_module(name, &text).unwrap_or_else(|e| panic!("{name}: {e:#?}"))
}

fn names(m: &Module) -> Vec<(DeclKind, &str)> {
    m.decls
        .iter()
        .filter(|d| !d.prelude)
        .map(|d| (d.kind, d.name.as_str()))
        .collect()
}

fn named(name: &str, target: Target) -> TypeExpr {
    TypeExpr::Named {
        name: name.to_owned(),
        args: Vec::new(),
        target,
    }
}

fn container(kind: Container, elem: TypeExpr) -> TypeExpr {
    TypeExpr::Container {
        kind,
        elem: Box::new(elem),
    }
}

fn z202(d: &Diagnostic) -> (&str, &str, String, Option<&str>) {
    (
        d.code.as_str(),
        d.rule,
        d.location.to_string(),
        d.help.as_deref(),
    )
}

#[test]
fn every_fixture_reads() {
    let mut seen = 0;
    for entry in std::fs::read_dir(dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "spx") {
            let name = path.file_name().unwrap().to_str().unwrap().to_owned();
            let m = read(&name);
            // Only unknown.spx holds what the reader does not know.
            assert_eq!(m.notes.is_empty(), name != "unknown.spx", "{name}");
            seen += 1;
        }
    }
    assert_eq!(seen, 7);
}

#[test]
fn builtin_generics_and_u32_are_read_and_refused_by_derivation() {
    let m = read("containers.spx");
    assert_eq!(
        names(&m),
        [(DeclKind::Record, "Line"), (DeclKind::Record, "Basket")]
    );
    let line = named("Line", Target::Decl(0));
    let tys: Vec<&TypeExpr> = m.decls[1].fields.iter().map(|f| &f.ty).collect();
    assert_eq!(
        tys,
        [
            &container(Container::Vec, line.clone()),
            &container(
                Container::Vec,
                container(Container::Vec, TypeExpr::Builtin(Builtin::String))
            ),
            &container(Container::Box, line),
            &container(Container::List, TypeExpr::Builtin(Builtin::I64)),
            &container(Container::Iter, TypeExpr::Builtin(Builtin::U8)),
            &TypeExpr::Builtin(Builtin::U32),
        ]
    );
    Schema::derive(&m, "today.line").unwrap();
    let e = Schema::derive(&m, "today.basket").unwrap_err();
    assert_eq!(
        z202(&e),
        (
            "SPX-Z202",
            "type.field.unsupported",
            "containers.spx:22:5".to_owned(),
            Some(CONTAINER_HELP)
        )
    );
    assert!(CONTAINER_HELP.starts_with("bounded lists are not part of Agent Interaction Schema v1"));
    for ty in ["Box<i64>", "List<string>", "Iter<bool>", "Vec<Line>"] {
        let m = read_module(
            "g.spx",
            &format!("module g;\n@id(\"g.line\") record Line {{ }}\n@id(\"g.r\") record R {{\n  @id(\"g.r.f\") f: {ty},\n}}"),
        )
        .unwrap();
        let e = Schema::derive(&m, "g.r").unwrap_err();
        assert_eq!(
            z202(&e),
            (
                "SPX-Z202",
                "type.field.unsupported",
                "g.spx:4:16".to_owned(),
                Some(CONTAINER_HELP)
            ),
            "{ty}"
        );
    }
    let m = read_module(
        "u.spx",
        "module u;\n@id(\"u.r\") record R { @id(\"u.r.n\") n: u32 }",
    )
    .unwrap();
    let e = Schema::derive(&m, "u.r").unwrap_err();
    assert_eq!(
        z202(&e),
        (
            "SPX-Z202",
            "type.field.unsupported",
            "u.spx:2:36".to_owned(),
            Some(U32_HELP)
        )
    );
}

#[test]
fn builtin_generics_take_one_argument() {
    let errs = read_module(
        "a.spx",
        "module a;\nrecord R {\n  v: Vec,\n  b: Box<i64, i64>,\n}\nrecord Vec { }",
    )
    .unwrap_err();
    let got: Vec<(&str, &str, String)> = errs
        .iter()
        .map(|d| (d.code.as_str(), d.rule, d.location.to_string()))
        .collect();
    assert_eq!(
        got,
        [
            ("SPX-S112", "decl.type_arity", "a.spx:3:6".to_owned()),
            ("SPX-S112", "decl.type_arity", "a.spx:4:6".to_owned()),
            ("SPX-S113", "decl.reserved_name", "a.spx:6:8".to_owned()),
        ]
    );
    assert_eq!(errs[0].help.as_deref(), Some("write `Vec<T>`"));
}

#[test]
fn unicode_escapes_make_the_decoded_id() {
    let m = read("escapes.spx");
    let g = &m.decls[0];
    assert_eq!(g.stable_id, "today.e\u{301}t\u{e9}\u{1F600}");
    assert_eq!(g.fields[0].stable_id, "today.greeting.text\u{7f}");
    let s = Schema::derive(&m, "today.e\u{301}t\u{e9}\u{1F600}").unwrap();
    assert!(s
        .document()
        .contains("\"stable_id\":\"today.e\u{301}t\u{e9}\u{1F600}\""));
    // `\u{0}` decodes to NUL, which no stable id may hold (SPX-S102).
    let errs = read_module("n.spx", "module n;\n@id(\"n\\u{0}\") record N { }").unwrap_err();
    assert_eq!(
        (
            errs[0].code.as_str(),
            errs[0].rule,
            errs[0].location.to_string()
        ),
        ("SPX-S102", "decl.id_nul", "n.spx:2:22".to_owned())
    );
}

#[test]
fn owned_payloads_derive_like_record_fields() {
    let m = read("payloads.spx");
    // The last field's comma may be left out.
    assert_eq!(m.decls[3].fields.len(), 2);
    let ok = Schema::derive(&m, "today.reply").unwrap();
    assert_eq!(ok.graph().types.len(), 2);
    // Derivation then refuses the Vec field of the payload record.
    let e = Schema::derive(&m, "today.outcome").unwrap_err();
    assert_eq!(
        z202(&e),
        (
            "SPX-Z202",
            "type.field.unsupported",
            "payloads.spx:17:5".to_owned(),
            Some(CONTAINER_HELP)
        )
    );
    // An owned record of derivable fields in a case derives.
    let m = read_module(
        "o.spx",
        "module o;\n@id(\"o.p\") record P { @id(\"o.p.s\") s: string, @id(\"o.p.b\") b: Bytes }\n@id(\"o.v\") variant V { @id(\"o.v.a\") A { @id(\"o.v.a.p\") p: P }, }",
    )
    .unwrap();
    let s = Schema::derive(&m, "o.v").unwrap();
    let ids: Vec<&str> = s
        .graph()
        .types
        .iter()
        .map(|t| t.stable_id.as_str())
        .collect();
    assert_eq!(ids, ["o.p", "o.v"]);
    // Still refused: owned values in a generic variant, nested variants.
    let errs = read_module(
        "g.spx",
        "module g;\nrecord P { s: string, }\nvariant In { A, }\nvariant G<T> { A { p: P, }, B { v: Vec<T>, }, }\nvariant M { A { i: In, }, }",
    )
    .unwrap_err();
    let got: Vec<(&str, String)> = errs
        .iter()
        .map(|d| (d.code.as_str(), d.location.to_string()))
        .collect();
    assert_eq!(
        got,
        [
            ("SPX-T215", "g.spx:4:20".to_owned()),
            ("SPX-T215", "g.spx:4:33".to_owned()),
            ("SPX-T215", "g.spx:5:17".to_owned()),
        ]
    );
}

#[test]
fn bodies_and_signatures_are_skipped_whatever_they_hold() {
    let m = read("bodies.spx");
    assert!(names(&m).is_empty());
    assert!(m.notes.is_empty());
    assert!(m.warnings.is_empty());
    // A suffixed literal beyond its type's range is still refused.
    let errs = read_module("s.spx", "module s;\nfn f() { 256u8 }").unwrap_err();
    assert_eq!(
        (
            errs[0].code.as_str(),
            errs[0].rule,
            errs[0].location.to_string()
        ),
        ("SPX-P007", "syntax.integer_range", "s.spx:2:10".to_owned())
    );
    assert_eq!(
        errs[0].message,
        "integer literal `256u8` does not fit in its type `u8`"
    );
}

#[test]
fn skipped_items_and_classes_with_bases() {
    let m = read("items.spx");
    assert_eq!(
        names(&m),
        [
            (DeclKind::Class, "Animal"),
            (DeclKind::Class, "Dog"),
            (DeclKind::Resource, "Handle"),
            (DeclKind::Record, "Receipt"),
        ]
    );
    let dog = &m.decls[1];
    assert_eq!(dog.fields.len(), 1);
    assert_eq!(dog.fields[0].stable_id, "today.dog.barks");
    let e = Schema::derive(&m, "today.dog").unwrap_err();
    assert_eq!(
        (e.rule, e.location.to_string()),
        ("type.kind", "items.spx:35:7".to_owned())
    );
    Schema::derive(&m, "today.record").unwrap();
}

#[test]
fn a_module_may_declare_result_and_import_option() {
    let m = read("result.spx");
    let own = m
        .decls
        .iter()
        .position(|d| d.name == "Result" && !d.prelude)
        .unwrap();
    let holder = m.decls.iter().find(|d| d.name == "Holder").unwrap();
    assert_eq!(holder.fields[0].ty, named("Result", Target::Decl(own)));
    assert_eq!(
        holder.fields[1].ty,
        named(
            "Option",
            Target::Alias {
                stable_id: "today.elsewhere.maybe".to_owned()
            }
        )
    );
    assert_eq!(
        m.imports,
        [Import {
            alias: "Option".to_owned(),
            stable_id: "today.elsewhere.maybe".to_owned(),
            from: "today.elsewhere".to_owned(),
            pos: Pos {
                line: 8,
                column: 1,
                start: m.imports[0].pos.start,
                end: m.imports[0].pos.start
                    + "use type @id(\"today.elsewhere.maybe\") from today.elsewhere as Option;"
                        .len() as u32,
            },
        }]
    );
    // The prelude is still there, under its ids.
    assert!(m
        .decls
        .iter()
        .any(|d| d.prelude && d.stable_id == "core.result"));
    Schema::derive(&m, "today.result").unwrap();
}

#[test]
fn unknown_items_and_characters_are_notes() {
    let m = read("unknown.spx");
    assert_eq!(names(&m), [(DeclKind::Record, "Kept")]);
    let notes: Vec<(Severity, &str, &str, String, bool)> = m
        .notes
        .iter()
        .map(|n| {
            assert!(matches!(
                n.location,
                spx_schema::Location::Source { span: Some(_), .. }
            ));
            (
                n.severity,
                n.code.as_str(),
                n.rule,
                n.location.to_string(),
                n.help.is_some(),
            )
        })
        .collect();
    let item = |at: &str| {
        (
            Severity::Note,
            "SPX-N001",
            "syntax.unknown_item",
            at.to_owned(),
            true,
        )
    };
    assert_eq!(
        notes,
        [
            item("unknown.spx:8:1"),
            item("unknown.spx:10:1"),
            item("unknown.spx:12:1"),
            (
                Severity::Note,
                "SPX-N001",
                "syntax.unknown_character",
                "unknown.spx:17:17".to_owned(),
                true
            ),
        ]
    );
    assert_eq!(
        m.notes[0].message,
        "skipped an item the reader does not know, starting with `const`"
    );
    // The note on an item covers all of it.
    let text = std::fs::read_to_string(dir().join("unknown.spx")).unwrap();
    let spx_schema::Location::Source { span: Some(s), .. } = &m.notes[1].location else {
        unreachable!()
    };
    assert_eq!(
        &text[s.start..s.end],
        "test \"a future item\" { assert(1 == 1); }"
    );
}

#[test]
fn inside_the_declarations_a_schema_needs_the_reader_stays_strict() {
    for (text, code, at) in [
        // A missing comma is located just after the field (issue 13).
        ("module m;\nrecord R { x: i64 | }", "SPX-P002", "2:18"),
        ("module m;\nrecord R { x: Vec<i64 }", "SPX-P002", "2:23"),
        ("module m;\nrecord R { # }", "SPX-P001", "2:12"),
        ("module m;\nclass C : { }", "SPX-P002", "2:11"),
        (
            "module m;\nclass C { const X: i64 = 1; }",
            "SPX-P002",
            "2:11",
        ),
        // (just after the case, where its comma goes)
        ("module m;\nvariant V { A | B, }", "SPX-P002", "2:14"),
        ("module m;\nresource H { ", "SPX-P003", "2:12"),
        (
            "module m;\n@derive(\"x\") fn f() {}\n@id(\"r\") @test record R {}",
            "SPX-P102",
            "3:11",
        ),
        ("module m;\nrecord R {}\n}", "SPX-P003", "3:1"),
    ] {
        let errs = read_module("m.spx", text).expect_err(text);
        assert_eq!(
            (errs[0].code.as_str(), errs[0].location.to_string()),
            (code, format!("m.spx:{at}")),
            "{text}"
        );
    }
    // An unknown attribute on a skipped item is skipped with it.
    let m = read_module(
        "m.spx",
        "module m;\n@derive(\"x\") fn f() {}\n@test fn g() {}",
    )
    .unwrap();
    assert_eq!(m.notes.len(), 2);
}

/// Reads every `.spx` file under `$SPX_SEMAPRAX_CORPUS` (a checkout of
/// the semaprax repository) and prints the ones refused; fails on none,
/// since the corpus holds templates and fragments that are not modules.
#[test]
#[ignore = "needs SPX_SEMAPRAX_CORPUS=<a semaprax checkout>"]
fn the_semaprax_corpus_reads() {
    let root = PathBuf::from(
        std::env::var_os("SPX_SEMAPRAX_CORPUS").expect("set SPX_SEMAPRAX_CORPUS to a directory"),
    );
    let mut stack = vec![root.clone()];
    let (mut read_ok, mut refused) = (0, Vec::new());
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "spx") {
                let shown = p.strip_prefix(&root).unwrap().display().to_string();
                let text = String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into_owned();
                match read_module(&shown, &text) {
                    Ok(_) => read_ok += 1,
                    Err(e) => refused.push(format!("{shown}: {}", e[0])),
                }
            }
        }
    }
    refused.sort();
    println!("read {read_ok}, refused {}", refused.len());
    for r in &refused {
        println!("{r}");
    }
    assert!(read_ok > 0, "no .spx file under {}", root.display());
}
