//! `spx provider-schema`: the provider projection of a root, or its loss
//! report.

use crate::input::compile;
use crate::output::CmdResult;
use spx_schema::project::Dialect;
use std::path::Path;

pub fn run(dialect: Dialect, losses: bool, source: &Path, root: &str) -> CmdResult {
    let s = compile(source, root)?;
    let p = spx_schema::project::project(&s, dialect)?;
    Ok(if losses {
        let mut j = p.losses_json();
        if !j.ends_with('\n') {
            j.push('\n');
        }
        j.into_bytes()
    } else {
        p.document.into_bytes()
    })
}
