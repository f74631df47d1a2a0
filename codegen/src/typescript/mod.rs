//! The TypeScript consumer module of one or more roots (`spx gen
//! typescript`): an `interface` per record, a discriminated union per
//! variant (`{ case: "Circle", … }`), every integer a `bigint`, `decode`,
//! `encode`, `SpxError` and the root's constants, then the per-schema
//! tables and the fixed runtime (`runtime.ts`, the same bytes in every
//! module). It compiles under `tsc --strict` (ES2020) and needs nothing at
//! run time but the platform.

use crate::consumer::{comment, constants, spx_type, string_literal, Module};
use crate::emit::NameError;
use crate::names::Language;
use spx_schema::graph::{Field, FieldType, Repr, TypeKind};
use spx_schema::Schema;
use std::fmt::Write as _;

/// The fixed part of every generated TypeScript module.
pub const RUNTIME: &str = include_str!("runtime.ts");

/// Generates the TypeScript module of `schemas` (the roots of one module,
/// in order; the schemas must carry display names, as derived from a
/// `.spx` source). With one root, `decode`, `encode` and the constants are
/// module-level; with several, each root's are members of a frozen object
/// named after its type (`Point.decode(…)`).
///
/// Refuses names that cannot be TypeScript identifiers or collide (every
/// one is reported).
pub fn generate(schemas: &[Schema]) -> Result<String, Vec<NameError>> {
    let m = Module::new(schemas, Language::TypeScript)?;
    let mut out = String::new();
    for line in m.header("typescript") {
        if line.is_empty() {
            out.push_str("//\n");
        } else {
            let _ = writeln!(out, "// {line}");
        }
    }
    out.push_str("//\n// Needs no package at run time: ES2020 (BigInt, TextDecoder), Node.js 18+ or a browser.\n");
    out.push_str("/* eslint-disable */\n\n");
    out.push_str("// ---------------------------------------------------------------- types\n");
    for (t, schema, names) in m.named_types() {
        out.push('\n');
        match &t.kind {
            TypeKind::Record { fields } => {
                let _ = writeln!(
                    out,
                    "/** `.spx` record `{}`, stable id {}. */",
                    t.name,
                    comment(&t.stable_id)
                );
                let _ = writeln!(out, "export interface {} {{", names.name);
                members(&mut out, &m, schema, fields, &names.fields);
                out.push_str("}\n");
            }
            TypeKind::Variant { cases } => {
                let _ = writeln!(
                    out,
                    "/** `.spx` variant `{}`, stable id {}: one of its cases, told apart by `case`. */",
                    t.name,
                    comment(&t.stable_id)
                );
                let classes: Vec<&str> = names.cases.iter().map(|c| c.class.as_str()).collect();
                let _ = writeln!(out, "export type {} = {};", names.name, classes.join(" | "));
                for (c, cn) in cases.iter().zip(&names.cases) {
                    let _ = writeln!(
                        out,
                        "\n/** Case `{}` of `{}`, stable id {}. */",
                        c.name,
                        t.name,
                        comment(&c.stable_id)
                    );
                    let _ = writeln!(out, "export interface {} {{", cn.class);
                    let _ = writeln!(out, "  readonly case: {};", string_literal(&cn.tag));
                    members(&mut out, &m, schema, &c.fields, &cn.fields);
                    out.push_str("}\n");
                }
            }
        }
    }
    out.push_str("\n// ---------------------------------------------------------------- roots\n");
    let several = schemas.len() > 1;
    for (r, s) in schemas.iter().enumerate() {
        let name = m
            .names
            .types
            .get(s.root_type_id())
            .map_or("", |n| n.name.as_str());
        out.push('\n');
        root_items(&mut out, s, r, name, several);
    }
    out.push_str(
        "\n// ---------------------------------------------------------------- tables\n\n",
    );
    out.push_str("const $TYPES: readonly $Type[] = [\n");
    for (t, schema, names) in m.named_types() {
        let id = string_literal(&t.stable_id);
        match &t.kind {
            TypeKind::Record { fields } => {
                let _ = writeln!(
                    out,
                    "  {{ id: {id}, cases: null, fields: {} }},",
                    field_table(&m, schema, fields, &names.fields)
                );
            }
            TypeKind::Variant { cases } => {
                let _ = writeln!(out, "  {{ id: {id}, fields: [], cases: [");
                for (c, cn) in cases.iter().zip(&names.cases) {
                    let _ = writeln!(
                        out,
                        "    [{}, {}, {}],",
                        string_literal(&c.stable_id),
                        string_literal(&cn.tag),
                        field_table(&m, schema, &c.fields, &cn.fields)
                    );
                }
                out.push_str("  ] },\n");
            }
        }
    }
    out.push_str("];\n");
    for (r, s) in schemas.iter().enumerate() {
        let [ty, id, digest, prefix] = m.root_entry(s);
        let _ = writeln!(
            out,
            "\nconst $ROOT_{r}: $Root = {{ type: {ty}, id: {id}, digest: {digest}, prefix: {prefix} }};"
        );
    }
    out.push('\n');
    out.push_str(RUNTIME);
    Ok(out)
}

fn ts_type(m: &Module<'_>, schema: &Schema, ty: FieldType) -> String {
    match ty {
        FieldType::Scalar(Repr::Bool) => "boolean".to_owned(),
        FieldType::Scalar(Repr::String) => "string".to_owned(),
        FieldType::Scalar(Repr::Bytes) => "Uint8Array".to_owned(),
        FieldType::Scalar(_) => "bigint".to_owned(),
        FieldType::Nested(i) => m
            .nested(schema, i)
            .map_or_else(String::new, |n| n.name.clone()),
    }
}

fn members(out: &mut String, m: &Module<'_>, schema: &Schema, fields: &[Field], names: &[String]) {
    for (f, n) in fields.iter().zip(names) {
        let _ = writeln!(
            out,
            "  /** `{}`: {}, stable id {}. */",
            f.name,
            spx_type(schema, f.ty),
            comment(&f.stable_id)
        );
        let _ = writeln!(out, "  readonly {n}: {};", ts_type(m, schema, f.ty));
    }
}

fn field_table(m: &Module<'_>, schema: &Schema, fields: &[Field], names: &[String]) -> String {
    let entries: Vec<String> = m
        .field_entries(schema, fields, names)
        .into_iter()
        .map(|e| format!("[{e}]"))
        .collect();
    format!("[{}]", entries.join(", "))
}

fn root_items(out: &mut String, s: &Schema, r: usize, name: &str, several: bool) {
    let consts = constants(s);
    let decode_doc = format!(
        "Strictly decodes a value document of `{name}` (bytes, or text): the engine's verdict on every input. Throws an `SpxError` with the engine's code, rule and JSON Pointer."
    );
    let encode_doc = "The canonical value document of `value`, ending with its LF. Throws an `SpxError` (SPX-Z206, the engine's rule and pointer) for a value out of its bounds.";
    if several {
        let _ = writeln!(
            out,
            "/** Root {}: its constants, `decode` and `encode`. */",
            comment(s.root_type_id())
        );
        let _ = writeln!(out, "export const {name} = Object.freeze({{");
        for (c, doc, v) in consts {
            let _ = writeln!(out, "  /** {doc} */\n  {c}: {},", string_literal(v));
        }
        let _ = writeln!(
            out,
            "  /** {decode_doc} */\n  decode(input: Uint8Array | string): {name} {{\n    return $decode($ROOT_{r}, input) as {name};\n  }},"
        );
        let _ = writeln!(
            out,
            "  /** {encode_doc} */\n  encode(value: {name}): string {{\n    return $encode($ROOT_{r}, value);\n  }},"
        );
        out.push_str("});\n");
    } else {
        for (c, doc, v) in consts {
            let _ = writeln!(
                out,
                "/** {doc} */\nexport const {c} = {};",
                string_literal(v)
            );
        }
        let _ = writeln!(
            out,
            "\n/** {decode_doc} */\nexport function decode(input: Uint8Array | string): {name} {{\n  return $decode($ROOT_{r}, input) as {name};\n}}"
        );
        let _ = writeln!(
            out,
            "\n/** {encode_doc} */\nexport function encode(value: {name}): string {{\n  return $encode($ROOT_{r}, value);\n}}"
        );
    }
}
