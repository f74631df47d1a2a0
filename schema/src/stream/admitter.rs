//! The streaming admitter (placeholder, written next).

use super::Event;
use crate::decode::Decoded;
use crate::diag::Diagnostic;
use crate::project::Dialect;
use crate::schema::Schema;

/// Admission of a provider's output as it arrives.
#[derive(Debug)]
pub struct StreamAdmitter<'s> {
    schema: &'s Schema,
    dialect: Dialect,
    bytes: Vec<u8>,
}

impl<'s> StreamAdmitter<'s> {
    /// A new admitter.
    pub fn new(schema: &'s Schema, dialect: Dialect) -> Self {
        StreamAdmitter { schema, dialect, bytes: Vec::new() }
    }
    /// Feeds.
    pub fn feed_with(&mut self, chunk: &[u8], _on: &mut impl FnMut(Event)) -> Result<(), Diagnostic> {
        self.bytes.extend_from_slice(chunk);
        Ok(())
    }
    /// Ends.
    pub fn finish(self) -> Result<Decoded, Diagnostic> {
        crate::admit::admit(self.schema, self.dialect, &self.bytes)
    }
}
