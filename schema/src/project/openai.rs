//! OpenAI strict structured outputs (`response_format.json_schema` with
//! `strict: true`) and strict function calling (`parameters`).
//!
//! Rewrites of the canonical projection: the root definition is inlined at
//! the root (a variant root is wrapped as `{"value": …}` because the root
//! must be a `type: object` schema, not `anyOf`); `oneOf` → `anyOf`;
//! `$schema`, `$id`, `maxLength` dropped; the `x-*` integer annotations are
//! rewritten into one `description`; the integer `pattern` is written
//! exactly (`IntegerPattern::Exact`); `maxItems`, `minimum`, `maximum` are
//! kept. Every object is already closed with every property
//! required, and every `$ref` stands alone — both are checked.
//!
//! OpenAI's documented limits are checked on the emitted document and a
//! schema over one is refused with SPX-Z207 (see `docs/PROVIDERS.md`).

use super::{
    adapt, finish, internal, ref_to, IntegerPattern, KeyMap, KeyRule, Profile, Projection, Z207,
};
use crate::diag::Diagnostic;
use crate::json::Json;
use crate::schema::Schema;
use std::collections::HashMap;

/// At most this many object properties in total.
pub const MAX_PROPERTIES: usize = 5000;
/// At most this many nested object levels (the root object is level 1).
pub const MAX_NESTING: usize = 10;
/// At most this many characters of property names, definition names and
/// enum/const string values in total.
pub const MAX_STRING_LENGTH: usize = 120_000;
/// At most this many enum values (each `const` counts as one) in total.
pub const MAX_ENUM_VALUES: usize = 1000;

const PROFILE: Profile = Profile {
    wrap_variant_root: true,
    drop: &["maxLength"],
    const_to_enum: false,
    property_ordering: false,
    integer_pattern: Some(IntegerPattern::Exact),
};

/// The schema (or tool) name derived from a root stable id, matching
/// `^[a-zA-Z0-9_-]{1,64}$`.
///
/// An id that already matches is used as is. Otherwise every character
/// outside `[a-zA-Z0-9_-]` becomes `_`, the result is cut to 51 bytes, and
/// `-` plus the first 12 hex digits of SHA-256(id) is appended, so two ids
/// that sanitize alike still get different names.
///
/// ```
/// use spx_schema::project::schema_name;
/// assert_eq!(schema_name("planner_v2"), "planner_v2");
/// assert_eq!(schema_name("geo.point").len(), "geo_point".len() + 13);
/// assert!(schema_name("geo.point").starts_with("geo_point-"));
/// assert_ne!(schema_name("geo.point"), schema_name("geo_point"));
/// ```
pub fn schema_name(root_id: &str) -> String {
    KeyRule::NAME.safe(root_id)
}

pub(super) fn project(schema: &Schema, keys: &KeyMap) -> Result<Projection, Diagnostic> {
    let (doc, losses) = adapt(schema, &PROFILE, keys)?;
    check_strict(&doc)?;
    check_limits(&doc)?;
    Ok(Projection {
        document: finish(&doc),
        losses,
        narrowings: Vec::new(),
        schema_name: Some(schema_name(schema.root_type_id())),
        renames: keys.renames().to_vec(),
    })
}

/// Calls `f` on every schema object below `node` (not `node` itself), with
/// the child's position: `properties` values, `items`, `anyOf` items,
/// `$defs` values.
pub(crate) fn children(node: &Json, mut f: impl FnMut(&Json)) {
    let Json::Object(members) = node else { return };
    for (k, v) in members {
        match (k.as_str(), v) {
            ("properties" | "$defs", Json::Object(m)) => m.iter().for_each(|(_, s)| f(s)),
            ("anyOf" | "oneOf", Json::Array(a)) => a.iter().for_each(&mut f),
            ("items", s) => f(s),
            _ => {}
        }
    }
}

fn visit(
    node: &Json,
    f: &mut dyn FnMut(&Json) -> Result<(), Diagnostic>,
) -> Result<(), Diagnostic> {
    f(node)?;
    let mut result = Ok(());
    children(node, |c| {
        if result.is_ok() {
            result = visit(c, f);
        }
    });
    result
}

/// Every object closed with every property required; every `$ref` alone;
/// root an object schema; no `oneOf`.
fn check_strict(doc: &Json) -> Result<(), Diagnostic> {
    if doc.get("type") != Some(&Json::String("object".into())) {
        return Err(internal("openai root is not an object schema"));
    }
    visit(doc, &mut |node| {
        let Json::Object(m) = node else {
            return Err(internal("openai schema is not an object"));
        };
        if m.iter().any(|(k, _)| k == "oneOf") {
            return Err(internal("openai schema has oneOf"));
        }
        if node.get("$ref").is_some() && m.len() != 1 {
            return Err(internal("openai $ref has siblings"));
        }
        if node.get("type") == Some(&Json::String("object".into())) {
            if node.get("additionalProperties") != Some(&Json::Bool(false)) {
                return Err(internal("openai object not closed"));
            }
            let names: Vec<&str> = match node.get("properties") {
                Some(Json::Object(p)) => p.iter().map(|(k, _)| k.as_str()).collect(),
                _ => Vec::new(),
            };
            let required: Vec<&str> = match node.get("required") {
                Some(Json::Array(r)) => r
                    .iter()
                    .filter_map(|v| match v {
                        Json::String(s) => Some(s.as_str()),
                        _ => None,
                    })
                    .collect(),
                _ => Vec::new(),
            };
            if names != required {
                return Err(internal("openai object property not required"));
            }
        }
        Ok(())
    })
}

/// Totals over the emitted document, as written (a `$defs` entry counts
/// once however often it is referenced), except nesting, which follows
/// `$ref`.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Totals {
    pub(crate) properties: usize,
    pub(crate) string_length: usize,
    pub(crate) enum_values: usize,
    pub(crate) nesting: usize,
}

pub(crate) fn totals(doc: &Json) -> Totals {
    let mut t = Totals::default();
    let mut refs: HashMap<String, &Json> = HashMap::new();
    if let Some(Json::Object(defs)) = doc.get("$defs") {
        for (name, d) in defs {
            t.string_length += name.chars().count();
            refs.insert(ref_to(name), d);
        }
    }
    let _ = visit(doc, &mut |node| {
        if let Some(Json::Object(p)) = node.get("properties") {
            t.properties += p.len();
            t.string_length += p.iter().map(|(k, _)| k.chars().count()).sum::<usize>();
        }
        if let Some(Json::Array(e)) = node.get("enum") {
            t.enum_values += e.len();
            for v in e {
                if let Json::String(s) = v {
                    t.string_length += s.chars().count();
                }
            }
        }
        if let Some(c) = node.get("const") {
            t.enum_values += 1;
            if let Json::String(s) = c {
                t.string_length += s.chars().count();
            }
        }
        Ok(())
    });
    let mut memo: HashMap<*const Json, usize> = HashMap::new();
    t.nesting = depth(doc, &refs, &mut memo, 0);
    t
}

/// Object levels on the deepest path below `node`, following `$ref`.
fn depth(
    node: &Json,
    refs: &HashMap<String, &Json>,
    memo: &mut HashMap<*const Json, usize>,
    guard: usize,
) -> usize {
    if guard > 4096 {
        return usize::MAX / 2;
    }
    let key = node as *const Json;
    if let Some(&d) = memo.get(&key) {
        return d;
    }
    let own = usize::from(node.get("type") == Some(&Json::String("object".into())));
    let mut below = 0;
    if let Some(Json::String(r)) = node.get("$ref") {
        if let Some(target) = refs.get(r) {
            below = depth(target, refs, memo, guard + 1);
        }
    }
    let mut kids = Vec::new();
    let Json::Object(members) = node else {
        return own;
    };
    for (k, v) in members {
        match (k.as_str(), v) {
            ("properties", Json::Object(m)) => kids.extend(m.iter().map(|(_, s)| s)),
            ("anyOf" | "oneOf", Json::Array(a)) => kids.extend(a.iter()),
            ("items", s) => kids.push(s),
            _ => {}
        }
    }
    for kid in kids {
        below = below.max(depth(kid, refs, memo, guard + 1));
    }
    let d = own.saturating_add(below);
    memo.insert(key, d);
    d
}

pub(crate) fn check_limits(doc: &Json) -> Result<(), Diagnostic> {
    let t = totals(doc);
    let refuse = |rule: &'static str, detail: String| {
        Err(Diagnostic::error(
            Z207,
            rule,
            format!("the OpenAI projection exceeds a documented OpenAI structured-outputs limit: {rule}"),
        )
        .at_pointer("")
        .with_detail(detail))
    };
    if t.nesting > MAX_NESTING {
        return refuse(
            "openai.max_nesting",
            format!(
                "{} nested object levels (the root object is level 1, $ref followed); OpenAI allows at most {MAX_NESTING}",
                t.nesting
            ),
        );
    }
    if t.properties > MAX_PROPERTIES {
        return refuse(
            "openai.max_properties",
            format!(
                "{} object properties in total (each $defs entry counted once); OpenAI allows at most {MAX_PROPERTIES}",
                t.properties
            ),
        );
    }
    if t.string_length > MAX_STRING_LENGTH {
        return refuse(
            "openai.max_string_length",
            format!(
                "{} characters of property names, definition names and enum/const values in total; OpenAI allows at most {MAX_STRING_LENGTH}",
                t.string_length
            ),
        );
    }
    if t.enum_values > MAX_ENUM_VALUES {
        return refuse(
            "openai.max_enum_values",
            format!(
                "{} enum values in total (each const counts as one); OpenAI allows at most {MAX_ENUM_VALUES}",
                t.enum_values
            ),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::OWN_DOCUMENTS as READING;

    fn j(t: &str) -> Json {
        Json::read(t, &READING).unwrap()
    }

    #[test]
    fn totals_follow_refs_for_nesting_only() {
        let doc = j(
            r##"{"type":"object","additionalProperties":false,"required":["fields"],"properties":{"fields":{"type":"object","properties":{"a":{"$ref":"#/$defs/t"},"b":{"$ref":"#/$defs/t"}}}},"$defs":{"t":{"anyOf":[{"type":"object","properties":{"case":{"const":"xy"},"fields":{"type":"object","properties":{}}}}]}}}"##,
        );
        let t = totals(&doc);
        assert_eq!(
            t,
            Totals {
                properties: 1 + 2 + 2,
                string_length: "t".len() + "fields".len() + 2 + "case".len() + "fields".len() + 2,
                enum_values: 1,
                nesting: 4,
            }
        );
    }

    #[test]
    fn each_limit_refuses_with_its_rule() {
        let many = |n: usize, body: &str| {
            let props: Vec<String> = (0..n).map(|i| format!("\"p{i}\":{body}")).collect();
            j(&format!(
                "{{\"type\":\"object\",\"properties\":{{{}}}}}",
                props.join(",")
            ))
        };
        assert!(check_limits(&many(5000, "{}")).is_ok());
        assert_eq!(
            check_limits(&many(5001, "{}")).unwrap_err().rule,
            "openai.max_properties"
        );
        assert_eq!(
            check_limits(&many(1001, "{\"const\":\"c\"}"))
                .unwrap_err()
                .rule,
            "openai.max_enum_values"
        );
        assert!(check_limits(&many(1000, "{\"const\":\"c\"}")).is_ok());
        let long = format!("{{\"const\":\"{}\"}}", "x".repeat(60_000));
        let e = check_limits(&many(2, &long)).unwrap_err();
        assert_eq!((e.code, e.rule), (Z207, "openai.max_string_length"));
        let mut nested = String::from("{\"type\":\"object\"}");
        for _ in 0..9 {
            nested = format!("{{\"type\":\"object\",\"properties\":{{\"a\":{nested}}}}}");
        }
        assert!(check_limits(&j(&nested)).is_ok());
        nested = format!("{{\"type\":\"object\",\"properties\":{{\"a\":{nested}}}}}");
        assert_eq!(
            check_limits(&j(&nested)).unwrap_err().rule,
            "openai.max_nesting"
        );
    }
}
