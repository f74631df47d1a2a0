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
        // spx may refuse (and exit) before it reads standard input.
        match child.stdin.take().unwrap().write_all(input) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
            Err(e) => panic!("writing to spx's standard input: {e}"),
        }
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
    assert_eq!(String::from_utf8(o.stdout.clone()).unwrap(), doc);
}

#[test]
fn digest_prints_revision_and_digest() {
    let o = spx(&["digest", "point.spx", "t.point"]);
    assert_eq!(o.status.code(), Some(0));
    let (_, revision, digest) = expected_point_document();
    assert_eq!(
        String::from_utf8(o.stdout.clone()).unwrap(),
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
    // Issue 13: warnings go to stderr, the listing alone to stdout.
    assert!(!out.contains("warning["), "{out}");
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.contains("warning["), "{err}");
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
        String::from_utf8(o.stdout.clone()).unwrap(),
        // Issue 13: ids in status lines are quoted as JSON strings.
        format!("\"point.spx\" \"t.point\" {digest} created\n")
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

// ------------------------------------------------ cargo's habits (issue 13) --

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

#[test]
fn dash_is_standard_input_for_the_source_and_documents() {
    let source = std::fs::read(fixture("point.spx")).unwrap();
    let from_file = spx(&["schema", "point.spx", "t.point"]);
    let from_stdin = spx_with_stdin(&["schema", "-", "t.point"], Some(&source));
    assert_eq!(from_stdin.status.code(), Some(0), "{}", stderr(&from_stdin));
    assert_eq!(from_stdin.stdout, from_file.stdout);

    let (doc, _, _) = expected_point_document();
    let o = spx_with_stdin(
        &["verify", "point.spx", "t.point", "-"],
        Some(doc.as_bytes()),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let example = spx(&["example", "point.spx", "t.point"]).stdout;
    let o = spx_with_stdin(&["decode", "point.spx", "t.point", "-"], Some(&example));
    assert_eq!(o.stdout, example);
    // Standard input can be read once.
    let o = spx_with_stdin(&["decode", "-", "t.point", "-"], Some(&source));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).starts_with("error[SPX-F001]: standard input can be read only once"));
}

#[test]
fn json_format_applies_to_every_commands_output() {
    let (doc, revision, digest) = expected_point_document();
    let o = spx(&["--format", "json", "digest", "point.spx", "t.point"]);
    assert_eq!(
        stdout(&o),
        format!("{{\"root_type_id\":\"t.point\",\"root_type_revision\":\"{revision}\",\"schema_digest\":\"{digest}\"}}\n")
    );
    let dir = std::env::temp_dir().join(format!("spx-cli-json-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.json");
    std::fs::write(&good, &doc).unwrap();
    let o = spx(&[
        "--format",
        "json",
        "verify",
        "point.spx",
        "t.point",
        good.to_str().unwrap(),
    ]);
    assert_eq!(
        stdout(&o),
        format!("{{\"ok\":true,\"root_type_id\":\"t.point\",\"schema_digest\":\"{digest}\"}}\n")
    );
    std::fs::remove_dir_all(&dir).unwrap();

    // check: the listing as JSON on stdout, the warnings as JSON lines on
    // stderr.
    let o = spx(&["--format", "json", "check", "point.spx"]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["module"], "t.geo");
    assert_eq!(v["types"][0]["name"], "Point");
    assert_eq!(v["types"][0]["stable_id"], "t.point");
    assert_eq!(v["types"][0]["fields"][0]["type"], "i64");
    assert_eq!(v["types"][1]["persistent"], false);
    let warnings: Vec<serde_json::Value> = stderr(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(warnings.len(), 2);
    assert_eq!(warnings[0]["code"], "SPX-W001");
    let text = std::fs::read_to_string(fixture("point.spx")).unwrap();
    let loose = text.find("record Loose").unwrap() + "record ".len();
    assert_eq!(warnings[0]["span"]["start"], loose);
    assert_eq!(warnings[0]["span"]["end"], loose + "Loose".len());
    // The documents are JSON already: the same bytes in both formats.
    for args in [
        &["schema", "point.spx", "t.point"][..],
        &["example", "point.spx", "t.point"][..],
        &["provider-schema", "point.spx", "t.point"][..],
    ] {
        let human = spx(args);
        let mut json_args = vec!["--format", "json"];
        json_args.extend_from_slice(args);
        assert_eq!(spx(&json_args).stdout, human.stdout, "{args:?}");
    }
}

#[test]
fn quiet_silences_warnings() {
    let o = spx(&["-q", "check", "point.spx"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(o.stderr.is_empty(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("module t.geo\n"));
}

#[test]
fn color_follows_the_flag_and_no_color() {
    let colored = |args: &[&str], no_color: bool| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_spx"));
        cmd.args(args).current_dir(fixture(""));
        cmd.env_remove("CLICOLOR_FORCE");
        if no_color {
            cmd.env("NO_COLOR", "1");
        } else {
            cmd.env_remove("NO_COLOR");
        }
        let o = cmd.output().unwrap();
        assert_eq!(o.status.code(), Some(1));
        o.stderr.contains(&0x1b)
    };
    let args = |color: &'static str| ["--color", color, "schema", "point.spx", "t.bad"];
    assert!(colored(&args("always"), false));
    assert!(
        colored(&args("always"), true),
        "the flag wins over NO_COLOR"
    );
    assert!(!colored(&args("never"), false));
    // stderr is a pipe here: auto does not colour.
    assert!(!colored(&args("auto"), false));
    assert!(!colored(&args("auto"), true));
}

#[test]
fn completions_for_every_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let o = spx(&["completions", shell]);
        assert_eq!(o.status.code(), Some(0), "{shell}");
        let script = stdout(&o);
        assert!(script.contains("provider-schema"), "{shell}: {script}");
    }
    assert_eq!(spx(&["completions", "tcsh"]).status.code(), Some(2));
}

#[test]
fn every_help_has_examples_and_every_argument_a_description() {
    let commands = [
        "schema",
        "digest",
        "verify",
        "check",
        "decode",
        "example",
        "provider-schema",
        "admit",
        "gen",
        "pin",
        "completions",
    ];
    let top = stdout(&spx(&["--help"]));
    assert!(top.contains("Examples:"), "{top}");
    for c in commands {
        // `-h` puts each description on its argument's line.
        let help = stdout(&spx(&[c, "-h"]));
        assert!(help.contains("\nExamples:\n  spx "), "{c}: {help}");
        if let Some(args) = help.split("Arguments:\n").nth(1) {
            for line in args.lines().take_while(|l| !l.is_empty()) {
                let described = line
                    .trim_start()
                    .split_once(['>', ']'])
                    .map(|(_, d)| d.strip_prefix("...").unwrap_or(d))
                    .is_some_and(|d| d.starts_with("  ") && !d.trim().is_empty());
                assert!(described, "{c}: argument without a description: {line:?}");
            }
        }
    }
}

#[test]
fn dialect_names_are_case_insensitive() {
    let lower = spx(&[
        "provider-schema",
        "--dialect",
        "openai",
        "point.spx",
        "t.point",
    ]);
    for name in ["OpenAI", "OPENAI", "OpenAi"] {
        let o = spx(&["provider-schema", "--dialect", name, "point.spx", "t.point"]);
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        assert_eq!(o.stdout, lower.stdout, "{name}");
    }
    let o = spx(&[
        "provider-schema",
        "--dialect",
        "Cobol",
        "point.spx",
        "t.point",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains(
            "unknown dialect `Cobol` (expected one of: draft2020, openai, anthropic, gemini, lark)"
        ),
        "{}",
        stderr(&o)
    );
}

/// A package at `<tmp>/<name>` whose metadata lists `roots` of `point.spx`.
fn package(name: &str, roots: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("spx-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        format!("[package]\nname = \"pkg\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n[workspace]\n\n[package.metadata.spx]\nsources = [{{ path = \"point.spx\", roots = [{roots}] }}]\n"),
    )
    .unwrap();
    std::fs::write(dir.join("src/lib.rs"), "").unwrap();
    std::fs::copy(fixture("point.spx"), dir.join("point.spx")).unwrap();
    dir
}

#[test]
fn check_fails_when_a_metadata_root_does_not_derive() {
    let ok = package("check-ok", "\"t.point\"");
    let o = spx(&["check", ok.join("point.spx").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let (_, _, digest) = expected_point_document();
    assert!(
        stdout(&o).ends_with(&format!(
            "root \"t.point\" derives ({digest}, listed in [package.metadata.spx])\n"
        )),
        "{}",
        stdout(&o)
    );
    let bad = package("check-bad", "\"t.point\", \"t.bad\"");
    let o = spx(&["check", bad.join("point.spx").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.starts_with("error[SPX-Z202]: AgentInteractionSchema invariant failed: type.field.unsupported\n  --> point.spx:19:5\n"),
        "{err}"
    );
    assert!(
        err.contains("= note: while deriving root \"t.bad\", listed in `roots` of source #1 (\"point.spx\") in `[package.metadata.spx]` of Cargo.toml"),
        "{err}"
    );
    for d in [ok, bad] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn pin_reports_json_and_an_unreadable_package_exits_2() {
    let dir = package("pin-json", "\"t.point\"");
    let o = spx(&[
        "--format",
        "json",
        "pin",
        "--package",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["check"], false);
    assert_eq!(v["wrote"], true);
    assert_eq!(v["pins"][0]["source"], "point.spx");
    assert_eq!(v["pins"][0]["root"], "t.point");
    assert_eq!(v["pins"][0]["change"], "created");
    let o = spx(&["-q", "pin", "--check", "--package", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    assert!(o.stdout.is_empty(), "quiet: no status lines");
    std::fs::remove_dir_all(&dir).unwrap();

    let o = spx(&["pin", "--package", "/nonexistent"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        first_stderr_line(&o).starts_with("error[SPX-F001]: cannot read `/nonexistent/Cargo.toml`")
    );
}

#[test]
fn ids_in_status_lines_are_json_strings() {
    let dir = package("pin-quoted", "\"t.point\"");
    let o = spx(&["pin", "--package", dir.to_str().unwrap()]);
    let out = stdout(&o);
    assert!(
        out.starts_with("\"point.spx\" \"t.point\" sha256:"),
        "{out}"
    );
    let o = spx(&[
        "verify",
        "point.spx",
        "t.point",
        dir.join("spx.lock.d/t.point.schema.json").to_str().unwrap(),
    ]);
    assert!(
        stdout(&o).starts_with("ok \"t.point\" sha256:"),
        "{}",
        stdout(&o)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The canonical document of `t.point` with x = `x` and ok = true.
fn point_doc(x: &str) -> String {
    let (_, _, digest) = expected_point_document();
    format!("{{\"schema\":\"semaprax.agent-interaction-value.v1\",\"root_type_id\":\"t.point\",\"schema_digest\":\"{digest}\",\"value\":{{\"fields\":{{\"t.point.x\":\"{x}\",\"t.point.ok\":true}}}}}}\n")
}

#[test]
fn decode_and_admit_by_chunks_print_what_the_whole_input_prints() {
    let doc = point_doc("-42");
    let bad = doc.replace("true", "tru3");
    let at = bad.find("tru3").unwrap() + 3;
    let raw = b"{\"fields\":{\"t.point.ok\":true,\"t.point.x\":\"-42\"}}";
    for n in ["1", "2", "7", "4096"] {
        let o = spx_with_stdin(
            &["decode", "--chunk", n, "point.spx", "t.point"],
            Some(doc.as_bytes()),
        );
        assert_eq!(
            (o.status.code(), o.stdout.as_slice()),
            (Some(0), doc.as_bytes()),
            "{n}"
        );
        assert!(o.stderr.is_empty());
        let o = spx_with_stdin(&["admit", "--chunk", n, "point.spx", "t.point"], Some(raw));
        assert_eq!(
            (o.status.code(), o.stdout.as_slice()),
            (Some(0), doc.as_bytes()),
            "{n}"
        );

        let whole = spx_with_stdin(&["decode", "point.spx", "t.point"], Some(bad.as_bytes()));
        let o = spx_with_stdin(
            &["decode", "--chunk", n, "point.spx", "t.point"],
            Some(bad.as_bytes()),
        );
        assert_eq!(o.status.code(), Some(1));
        assert!(o.stdout.is_empty());
        assert_eq!(first_stderr_line(&o), first_stderr_line(&whole));
        assert_eq!(
            first_stderr_line(&o),
            "error[SPX-Z205]: AgentInteractionValue is not canonical semaprax.agent-interaction-value.v1 JSON"
        );
        let o = spx_with_stdin(
            &[
                "--format",
                "json",
                "decode",
                "--chunk",
                n,
                "point.spx",
                "t.point",
            ],
            Some(bad.as_bytes()),
        );
        let v: serde_json::Value = serde_json::from_str(&first_stderr_line(&o)).unwrap();
        assert_eq!(
            (v["rule"].as_str(), v["offset"].as_u64()),
            (Some("json.syntax"), Some(at as u64)),
            "{n}"
        );
    }
    // An unknown key is refused when its closing quote arrives, at the
    // offset of its first impossible byte (the `y`); the whole-document
    // diagnostic has no offset.
    let unknown = b"{\"fields\":{\"t.point.y\":1,\"t.point.x\":\"-42\",\"t.point.ok\":true}}";
    let o = spx_with_stdin(
        &[
            "--format",
            "json",
            "admit",
            "--chunk",
            "3",
            "point.spx",
            "t.point",
        ],
        Some(unknown),
    );
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&first_stderr_line(&o)).unwrap();
    assert_eq!(
        (
            v["code"].as_str(),
            v["rule"].as_str(),
            v["pointer"].as_str(),
            v["offset"].as_u64()
        ),
        (
            Some("SPX-Z206"),
            Some("value.fields.unknown"),
            Some("/fields/t.point.y"),
            Some(20)
        )
    );
    let o = spx_with_stdin(
        &["--format", "json", "admit", "point.spx", "t.point"],
        Some(unknown),
    );
    let w: serde_json::Value = serde_json::from_str(&first_stderr_line(&o)).unwrap();
    assert_eq!(
        (w["rule"].as_str(), w.get("offset")),
        (Some("value.fields.unknown"), None)
    );
    // Usage errors.
    for args in [
        &["decode", "--chunk", "0", "point.spx", "t.point"][..],
        &["admit", "--sse", "cobol", "point.spx", "t.point"][..],
    ] {
        assert_eq!(
            spx_with_stdin(args, Some(raw)).status.code(),
            Some(2),
            "{args:?}"
        );
    }
}

#[test]
fn events_are_json_lines_before_the_result() {
    let doc = point_doc("-42");
    let o = spx_with_stdin(
        &["decode", "--events", "point.spx", "t.point"],
        Some(doc.as_bytes()),
    );
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(o.stdout.clone()).unwrap(),
        format!(
            "{{\"event\":\"field_done\",\"pointer\":\"/value/fields/t.point.x\",\"value\":\"-42\"}}\n{{\"event\":\"field_done\",\"pointer\":\"/value/fields/t.point.ok\",\"value\":true}}\n{{\"event\":\"progress\",\"offset\":{}}}\n{doc}",
            doc.len()
        )
    );
    // A refusal: the events announced before it, then the diagnostic on
    // stderr.
    let bad = doc.replace("true", "0");
    let o = spx_with_stdin(
        &[
            "--format",
            "json",
            "decode",
            "--events",
            "--chunk",
            "1000",
            "point.spx",
            "t.point",
        ],
        Some(bad.as_bytes()),
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(o.stdout.clone()).unwrap(),
        "{\"event\":\"field_done\",\"pointer\":\"/value/fields/t.point.x\",\"value\":\"-42\"}\n"
    );
    let v: serde_json::Value = serde_json::from_str(&first_stderr_line(&o)).unwrap();
    assert_eq!(
        (
            v["rule"].as_str(),
            v["pointer"].as_str(),
            v["offset"].as_u64()
        ),
        (
            Some("value.representation"),
            Some("/value/fields/t.point.ok"),
            Some(bad.find(":0").unwrap() as u64 + 1)
        )
    );
}

#[test]
fn admit_reads_recorded_provider_event_streams() {
    let doc = point_doc("-42");
    for (provider, file) in [
        ("openai", "openai.sse"),
        ("openai", "openai_tools.sse"),
        ("openai-responses", "openai_responses.sse"),
        ("anthropic", "anthropic.sse"),
        ("anthropic", "anthropic_text.sse"),
        ("gemini", "gemini.sse"),
    ] {
        let path = format!("sse/{file}");
        for chunk in [None, Some("1"), Some("5")] {
            let mut args = vec!["admit", "--sse", provider];
            if let Some(n) = chunk {
                args.extend(["--chunk", n]);
            }
            args.extend(["point.spx", "t.point", &path]);
            let o = spx(&args);
            assert_eq!(
                (o.status.code(), String::from_utf8_lossy(&o.stdout)),
                (Some(0), doc.as_str().into()),
                "{args:?}: {}",
                String::from_utf8_lossy(&o.stderr)
            );
        }
    }
    // Events: offsets are bytes of the answer text, one progress per
    // piece of it (the empty delta gives none).
    let o = spx(&[
        "admit",
        "--sse",
        "anthropic",
        "--events",
        "point.spx",
        "t.point",
        "sse/anthropic.sse",
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(o.stdout.clone()).unwrap(),
        format!("{{\"event\":\"progress\",\"offset\":11}}\n{{\"event\":\"progress\",\"offset\":26}}\n{{\"event\":\"field_done\",\"pointer\":\"/value/fields/t.point.x\",\"value\":\"-42\"}}\n{{\"event\":\"progress\",\"offset\":41}}\n{{\"event\":\"field_done\",\"pointer\":\"/value/fields/t.point.ok\",\"value\":true}}\n{{\"event\":\"progress\",\"offset\":48}}\n{doc}")
    );
    // A malformed stream, and a provider's error, are diagnostics with the
    // offset in the event stream.
    let o = spx_with_stdin(
        &[
            "--format",
            "json",
            "admit",
            "--sse",
            "gemini",
            "point.spx",
            "t.point",
        ],
        Some(b"data: {\"candidates\":7}\n\n"),
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        first_stderr_line(&o),
        "{\"severity\":\"error\",\"code\":\"SPX-E001\",\"rule\":\"sse.payload\",\"message\":\"the gemini event stream holds an event that is not the provider's\",\"pointer\":\"/candidates\",\"detail\":\"/candidates is not an array\",\"help\":\"record the provider's stream unchanged, and read it with --sse gemini\",\"offset\":6}"
    );
    let o = spx_with_stdin(
        &["admit", "--sse", "anthropic", "point.spx", "t.point"],
        Some(b"event: error\ndata: {\"type\": \"error\", \"error\": {\"type\": \"overloaded_error\", \"message\": \"Overloaded\"}}\n\n"),
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "error[SPX-E002]: the anthropic event stream reports an error\n |\n = note: Overloaded\n = note: no continuation is admitted after byte offset 19 of the stream\n = help: the provider did not finish the answer: retry the request\n"
    );
    // The answer refused as it arrives: the events before the refusal.
    let o = spx_with_stdin(
        &["--format", "json", "admit", "--sse", "openai", "--events", "point.spx", "t.point"],
        Some(b"data: {\"choices\":[{\"delta\":{\"content\":\"{\\\"fields\\\":{\\\"t.point.x\\\":\\\"1\\\",\"}}]}\n\ndata: {\"choices\":[{\"delta\":{\"content\":\"\\\"t.point.ok\\\":3}}\"}}]}\n\n"),
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(o.stdout.clone()).unwrap(),
        "{\"event\":\"field_done\",\"pointer\":\"/value/fields/t.point.x\",\"value\":\"1\"}\n{\"event\":\"progress\",\"offset\":27}\n"
    );
    let v: serde_json::Value = serde_json::from_str(&first_stderr_line(&o)).unwrap();
    assert_eq!(
        (
            v["code"].as_str(),
            v["rule"].as_str(),
            v["pointer"].as_str(),
            v["offset"].as_u64()
        ),
        (
            Some("SPX-Z206"),
            Some("value.representation"),
            Some("/fields/t.point.ok"),
            Some(40)
        )
    );
}

#[test]
fn a_project_manifest_is_a_source_with_the_bytes_of_one_module() {
    for root in ["trip.plan", "trip.stop", "trip.point"] {
        for cmd in ["schema", "digest", "example", "provider-schema"] {
            let p = spx(&[cmd, "project/semaprax.toml", root]);
            let s = spx(&[cmd, "trip-single.spx", root]);
            assert!(
                p.status.success(),
                "{cmd} {root}: {}",
                first_stderr_line(&p)
            );
            assert_eq!(p.stdout, s.stdout, "{cmd} {root}");
        }
    }
    // `verify` takes the manifest too.
    let doc = spx(&["schema", "trip-single.spx", "trip.plan"]).stdout;
    let dir = std::env::temp_dir().join(format!("spx-cli-verify-{}", std::process::id()));
    std::fs::write(&dir, &doc).unwrap();
    let v = spx(&[
        "verify",
        "project/semaprax.toml",
        "trip.plan",
        dir.to_str().unwrap(),
    ]);
    let _ = std::fs::remove_file(&dir);
    assert!(v.status.success(), "{}", first_stderr_line(&v));
}

#[test]
fn check_lists_every_module_and_verbose_adds_the_notes() {
    let o = spx(&["check", "project/semaprax.toml"]);
    assert!(o.status.success());
    let text = String::from_utf8(o.stdout).unwrap();
    assert_eq!(
        text,
        "module trip.app\nrecord Plan @id(\"trip.plan\")\n  field start: Point @id(\"trip.plan.start\")\n  field next: Stop @id(\"trip.plan.next\")\nmodule trip.stops\nrecord Stop @id(\"trip.stop\")\n  field at: Point @id(\"trip.stop.at\")\n  field minutes: i64 @id(\"trip.stop.minutes\")\nmodule trip.geo\nrecord Point @id(\"trip.point\")\n  field x: i64 @id(\"trip.point.x\")\n  field y: i64 @id(\"trip.point.y\")\n"
    );
    // The notes go to stderr with the warnings, rendered like them.
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = spx(&["check", "--verbose", "project/semaprax.toml"]);
    assert!(o.status.success());
    let text = String::from_utf8(o.stderr).unwrap();
    assert!(text.starts_with("note[SPX-N001]: skipped an item the reader does not know, starting with `__PLACEHOLDER__`\n"), "{text}");
    assert!(text.contains("--> project/src/app.spx:13:1\n"), "{text}");
    assert!(text.contains("= help: nothing to do if this is valid semaprax: a schema needs only record, variant, class and resource declarations, so the reader skips other items by their delimiters"), "{text}");
}

#[test]
fn a_missing_listed_source_exits_1_and_an_unreadable_manifest_exits_2() {
    let o = spx(&["schema", "broken-project.toml", "trip.point"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        first_stderr_line(&o),
        "error[SPX-J005]: source `project/src/gone.spx` listed in the manifest does not exist (looked for `project/src/gone.spx`)"
    );
    let text = String::from_utf8_lossy(&o.stderr);
    assert!(text.contains("--> broken-project.toml:4:35\n"), "{text}");
    let o = spx(&["--format", "json", "schema", "unreadable-project.toml", "r"]);
    assert_eq!(o.status.code(), Some(2));
    let line = first_stderr_line(&o);
    assert!(
        line.starts_with(
            "{\"severity\":\"error\",\"code\":\"SPX-F001\",\"rule\":\"manifest.syntax\","
        ),
        "{line}"
    );
    let o = spx(&["check", "no-such-project/semaprax.toml"]);
    assert_eq!(o.status.code(), Some(2));
}

/// Issue 14 through the CLI: a module whose ids no provider accepts as
/// keys. The Anthropic report lists every safe key; an answer written with
/// them is admitted to the canonical document of the stable ids (which
/// `decode` admits byte for byte), and a refusal points with the safe key.
#[test]
fn hostile_ids_round_trip_through_the_cli_with_safe_keys() {
    let source = "../../../tests/fixtures/spx/hostile.spx";
    let root = "weird \"quoted\" \\ back\tslash";
    let o = spx(&[
        "provider-schema",
        "--dialect",
        "anthropic",
        "--losses",
        source,
        root,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(report["dialect"], "anthropic");
    let name = report["schema_name"].as_str().unwrap();
    assert!(name.len() <= 64 && name.starts_with("weird__quoted____back_slash-"));
    let key = |ty: &str, id: &str| -> String {
        report["keys"]
            .as_array()
            .unwrap()
            .iter()
            .find(|k| k["kind"] == "field" && k["type"] == ty && k["stable_id"] == id)
            .map_or(id.to_owned(), |k| k["key"].as_str().unwrap().to_owned())
    };
    let field = |id: &str| key(root, id);
    let answer = serde_json::json!({ "fields": {
        field("a b/c~d"): "7",
        field("planner.step.a_rather_long_field_name_that_goes_on.and_on_and_on.until_77_cha"): "-3",
        field("ünï cödé ✓"): "hi",
        field("new\nline"): true,
        field(&"x/".repeat(100)): "18446744073709551615",
        field("choice/kind"): { "case": "go on", "fields": {
            key("choice~type", "go on/far %"): "12",
            key("choice~type", "go on/to"): { "fields": { key("place [1]", "place [1].square"): "5" } },
        } },
        "fits.as-is_1": [1, 2],
    } });
    let text = serde_json::to_string_pretty(&answer).unwrap();
    for k in answer["fields"].as_object().unwrap().keys() {
        assert!(
            !k.is_empty()
                && k.len() <= 64
                && k.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c)),
            "{k}"
        );
    }
    let o = spx_with_stdin(
        &["admit", "--dialect", "anthropic", source, root],
        Some(text.as_bytes()),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let canonical = String::from_utf8(o.stdout.clone()).unwrap();
    assert!(
        canonical.contains("{\"fields\":{\"a b/c~d\":\"7\","),
        "{canonical}"
    );
    let d = spx_with_stdin(&["decode", source, root], Some(&o.stdout));
    assert_eq!(d.status.code(), Some(0), "{}", stderr(&d));
    assert_eq!(d.stdout, o.stdout);

    let wrong = text.replacen("\"7\"", "7", 1);
    let o = spx_with_stdin(
        &[
            "--format",
            "json",
            "admit",
            "--dialect",
            "anthropic",
            source,
            root,
        ],
        Some(wrong.as_bytes()),
    );
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&first_stderr_line(&o)).unwrap();
    assert_eq!(v["rule"], "value.representation");
    assert_eq!(v["pointer"], format!("/fields/{}", field("a b/c~d")));
}

/// `spx gen`: the module of several roots, written once (then
/// "unchanged"), byte-identical to spx-gen's; names that cannot be
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
