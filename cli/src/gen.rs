//! `spx gen typescript|python SOURCE ROOT [ROOT…] --out FILE`: the consumer
//! module of one or more roots, written atomically and only when its bytes
//! change.

use spx_codegen::emit::NameError;
use spx_schema::binding::Snapshot;
use spx_schema::diag::{Code, Diagnostic, Location};
use spx_schema::Schema;
use std::path::Path;

/// The output file could not be written (rule `gen.output`).
pub const GEN_OUTPUT: Code = Code("SPX-G002");

/// The languages `spx gen` writes.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Target {
    /// A TypeScript module (`.ts`).
    Typescript,
    /// A Python module (`.py`).
    Python,
}

/// Derives every root of `source` from one snapshot, generates the module
/// and writes it to `out`. Returns the line printed on success.
pub fn run(
    target: Target,
    source: &Path,
    roots: &[String],
    out: &Path,
) -> Result<String, Vec<Diagnostic>> {
    let display = source.to_string_lossy().into_owned();
    let snap = Snapshot::take(source, &display).map_err(|d| vec![d])?;
    let module = snap.read_module()?;
    let mut schemas: Vec<Schema> = Vec::with_capacity(roots.len());
    let mut errors = Vec::new();
    for (i, r) in roots.iter().enumerate() {
        // A root given twice is generated once.
        if roots[..i].contains(r) {
            continue;
        }
        match Schema::derive(&module, r) {
            Ok(s) => schemas.push(s),
            Err(d) => errors.push(d),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let generated = match target {
        Target::Typescript => spx_codegen::typescript::generate(&schemas),
        Target::Python => spx_codegen::python::generate(&schemas),
    };
    let text = generated.map_err(|e| name_diagnostics(&display, &module, e))?;
    snap.recheck().map_err(|d| vec![d])?;
    let written = spx_schema::lock::write_atomic(out, text.as_bytes()).map_err(|e| {
        vec![Diagnostic::error(
            GEN_OUTPUT,
            "gen.output",
            format!("cannot write `{}`: {e}", out.display()),
        )
        .at(Location::File {
            path: out.display().to_string(),
        })]
    })?;
    let what = if written { "wrote" } else { "unchanged" };
    Ok(format!("{what} {}\n", out.display()))
}

fn name_diagnostics(
    display: &str,
    module: &spx_schema::source::Module,
    errors: Vec<NameError>,
) -> Vec<Diagnostic> {
    errors
        .into_iter()
        .map(|e| {
            let d = Diagnostic::error(spx_codegen::names::CONSUMER_NAME, "gen.name", e.message);
            match spx_codegen::load::position_of(module, &e.stable_id) {
                Some(p) => d.at(Location::Source {
                    path: display.to_owned(),
                    line: p.line,
                    column: p.column,
                    span: Some(spx_schema::diag::Span {
                        start: p.start as usize,
                        end: p.end as usize,
                    }),
                }),
                None => d.at(Location::File {
                    path: display.to_owned(),
                }),
            }
        })
        .collect()
}
