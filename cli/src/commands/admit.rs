//! `spx admit`: raw provider output to the canonical value document (JSON
//! in every format).

use crate::input::{compile, one_stdin, read_input};
use crate::output::{CmdResult, Ctx, Output};
use spx_schema::project::Dialect;
use std::path::Path;

pub fn run(
    ctx: &mut Ctx,
    dialect: Dialect,
    source: &Path,
    root: &str,
    file: Option<&Path>,
) -> CmdResult {
    one_stdin(&[Some(source), Some(file.unwrap_or(Path::new("-")))])?;
    let s = compile(ctx, source, root)?;
    let bytes = read_input(file)?;
    Ok(Output::from(
        spx_schema::admit::admit(&s, dialect, &bytes)?.canonical,
    ))
}
