//! Property test: admission (`admit`) of any RFC 8259 rendering of a valid
//! value — pretty-printed, keys in any order, every string character
//! escaped in any legal way (`\u0061` for `a`, upper- or lowercase hex,
//! surrogate pairs, `\/`, `\b`, `\f`), integers' digits escaped too —
//! gives exactly the canonical value document, for every dialect (wrapped
//! as `{"value": …}` where the dialect wraps the root), over random type
//! graphs and values.

mod prop_support;

use prop_support::*;
use proptest::prelude::*;
use spx_schema::admit::admit;
use spx_schema::decode::{decode, Decoded};
use spx_schema::encode::encode;
use spx_schema::graph::{FieldType, Repr, TypeGraph, TypeKind};
use spx_schema::project::Dialect;
use spx_schema::Value;

/// Object members: a key and a writer of its value.
type Members<'a> = Vec<(String, Box<dyn FnOnce(&mut Pretty<'_>) + 'a>)>;

/// Writes JSON text with random whitespace, key order and escapes.
struct Pretty<'a> {
    r: &'a mut XorShift,
    out: String,
}

impl Pretty<'_> {
    fn ws(&mut self) {
        for _ in 0..self.r.below(3) {
            self.out
                .push_str([" ", "\n", "\t", "\r\n", "    "][self.r.below(5)]);
        }
    }

    fn string(&mut self, s: &str) {
        self.out.push('"');
        for c in s.chars() {
            let must = c == '"' || c == '\\' || (c as u32) < 0x20;
            let escape = must || self.r.one_in(4);
            if !escape {
                self.out.push(c);
                continue;
            }
            let short = match c {
                '"' => Some("\\\""),
                '\\' => Some("\\\\"),
                '/' => Some("\\/"),
                '\u{8}' => Some("\\b"),
                '\u{c}' => Some("\\f"),
                '\n' => Some("\\n"),
                '\r' => Some("\\r"),
                '\t' => Some("\\t"),
                _ => None,
            };
            match short {
                Some(e) if self.r.one_in(2) => self.out.push_str(e),
                _ => {
                    let upper = self.r.one_in(2);
                    let mut units = [0u16; 2];
                    for u in c.encode_utf16(&mut units) {
                        if upper {
                            self.out.push_str(&format!("\\u{u:04X}"));
                        } else {
                            self.out.push_str(&format!("\\u{u:04x}"));
                        }
                    }
                }
            }
        }
        self.out.push('"');
    }

    /// An object from members written by `write`, in a random order.
    fn object(&mut self, members: Members<'_>) {
        let mut members = members;
        // Fisher-Yates with the test's own stream.
        for i in (1..members.len()).rev() {
            let j = self.r.below(i + 1);
            members.swap(i, j);
        }
        self.out.push('{');
        self.ws();
        let n = members.len();
        for (k, (key, write)) in members.into_iter().enumerate() {
            self.string(&key);
            self.ws();
            self.out.push(':');
            self.ws();
            write(self);
            self.ws();
            if k + 1 < n {
                self.out.push(',');
                self.ws();
            }
        }
        self.out.push('}');
    }
}

fn write_value(p: &mut Pretty<'_>, graph: &TypeGraph, t: usize, v: &Value) {
    let (case, fields) = match v {
        Value::Record(f) => (None, f),
        Value::Variant { case, fields } => (Some(case.clone()), fields),
        _ => unreachable!("a type's value is a record or a variant"),
    };
    let decl: Vec<FieldType> = match &graph.types[t].kind {
        TypeKind::Record { fields } => fields.iter().map(|f| f.ty).collect(),
        TypeKind::Variant { cases } => cases
            .iter()
            .find(|c| Some(&c.stable_id) == case.as_ref())
            .unwrap()
            .fields
            .iter()
            .map(|f| f.ty)
            .collect(),
    };
    let mut members: Members<'_> = Vec::new();
    if let Some(case) = case {
        members.push((
            "case".into(),
            Box::new(move |p: &mut Pretty<'_>| p.string(&case)),
        ));
    }
    members.push((
        "fields".into(),
        Box::new(move |p: &mut Pretty<'_>| {
            let inner: Members<'_> = fields
                .iter()
                .zip(decl)
                .map(|((id, fv), ty)| {
                    let w: Box<dyn FnOnce(&mut Pretty<'_>) + '_> =
                        Box::new(move |p: &mut Pretty<'_>| write_field(p, graph, ty, fv));
                    (id.clone(), w)
                })
                .collect();
            p.object(inner);
        }),
    ));
    p.object(members);
}

fn write_field(p: &mut Pretty<'_>, graph: &TypeGraph, ty: FieldType, v: &Value) {
    match (ty, v) {
        (FieldType::Nested(i), v) => write_value(p, graph, i, v),
        (FieldType::Scalar(Repr::Bool), Value::Bool(b)) => {
            p.out.push_str(if *b { "true" } else { "false" })
        }
        (FieldType::Scalar(_), Value::I64(n)) => p.string(&n.to_string()),
        (FieldType::Scalar(_), Value::U64(n)) => p.string(&n.to_string()),
        (FieldType::Scalar(_), Value::String(s)) => p.string(s),
        (FieldType::Scalar(_), Value::Bytes(b)) => {
            p.out.push('[');
            p.ws();
            for (i, x) in b.iter().enumerate() {
                if i > 0 {
                    p.out.push(',');
                    p.ws();
                }
                p.out.push_str(&x.to_string());
            }
            p.ws();
            p.out.push(']');
        }
        (ty, v) => unreachable!("{ty:?} {v:?}"),
    }
}

/// A random rendering of `value` as provider output for `dialect`.
fn render(
    schema: &spx_schema::Schema,
    dialect: Dialect,
    value: &Value,
    r: &mut XorShift,
) -> String {
    let graph = schema.graph();
    let mut p = Pretty {
        r,
        out: String::new(),
    };
    p.ws();
    if dialect.wraps_root(schema) {
        let root = graph.root_index();
        p.object(vec![(
            "value".into(),
            Box::new(move |p: &mut Pretty<'_>| write_value(p, graph, root, value)),
        )]);
    } else {
        write_value(&mut p, graph, graph.root_index(), value);
    }
    p.ws();
    p.out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn any_rendering_is_admitted_as_the_canonical_document(
        (schema, value) in arb_schema_value(),
        seed in any::<u64>(),
    ) {
        let Ok(doc) = encode(&schema, &value) else { return Ok(()) };
        let expected = Decoded { value: value.clone(), canonical: doc.clone() };
        prop_assert_eq!(decode(&schema, doc.as_bytes()), Ok(expected.clone()));
        let mut r = XorShift(seed | 1);
        for dialect in Dialect::JSON_SCHEMA {
            for _ in 0..3 {
                let text = render(&schema, dialect, &value, &mut r);
                if text.len() > 65536 {
                    // Escaping may make a big value too long to admit.
                    let e = admit(&schema, dialect, text.as_bytes()).unwrap_err();
                    prop_assert_eq!(e.rule, "document_bytes");
                    continue;
                }
                let got = admit(&schema, dialect, text.as_bytes());
                spx_tests::stream::check_admit(&schema, dialect, text.as_bytes(), &got);
                match got {
                    Ok(d) => prop_assert_eq!(&d, &expected),
                    Err(e) => prop_assert!(false, "{dialect}: {e:?}\n{text}"),
                }
            }
        }
    }
}

#[test]
fn the_renderer_escapes_and_reorders() {
    let mut r = XorShift(3);
    let mut p = Pretty {
        r: &mut r,
        out: String::new(),
    };
    for _ in 0..20 {
        p.string("a/é𝄞\n");
    }
    let out = p.out;
    assert!(out.contains("\\u0061"));
    assert!(out.contains("\\/"));
    assert!(out.contains("\\ud834\\udd1e") || out.contains("\\uD834\\uDD1E"));
    assert!(out.contains("𝄞"));
    for s in out.split("\"\"") {
        let s = s.trim_matches('"');
        let parsed: String = serde_json::from_str(&format!("\"{s}\"")).unwrap();
        assert_eq!(parsed, "a/é𝄞\n");
    }
}
