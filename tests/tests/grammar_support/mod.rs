//! Runs spx's Lark grammars in llguidance, the engine inference servers
//! embed, with toktrie's byte-level tokenizer (token `b` is the byte `b`,
//! no tokenizer download): whether a grammar accepts a document, a random
//! sampler under a grammar, and the bounds a grammar reports as narrowed.
#![allow(dead_code)]

use llguidance::api::TopLevelGrammar;
use llguidance::{Matcher, ParserFactory};
use spx_schema::graph::{FieldType, Repr, TypeKind};
use spx_schema::project::{project, Dialect};
use spx_schema::{Schema, Value};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};
use toktrie::{ApproximateTokEnv, TokEnv, TokRxInfo, TokTrie, TokenId};

fn env() -> &'static TokEnv {
    static ENV: OnceLock<TokEnv> = OnceLock::new();
    ENV.get_or_init(ApproximateTokEnv::single_byte_env)
}

fn factory() -> &'static ParserFactory {
    static FACTORY: OnceLock<ParserFactory> = OnceLock::new();
    FACTORY.get_or_init(|| {
        let mut f = ParserFactory::new_simple(env()).expect("the byte-level parser factory");
        f.set_stderr_log_level(0);
        f.quiet();
        f
    })
}

/// The lark grammar of `schema`.
pub fn lark(schema: &Schema) -> String {
    project(schema, Dialect::Lark)
        .expect("a Lark grammar")
        .document
}

/// A grammar compiled by llguidance, ready to check or sample documents.
pub struct Grammar {
    text: String,
    fresh: Matcher,
}

/// The token of the end of the text.
fn eos() -> TokenId {
    env().tok_trie().eos_token()
}

/// A tokenizer with multi-byte tokens, as a real one has: every single
/// byte, then `pieces` (deduplicated), then the end-of-text token.
pub fn tokenizer(pieces: &[Vec<u8>]) -> TokEnv {
    let mut words: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
    let mut seen: std::collections::BTreeSet<Vec<u8>> = words.iter().cloned().collect();
    for p in pieces {
        if p.len() > 1 && seen.insert(p.clone()) {
            words.push(p.clone());
        }
    }
    words.push(b"\xFF<|end|>".to_vec());
    let info = TokRxInfo::new(words.len() as u32, words.len() as u32 - 1);
    Arc::new(ApproximateTokEnv::new(TokTrie::from(&info, &words)))
}

/// A grammar compiled for a tokenizer of its own.
pub struct Tokenized {
    env: TokEnv,
    fresh: Matcher,
}

impl Tokenized {
    /// Compiles `lark` for `env`.
    pub fn compile(lark: &str, env: &TokEnv) -> Tokenized {
        let mut f = ParserFactory::new_simple(env).expect("a parser factory");
        f.set_stderr_log_level(0);
        let fresh = Matcher::new(f.create_parser(TopLevelGrammar::from_lark(lark.to_owned())));
        if let Some(e) = fresh.get_error() {
            panic!("llguidance refused the grammar: {e}");
        }
        Tokenized {
            env: env.clone(),
            fresh,
        }
    }

    /// True when `doc`, tokenized greedily, is accepted to its end.
    pub fn accepts(&self, doc: &[u8]) -> bool {
        let mut m = self.fresh.clone();
        let tokens = self.env.tokenize_bytes(doc);
        match m.try_consume_tokens(&tokens) {
            Ok(n) if n == tokens.len() => {}
            _ => return false,
        }
        m.is_stopped()
            || m.compute_mask()
                .is_ok_and(|mask| mask.is_allowed(self.env.tok_trie().eos_token()))
    }

    /// A document sampled token by token: among the allowed tokens, one at
    /// random, preferring (with probability `close` in 1/100) one that ends
    /// with `"` or `]`.
    pub fn sample(&self, below: &mut dyn FnMut(usize) -> usize, close: usize) -> Vec<u8> {
        let trie = self.env.tok_trie();
        let eos = trie.eos_token();
        let mut m = self.fresh.clone();
        let mut out = Vec::new();
        loop {
            for t in m.consume_ff_tokens() {
                out.extend_from_slice(trie.token(t));
            }
            assert!(!m.is_error(), "{:?}", m.get_error());
            if m.is_stopped() {
                return out;
            }
            let mask = m.compute_mask().expect("a mask");
            let mut allowed = Vec::new();
            mask.iter_set_entries(|t| {
                if t as TokenId != eos {
                    allowed.push(t as TokenId);
                }
            });
            if allowed.is_empty() {
                assert!(mask.is_allowed(eos), "dead end after {out:?}");
                return out;
            }
            let closing: Vec<TokenId> = allowed
                .iter()
                .copied()
                .filter(|&t| matches!(trie.token(t).last(), Some(b'"' | b']')))
                .collect();
            let t = if !closing.is_empty() && below(100) < close {
                closing[below(closing.len())]
            } else {
                allowed[below(allowed.len())]
            };
            m.consume_token(t).expect("an allowed token is consumed");
            out.extend_from_slice(trie.token(t));
        }
    }
}

impl Grammar {
    /// Compiles `lark`, panicking with llguidance's message if it refuses it.
    pub fn compile(lark: &str) -> Grammar {
        let parser = factory().create_parser(TopLevelGrammar::from_lark(lark.to_owned()));
        let fresh = Matcher::new(parser);
        if let Some(e) = fresh.get_error() {
            panic!("llguidance refused the grammar: {e}\n{lark}");
        }
        Grammar {
            text: lark.to_owned(),
            fresh,
        }
    }

    /// The grammar's text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// True when llguidance accepts exactly `doc`: every byte in turn, and
    /// then the end of the text.
    pub fn accepts(&self, doc: &[u8]) -> bool {
        let mut m = self.fresh.clone();
        let tokens: Vec<TokenId> = doc.iter().map(|&b| TokenId::from(b)).collect();
        match m.try_consume_tokens(&tokens) {
            Ok(n) if n == tokens.len() => {}
            _ => return false,
        }
        if m.is_error() {
            return false;
        }
        if m.is_stopped() {
            return true;
        }
        match m.compute_mask() {
            Ok(mask) => mask.is_allowed(eos()),
            Err(_) => false,
        }
    }

    /// One document written by a random sampler: at each step it takes
    /// the bytes the grammar forces, or picks one of the bytes the mask
    /// allows, preferring (with probability `close` in 1/100) a byte that
    /// closes a string or an array, so that documents stay short. `below(n)`
    /// is a random number in `0..n`.
    pub fn sample(&self, below: &mut dyn FnMut(usize) -> usize, close: usize) -> Vec<u8> {
        let mut m = self.fresh.clone();
        let mut out: Vec<u8> = Vec::new();
        loop {
            let forced = m.consume_ff_tokens();
            out.extend(forced.iter().map(|&t| t as u8));
            assert!(!m.is_error(), "{:?}", m.get_error());
            if m.is_stopped() {
                return out;
            }
            let mask = m.compute_mask().expect("a mask");
            let mut allowed: Vec<TokenId> = Vec::new();
            mask.iter_set_entries(|t| allowed.push(t as TokenId));
            let bytes: Vec<TokenId> = allowed.iter().copied().filter(|&t| t < 256).collect();
            if bytes.is_empty() {
                assert!(allowed.contains(&eos()), "dead end after {out:?}");
                return out;
            }
            let closing: Vec<TokenId> = bytes
                .iter()
                .copied()
                .filter(|&t| t == u32::from(b'"') || t == u32::from(b']'))
                .collect();
            let t = if !closing.is_empty() && below(100) < close {
                closing[below(closing.len())]
            } else {
                bytes[below(bytes.len())]
            };
            m.consume_token(t).expect("an allowed byte is consumed");
            out.push(t as u8);
        }
    }
}

thread_local! {
    static COMPILED: RefCell<HashMap<String, Arc<Grammar>>> = RefCell::new(HashMap::new());
}

/// The compiled grammar of `schema` (compiled once per thread and schema).
pub fn grammar(schema: &Schema) -> Arc<Grammar> {
    let key = format!("{}\n{}", schema.digest(), schema.root_type_id());
    COMPILED.with(|c| {
        c.borrow_mut()
            .entry(key)
            .or_insert_with(|| Arc::new(Grammar::compile(&lark(schema))))
            .clone()
    })
}

/// The bounds a grammar reports as narrowed (`--losses`), read back from
/// the JSON report.
#[derive(Debug, Default)]
pub struct Narrowed {
    /// Per field (or case): the unit and the number.
    pub fields: HashMap<String, (String, u64)>,
    /// The longest document, when the document bound narrowed anything.
    pub document: Option<u64>,
}

impl Narrowed {
    pub fn of(schema: &Schema) -> Narrowed {
        let p = project(schema, Dialect::Lark).unwrap();
        let report: serde_json::Value = serde_json::from_str(&p.losses_json()).unwrap();
        let mut n = Narrowed::default();
        for e in report.as_array().unwrap() {
            let field = e["field"].as_str().unwrap().to_owned();
            let (unit, value) = e["enforced"].as_object().unwrap().iter().next().unwrap();
            let value = value.as_u64().unwrap();
            if field == "document" {
                n.document = Some(value);
            } else {
                n.fields.insert(field, (unit.clone(), value));
            }
        }
        n
    }

    fn bound(&self, id: &str, unit: &str) -> Option<u64> {
        match self.fields.get(id) {
            Some((u, n)) if u == unit => Some(*n),
            _ => None,
        }
    }

    /// True when the document of `value` is within every reported bound:
    /// the grammar must accept it.
    pub fn covers(&self, schema: &Schema, value: &Value, doc_len: usize) -> bool {
        if self.document.is_some_and(|max| doc_len as u64 > max) {
            return false;
        }
        self.covers_type(schema, schema.graph().root_index(), value)
    }

    fn covers_type(&self, schema: &Schema, t: usize, value: &Value) -> bool {
        let (fields, values) = match (&schema.graph().types[t].kind, value) {
            (TypeKind::Record { fields }, Value::Record(values)) => (fields, values),
            (
                TypeKind::Variant { cases },
                Value::Variant {
                    case,
                    fields: values,
                },
            ) => {
                if self.bound(case, "max_occurrences") == Some(0) {
                    return false;
                }
                let c = cases.iter().find(|c| &c.stable_id == case).unwrap();
                (&c.fields, values)
            }
            _ => panic!("value does not fit its type"),
        };
        fields
            .iter()
            .zip(values)
            .all(|(f, (_, v))| match (f.ty, v) {
                (FieldType::Nested(j), v) => self.covers_type(schema, j, v),
                (FieldType::Scalar(Repr::String), Value::String(s)) => self
                    .bound(&f.stable_id, "max_chars")
                    .is_none_or(|n| s.chars().count() as u64 <= n),
                (FieldType::Scalar(Repr::Bytes), Value::Bytes(b)) => self
                    .bound(&f.stable_id, "max_elements")
                    .is_none_or(|n| b.len() as u64 <= n),
                _ => true,
            })
    }
}

/// Asserts that the grammar of `schema` refuses `bytes`, which the strict
/// decoder refused.
#[track_caller]
pub fn assert_refused(schema: &Schema, bytes: &[u8]) {
    let g = grammar(schema);
    assert!(
        !g.accepts(bytes),
        "the grammar accepts a document the decoder refuses:\n{}",
        String::from_utf8_lossy(&bytes[..bytes.len().min(400)])
    );
}

/// Asserts that the grammar of `schema` accepts `bytes`, which the strict
/// decoder admitted as `value`, unless a reported narrowing excuses it.
/// Returns whether it was within the reported bounds.
#[track_caller]
pub fn assert_accepted(schema: &Schema, bytes: &[u8], value: &Value) -> bool {
    let g = grammar(schema);
    let covered = Narrowed::of(schema).covers(schema, value, bytes.len());
    let accepted = g.accepts(bytes);
    if covered {
        assert!(
            accepted,
            "the grammar refuses an admitted document within its bounds:\n{}\n--- grammar\n{}",
            String::from_utf8_lossy(&bytes[..bytes.len().min(400)]),
            g.text()
        );
    }
    covered
}

/// Checks the grammar's verdict on `bytes` against the decoder's: refused
/// when the decoder refuses, accepted when it admits within the bounds.
#[track_caller]
pub fn check(schema: &Schema, bytes: &[u8]) {
    match spx_schema::decode::decode(schema, bytes) {
        Ok(d) => {
            assert_accepted(schema, bytes, &d.value);
        }
        Err(_) => assert_refused(schema, bytes),
    }
}
