//! `spx provider-schema --dialect lark` and its `--losses` report, and
//! `spx admit --dialect lark` (the strict decoder: under a grammar the
//! model writes the document itself).

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn spx(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_spx"))
        .args(args)
        .current_dir(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"))
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
        child.stdin.take().unwrap().write_all(input).unwrap();
    }
    child.wait_with_output().expect("wait spx")
}

fn stdout(o: &Output) -> String {
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout.clone()).unwrap()
}

#[test]
fn the_lark_grammar_and_its_narrowings() {
    let digest = stdout(&spx(&["digest", "note.spx", "t.note"], None));
    let digest = digest
        .lines()
        .nth(1)
        .unwrap()
        .strip_prefix("schema_digest ")
        .unwrap()
        .to_owned();
    let g = stdout(&spx(
        &["provider-schema", "--dialect", "lark", "note.spx", "t.note"],
        None,
    ));
    assert!(g.starts_with("%llguidance {}\n"));
    let start = format!(
        "start: \"{{\\\"schema\\\":\\\"semaprax.agent-interaction-value.v1\\\",\\\"root_type_id\\\":\\\"t.note\\\",\\\"schema_digest\\\":\\\"{digest}\\\",\\\"value\\\":\" t0_t_note \"}}\\n\"\n"
    );
    assert!(g.contains(&start), "{g}");
    assert!(g.contains(
        "t0_t_note: \"{\\\"fields\\\":{\\\"t.note.text\\\":\" STRING_1024 \",\\\"t.note.count\\\":\" U8 \"}}\"\n"
    ));
    assert!(g.contains("U8: /\"(0|[1-9][0-9]?|1[0-9]{2}|2[0-4][0-9]|25[0-5])\"/\n"));
    let losses = stdout(&spx(
        &[
            "provider-schema",
            "--dialect",
            "lark",
            "--losses",
            "note.spx",
            "t.note",
        ],
        None,
    ));
    assert_eq!(
        losses,
        "{\"dialect\":\"lark\",\"schema_name\":null,\"losses\":[{\"field\":\"t.note.text\",\"rule\":\"value.string_bytes\",\"enforced\":{\"max_chars\":1024}}],\"keys\":[]}\n"
    );
    // Under the grammar the model writes the whole document: admitting it
    // is decoding it.
    let doc = stdout(&spx(&["example", "note.spx", "t.note"], None));
    let admitted = stdout(&spx(
        &["admit", "--dialect", "lark", "note.spx", "t.note"],
        Some(doc.as_bytes()),
    ));
    assert_eq!(admitted, doc);
    let o = spx(
        &["admit", "--dialect", "lark", "note.spx", "t.note"],
        Some(b"{\"fields\":{}}\n"),
    );
    assert_eq!(o.status.code(), Some(1));
}
