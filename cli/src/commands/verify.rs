//! `spx verify`: bundle verification (SPX-Z204).

use crate::input::{one_stdin, read_file, source_set};
use crate::output::{q, CmdResult, Ctx, Output};
use std::path::Path;

pub fn run(ctx: &mut Ctx, source: &Path, root: &str, schema_file: &Path) -> CmdResult {
    one_stdin(&[Some(source), Some(schema_file)])?;
    let set = source_set(ctx, source)?;
    let doc = read_file(schema_file)?;
    let s = set.verify(root, &doc)?;
    Ok(Output::from(if ctx.json() {
        format!(
            "{{\"ok\":true,\"root_type_id\":{},\"schema_digest\":{}}}\n",
            q(s.root_type_id()),
            q(s.digest())
        )
    } else {
        format!("ok {} {}\n", q(s.root_type_id()), s.digest())
    }))
}
