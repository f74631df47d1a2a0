use super::*;
use crate::graph::{Case, TypeGraph, TypeNode};

fn f(id: &str, ty: FieldType) -> Field {
    Field {
        stable_id: id.into(),
        name: String::new(),
        ty,
    }
}

fn record(id: &str, fields: Vec<Field>) -> TypeNode {
    TypeNode {
        stable_id: id.into(),
        name: String::new(),
        kind: TypeKind::Record { fields },
    }
}

fn variant(id: &str, cases: Vec<(&str, Vec<Field>)>) -> TypeNode {
    TypeNode {
        stable_id: id.into(),
        name: String::new(),
        kind: TypeKind::Variant {
            cases: cases
                .into_iter()
                .map(|(c, fields)| Case {
                    stable_id: c.into(),
                    name: String::new(),
                    fields,
                })
                .collect(),
        },
    }
}

fn schema(types: Vec<TypeNode>) -> Schema {
    Schema::from_graph(TypeGraph { types }).unwrap()
}

#[test]
fn every_escaped_character_is_below_u00a0() {
    // `regex::string_char` relies on it.
    for c in (0u32..=0x10ffff).filter_map(char::from_u32) {
        if short_escape_or_unicode(c) {
            assert!(u32::from(c) < 0xa0, "{c:?}");
        }
    }
}

fn short_escape_or_unicode(c: char) -> bool {
    crate::quote::short_escape(c).is_some() || crate::quote::unicode_escaped(c)
}

#[test]
fn a_small_schema_prints_exactly() {
    let s = schema(vec![
        record("p.in", vec![]),
        variant(
            "p.v",
            vec![
                ("p.v.a", vec![]),
                (
                    "p.v.b",
                    vec![
                        f("p.b.flag", FieldType::Scalar(Repr::Bool)),
                        f("p.b.in", FieldType::Nested(0)),
                    ],
                ),
            ],
        ),
    ]);
    let g = Grammar::build(&s);
    let prefix = quote(&envelope::prefix("p.v", s.digest()));
    let expected = format!(
        concat!(
            "%llguidance {{}}\n\n",
            "// The canonical value documents of one Agent Interaction Schema v1 root\n",
            "// (FORMAT.md §6), written by spx. Narrowed bounds: `spx provider-schema --losses`.\n\n",
            "start: {} t1_p_v \"}}\\n\"\n",
            "\n// record \"p.in\"\n",
            "t0_p_in: \"{{\\\"fields\\\":{{}}}}\"\n",
            "\n// variant \"p.v\"\n",
            "t1_p_v: \"{{\\\"case\\\":\\\"p.v.a\\\",\\\"fields\\\":{{}}}}\"\n",
            "    | \"{{\\\"case\\\":\\\"p.v.b\\\",\\\"fields\\\":{{\\\"p.b.flag\\\":\" BOOL \",\\\"p.b.in\\\":\" t0_p_in \"}}}}\"\n",
            "\nBOOL: /true|false/\n",
        ),
        prefix
    );
    assert_eq!(g.lark(), expected);
    assert!(g.narrowings.is_empty());
    assert_eq!(g.narrowings_json(), "[]\n");
    let longest = envelope::prefix("p.v", s.digest()).len()
        + "{\"case\":\"p.v.b\",\"fields\":{\"p.b.flag\":false,\"p.b.in\":{\"fields\":{}}}}".len()
        + 2;
    assert_eq!(g.max_document_bytes, longest);
}

#[test]
fn strings_are_narrowed_to_1024_characters() {
    let s = schema(vec![record(
        "r",
        vec![
            f("r.s", FieldType::Scalar(Repr::String)),
            f("r.b", FieldType::Scalar(Repr::Bytes)),
        ],
    )]);
    let g = Grammar::build(&s);
    assert_eq!(
        g.narrowings_json(),
        "[{\"field\":\"r.s\",\"rule\":\"value.string_bytes\",\"enforced\":{\"max_chars\":1024}}]\n"
    );
    assert!(g.lark().contains("STRING_1024: /\"("));
    assert!(g.lark().contains("BYTES_4096: /\\[("));
}

#[test]
fn a_document_over_the_bound_gets_one_common_cap() {
    // Four full byte arrays are 4 × 16385 bytes: over 65536.
    let fields: Vec<Field> = (0..4)
        .map(|i| f(&format!("r.b{i}"), FieldType::Scalar(Repr::Bytes)))
        .chain([f("r.s", FieldType::Scalar(Repr::String))])
        .collect();
    let s = schema(vec![record("r", fields)]);
    let g = Grammar::build(&s);
    assert!(g.max_document_bytes <= MAX_DOCUMENT_BYTES);
    let cap = match g.narrowings[0].enforced {
        Enforced::MaxElements(n) => n,
        e => panic!("{e:?}"),
    };
    assert!(cap < MAX_BYTES_LEN && cap > 3000, "{cap}");
    // One more element would not fit.
    let doc = |cap: usize| {
        let prefix = envelope::prefix("r", s.digest()).len();
        let array = 2 + 4 * cap - 1;
        prefix + "{\"fields\":{".len() + 4 * (",\"r.b0\":".len() + array) - 1
            + ",\"r.s\":".len()
            + 2
            + 6 * MAX_STRING_CHARS.min(cap)
            + "}}".len()
            + 2
    };
    assert_eq!(g.max_document_bytes, doc(cap));
    assert!(doc(cap + 1) > MAX_DOCUMENT_BYTES);
    let last = g.narrowings.last().unwrap();
    assert_eq!(
        (last.field.as_str(), last.rule, last.enforced),
        (DOCUMENT, RULE_DOCUMENT_BYTES, Enforced::MaxBytes(doc(cap)))
    );
    assert_eq!(g.narrowings.len(), 6);
    assert_eq!(
        g.narrowings[4],
        Narrowing {
            field: "r.s".into(),
            rule: RULE_STRING_BYTES,
            enforced: Enforced::MaxChars(MAX_STRING_CHARS)
        }
    );
}

/// A chain of records, each with `fan` fields of the one before.
fn fan_chain(depth: usize, fan: usize, leaf: Vec<TypeNode>) -> Vec<TypeNode> {
    let mut types = leaf;
    for d in 0..depth {
        let below = types.len() - 1;
        let fields = (0..fan)
            .map(|i| f(&format!("c{d}.f{i}"), FieldType::Nested(below)))
            .collect();
        types.push(record(&format!("c{d}"), fields));
    }
    types
}

#[test]
fn a_schema_with_no_fitting_document_accepts_nothing() {
    let s = schema(fan_chain(13, 2, vec![record("leaf", vec![])]));
    let g = Grammar::build(&s);
    assert!(g.start.is_empty());
    assert_eq!(g.max_document_bytes, 0);
    assert!(g.lark().contains("start: NOTHING\n"));
    assert_eq!(
        g.narrowings_json(),
        "[{\"field\":\"document\",\"rule\":\"document_bytes\",\"enforced\":{\"max_bytes\":0}}]\n"
    );
}

#[test]
fn cases_that_cannot_fit_are_left_out() {
    // The leaf variant's big case makes every document too long; the
    // small one fits.
    let big = (0..4)
        .map(|i| f(&format!("leaf.big.{i}"), FieldType::Scalar(Repr::I64)))
        .collect();
    let s = schema(fan_chain(
        9,
        2,
        vec![variant(
            "leaf",
            vec![("leaf.small", vec![]), ("leaf.big", big)],
        )],
    ));
    let g = Grammar::build(&s);
    assert!(!g.start.is_empty());
    assert!(g.max_document_bytes <= MAX_DOCUMENT_BYTES);
    assert_eq!(
        g.narrowings[0],
        Narrowing {
            field: "leaf.big".into(),
            rule: RULE_DOCUMENT_BYTES,
            enforced: Enforced::MaxOccurrences(0)
        }
    );
    assert!(!g.lark().contains("leaf.big"));
    assert!(g.lark().contains("leaf.small"));
}
