//! Strategies and helpers shared by the `prop_*` property tests: random
//! type graphs within the bounds of FORMAT.md §1, random values of them,
//! and mutations of canonical documents.
#![allow(dead_code)]

use proptest::prelude::*;
use spx_schema::graph::{Case, Field, FieldType, Repr, TypeGraph, TypeKind, TypeNode};
use spx_schema::quote::quote;
use spx_schema::{Schema, Value};
pub use spx_tests::values::arb_value;

/// Pieces of stable ids: plain text, characters that need JSON escaping,
/// JSON Pointer escaping (`/`, `~`), percent-encoding, and non-ASCII.
const ID_PIECES: &[&str] = &[
    "a", "Z", ".", "_", "/", "~", "~0", "~1", " ", "\"", "\\", "\t", "\n", "\u{1f}", "\u{7f}",
    "\u{85}", "é", "𝄞", "%", "#", "fields", "case",
];

const REPRS: [Repr; 7] = [
    Repr::Bool,
    Repr::I32,
    Repr::I64,
    Repr::U8,
    Repr::U64,
    Repr::String,
    Repr::Bytes,
];

/// A field before its target is resolved: a scalar, or a reference to an
/// earlier node by a raw index (taken modulo the node's own index).
#[derive(Debug, Clone)]
enum FieldSpec {
    Scalar(Repr),
    Nested(usize),
}

#[derive(Debug, Clone)]
enum NodeSpec {
    Record(Vec<(String, FieldSpec)>),
    Variant(Vec<(String, Vec<(String, FieldSpec)>)>),
}

fn id_piece() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(ID_PIECES), 0..3).prop_map(|v| v.concat())
}

fn field_spec() -> impl Strategy<Value = (String, FieldSpec)> {
    (
        id_piece(),
        prop_oneof![
            3 => prop::sample::select(&REPRS[..]).prop_map(FieldSpec::Scalar),
            2 => any::<usize>().prop_map(FieldSpec::Nested),
        ],
    )
}

fn node_spec() -> impl Strategy<Value = (String, NodeSpec)> {
    (
        id_piece(),
        prop_oneof![
            3 => prop::collection::vec(field_spec(), 0..5).prop_map(NodeSpec::Record),
            2 => prop::collection::vec(
                (id_piece(), prop::collection::vec(field_spec(), 0..3)),
                1..4
            )
            .prop_map(NodeSpec::Variant),
        ],
    )
}

/// Builds the graph derivation would produce from `specs` (root last): the
/// types reachable from the root, in post-order, each referenced type
/// once (shared nodes stay shared), with globally unique stable ids.
fn build(specs: Vec<(String, NodeSpec)>) -> TypeGraph {
    let counter = std::cell::Cell::new(0usize);
    let fresh = |piece: &str| {
        counter.set(counter.get() + 1);
        format!("{piece}{}", counter.get())
    };
    // Resolve raw indexes: node i may only reference nodes < i (a DAG).
    let resolve = |i: usize, f: &FieldSpec| match *f {
        FieldSpec::Nested(k) if i > 0 => FieldType::Nested(k % i),
        FieldSpec::Nested(k) => FieldType::Scalar(REPRS[k % REPRS.len()]),
        FieldSpec::Scalar(r) => FieldType::Scalar(r),
    };
    let mut nodes: Vec<TypeNode> = Vec::with_capacity(specs.len());
    for (i, (piece, spec)) in specs.iter().enumerate() {
        let stable_id = fresh(piece);
        let fields = |fs: &[(String, FieldSpec)]| -> Vec<Field> {
            fs.iter()
                .map(|(p, f)| Field {
                    stable_id: fresh(p),
                    name: String::new(),
                    ty: resolve(i, f),
                })
                .collect()
        };
        let kind = match spec {
            NodeSpec::Record(fs) => TypeKind::Record { fields: fields(fs) },
            NodeSpec::Variant(cs) => {
                let mut cases = Vec::new();
                for (p, fs) in cs {
                    let stable_id = fresh(p);
                    cases.push(Case {
                        stable_id,
                        name: String::new(),
                        fields: fields(fs),
                    });
                }
                TypeKind::Variant { cases }
            }
        };
        nodes.push(TypeNode {
            stable_id,
            name: String::new(),
            kind,
        });
    }
    post_order(&nodes)
}

fn children(t: &TypeNode) -> Vec<usize> {
    let fields: Vec<&Field> = match &t.kind {
        TypeKind::Record { fields } => fields.iter().collect(),
        TypeKind::Variant { cases } => cases.iter().flat_map(|c| &c.fields).collect(),
    };
    fields
        .into_iter()
        .filter_map(|f| match f.ty {
            FieldType::Nested(j) => Some(j),
            FieldType::Scalar(_) => None,
        })
        .collect()
}

/// Keeps the types reachable from the last one, in derivation order
/// (post-order by field declaration order), and renumbers references.
fn post_order(nodes: &[TypeNode]) -> TypeGraph {
    fn visit(nodes: &[TypeNode], i: usize, seen: &mut Vec<Option<usize>>, out: &mut Vec<usize>) {
        if seen[i].is_some() {
            return;
        }
        for j in children(&nodes[i]) {
            visit(nodes, j, seen, out);
        }
        seen[i] = Some(out.len());
        out.push(i);
    }
    let mut seen = vec![None; nodes.len()];
    let mut order = Vec::new();
    visit(nodes, nodes.len() - 1, &mut seen, &mut order);
    let renumber = |f: &Field| Field {
        ty: match f.ty {
            FieldType::Nested(j) => FieldType::Nested(seen[j].expect("reachable")),
            s => s,
        },
        ..f.clone()
    };
    let types = order
        .iter()
        .map(|&i| {
            let t = &nodes[i];
            TypeNode {
                kind: match &t.kind {
                    TypeKind::Record { fields } => TypeKind::Record {
                        fields: fields.iter().map(renumber).collect(),
                    },
                    TypeKind::Variant { cases } => TypeKind::Variant {
                        cases: cases
                            .iter()
                            .map(|c| Case {
                                fields: c.fields.iter().map(renumber).collect(),
                                ..c.clone()
                            })
                            .collect(),
                    },
                },
                ..t.clone()
            }
        })
        .collect();
    TypeGraph { types }
}

/// A chain of `len` records, each holding the previous one and a scalar:
/// the deepest graphs (depth `len - 1`, at most 16).
fn chain(len: usize, repr: Repr) -> TypeGraph {
    let mut types = Vec::new();
    for i in 0..len {
        let mut fields = vec![Field {
            stable_id: format!("chain.{i}.x"),
            name: String::new(),
            ty: FieldType::Scalar(repr),
        }];
        if i > 0 {
            fields.push(Field {
                stable_id: format!("chain.{i}.inner"),
                name: String::new(),
                ty: FieldType::Nested(i - 1),
            });
        }
        types.push(TypeNode {
            stable_id: format!("chain.{i}"),
            name: String::new(),
            kind: TypeKind::Record { fields },
        });
    }
    TypeGraph { types }
}

/// Random type graphs: up to 8 random records/variants over every scalar,
/// with nesting and shared nodes, or a chain up to the maximum depth.
pub fn arb_graph() -> impl Strategy<Value = TypeGraph> {
    prop_oneof![
        9 => prop::collection::vec(node_spec(), 1..9).prop_map(build),
        1 => (1usize..=17, prop::sample::select(&REPRS[..])).prop_map(|(n, r)| chain(n, r)),
    ]
}

/// Random schemas (graphs rendered by `Schema::from_graph`).
pub fn arb_schema() -> impl Strategy<Value = Schema> {
    arb_graph().prop_map(|g| Schema::from_graph(g).expect("a small graph renders"))
}

/// A random schema with a random value of its root type.
pub fn arb_schema_value() -> impl Strategy<Value = (Schema, Value)> {
    arb_schema().prop_flat_map(|s| {
        let v = arb_value(s.graph());
        (Just(s), v)
    })
}

/// xorshift64*: a deterministic stream from one proptest-chosen seed.
pub struct XorShift(pub u64);

impl XorShift {
    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    /// True with probability 1/n.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }
}

/// The spans of a canonical document, found by one scan.
#[derive(Debug, Default)]
pub struct Spans {
    /// `(start, end)` of every string token, quotes included.
    pub strings: Vec<(usize, usize)>,
    /// `(start, end)` of every object member `"key":value`, with the
    /// index of the object holding it.
    pub members: Vec<(usize, usize, usize)>,
    /// Offsets between two tokens (where JSON allows whitespace).
    pub gaps: Vec<usize>,
}

/// Scans a canonical (whitespace-free, valid) JSON document ending in LF.
pub fn scan(doc: &[u8]) -> Spans {
    let mut spans = Spans::default();
    // Stack of (is_object, object index, current member start).
    let mut stack: Vec<(bool, usize, Option<usize>)> = Vec::new();
    let mut objects = 0usize;
    let mut inside_string = vec![false; doc.len() + 1];
    let close_member =
        |stack: &mut Vec<(bool, usize, Option<usize>)>, spans: &mut Spans, end: usize| {
            if let Some((true, obj, Some(start))) = stack.last().copied() {
                spans.members.push((start, end, obj));
                if let Some(top) = stack.last_mut() {
                    top.2 = None;
                }
            }
        };
    let mut i = 0;
    while i < doc.len() {
        match doc[i] {
            b'"' => {
                let start = i;
                i += 1;
                while doc[i] != b'"' {
                    if doc[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                spans.strings.push((start, i + 1));
                for flag in &mut inside_string[start + 1..=i] {
                    *flag = true;
                }
                if let Some((true, _, m @ None)) = stack.last_mut() {
                    if doc.get(i + 1) == Some(&b':') {
                        *m = Some(start);
                    }
                }
            }
            b'{' | b'[' => {
                let is_obj = doc[i] == b'{';
                stack.push((is_obj, objects, None));
                if is_obj {
                    objects += 1;
                }
            }
            b'}' | b']' => {
                close_member(&mut stack, &mut spans, i);
                stack.pop();
            }
            b',' => close_member(&mut stack, &mut spans, i),
            _ => {}
        }
        i += 1;
    }
    // A gap is a position before byte `g` (up to the final LF) outside
    // strings and not inside a literal such as `true` or `255`.
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'-';
    for g in 0..doc.len() {
        let inside_word = g > 0 && word(doc[g - 1]) && word(doc[g]);
        if !inside_string[g] && !inside_word {
            spans.gaps.push(g);
        }
    }
    spans
}

/// A mutation that keeps the JSON value the same but is never canonical:
/// whitespace between tokens, two members of one object swapped, a member
/// repeated, or one character of a string re-escaped. `None` when the
/// document offers no place for the chosen kind.
pub fn structural_mutation(doc: &str, r: &mut XorShift) -> Option<(String, &'static str)> {
    let b = doc.as_bytes();
    let spans = scan(b);
    match r.below(4) {
        0 => {
            let at = spans.gaps[r.below(spans.gaps.len())];
            let ws = [" ", "\t", "  ", " \t "][r.below(4)];
            let mut m = doc.to_owned();
            m.insert_str(at, ws);
            Some((m, "whitespace"))
        }
        1 => {
            // Two consecutive members of one object.
            let pairs: Vec<_> = spans
                .members
                .iter()
                .flat_map(|a| {
                    spans
                        .members
                        .iter()
                        .filter(move |c| c.2 == a.2 && c.0 == a.1 + 1)
                        .map(move |c| (*a, *c))
                })
                .collect();
            if pairs.is_empty() {
                return None;
            }
            let ((a0, a1, _), (c0, c1, _)) = pairs[r.below(pairs.len())];
            let m = format!(
                "{}{},{}{}",
                &doc[..a0],
                &doc[c0..c1],
                &doc[a0..a1],
                &doc[c1..]
            );
            Some((m, "reorder"))
        }
        2 => {
            let (a0, a1, _) = spans.members[r.below(spans.members.len())];
            let m = if r.one_in(2) {
                format!("{},{}", &doc[..a1], &doc[a0..])
            } else {
                format!("{}{},{}", &doc[..a0], &doc[a0..a1], &doc[a0..])
            };
            Some((m, "duplicate"))
        }
        _ => {
            // Re-escape one character of a string token.
            let (s0, s1) = spans.strings[r.below(spans.strings.len())];
            let inner = &doc[s0 + 1..s1 - 1];
            if inner.is_empty() {
                return None;
            }
            // Character positions that are not part of an escape.
            let mut chars: Vec<(usize, char)> = Vec::new();
            let mut it = inner.char_indices();
            while let Some((i, c)) = it.next() {
                if c == '\\' {
                    let (_, e) = it.next()?;
                    chars.push((i, e));
                    if e == 'u' {
                        for _ in 0..4 {
                            it.next();
                        }
                    }
                } else {
                    chars.push((i, c));
                }
            }
            let (i, c) = chars[r.below(chars.len())];
            let start = s0 + 1 + i;
            let old_len = if inner.as_bytes()[i] == b'\\' {
                if inner.as_bytes()[i + 1] == b'u' {
                    6
                } else {
                    2
                }
            } else {
                c.len_utf8()
            };
            let old = &doc[start..start + old_len];
            let decoded = if let Some(hex) = old.strip_prefix("\\u") {
                char::from_u32(u32::from_str_radix(hex, 16).ok()?)?
            } else if old.starts_with('\\') {
                match c {
                    'n' => '\n',
                    'r' => '\r',
                    't' => '\t',
                    other => other,
                }
            } else {
                c
            };
            let new = reescape(decoded, old, r)?;
            Some((
                format!("{}{}{}", &doc[..start], new, &doc[start + old_len..]),
                "re-escape",
            ))
        }
    }
}

/// Another JSON escape of `c`, different from `old`.
fn reescape(c: char, old: &str, r: &mut XorShift) -> Option<String> {
    let mut options = Vec::new();
    let mut units = [0u16; 2];
    let hex: Vec<String> = c
        .encode_utf16(&mut units)
        .iter()
        .map(|u| format!("{u:04x}"))
        .collect();
    options.push(hex.iter().map(|h| format!("\\u{h}")).collect::<String>());
    options.push(
        hex.iter()
            .map(|h| format!("\\u{}", h.to_uppercase()))
            .collect::<String>(),
    );
    match c {
        '/' => options.push("\\/".into()),
        '\u{8}' => options.push("\\b".into()),
        '\u{c}' => options.push("\\f".into()),
        '\n' => options.push("\\n".into()),
        '\r' => options.push("\\r".into()),
        '\t' => options.push("\\t".into()),
        '"' => options.push("\\\"".into()),
        '\\' => options.push("\\\\".into()),
        c if !c.is_control() => options.push(c.to_string()),
        _ => {}
    }
    options.retain(|o| o != old);
    if options.is_empty() {
        return None;
    }
    Some(options.swap_remove(r.below(options.len())))
}

/// Any mutation: a bit flip, a byte replaced, inserted or deleted, a
/// truncation, or a structural one.
pub fn any_mutation(doc: &[u8], r: &mut XorShift) -> Vec<u8> {
    let n = doc.len();
    let mut m = doc.to_vec();
    match r.below(7) {
        0 => m[r.below(n)] ^= 1 << r.below(8),
        1 => m[r.below(n)] = r.next() as u8,
        2 => {
            let at = r.below(n + 1);
            let ins: &[u8] = [
                &b" "[..],
                b"\n",
                b"\r",
                b",",
                b"\"",
                b"\\",
                b"0",
                b"-",
                b"{}",
                b"[]",
                b"\xff",
                b"\xc0\x80",
                b"\\u0000",
                b"null",
                b"1e0",
            ][r.below(15)];
            m.splice(at..at, ins.iter().copied());
        }
        3 => {
            let at = r.below(n);
            let len = 1 + r.below(4);
            m.drain(at..(at + len).min(n));
        }
        4 => m.truncate(r.below(n)),
        _ => {
            if let Some((s, _)) = std::str::from_utf8(doc)
                .ok()
                .and_then(|d| structural_mutation(d, r))
            {
                m = s.into_bytes();
            } else {
                m[r.below(n)] ^= 0x20;
            }
        }
    }
    m
}

/// `"…"` quoted per FORMAT.md §2.
pub fn q(s: &str) -> String {
    quote(s)
}
