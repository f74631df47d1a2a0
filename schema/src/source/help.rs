//! What to do about each refusal of the reader: a `help:` for the syntax
//! and declaration diagnostics that do not carry one already, chosen from
//! the code, the rule and the text under the span (`enum` where an item
//! starts, `;` where a comma goes). The reader only decides; this module,
//! run once over its diagnostics, says what to write instead.

use super::codes;
use crate::diag::{Diagnostic, Location};

/// The text under `d`'s span in `text`, if any.
fn found<'t>(d: &Diagnostic, text: &'t str) -> &'t str {
    match &d.location {
        Location::Source { span: Some(s), .. } => text.get(s.start..s.end).unwrap_or(""),
        _ => "",
    }
}

/// The next non-blank character after `d`'s span.
fn next_char(d: &Diagnostic, text: &str) -> Option<char> {
    match &d.location {
        Location::Source { span: Some(s), .. } => {
            text.get(s.end..)?.chars().find(|c| !c.is_whitespace())
        }
        _ => None,
    }
}

/// `d` with a help, when the reader left it without one.
pub(super) fn explain(mut d: Diagnostic, text: &str) -> Diagnostic {
    let found_text = found(&d, text);
    // A missing comma already says where the comma goes; say more when the
    // text there shows why it is missing.
    if d.rule == "syntax.unexpected_token" && d.message.starts_with("expected `,` after the") {
        match next_char(&d, text) {
            Some(';') => d.help = Some("write `,` instead of `;`: a field and a case end with a comma".to_owned()),
            Some('(') if d.message.contains("after the case") => {
                d.help = Some(
                    "a case carries its fields in braces, each with an `@id`, like a record: `Case { @id(\"…\") value: i64, },`".to_owned(),
                )
            }
            _ => {}
        }
        return d;
    }
    if d.help.is_some() {
        return d;
    }
    let help = match (d.code, d.rule) {
        (codes::UNEXPECTED_TOKEN, _) if d.message.starts_with("expected `module a.b.c;` first") => {
            "a `.spx` file starts with its module path, for example `module shop;`".to_owned()
        }
        // (An item that is not one of `.spx`'s, `enum` or `struct` among
        // them, is skipped with a note that says what to write instead.)
        (codes::UNEXPECTED_TOKEN, _) if d.message.starts_with("expected an item") => {
            "a type declaration is `@id(\"…\")` followed by `record Name { … }` or `variant Name { … }`".to_owned()
        }
        (codes::UNEXPECTED_TOKEN, _) => match d
            .message
            .strip_prefix("expected ")
            .and_then(|m| m.rsplit_once(", found "))
        {
            Some((expected, _)) => format!("write {expected} here"),
            None => return d,
        },
        (codes::UNEXPECTED_CHARACTER, _) if found_text == "#" => {
            "`.spx` has no `#[…]` attributes: the only attribute is `@id(\"…\")`".to_owned()
        }
        (codes::UNEXPECTED_CHARACTER, _) => "remove this character (comments start with `//`)".to_owned(),
        (codes::UNTERMINATED_STRING, _) => "close the string with `\"` on the same line".to_owned(),
        (codes::STRING_ESCAPE, _) => {
            "write the character itself, or one of the escapes the message lists".to_owned()
        }
        (codes::CHAR_LITERAL, _) => "a char literal is one character between `'`, such as `'a'` or `'\\n'`".to_owned(),
        (codes::INTEGER_RANGE, _) => {
            "write an integer from -9223372036854775808 to 9223372036854775807".to_owned()
        }
        (codes::NESTING, _) => "nest type expressions less deeply".to_owned(),
        (codes::UNBALANCED, _) => "close every `(`, `[` and `{` with its own `)`, `]` or `}`".to_owned(),
        (codes::UNKNOWN_ATTRIBUTE, _) => "the only attribute is `@id(\"…\")`: remove this one".to_owned(),
        (codes::ATTRIBUTE_ARGUMENT, _) => "write the id as one string literal: `@id(\"shop.order\")`".to_owned(),
        (codes::DUPLICATE_ATTRIBUTE, _) => "keep one `@id(\"…\")`: an identity is given once".to_owned(),
        (codes::DUPLICATE_ID, "decl.id_nul") => "remove the NUL character from the id".to_owned(),
        (codes::DUPLICATE_ID, _) => {
            "give each type, field and case its own `@id`: a stable id names exactly one declaration".to_owned()
        }
        (codes::DUPLICATE_NAME, _) => "rename one of the two types".to_owned(),
        (codes::DUPLICATE_MEMBER, _) => "rename or remove one of the two".to_owned(),
        (codes::BUILTIN_ARGUMENTS, _) => "remove the type arguments: a builtin takes none".to_owned(),
        (codes::TYPE_ARITY, _) => "give the type exactly as many type arguments as it declares".to_owned(),
        (codes::RESERVED_NAME, _) => "choose another name: this one is a builtin or prelude type".to_owned(),
        (codes::RECURSIVE_RECORD, _) => {
            "break the cycle: a record cannot contain itself by value; store a stable reference (an id as `string` or `i64`) instead".to_owned()
        }
        (codes::GENERIC_RECORD, "decl.generic_record_instance") => {
            "declare a record with the concrete field types instead of instantiating a generic one".to_owned()
        }
        (codes::GENERIC_RECORD, _) => {
            "give the field the type `i64`, `bool` or a type parameter of the record".to_owned()
        }
        (codes::FUNCTION_FIELD, _) => "remove the field: a value cannot carry a function".to_owned(),
        (codes::COPY_VARIANTS, "decl.empty_variant") => {
            "add at least one case, each with an `@id`".to_owned()
        }
        _ => return d,
    };
    d.with_help(help)
}

/// What to write instead of a type name that comes from another language
/// (`u64`, `Vec`, `HashMap`, `float`), when it is one.
pub(super) fn foreign_type(name: &str) -> Option<String> {
    const CARRIED: &str = "a schema's integers are `i32`, `i64`, `u8` and `usize`";
    Some(match name {
        "u64" | "uint64" => "write `usize`: it is carried as the representation `u64` (0 to 18446744073709551615)".to_owned(),
        "u16" | "u32" | "i8" | "i16" | "uint" | "int" | "integer" | "long" | "short" | "i128" | "u128" | "isize" => {
            format!("write `i64` (or the integer type whose range you need): {CARRIED}")
        }
        "float" | "double" | "f16" | "f128" | "decimal" | "number" | "Float" | "Double" | "Decimal" => {
            "a schema carries no floating point (every value must round-trip exactly): use an exact integer such as `i64` in fixed point, or a `string`".to_owned()
        }
        "Array" | "array" | "list" | "Set" | "HashSet" | "BTreeSet" => {
            "a schema carries no lists: use `Bytes` for bytes, or a record with one field per element".to_owned()
        }
        "HashMap" | "BTreeMap" | "Map" | "map" | "Dict" | "dict" | "object" | "Object" => {
            "a schema carries no maps: use a record with one field per key".to_owned()
        }
        "Box" | "Rc" | "Arc" | "Ref" => "a schema carries values, not pointers: name the type itself".to_owned(),
        _ => return None,
    })
}
