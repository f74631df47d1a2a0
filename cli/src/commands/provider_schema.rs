//! `spx provider-schema`: the provider projection of a root, or its report
//! (schema name, losses, safe keys; JSON in every format).

use crate::input::compile;
use crate::output::{CmdResult, Ctx, Output};
use spx_schema::project::{Dialect, Options};
use std::path::Path;

pub fn run(
    ctx: &mut Ctx,
    dialect: Dialect,
    losses: bool,
    descriptions: bool,
    source: &Path,
    root: &str,
) -> CmdResult {
    let s = compile(ctx, source, root)?;
    let options = Options {
        draft2020_descriptions: descriptions,
    };
    let p = spx_schema::project::project_with(&s, dialect, options)?;
    Ok(Output::from(if losses {
        p.report_json(dialect)
    } else {
        p.document
    }))
}
