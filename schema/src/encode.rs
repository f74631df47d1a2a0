//! Canonical encoding of values (FORMAT.md §6).

use crate::diag::Diagnostic;
use crate::schema::Schema;
use crate::value::Value;

/// Encodes `value` as the canonical value document of `schema`, LF included.
pub fn encode(schema: &Schema, value: &Value) -> Result<String, Diagnostic> {
    let _ = (schema, value);
    Err(Diagnostic::z206("todo"))
}
