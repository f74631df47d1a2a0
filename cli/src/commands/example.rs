//! `spx example`: one valid value document (JSON in every format).

use crate::input::compile;
use crate::output::{CmdResult, Ctx, Output};
use std::path::Path;

pub fn run(ctx: &mut Ctx, source: &Path, root: &str) -> CmdResult {
    let s = compile(ctx, source, root)?;
    let value = spx_schema::encode::example(&s);
    Ok(Output::from(spx_schema::encode::encode(&s, &value)?))
}
