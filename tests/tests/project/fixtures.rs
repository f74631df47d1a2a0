//! Hand-built type graphs shared by the projection and admission tests.
#![allow(dead_code)]

use spx_schema::graph::Repr;
use spx_schema::Schema;

pub use spx_tests::graph::{nested, record, scalar, schema, variant};

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

use proptest::strategy::BoxedStrategy;
use spx_schema::Value;

/// Values of the root type: every value this yields fits the schema.
pub fn values(schema: &Schema) -> BoxedStrategy<Value> {
    spx_tests::values::arb_value(schema.graph())
}
