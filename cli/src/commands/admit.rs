//! `spx admit`: raw provider output to the canonical value document.

use crate::input::{compile, read_input};
use crate::output::CmdResult;
use spx_schema::project::Dialect;
use std::path::Path;

pub fn run(dialect: Dialect, source: &Path, root: &str, file: Option<&Path>) -> CmdResult {
    let s = compile(source, root)?;
    let bytes = read_input(file)?;
    Ok(spx_schema::admit::admit(&s, dialect, &bytes)?
        .canonical
        .into_bytes())
}
