//! The command line: every command, argument and option (clap derive).

use clap::{Parser, Subcommand, ValueEnum};
use spx_schema::project::Dialect;
use spx_schema::stream::sse::Provider;
use std::path::PathBuf;

const EXAMPLES: &str = "\
Examples:
  spx schema agents/planner.spx planner.proposal
  spx check agents/planner.spx
  spx admit --dialect openai agents/planner.spx planner.proposal response.json
  spx pin --check
  spx completions bash > /usr/share/bash-completion/completions/spx";

#[derive(Parser)]
#[command(
    name = "spx",
    version,
    about = "Agent Interaction Schema v1: derive, verify, decode and project semaprax .spx types",
    after_help = EXAMPLES
)]
pub struct Cli {
    /// Output format: `human`, or `json` (diagnostics as JSON lines on
    /// stderr, and every command's output as JSON on stdout).
    #[arg(long, value_enum, default_value_t = Format::Human, global = true)]
    pub format: Format,
    /// When to colour diagnostics: `auto` (when stderr is a terminal and
    /// NO_COLOR is not set), `always` or `never`.
    #[arg(long, value_enum, default_value_t = Color::Auto, global = true)]
    pub color: Color,
    /// Print no warnings and no status lines, only the output and errors.
    #[arg(short, long, global = true)]
    pub quiet: bool,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// `error[CODE]: message`, then the source line with carets.
    Human,
    /// One JSON object per diagnostic and line; JSON output.
    Json,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Color {
    /// Colour when stderr is a terminal and `NO_COLOR` is not set.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

/// A provider event stream format (`--sse`).
fn provider(s: &str) -> Result<Provider, String> {
    Provider::from_name(&s.to_ascii_lowercase()).ok_or_else(|| {
        let names: Vec<&str> = Provider::ALL.iter().map(|p| p.name()).collect();
        format!(
            "unknown event stream `{s}` (expected one of: {})",
            names.join(", ")
        )
    })
}

/// The languages `spx gen` writes.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Target {
    /// A TypeScript module (`.ts`).
    Typescript,
    /// A Python module (`.py`).
    Python,
}

/// A dialect name in any case (`OpenAI`, `openai`).
fn dialect(s: &str) -> Result<Dialect, String> {
    s.to_ascii_lowercase().parse::<Dialect>().map_err(|_| {
        let names: Vec<&str> = Dialect::JSON_SCHEMA
            .iter()
            .chain(Dialect::GRAMMARS.iter())
            .map(|d| d.name())
            .collect();
        format!(
            "unknown dialect `{s}` (expected one of: {})",
            names.join(", ")
        )
    })
}

#[derive(Subcommand)]
pub enum Command {
    /// Print the canonical schema document of a root type.
    #[command(
        after_help = "Examples:\n  spx schema agents/planner.spx planner.proposal\n  cat agents/planner.spx | spx schema - planner.proposal"
    )]
    Schema {
        /// The `.spx` module, or a project's `semaprax.toml`, to read (`-`: one module from standard input).
        source: PathBuf,
        /// The stable id (`@id`) of the root record or variant.
        root_type_id: String,
    },
    /// Print the root_type_revision and the schema digest of a root type.
    #[command(
        after_help = "Examples:\n  spx digest agents/planner.spx planner.proposal\n  spx --format json digest agents/planner.spx planner.proposal"
    )]
    Digest {
        /// The `.spx` module, or a project's `semaprax.toml`, to read (`-`: one module from standard input).
        source: PathBuf,
        /// The stable id (`@id`) of the root record or variant.
        root_type_id: String,
    },
    /// Check that a schema document is the exact replay of its source (SPX-Z204).
    #[command(
        after_help = "Examples:\n  spx verify agents/planner.spx planner.proposal planner.proposal.schema.json"
    )]
    Verify {
        /// The `.spx` module, or a project's `semaprax.toml`, to read (`-`: one module from standard input).
        source: PathBuf,
        /// The stable id (`@id`) of the root record or variant.
        root_type_id: String,
        /// The schema document to verify (`-` for standard input).
        schema_file: PathBuf,
    },
    /// List the module's types, fields and cases with their stable ids;
    /// warnings go to stderr. Exits 1 when a root that the enclosing
    /// package's [package.metadata.spx] lists for this source does not derive.
    #[command(
        after_help = "Examples:\n  spx check agents/planner.spx\n  spx check --verbose agents/semaprax.toml\n  spx --format json check agents/planner.spx"
    )]
    Check {
        /// Also print the notes: what the reader skipped without knowing it.
        #[arg(long)]
        verbose: bool,
        /// The `.spx` module, or a project's `semaprax.toml`, to read (`-`: one module from standard input).
        source: PathBuf,
    },
    /// Decode a value document and print its canonical form.
    #[command(
        after_help = "Examples:\n  spx decode agents/planner.spx planner.proposal value.json\n  spx decode --chunk 64 --events agents/planner.spx planner.proposal value.json\n  spx example agents/planner.spx planner.proposal | spx decode agents/planner.spx planner.proposal -"
    )]
    Decode {
        /// Feed the input in chunks of N bytes through the streaming
        /// decoder (same output and exit status; a refusal carries the
        /// offset of the first impossible byte).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        chunk: Option<u64>,
        /// Stream the input, and print the stream's events as JSON lines
        /// on stdout before the result (also before a refusal).
        #[arg(long)]
        events: bool,
        /// The `.spx` module, or a project's `semaprax.toml`, to read (`-`: one module from standard input).
        source: PathBuf,
        /// The stable id (`@id`) of the root record or variant.
        root_type_id: String,
        /// The value document (`-` or omitted: standard input).
        document: Option<PathBuf>,
    },
    /// Print one valid value document.
    #[command(after_help = "Examples:\n  spx example agents/planner.spx planner.proposal")]
    Example {
        /// The `.spx` module, or a project's `semaprax.toml`, to read (`-`: one module from standard input).
        source: PathBuf,
        /// The stable id (`@id`) of the root record or variant.
        root_type_id: String,
    },
    /// Print the provider projection of a root type (JSON Schema, or a Lark grammar).
    #[command(
        after_help = "Examples:\n  spx provider-schema agents/planner.spx planner.proposal\n  spx provider-schema --dialect openai --losses agents/planner.spx planner.proposal\n  spx provider-schema --dialect lark agents/planner.spx planner.proposal"
    )]
    ProviderSchema {
        /// draft2020 (default), openai, anthropic, gemini, or lark (a grammar
        /// for llguidance; --losses then lists its narrowed bounds), in any case.
        #[arg(long, default_value = "draft2020", value_parser = dialect)]
        dialect: Dialect,
        /// Print the machine-readable report instead of the schema: the
        /// schema name, every keyword dropped or rewritten, and every
        /// stable id written under a safe key.
        #[arg(long)]
        losses: bool,
        /// Write the `.spx` documentation as `description` into the
        /// draft2020 projection too (the other dialects always carry it).
        #[arg(long)]
        descriptions: bool,
        /// The `.spx` module, or a project's `semaprax.toml`, to read (`-`: one module from standard input).
        source: PathBuf,
        /// The stable id (`@id`) of the root record or variant.
        root_type_id: String,
    },
    /// Admit raw provider output and print the canonical value document.
    #[command(
        after_help = "Examples:\n  spx admit --dialect openai agents/planner.spx planner.proposal response.json\n  curl … | spx admit agents/planner.spx planner.proposal -\n  spx admit --sse anthropic --dialect anthropic --events agents/planner.spx planner.proposal stream.sse"
    )]
    Admit {
        /// draft2020 (default), openai, anthropic, gemini, or lark (the output
        /// is the document itself, decoded strictly), in any case.
        #[arg(long, default_value = "draft2020", value_parser = dialect)]
        dialect: Dialect,
        /// Feed the input in chunks of N bytes through the streaming
        /// admitter (same output and exit status; a refusal carries the
        /// offset of the first impossible byte).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        chunk: Option<u64>,
        /// Stream the input, and print the stream's events as JSON lines
        /// on stdout before the result (also before a refusal).
        #[arg(long)]
        events: bool,
        /// FILE is a recorded provider event stream (Server-Sent Events):
        /// openai (Chat Completions), openai-responses, anthropic or
        /// gemini (streamGenerateContent?alt=sse); its answer text is
        /// admitted as it arrives.
        #[arg(long, value_name = "PROVIDER", value_parser = provider)]
        sse: Option<Provider>,
        /// The `.spx` module, or a project's `semaprax.toml`, to read (`-`: one module from standard input).
        source: PathBuf,
        /// The stable id (`@id`) of the root record or variant.
        root_type_id: String,
        /// The provider's raw output (`-` or omitted: standard input).
        file: Option<PathBuf>,
    },
    /// Write the TypeScript or Python consumer module of one or more roots.
    #[command(
        after_help = "Examples:\n  spx gen typescript agents/planner.spx planner.proposal --out web/src/planner.ts\n  spx gen python agents/semaprax.toml planner.proposal planner.step --out host/planner.py"
    )]
    Gen {
        /// typescript or python.
        #[arg(value_enum)]
        target: Target,
        /// The `.spx` module, or a project's `semaprax.toml`, to read (`-`: one module from standard input).
        source: PathBuf,
        /// The stable ids (`@id`) of the roots (several roots share one module).
        #[arg(required = true)]
        roots: Vec<String>,
        /// The file to write (atomically, and only when its bytes change).
        #[arg(long)]
        out: PathBuf,
    },
    /// Re-pin the roots of [package.metadata.spx] in spx.lock (re-creating a
    /// malformed one), or check the pins (--check).
    #[command(
        after_help = "Examples:\n  spx pin                                  # the package of the current folder\n  spx pin --check                          # for CI: fail on drift, write nothing\n  spx pin --manifest-path host/Cargo.toml\n  spx pin --workspace"
    )]
    Pin {
        /// Fail on drift, writing nothing (for CI).
        #[arg(long)]
        check: bool,
        /// The package directory (default: the package of the nearest
        /// Cargo.toml in the current folder or a parent, as cargo finds it).
        #[arg(long, value_name = "DIR", conflicts_with = "manifest_path")]
        package: Option<PathBuf>,
        /// The package's (or, with --workspace, the workspace's) Cargo.toml.
        #[arg(long, value_name = "PATH")]
        manifest_path: Option<PathBuf>,
        /// Pin every member of the workspace that has [package.metadata.spx].
        #[arg(long)]
        workspace: bool,
    },
    /// Print a shell completion script.
    #[command(
        after_help = "Examples:\n  spx completions bash > ~/.local/share/bash-completion/completions/spx\n  spx completions zsh > ~/.zfunc/_spx\n  spx completions fish > ~/.config/fish/completions/spx.fish"
    )]
    Completions {
        /// The shell: bash, elvish, fish, powershell or zsh.
        shell: clap_complete::Shell,
    },
}
