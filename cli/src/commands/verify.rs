//! `spx verify`: bundle verification (SPX-Z204).

use crate::input::{display, read_file};
use crate::output::CmdResult;
use spx_schema::binding;
use std::path::Path;

pub fn run(source: &Path, root: &str, schema_file: &Path) -> CmdResult {
    let doc = read_file(schema_file)?;
    let s = binding::verify_bundle(source, &display(source), root, &doc)?;
    Ok(format!("ok {} {}\n", s.root_type_id(), s.digest()).into_bytes())
}
