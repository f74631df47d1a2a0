//! Gemini `generationConfig.responseJsonSchema` (with `responseMimeType:
//! application/json`).
//!
//! Rewrites of the canonical projection: the root definition is inlined at
//! the root (no wrapper: Gemini accepts an `anyOf` root); `oneOf` → `anyOf`;
//! `const` → one-element `enum`; `$schema`, `$id`, `pattern`, `maxLength`
//! dropped; the `x-*` integer annotations rewritten into one `description`;
//! `maxItems`, `minimum`, `maximum` kept; every object schema with
//! `properties` gets `propertyOrdering` in declaration order right after it.

use super::{adapt, finish, KeyMap, Profile, Projection};
use crate::diag::Diagnostic;
use crate::schema::Schema;

const PROFILE: Profile = Profile {
    wrap_variant_root: false,
    drop: &["pattern", "maxLength"],
    const_to_enum: true,
    property_ordering: true,
    integer_pattern: None,
};

pub(super) fn project(schema: &Schema, keys: &KeyMap) -> Result<Projection, Diagnostic> {
    let (doc, losses) = adapt(schema, &PROFILE, keys)?;
    Ok(Projection {
        document: finish(&doc),
        losses,
        narrowings: Vec::new(),
        schema_name: None,
        renames: keys.renames().to_vec(),
    })
}
