//! Reading the command's inputs: sources, documents, stdin.

use crate::output::Failure;
use spx_schema::binding::{self, SOURCE_UNREADABLE};
use spx_schema::{Diagnostic, Schema};
use std::io::Read;
use std::path::Path;

pub fn display(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

pub fn compile(source: &Path, root: &str) -> Result<Schema, Failure> {
    Ok(binding::compile_file(source, &display(source), root)?)
}

pub fn read_input(path: Option<&Path>) -> Result<Vec<u8>, Failure> {
    match path {
        Some(p) => read_file(p),
        None => {
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
    }
}

pub fn read_file(p: &Path) -> Result<Vec<u8>, Failure> {
    std::fs::read(p).map_err(|e| {
        Failure::from(
            Diagnostic::error(
                SOURCE_UNREADABLE,
                "source.unreadable",
                format!("cannot read `{}`: {e}", display(p)),
            )
            .at(spx_schema::Location::File { path: display(p) }),
        )
    })
}
