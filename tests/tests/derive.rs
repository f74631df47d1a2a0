//! Engine-level tests of derivation and rendering (issue 2): golden schema
//! documents, independently recomputed digests, every SPX-Z202 rule, Z203,
//! Z204, every declaration check, display renames versus structural
//! changes, and the source-binding race.
//!
//! `SPX_BLESS=1 cargo test -p spx-tests --test derive` rewrites the golden
//! files under `tests/golden/schema/`; review the diff by hand.

use sha2::{Digest, Sha256};
use spx_schema::binding;
use spx_schema::source::{
    read_module, Builtin, CaseDecl, DeclKind, FieldDecl, Module, Pos, Target, TypeDecl, TypeExpr,
};
use spx_schema::{Diagnostic, Location, Schema};
use std::path::{Path, PathBuf};

// ---------------------------------------------------------------- helpers

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fixture(name: &str) -> String {
    let p = manifest().join("fixtures/spx").join(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn read(text: &str) -> Module {
    read_module("m.spx", text).unwrap_or_else(|e| panic!("read failed: {e:#?}"))
}

fn derive(text: &str, root: &str) -> Result<Schema, Diagnostic> {
    Schema::derive(&read(text), root)
}

fn derive_ok(text: &str, root: &str) -> Schema {
    derive(text, root).unwrap_or_else(|e| panic!("derive failed: {e:#?}"))
}

/// Asserts a Z202 refusal with exactly this rule and the FORMAT.md message.
#[track_caller]
fn assert_z202(result: Result<Schema, Diagnostic>, rule: &str) {
    let e = result.expect_err("expected SPX-Z202");
    assert_eq!(e.code.as_str(), "SPX-Z202", "{e:?}");
    assert_eq!(e.rule, rule, "{e:?}");
    assert_eq!(
        e.message,
        format!("AgentInteractionSchema invariant failed: {rule}")
    );
}

fn sha256_hex(parts: &[&[u8]]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p);
    }
    let mut s = String::from("sha256:");
    for b in h.finalize() {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

const REVISION_DOMAIN: &[u8] = b"semaprax.agent-interaction-schema.type-revision.v1\0";
const DIGEST_DOMAIN: &[u8] = b"semaprax.agent-interaction-schema.digest.v1\0";

const WIRE_AND_NONCLAIMS: &str = ",\"wire\":{\"closed_objects\":true,\"key_order\":\"declaration_order\",\"exact_integer_encoding\":\"decimal_string\",\"bytes_encoding\":\"byte_array_u8\",\"max_document_bytes\":65536,\"max_string_field_bytes\":4096,\"max_bytes_field_bytes\":4096,\"max_types\":64,\"max_depth\":16},\"nonclaims\":[\"no_authorization_value_or_publication_token_from_a_decoded_value\",\"no_capability_grant_effect_or_host_authority\",\"no_trust_in_untrusted_bytes_without_decoder_validation\",\"no_arbitrary_recursion_resource_borrowed_or_callback_values\",\"no_floating_point_or_lossy_numeric_transport\",\"no_public_abi_promotion_in_this_slice\",\"provider_presentation_projections_never_broaden_runtime_admission\",\"decoding_never_reads_a_provider_presentation_projection\"]}\n";

/// Recomputes `root_type_revision` and the digest from the rendered bytes,
/// with the domains written out here, and checks the document's frame.
fn check_digests(s: &Schema) {
    assert_eq!(REVISION_DOMAIN.len(), 51);
    assert_eq!(DIGEST_DOMAIN.len(), 44);
    let doc = s.document();
    let head = "{\"schema\":\"semaprax.agent-interaction-schema.v1\",\"root_type_id\":";
    assert!(doc.starts_with(head), "{doc}");
    assert!(doc.ends_with(WIRE_AND_NONCLAIMS), "{doc}");
    assert_eq!(doc.matches('\n').count(), 1, "exactly one LF, at the end");
    let rev_key = ",\"root_type_revision\":\"";
    let at = doc.find(rev_key).unwrap();
    let quoted_root = &doc[head.len()..at];
    let rev_start = at + rev_key.len();
    let revision = &doc[rev_start..rev_start + 71];
    let types_key = "\",\"types\":";
    assert_eq!(
        &doc[rev_start + 71..rev_start + 71 + types_key.len()],
        types_key
    );
    let types = &doc[rev_start + 71 + types_key.len()..doc.len() - WIRE_AND_NONCLAIMS.len()];
    assert!(types.starts_with('[') && types.ends_with(']'));
    let body = format!("{{\"root_type_id\":{quoted_root},\"types\":{types}}}");
    let want_rev = sha256_hex(&[REVISION_DOMAIN, body.as_bytes()]);
    assert_eq!(revision, want_rev);
    assert_eq!(s.revision(), want_rev);
    assert_eq!(s.digest(), sha256_hex(&[DIGEST_DOMAIN, doc.as_bytes()]));
    // And it is JSON whose root id is the root.
    let v: serde_json::Value = serde_json::from_str(doc).unwrap();
    assert_eq!(v["root_type_id"].as_str(), Some(s.root_type_id()));
}

fn golden(name: &str, schema: &Schema) {
    check_digests(schema);
    let path = manifest()
        .join("golden/schema")
        .join(format!("{name}.schema.json"));
    if std::env::var_os("SPX_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, schema.document()).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (run with SPX_BLESS=1 to create it)",
            path.display()
        )
    });
    assert_eq!(
        schema.document(),
        want,
        "{} differs (SPX_BLESS=1 rewrites it; review the diff)",
        path.display()
    );
    // The golden reads back as exactly itself.
    let back = Schema::parse_document(want.as_bytes()).unwrap();
    assert_eq!(back.digest(), schema.digest());
    assert_eq!(back.revision(), schema.revision());
}

/// The errors of reading `text`, as (code, rule, "line:col").
fn decl_errors(text: &str) -> Vec<(String, &'static str, String)> {
    let errs = read_module("d.spx", text).expect_err("expected declaration errors");
    errs.iter()
        .map(|e| match &e.location {
            Location::Source {
                path, line, column, ..
            } => {
                assert_eq!(path, "d.spx");
                (e.code.to_string(), e.rule, format!("{line}:{column}"))
            }
            other => panic!("{other:?}"),
        })
        .collect()
}

fn e(code: &str, rule: &'static str, at: &str) -> (String, &'static str, String) {
    (code.to_owned(), rule, at.to_owned())
}

// ---------------------------------------------------------------- goldens

#[test]
fn golden_every_scalar_in_records_and_variants() {
    let s = derive_ok(&fixture("scalars.spx"), "sc.root");
    let ids: Vec<&str> = s
        .graph()
        .types
        .iter()
        .map(|t| t.stable_id.as_str())
        .collect();
    assert_eq!(ids, vec!["sc.record", "sc.variant", "sc.root"]);
    golden("scalars", &s);
    // The record alone and the variant alone as roots.
    golden(
        "scalars_record",
        &derive_ok(&fixture("scalars.spx"), "sc.record"),
    );
    golden(
        "scalars_variant",
        &derive_ok(&fixture("scalars.spx"), "sc.variant"),
    );
}

#[test]
fn golden_diamond_shares_its_node() {
    let s = derive_ok(&fixture("diamond.spx"), "dia.top");
    let ids: Vec<&str> = s
        .graph()
        .types
        .iter()
        .map(|t| t.stable_id.as_str())
        .collect();
    // Post-order, the shared node once, first.
    assert_eq!(ids, vec!["dia.bottom", "dia.left", "dia.right", "dia.top"]);
    assert_eq!(
        s.document()
            .matches("{\"stable_id\":\"dia.bottom\",\"kind\"")
            .count(),
        1
    );
    assert_eq!(
        s.document()
            .matches("{\"kind\":\"nested\",\"stable_id\":\"dia.bottom\"}")
            .count(),
        3
    );
    golden("diamond", &s);
}

#[test]
fn golden_variants_with_and_without_payloads() {
    let s = derive_ok(&fixture("agent_desk.spx"), "desk.proposal");
    let ids: Vec<&str> = s
        .graph()
        .types
        .iter()
        .map(|t| t.stable_id.as_str())
        .collect();
    assert_eq!(ids, vec!["desk.ticket_ref", "desk.proposal"]);
    golden("desk_proposal", &s);
    let s = derive_ok(&fixture("agent_desk.spx"), "desk.reply");
    golden("desk_reply", &s);
}

/// The escapes golden, verified byte by byte: the expected document is
/// written out here by hand from FORMAT.md §2 and §5.
#[test]
fn golden_escapes_verified_by_hand() {
    let s = derive_ok(
        &fixture("escapes.spx"),
        "q\"b\\t\tn\nr\rx\u{85}y\u{7f}z\u{1}é/✓",
    );
    // FORMAT.md §2: `"`→\" `\`→\\ TAB→\t LF→\n CR→\r, U+0085→\u0085,
    // U+007F→\u007f, U+0001→\u0001 (lowercase hex), é ✓ and / literally.
    let q = r#""q\"b\\t\tn\nr\rx\u0085y\u007fz\u0001é/✓""#;
    let types = format!(
        "[{{\"stable_id\":{q},\"kind\":\"record\",\"fields\":[{{\"stable_id\":\"odd.flag\",\"type\":{{\"kind\":\"scalar\",\"representation\":\"bool\"}}}}]}}]"
    );
    let body = format!("{{\"root_type_id\":{q},\"types\":{types}}}");
    let revision = sha256_hex(&[REVISION_DOMAIN, body.as_bytes()]);
    let doc = format!(
        "{{\"schema\":\"semaprax.agent-interaction-schema.v1\",\"root_type_id\":{q},\"root_type_revision\":\"{revision}\",\"types\":{types}{WIRE_AND_NONCLAIMS}"
    );
    assert_eq!(s.document(), doc);
    assert_eq!(s.revision(), revision);
    assert_eq!(s.digest(), sha256_hex(&[DIGEST_DOMAIN, doc.as_bytes()]));
    // The raw bytes around the escapes, to be explicit about UTF-8:
    let i = doc.find("x\\u0085y").unwrap();
    assert_eq!(
        &doc.as_bytes()[i..i + 28],
        b"x\\u0085y\\u007fz\\u0001\xc3\xa9/\xe2\x9c\x93\""
    );
    golden("escapes", &s);
}

// ---------------------------------------------------------------- Z202

/// A module built by hand, for rules the reader's checks make unreachable.
fn hand_module(decls: Vec<TypeDecl>) -> Module {
    Module {
        path: "hand.spx".to_owned(),
        name: "hand".to_owned(),
        name_pos: Pos::default(),
        decls,
        imports: Vec::new(),
        warnings: Vec::new(),
        notes: Vec::new(),
        docs: Default::default(),
    }
}

fn hand_field(id: &str, ty: TypeExpr) -> FieldDecl {
    FieldDecl {
        name: id.to_owned(),
        stable_id: id.to_owned(),
        persistent: true,
        ty,
        pos: Pos::default(),
        ty_pos: Pos::default(),
    }
}

fn hand_record(id: &str, fields: Vec<FieldDecl>) -> TypeDecl {
    TypeDecl {
        kind: DeclKind::Record,
        name: id.to_owned(),
        stable_id: id.to_owned(),
        persistent: true,
        params: Vec::new(),
        fields,
        cases: Vec::new(),
        prelude: false,
        pos: Pos::default(),
    }
}

fn to(i: usize) -> TypeExpr {
    TypeExpr::Named {
        name: format!("T{i}"),
        args: Vec::new(),
        target: Target::Decl(i),
    }
}

#[test]
fn z202_type_recursive_on_a_hand_built_module() {
    // a -> b -> a (unreachable from source: SPX-T217 refuses it first).
    let m = hand_module(vec![
        hand_record("a", vec![hand_field("a.b", to(1))]),
        hand_record("b", vec![hand_field("b.a", to(0))]),
    ]);
    assert_z202(Schema::derive(&m, "a"), "type.recursive");
    // Directly on itself.
    let m = hand_module(vec![hand_record("a", vec![hand_field("a.a", to(0))])]);
    assert_z202(Schema::derive(&m, "a"), "type.recursive");
    // And from source the reader refuses it.
    assert_eq!(
        decl_errors("module m;\n@id(\"a\") record A { @id(\"a.a\") a: A, }"),
        vec![e("SPX-T217", "decl.recursive_record", "2:17")]
    );
}

#[test]
fn z202_type_cases_on_a_hand_built_module() {
    let mut v = hand_record("v", Vec::new());
    v.kind = DeclKind::Variant;
    assert_z202(Schema::derive(&hand_module(vec![v]), "v"), "type.cases");
    // From source, an empty variant is SPX-T215.
    assert_eq!(
        decl_errors("module m;\n@id(\"v\") variant V { }"),
        vec![e("SPX-T215", "decl.empty_variant", "2:18")]
    );
}

#[test]
fn z202_unsupported_param_and_fn_fields_on_a_hand_built_module() {
    let param = TypeExpr::Named {
        name: "T".to_owned(),
        args: Vec::new(),
        target: Target::Param,
    };
    let m = hand_module(vec![hand_record("r", vec![hand_field("r.t", param)])]);
    assert_z202(Schema::derive(&m, "r"), "type.field.unsupported");
    let f = TypeExpr::Fn {
        params: vec![TypeExpr::Builtin(Builtin::I64)],
        ret: None,
    };
    let m = hand_module(vec![hand_record("r", vec![hand_field("r.f", f)])]);
    assert_z202(Schema::derive(&m, "r"), "type.field.unsupported");
}

fn chain(n: usize) -> String {
    // R0 -> R1 -> ... -> R{n-1}; R{n-1} holds an i64.
    let mut s = String::from("module m;\n");
    for i in 0..n {
        let ty = if i + 1 == n {
            "i64".to_owned()
        } else {
            format!("R{}", i + 1)
        };
        s.push_str(&format!(
            "@id(\"r{i}\") record R{i} {{ @id(\"r{i}.f\") f: {ty}, }}\n"
        ));
    }
    s
}

#[test]
fn z202_type_max_depth() {
    // 17 types: the deepest is at depth 16, admitted.
    let s = derive_ok(&chain(17), "r0");
    assert_eq!(s.graph().types.len(), 17);
    check_digests(&s);
    // 18 types: depth 17 is refused.
    assert_z202(derive(&chain(18), "r0"), "type.max_depth");
}

fn fan(leaves: usize) -> String {
    let mut s = String::from("module m;\n");
    let mut root = String::from("@id(\"root\") record Root {\n");
    for i in 0..leaves {
        s.push_str(&format!(
            "@id(\"l{i}\") record L{i} {{ @id(\"l{i}.f\") f: bool, }}\n"
        ));
        root.push_str(&format!("@id(\"root.l{i}\") l{i}: L{i},\n"));
    }
    root.push_str("}\n");
    s + &root
}

#[test]
fn z202_type_max_types() {
    // 63 leaves + root = 64 types: admitted.
    let s = derive_ok(&fan(63), "root");
    assert_eq!(s.graph().types.len(), 64);
    // 65 leaves: the 65th is visited with 64 types already output (step 4).
    assert_z202(derive(&fan(65), "root"), "type.max_types");
    // (beyond) 64 leaves + root: step 4 never fires (the root was visited
    // first), but the output would hold 65 types: refused after derivation.
    assert_z202(derive(&fan(64), "root"), "type.max_types");
}

#[test]
fn z202_type_unresolved() {
    let m = "module m;\nuse type @id(\"other.t\") from other as Other;\n@id(\"r\") record R { @id(\"r.o\") o: Other, }\n";
    assert_z202(derive(m, "r"), "type.unresolved");
    assert_z202(derive(m, "no.such.root"), "type.unresolved");
    assert_z202(derive(m, "other.t"), "type.unresolved");
}

#[test]
fn z202_type_generic() {
    let m = "module m;\n@id(\"g\") record G<T> { @id(\"g.t\") t: T, }\n";
    assert_z202(derive(m, "g"), "type.generic");
    // The prelude variants are generic too.
    assert_z202(derive(m, "core.option"), "type.generic");
    assert_z202(derive(m, "core.result"), "type.generic");
}

#[test]
fn z202_type_identity_origin() {
    // Nested type without @id.
    let m = "module m;\nrecord Inner { @id(\"i.x\") x: i64, }\n@id(\"o\") record Outer { @id(\"o.i\") i: Inner, }\n";
    assert_z202(derive(m, "o"), "type.identity_origin");
    // A root named by its automatic identity.
    assert_z202(derive(m, "auto:record:m.Inner"), "type.identity_origin");
}

#[test]
fn z202_type_case_identity_origin() {
    let m = "module m;\n@id(\"v\") variant V { @id(\"v.a\") A, B, }\n";
    assert_z202(derive(m, "v"), "type.case.identity_origin");
}

#[test]
fn z202_type_kind() {
    let m = "module m;\n@id(\"c\") class C { @id(\"c.x\") x: i64, fn get(self: C) -> i64 { self.x } }\n@id(\"h\") resource H;\n@id(\"r\") record R { @id(\"r.c\") c: C, }\n@id(\"s\") record S { @id(\"s.h\") h: H, }\n";
    assert_z202(derive(m, "c"), "type.kind");
    assert_z202(derive(m, "h"), "type.kind");
    assert_z202(derive(m, "r"), "type.kind");
    assert_z202(derive(m, "s"), "type.kind");
}

#[test]
fn z202_type_field_identity_origin() {
    // Checked before the field's type (f64 would be unsupported).
    let m = "module m;\n@id(\"r\") record R { @id(\"r.a\") a: i64, b: f64, }\n@id(\"v\") variant V { @id(\"v.a\") A { x: i64, }, }\n";
    assert_z202(derive(m, "r"), "type.field.identity_origin");
    assert_z202(derive(m, "v"), "type.field.identity_origin");
}

#[test]
fn z202_type_field_generic_argument() {
    for ty in ["Option<i64>", "Result<i64, bool>", "Option<string>"] {
        let m = format!("module m;\n@id(\"r\") record R {{ @id(\"r.o\") o: {ty}, }}\n");
        assert_z202(derive(&m, "r"), "type.field.generic_argument");
    }
    // A `use type` alias with arguments.
    let m = "module m;\nuse type @id(\"x\") from o as X;\n@id(\"r\") record R { @id(\"r.o\") o: X<i64>, }\n";
    assert_z202(derive(m, "r"), "type.field.generic_argument");
}

#[test]
fn z202_type_field_unsupported() {
    for ty in ["f32", "f64", "char", "str", "[u8; 4]", "Slice<u8>"] {
        let m = format!("module m;\n@id(\"r\") record R {{ @id(\"r.x\") x: {ty}, }}\n");
        assert_z202(derive(&m, "r"), "type.field.unsupported");
        let m = format!(
            "module m;\n@id(\"v\") variant V {{ @id(\"v.a\") A {{ @id(\"v.a.x\") x: {ty}, }}, }}\n"
        );
        if ty == "f32" || ty == "f64" || ty == "char" {
            assert_z202(derive(&m, "v"), "type.field.unsupported");
        }
    }
}

#[test]
fn z202_rules_apply_in_the_specified_order() {
    // A root that is both generic and automatic: step 6 (generic) first.
    let m = "module m;\nrecord G<T> { t: T, }\n";
    assert_z202(derive(m, "auto:record:m.G"), "type.generic");
    // Fields in declaration order: the first bad field decides.
    let m = "module m;\n@id(\"r\") record R { @id(\"r.a\") a: f64, b: i64, }\n";
    assert_z202(derive(m, "r"), "type.field.unsupported");
    let m = "module m;\n@id(\"r\") record R { b: i64, @id(\"r.a\") a: f64, }\n";
    assert_z202(derive(m, "r"), "type.field.identity_origin");
    // Case identity before the case's fields.
    let m = "module m;\n@id(\"v\") variant V { A { x: f64, }, }\n";
    assert_z202(derive(m, "v"), "type.case.identity_origin");
}

// ---------------------------------------------------------------- Z203, Z204

fn long_id_module(len: usize) -> String {
    format!(
        "module m;\n@id(\"r\") record R {{ @id(\"{}\") x: bool, }}\n",
        "x".repeat(len)
    )
}

#[test]
fn z203_schema_bytes_exact_boundary() {
    let base = derive_ok(&long_id_module(1), "r").document().len();
    let max = 262_144;
    let fits = derive_ok(&long_id_module(1 + max - base), "r");
    assert_eq!(fits.document().len(), max);
    check_digests(&fits);
    let err = derive(&long_id_module(2 + max - base), "r").unwrap_err();
    assert_eq!(err.code.as_str(), "SPX-Z203");
    assert_eq!(err.rule, "schema_bytes");
}

struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let p = std::env::temp_dir().join(format!(
            "spx-tests-derive-{tag}-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
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

#[test]
fn z204_bundle_verification() {
    let dir = TempDir::new("z204");
    let src = dir.path().join("desk.spx");
    std::fs::write(&src, fixture("agent_desk.spx")).unwrap();
    let good = binding::compile_file(&src, "desk.spx", "desk.reply").unwrap();
    let doc = good.document().as_bytes().to_vec();
    // The exact replay is admitted.
    let v = binding::verify_bundle(&src, "desk.spx", "desk.reply", &doc).unwrap();
    assert_eq!(v.digest(), good.digest());
    let z204 = |d: &[u8]| {
        let errs = binding::verify_bundle(&src, "desk.spx", "desk.reply", d).unwrap_err();
        assert_eq!(errs.len(), 1);
        let e = &errs[0];
        assert_eq!(e.code.as_str(), "SPX-Z204");
        assert_eq!(
            e.message,
            "AgentInteractionSchema is not the exact replay of its verified source"
        );
        e.rule
    };
    // One byte changed, the LF missing, an extra space, another root.
    let mut tampered = doc.clone();
    tampered[60] ^= 1;
    assert_eq!(z204(&tampered), "schema.replay");
    assert_eq!(z204(&doc[..doc.len() - 1]), "schema.replay");
    let mut spaced = doc.clone();
    spaced.insert(1, b' ');
    assert_eq!(z204(&spaced), "schema.replay");
    let other = binding::compile_file(&src, "desk.spx", "desk.proposal").unwrap();
    assert_eq!(z204(other.document().as_bytes()), "schema.replay");
    // Over 262144 bytes: refused before any derivation.
    let mut huge = doc.clone();
    huge.resize(262_145, b' ');
    assert_eq!(z204(&huge), "schema_bytes");
}

// ---------------------------------------------------------------- declaration checks

#[test]
fn check_duplicate_stable_ids() {
    // type/type, field/type, case/field, across kinds; reported at the later name.
    assert_eq!(
        decl_errors(
            "module m;\n@id(\"a\") record A { @id(\"a\") x: i64, }\n@id(\"v\") variant V { @id(\"a.y\") C, }\n@id(\"w\") record W { @id(\"a.y\") y: i64, }"
        ),
        vec![
            e("SPX-S102", "decl.duplicate_id", "2:30"),
            e("SPX-S102", "decl.duplicate_id", "4:32"),
        ]
    );
    // Against the prelude's compiler-owned ids.
    assert_eq!(
        decl_errors(
            "module m;\n@id(\"core.option.some.value\") record A { @id(\"core.result\") x: i64, }"
        ),
        vec![
            e("SPX-S102", "decl.duplicate_id", "2:38"),
            e("SPX-S102", "decl.duplicate_id", "2:61"),
        ]
    );
    // An explicit id equal to an automatic one.
    assert_eq!(
        decl_errors("module m;\nrecord B { }\n@id(\"auto:record:m.B\") record A { }"),
        vec![e("SPX-S102", "decl.duplicate_id", "3:31")]
    );
    let errs = read_module(
        "d.spx",
        "module m;\n@id(\"a\") record A { @id(\"a\") x: i64, }",
    )
    .unwrap_err();
    assert!(
        errs[0].message.contains("already declared at 2:17"),
        "{}",
        errs[0].message
    );
}

#[test]
fn check_nul_in_stable_id() {
    assert_eq!(
        decl_errors("module m;\n@id(\"a\0b\") record A { @id(\"f\") f: i64, }"),
        vec![e("SPX-S102", "decl.id_nul", "2:19")]
    );
}

#[test]
fn check_duplicate_type_names() {
    assert_eq!(
        decl_errors("module m;\nrecord A { }\n\nvariant A { X, }\nclass A { }"),
        vec![
            e("SPX-S107", "decl.duplicate_name", "4:9"),
            e("SPX-S107", "decl.duplicate_name", "5:7"),
        ]
    );
    // A `use type` alias and a type with one name.
    assert_eq!(
        decl_errors("module m;\nuse type @id(\"x\") from q as A;\nrecord A { }"),
        vec![e("SPX-S107", "decl.duplicate_name", "2:1")]
    );
}

#[test]
fn check_reserved_names() {
    assert_eq!(
        // (Today's language lets a module declare `Option` and `Result`:
        // see `option_and_result_may_be_declared_and_imported`.)
        decl_errors(
            "module m;\nrecord Vec { }\nvariant u32 { A, }\nrecord i64 { }\nrecord Slice { }"
        ),
        vec![
            e("SPX-S113", "decl.reserved_name", "2:8"),
            e("SPX-S113", "decl.reserved_name", "3:9"),
            e("SPX-S113", "decl.reserved_name", "4:8"),
            e("SPX-S113", "decl.reserved_name", "5:8"),
        ]
    );
}

#[test]
fn check_duplicate_members() {
    assert_eq!(
        decl_errors("module m;\n@id(\"r\") record R<T, T> { @id(\"r.a\") a: i64, @id(\"r.b\") a: i64, }\n@id(\"v\") variant V { @id(\"v.a\") A, @id(\"v.b\") A, }"),
        vec![
            e("SPX-S108", "decl.duplicate_member", "2:22"),
            e("SPX-S108", "decl.duplicate_member", "2:57"),
            e("SPX-S108", "decl.duplicate_member", "3:47"),
        ]
    );
}

#[test]
fn check_unknown_type_names() {
    assert_eq!(
        decl_errors("module m;\nuse function @id(\"f\") from q as f;\nrecord R {\n  a: Missing,\n  b: Option<Nope>,\n  c: f,\n}"),
        vec![
            e("SPX-S110", "decl.unknown_type", "4:6"),
            e("SPX-S110", "decl.unknown_type", "5:13"),
            e("SPX-S110", "decl.unknown_type", "6:6"),
        ]
    );
    let errs = read_module("d.spx", "module m;\nrecord R { a: Missing, }").unwrap_err();
    assert!(errs[0].message.contains("`Missing`"));
}

#[test]
fn check_type_arguments() {
    assert_eq!(
        decl_errors("module m;\nrecord G<T> { t: T, }\nrecord R {\n  a: i64<u8>,\n  b: Option,\n  c: Option<i64, bool>,\n  d: Slice<u8, u8>,\n  e: G,\n  f: Option<G>,\n}\nrecord H<T> { t: T<i64>, }"),
        vec![
            e("SPX-S111", "decl.builtin_arguments", "4:6"),
            e("SPX-S112", "decl.type_arity", "5:6"),
            e("SPX-S112", "decl.type_arity", "6:6"),
            e("SPX-S112", "decl.type_arity", "7:6"),
            e("SPX-S112", "decl.type_arity", "8:6"),
            e("SPX-S112", "decl.type_arity", "9:13"),
            e("SPX-S112", "decl.type_arity", "11:18"),
        ]
    );
}

#[test]
fn check_record_containing_itself() {
    assert_eq!(
        decl_errors("module m;\nrecord A { b: B, }\nrecord B { c: C, }\nrecord C { a: [A; 2], }\nrecord D { a: A, }\nrecord E { e: E, }"),
        vec![
            e("SPX-T217", "decl.recursive_record", "2:8"),
            e("SPX-T217", "decl.recursive_record", "3:8"),
            e("SPX-T217", "decl.recursive_record", "4:8"),
            e("SPX-T217", "decl.recursive_record", "6:8"),
        ]
    );
    let errs =
        read_module("d.spx", "module m;\nrecord A { b: B, }\nrecord B { a: A, }").unwrap_err();
    assert!(
        errs[0].message.contains("(A -> B -> A)"),
        "{}",
        errs[0].message
    );
}

#[test]
fn check_copy_variants() {
    // Admitted: Copy scalars, the variant's parameters, Copy-only records
    // (recursively), and string/Bytes in a monomorphic variant.
    read(
        "module m;\nrecord P { x: i64, y: Q, }\nrecord Q { z: u8, c: char, f: f32, d: f64, u: usize, b: bool, i: i32, }\n\
         variant V<T> { A { t: T, p: P, }, B, }\nvariant W { A { s: string, }, B { b: Bytes, n: i64, }, }",
    );
    assert_eq!(
        decl_errors(
            "module m;\nrecord Owns { s: string, }\nrecord Deep { o: Owns, }\nrecord G<T> { t: T, }\nvariant Inner { A, }\n\
             variant V<T> {\n  A { s: string, },\n  B { o: Owns, },\n  C { d: Deep, },\n  D { i: Inner, },\n  E { g: G<i64>, },\n  F { o: Option<i64>, },\n  H { a: [u8; 2], },\n  I { s: str, },\n}\n\
             variant M { A { s: string, }, B { o: Owns, }, }"
        ),
        vec![
            e("SPX-T215", "decl.copy_variant_payload", "7:7"),
            e("SPX-T215", "decl.copy_variant_payload", "8:7"),
            e("SPX-T215", "decl.copy_variant_payload", "9:7"),
            e("SPX-T215", "decl.copy_variant_payload", "10:7"),
            e("SPX-T215", "decl.copy_variant_payload", "11:7"),
            e("SPX-T215", "decl.copy_variant_payload", "12:7"),
            e("SPX-T215", "decl.copy_variant_payload", "13:7"),
            e("SPX-T215", "decl.copy_variant_payload", "14:7"),
            // (`M`'s `B { o: Owns, }` at 16:35: an owned record in a
            // monomorphic variant is admitted in today's language.)
        ]
    );
    assert_eq!(
        decl_errors("module m;\nvariant Empty { }"),
        vec![e("SPX-T215", "decl.empty_variant", "2:9")]
    );
}

#[test]
fn check_generic_records() {
    assert_eq!(
        decl_errors(
            "module m;\nrecord G<T> {\n  a: i64,\n  b: bool,\n  c: T,\n  d: string,\n  e: i32,\n  f: Option<T>,\n}\n\
             record R {\n  g: G<i64>,\n  o: Option<G<bool>>,\n  ok: Option<i64>,\n}"
        ),
        vec![
            e("SPX-T223", "decl.generic_record_field", "6:3"),
            e("SPX-T223", "decl.generic_record_field", "7:3"),
            e("SPX-T223", "decl.generic_record_field", "8:3"),
            e("SPX-T223", "decl.generic_record_instance", "11:3"),
            e("SPX-T223", "decl.generic_record_instance", "12:3"),
        ]
    );
}

#[test]
fn check_function_fields() {
    assert_eq!(
        decl_errors(
            "module m;\nrecord R { f: fn(i64) -> i64, }\nclass C { g: fn(), }\nvariant V { A { h: fn() -> bool, }, }\nrecord G<T> { k: Option<fn(T)>, }"
        ),
        vec![
            e("SPX-T287", "decl.function_field", "2:12"),
            e("SPX-T287", "decl.function_field", "3:11"),
            e("SPX-T287", "decl.function_field", "4:17"),
            e("SPX-T287", "decl.function_field", "5:15"),
        ]
    );
}

#[test]
fn every_declaration_error_is_reported_at_once() {
    let errs = decl_errors(
        "module m;\nrecord Slice { }\nrecord A { x: Nope, }\nrecord A { }\nrecord S { s: S, }\nvariant E { }\nrecord F { f: fn(), }",
    );
    assert_eq!(
        errs,
        vec![
            e("SPX-S113", "decl.reserved_name", "2:8"),
            e("SPX-S110", "decl.unknown_type", "3:15"),
            e("SPX-S107", "decl.duplicate_name", "4:8"),
            e("SPX-T217", "decl.recursive_record", "5:8"),
            e("SPX-T215", "decl.empty_variant", "6:9"),
            e("SPX-T287", "decl.function_field", "7:12"),
        ]
    );
}

// ---------------------------------------------------------------- identity

const BASE: &str = "module shop.orders;\n\
@id(\"shop.item\") record Item { @id(\"shop.item.sku\") sku: i64, @id(\"shop.item.qty\") qty: u8, }\n\
@id(\"shop.item2\") record Item2 { @id(\"shop.item2.sku\") sku: i64, @id(\"shop.item2.qty\") qty: u8, }\n\
@id(\"shop.state\") variant State { @id(\"shop.state.open\") Open, @id(\"shop.state.paid\") Paid { @id(\"shop.state.paid.cents\") cents: i64, }, }\n\
@id(\"shop.order\") record Order { @id(\"shop.order.item\") item: Item, @id(\"shop.order.state\") state: State, @id(\"shop.order.note\") note: string, }\n";

fn identity_of(text: &str) -> (String, String) {
    let s = derive_ok(text, "shop.order");
    check_digests(&s);
    (s.revision().to_owned(), s.digest().to_owned())
}

#[test]
fn display_rename_keeps_revision_and_digest() {
    let base = identity_of(BASE);
    let renamed = BASE
        .replace("module shop.orders;", "module retail.purchases;")
        .replace("record Item ", "record Article ")
        .replace("item: Item,", "article: Article,")
        .replace("variant State", "variant Status")
        .replace("state: State,", "status: Status,")
        .replace("Open,", "Pending,")
        .replace("Paid {", "Settled {")
        .replace("cents: i64", "amount: i64")
        .replace("record Order", "record Purchase")
        .replace("note: string", "remark: string")
        .replace(
            "sku: i64, @id(\"shop.item.qty\") qty: u8, }\n@id(\"shop.item2\")",
            "code: i64, @id(\"shop.item.qty\") count: u8, }\n@id(\"shop.item2\")",
        );
    assert_ne!(renamed, BASE);
    assert_eq!(identity_of(&renamed), base);
    // Whitespace, comments and other items do not matter either.
    let noisy = format!(
        "// header\n{}\nfn f() -> i64 {{ 1 }}\n",
        BASE.replace("; ", ";\n  ")
    );
    assert_eq!(identity_of(&noisy), base);
}

#[test]
fn structural_changes_change_revision_and_digest() {
    let base = identity_of(BASE);
    let changes: Vec<(&str, String)> = vec![
        (
            "field added",
            BASE.replace(
                "note: string, }",
                "note: string, @id(\"shop.order.gift\") gift: bool, }",
            ),
        ),
        (
            "field removed",
            BASE.replace(" @id(\"shop.order.note\") note: string,", ""),
        ),
        (
            "representation changed",
            BASE.replace(
                "qty: u8, }\n@id(\"shop.item2\")",
                "qty: i32, }\n@id(\"shop.item2\")",
            ),
        ),
        (
            "case added",
            BASE.replace("Open, @id", "Open, @id(\"shop.state.void\") Void, @id"),
        ),
        (
            "case id changed",
            BASE.replace("\"shop.state.open\"", "\"shop.state.opened\""),
        ),
        (
            "case payload changed",
            BASE.replace("cents: i64", "cents: i32"),
        ),
        (
            "fields reordered",
            BASE.replace(
                "@id(\"shop.order.item\") item: Item, @id(\"shop.order.state\") state: State,",
                "@id(\"shop.order.state\") state: State, @id(\"shop.order.item\") item: Item,",
            ),
        ),
        (
            "nested reference changed",
            BASE.replace("item: Item,", "item: Item2,"),
        ),
        (
            "field id changed",
            BASE.replace("\"shop.order.note\"", "\"shop.order.memo\""),
        ),
    ];
    for (what, text) in changes {
        assert_ne!(text, BASE, "{what}: the edit did not apply");
        let (rev, dig) = identity_of(&text);
        assert_ne!(rev, base.0, "{what}: revision unchanged");
        assert_ne!(dig, base.1, "{what}: digest unchanged");
    }
}

// ---------------------------------------------------------------- binding

#[test]
fn source_binding_race_fails_closed() {
    let dir = TempDir::new("race");
    let src = dir.path().join("orders.spx");
    std::fs::write(&src, BASE).unwrap();

    // Unchanged (even rewritten with the same bytes): success.
    let s = binding::compile_file_with_hook(&src, "orders.spx", "shop.order", || {
        std::fs::write(&src, BASE).unwrap();
    })
    .unwrap();
    assert_eq!(s.digest(), derive_ok(BASE, "shop.order").digest());

    // Rewritten between derivation and the final re-check: refused.
    let changed = BASE.replace("note: string", "note: i64");
    let errs = binding::compile_file_with_hook(&src, "orders.spx", "shop.order", || {
        std::fs::write(&src, &changed).unwrap();
    })
    .unwrap_err();
    assert_eq!(errs.len(), 1);
    assert_eq!(errs[0].code.as_str(), "SPX-F002");
    assert_eq!(errs[0].rule, "source.changed");
    assert_eq!(
        errs[0].location,
        Location::File {
            path: "orders.spx".to_owned()
        }
    );

    // Removed in between: refused too.
    std::fs::write(&src, BASE).unwrap();
    let errs = binding::compile_file_with_hook(&src, "orders.spx", "shop.order", || {
        std::fs::remove_file(&src).unwrap();
    })
    .unwrap_err();
    assert_eq!(
        (errs[0].code.as_str(), errs[0].rule),
        ("SPX-F002", "source.changed")
    );

    // Read errors keep their position in the file as the user named it.
    // (The last field's comma is optional in today's language: a `;`
    // where the comma or `}` should be.)
    std::fs::write(&src, "module m;\nrecord R { x: i64 ; }").unwrap();
    let errs = binding::compile_file(&src, "orders.spx", "r").unwrap_err();
    assert_eq!(
        errs[0].location,
        Location::Source {
            path: "orders.spx".to_owned(),
            line: 2,
            column: 18,
            // Just after `x: i64`, where the missing comma goes (issue 13).
            span: Some(spx_schema::diag::Span { start: 27, end: 27 }),
        }
    );
}

#[test]
fn case_decl_model_is_constructible() {
    // The hand-built model carries cases too: a variant with a persistent
    // case and a payload derives like its source twin.
    let mut v = hand_record("v", Vec::new());
    v.kind = DeclKind::Variant;
    v.cases = vec![CaseDecl {
        name: "A".to_owned(),
        stable_id: "v.a".to_owned(),
        persistent: true,
        fields: vec![hand_field("v.a.n", TypeExpr::Builtin(Builtin::I64))],
        pos: Pos::default(),
    }];
    let hand = Schema::derive(&hand_module(vec![v]), "v").unwrap();
    let src = derive_ok(
        "module m;\n@id(\"v\") variant V { @id(\"v.a\") A { @id(\"v.a.n\") n: i64, }, }",
        "v",
    );
    assert_eq!(hand.document(), src.document());
}

#[test]
fn a_dangling_declaration_index_is_unresolved_not_a_panic() {
    let m = hand_module(vec![hand_record("r", vec![hand_field("r.x", to(7))])]);
    assert_z202(Schema::derive(&m, "r"), "type.unresolved");
}
