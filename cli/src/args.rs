//! The command line: every command, argument and option (clap derive).

use clap::{Parser, Subcommand, ValueEnum};
use spx_schema::project::Dialect;
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "spx",
    version,
    about = "Agent Interaction Schema v1: derive, verify, decode and project semaprax .spx types"
)]
pub struct Cli {
    /// How diagnostics are printed on stderr.
    #[arg(long, value_enum, default_value_t = Format::Human, global = true)]
    pub format: Format,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// `error[CODE]: message`, then the location.
    Human,
    /// One JSON object per diagnostic and line.
    Json,
}

#[derive(Subcommand)]
pub enum Command {
    /// Print the canonical schema document of a root type.
    Schema {
        source: PathBuf,
        root_type_id: String,
    },
    /// Print the root_type_revision and the schema digest of a root type.
    Digest {
        source: PathBuf,
        root_type_id: String,
    },
    /// Check that a schema document is the exact replay of its source (SPX-Z204).
    Verify {
        source: PathBuf,
        root_type_id: String,
        schema_file: PathBuf,
    },
    /// List the module's types, fields and cases with their stable ids.
    Check { source: PathBuf },
    /// Decode a value document (stdin when DOCUMENT is omitted) and print its canonical form.
    Decode {
        source: PathBuf,
        root_type_id: String,
        document: Option<PathBuf>,
    },
    /// Print one valid value document.
    Example {
        source: PathBuf,
        root_type_id: String,
    },
    /// Print the provider projection of a root type (JSON Schema).
    ProviderSchema {
        /// draft2020 (default), openai, anthropic or gemini.
        #[arg(long, default_value = "draft2020")]
        dialect: Dialect,
        /// Print the machine-readable loss report instead of the schema.
        #[arg(long)]
        losses: bool,
        source: PathBuf,
        root_type_id: String,
    },
    /// Admit raw provider output (stdin when FILE is omitted) and print the canonical value document.
    Admit {
        /// draft2020 (default), openai, anthropic or gemini.
        #[arg(long, default_value = "draft2020")]
        dialect: Dialect,
        source: PathBuf,
        root_type_id: String,
        file: Option<PathBuf>,
    },
    /// Re-pin the roots of [package.metadata.spx] in spx.lock, or check the pins (--check).
    Pin {
        /// Fail on drift, writing nothing (for CI).
        #[arg(long)]
        check: bool,
        /// The package directory (default: the current directory).
        #[arg(long, default_value = ".")]
        package: PathBuf,
    },
}
