//! One module per command; [`run`] dispatches.

mod admit;
mod check;
mod completions;
mod decode;
mod digest;
mod example;
mod gen;
mod pin;
mod provider_schema;
mod schema;
mod stream;
mod verify;

use crate::args::Command;
use crate::output::{CmdResult, Ctx};

pub fn run(ctx: &mut Ctx, cmd: &Command) -> CmdResult {
    match cmd {
        Command::Schema {
            source,
            root_type_id,
        } => schema::run(ctx, source, root_type_id),
        Command::Digest {
            source,
            root_type_id,
        } => digest::run(ctx, source, root_type_id),
        Command::Verify {
            source,
            root_type_id,
            schema_file,
        } => verify::run(ctx, source, root_type_id, schema_file),
        Command::Check { verbose, source } => check::run(ctx, source, *verbose),
        Command::Decode {
            chunk,
            events,
            source,
            root_type_id,
            document,
        } => decode::run(
            ctx,
            &stream::Feed::new(*chunk, *events),
            source,
            root_type_id,
            document.as_deref(),
        ),
        Command::Example {
            source,
            root_type_id,
        } => example::run(ctx, source, root_type_id),
        Command::ProviderSchema {
            dialect,
            losses,
            descriptions,
            source,
            root_type_id,
        } => provider_schema::run(ctx, *dialect, *losses, *descriptions, source, root_type_id),
        Command::Admit {
            dialect,
            chunk,
            events,
            sse,
            source,
            root_type_id,
            file,
        } => admit::run(
            ctx,
            *dialect,
            &stream::Feed::new(*chunk, *events),
            *sse,
            source,
            root_type_id,
            file.as_deref(),
        ),
        Command::Gen {
            target,
            source,
            roots,
            out,
        } => gen::run(ctx, *target, source, roots, out),
        Command::Pin {
            check,
            package,
            manifest_path,
            workspace,
        } => pin::run(
            ctx,
            &pin::Args {
                check: *check,
                package: package.as_deref(),
                manifest_path: manifest_path.as_deref(),
                workspace: *workspace,
            },
        ),
        Command::Completions { shell } => completions::run(*shell),
    }
}
