//! Reading `.spx` source (LANGUAGE.md): lexing, parsing, declaration checks.

pub mod model;

pub use model::*;

use crate::diag::Diagnostic;

/// Reads and checks one module. `path` is used only in diagnostics, exactly
/// as given. On failure every error found is returned (at least one).
pub fn read_module(path: &str, text: &str) -> Result<Module, Vec<Diagnostic>> {
    let _ = (path, text);
    Err(vec![Diagnostic::error(
        crate::Code("SPX-P000"),
        "todo",
        "reader not written yet",
    )])
}
