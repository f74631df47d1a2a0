//! One module per command; [`run`] dispatches.

mod admit;
mod check;
mod decode;
mod digest;
mod example;
mod pin;
mod provider_schema;
mod schema;
mod verify;

use crate::args::Command;
use crate::output::CmdResult;

pub fn run(cmd: &Command) -> CmdResult {
    match cmd {
        Command::Schema {
            source,
            root_type_id,
        } => schema::run(source, root_type_id),
        Command::Digest {
            source,
            root_type_id,
        } => digest::run(source, root_type_id),
        Command::Verify {
            source,
            root_type_id,
            schema_file,
        } => verify::run(source, root_type_id, schema_file),
        Command::Check { source } => check::run(source),
        Command::Decode {
            source,
            root_type_id,
            document,
        } => decode::run(source, root_type_id, document.as_deref()),
        Command::Example {
            source,
            root_type_id,
        } => example::run(source, root_type_id),
        Command::ProviderSchema {
            dialect,
            losses,
            source,
            root_type_id,
        } => provider_schema::run(*dialect, *losses, source, root_type_id),
        Command::Admit {
            dialect,
            source,
            root_type_id,
            file,
        } => admit::run(*dialect, source, root_type_id, file.as_deref()),
        Command::Pin { check, package } => pin::run(*check, package),
    }
}
