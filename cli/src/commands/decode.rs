//! `spx decode`: strict decoding of a value document (the canonical
//! document is JSON in every format).

use crate::input::{compile, one_stdin, read_input};
use crate::output::{CmdResult, Ctx, Output};
use std::path::Path;

pub fn run(ctx: &mut Ctx, source: &Path, root: &str, document: Option<&Path>) -> CmdResult {
    one_stdin(&[Some(source), Some(document.unwrap_or(Path::new("-")))])?;
    let s = compile(ctx, source, root)?;
    let bytes = read_input(document)?;
    let decoded = spx_schema::decode::decode(&s, &bytes)?;
    Ok(Output::from(decoded.canonical))
}
