//! Golden files of the Rust that `spx_interaction!` generates, so that a
//! change to the generated code shows up as a diff. `SPX_BLESS=1` rewrites
//! them; review the diff.

use spx_gen::{expand, MacroInput};
use std::path::Path;

fn golden(name: &str, args: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let input: MacroInput = syn::parse_str(args).expect("macro arguments parse");
    let tokens = expand(&input, Some(dir));
    // The rebuild-tracking `include_bytes!` names absolute paths: keep the
    // golden portable (before pretty-printing, whose line breaks depend on
    // the path's length).
    let tokens = tokens
        .to_string()
        .replace(&dir.display().to_string(), "$CARGO_MANIFEST_DIR");
    let file: syn::File = syn::parse_str(&tokens).expect("the expansion is valid Rust");
    let text = prettyplease::unparse(&file);
    assert!(!text.contains("compile_error"), "{text}");
    let path = dir.join("golden/codegen").join(format!("{name}.rs.txt"));
    if std::env::var_os("SPX_BLESS").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        want == text,
        "generated code for {name} differs from {}; rerun with SPX_BLESS=1 and review the diff",
        path.display()
    );
}

/// `.spx` documentation becomes rustdoc next to the stable id (escaped so
/// that it makes no link, HTML tag or doctest).
#[test]
fn a_documented_module() {
    let module = spx_schema::source::read_module(
        "documented.spx",
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/macro/documented.spx"),
        )
        .unwrap(),
    )
    .unwrap();
    let digest = spx_schema::Schema::derive(&module, "doc.step")
        .unwrap()
        .digest()
        .to_owned();
    golden(
        "documented",
        &format!(
            "source: \"fixtures/macro/documented.spx\", root: \"doc.step\", digest: \"{digest}\""
        ),
    );
}

#[test]
fn a_one_record_module() {
    let args = format!(
        r#"source: "fixtures/macro/ok.spx", root: "ok.point", digest: "{}""#,
        ok_digest()
    );
    golden("ok_point", &args);
}

#[test]
fn the_planner_module_with_three_roots() {
    golden(
        "planner",
        r#"source: "fixtures/macro/planner.spx",
        root: "planner.proposal",
        digest: "sha256:3cad84b67598aa09f8c76b2096cfb104ae9ab15cb30a1327687fd20abad7768e",
        root: "planner.step",
        digest: "sha256:d818874995ef8d3074b2bdf123db19f245459174d5007870b1e7acaac995b87e",
        root: "planner.action",
        digest: "sha256:8fd2b618f961b38a3aed576e4ae71f89e58e7e18b76f6489d31ef8ed76cde506""#,
    );
}

fn ok_digest() -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    spx_schema::binding::compile_file(&dir.join("fixtures/macro/ok.spx"), "ok.spx", "ok.point")
        .unwrap()
        .digest()
        .to_owned()
}
