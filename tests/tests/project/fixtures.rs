//! Hand-built type graphs shared by the projection and admission tests.
#![allow(dead_code)]

use spx_schema::graph::{Case, Field, FieldType, Repr, TypeGraph, TypeKind, TypeNode};
use spx_schema::Schema;

pub fn field(id: &str, ty: FieldType) -> Field {
    Field {
        stable_id: id.into(),
        name: String::new(),
        ty,
    }
}

pub fn scalar(id: &str, repr: Repr) -> Field {
    field(id, FieldType::Scalar(repr))
}

pub fn nested(id: &str, index: usize) -> Field {
    field(id, FieldType::Nested(index))
}

pub fn record(id: &str, fields: Vec<Field>) -> TypeNode {
    TypeNode {
        stable_id: id.into(),
        name: String::new(),
        kind: TypeKind::Record { fields },
    }
}

pub fn variant(id: &str, cases: Vec<(&str, Vec<Field>)>) -> TypeNode {
    TypeNode {
        stable_id: id.into(),
        name: String::new(),
        kind: TypeKind::Variant {
            cases: cases
                .into_iter()
                .map(|(cid, fields)| Case {
                    stable_id: cid.into(),
                    name: String::new(),
                    fields,
                })
                .collect(),
        },
    }
}

pub fn schema(types: Vec<TypeNode>) -> Schema {
    Schema::from_graph(TypeGraph { types }).expect("fixture graph renders")
}

/// A record holding every scalar and a nested record.
pub fn scalars() -> Schema {
    schema(vec![
        record("demo.inner", vec![scalar("demo.inner.flag", Repr::Bool)]),
        record(
            "demo.all",
            vec![
                scalar("demo.all.b", Repr::Bool),
                scalar("demo.all.i32", Repr::I32),
                scalar("demo.all.i64", Repr::I64),
                scalar("demo.all.u8", Repr::U8),
                scalar("demo.all.u64", Repr::U64),
                scalar("demo.all.s", Repr::String),
                scalar("demo.all.bytes", Repr::Bytes),
                nested("demo.all.inner", 0),
            ],
        ),
    ])
}

/// A variant root: a case without payload, a case with scalars, a case
/// holding a nested record and a nested variant.
pub fn variants() -> Schema {
    schema(vec![
        record(
            "planner.cost",
            vec![
                scalar("planner.cost.amount", Repr::U64),
                scalar("planner.cost.confidence", Repr::U8),
            ],
        ),
        variant(
            "planner.mode",
            vec![
                ("planner.mode.fast", vec![]),
                ("planner.mode.careful", vec![]),
            ],
        ),
        variant(
            "planner.step",
            vec![
                ("planner.step.stop", vec![]),
                (
                    "planner.step.say",
                    vec![
                        scalar("planner.step.say.text", Repr::String),
                        scalar("planner.step.say.loud", Repr::Bool),
                    ],
                ),
                (
                    "planner.step.plan",
                    vec![
                        nested("planner.step.plan.cost", 0),
                        nested("planner.step.plan.mode", 1),
                        scalar("planner.step.plan.delta", Repr::I32),
                    ],
                ),
            ],
        ),
    ])
}

/// A diamond: the root reaches `d.shared` through two paths.
pub fn diamond() -> Schema {
    schema(vec![
        record(
            "d.shared",
            vec![
                scalar("d.shared.n", Repr::I64),
                scalar("d.shared.raw", Repr::Bytes),
            ],
        ),
        record("d.left", vec![nested("d.left.s", 0)]),
        variant(
            "d.right",
            vec![
                ("d.right.none", vec![]),
                ("d.right.some", vec![nested("d.right.some.s", 0)]),
            ],
        ),
        record(
            "d.root",
            vec![
                nested("d.root.left", 1),
                nested("d.root.right", 2),
                nested("d.root.direct", 0),
            ],
        ),
    ])
}

/// Ids that need `$ref` escaping and pointer escaping.
pub fn escaping() -> Schema {
    schema(vec![
        record("a/b~c", vec![scalar("x/y~z", Repr::U8)]),
        record("100%", vec![scalar("50% off", Repr::String)]),
        variant(
            "é",
            vec![
                ("ü/case", vec![scalar("\"quoted\"\\", Repr::Bool)]),
                ("plain", vec![]),
            ],
        ),
        record(
            "with space",
            vec![
                nested("f/1", 0),
                nested("f~2", 1),
                nested("f é", 2),
                scalar("tab\tnew\nline", Repr::I64),
            ],
        ),
    ])
}

/// A record with no fields.
pub fn empty() -> Schema {
    schema(vec![record("e.unit", vec![])])
}

/// Every fixture, by name.
pub fn all() -> Vec<(&'static str, Schema)> {
    vec![
        ("scalars", scalars()),
        ("variants", variants()),
        ("diamond", diamond()),
        ("escaping", escaping()),
        ("empty", empty()),
    ]
}

use proptest::prelude::*;
use spx_schema::Value;

fn leaf_strategy(repr: Repr) -> BoxedStrategy<Value> {
    match repr {
        Repr::Bool => any::<bool>().prop_map(Value::Bool).boxed(),
        Repr::I32 => prop_oneof![
            Just(i32::MIN),
            Just(i32::MAX),
            Just(0),
            Just(-1),
            any::<i32>()
        ]
        .prop_map(|v| Value::I64(i64::from(v)))
        .boxed(),
        Repr::I64 => prop_oneof![Just(i64::MIN), Just(i64::MAX), any::<i64>()]
            .prop_map(Value::I64)
            .boxed(),
        Repr::U8 => prop_oneof![Just(0u8), Just(255u8), any::<u8>()]
            .prop_map(|v| Value::U64(u64::from(v)))
            .boxed(),
        Repr::U64 => prop_oneof![Just(0u64), Just(u64::MAX), any::<u64>()]
            .prop_map(Value::U64)
            .boxed(),
        Repr::String => prop_oneof![
            "[a-z ]{0,8}",
            any::<String>(),
            Just("\u{0}\u{1f}\u{7f}\u{85}\"\\\n\r\t/\u{2028}😀".to_string()),
            Just("é".repeat(2048)),
        ]
        .prop_map(Value::String)
        .boxed(),
        Repr::Bytes => prop_oneof![
            proptest::collection::vec(any::<u8>(), 0..12),
            Just(vec![255u8; 4096]),
        ]
        .prop_map(Value::Bytes)
        .boxed(),
    }
}

fn fields_strategy(
    fields: &[Field],
    made: &[BoxedStrategy<Value>],
) -> BoxedStrategy<Vec<(String, Value)>> {
    let parts: Vec<BoxedStrategy<(String, Value)>> = fields
        .iter()
        .map(|f| {
            let id = f.stable_id.clone();
            let s = match f.ty {
                FieldType::Scalar(r) => leaf_strategy(r),
                FieldType::Nested(i) => made[i].clone(),
            };
            s.prop_map(move |v| (id.clone(), v)).boxed()
        })
        .collect();
    parts.boxed()
}

/// Values of the root type: every value this yields fits the schema.
pub fn values(schema: &Schema) -> BoxedStrategy<Value> {
    let mut made: Vec<BoxedStrategy<Value>> = Vec::new();
    for node in &schema.graph().types {
        let s = match &node.kind {
            TypeKind::Record { fields } => fields_strategy(fields, &made)
                .prop_map(Value::Record)
                .boxed(),
            TypeKind::Variant { cases } => {
                let alts: Vec<BoxedStrategy<Value>> = cases
                    .iter()
                    .map(|c| {
                        let id = c.stable_id.clone();
                        fields_strategy(&c.fields, &made)
                            .prop_map(move |fields| Value::Variant {
                                case: id.clone(),
                                fields,
                            })
                            .boxed()
                    })
                    .collect();
                proptest::strategy::Union::new(alts).boxed()
            }
        };
        made.push(s);
    }
    made.pop().expect("a graph has a root")
}
