//! `spx provider-schema`: the provider projection of a root, or its loss
//! report (JSON in every format).

use crate::input::compile;
use crate::output::{CmdResult, Ctx, Output};
use spx_schema::project::Dialect;
use std::path::Path;

pub fn run(ctx: &mut Ctx, dialect: Dialect, losses: bool, source: &Path, root: &str) -> CmdResult {
    let s = compile(ctx, source, root)?;
    let p = spx_schema::project::project(&s, dialect)?;
    Ok(Output::from(if losses {
        let mut j = p.losses_json();
        if !j.ends_with('\n') {
            j.push('\n');
        }
        j
    } else {
        p.document
    }))
}
