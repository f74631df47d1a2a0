//! Admission of raw provider output: the tolerant front door for a value
//! that a model produced against one of the [`crate::project`] dialects.
//!
//! The decoder ([`crate::decode`]) admits only the exact canonical value
//! document. A provider returns just the value (`{"fields":…}` or
//! `{"case":…,"fields":…}`, wrapped as `{"value": …}` where the dialect
//! wraps a variant root), pretty-printed, with any escapes and any key
//! order. [`admit`] reads any RFC 8259 JSON text with the engine's one
//! JSON reader, refuses duplicate keys explicitly, applies every SPX-Z206 value rule of the decoder unchanged
//! (same codes and rules, the same shared leaf functions of
//! [`crate::scalar`]), and returns the value together with its canonical
//! document, which the strict decoder admits byte for byte.
//!
//! Order of checks: size (Z206 `document_bytes`), UTF-8 (Z206 `utf8`),
//! JSON syntax (Z205 `json.syntax`), duplicate keys (Z205 `duplicate_key`),
//! container nesting over 36 (Z206 `value.max_depth`), the dialect wrapper
//! (Z205 `value.shape`), then the value walk of FORMAT.md §7 (shape errors
//! Z205 `value.shape`, the Z206 rules as the decoder names them). Every
//! diagnostic carries the JSON Pointer of the place in the provider's text
//! and a `detail` that says, in words fit to send back to a model, what was
//! expected and what was found.

use crate::decode::Decoded;
use crate::diag::Diagnostic;
use crate::graph::{limits, Field, FieldType, Repr, TypeKind};
use crate::json::{self, Bom, Duplicates, ErrorKind, Json, Numbers, ReadError};
use crate::project::Dialect;
use crate::quote::{push_pointer_token, quote};
use crate::scalar::{parse_integer, Int};
use crate::schema::Schema;
use crate::value::Value;

/// Rule of a text that is not RFC 8259 JSON (SPX-Z205).
pub const RULE_SYNTAX: &str = "json.syntax";
/// Rule of a key repeated in one object (SPX-Z205).
pub const RULE_DUPLICATE_KEY: &str = "duplicate_key";
/// Rule of a value of the wrong JSON shape where the decoder says Z205
/// (not an object, wrong key set, `case` not a string, `fields` not an
/// object, missing wrapper).
pub const RULE_SHAPE: &str = "value.shape";

/// The deepest container nesting any valid value can have: the wrapper,
/// two objects per type level for 17 levels (root depth 0 to 16), and a
/// Bytes array.
pub const MAX_JSON_NESTING: usize = 1 + 2 * (limits::MAX_DEPTH + 1) + 1;

/// How admission reads: duplicates refused, nesting bounded by what a valid
/// value can need, a leading U+FEFF skipped (RFC 8259 §8.1), every number
/// RFC 8259 allows.
const READING: json::Options = json::Options {
    duplicates: Duplicates::Refuse,
    max_nesting: MAX_JSON_NESTING,
    bom: Bom::Skip,
    numbers: Numbers::Any,
};

/// Admits `bytes`, a value produced by a model against `dialect`'s
/// projection of `schema`, and returns it with its canonical value
/// document.
pub fn admit(schema: &Schema, dialect: Dialect, bytes: &[u8]) -> Result<Decoded, Diagnostic> {
    if bytes.len() > limits::MAX_DOCUMENT_BYTES {
        return Err(Diagnostic::z206("document_bytes")
            .at_pointer("")
            .with_detail(format!(
                "the response is {} bytes long; at most {} bytes are admitted",
                bytes.len(),
                limits::MAX_DOCUMENT_BYTES
            )));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        Diagnostic::z206("utf8").at_pointer("").with_detail(format!(
            "the response is not UTF-8: invalid byte sequence at byte {}",
            e.valid_up_to()
        ))
    })?;
    let json = Json::read(text, &READING).map_err(|e| refusal(text, e))?;
    let mut walk = Walk {
        schema,
        ptr: String::new(),
    };
    let root = schema.graph().root_index();
    let inner = if dialect.wraps_root(schema) {
        let Json::Object(members) = &json else {
            return Err(Diagnostic::z205(RULE_SHAPE)
                .at_pointer("")
                .with_detail(format!(
                    "(root): expected an object {{\"value\": …}} holding {}, got {}",
                    walk.expect_type(root),
                    json.describe()
                )));
        };
        walk.exact_keys(members, &["value"], &json)?;
        walk.ptr.push_str("/value");
        json.get("value").unwrap_or(&Json::Null)
    } else {
        &json
    };
    let value = walk.value(root, inner, 0)?;
    let canonical = crate::encode::encode(schema, &value)?;
    Ok(Decoded { value, canonical })
}

/// A refusal of the reader, located and worded for the model.
fn refusal(text: &str, e: ReadError) -> Diagnostic {
    let shown = show(&e.pointer).to_string();
    let detail = match &e.kind {
        ErrorKind::DuplicateKey(key) => format!(
            "{shown}: the key {} occurs more than once in the same object; write each key exactly once",
            quote(key)
        ),
        ErrorKind::Depth(max) => format!(
            "{shown}: objects and arrays nest deeper than {max} levels, deeper than any value of this schema"
        ),
        ErrorKind::Syntax { .. } | ErrorKind::NumberRange => {
            let (line, column) = e.line_column(text);
            format!(
                "{shown}: not valid JSON at line {line}, column {column} (byte {}): {}",
                e.offset,
                e.reason()
            )
        }
    };
    let d = match e.kind {
        ErrorKind::DuplicateKey(_) => Diagnostic::z205(RULE_DUPLICATE_KEY),
        ErrorKind::Depth(_) => Diagnostic::z206("value.max_depth"),
        ErrorKind::Syntax { .. } | ErrorKind::NumberRange => Diagnostic::z205(RULE_SYNTAX),
    };
    d.at_pointer(e.pointer).with_detail(detail)
}

/// A pointer as shown at the start of a detail.
fn show(pointer: &str) -> &str {
    if pointer.is_empty() {
        "(root)"
    } else {
        pointer
    }
}

fn list(ids: impl Iterator<Item = String>) -> String {
    let all: Vec<String> = ids.collect();
    let n = all.len();
    let mut shown: Vec<String> = all.into_iter().take(20).map(|s| quote(&s)).collect();
    if n > 20 {
        shown.push(format!("… ({n} in all)"));
    }
    shown.join(", ")
}

struct Walk<'a> {
    schema: &'a Schema,
    ptr: String,
}

impl Walk<'_> {
    fn fail(&self, d: Diagnostic, expected: &str, got: &Json) -> Diagnostic {
        let detail = format!(
            "{}: expected {expected}, got {}",
            show(&self.ptr),
            got.describe()
        );
        d.at_pointer(self.ptr.clone()).with_detail(detail)
    }

    fn expect_type(&self, index: usize) -> String {
        match self.schema.graph().types.get(index).map(|t| &t.kind) {
            Some(TypeKind::Record { .. }) => "an object {\"fields\": {…}}".to_string(),
            Some(TypeKind::Variant { cases }) => format!(
                "an object {{\"case\": …, \"fields\": {{…}}}} whose case is one of {}",
                list(cases.iter().map(|c| c.stable_id.clone()))
            ),
            None => "a value".to_string(),
        }
    }

    fn expect_field(&self, ty: FieldType) -> String {
        match ty {
            FieldType::Nested(i) => self.expect_type(i),
            FieldType::Scalar(repr) => expect_leaf(repr),
        }
    }

    fn value(&mut self, index: usize, json: &Json, depth: usize) -> Result<Value, Diagnostic> {
        let expected = self.expect_type(index);
        if depth > limits::MAX_DEPTH {
            return Err(self.fail(Diagnostic::z206("value.max_depth"), &expected, json));
        }
        let Some(node) = self.schema.graph().types.get(index) else {
            return Err(self.fail(Diagnostic::z206("value.max_depth"), &expected, json));
        };
        let Json::Object(members) = json else {
            return Err(self.fail(Diagnostic::z205(RULE_SHAPE), &expected, json));
        };
        match &node.kind {
            TypeKind::Record { fields } => {
                self.exact_keys(members, &["fields"], json)?;
                let fields_json = json.get("fields").unwrap_or(&Json::Null);
                Ok(Value::Record(self.fields(fields, fields_json, depth)?))
            }
            TypeKind::Variant { cases } => {
                self.exact_keys(members, &["case", "fields"], json)?;
                let len = self.ptr.len();
                self.ptr.push_str("/case");
                let case_json = json.get("case").unwrap_or(&Json::Null);
                let names = || list(cases.iter().map(|c| c.stable_id.clone()));
                let Json::String(case_id) = case_json else {
                    return Err(self.fail(
                        Diagnostic::z205(RULE_SHAPE),
                        &format!("a string, one of {}", names()),
                        case_json,
                    ));
                };
                let Some(case) = cases.iter().find(|c| &c.stable_id == case_id) else {
                    return Err(self.fail(
                        Diagnostic::z206("value.case"),
                        &format!("one of {}", names()),
                        case_json,
                    ));
                };
                self.ptr.truncate(len);
                let fields_json = json.get("fields").unwrap_or(&Json::Null);
                let fields = self.fields(&case.fields, fields_json, depth)?;
                Ok(Value::Variant {
                    case: case.stable_id.clone(),
                    fields,
                })
            }
        }
    }

    /// The decoder's key-set rule: the first key (in document order) that is
    /// not expected is refused at its own pointer, then the first expected
    /// key that is absent, at the pointer where it belongs.
    fn exact_keys(
        &self,
        members: &[(String, Json)],
        keys: &[&str],
        json: &Json,
    ) -> Result<(), Diagnostic> {
        let words = list(keys.iter().map(|k| k.to_string()));
        let exactly = if keys.len() == 1 {
            format!("an object with exactly the key {words}")
        } else {
            format!("an object with exactly the keys {words}")
        };
        let at = |key: &str| {
            let mut p = self.ptr.clone();
            push_pointer_token(&mut p, key);
            p
        };
        if let Some((k, _)) = members.iter().find(|(k, _)| !keys.contains(&k.as_str())) {
            let p = at(k);
            return Err(Diagnostic::z205(RULE_SHAPE)
                .at_pointer(p.clone())
                .with_detail(format!(
                    "{}: unexpected key {}; expected {exactly}, got {}",
                    show(&p),
                    quote(k),
                    json.describe()
                )));
        }
        if let Some(k) = keys.iter().find(|k| json.get(k).is_none()) {
            let p = at(k);
            return Err(Diagnostic::z205(RULE_SHAPE)
                .at_pointer(p.clone())
                .with_detail(format!(
                    "{}: missing key {}; expected {exactly}, got {}",
                    show(&p),
                    quote(k),
                    json.describe()
                )));
        }
        Ok(())
    }

    fn fields(
        &mut self,
        decl: &[Field],
        json: &Json,
        depth: usize,
    ) -> Result<Vec<(String, Value)>, Diagnostic> {
        let len = self.ptr.len();
        self.ptr.push_str("/fields");
        let names = || list(decl.iter().map(|f| f.stable_id.clone()));
        let Json::Object(members) = json else {
            let expected = if decl.is_empty() {
                "an object (here always the empty object {})".to_string()
            } else {
                format!("an object with the fields {}", names())
            };
            return Err(self.fail(Diagnostic::z205(RULE_SHAPE), &expected, json));
        };
        if let Some((key, v)) = members
            .iter()
            .find(|(k, _)| !decl.iter().any(|f| &f.stable_id == k))
        {
            push_pointer_token(&mut self.ptr, key);
            let expected = if decl.is_empty() {
                "no field at all".to_string()
            } else {
                format!("only the fields {}", names())
            };
            let d = Diagnostic::z206("value.fields.unknown");
            let detail = format!(
                "{}: unknown field {}; expected {expected}, got {} under it",
                show(&self.ptr),
                quote(key),
                v.describe()
            );
            return Err(d.at_pointer(self.ptr.clone()).with_detail(detail));
        }
        let mut out = Vec::with_capacity(decl.len());
        for f in decl {
            let flen = self.ptr.len();
            push_pointer_token(&mut self.ptr, &f.stable_id);
            let Some((_, v)) = members.iter().find(|(k, _)| k == &f.stable_id) else {
                let detail = format!(
                    "{}: the field is missing; expected {}",
                    show(&self.ptr),
                    self.expect_field(f.ty)
                );
                return Err(Diagnostic::z206("value.fields.missing")
                    .at_pointer(self.ptr.clone())
                    .with_detail(detail));
            };
            let value = match f.ty {
                FieldType::Nested(i) => self.value(i, v, depth + 1)?,
                FieldType::Scalar(repr) => self.leaf(repr, v)?,
            };
            out.push((f.stable_id.clone(), value));
            self.ptr.truncate(flen);
        }
        self.ptr.truncate(len);
        Ok(out)
    }

    fn leaf(&mut self, repr: Repr, json: &Json) -> Result<Value, Diagnostic> {
        let expected = expect_leaf(repr);
        let representation =
            |w: &Self| w.fail(Diagnostic::z206("value.representation"), &expected, json);
        match repr {
            Repr::Bool => match json {
                Json::Bool(b) => Ok(Value::Bool(*b)),
                _ => Err(representation(self)),
            },
            Repr::String => match json {
                Json::String(s) if s.len() <= limits::MAX_STRING_BYTES => {
                    Ok(Value::String(s.clone()))
                }
                Json::String(_) => {
                    Err(self.fail(Diagnostic::z206("value.string_bytes"), &expected, json))
                }
                _ => Err(representation(self)),
            },
            Repr::Bytes => {
                let Json::Array(items) = json else {
                    return Err(representation(self));
                };
                if items.len() > limits::MAX_BYTES_LEN {
                    return Err(self.fail(Diagnostic::z206("value.bytes_length"), &expected, json));
                }
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    let byte = match item {
                        Json::Number(t) if t.bytes().all(|b| b.is_ascii_digit()) => {
                            t.parse::<u8>().ok()
                        }
                        _ => None,
                    };
                    match byte {
                        Some(b) => out.push(b),
                        None => {
                            self.ptr.push_str(&format!("/{i}"));
                            return Err(self.fail(
                                Diagnostic::z206("value.bytes_element"),
                                "an integer from 0 to 255 written with digits only (no sign, fraction or exponent)",
                                item,
                            ));
                        }
                    }
                }
                Ok(Value::Bytes(out))
            }
            Repr::I32 | Repr::I64 | Repr::U8 | Repr::U64 => {
                let Json::String(s) = json else {
                    return Err(representation(self));
                };
                match parse_integer(repr, s.as_bytes()) {
                    Ok(Int::Signed(v)) => Ok(Value::I64(v)),
                    Ok(Int::Unsigned(v)) => Ok(Value::U64(v)),
                    Err("value.integer") => Err(self.fail(
                        Diagnostic::z206("value.integer"),
                        &format!(
                            "{expected} (digits with an optional leading \"-\", no \"+\", no leading zeros, not \"-0\")"
                        ),
                        json,
                    )),
                    Err(rule) => Err(self.fail(Diagnostic::z206(rule), &expected, json)),
                }
            }
        }
    }
}

fn expect_leaf(repr: Repr) -> String {
    match repr {
        Repr::Bool => "true or false".to_string(),
        Repr::String => format!(
            "a string of at most {} UTF-8 bytes",
            limits::MAX_STRING_BYTES
        ),
        Repr::Bytes => format!(
            "an array of at most {} integers from 0 to 255",
            limits::MAX_BYTES_LEN
        ),
        _ => {
            let (min, max) = repr.bounds().unwrap_or(("", ""));
            format!("a decimal string integer between {min} and {max}")
        }
    }
}
