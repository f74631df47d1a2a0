//! `spx schema`: the canonical schema document of a root.

use crate::input::compile;
use crate::output::CmdResult;
use std::path::Path;

pub fn run(source: &Path, root: &str) -> CmdResult {
    Ok(compile(source, root)?.document().as_bytes().to_vec())
}
