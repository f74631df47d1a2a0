//! `spx schema`: the canonical schema document of a root (JSON in every
//! format).

use crate::input::compile;
use crate::output::{CmdResult, Ctx, Output};
use std::path::Path;

pub fn run(ctx: &mut Ctx, source: &Path, root: &str) -> CmdResult {
    Ok(Output::from(
        compile(ctx, source, root)?.document().to_owned(),
    ))
}
