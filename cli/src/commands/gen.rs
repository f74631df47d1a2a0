//! `spx gen typescript|python SOURCE ROOT [ROOT…] --out FILE`: the consumer
//! module of one or more roots, written atomically and only when its bytes
//! change.

use crate::args::Target;
use crate::input::source_set;
use crate::output::{q, CmdResult, Ctx, Failure, Output};
use spx_gen::emit::NameError;
use spx_schema::binding::SourceSet;
use spx_schema::diag::{Code, Diagnostic, Location, Span};
use spx_schema::Schema;
use std::path::Path;

/// The output file could not be written (rule `gen.output`).
pub const GEN_OUTPUT: Code = Code("SPX-G002");

/// Derives every root of `source` from one snapshot of its files,
/// generates the module and writes it to `out`.
pub fn run(
    ctx: &mut Ctx,
    target: Target,
    source: &Path,
    roots: &[String],
    out: &Path,
) -> CmdResult {
    let set = source_set(ctx, source)?;
    let mut schemas: Vec<Schema> = Vec::with_capacity(roots.len());
    let mut errors = Vec::new();
    for (i, r) in roots.iter().enumerate() {
        // A root given twice is generated once.
        if roots[..i].contains(r) {
            continue;
        }
        match set.derive(r) {
            Ok(s) => schemas.push(s),
            Err(d) => errors.push(d),
        }
    }
    if !errors.is_empty() {
        return Err(Failure::from(errors));
    }
    let generated = match target {
        Target::Typescript => spx_gen::typescript::generate(&schemas),
        Target::Python => spx_gen::python::generate(&schemas),
    };
    let text = generated.map_err(|e| Failure::from(name_diagnostics(&set, e)))?;
    set.recheck()?;
    let written = spx_schema::lock::write_atomic(out, text.as_bytes()).map_err(|e| {
        Failure::from(
            Diagnostic::error(
                GEN_OUTPUT,
                "gen.output",
                format!("cannot write `{}`: {e}", out.display()),
            )
            .with_help("check that the folder exists and is writable, or give another `--out`")
            .at(Location::File {
                path: out.display().to_string(),
            }),
        )
    })?;
    let path = out.display().to_string();
    Ok(Output::from(if ctx.json() {
        format!("{{\"path\":{},\"written\":{written}}}\n", q(&path))
    } else {
        let what = if written { "wrote" } else { "unchanged" };
        format!("{what} {path}\n")
    }))
}

/// A name the target language cannot hold, at its place in the source.
fn name_diagnostics(set: &SourceSet, errors: Vec<NameError>) -> Vec<Diagnostic> {
    errors
        .into_iter()
        .map(|e| {
            let d = Diagnostic::error(spx_gen::names::CONSUMER_NAME, "gen.name", e.message)
                .with_help(
                    "rename the declaration, field or case in the `.spx` source (its stable id, and so the schema, stays the same)",
                );
            match spx_gen::load::position_of(set.workspace(), &e.stable_id) {
                Some((path, p)) => d.at(Location::Source {
                    path: path.to_owned(),
                    line: p.line,
                    column: p.column,
                    span: Some(Span {
                        start: p.start as usize,
                        end: p.end as usize,
                    }),
                }),
                None => d,
            }
        })
        .collect()
}
