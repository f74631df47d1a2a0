//! Every refusal says what to do: the `help:` of each SPX-Z202 rule, of an
//! unknown type, an unknown root and a missing comma, asserted exactly, and
//! wherever the help is a concrete edit, the edit applied to the source
//! and shown to get past that refusal.

use spx_schema::source::{read_module, Module, Target, TypeExpr};
use spx_schema::{Diagnostic, Location, Schema};

const Z202: &str = include_str!("../../cli/tests/fixtures/mistakes/z202.spx");

fn module(text: &str) -> Module {
    read_module("m.spx", text).unwrap_or_else(|e| panic!("{e:#?}"))
}

fn refusal(text: &str, root: &str) -> Diagnostic {
    Schema::derive(&module(text), root).expect_err(root)
}

fn z202(text: &str, root: &str, rule: &str) -> (Diagnostic, String) {
    let d = refusal(text, root);
    assert_eq!((d.code.as_str(), d.rule), ("SPX-Z202", rule), "{d}");
    let help = d.help.clone().unwrap_or_else(|| panic!("no help: {d}"));
    (d, help)
}

/// The text between the first `` `@id("`` … `")` `` of `help`.
fn suggested_id(help: &str) -> &str {
    let start = help.find("@id(\"").expect("an @id suggestion") + 5;
    let end = start + help[start..].find("\")").unwrap();
    &help[start..end]
}

/// `text` with `line` (exactly, indentation included) preceded by
/// `@id("id")` at the same indentation.
fn with_id_before(text: &str, line: &str, id: &str) -> String {
    let indent: String = line.chars().take_while(|c| *c == ' ').collect();
    assert!(text.contains(line), "{line:?}");
    text.replacen(line, &format!("{indent}@id(\"{id}\")\n{line}"), 1)
}

fn span_text<'a>(text: &'a str, d: &Diagnostic) -> &'a str {
    match &d.location {
        Location::Source { span: Some(s), .. } => &text[s.start..s.end],
        other => panic!("no span: {other:?}"),
    }
}

#[test]
fn float_field() {
    let (d, help) = z202(Z202, "z.float", "type.field.unsupported");
    assert_eq!(
        span_text(Z202, &d),
        "celsius: f64",
        "the caret covers the type"
    );
    assert_eq!(
        help,
        "`celsius` is a float, and a schema carries no floating point (every value must round-trip exactly): use an exact integer such as `i64` in fixed point (for example thousandths), or a `string`"
    );
    let fixed = Z202.replace("celsius: f64,", "celsius: i64,");
    Schema::derive(&module(&fixed), "z.float").unwrap();
    let fixed = Z202.replace("celsius: f64,", "celsius: string,");
    Schema::derive(&module(&fixed), "z.float").unwrap();
}

#[test]
fn other_unsupported_fields() {
    for (ty, want) in [
        ("char", "`f` is a `char`, which a schema does not carry: use a `string` (at most 4096 UTF-8 bytes)"),
        ("str", "`f` is a borrowed `str`: use the owned `string`"),
        ("[u8; 4]", "`f` holds bytes: use `Bytes` (at most 4096 bytes)"),
        ("Slice<u8>", "`f` holds bytes: use `Bytes` (at most 4096 bytes)"),
        ("[i64; 2]", "`f` is a list, which a schema does not carry: use `Bytes` for bytes, or a record with one field per element"),
    ] {
        let text = format!("module m;\n@id(\"r\")\nrecord R {{\n    @id(\"r.f\")\n    f: {ty},\n}}\n");
        let (_, help) = z202(&text, "r", "type.field.unsupported");
        assert_eq!(help, want, "{ty}");
    }
}

#[test]
fn option_field_gets_a_variant_to_declare() {
    let (d, help) = z202(Z202, "z.option", "type.field.generic_argument");
    assert_eq!(span_text(Z202, &d), "note: Option<string>");
    let declaration = "@id(\"z.maybe_string\") variant MaybeString { @id(\"z.maybe_string.none\") None, @id(\"z.maybe_string.some\") Some { @id(\"z.maybe_string.some.value\") value: string, }, }";
    assert_eq!(
        help,
        format!("a schema type takes no type arguments, so `Option<string>` cannot be carried: declare a variant with two cases and give `note` its type instead, for example\n  {declaration}")
    );
    let fixed = format!(
        "{}\n{declaration}\n",
        Z202.replace("note: Option<string>,", "note: MaybeString,")
    );
    let s = Schema::derive(&module(&fixed), "z.option").unwrap();
    assert_eq!(s.graph().types.len(), 2);
}

#[test]
fn result_and_generic_record_fields() {
    let text =
        "module m;\n@id(\"r\")\nrecord R {\n    @id(\"r.f\")\n    f: Result<i64, string>,\n}\n";
    let (_, help) = z202(text, "r", "type.field.generic_argument");
    assert_eq!(
        help,
        "a schema type takes no type arguments, so `Result<i64, string>` cannot be carried: declare a variant with two cases `Ok { value: i64, }` and `Err { value: string, }` (each case and field with an `@id`) and give `f` that type"
    );
}

#[test]
fn missing_ids_get_the_id_to_write() {
    // A declaration.
    let (d, help) = z202(Z202, "z.nested_noid", "type.identity_origin");
    assert_eq!(span_text(Z202, &d), "NoId");
    assert_eq!(
        help,
        "record `NoId` has no `@id`, so its identity `auto:record:z.NoId` is automatic and not persistent: write `@id(\"z.no_id\")` on the line before `record NoId`"
    );
    let fixed = with_id_before(Z202, "record NoId {", suggested_id(&help));
    Schema::derive(&module(&fixed), "z.nested_noid").unwrap();

    // A field.
    let (d, help) = z202(Z202, "z.field_noid", "type.field.identity_origin");
    assert_eq!(span_text(Z202, &d), "count");
    assert_eq!(
        help,
        "field `count` of record `FieldNoId` has no `@id`, so its identity is automatic and not persistent: write `@id(\"z.field_noid.count\")` on the line before `count:`"
    );
    let fixed = with_id_before(Z202, "    count: i64,", suggested_id(&help));
    Schema::derive(&module(&fixed), "z.field_noid").unwrap();

    // A case.
    let (d, help) = z202(Z202, "z.case_noid", "type.case.identity_origin");
    assert_eq!(span_text(Z202, &d), "Left");
    assert_eq!(
        help,
        "case `Left` of variant `Choice` has no `@id`, so its identity is automatic and not persistent: write `@id(\"z.case_noid.left\")` on the line before `Left`"
    );
    let fixed = with_id_before(Z202, "    Left,", suggested_id(&help));
    Schema::derive(&module(&fixed), "z.case_noid").unwrap();

    // A field of a case without an id, in a variant without one: the
    // suggestion is built from the ids to be written.
    let text = "module m;\nvariant V {\n    A {\n        n: i64,\n    },\n}\n";
    let m = module(text);
    let d = Schema::derive(&m, "auto:variant:m.V").unwrap_err();
    assert_eq!(d.rule, "type.identity_origin");
    assert!(d.help.unwrap().contains("write `@id(\"m.v\")`"));
}

#[test]
fn class_root() {
    let (d, help) = z202(Z202, "z.class", "type.kind");
    assert_eq!(span_text(Z202, &d), "Account");
    assert_eq!(
        help,
        "class `Account` cannot be carried by a schema (a class holds behaviour); a schema carries records and variants: declare a `record` with the fields to exchange, under its own `@id`"
    );
    let fixed = Z202.replace("class Account {", "record Account {");
    Schema::derive(&module(&fixed), "z.class").unwrap();
    let text = "module m;\n@id(\"h\")\nresource Handle;\n";
    let (_, help) = z202(text, "h", "type.kind");
    assert!(help.starts_with("resource `Handle` cannot be carried by a schema (a resource stands for something the host owns)"), "{help}");
}

#[test]
fn generic_root() {
    let (d, help) = z202(Z202, "z.generic", "type.generic");
    assert_eq!(span_text(Z202, &d), "Boxed");
    assert_eq!(
        help,
        "record `Boxed<T>` has type parameters, and a schema type is monomorphic: derive from a record or variant whose fields have concrete types (a copy of it with `T` replaced, under its own `@id`)"
    );
    let fixed = Z202.replace(
        "record Boxed<T> {\n    value: T,\n}",
        "record Boxed {\n    @id(\"z.generic.value\")\n    value: i64,\n}",
    );
    Schema::derive(&module(&fixed), "z.generic").unwrap();
    // A prelude type as a root has no position: the help names it.
    let (_, help) = z202(Z202, "core.option", "type.generic");
    assert!(
        help.starts_with("the type \"core.option\" has type parameters"),
        "{help}"
    );
}

#[test]
fn unresolved_alias() {
    let (_, help) = z202(Z202, "z.alias", "type.unresolved");
    assert_eq!(
        help,
        "`Thing` is imported with `use type` (id \"other.thing\") from module `other`, which a single file cannot read: name the project's `semaprax.toml` (which lists that module) instead of `m.spx`, or declare the type in this module"
    );
    let fixed = Z202.replace(
        "use type @id(\"other.thing\") from other as Thing;",
        "@id(\"other.thing\")\nrecord Thing {\n    @id(\"other.thing.n\")\n    n: i64,\n}",
    );
    Schema::derive(&module(&fixed), "z.alias").unwrap();
}

#[test]
fn bounds() {
    let deep = include_str!("../fixtures/macro/max_depth.spx");
    let (_, help) = z202(deep, "deep.r0", "type.max_depth");
    assert_eq!(
        help,
        "field `next` is nested more than 16 levels below the root, the bound of the wire format: flatten the nesting, for example by moving the fields of a nested record into its parent"
    );
    // Sixteen levels below the root derive.
    Schema::derive(&module(deep), "deep.r1").unwrap();

    let wide = include_str!("../fixtures/macro/max_types.spx");
    let (d, help) = z202(wide, "wide.root", "type.max_types");
    assert_eq!(
        d.location,
        Location::File {
            path: "m.spx".into()
        }
    );
    assert_eq!(
        help,
        "the schema of root \"wide.root\" reaches more than 64 types, the bound of the wire format: split it into several roots, or use one type where several are alike"
    );
}

/// `type.cases` and `type.recursive` cannot be reached from a source that
/// the reader admits (SPX-T215 refuses an empty variant, SPX-T217 and
/// SPX-T215 a cycle): they are shown on a module changed after reading.
#[test]
fn empty_variant_and_recursion() {
    let mut m = module("module m;\n@id(\"v\")\nvariant V {\n    @id(\"v.a\")\n    A,\n}\n");
    m.decls[0].cases.clear();
    let d = Schema::derive(&m, "v").unwrap_err();
    assert_eq!(d.rule, "type.cases");
    assert_eq!(
        d.help.as_deref(),
        Some("variant `V` has no cases, so no value of it exists: add at least one case, each with an `@id`")
    );

    let mut m = module(
        "module m;\n@id(\"a\")\nrecord A {\n    @id(\"a.b\")\n    b: B,\n}\n@id(\"b\")\nrecord B {\n    @id(\"b.a\")\n    a: i64,\n}\n",
    );
    m.decls[1].fields[0].ty = TypeExpr::Named {
        name: "A".into(),
        args: Vec::new(),
        target: Target::Decl(0),
    };
    let d = Schema::derive(&m, "a").unwrap_err();
    assert_eq!(d.rule, "type.recursive");
    assert_eq!(
        d.help.as_deref(),
        Some("field `a` leads back to a type that contains it, and a schema value has bounded size: break the cycle, for example by storing the stable reference (an id as `string` or `i64`) instead of the value")
    );
}

#[test]
fn unknown_root_names_it_and_lists_the_roots_that_derive() {
    let ok = include_str!("../fixtures/macro/ok.spx");
    let d = refusal(ok, "ok.piont");
    assert_eq!(d.rule, "type.unresolved");
    assert_eq!(
        d.location,
        Location::File {
            path: "m.spx".into()
        }
    );
    assert_eq!(
        d.detail.as_deref(),
        Some("no record or variant of module `ok` has the stable id \"ok.piont\"")
    );
    let help = d.help.unwrap();
    assert!(help.starts_with("did you mean \"ok.point\"?\n"), "{help}");
    // The suggestion and every listed root derive.
    let listed = help.split("closest first: ").nth(1).unwrap();
    let roots: Vec<&str> = listed.split(", ").map(|r| r.trim_matches('"')).collect();
    assert_eq!(roots[0], "ok.point");
    for r in roots {
        Schema::derive(&module(ok), r).unwrap();
    }

    // Closest first, and a display name is answered with its id.
    let text = "module m;\n@id(\"m.alpha\")\nrecord Alpha {\n    @id(\"m.alpha.x\")\n    x: i64,\n}\n@id(\"m.beta\")\nrecord Beta {\n    @id(\"m.beta.x\")\n    x: i64,\n}\n";
    let help = refusal(text, "m.betta").help.unwrap();
    assert_eq!(
        help,
        "did you mean \"m.beta\"?\nthe roots of module `m` that derive, closest first: \"m.beta\", \"m.alpha\""
    );
    let help = refusal(text, "Alpha").help.unwrap();
    assert!(
        help.starts_with("`Alpha` is the name of record `Alpha`; a root is named by its stable id: \"m.alpha\"\n"),
        "{help}"
    );
    let help = refusal("module m;\nrecord R {\n    x: f64,\n}\n", "r")
        .help
        .unwrap();
    assert!(
        help.starts_with("module `m` has no root that derives"),
        "{help}"
    );
}

#[test]
fn unknown_type_did_you_mean() {
    let text = include_str!("../../cli/tests/fixtures/mistakes/unknown_type.spx");
    let errors = read_module("m.spx", text).unwrap_err();
    let helps: Vec<(&str, Option<&str>)> = errors
        .iter()
        .map(|d| (d.code.as_str(), d.help.as_deref()))
        .collect();
    assert_eq!(
        helps,
        [
            ("SPX-S110", Some("did you mean `string`?")),
            ("SPX-S110", Some("did you mean `Price`?"))
        ]
    );
    // Taking the suggestions reads.
    module(&text.replace("Strng", "string").replace("Pirce", "Price"));
    // Type parameters and aliases are candidates too; nothing close gives
    // what to declare.
    let d = &read_module("m.spx", "module m;\nrecord R<Item> {\n    x: Itme,\n}\n").unwrap_err()[0];
    assert_eq!(d.help.as_deref(), Some("did you mean `Item`?"));
    let d = &read_module("m.spx", "module m;\nrecord R {\n    x: Zebra,\n}\n").unwrap_err()[0];
    assert_eq!(
        d.help.as_deref(),
        Some("declare `Zebra` in this module (a `record` or `variant` with an `@id`), or use a builtin: bool, i32, i64, u8, usize, string, Bytes")
    );
}

#[test]
fn a_missing_comma_points_where_it_goes() {
    for (file, what) in [
        (
            include_str!("../../cli/tests/fixtures/mistakes/missing_comma.spx"),
            "field",
        ),
        (
            include_str!("../../cli/tests/fixtures/mistakes/missing_case_comma.spx"),
            "case",
        ),
    ] {
        let d = read_module("m.spx", file).unwrap_err().remove(0);
        assert_eq!(d.rule, "syntax.unexpected_token");
        assert_eq!(
            d.help,
            Some(format!("add `,` here, at the end of the {what}"))
        );
        let Location::Source { span: Some(s), .. } = d.location else {
            panic!("{d:?}")
        };
        assert_eq!(s.start, s.end, "an empty span where the comma goes");
        assert!(
            !file[..s.start].ends_with(char::is_whitespace),
            "right after the last character of the {what}"
        );
        // Inserting the comma there reads.
        let fixed = format!("{},{}", &file[..s.start], &file[s.start..]);
        module(&fixed);
    }
}

#[test]
fn reader_refusals_say_what_to_do() {
    let cases: &[(&str, &str)] = &[
        (
            "module m;\n@id(\"m.v\")\nvariant V {\n    @id(\"m.v.a\")\n    A(i64),\n}\n",
            "a case carries its fields in braces, each with an `@id`, like a record: `Case { @id(\"…\") value: i64, },`",
        ),
        (
            "module m;\n@id(\"m.r\")\nrecord R {\n    @id(\"m.r.x\")\n    x: i64;\n}\n",
            "write `,` instead of `;`: a field and a case end with a comma",
        ),
        (
            "@id(\"m.r\")\nrecord R { x: i64, }\n",
            "a `.spx` file starts with its module path, for example `module shop;`",
        ),
        (
            "module m;\n@id(m.r)\nrecord R { x: i64, }\n",
            "write the id as one string literal: `@id(\"shop.order\")`",
        ),
        (
            "module m;\nrecord R { x: u64, }\n",
            "write `usize`: it is carried as the representation `u64` (0 to 18446744073709551615)",
        ),
        (
            "module m;\nrecord R { x: float, }\n",
            "a schema carries no floating point (every value must round-trip exactly): use an exact integer such as `i64` in fixed point, or a `string`",
        ),
        (
            "module m;\n@id(\"m.r\")\nrecord R { @id(\"m.r\") x: i64, }\n",
            "give each type, field and case its own `@id`: a stable id names exactly one declaration",
        ),
        (
            "module m;\nrecord R { x: i64, }\nrecord R { y: i64, }\n",
            "rename one of the two types",
        ),
        ("module m;\nrecord R { x: i64 y: i64, }\n", "add `,` here, at the end of the field"),
        ("module m;\nrecord R x: i64, }\n", "write `{` to open the fields here"),
    ];
    for (text, want) in cases {
        let errors = read_module("m.spx", text).unwrap_err();
        assert_eq!(
            errors[0].help.as_deref(),
            Some(*want),
            "{text:?}: {:#?}",
            errors[0]
        );
    }
}

/// Every refusal the reader can give carries a help, on every prefix of
/// the fixtures (truncated files reach most syntax errors).
#[test]
fn every_reader_refusal_has_a_help() {
    for text in [
        include_str!("../fixtures/spx/agent_desk.spx"),
        include_str!("../fixtures/spx/scalars.spx"),
        Z202,
    ] {
        for (i, _) in text.char_indices() {
            if let Err(errors) = read_module("m.spx", &text[..i]) {
                for d in errors {
                    assert!(d.help.is_some(), "{:?}: {d}", &text[..i]);
                }
            }
        }
    }
}

/// `enum` and `struct` are not items of `.spx`: today's reader skips them
/// (a note), and the note says what a schema type would need instead.
#[test]
fn foreign_type_keywords_are_skipped_with_a_note_that_says_what_to_write() {
    for (text, want) in [
        (
            "module m;\nenum V { A, }\n",
            "write `variant`: a `.spx` enum is a `variant`, each case with an `@id`",
        ),
        (
            "module m;\nstruct R { x: i64, }\n",
            "write `record`: a `.spx` struct is a `record`, each field with an `@id`",
        ),
    ] {
        let m = read_module("m.spx", text).expect("skipped, not refused");
        assert_eq!(m.notes.len(), 1, "{text:?}");
        assert_eq!(
            (m.notes[0].code.as_str(), m.notes[0].rule),
            ("SPX-N001", "syntax.unknown_item")
        );
        let help = m.notes[0].help.as_deref().unwrap_or_default();
        assert!(help.contains(want), "{text:?}: {help}");
    }
}
