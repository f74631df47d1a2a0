//! The value document's envelope (FORMAT.md §6):
//!
//! ```text
//! {"schema":"semaprax.agent-interaction-value.v1","root_type_id":<q>,"schema_digest":<q>,"value":<VALUE>}LF
//! ```
//!
//! Everything before `<VALUE>` is the [prefix](push_prefix), fixed by the
//! schema (its root id and digest, each quoted canonically); everything
//! after it is [`END`]. The encoder writes the prefix with
//! [`push_prefix`], the macro bakes [`prefix`] into generated code as one
//! literal, and the engine's fast path matches it with
//! [`Cursor::envelope_prefix`] without building it.

use super::kernel::Kernel;
use super::quote::quote_into;
use super::read::Cursor;
use crate::graph::limits::VALUE_ID;

/// Before the document id.
const OPEN: &str = "{\"schema\":\"";
/// Between the document id and the quoted root id.
const ROOT_KEY: &str = "\",\"root_type_id\":";
/// Between the quoted root id and the quoted digest.
const DIGEST_KEY: &str = ",\"schema_digest\":";
/// Between the quoted digest and `<VALUE>`.
const VALUE_KEY: &str = ",\"value\":";

/// What follows `<VALUE>`: the envelope's `}` and the final LF.
pub const END: &str = "}\n";

/// Appends the prefix of the value documents of the schema whose root is
/// `root_type_id` and whose digest is `digest`.
pub fn push_prefix(out: &mut String, root_type_id: &str, digest: &str) {
    out.push_str(OPEN);
    out.push_str(VALUE_ID);
    out.push_str(ROOT_KEY);
    quote_into(out, root_type_id);
    out.push_str(DIGEST_KEY);
    quote_into(out, digest);
    out.push_str(VALUE_KEY);
}

/// The prefix of [`push_prefix`], as a string.
pub fn prefix(root_type_id: &str, digest: &str) -> String {
    let mut out = String::with_capacity(128);
    push_prefix(&mut out, root_type_id, digest);
    out
}

impl<K: Kernel> Cursor<'_, K> {
    /// Consumes exactly the prefix [`push_prefix`] writes for
    /// `root_type_id` and `digest`, or fails.
    #[inline]
    pub fn envelope_prefix(&mut self, root_type_id: &str, digest: &str) -> Option<()> {
        self.lit(OPEN.as_bytes())?;
        self.lit(VALUE_ID.as_bytes())?;
        self.lit(ROOT_KEY.as_bytes())?;
        self.quoted(root_type_id)?;
        self.lit(DIGEST_KEY.as_bytes())?;
        self.quoted(digest)?;
        self.lit(VALUE_KEY.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reader_matches_exactly_what_the_writer_writes() {
        let p = prefix("geo.point", "sha256:00");
        assert_eq!(
            p,
            "{\"schema\":\"semaprax.agent-interaction-value.v1\",\"root_type_id\":\"geo.point\",\"schema_digest\":\"sha256:00\",\"value\":"
        );
        let doc = format!("{p}{{}}{END}");
        let mut c = Cursor::new(&doc);
        assert_eq!(c.envelope_prefix("geo.point", "sha256:00"), Some(()));
        assert!(c.eat(b"{}"));
        assert!(c.eat(END.as_bytes()));
        assert!(c.at_end());
        for (root, digest) in [("geo.poin", "sha256:00"), ("geo.point", "sha256:0")] {
            assert_eq!(
                Cursor::new(&doc).envelope_prefix(root, digest),
                None,
                "{root} {digest}"
            );
        }
        // An id that must be escaped is matched in its quoted form.
        let odd = "a\"b\u{85}";
        let p = prefix(odd, "d");
        assert!(p.contains("\"root_type_id\":\"a\\\"b\\u0085\","));
        assert_eq!(Cursor::new(&p).envelope_prefix(odd, "d"), Some(()));
    }
}
