//! Constrained-decoding grammars whose language is the set of canonical
//! value documents (FORMAT.md §6) of one schema, within bounds the grammar
//! can state.
//!
//! [`Grammar`] is the one model; [`Grammar::lark`] prints it in llguidance's Lark
//! syntax (llama.cpp, vLLM, SGLang, TensorRT-LLM, mistral.rs, Chromium).
//! The model has one rule per type of the graph (so the shared types of a
//! DAG are written once), whose alternatives are the canonical text of a
//! record (`{"fields":{…}}`, keys in declaration order) or of each case of
//! a variant (`{"case":…,"fields":{…}}`); the leaves are terminals whose
//! regular languages come from the codec's own rules ([`regex`]); the start
//! rule is the envelope with this schema's root id and digest as fixed
//! literals, and the final LF. A type reused deep in a DAG, where some of
//! its values would nest deeper than the decoder's bound of 16, also gets
//! a rule per such depth ([`Rule::depth`]) that leaves out exactly those
//! values, so the depth bound is exact too.
//!
//! **Soundness first.** Every document the grammar accepts is admitted by
//! the strict decoder ([`crate::decode`]). Where a bound cannot be stated
//! exactly, the grammar is narrower, and says so in
//! [`Grammar::narrowings`]:
//!
//! - a string is bounded to 4096 UTF-8 *bytes*, but a grammar's repetition
//!   counts *characters*: a string field accepts at most 1024 characters
//!   (4 bytes each at most), reported as rule `value.string_bytes`;
//! - a document is bounded to 65536 bytes. The longest document the
//!   grammar accepts is computed from the model itself
//!   ([`Grammar::max_document_bytes`]); when it would exceed the bound,
//!   every string and bytes field gets one common smaller cap, the largest
//!   that fits (rule `document_bytes`, `max_chars` / `max_elements`); when
//!   even empty strings and arrays do not fit, the largest cases are left
//!   out one by one (`max_occurrences: 0`) until the rest fits, and a
//!   schema none of whose documents fits gets a grammar that accepts
//!   nothing. A `document` entry then gives the longest accepted document.
//!
//! Everywhere else the grammar is complete: every document the decoder
//! admits within the reported bounds is accepted.
//!
//! ```
//! use spx_schema::graph::{Field, FieldType, Repr, TypeGraph, TypeKind, TypeNode};
//! use spx_schema::project::grammar::Grammar;
//! let graph = TypeGraph { types: vec![TypeNode {
//!     stable_id: "geo.point".into(), name: "Point".into(),
//!     kind: TypeKind::Record { fields: vec![Field {
//!         stable_id: "geo.point.label".into(), name: "label".into(),
//!         ty: FieldType::Scalar(Repr::String) }] },
//! }]};
//! let schema = spx_schema::Schema::from_graph(graph).unwrap();
//! let g = Grammar::build(&schema);
//! assert!(g.lark().contains("t0_geo_point: \"{\\\"fields\\\":{\\\"geo.point.label\\\":\" STRING_1024 \"}}\""));
//! assert_eq!(
//!     g.narrowings_json(),
//!     "[{\"field\":\"geo.point.label\",\"rule\":\"value.string_bytes\",\"enforced\":{\"max_chars\":1024}}]\n"
//! );
//! ```

mod lark;
pub mod regex;

pub use regex::Regex;

use crate::codec::envelope;
use crate::graph::limits::{MAX_BYTES_LEN, MAX_DEPTH, MAX_DOCUMENT_BYTES, MAX_STRING_BYTES};
use crate::graph::{Field, FieldType, Repr, TypeKind};
use crate::quote::{quote, quote_into};
use crate::schema::Schema;
use std::collections::BTreeSet;

/// The most characters a string field accepts when nothing else narrows
/// it: 4096 bytes over the 4 bytes of the longest UTF-8 character.
pub const MAX_STRING_CHARS: usize = MAX_STRING_BYTES / 4;

/// The decoder rule whose bound a string's character limit narrows.
pub const RULE_STRING_BYTES: &str = "value.string_bytes";
/// The decoder rule whose bound the document-size narrowings serve.
pub const RULE_DOCUMENT_BYTES: &str = "document_bytes";
/// The `field` of the narrowing entry about the whole document.
pub const DOCUMENT: &str = "document";

/// One symbol of a rule's alternative.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Item {
    /// Exactly this text.
    Literal(String),
    /// The rule at this index of [`Grammar::rules`].
    Rule(usize),
    /// The terminal at this index of [`Grammar::terminals`].
    Terminal(usize),
}

/// One alternative of a rule: a record's text, or one case's.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Alternative {
    /// The case's stable id, for a variant.
    pub case: Option<String>,
    /// The symbols, adjacent literals merged.
    pub items: Vec<Item>,
}

/// The rule of one type (at one depth, where the depth bound needs it).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Rule {
    /// The rule's name: `t`, the type's index, `_`, and the stable id
    /// reduced to lowercase ASCII letters, digits and `_`.
    pub name: String,
    /// The type's stable id.
    pub stable_id: String,
    /// `record` or `variant`.
    pub kind: &'static str,
    /// `None` for the type's one rule, used wherever every value of the
    /// type fits under the decoder's depth bound (always, in a graph whose
    /// every path from the root is at most 16 deep). `Some(d)` for the
    /// rule of the type at depth `d` where some of its values would nest
    /// deeper than 16: a shared type reached deep in a DAG, whose deeper
    /// values the decoder refuses (`value.max_depth`); that rule leaves
    /// out exactly those, so the grammar stays exact.
    pub depth: Option<usize>,
    /// The alternatives; none when every case was left out (the rule then
    /// matches nothing).
    pub alternatives: Vec<Alternative>,
}

/// A leaf language.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Terminal {
    /// Its name: `BOOL`, `I32`, `I64`, `U8`, `U64`, `STRING_<max chars>`,
    /// `BYTES_<max elements>`.
    pub name: String,
    /// Its language.
    pub regex: Regex,
}

/// The bound a narrowing enforces, with its unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Enforced {
    /// At most this many characters in a string.
    MaxChars(usize),
    /// At most this many elements in a bytes array.
    MaxElements(usize),
    /// A case that occurs at most this many times (0: left out).
    MaxOccurrences(usize),
    /// A document of at most this many bytes.
    MaxBytes(usize),
}

impl Enforced {
    /// The unit's JSON key: `max_chars`, `max_elements`,
    /// `max_occurrences` or `max_bytes`.
    pub const fn unit(self) -> &'static str {
        match self {
            Enforced::MaxChars(_) => "max_chars",
            Enforced::MaxElements(_) => "max_elements",
            Enforced::MaxOccurrences(_) => "max_occurrences",
            Enforced::MaxBytes(_) => "max_bytes",
        }
    }

    /// The number.
    pub const fn value(self) -> usize {
        match self {
            Enforced::MaxChars(n)
            | Enforced::MaxElements(n)
            | Enforced::MaxOccurrences(n)
            | Enforced::MaxBytes(n) => n,
        }
    }
}

/// A bound the grammar enforces more narrowly than the decoder.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Narrowing {
    /// The stable id of the field (or case), or [`DOCUMENT`].
    pub field: String,
    /// The decoder rule whose bound is narrowed: [`RULE_STRING_BYTES`] or
    /// [`RULE_DOCUMENT_BYTES`].
    pub rule: &'static str,
    /// What the grammar enforces instead.
    pub enforced: Enforced,
}

/// Writes narrowings as the JSON array `--losses` prints (no LF).
pub(crate) fn write_narrowings(out: &mut String, narrowings: &[Narrowing]) {
    for (i, n) in narrowings.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"field\":");
        quote_into(out, &n.field);
        out.push_str(",\"rule\":");
        quote_into(out, n.rule);
        out.push_str(",\"enforced\":{");
        quote_into(out, n.enforced.unit());
        out.push(':');
        out.push_str(&n.enforced.value().to_string());
        out.push_str("}}");
    }
}

/// The grammar of one schema's canonical value documents.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Grammar {
    /// The start rule's one alternative: the envelope prefix, the root's
    /// rule, `}` and LF. Empty when no document fits the bounds (the
    /// grammar then accepts nothing).
    pub start: Vec<Item>,
    /// The rules: each type's one rule, in the graph's order (root last;
    /// a type with a chain of more than 16 nested fields below it has
    /// none), then the depth-specific rules ([`Rule::depth`]) in order of
    /// first use. [`Item::Rule`] indexes this. Only the rules reachable
    /// from [`Grammar::start`] are printed.
    pub rules: Vec<Rule>,
    /// The leaf languages the rules use, in order of first use.
    pub terminals: Vec<Terminal>,
    /// Every bound narrower than the decoder's, in graph order (types,
    /// cases, fields), then the [`DOCUMENT`] entry.
    pub narrowings: Vec<Narrowing>,
    /// The length of the longest document the grammar accepts (0 when it
    /// accepts none).
    pub max_document_bytes: usize,
}

/// The caps one build applies.
#[derive(Debug, Clone, Copy)]
struct Caps {
    string_chars: usize,
    bytes_elements: usize,
}

impl Caps {
    fn common(cap: usize) -> Caps {
        Caps {
            string_chars: cap.min(MAX_STRING_CHARS),
            bytes_elements: cap.min(MAX_BYTES_LEN),
        }
    }
}

/// Collects items, merging adjacent literals.
#[derive(Default)]
struct Items(Vec<Item>);

impl Items {
    fn lit(&mut self, s: &str) {
        if let Some(Item::Literal(last)) = self.0.last_mut() {
            last.push_str(s);
        } else {
            self.0.push(Item::Literal(s.to_owned()));
        }
    }
}

/// The rule name of type `index` with stable id `id`, at `depth` for a
/// depth-specific rule.
fn rule_name(index: usize, id: &str, depth: Option<usize>) -> String {
    let mut name = format!("t{index}_");
    for c in id.chars().take(48) {
        name.push(if c.is_ascii_alphanumeric() {
            c.to_ascii_lowercase()
        } else {
            '_'
        });
    }
    if let Some(d) = depth {
        name.push_str(&format!("_at{d}"));
    }
    name
}

/// Which rule stands for a type at a depth.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Key {
    /// The type's one rule: every value of it fits at this depth.
    Shared(usize),
    /// `(type, depth)`: some of its values would nest past the decoder's
    /// depth bound here, so this rule leaves out exactly those.
    At(usize, usize),
}

/// The longest chain of nested fields below each type (`None`: a cycle,
/// which only a hand-built graph can have).
fn heights(schema: &Schema) -> Vec<Option<usize>> {
    fn visit(
        types: &[crate::graph::TypeNode],
        t: usize,
        state: &mut [u8],
        out: &mut [Option<usize>],
    ) -> Option<usize> {
        match state[t] {
            1 => return None,
            2 => return out[t],
            _ => {}
        }
        state[t] = 1;
        let fields: Vec<&Field> = match &types[t].kind {
            TypeKind::Record { fields } => fields.iter().collect(),
            TypeKind::Variant { cases } => cases.iter().flat_map(|c| &c.fields).collect(),
        };
        let mut h = Some(0usize);
        for f in fields {
            if let FieldType::Nested(j) = f.ty {
                let below = if j < types.len() {
                    visit(types, j, state, out)
                } else {
                    None
                };
                h = match (h, below) {
                    (Some(h), Some(b)) => Some(h.max(b + 1)),
                    _ => None,
                };
            }
        }
        state[t] = 2;
        out[t] = h;
        h
    }
    let types = &schema.graph().types;
    let mut state = vec![0u8; types.len()];
    let mut out = vec![None; types.len()];
    for t in 0..types.len() {
        visit(types, t, &mut state, &mut out);
    }
    out
}

/// Builds the rules and terminals under `caps`, leaving out the `cut`
/// cases (`(type index, case index)`).
struct Builder<'a> {
    schema: &'a Schema,
    caps: Caps,
    cut: &'a [(usize, usize)],
    heights: Vec<Option<usize>>,
    terminals: Vec<Terminal>,
    rules: Vec<Rule>,
    keys: Vec<(Key, usize)>,
}

impl<'a> Builder<'a> {
    /// Every rule reachable from the root, shared rules first in the
    /// graph's order.
    fn new(schema: &'a Schema, caps: Caps, cut: &'a [(usize, usize)]) -> Builder<'a> {
        let mut b = Builder {
            schema,
            caps,
            cut,
            heights: heights(schema),
            terminals: Vec::new(),
            rules: Vec::new(),
            keys: Vec::new(),
        };
        for t in 0..schema.graph().types.len() {
            if b.heights[t].is_some_and(|h| h <= MAX_DEPTH) {
                b.rule(Key::Shared(t));
            }
        }
        b
    }

    /// The rule of the root value (depth 0).
    fn root(&mut self) -> Option<usize> {
        let key = self.key(self.schema.graph().root_index(), 0)?;
        Some(self.rule(key))
    }

    fn key(&self, t: usize, depth: usize) -> Option<Key> {
        if depth > MAX_DEPTH || t >= self.heights.len() {
            return None;
        }
        Some(match self.heights[t] {
            Some(h) if depth + h <= MAX_DEPTH => Key::Shared(t),
            _ => Key::At(t, depth),
        })
    }

    fn terminal(&mut self, repr: Repr) -> usize {
        let (name, regex) = match repr {
            Repr::Bool => ("BOOL".to_owned(), regex::boolean()),
            Repr::String => (
                format!("STRING_{}", self.caps.string_chars),
                regex::string(self.caps.string_chars),
            ),
            Repr::Bytes => (
                format!("BYTES_{}", self.caps.bytes_elements),
                regex::bytes(self.caps.bytes_elements),
            ),
            int => (int.name().to_ascii_uppercase(), regex::integer(int)),
        };
        if let Some(i) = self.terminals.iter().position(|t| t.name == name) {
            return i;
        }
        self.terminals.push(Terminal { name, regex });
        self.terminals.len() - 1
    }

    /// The rule of `key`, built on first use.
    fn rule(&mut self, key: Key) -> usize {
        if let Some(&(_, i)) = self.keys.iter().find(|(k, _)| *k == key) {
            return i;
        }
        let (t, depth) = match key {
            Key::Shared(t) => (t, None),
            Key::At(t, d) => (t, Some(d)),
        };
        let node = &self.schema.graph().types[t];
        let index = self.rules.len();
        self.rules.push(Rule {
            name: rule_name(t, &node.stable_id, depth),
            stable_id: node.stable_id.clone(),
            kind: match node.kind {
                TypeKind::Record { .. } => "record",
                TypeKind::Variant { .. } => "variant",
            },
            depth,
            alternatives: Vec::new(),
        });
        self.keys.push((key, index));
        let alternatives = match &node.kind {
            TypeKind::Record { fields } => self
                .fields("{", fields, depth)
                .map(|items| Alternative { case: None, items })
                .into_iter()
                .collect(),
            TypeKind::Variant { cases } => {
                let mut alts = Vec::new();
                for (ci, c) in cases.iter().enumerate() {
                    if self.cut.contains(&(t, ci)) {
                        continue;
                    }
                    let open = format!("{{\"case\":{},", quote(&c.stable_id));
                    if let Some(items) = self.fields(&open, &c.fields, depth) {
                        alts.push(Alternative {
                            case: Some(c.stable_id.clone()),
                            items,
                        });
                    }
                }
                alts
            }
        };
        self.rules[index].alternatives = alternatives;
        index
    }

    /// `{"fields":{…}}` after `open` (`{` or `{"case":<q>,`), for a value
    /// at `depth` (`None`: a shared rule, whose nested values all fit);
    /// `None` when a nested value would be deeper than the decoder allows.
    fn fields(&mut self, open: &str, fields: &[Field], depth: Option<usize>) -> Option<Vec<Item>> {
        let mut items = Items::default();
        items.lit(open);
        items.lit("\"fields\":{");
        for (i, f) in fields.iter().enumerate() {
            if i > 0 {
                items.lit(",");
            }
            items.lit(&quote(&f.stable_id));
            items.lit(":");
            match f.ty {
                FieldType::Scalar(r) => {
                    let t = self.terminal(r);
                    items.0.push(Item::Terminal(t));
                }
                FieldType::Nested(j) => {
                    let key = match depth {
                        None => Key::Shared(j),
                        Some(d) => self.key(j, d + 1)?,
                    };
                    let r = self.rule(key);
                    items.0.push(Item::Rule(r));
                }
            }
        }
        items.lit("}}");
        Some(items.0)
    }
}

/// The longest text of each rule (`None`: the rule matches nothing). The
/// rules' references never form a cycle: a shared rule refers to shared
/// rules of smaller height, a depth-specific one to deeper or shared ones.
fn max_lens(rules: &[Rule], terminals: &[Terminal]) -> Vec<Option<usize>> {
    fn visit(
        r: usize,
        rules: &[Rule],
        term: &[usize],
        memo: &mut Vec<Option<Option<usize>>>,
    ) -> Option<usize> {
        if let Some(known) = memo[r] {
            return known;
        }
        // A reference back to a rule being measured (impossible by
        // construction) would count as matching nothing.
        memo[r] = Some(None);
        let mut best = None;
        for a in &rules[r].alternatives {
            let mut sum = Some(0usize);
            for item in &a.items {
                let n = match item {
                    Item::Literal(s) => Some(s.len()),
                    Item::Terminal(t) => Some(term[*t]),
                    Item::Rule(j) => visit(*j, rules, term, memo),
                };
                sum = sum.zip(n).map(|(a, b)| a + b);
            }
            best = best.max(sum);
        }
        memo[r] = Some(best);
        best
    }
    let term: Vec<usize> = terminals.iter().map(|t| t.regex.max_len()).collect();
    let mut memo = vec![None; rules.len()];
    (0..rules.len())
        .map(|r| visit(r, rules, &term, &mut memo))
        .collect()
}

fn alternative_len(a: &Alternative, term: &[usize], lens: &[Option<usize>]) -> Option<usize> {
    a.items.iter().try_fold(0usize, |sum, item| {
        let n = match item {
            Item::Literal(s) => s.len(),
            Item::Terminal(t) => term[*t],
            Item::Rule(r) => lens.get(*r).copied().flatten()?,
        };
        Some(sum + n)
    })
}

/// One build: the rules, the root's rule and the longest text of each.
struct Built {
    rules: Vec<Rule>,
    terminals: Vec<Terminal>,
    root: Option<usize>,
    lens: Vec<Option<usize>>,
}

impl Built {
    fn new(schema: &Schema, caps: Caps, cut: &[(usize, usize)]) -> Built {
        let mut b = Builder::new(schema, caps, cut);
        let root = b.root();
        let lens = max_lens(&b.rules, &b.terminals);
        Built {
            rules: b.rules,
            terminals: b.terminals,
            root,
            lens,
        }
    }

    /// The longest value text, when the root has one.
    fn root_len(&self) -> Option<usize> {
        self.lens.get(self.root?).copied().flatten()
    }

    fn term_lens(&self) -> Vec<usize> {
        self.terminals.iter().map(|t| t.regex.max_len()).collect()
    }

    /// The cases that can occur in some document.
    fn cases(&self) -> BTreeSet<String> {
        let mut seen = vec![false; self.rules.len()];
        let mut stack: Vec<usize> = self.root.into_iter().collect();
        let term = self.term_lens();
        let mut out = BTreeSet::new();
        if self.root_len().is_none() {
            return out;
        }
        while let Some(r) = stack.pop() {
            if std::mem::replace(&mut seen[r], true) {
                continue;
            }
            for a in &self.rules[r].alternatives {
                if alternative_len(a, &term, &self.lens).is_none() {
                    continue;
                }
                out.extend(a.case.clone());
                for i in &a.items {
                    if let Item::Rule(j) = i {
                        stack.push(*j);
                    }
                }
            }
        }
        out
    }
}

impl Grammar {
    /// The grammar of `schema`'s canonical value documents, narrowed where
    /// it must be (see the module documentation).
    pub fn build(schema: &Schema) -> Grammar {
        let prefix = envelope::prefix(schema.root_type_id(), schema.digest());
        let overhead = prefix.len() + envelope::END.len();
        let fits = |caps: Caps, cut: &[(usize, usize)]| -> bool {
            Built::new(schema, caps, cut)
                .root_len()
                .is_some_and(|n| n + overhead <= MAX_DOCUMENT_BYTES)
        };
        // The largest common cap that fits, if any does.
        let best_cap = |cut: &[(usize, usize)]| -> Option<usize> {
            if !fits(Caps::common(0), cut) {
                return None;
            }
            let (mut lo, mut hi) = (0usize, MAX_BYTES_LEN);
            while lo < hi {
                let mid = (lo + hi).div_ceil(2);
                if fits(Caps::common(mid), cut) {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            Some(lo)
        };
        let mut cut: Vec<(usize, usize)> = Vec::new();
        let cap = loop {
            if let Some(cap) = best_cap(&cut) {
                break Some(cap);
            }
            // Even empty strings and arrays do not fit: leave out the case
            // with the longest text, and try again.
            let b = Built::new(schema, Caps::common(0), &cut);
            if b.root_len().is_none() {
                break None;
            }
            let term = b.term_lens();
            let widest = b
                .rules
                .iter()
                .flat_map(|r| r.alternatives.iter().map(move |a| (r, a)))
                .filter_map(|(r, a)| {
                    let ti = schema.graph().index_of(&r.stable_id)?;
                    let ci = case_index(schema, ti, a.case.as_deref()?)?;
                    Some((alternative_len(a, &term, &b.lens)?, ti, ci))
                })
                .max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)).then(b.2.cmp(&a.2)));
            match widest {
                Some((_, ti, ci)) => cut.push((ti, ci)),
                None => break None,
            }
        };
        let caps = Caps::common(cap.unwrap_or(0));
        let mut b = Built::new(schema, caps, &cut);
        // The cases the document bound leaves out: those that could occur
        // without any case left out, and no longer can.
        let excluded: Vec<String> = if cut.is_empty() {
            Vec::new()
        } else {
            let before = Built::new(schema, caps, &[]).cases();
            let after = b.cases();
            before.difference(&after).cloned().collect()
        };
        let term = b.term_lens();
        let lens = b.lens.clone();
        for r in b.rules.iter_mut() {
            r.alternatives
                .retain(|a| alternative_len(a, &term, &lens).is_some());
        }
        let (start, max_document_bytes) = match (cap, b.root, b.root_len()) {
            (Some(_), Some(root), Some(n)) => {
                let mut items = Items::default();
                items.lit(&prefix);
                items.0.push(Item::Rule(root));
                items.lit(envelope::END);
                (items.0, n + overhead)
            }
            _ => (Vec::new(), 0),
        };
        let mut g = Grammar {
            start,
            rules: b.rules,
            terminals: b.terminals,
            narrowings: Vec::new(),
            max_document_bytes,
        };
        g.narrowings = narrowings(schema, &g, caps, &excluded);
        g
    }

    /// The grammar in llguidance's Lark syntax.
    pub fn lark(&self) -> String {
        lark::print(self)
    }

    /// [`Grammar::narrowings`] as the JSON array `spx provider-schema
    /// --losses` prints: `{"field":…,"rule":…,"enforced":{<unit>:<n>}}`
    /// per entry, compact, one LF at the end.
    pub fn narrowings_json(&self) -> String {
        let mut s = String::from("[");
        write_narrowings(&mut s, &self.narrowings);
        s.push_str("]\n");
        s
    }
}

fn case_index(schema: &Schema, ti: usize, case: &str) -> Option<usize> {
    match &schema.graph().types.get(ti)?.kind {
        TypeKind::Variant { cases } => cases.iter().position(|c| c.stable_id == case),
        TypeKind::Record { .. } => None,
    }
}

/// The narrowing entries of a built grammar.
fn narrowings(schema: &Schema, g: &Grammar, caps: Caps, excluded: &[String]) -> Vec<Narrowing> {
    let mut out = Vec::new();
    let document_narrowed = caps.string_chars < MAX_STRING_CHARS
        || caps.bytes_elements < MAX_BYTES_LEN
        || !excluded.is_empty()
        || g.start.is_empty();
    let leaf = |out: &mut Vec<Narrowing>, f: &Field| match f.ty {
        FieldType::Scalar(Repr::String) => out.push(Narrowing {
            field: f.stable_id.clone(),
            rule: if caps.string_chars < MAX_STRING_CHARS {
                RULE_DOCUMENT_BYTES
            } else {
                RULE_STRING_BYTES
            },
            enforced: Enforced::MaxChars(caps.string_chars),
        }),
        FieldType::Scalar(Repr::Bytes) if caps.bytes_elements < MAX_BYTES_LEN => {
            out.push(Narrowing {
                field: f.stable_id.clone(),
                rule: RULE_DOCUMENT_BYTES,
                enforced: Enforced::MaxElements(caps.bytes_elements),
            })
        }
        _ => {}
    };
    for t in &schema.graph().types {
        match &t.kind {
            TypeKind::Record { fields } => fields.iter().for_each(|f| leaf(&mut out, f)),
            TypeKind::Variant { cases } => {
                for c in cases {
                    if excluded.contains(&c.stable_id) {
                        out.push(Narrowing {
                            field: c.stable_id.clone(),
                            rule: RULE_DOCUMENT_BYTES,
                            enforced: Enforced::MaxOccurrences(0),
                        });
                    } else {
                        c.fields.iter().for_each(|f| leaf(&mut out, f));
                    }
                }
            }
        }
    }
    if document_narrowed {
        out.push(Narrowing {
            field: DOCUMENT.to_owned(),
            rule: RULE_DOCUMENT_BYTES,
            enforced: Enforced::MaxBytes(g.max_document_bytes),
        });
    }
    out
}
