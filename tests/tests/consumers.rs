//! The generated TypeScript and Python consumers (`spx gen`) against the
//! engine, in real `node` and `python3` processes (many documents per
//! process): every document of the engine's decode tests
//! (`decode_cases/`) and of its property generators (`prop_support`, the
//! sample graph's edits of `decode.rs`, the fuzz fixture of
//! `prop_generated.rs`) must get the engine's verdict — the same value and
//! canonical re-encoding, or the same code, rule, JSON Pointer and message
//! — from bytes and from text; `decode(encode(v)) == v` in each language;
//! the encoders refuse what the engine's encoder refuses, with its rule
//! and pointer. Every module is type-checked with `tsc --strict` and
//! `mypy --strict` first, including the modules of every `.spx` fixture.
//!
//! Missing tools fail the tests with what to install (docs/CONSUMERS.md).

mod consumer_support;
mod decode_cases;
mod prop_support;

use consumer_support::{break_one_leaf, check_all, modules_of, named, Job, JobKind, Module, Tools};
use prop_support::{any_mutation, arb_schema_value, arb_value, structural_mutation, XorShift};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use spx_schema::graph::{Repr, TypeGraph};
use spx_schema::{Schema, Value};
use std::path::Path;

/// A value drawn from `strategy` by a deterministic runner.
fn draw<T: std::fmt::Debug>(runner: &mut TestRunner, strategy: &impl Strategy<Value = T>) -> T {
    strategy
        .new_tree(runner)
        .expect("the strategy draws")
        .current()
}

macro_rules! run_cases {
    ($($name:ident),* $(,)?) => {
        fn run_every_case() {
            $( decode_cases::$name(); )*
        }
    };
}
decode_cases::for_each_case!(run_cases);

#[test]
fn the_decode_test_corpus_gets_the_engines_verdict() {
    let tools = Tools::find();
    let docs = spx_tests::corpus::collect(run_every_case);
    assert!(docs.len() > 300, "{} documents", docs.len());
    let (modules, jobs) = modules_of(docs);
    check_all(&tools, "decode_cases", &modules, &jobs);
}

/// Random graphs and values (`prop_roundtrip.rs`'s generators): each
/// value's document, its mutations (any and value-preserving), and
/// encoder refusals of the value with one leaf out of bounds; plus the
/// sample graph's random edits (`decode.rs`'s `mutations_agree`).
#[test]
fn random_graphs_values_and_mutations_get_the_engines_verdict() {
    let tools = Tools::find();
    let mut runner = TestRunner::deterministic();
    let mut modules = Vec::new();
    let mut jobs = Vec::new();
    let strategy = arb_schema_value();
    for k in 0..40 {
        let (schema, value) = draw(&mut runner, &strategy);
        let schema = named(&schema);
        let mut r = XorShift(0x9e37_79b9_7f4a_7c15 ^ (k as u64 + 1));
        let module = modules.len();
        let decode = |bytes: Vec<u8>| Job {
            module,
            root: 0,
            kind: JobKind::Decode(bytes),
        };
        jobs.push(Job {
            module,
            root: 0,
            kind: JobKind::Encode(value.clone()),
        });
        for _ in 0..3 {
            let broken = break_one_leaf(&schema, &value, &mut |n| r.below(n));
            jobs.push(Job {
                module,
                root: 0,
                kind: JobKind::Encode(broken),
            });
        }
        if let Ok(doc) = spx_schema::encode::encode(&schema, &value) {
            jobs.push(decode(doc.clone().into_bytes()));
            for _ in 0..24 {
                jobs.push(decode(any_mutation(doc.as_bytes(), &mut r)));
            }
            for _ in 0..12 {
                if let Some((m, _)) = structural_mutation(&doc, &mut r) {
                    jobs.push(decode(m.into_bytes()));
                }
            }
        }
        modules.push(Module::new(vec![schema]));
    }
    // decode.rs's edits of the sample graph's documents.
    let sample = named(&spx_tests::graph::sample());
    let module = modules.len();
    let values = arb_value(sample.graph());
    const EDIT: &[u8] = &[
        b' ', b'"', b'\\', b',', b':', b'{', b'}', b'[', b']', b'0', b'1', b'-', b'e', b'.', b'u',
        b'a', 0x00, 0x7f, b'\n', b't', 0xc3, 0xa9,
    ];
    for k in 0..160u64 {
        let v = draw(&mut runner, &values);
        let mut bytes = spx_schema::encode::encode(&sample, &v)
            .expect("sample values encode")
            .into_bytes();
        if k % 4 == 0 {
            jobs.push(Job {
                module,
                root: 0,
                kind: JobKind::Decode(bytes.clone()),
            });
        }
        let mut r = XorShift(k * 2 + 1);
        for _ in 0..1 + r.below(3) {
            let i = r.below(bytes.len() + 1);
            let b = EDIT[r.below(EDIT.len())];
            match r.below(3) {
                0 => bytes.insert(i, b),
                1 if i < bytes.len() => {
                    bytes.remove(i);
                }
                _ if i < bytes.len() => bytes[i] = b,
                _ => {}
            }
        }
        jobs.push(Job {
            module,
            root: 0,
            kind: JobKind::Decode(bytes),
        });
    }
    modules.push(Module::new(vec![sample]));
    check_all(&tools, "random", &modules, &jobs);
}

/// Decimal digits of 2^a − 2^b (b < a), without a big-integer crate.
struct BigUint(Vec<u32>);

impl BigUint {
    fn pow2(e: u32) -> BigUint {
        let mut v = BigUint(vec![1]);
        for _ in 0..e {
            v.mul_add(2, 0);
        }
        v
    }
    /// Little-endian base 10^9 digits: `self * m + a`.
    fn mul_add(&mut self, m: u64, a: u64) {
        let mut carry = a;
        for d in &mut self.0 {
            let x = u64::from(*d) * m + carry;
            *d = (x % 1_000_000_000) as u32;
            carry = x / 1_000_000_000;
        }
        while carry > 0 {
            self.0.push((carry % 1_000_000_000) as u32);
            carry /= 1_000_000_000;
        }
    }
    fn sub_pow2(self, e: u32) -> BigUint {
        let p = BigUint::pow2(e);
        let mut out = self.0.clone();
        let mut borrow = 0i64;
        for (i, d) in out.iter_mut().enumerate() {
            let mut x = i64::from(*d) - borrow - i64::from(p.0.get(i).copied().unwrap_or(0));
            borrow = 0;
            if x < 0 {
                x += 1_000_000_000;
                borrow = 1;
            }
            *d = x as u32;
        }
        while out.len() > 1 && out.last() == Some(&0) {
            out.pop();
        }
        BigUint(out)
    }
}

impl std::fmt::Display for BigUint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut it = self.0.iter().rev();
        if let Some(first) = it.next() {
            write!(f, "{first}")?;
        }
        for d in it {
            write!(f, "{d:09}")?;
        }
        Ok(())
    }
}

/// Exact integers at their edges, both ways, and the encoders' bounds.
#[test]
fn integers_keep_every_digit_and_the_encoders_keep_the_bounds() {
    let tools = Tools::find();
    let sample = named(&spx_tests::graph::sample());
    let s = |x: &str| x.to_owned();
    let value = |i32v: i64, i64v: i64, u8v: u64, u64v: u64, text: String, bytes: Vec<u8>| {
        Value::Record(vec![
            (s("root.flag"), Value::Bool(false)),
            (s("root.i32"), Value::I64(i32v)),
            (s("root.i64"), Value::I64(i64v)),
            (s("root.u8"), Value::U64(u8v)),
            (s("root.u64"), Value::U64(u64v)),
            (s("root.s"), Value::String(text)),
            (s("root.bytes"), Value::Bytes(bytes)),
            (
                s("outer.inner"),
                Value::Record(vec![
                    (s("inner.x"), Value::I64((1 << 53) + 1)),
                    (s("inner.b"), Value::Bool(true)),
                ]),
            ),
            (
                s("root.shape"),
                Value::Variant {
                    case: s("shape.circle"),
                    fields: vec![(s("circle.r"), Value::U64(255))],
                },
            ),
        ])
    };
    let mut jobs = Vec::new();
    let mut encode = |v: Value| {
        if let Ok(doc) = spx_schema::encode::encode(&sample, &v) {
            jobs.push(Job {
                module: 0,
                root: 0,
                kind: JobKind::Decode(doc.into_bytes()),
            });
        }
        jobs.push(Job {
            module: 0,
            root: 0,
            kind: JobKind::Encode(v),
        });
    };
    let max = i64::from(i32::MAX);
    let min = i64::from(i32::MIN);
    for (a, b, c, d) in [
        (min, i64::MIN, 0, u64::MAX),
        (max, i64::MAX, 255, (1 << 53) + 1),
        (0, (1 << 53) + 1, 1, (1 << 53) - 1),
        (-1, -(1 << 53) - 1, 128, 1 << 63),
        // Out of bounds, one at a time.
        (max + 1, 0, 0, 0),
        (min - 1, 0, 0, 0),
        (0, 0, 256, 0),
        (0, 0, u64::MAX, 0),
    ] {
        encode(value(a, b, c, d, "x".into(), vec![]));
    }
    for text in ["é".repeat(2048), "é".repeat(2049), "\u{1}".repeat(4096)] {
        encode(value(0, 0, 0, 0, text, vec![1]));
    }
    for n in [4096, 4097] {
        encode(value(0, 0, 0, 0, String::new(), vec![255; n]));
    }
    // A document over 65536 bytes: four maximal strings of control
    // characters (each six bytes once escaped).
    let wide = Schema::from_graph(TypeGraph {
        types: vec![spx_tests::graph::record(
            "wide",
            (0..4)
                .map(|i| spx_tests::graph::scalar(&format!("wide.{i}"), Repr::String))
                .collect(),
        )],
    })
    .unwrap();
    let wide = named(&wide);
    let text = |n: usize| Value::String("\u{1}".repeat(n));
    let wide_jobs = |n: usize| Job {
        module: 1,
        root: 0,
        kind: JobKind::Encode(Value::Record(
            (0..4).map(|i| (format!("wide.{i}"), text(n))).collect(),
        )),
    };
    let (fits, over) = (wide_jobs(2700), wide_jobs(4096));
    jobs.push(fits);
    jobs.push(over);
    // Numbers at the edge of an f64 (step 4 refuses those that round to
    // infinity, as serde_json does), in a bytes array.
    let edge = (BigUint::pow2(1024).sub_pow2(970)).to_string();
    // 2^1024 − 2^970 − 1 and a fraction below the edge: finite (f64::MAX).
    let below = format!("{}1", &edge[..edge.len() - 1]);
    let canonical =
        spx_schema::encode::encode(&sample, &value(0, 0, 0, 0, "x".into(), vec![1])).unwrap();
    for n in [
        edge.clone(),
        format!("{edge}.0"),
        format!("{}.{}e308", &edge[..1], &edge[1..]),
        format!("-{edge}e0"),
        below.clone(),
        format!("{below}.{}", "9".repeat(400)),
        format!("0.{edge}e309"),
        format!("{}e-1", &edge),
        "1.7976931348623158e308".into(),
        "1.7976931348623157e308".into(),
        "179769313486231570000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000".into(),
        "1e309".into(),
        "1e308".into(),
        "0e99999999999999999999999".into(),
        "1e-99999999999999999999999".into(),
    ] {
        jobs.push(Job {
            module: 0,
            root: 0,
            kind: JobKind::Decode(
                canonical
                    .replacen("\"root.bytes\":[1]", &format!("\"root.bytes\":[{n}]"), 1)
                    .into_bytes(),
            ),
        });
    }
    let modules = [Module::new(vec![sample]), Module::new(vec![wide])];
    check_all(&tools, "integers", &modules, &jobs);
}

/// The fuzz fixture's two roots in one module (each root's namespace):
/// random values of both, their mutations, the other root's documents,
/// and noise (`prop_generated.rs`).
#[test]
fn a_module_of_two_roots_gets_the_engines_verdict() {
    let tools = Tools::find();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = dir.join("fixtures/fuzz/fuzz.spx");
    let roots = ["fz.root.é", "fz.event"];
    let schemas: Vec<Schema> = roots
        .iter()
        .map(|r| spx_schema::binding::compile_file(&path, "fuzz.spx", r).expect("derives"))
        .collect();
    let mut runner = TestRunner::deterministic();
    let mut jobs = Vec::new();
    for (root, s) in schemas.iter().enumerate() {
        let values = arb_value(s.graph());
        for k in 0..40u64 {
            let v = draw(&mut runner, &values);
            let Ok(doc) = spx_schema::encode::encode(s, &v) else {
                continue;
            };
            let mut r = XorShift((k + 1) * 7919);
            let mut docs = vec![doc.clone().into_bytes()];
            for _ in 0..12 {
                docs.push(any_mutation(doc.as_bytes(), &mut r));
            }
            for bytes in docs {
                for other in 0..schemas.len() {
                    if other == root || k % 4 == 0 {
                        jobs.push(Job {
                            module: 0,
                            root: other,
                            kind: JobKind::Decode(bytes.clone()),
                        });
                    }
                }
            }
        }
    }
    let mut r = XorShift(12345);
    for _ in 0..64 {
        let noise: Vec<u8> = (0..r.below(64)).map(|_| r.next() as u8).collect();
        for root in 0..2 {
            jobs.push(Job {
                module: 0,
                root,
                kind: JobKind::Decode(noise.clone()),
            });
        }
    }
    check_all(&tools, "two_roots", &[Module::new(schemas)], &jobs);
}

/// Every root of every `.spx` fixture that derives: one module per
/// fixture with all of them, and one with its first root alone; every one compiles
/// under `tsc --strict` and `mypy --strict` and decodes its example.
#[test]
fn the_modules_of_every_fixture_type_check() {
    let tools = Tools::find();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut modules = Vec::new();
    let mut jobs = Vec::new();
    for sub in [
        "fixtures/spx",
        "fixtures/macro",
        "fixtures/fuzz",
        "fixtures/bench",
        "fixtures/host/agents",
    ] {
        let mut files: Vec<_> = std::fs::read_dir(dir.join(sub))
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "spx"))
            .collect();
        files.sort();
        for file in files {
            let Ok(text) = std::fs::read_to_string(&file) else {
                continue;
            };
            let Ok(module) = spx_schema::source::read_module("fixture.spx", &text) else {
                continue;
            };
            let schemas: Vec<Schema> = module
                .decls
                .iter()
                .filter_map(|d| Schema::derive(&module, &d.stable_id).ok())
                .collect();
            // Every root together, and the first one alone (the one-root
            // form of the module).
            let mut groups: Vec<Vec<Schema>> =
                schemas.iter().take(1).map(|s| vec![s.clone()]).collect();
            if schemas.len() > 1 {
                groups.push(schemas);
            }
            for group in groups {
                if spx_gen::typescript::generate(&group).is_err()
                    || spx_gen::python::generate(&group).is_err()
                {
                    // A fixture whose names are meant to be refused.
                    continue;
                }
                let k = modules.len();
                for (root, s) in group.iter().enumerate() {
                    if let Ok(doc) = spx_schema::encode::encode(s, &spx_schema::encode::example(s))
                    {
                        jobs.push(Job {
                            module: k,
                            root,
                            kind: JobKind::Decode(doc.into_bytes()),
                        });
                    }
                }
                modules.push(Module::new(group));
            }
        }
    }
    assert!(modules.len() >= 12, "{} modules", modules.len());
    check_all(&tools, "fixtures", &modules, &jobs);
}
