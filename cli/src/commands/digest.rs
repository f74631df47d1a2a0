//! `spx digest`: the root_type_revision and the schema digest of a root.

use crate::input::compile;
use crate::output::{q, CmdResult, Ctx, Output};
use std::path::Path;

pub fn run(ctx: &mut Ctx, source: &Path, root: &str) -> CmdResult {
    let s = compile(ctx, source, root)?;
    Ok(Output::from(if ctx.json() {
        format!(
            "{{\"root_type_id\":{},\"root_type_revision\":{},\"schema_digest\":{}}}\n",
            q(s.root_type_id()),
            q(s.revision()),
            q(s.digest())
        )
    } else {
        format!(
            "root_type_revision {}\nschema_digest {}\n",
            s.revision(),
            s.digest()
        )
    }))
}
