//! Anthropic tool `input_schema` (with or without `strict: true`) and
//! structured outputs (`output_config.format`).
//!
//! Rewrites of the canonical projection: the root definition is inlined at
//! the root (a variant root wrapped as `{"value": …}`, since a tool input
//! must be a `type: object` schema); `oneOf` → `anyOf`; `$schema`, `$id`,
//! `minimum`, `maximum`, `maxLength`, `maxItems` dropped (Anthropic's strict
//! mode documents no numeric or length constraints); the `x-*` integer
//! annotations rewritten into one `description`; the integer `pattern`
//! written with a digit-count bound (`IntegerPattern::Digits`).

use super::{adapt, finish, schema_name, IntegerPattern, KeyMap, Profile, Projection};
use crate::diag::Diagnostic;
use crate::schema::Schema;

const PROFILE: Profile = Profile {
    wrap_variant_root: true,
    drop: &["minimum", "maximum", "maxLength", "maxItems"],
    const_to_enum: false,
    property_ordering: false,
    integer_pattern: Some(IntegerPattern::Digits),
};

pub(super) fn project(schema: &Schema, keys: &KeyMap) -> Result<Projection, Diagnostic> {
    let (doc, losses) = adapt(schema, &PROFILE, keys)?;
    Ok(Projection {
        document: finish(&doc),
        losses,
        narrowings: Vec::new(),
        schema_name: Some(schema_name(schema.root_type_id())),
        renames: keys.renames().to_vec(),
    })
}
