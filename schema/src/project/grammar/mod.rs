//! Constrained-decoding grammars whose language is the set of canonical
//! value documents (FORMAT.md §6) of one schema, within bounds the grammar
//! can state.
//!
//! [`Grammar`] is the one model; [`lark`] prints it in llguidance's Lark
//! syntax (llama.cpp, vLLM, SGLang, TensorRT-LLM, mistral.rs, Chromium).
//! The model has one rule per type of the graph (so the shared types of a
//! DAG are written once), whose alternatives are the canonical text of a
//! record (`{"fields":{…}}`, keys in declaration order) or of each case of
//! a variant (`{"case":…,"fields":{…}}`); the leaves are terminals whose
//! regular languages come from the codec's own rules ([`regex`]); the start
//! rule is the envelope with this schema's root id and digest as fixed
//! literals, and the final LF.
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
use crate::graph::limits::{MAX_BYTES_LEN, MAX_DOCUMENT_BYTES, MAX_STRING_BYTES};
use crate::graph::{Field, FieldType, Repr, TypeKind};
use crate::quote::{quote, quote_into};
use crate::schema::Schema;

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
    /// The rule of the type at this index of the graph.
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

/// The rule of one type.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Rule {
    /// The rule's name: `t`, the type's index, `_`, and the stable id
    /// reduced to lowercase ASCII letters, digits and `_`.
    pub name: String,
    /// The type's stable id.
    pub stable_id: String,
    /// `record` or `variant`.
    pub kind: &'static str,
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
    /// One rule per type, in the graph's order (root last).
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

/// The rule name of type `index` with stable id `id`.
fn rule_name(index: usize, id: &str) -> String {
    let mut name = format!("t{index}_");
    for c in id.chars().take(48) {
        name.push(if c.is_ascii_alphanumeric() {
            c.to_ascii_lowercase()
        } else {
            '_'
        });
    }
    name
}

/// Builds the rules and terminals under `caps`, leaving out `cut` cases
/// (`(type index, case index)`).
struct Builder<'a> {
    schema: &'a Schema,
    caps: Caps,
    terminals: Vec<Terminal>,
}

impl Builder<'_> {
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

    /// `{"fields":{…}}` after `open` (`{` or `{"case":<q>,`).
    fn fields(&mut self, open: &str, fields: &[Field]) -> Vec<Item> {
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
                FieldType::Nested(j) => items.0.push(Item::Rule(j)),
            }
        }
        items.lit("}}");
        items.0
    }

    fn rules(&mut self, cut: &[(usize, usize)]) -> Vec<Rule> {
        let graph = self.schema.graph();
        let mut rules = Vec::with_capacity(graph.types.len());
        for (ti, t) in graph.types.iter().enumerate() {
            let (kind, alternatives) = match &t.kind {
                TypeKind::Record { fields } => (
                    "record",
                    vec![Alternative {
                        case: None,
                        items: self.fields("{", fields),
                    }],
                ),
                TypeKind::Variant { cases } => (
                    "variant",
                    cases
                        .iter()
                        .enumerate()
                        .filter(|(ci, _)| !cut.contains(&(ti, *ci)))
                        .map(|(_, c)| Alternative {
                            case: Some(c.stable_id.clone()),
                            items: self
                                .fields(&format!("{{\"case\":{},", quote(&c.stable_id)), &c.fields),
                        })
                        .collect(),
                ),
            };
            rules.push(Rule {
                name: rule_name(ti, &t.stable_id),
                stable_id: t.stable_id.clone(),
                kind,
                alternatives,
            });
        }
        rules
    }
}

/// The longest text of each rule (`None`: the rule matches nothing), the
/// graph's order making every reference point backwards.
fn max_lens(rules: &[Rule], terminals: &[Terminal]) -> Vec<Option<usize>> {
    let term: Vec<usize> = terminals.iter().map(|t| t.regex.max_len()).collect();
    let mut out: Vec<Option<usize>> = Vec::with_capacity(rules.len());
    for r in rules {
        let best = r
            .alternatives
            .iter()
            .filter_map(|a| alternative_len(a, &term, &out))
            .max();
        out.push(best);
    }
    out
}

fn alternative_len(a: &Alternative, term: &[usize], rules: &[Option<usize>]) -> Option<usize> {
    a.items.iter().try_fold(0usize, |sum, item| {
        let n = match item {
            Item::Literal(s) => s.len(),
            Item::Terminal(t) => term[*t],
            Item::Rule(r) => rules.get(*r).copied().flatten()?,
        };
        Some(sum + n)
    })
}

impl Grammar {
    /// The grammar of `schema`'s canonical value documents, narrowed where
    /// it must be (see the module documentation).
    pub fn build(schema: &Schema) -> Grammar {
        let prefix = envelope::prefix(schema.root_type_id(), schema.digest());
        let overhead = prefix.len() + envelope::END.len();
        let fits = |caps: Caps, cut: &[(usize, usize)]| -> Option<usize> {
            let mut b = Builder {
                schema,
                caps,
                terminals: Vec::new(),
            };
            let rules = b.rules(cut);
            let lens = max_lens(&rules, &b.terminals);
            lens.last()
                .copied()
                .flatten()
                .map(|n| n + overhead)
                .filter(|&n| n <= MAX_DOCUMENT_BYTES)
        };
        // The largest common cap that fits, if any does.
        let best_cap = |cut: &[(usize, usize)]| -> Option<usize> {
            fits(Caps::common(0), cut)?;
            let (mut lo, mut hi) = (0usize, MAX_BYTES_LEN);
            while lo < hi {
                let mid = (lo + hi).div_ceil(2);
                if fits(Caps::common(mid), cut).is_some() {
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
            let mut b = Builder {
                schema,
                caps: Caps::common(0),
                terminals: Vec::new(),
            };
            let rules = b.rules(&cut);
            let lens = max_lens(&rules, &b.terminals);
            if lens.last().copied().flatten().is_none() {
                break None;
            }
            let term: Vec<usize> = b.terminals.iter().map(|t| t.regex.max_len()).collect();
            let widest = rules
                .iter()
                .enumerate()
                .flat_map(|(ti, r)| {
                    let lens = &lens;
                    let term = &term;
                    r.alternatives.iter().filter_map(move |a| {
                        let ci = case_index(schema, ti, a.case.as_deref()?)?;
                        Some((alternative_len(a, term, lens)?, ti, ci))
                    })
                })
                .max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)).then(b.2.cmp(&a.2)));
            match widest {
                Some((_, ti, ci)) => cut.push((ti, ci)),
                None => break None,
            }
        };
        let caps = Caps::common(cap.unwrap_or(0));
        let mut b = Builder {
            schema,
            caps,
            terminals: Vec::new(),
        };
        let mut rules = b.rules(&cut);
        let lens = max_lens(&rules, &b.terminals);
        // The cases that are left out, or whose text needs a type that has
        // none left.
        let mut excluded: Vec<String> = Vec::new();
        let term: Vec<usize> = b.terminals.iter().map(|t| t.regex.max_len()).collect();
        for r in rules.iter_mut() {
            r.alternatives.retain(|a| {
                let keep = alternative_len(a, &term, &lens).is_some();
                if !keep {
                    excluded.extend(a.case.clone());
                }
                keep
            });
        }
        let root = lens.last().copied().flatten();
        let (start, max_document_bytes) = match (cap, root) {
            (Some(_), Some(n)) => {
                let mut items = Items::default();
                items.lit(&prefix);
                items.0.push(Item::Rule(rules.len() - 1));
                items.lit(envelope::END);
                (items.0, n + overhead)
            }
            _ => (Vec::new(), 0),
        };
        let mut g = Grammar {
            start,
            rules,
            terminals: b.terminals,
            narrowings: Vec::new(),
            max_document_bytes,
        };
        for &(ti, ci) in &cut {
            if let TypeKind::Variant { cases } = &schema.graph().types[ti].kind {
                excluded.push(cases[ci].stable_id.clone());
            }
        }
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

#[cfg(test)]
mod tests;
