//! The Python consumer module of one or more roots (`spx gen python`): a
//! frozen dataclass per record; per variant, a base class, a frozen
//! dataclass per case and a `Union` alias of the cases; every integer an
//! `int`; `decode`, `encode`, `SpxError` and the root's constants; then the
//! per-schema tables and the fixed runtime (`runtime.py`, the same bytes in
//! every module). Python 3.9 or later, standard library only, `mypy
//! --strict` clean.

use crate::consumer::{comment, constants, spx_type, string_literal, Module};
use crate::emit::NameError;
use crate::names::Language;
use spx_schema::graph::{Field, FieldType, Repr, TypeKind};
use spx_schema::Schema;
use std::fmt::Write as _;

/// The fixed part of every generated Python module.
pub const RUNTIME: &str = include_str!("runtime.py");

/// Generates the Python module of `schemas` (the roots of one module, in
/// order; the schemas must carry display names, as derived from a `.spx`
/// source). With one root, `decode`, `encode` and the constants are
/// module-level; with several, each root's are members of the class named
/// after its type (the record's dataclass, or the variant's base class):
/// `Point.decode(…)`.
///
/// Refuses names that cannot be Python identifiers or collide (every one
/// is reported).
pub fn generate(schemas: &[Schema]) -> Result<String, Vec<NameError>> {
    let m = Module::new(schemas, Language::Python)?;
    let several = schemas.len() > 1;
    let mut out = String::new();
    for line in m.header("python") {
        if line.is_empty() {
            out.push_str("#\n");
        } else {
            let _ = writeln!(out, "# {line}");
        }
    }
    out.push_str(
        "#\n# Needs nothing at run time but the standard library of Python 3.9 or later.\n",
    );
    out.push_str("\"\"\"Types, a strict decoder and a canonical encoder for Agent Interaction Schema v1 value documents.\"\"\"\n\n");
    out.push_str("from __future__ import annotations\n\n");
    out.push_str("import builtins as _spx_builtins\nimport dataclasses as _spx_dataclasses\nimport json as _spx_json\nimport math as _spx_math\nimport re as _spx_re\nimport typing as _spx_typing\n\n");
    let mut public: Vec<String> = vec!["SpxError".to_owned()];
    if !several {
        public.extend(
            [
                "ROOT_TYPE_ID",
                "ROOT_TYPE_REVISION",
                "SCHEMA_DIGEST",
                "SCHEMA_JSON",
                "decode",
                "encode",
            ]
            .map(str::to_owned),
        );
    }
    for t in &m.order {
        if let Some(n) = m.names.types.get(&t.stable_id) {
            public.push(n.name.clone());
            public.extend(n.cases.iter().map(|c| c.class.clone()));
            if !n.union.is_empty() {
                public.push(n.union.clone());
            }
        }
    }
    out.push_str("__all__ = [\n");
    for p in &public {
        let _ = writeln!(out, "    {},", string_literal(p));
    }
    out.push_str("]\n\n");
    out.push_str("# ---------------------------------------------------------------- types\n");
    for (t, schema, names) in m.named_types() {
        let root = schemas
            .iter()
            .position(|s| several && s.root_type_id() == t.stable_id);
        out.push_str("\n\n");
        match &t.kind {
            TypeKind::Record { fields } => {
                out.push_str("@_spx_dataclasses.dataclass(frozen=True)\n");
                let _ = writeln!(out, "class {}:", names.name);
                let doc = format!(
                    "`.spx` record `{}`, stable id {}.",
                    t.name,
                    comment(&t.stable_id)
                );
                let _ = writeln!(out, "    {}\n", string_literal(&doc));
                members(&mut out, &m, schema, fields, &names.fields);
                if let Some(r) = root {
                    let b = builtins_prefix(&names.fields);
                    root_items(&mut out, &schemas[r], r, &names.name, "    ", b);
                }
            }
            TypeKind::Variant { cases } => {
                let _ = writeln!(out, "class {}:", names.name);
                let doc = format!(
                    "`.spx` variant `{}`, stable id {}: the base class of its cases (`{}` is their union).",
                    t.name,
                    comment(&t.stable_id),
                    names.union
                );
                let _ = writeln!(out, "    {}\n", string_literal(&doc));
                out.push_str("    __slots__ = ()\n");
                if let Some(r) = root {
                    root_items(&mut out, &schemas[r], r, &names.union, "    ", "");
                }
                for (c, cn) in cases.iter().zip(&names.cases) {
                    out.push_str("\n\n@_spx_dataclasses.dataclass(frozen=True)\n");
                    let _ = writeln!(out, "class {}({}):", cn.class, names.name);
                    let doc = format!(
                        "Case `{}` of `{}`, stable id {}.",
                        c.name,
                        t.name,
                        comment(&c.stable_id)
                    );
                    let _ = writeln!(out, "    {}", string_literal(&doc));
                    if !c.fields.is_empty() {
                        out.push('\n');
                    }
                    members(&mut out, &m, schema, &c.fields, &cn.fields);
                }
                let classes: Vec<&str> = names.cases.iter().map(|c| c.class.as_str()).collect();
                let _ = writeln!(
                    out,
                    "\n\n{} = _spx_typing.Union[{}]\n\"\"\"The cases of `{}`.\"\"\"",
                    names.union,
                    classes.join(", "),
                    names.name
                );
            }
        }
    }
    if !several {
        let s = &schemas[0];
        let name = m
            .names
            .types
            .get(s.root_type_id())
            .map_or(String::new(), |n| {
                if n.union.is_empty() {
                    n.name.clone()
                } else {
                    n.union.clone()
                }
            });
        out.push_str(
            "\n\n# ---------------------------------------------------------------- root\n\n",
        );
        root_items(&mut out, s, 0, &name, "", "");
    }
    out.push_str(
        "\n\n# ---------------------------------------------------------------- tables\n\n",
    );
    out.push_str("_SPX_TYPES: _spx_typing.Tuple[_SpxType, ...] = (\n");
    for (t, schema, names) in m.named_types() {
        let id = string_literal(&t.stable_id);
        match &t.kind {
            TypeKind::Record { fields } => {
                let _ = writeln!(
                    out,
                    "    ({id}, {}, {}, None),",
                    names.name,
                    field_table(&m, schema, fields, &names.fields)
                );
            }
            TypeKind::Variant { cases } => {
                let _ = writeln!(out, "    ({id}, {}, (), (", names.name);
                for (c, cn) in cases.iter().zip(&names.cases) {
                    let _ = writeln!(
                        out,
                        "        ({}, {}, {}),",
                        string_literal(&c.stable_id),
                        cn.class,
                        field_table(&m, schema, &c.fields, &cn.fields)
                    );
                }
                out.push_str("    )),\n");
            }
        }
    }
    out.push_str(")\n\n_SPX_ROOTS: _spx_typing.Tuple[_SpxRoot, ...] = (\n");
    for s in schemas {
        let _ = writeln!(out, "    ({}),", m.root_entry(s).join(", "));
    }
    out.push_str(")\n\n\n");
    out.push_str(RUNTIME);
    Ok(out)
}

/// The prefix of builtin type names in a class whose field names shadow
/// one of them (a field named `int` makes `int` that field in the class
/// body): `_spx_builtins.`, else nothing.
fn builtins_prefix(names: &[String]) -> &'static str {
    if names
        .iter()
        .any(|n| matches!(n.as_str(), "int" | "str" | "bytes" | "bool"))
    {
        "_spx_builtins."
    } else {
        ""
    }
}

fn py_type(m: &Module<'_>, schema: &Schema, ty: FieldType, b: &str) -> String {
    match ty {
        FieldType::Scalar(Repr::Bool) => format!("{b}bool"),
        FieldType::Scalar(Repr::String) => format!("{b}str"),
        FieldType::Scalar(Repr::Bytes) => format!("{b}bytes"),
        FieldType::Scalar(_) => format!("{b}int"),
        FieldType::Nested(i) => match m.nested(schema, i) {
            Some(n) if !n.union.is_empty() => n.union.clone(),
            Some(n) => n.name.clone(),
            None => "object".to_owned(),
        },
    }
}

fn members(out: &mut String, m: &Module<'_>, schema: &Schema, fields: &[Field], names: &[String]) {
    let b = builtins_prefix(names);
    for (f, n) in fields.iter().zip(names) {
        let _ = writeln!(
            out,
            "    # `{}`: {}, stable id {}.",
            f.name,
            spx_type(schema, f.ty),
            comment(&f.stable_id)
        );
        let _ = writeln!(out, "    {n}: {}", py_type(m, schema, f.ty, b));
    }
}

fn field_table(m: &Module<'_>, schema: &Schema, fields: &[Field], names: &[String]) -> String {
    let entries: Vec<String> = m
        .field_entries(schema, fields, names)
        .into_iter()
        .map(|e| format!("({e})"))
        .collect();
    match entries.len() {
        0 => "()".to_owned(),
        1 => format!("({},)", entries[0]),
        _ => format!("({})", entries.join(", ")),
    }
}

/// A root's constants, `decode` and `encode`: module-level (`indent` empty)
/// or in the root's class. `ty` is the annotation of its values, `b` the
/// prefix of builtin type names ([`builtins_prefix`]).
fn root_items(out: &mut String, s: &Schema, r: usize, ty: &str, indent: &str, b: &str) {
    let class = !indent.is_empty();
    let consts = constants(s);
    out.push('\n');
    for (c, doc, v) in consts {
        let annotation = if class {
            format!(": _spx_typing.ClassVar[{b}str]")
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "{indent}{c}{annotation} = {}\n{indent}\"\"\"{doc}\"\"\"",
            string_literal(v)
        );
    }
    let stat = if class {
        format!("\n{indent}@staticmethod")
    } else {
        "\n".to_owned()
    };
    let _ = writeln!(
        out,
        "{stat}\n{indent}def decode(data: _spx_typing.Union[{b}bytes, {b}str]) -> {ty}:\n{indent}    \"\"\"Strictly decodes a value document (bytes, or text): the engine's verdict on every\n{indent}    input. Raises `SpxError` with the engine's code, rule and JSON Pointer.\"\"\"\n{indent}    result: {ty} = _spx_decode(_SPX_ROOTS[{r}], data)\n{indent}    return result"
    );
    let _ = writeln!(
        out,
        "{stat}\n{indent}def encode(value: {ty}) -> {b}str:\n{indent}    \"\"\"The canonical value document of `value`, ending with its LF. Raises `SpxError`\n{indent}    (SPX-Z206, the engine's rule and pointer) for a value out of its bounds.\"\"\"\n{indent}    return _spx_encode(_SPX_ROOTS[{r}], value)"
    );
}
