//! Reading the command's inputs: sources, documents, standard input (`-`).

use crate::output::{Ctx, Failure};
use spx_schema::binding::{Snapshot, SourceSet, SOURCE_UNREADABLE};
use spx_schema::{Diagnostic, Location, Schema};
use std::io::Read;
use std::path::Path;

/// How diagnostics name standard input.
pub const STDIN: &str = "<stdin>";

pub fn display(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// True for the path `-`: standard input.
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Standard input can be read once: at most one of `paths` may be `-`.
pub fn one_stdin(paths: &[Option<&Path>]) -> Result<(), Failure> {
    if paths.iter().flatten().filter(|p| is_stdin(p)).count() > 1 {
        return Err(Failure::usage(Diagnostic::error(
            SOURCE_UNREADABLE,
            "source.unreadable",
            "standard input can be read only once: give at most one `-`",
        )));
    }
    Ok(())
}

fn read_stdin() -> Result<Vec<u8>, Failure> {
    let mut buf = Vec::new();
    std::io::stdin().read_to_end(&mut buf).map_err(|e| {
        Failure::from(Diagnostic::error(
            SOURCE_UNREADABLE,
            "source.unreadable",
            format!("cannot read standard input: {e}"),
        ))
    })?;
    Ok(buf)
}

/// The source read from snapshots: a `.spx` module, a project's
/// `semaprax.toml` (then every module it lists), or one module from
/// standard input for `-`; every text read is recorded for rendering.
pub fn source_set(ctx: &mut Ctx, source: &Path) -> Result<SourceSet, Failure> {
    if is_stdin(source) {
        let snap = Snapshot::from_bytes(STDIN, read_stdin()?);
        snap.record(&mut ctx.sources);
        return Ok(SourceSet::from_snapshot(snap)?);
    }
    Ok(SourceSet::read_recording(
        source,
        &display(source),
        &mut ctx.sources,
    )?)
}

/// The schema of `root`, derived from one snapshot of every file of
/// `source`.
pub fn compile(ctx: &mut Ctx, source: &Path, root: &str) -> Result<Schema, Failure> {
    let set = source_set(ctx, source)?;
    set.compile(root).map_err(|ds| {
        Failure::from(
            ds.into_iter()
                .map(|d| {
                    if d.code == spx_schema::Code::Z202 {
                        d.with_note(format!(
                            "while deriving root {}, the ROOT_TYPE_ID argument",
                            spx_schema::quote::quote(root)
                        ))
                    } else {
                        d
                    }
                })
                .collect::<Vec<_>>(),
        )
    })
}

/// A document: the file at `path`, or standard input for `-` or `None`.
pub fn read_input(path: Option<&Path>) -> Result<Vec<u8>, Failure> {
    match path {
        Some(p) if !is_stdin(p) => read_file(p),
        _ => read_stdin(),
    }
}

pub fn read_file(p: &Path) -> Result<Vec<u8>, Failure> {
    if is_stdin(p) {
        return read_stdin();
    }
    std::fs::read(p).map_err(|e| {
        Failure::from(
            Diagnostic::error(
                SOURCE_UNREADABLE,
                "source.unreadable",
                format!("cannot read `{}`: {e}", display(p)),
            )
            .at(Location::File { path: display(p) }),
        )
    })
}
