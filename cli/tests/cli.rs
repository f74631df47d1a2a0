//! The `spx` binary's contract: outputs, exit statuses, the first line of
//! stderr, and `--format json`.

use sha2::{Digest, Sha256};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn spx(args: &[&str]) -> Output {
    spx_with_stdin(args, None)
}

fn spx_with_stdin(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_spx"));
    cmd.args(args)
        .current_dir(fixture(""))
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("spawn spx");
    if let Some(input) = stdin {
        use std::io::Write;
        child.stdin.take().unwrap().write_all(input).unwrap();
    }
    child.wait_with_output().expect("wait spx")
}

fn first_stderr_line(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr)
        .lines()
        .next()
        .unwrap_or("")
        .to_owned()
}

fn sha(domain: &[u8], body: &[u8]) -> String {
    let mut h = Sha256::new();
    h.update(domain);
    h.update(body);
    let d = h.finalize();
    format!(
        "sha256:{}",
        d.iter().map(|b| format!("{b:02x}")).collect::<String>()
    )
}

/// The schema document of `t.point`, written out by hand from FORMAT.md §5.
fn expected_point_document() -> (String, String, String) {
    let types = r#"[{"stable_id":"t.point","kind":"record","fields":[{"stable_id":"t.point.x","type":{"kind":"scalar","representation":"i64","minimum":"-9223372036854775808","maximum":"9223372036854775807"}},{"stable_id":"t.point.ok","type":{"kind":"scalar","representation":"bool"}}]}]"#;
    let body = format!(r#"{{"root_type_id":"t.point","types":{types}}}"#);
    let revision = sha(
        b"semaprax.agent-interaction-schema.type-revision.v1\0",
        body.as_bytes(),
    );
    let doc = format!(
        concat!(
            r#"{{"schema":"semaprax.agent-interaction-schema.v1","root_type_id":"t.point","root_type_revision":"{}","types":{},"#,
            r#""wire":{{"closed_objects":true,"key_order":"declaration_order","exact_integer_encoding":"decimal_string","bytes_encoding":"byte_array_u8","max_document_bytes":65536,"max_string_field_bytes":4096,"max_bytes_field_bytes":4096,"max_types":64,"max_depth":16}},"#,
            r#""nonclaims":["no_authorization_value_or_publication_token_from_a_decoded_value","no_capability_grant_effect_or_host_authority","no_trust_in_untrusted_bytes_without_decoder_validation","no_arbitrary_recursion_resource_borrowed_or_callback_values","no_floating_point_or_lossy_numeric_transport","no_public_abi_promotion_in_this_slice","provider_presentation_projections_never_broaden_runtime_admission","decoding_never_reads_a_provider_presentation_projection"]}}"#,
            "\n"
        ),
        revision, types
    );
    let digest = sha(
        b"semaprax.agent-interaction-schema.digest.v1\0",
        doc.as_bytes(),
    );
    (doc, revision, digest)
}

#[test]
fn schema_prints_the_canonical_document() {
    let o = spx(&["schema", "point.spx", "t.point"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let (doc, _, _) = expected_point_document();
    assert_eq!(String::from_utf8(o.stdout).unwrap(), doc);
}

#[test]
fn digest_prints_revision_and_digest() {
    let o = spx(&["digest", "point.spx", "t.point"]);
    assert_eq!(o.status.code(), Some(0));
    let (_, revision, digest) = expected_point_document();
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        format!("root_type_revision {revision}\nschema_digest {digest}\n")
    );
}

#[test]
fn verify_accepts_the_replay_and_refuses_anything_else() {
    let dir = std::env::temp_dir().join(format!("spx-cli-verify-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (doc, _, _) = expected_point_document();
    let good = dir.join("good.json");
    std::fs::write(&good, &doc).unwrap();
    let bad = dir.join("bad.json");
    std::fs::write(&bad, doc.replace("\"i64\"", "\"i32\"")).unwrap();
    let no_lf = dir.join("nolf.json");
    std::fs::write(&no_lf, doc.trim_end()).unwrap();

    let o = spx(&["verify", "point.spx", "t.point", good.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    for f in [&bad, &no_lf] {
        let o = spx(&["verify", "point.spx", "t.point", f.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(1));
        assert_eq!(
            first_stderr_line(&o),
            "error[SPX-Z204]: AgentInteractionSchema is not the exact replay of its verified source"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_derivation_refusal_names_code_and_rule_on_the_first_line() {
    let o = spx(&["schema", "point.spx", "t.bad"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    assert_eq!(
        first_stderr_line(&o),
        "error[SPX-Z202]: AgentInteractionSchema invariant failed: type.field.unsupported"
    );
    assert_eq!(
        String::from_utf8_lossy(&o.stderr).lines().nth(1),
        Some("  --> point.spx:19:5"),
        "the refusal names the offending field"
    );
    let o = spx(&["schema", "point.spx", "auto:record:t.geo.Loose"]);
    assert_eq!(
        first_stderr_line(&o),
        "error[SPX-Z202]: AgentInteractionSchema invariant failed: type.identity_origin"
    );
    let o = spx(&["schema", "point.spx", "no.such.type"]);
    assert_eq!(
        first_stderr_line(&o),
        "error[SPX-Z202]: AgentInteractionSchema invariant failed: type.unresolved"
    );
}

#[test]
fn json_format_prints_one_object_per_line() {
    let o = spx(&["--format", "json", "schema", "point.spx", "t.bad"]);
    assert_eq!(o.status.code(), Some(1));
    let line = first_stderr_line(&o);
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    assert_eq!(v["code"], "SPX-Z202");
    assert_eq!(v["rule"], "type.field.unsupported");
    assert_eq!(v["severity"], "error");
    assert_eq!(
        v["message"],
        "AgentInteractionSchema invariant failed: type.field.unsupported"
    );
}

#[test]
fn unreadable_files_and_usage_errors_exit_2() {
    let o = spx(&["schema", "does-not-exist.spx", "t.point"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(first_stderr_line(&o)
        .starts_with("error[SPX-F001]: cannot read source `does-not-exist.spx`"));
    let o = spx(&["schema", "point.spx"]);
    assert_eq!(o.status.code(), Some(2));
    let o = spx(&["frobnicate"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn check_lists_types_fields_and_warnings() {
    let o = spx(&["check", "point.spx"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.starts_with("module t.geo\nrecord Point @id(\"t.point\")\n  field x: i64 @id(\"t.point.x\")\n  field ok: bool @id(\"t.point.ok\")\n"), "{out}");
    assert!(
        out.contains("record Loose \"auto:record:t.geo.Loose\" (automatic)\n"),
        "{out}"
    );
    assert!(
        out.contains("  field n: i64 \"auto:field:auto:record:t.geo.Loose.n\" (automatic)\n"),
        "{out}"
    );
    assert!(out.contains("warning["), "{out}");
}

#[test]
fn decode_round_trips_the_example_and_refuses_with_the_contract() {
    let o = spx(&["example", "point.spx", "t.point"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let example = o.stdout;
    let o = spx_with_stdin(&["decode", "point.spx", "t.point"], Some(&example));
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(o.stdout, example);

    let mut pretty = example.clone();
    pretty.insert(1, b' ');
    let o = spx_with_stdin(&["decode", "point.spx", "t.point"], Some(&pretty));
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        first_stderr_line(&o),
        "error[SPX-Z205]: AgentInteractionValue is not canonical semaprax.agent-interaction-value.v1 JSON"
    );

    let (_, _, digest) = expected_point_document();
    let doc = format!(
        "{{\"schema\":\"semaprax.agent-interaction-value.v1\",\"root_type_id\":\"t.point\",\"schema_digest\":\"{digest}\",\"value\":{{\"fields\":{{\"t.point.x\":\"9223372036854775808\",\"t.point.ok\":true}}}}}}\n"
    );
    let o = spx_with_stdin(&["decode", "point.spx", "t.point"], Some(doc.as_bytes()));
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        first_stderr_line(&o),
        "error[SPX-Z206]: AgentInteractionValue invariant failed: value.integer_range"
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("/value/fields/t.point.x"));
    let ok = doc.replace("9223372036854775808", "9223372036854775807");
    let o = spx_with_stdin(&["decode", "point.spx", "t.point"], Some(ok.as_bytes()));
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(o.stdout, ok.as_bytes());
}

#[test]
fn provider_schema_prints_each_dialect() {
    let o = spx(&["provider-schema", "point.spx", "t.point"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.starts_with(
        "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"$id\":\"urn:semaprax.agent-interaction-schema.v1:t.point\",\"$defs\":{\"t.point\":"
    ), "{out}");
    assert!(out.ends_with(",\"$ref\":\"#/$defs/t.point\"}\n"), "{out}");
    for dialect in ["openai", "anthropic", "gemini"] {
        let o = spx(&[
            "provider-schema",
            "--dialect",
            dialect,
            "point.spx",
            "t.point",
        ]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{dialect}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["type"], "object", "{dialect}");
        assert!(v.get("oneOf").is_none());
        let o = spx(&[
            "provider-schema",
            "--dialect",
            dialect,
            "--losses",
            "point.spx",
            "t.point",
        ]);
        assert_eq!(o.status.code(), Some(0));
        let _: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    }
    let o = spx(&[
        "provider-schema",
        "--dialect",
        "cobol",
        "point.spx",
        "t.point",
    ]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn admit_canonicalizes_provider_output_and_refuses_with_pointer() {
    let raw =
        b"{\n  \"fields\": {\n    \"t.point.ok\": true,\n    \"t.point.x\": \"\\u0037\"\n  }\n}\n";
    let o = spx_with_stdin(&["admit", "point.spx", "t.point"], Some(raw));
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let (_, _, digest) = expected_point_document();
    assert_eq!(
        String::from_utf8(o.stdout.clone()).unwrap(),
        format!("{{\"schema\":\"semaprax.agent-interaction-value.v1\",\"root_type_id\":\"t.point\",\"schema_digest\":\"{digest}\",\"value\":{{\"fields\":{{\"t.point.x\":\"7\",\"t.point.ok\":true}}}}}}\n")
    );
    // The canonical document is what `decode` admits byte for byte.
    let d = spx_with_stdin(&["decode", "point.spx", "t.point"], Some(&o.stdout));
    assert_eq!(d.status.code(), Some(0));
    assert_eq!(d.stdout, o.stdout);

    let dup = b"{\"fields\":{\"t.point.x\":\"1\",\"t.point.ok\":true,\"t.point.x\":\"2\"}}";
    let o = spx_with_stdin(&["admit", "point.spx", "t.point"], Some(dup));
    assert_eq!(o.status.code(), Some(1));
    assert!(
        first_stderr_line(&o).starts_with("error[SPX-Z205]: "),
        "{}",
        first_stderr_line(&o)
    );
    let o = spx_with_stdin(
        &["--format", "json", "admit", "point.spx", "t.point"],
        Some(dup),
    );
    let v: serde_json::Value = serde_json::from_str(&first_stderr_line(&o)).unwrap();
    assert_eq!(v["rule"], "duplicate_key");
    assert_eq!(v["pointer"], "/fields/t.point.x");

    let wide = b"{\"fields\":{\"t.point.x\":\"99999999999999999999\",\"t.point.ok\":true}}";
    let o = spx_with_stdin(
        &["--format", "json", "admit", "point.spx", "t.point"],
        Some(wide),
    );
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&first_stderr_line(&o)).unwrap();
    assert_eq!(v["code"], "SPX-Z206");
    assert_eq!(v["rule"], "value.integer_range");
    assert_eq!(v["pointer"], "/fields/t.point.x");
}

#[test]
fn pin_creates_then_check_fails_on_drift_without_writing() {
    let dir = std::env::temp_dir().join(format!("spx-cli-pin-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"pinned\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n[workspace]\n\n[package.metadata.spx]\nsources = [{ path = \"point.spx\", roots = [\"t.point\"] }]\n",
    )
    .unwrap();
    std::fs::write(dir.join("src/lib.rs"), "").unwrap();
    let source = std::fs::read_to_string(fixture("point.spx")).unwrap();
    std::fs::write(dir.join("point.spx"), &source).unwrap();
    let pkg = dir.to_str().unwrap();

    let o = spx(&["pin", "--check", "--package", pkg]);
    assert_eq!(o.status.code(), Some(1), "no lock yet: the check fails");
    assert!(!dir.join("spx.lock").exists());

    let o = spx(&["pin", "--package", pkg]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let (_, _, digest) = expected_point_document();
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        format!("point.spx t.point {digest} created\n")
    );
    let lock = std::fs::read(dir.join("spx.lock")).unwrap();
    assert!(String::from_utf8_lossy(&lock).contains(&digest));

    let o = spx(&["pin", "--check", "--package", pkg]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );

    std::fs::write(dir.join("point.spx"), source.replace("x: i64,", "x: i32,")).unwrap();
    let o = spx(&["pin", "--check", "--package", pkg]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.starts_with("error[SPX-L003]"), "{err}");
    assert!(err.contains("t.point.x"), "{err}");
    assert_eq!(
        std::fs::read(dir.join("spx.lock")).unwrap(),
        lock,
        "--check writes nothing"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `spx gen`: the module of several roots, written once (then
/// "unchanged"), byte-identical to spx-codegen's; names that cannot be
/// identifiers are SPX-G001 at their place in the source.
#[test]
fn gen_writes_typescript_and_python_modules() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-gen");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (target, file) in [("typescript", "point.ts"), ("python", "point.py")] {
        let out = dir.join(file);
        let out_arg = out.to_str().unwrap();
        let o = spx(&["gen", target, "point.spx", "t.point", "--out", out_arg]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(
            String::from_utf8_lossy(&o.stdout),
            format!("wrote {out_arg}\n")
        );
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(text.contains("t.point"), "{text}");
        assert!(text.contains("schema_digest sha256:"), "{text}");
        assert!(
            !text.contains(env!("CARGO_MANIFEST_DIR")),
            "no absolute path"
        );
        let again = spx(&["gen", target, "point.spx", "t.point", "--out", out_arg]);
        assert_eq!(
            String::from_utf8_lossy(&again.stdout),
            format!("unchanged {out_arg}\n")
        );
        assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
    }
    let names = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/macro/names.spx")
        .canonicalize()
        .unwrap();
    let out = dir.join("names.ts");
    let o = spx(&[
        "gen",
        "typescript",
        names.to_str().unwrap(),
        "names.self_field",
        "--out",
        out.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let line: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&o.stderr).lines().next().unwrap()).unwrap();
    assert_eq!(line["code"], "SPX-G001");
    assert_eq!(line["rule"], "gen.name");
    assert_eq!(line["line"], 7);
    assert!(!out.exists());
}
