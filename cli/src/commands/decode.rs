//! `spx decode`: strict decoding of a value document.

use crate::input::{compile, read_input};
use crate::output::CmdResult;
use std::path::Path;

pub fn run(source: &Path, root: &str, document: Option<&Path>) -> CmdResult {
    let s = compile(source, root)?;
    let bytes = read_input(document)?;
    let decoded = spx_schema::decode::decode(&s, &bytes)?;
    Ok(decoded.canonical.into_bytes())
}
