//! Reading `.spx` source (LANGUAGE.md): lexing ([`lex`](self)), parsing,
//! declaration checks. The accepted grammar and every diagnostic are listed
//! in `docs/SOURCE.md`.

mod check;
pub mod docs;
mod help;
mod lex;
pub mod manifest;
pub mod model;
mod parse;
mod text;
pub mod workspace;

pub use docs::Docs;
pub use text::BUILTIN_NAMES;

pub use model::*;

use crate::diag::Diagnostic;

/// The diagnostic codes the reader emits (see `docs/SOURCE.md`).
pub mod codes {
    use crate::diag::Code;

    /// `syntax.unexpected_character`: a character that starts no token.
    pub const UNEXPECTED_CHARACTER: Code = Code("SPX-P001");
    /// `syntax.unexpected_token`: the parser expected something else.
    pub const UNEXPECTED_TOKEN: Code = Code("SPX-P002");
    /// `syntax.unbalanced_delimiter`: `(`, `[`, `{` never closed or closed
    /// by the wrong delimiter while skipping an item.
    pub const UNBALANCED: Code = Code("SPX-P003");
    /// `syntax.unterminated_string` (semaprax SPX-P004).
    pub const UNTERMINATED_STRING: Code = Code("SPX-P004");
    /// `syntax.string_escape`: an escape other than `\n \r \t \" \\`
    /// (semaprax SPX-P005).
    pub const STRING_ESCAPE: Code = Code("SPX-P005");
    /// `syntax.char_literal`: an invalid or unterminated char literal.
    pub const CHAR_LITERAL: Code = Code("SPX-P006");
    /// `syntax.integer_range`: an integer literal that is not an `i64`.
    pub const INTEGER_RANGE: Code = Code("SPX-P007");
    /// `syntax.type_nesting`: a type expression nested too deeply.
    pub const NESTING: Code = Code("SPX-P008");
    /// `attribute.unknown`: an attribute other than `@id` (semaprax SPX-P102).
    pub const UNKNOWN_ATTRIBUTE: Code = Code("SPX-P102");
    /// `attribute.argument`: `@id` without exactly one string literal
    /// (semaprax SPX-P103).
    pub const ATTRIBUTE_ARGUMENT: Code = Code("SPX-P103");
    /// `attribute.duplicate`: two `@id` on one declaration.
    pub const DUPLICATE_ATTRIBUTE: Code = Code("SPX-P104");
    /// `decl.duplicate_id` / `decl.id_nul` (semaprax SPX-S102).
    pub const DUPLICATE_ID: Code = Code("SPX-S102");
    /// `decl.duplicate_name`: two types (or a type and a `use type` alias)
    /// with one name (semaprax SPX-S107).
    pub const DUPLICATE_NAME: Code = Code("SPX-S107");
    /// `decl.duplicate_member`: two fields, cases or type parameters with one
    /// name in one declaration.
    pub const DUPLICATE_MEMBER: Code = Code("SPX-S108");
    /// `decl.unknown_type`: a field names a type that does not exist.
    pub const UNKNOWN_TYPE: Code = Code("SPX-S110");
    /// `decl.builtin_arguments`: type arguments given to a builtin.
    pub const BUILTIN_ARGUMENTS: Code = Code("SPX-S111");
    /// `decl.type_arity`: the wrong number of type arguments.
    pub const TYPE_ARITY: Code = Code("SPX-S112");
    /// `decl.reserved_name`: a declaration named `Option`, `Result`, `Slice`
    /// or a builtin (semaprax SPX-S113 for `Option`/`Result`).
    pub const RESERVED_NAME: Code = Code("SPX-S113");
    /// `decl.copy_variant_payload` / `decl.empty_variant` (semaprax SPX-T215).
    pub const COPY_VARIANTS: Code = Code("SPX-T215");
    /// `decl.recursive_record` (semaprax SPX-T217).
    pub const RECURSIVE_RECORD: Code = Code("SPX-T217");
    /// `decl.generic_record_field` / `decl.generic_record_instance`
    /// (semaprax SPX-T223).
    pub const GENERIC_RECORD: Code = Code("SPX-T223");
    /// `decl.function_field` (semaprax SPX-T287).
    pub const FUNCTION_FIELD: Code = Code("SPX-T287");
    /// `identity.automatic`: a warning for every automatic identity.
    pub const AUTOMATIC_IDENTITY: Code = Code("SPX-W001");
    /// A note: `syntax.unknown_item` (an item the reader does not know was
    /// skipped by its delimiters) or `syntax.unknown_character` (a
    /// character the lexer does not know was skipped inside a skipped
    /// construct).
    pub const SKIPPED: Code = Code("SPX-N001");
    /// `project.unknown_module`: a `use type` names a module that is not in
    /// the project (refused when a derivation reaches it).
    pub const UNKNOWN_MODULE: Code = Code("SPX-J001");
    /// `project.unknown_id`: a `use type` names an id its module does not
    /// declare (refused when a derivation reaches it).
    pub const UNKNOWN_ID: Code = Code("SPX-J002");
    /// `project.duplicate_id`: two modules of a project declare one
    /// persistent stable id.
    pub const PROJECT_DUPLICATE_ID: Code = Code("SPX-J003");
    /// `project.duplicate_module`: two sources of a project declare one
    /// module.
    pub const DUPLICATE_MODULE: Code = Code("SPX-J004");
    /// `project.source_missing`: a source listed in the manifest does not
    /// exist.
    pub const SOURCE_MISSING: Code = Code("SPX-J005");
}

/// Reads and checks one module. `path` is used only in diagnostics, exactly
/// as given. On failure every error found is returned (at least one): the
/// first syntax error, or every declaration-check error. Warnings (automatic
/// identities) are in [`Module::warnings`].
pub fn read_module(path: &str, text: &str) -> Result<Module, Vec<Diagnostic>> {
    read_unexplained(path, text)
        .map_err(|ds| ds.into_iter().map(|d| help::explain(d, text)).collect())
}

fn read_unexplained(path: &str, text: &str) -> Result<Module, Vec<Diagnostic>> {
    let toks = lex::lex(path, text).map_err(|d| vec![d])?;
    let raw = parse::parse(path, &toks).map_err(|d| vec![d])?;
    let mut module = check::check(path, raw)?;
    module.docs = docs::read(text, &toks, &module);
    Ok(module)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIXTURES: [&str; 2] = [
        include_str!("../../../tests/fixtures/spx/agent_desk.spx"),
        include_str!("../../../tests/fixtures/spx/scalars.spx"),
    ];

    #[test]
    fn fixtures_read() {
        for f in FIXTURES {
            if let Err(e) = read_module("f.spx", f) {
                panic!("{e:#?}");
            }
        }
    }

    /// Every prefix (by character) of the fixtures, and some pseudo-random
    /// inputs, are read without a panic and with located diagnostics.
    #[test]
    fn no_panic_on_prefixes_and_noise() {
        let check = |s: &str| {
            if let Err(errs) = read_module("p.spx", s) {
                assert!(!errs.is_empty());
                for e in errs {
                    assert!(
                        matches!(e.location, crate::Location::Source { .. }),
                        "{e:?}"
                    );
                }
            }
        };
        for f in FIXTURES {
            for (i, _) in f.char_indices() {
                check(&f[..i]);
            }
        }
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let alphabet: Vec<char> =
            "module record variant class fn use @id(\"\\n\") {}[]<>,;:.-'\\ x y 1 2.5 // \u{85}é\n"
                .chars()
                .collect();
        for _ in 0..3000 {
            let mut s = String::from("module m;\n");
            for _ in 0..(x % 60) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                s.push(alphabet[(x % alphabet.len() as u64) as usize]);
            }
            check(&s);
            let bytes: Vec<u8> = (0..(x % 40)).map(|k| (x >> (k % 56)) as u8).collect();
            check(&String::from_utf8_lossy(&bytes));
        }
    }
}
