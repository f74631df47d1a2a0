//! The `OUT_DIR` outputs: each root's schema document and its provider
//! projections, written only when their bytes change.

use crate::{Error, BUILD_OUTPUT};
use spx_schema::diag::{Diagnostic, Location};
use spx_schema::lock::{pin_file_stem, write_atomic};
use spx_schema::Schema;
use std::path::{Path, PathBuf};

/// The schema document's path, and each projection's dialect and path.
pub(crate) type Outputs = (PathBuf, Vec<(String, PathBuf)>);

fn output_error(path: &Path, e: &std::io::Error) -> Diagnostic {
    Diagnostic::error(
        BUILD_OUTPUT,
        "build.output",
        format!("cannot write `{}`: {e}", path.display()),
    )
    .at(Location::File {
        path: path.display().to_string(),
    })
}

/// Writes `<stem>.schema.json` and, with `projections`, one
/// `<stem>.<dialect>.json` per provider dialect into `out_dir`. A dialect
/// that refuses the schema is skipped with a `cargo:warning` (when
/// `cargo_output`).
pub(crate) fn write(
    out_dir: &Path,
    schema: &Schema,
    projections: bool,
    cargo_output: bool,
) -> Result<Outputs, Error> {
    std::fs::create_dir_all(out_dir).map_err(|e| Error::from(output_error(out_dir, &e)))?;
    let stem = pin_file_stem(schema.root_type_id());
    let schema_path = out_dir.join(format!("{stem}.schema.json"));
    write_atomic(&schema_path, schema.document().as_bytes())
        .map_err(|e| Error::from(output_error(&schema_path, &e)))?;
    let mut written = Vec::new();
    if projections {
        let (documents, warnings) = project_all(schema);
        if cargo_output {
            for w in warnings {
                println!(
                    "cargo:warning=spx: no {} projection written: {}",
                    w.rule.split('.').next().unwrap_or("provider"),
                    w.to_string().replace('\n', " ")
                );
            }
        }
        for (dialect, document) in documents {
            let path = out_dir.join(format!("{stem}.{dialect}.json"));
            write_atomic(&path, document.as_bytes())
                .map_err(|e| Error::from(output_error(&path, &e)))?;
            written.push((dialect, path));
        }
    }
    Ok((schema_path, written))
}

/// The provider projections of `schema`: dialect name and document bytes.
/// A dialect that refuses the schema (OpenAI's documented limits, SPX-Z207)
/// is skipped and its diagnostic returned as a warning: the schema is still
/// valid for the decoder and the other providers.
fn project_all(schema: &Schema) -> (Vec<(String, String)>, Vec<Diagnostic>) {
    let mut out = Vec::new();
    let mut warnings = Vec::new();
    for dialect in spx_schema::project::Dialect::JSON_SCHEMA {
        match spx_schema::project::project(schema, dialect) {
            Ok(p) => out.push((dialect.name().to_owned(), p.document)),
            Err(mut d) => {
                d.severity = spx_schema::Severity::Warning;
                warnings.push(d);
            }
        }
    }
    (out, warnings)
}
