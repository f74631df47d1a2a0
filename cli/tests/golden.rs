//! Golden outputs of the `spx` CLI: the exact stderr (rendered with source
//! snippets, uncoloured since stderr is a pipe) and exit status of every
//! diagnostic a user commonly causes. `tests/golden/<case>.stderr` holds
//! the expected bytes; regenerate with `SPX_GOLDEN=overwrite` and review
//! the diff, as with trybuild.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests")
}

/// (case, arguments, standard input, exit status)
type Case = (
    &'static str,
    &'static [&'static str],
    Option<&'static str>,
    i32,
);

const CASES: &[Case] = &[
    // Every SPX-Z202 rule a source can reach, with its help.
    ("z202-float", &["schema", "mistakes/z202.spx", "z.float"], None, 1),
    ("z202-option", &["schema", "mistakes/z202.spx", "z.option"], None, 1),
    ("z202-identity-origin", &["schema", "mistakes/z202.spx", "z.nested_noid"], None, 1),
    ("z202-field-identity-origin", &["schema", "mistakes/z202.spx", "z.field_noid"], None, 1),
    ("z202-case-identity-origin", &["schema", "mistakes/z202.spx", "z.case_noid"], None, 1),
    ("z202-kind", &["schema", "mistakes/z202.spx", "z.class"], None, 1),
    ("z202-generic", &["schema", "mistakes/z202.spx", "z.generic"], None, 1),
    ("z202-unresolved-alias", &["schema", "mistakes/z202.spx", "z.alias"], None, 1),
    ("z202-max-depth", &["schema", "../../../tests/fixtures/macro/max_depth.spx", "deep.r0"], None, 1),
    ("z202-max-types", &["schema", "../../../tests/fixtures/macro/max_types.spx", "wide.root"], None, 1),
    // An unknown root: named, where it came from, did you mean, the roots
    // that derive.
    ("unknown-root", &["schema", "mistakes/z202.spx", "z.flaot"], None, 1),
    ("unknown-root-json", &["--format", "json", "schema", "mistakes/z202.spx", "z.flaot"], None, 1),
    // The reader.
    ("unknown-type", &["check", "mistakes/unknown_type.spx"], None, 1),
    ("missing-comma-field", &["check", "mistakes/missing_comma.spx"], None, 1),
    ("missing-comma-case", &["check", "mistakes/missing_case_comma.spx"], None, 1),
    ("copy-variant-payload", &["check", "mistakes/copy_variant.spx"], None, 1),
    ("check-warnings", &["check", "point.spx"], None, 0),
    // Decoding from standard input, with the pointer.
    (
        "decode-stdin",
        &["decode", "point.spx", "t.point", "-"],
        Some("{\"schema\":\"semaprax.agent-interaction-value.v1\",\"root_type_id\":\"t.point\",\"schema_digest\":\"sha256:c1ed7c552cc2ee64b9c6eed1e08329af40cf2f00c12b4397fb00fe68c5e2b5f7\",\"value\":{\"fields\":{\"t.point.x\":\"07\",\"t.point.ok\":true}}}\n"),
        1,
    ),
    ("source-stdin-syntax", &["check", "-"], Some("module m;\nrecord R { x: i64; }\n"), 1),
    // Inputs that cannot be read exit 2.
    ("unreadable-source", &["schema", "no-such-file.spx", "t.point"], None, 2),
    ("unreadable-package", &["pin", "--package", "/nonexistent/spx-package"], None, 2),
];

#[test]
fn golden_stderr() {
    let overwrite = std::env::var_os("SPX_GOLDEN").is_some_and(|v| v == "overwrite");
    let mut failures = Vec::new();
    for (case, args, stdin, status) in CASES {
        let mut child = Command::new(env!("CARGO_BIN_EXE_spx"))
            .args(*args)
            .current_dir(dir().join("fixtures"))
            .env_remove("NO_COLOR")
            .env_remove("CLICOLOR_FORCE")
            .stdin(if stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn spx");
        if let Some(input) = stdin {
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(input.as_bytes())
                .unwrap();
        }
        let o = child.wait_with_output().unwrap();
        let got = String::from_utf8(o.stderr).unwrap();
        let path = dir().join("golden").join(format!("{case}.stderr"));
        if o.status.code() != Some(*status) {
            failures.push(format!(
                "{case}: exit {:?}, expected {status}\n{got}",
                o.status.code()
            ));
            continue;
        }
        if overwrite {
            std::fs::write(&path, &got).unwrap();
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(want) if want == got => {}
            Ok(want) => failures.push(format!(
                "{case}: stderr differs\n--- expected\n{want}\n--- got\n{got}"
            )),
            Err(_) => failures.push(format!("{case}: no {}\n--- got\n{got}", path.display())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
