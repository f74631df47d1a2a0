//! The grammar in llguidance's Lark syntax (docs/GRAMMARS.md).
//!
//! ```text
//! %llguidance {}
//!
//! start: "{\"schema\":…,\"value\":" t2_root "}\n"
//!
//! // record "t.inner"
//! t0_t_inner: "{\"fields\":{\"inner.x\":" I64 ",\"inner.b\":" BOOL "}}"
//!
//! // variant "t.shape"
//! t1_t_shape: "{\"case\":\"shape.circle\",\"fields\":{\"circle.r\":" U8 "}}"
//!     | "{\"case\":\"shape.none\",\"fields\":{}}"
//!
//! BOOL: /true|false/
//! ```
//!
//! Rules are lowercase (context-free), terminals uppercase (each one
//! lexeme, a regular expression in Rust `regex` syntax). There is no
//! `%ignore`, so nothing may stand between two symbols. Literals are Lark
//! string literals, which llguidance reads as JSON strings: the canonical
//! quoting of [`crate::quote`] writes them.

use super::{Grammar, Item};
use crate::quote::{quote, quote_into};

/// A terminal that matches nothing: the start of a grammar that accepts no
/// document.
const NOTHING: &str = "NOTHING: /[^\\x{0}-\\x{10FFFF}]/";

fn push_items(out: &mut String, g: &Grammar, items: &[Item]) {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        match item {
            Item::Literal(s) => quote_into(out, s),
            Item::Rule(r) => out.push_str(&g.rules[*r].name),
            Item::Terminal(t) => out.push_str(&g.terminals[*t].name),
        }
    }
}

/// The rules reachable from the start, in the graph's order.
fn reachable(g: &Grammar) -> Vec<bool> {
    let mut seen = vec![false; g.rules.len()];
    let mut stack: Vec<usize> = g
        .start
        .iter()
        .filter_map(|i| match i {
            Item::Rule(r) => Some(*r),
            _ => None,
        })
        .collect();
    while let Some(r) = stack.pop() {
        if std::mem::replace(&mut seen[r], true) {
            continue;
        }
        for a in &g.rules[r].alternatives {
            for i in &a.items {
                if let Item::Rule(j) = i {
                    stack.push(*j);
                }
            }
        }
    }
    seen
}

/// Prints `g`.
pub(super) fn print(g: &Grammar) -> String {
    let mut out = String::from("%llguidance {}\n\n");
    out.push_str("// The canonical value documents of one Agent Interaction Schema v1 root\n");
    out.push_str(
        "// (FORMAT.md §6), written by spx. Narrowed bounds: `spx provider-schema --losses`.\n\n",
    );
    if g.start.is_empty() {
        out.push_str("// No document of this schema fits the 65536-byte bound.\n");
        out.push_str("start: NOTHING\n\n");
        out.push_str(NOTHING);
        out.push('\n');
        return out;
    }
    out.push_str("start: ");
    push_items(&mut out, g, &g.start);
    out.push('\n');
    let seen = reachable(g);
    for (r, rule) in g.rules.iter().enumerate() {
        if !seen[r] {
            continue;
        }
        out.push_str("\n// ");
        out.push_str(rule.kind);
        out.push(' ');
        out.push_str(&quote(&rule.stable_id));
        if let Some(d) = rule.depth {
            out.push_str(&format!(" at depth {d}, where the decoder's depth bound of 16 leaves out some of its values"));
        }
        out.push('\n');
        out.push_str(&rule.name);
        out.push_str(": ");
        for (i, a) in rule.alternatives.iter().enumerate() {
            if i > 0 {
                out.push_str("\n    | ");
            }
            push_items(&mut out, g, &a.items);
        }
        out.push('\n');
    }
    out.push('\n');
    let mut used = vec![false; g.terminals.len()];
    for (_, rule) in g.rules.iter().enumerate().filter(|(r, _)| seen[*r]) {
        for a in &rule.alternatives {
            for i in &a.items {
                if let Item::Terminal(t) = i {
                    used[*t] = true;
                }
            }
        }
    }
    for (t, _) in g.terminals.iter().enumerate().filter(|(t, _)| used[*t]) {
        let t = &g.terminals[t];
        out.push_str(&t.name);
        out.push_str(": /");
        t.regex.write_rust(&mut out);
        out.push_str("/\n");
    }
    out
}
