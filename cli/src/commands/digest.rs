//! `spx digest`: the root_type_revision and the schema digest of a root.

use crate::input::compile;
use crate::output::CmdResult;
use std::path::Path;

pub fn run(source: &Path, root: &str) -> CmdResult {
    let s = compile(source, root)?;
    Ok(format!(
        "root_type_revision {}\nschema_digest {}\n",
        s.revision(),
        s.digest()
    )
    .into_bytes())
}
