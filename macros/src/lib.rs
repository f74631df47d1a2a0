//! `spx_interaction!`: a thin door onto the engine's code generator
//! (`spx_gen`). Depend on `spx-runtime`, which re-exports it.
#![forbid(unsafe_code)]

use proc_macro::TokenStream;

/// Generates Rust types, a strict decoder and a canonical encoder for the
/// roots of one `.spx` module. See the `spx-runtime` crate and
/// `docs/MACRO.md`.
#[proc_macro]
pub fn spx_interaction(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as spx_gen::MacroInput);
    let dir = std::env::var_os("CARGO_MANIFEST_DIR").map(std::path::PathBuf::from);
    spx_gen::expand(&input, dir.as_deref()).into()
}
