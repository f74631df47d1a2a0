//! `spx_interaction!` on tests/fixtures/macro/planner.spx: the generated
//! types, constants, encoder and decoder, against the engine.

use spx_runtime::engine::{self, Code, Value};
use spx_runtime::Interaction;
use std::path::Path;

#[allow(clippy::large_enum_variant)]
mod planner {
    spx_runtime::spx_interaction! {
        source: "fixtures/macro/planner.spx",
        root: "planner.proposal",
        digest: "sha256:3cad84b67598aa09f8c76b2096cfb104ae9ab15cb30a1327687fd20abad7768e",
        root: "planner.step",
        digest: "sha256:d818874995ef8d3074b2bdf123db19f245459174d5007870b1e7acaac995b87e",
        root: "planner.action",
        digest: "sha256:8fd2b618f961b38a3aed576e4ae71f89e58e7e18b76f6489d31ef8ed76cde506",
    }
}

/// The same module through a renamed runtime path (`crate = …`).
mod renamed {
    use spx_runtime as rt;
    rt::spx_interaction! {
        source: "fixtures/macro/planner.spx",
        root: "planner.step",
        digest: "sha256:d818874995ef8d3074b2bdf123db19f245459174d5007870b1e7acaac995b87e",
        crate = rt,
    }
}

use planner::{Action, Budget, Empty, Point, Proposal, Step};

fn engine_schema(root: &str) -> engine::Schema {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    engine::binding::compile_file(
        &dir.join("fixtures/macro/planner.spx"),
        "fixtures/macro/planner.spx",
        root,
    )
    .expect("fixture derives")
}

fn sample() -> Proposal {
    Proposal {
        r#type: "plan \"A\"\n\u{1}é".to_owned(),
        budget: Budget {
            limit: u64::MAX,
            spent: i64::MIN,
        },
        action: Action::Move {
            to: Point { x: i32::MIN, y: -7 },
            speed: 255,
        },
        confident: true,
        max_steps: 0,
        blob: vec![0, 1, 255],
        empty: Empty {},
        priority: -1,
    }
}

#[test]
fn constants_are_the_engines() {
    for (root, json, digest, revision, provider, id) in [
        (
            "planner.proposal",
            Proposal::SCHEMA_JSON,
            Proposal::SCHEMA_DIGEST,
            Proposal::ROOT_TYPE_REVISION,
            Proposal::PROVIDER_JSON_SCHEMA,
            Proposal::ROOT_TYPE_ID,
        ),
        (
            "planner.step",
            Step::SCHEMA_JSON,
            Step::SCHEMA_DIGEST,
            Step::ROOT_TYPE_REVISION,
            Step::PROVIDER_JSON_SCHEMA,
            Step::ROOT_TYPE_ID,
        ),
        (
            "planner.action",
            Action::SCHEMA_JSON,
            Action::SCHEMA_DIGEST,
            Action::ROOT_TYPE_REVISION,
            Action::PROVIDER_JSON_SCHEMA,
            Action::ROOT_TYPE_ID,
        ),
    ] {
        let s = engine_schema(root);
        assert_eq!(json, s.document());
        assert_eq!(digest, s.digest());
        assert_eq!(revision, s.revision());
        assert_eq!(id, root);
        assert_eq!(provider, engine::project::draft2020(&s));
    }
    assert_eq!(
        <Proposal as Interaction>::SCHEMA_DIGEST,
        Proposal::SCHEMA_DIGEST
    );
    assert_eq!(Proposal::schema().document(), Proposal::SCHEMA_JSON);
    assert_eq!(renamed::Step::SCHEMA_DIGEST, Step::SCHEMA_DIGEST);
}

/// `Interaction::schema()` is assembled from the graph the macro emits as
/// code, without parsing: it must be exactly the schema its document reads
/// back to (graph without display names, document, revision, digest), for
/// every root.
#[test]
fn the_embedded_schema_is_the_one_its_document_reads_back_to() {
    fn check<T: Interaction>() {
        let parsed = engine::Schema::parse_document(T::SCHEMA_JSON.as_bytes()).unwrap();
        assert_eq!(T::schema(), &parsed, "{}", T::ROOT_TYPE_ID);
        assert_eq!(T::schema().revision(), T::ROOT_TYPE_REVISION);
        assert_eq!(T::schema().digest(), T::SCHEMA_DIGEST);
    }
    check::<Proposal>();
    check::<Step>();
    check::<Action>();
    check::<renamed::Step>();
}

#[test]
fn encode_is_the_engines_and_round_trips() {
    let x = sample();
    let doc = x.encode().unwrap();
    let schema = engine_schema("planner.proposal");
    assert_eq!(doc, engine::encode::encode(&schema, &x.to_value()).unwrap());
    assert!(doc.contains(r#""planner.proposal.type":"plan \"A\"\n\u0001é""#));
    assert!(doc.starts_with(
        "{\"schema\":\"semaprax.agent-interaction-value.v1\",\"root_type_id\":\"planner.proposal\",\"schema_digest\":\"sha256:3cad84b6"
    ));
    assert!(doc.ends_with("\"planner.proposal.priority\":\"-1\"}}}\n"));
    assert_eq!(Proposal::decode(doc.as_bytes()).unwrap(), x);
    let engine_value = engine::decode::decode(&schema, doc.as_bytes()).unwrap();
    assert_eq!(engine_value.value, x.to_value());
    assert_eq!(engine_value.canonical, doc);

    for action in [
        Action::Stop,
        Action::Say {
            text: String::new(),
            audio: vec![],
        },
        Action::Move {
            to: Point { x: 0, y: 0 },
            speed: 0,
        },
    ] {
        let doc = action.encode().unwrap();
        assert_eq!(Action::decode(doc.as_bytes()).unwrap(), action);
        let step = Step {
            action: action.clone(),
            at: Point { x: 1, y: -1 },
        };
        let doc = step.encode().unwrap();
        assert_eq!(Step::decode(doc.as_bytes()).unwrap(), step);
        assert_eq!(renamed::Step::decode(doc.as_bytes()).unwrap().at.y, -1);
    }
    assert_eq!(
        Action::Stop.encode().unwrap(),
        format!(
            "{{\"schema\":\"semaprax.agent-interaction-value.v1\",\"root_type_id\":\"planner.action\",\"schema_digest\":\"{}\",\"value\":{{\"case\":\"planner.action.stop\",\"fields\":{{}}}}}}\n",
            Action::SCHEMA_DIGEST
        )
    );
}

#[test]
fn encode_refuses_what_the_engine_refuses() {
    let schema = engine_schema("planner.proposal");
    let mut long = sample();
    long.r#type = "x".repeat(4097);
    let mine = long.encode().unwrap_err();
    assert_eq!(mine.code, Code::Z206);
    assert_eq!(mine.rule, "value.string_bytes");
    assert_eq!(
        mine,
        engine::encode::encode(&schema, &long.to_value()).unwrap_err()
    );

    let mut big = sample();
    big.blob = vec![7; 4097];
    let mine = big.encode().unwrap_err();
    assert_eq!((mine.code, mine.rule), (Code::Z206, "value.bytes_length"));
    assert_eq!(
        mine,
        engine::encode::encode(&schema, &big.to_value()).unwrap_err()
    );

    // Every field within its bound, the document over 65536 bytes.
    let mut huge = sample();
    huge.r#type = "\u{1}".repeat(4096); // 6 bytes each once escaped
    huge.action = Action::Say {
        text: "\u{1}".repeat(4096),
        audio: vec![255; 4096],
    };
    huge.blob = vec![255; 4096];
    let mine = huge.encode().unwrap_err();
    assert_eq!((mine.code, mine.rule), (Code::Z206, "document_bytes"));
    assert_eq!(
        mine,
        engine::encode::encode(&schema, &huge.to_value()).unwrap_err()
    );
    // Exactly at the string bound is fine.
    let mut max = sample();
    max.r#type = "é".repeat(2048);
    let doc = max.encode().unwrap();
    assert_eq!(Proposal::decode(doc.as_bytes()).unwrap(), max);
}

#[test]
fn decode_refusals_are_the_engines() {
    let schema = engine_schema("planner.step");
    let good = Step {
        action: Action::Stop,
        at: Point { x: 1, y: 2 },
    }
    .encode()
    .unwrap();
    let bad_int = good.replace("\"1\"", "\"01\"");
    let d = Step::decode(bad_int.as_bytes()).unwrap_err();
    assert_eq!((d.code, d.rule), (Code::Z206, "value.integer"));
    assert_eq!(
        d.location,
        engine::Location::Pointer("/value/fields/planner.step.at/fields/planner.point.x".into())
    );
    assert_eq!(
        d,
        engine::decode::decode(&schema, bad_int.as_bytes()).unwrap_err()
    );
    let wrong_case = good.replace("planner.action.stop", "planner.action.jump");
    let d = Step::decode(wrong_case.as_bytes()).unwrap_err();
    assert_eq!((d.code, d.rule), (Code::Z206, "value.case"));
    let other_root = Action::Stop.encode().unwrap();
    let d = Step::decode(other_root.as_bytes()).unwrap_err();
    assert_eq!((d.code, d.rule), (Code::Z206, "root_type_id"));
    let d = Step::decode(good.trim_end().as_bytes()).unwrap_err();
    assert_eq!(d.code, Code::Z205);
}

/// A host generic over its roots.
fn admit<T: Interaction>(bytes: &[u8]) -> Result<T, String> {
    T::decode(bytes).map_err(|d| format!("{} {} at {}", d.code, d.rule, d.location))
}

#[test]
fn hosts_can_be_generic_over_roots() {
    let doc = sample().encode().unwrap();
    assert_eq!(admit::<Proposal>(doc.as_bytes()).unwrap(), sample());
    assert_eq!(
        admit::<Step>(doc.as_bytes()).unwrap_err(),
        "SPX-Z206 root_type_id at /root_type_id"
    );
    assert_eq!(<Step as Interaction>::ROOT_TYPE_ID, "planner.step");
    assert_eq!(
        <Action as Interaction>::encode(&Action::Stop).unwrap(),
        Action::Stop.encode().unwrap()
    );
    assert_eq!(
        Step::to_value(&Step {
            action: Action::Stop,
            at: Point { x: 3, y: 4 }
        }),
        Value::Record(vec![
            (
                "planner.step.action".into(),
                Value::Variant {
                    case: "planner.action.stop".into(),
                    fields: vec![]
                }
            ),
            (
                "planner.step.at".into(),
                Value::Record(vec![
                    ("planner.point.x".into(), Value::I64(3)),
                    ("planner.point.y".into(), Value::I64(4)),
                ])
            ),
        ])
    );
}

/// A project's `semaprax.toml` as the macro's source: the root's types come
/// from four modules, and the items are those of the one-module twin.
mod shop {
    spx_runtime::spx_interaction! {
        source: "fixtures/projects/shop/semaprax.toml",
        root: "shop.order",
        digest: "sha256:a806a014794eed9a307a260a8fec3629b38c93e71147a929633ba23a60dbb054",
        root: "shop.customer",
        digest: "sha256:b4fd036b7c5652a22a559336696627707183b7e7431d1029b8df8c362e53a1c8",
    }
}

#[test]
fn a_project_source_generates_the_items_of_its_one_module_twin() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    for (root, json) in [
        ("shop.order", shop::Order::SCHEMA_JSON),
        ("shop.customer", shop::Customer::SCHEMA_JSON),
    ] {
        let single = engine::binding::compile_file(
            &dir.join("fixtures/projects/shop-single.spx"),
            "shop-single.spx",
            root,
        )
        .unwrap();
        assert_eq!(json, single.document(), "{root}");
    }
    // The generated types are named after the declarations (`Customer`,
    // imported as `Buyer`), and encode as the engine does.
    let order = shop::Order {
        id: "o-1".to_owned(),
        buyer: shop::Customer {
            name: "Ada".to_owned(),
            credit: shop::Money {
                cents: 5,
                currency: "EUR".to_owned(),
            },
        },
        first: shop::Line {
            sku: "sku".to_owned(),
            price: shop::Money {
                cents: 2,
                currency: "EUR".to_owned(),
            },
            quantity: 3,
        },
        status: shop::Status::Open,
    };
    let text = order.encode().unwrap();
    let back = shop::Order::decode(text.as_bytes()).unwrap();
    assert_eq!(back, order);
}
