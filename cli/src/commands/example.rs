//! `spx example`: one valid value document.

use crate::input::compile;
use crate::output::CmdResult;
use std::path::Path;

pub fn run(source: &Path, root: &str) -> CmdResult {
    let s = compile(source, root)?;
    let value = spx_schema::encode::example(&s);
    Ok(spx_schema::encode::encode(&s, &value)?.into_bytes())
}
