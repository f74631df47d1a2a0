//! # spx-gen — Rust code generation for `spx_interaction!`
//!
//! A plain library on `proc_macro2` (as `typify-impl` and
//! `sqlx-macros-core` are): the proc-macro crate `spx-macros` parses its
//! input and calls [`expand`]; benchmarks and golden tests call it directly.
//! The engine, `spx-schema`, knows nothing of syn.
//!
//! Pipeline, one module per stage (as in thiserror-impl):
//!
//! | stage | module |
//! |---|---|
//! | parse the macro's arguments | [`input`] |
//! | read the `.spx` once, derive every root, check the pins | [`load`] |
//! | Rust names from display names | `names` |
//! | expand to items | [`emit`] |
//!
//! The proc-macro crate only parses its input into a [`MacroInput`] and
//! calls [`expand`]. Every mistake becomes a `compile_error!` on the macro
//! argument it concerns; a span cannot point into a `.spx` file, so the text
//! is the diagnostic rendered with its `.spx` line and carets
//! (`--> path:line:col`, the path as the user wrote it).

#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod consumer;
pub mod emit;
pub mod input;
pub mod load;
pub mod names;
pub mod python;
pub mod typescript;

pub use emit::{generate, private_module_name, NameError, RootExtras};
pub use input::{MacroInput, RootArg};

use proc_macro2::TokenStream;
use quote::quote;
use std::path::Path;

/// The help of every SPX-M001: the fix that leaves the schema as it is.
const NAME_HELP: &str = "rename it in the .spx source: a display name is not part of the schema, so its `@id` and the digest stay the same";

/// Expands one `spx_interaction!` call. `manifest_dir` is the calling
/// crate's `CARGO_MANIFEST_DIR` (`None` when it is not set).
///
/// Never panics on user input: every error is a `compile_error!`, emitted
/// together with whatever could still be generated (the full items when
/// only a pin is wrong), so one mistake does not cascade.
pub fn expand(input: &MacroInput, manifest_dir: Option<&Path>) -> TokenStream {
    let loaded = load::load(input, manifest_dir);
    let rt: syn::Path = input
        .krate
        .clone()
        .unwrap_or_else(|| syn::parse_quote!(::spx_runtime));
    let mut errors = loaded.errors;
    let mut items = TokenStream::new();
    if let Some(roots) = &loaded.roots {
        match generate(roots, &rt) {
            Ok(ts) => items = ts,
            Err(name_errors) => {
                if let Some(src) = &input.source {
                    let path = src.value();
                    for e in name_errors {
                        let at = loaded
                            .workspace
                            .as_ref()
                            .and_then(|w| load::position_of(w, &e.stable_id));
                        let mut d =
                            spx_schema::Diagnostic::error(load::NAME, "macro.name", e.message)
                                .with_help(NAME_HELP);
                        if let Some((file, p)) = at {
                            d = d.at(p.location(file));
                        }
                        let text = load::render(&d, &path, &loaded.sources);
                        errors.push(syn::Error::new(src.span(), text));
                    }
                }
            }
        }
    }
    let deps = loaded.dependencies.iter().filter_map(|p| p.to_str());
    let deps = quote! {
        const _: () = {
            #(const _: &[u8] = ::core::include_bytes!(#deps);)*
        };
    };
    let errors = errors.into_iter().map(|e| e.to_compile_error());
    quote! {
        #(#errors)*
        #deps
        #items
    }
}
