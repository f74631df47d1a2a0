//! `spx`: the command-line door onto the spx-schema engine.
//!
//! Exit status: 0 on success, 1 on a refusal (the first line of stderr is
//! `error[<CODE>]: <message>`), 2 on a usage error or an unreadable file.

mod gen;

use clap::{Parser, Subcommand, ValueEnum};
use spx_schema::binding::{self, SOURCE_UNREADABLE};
use spx_schema::project::Dialect;
use spx_schema::source::{Builtin, DeclKind, Module, TypeExpr};
use spx_schema::{Diagnostic, Schema};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "spx",
    version,
    about = "Agent Interaction Schema v1: derive, verify, decode and project semaprax .spx types"
)]
struct Cli {
    /// How diagnostics are printed on stderr.
    #[arg(long, value_enum, default_value_t = Format::Human, global = true)]
    format: Format,
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// `error[CODE]: message`, then the location.
    Human,
    /// One JSON object per diagnostic and line.
    Json,
}

#[derive(Subcommand)]
enum Command {
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
    /// Write the TypeScript or Python consumer module of one or more roots.
    Gen {
        /// typescript or python.
        #[arg(value_enum)]
        target: gen::Target,
        source: PathBuf,
        /// The root stable ids (several roots share one module).
        #[arg(required = true)]
        roots: Vec<String>,
        /// The file to write (only when its bytes change).
        #[arg(long)]
        out: PathBuf,
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

/// A failed command: the diagnostics and the exit status.
struct Failure {
    diagnostics: Vec<Diagnostic>,
    status: u8,
}

impl From<Diagnostic> for Failure {
    fn from(d: Diagnostic) -> Self {
        Failure::from(vec![d])
    }
}

impl From<Vec<Diagnostic>> for Failure {
    fn from(diagnostics: Vec<Diagnostic>) -> Self {
        // An unreadable input is an environment problem, not a refusal.
        let status = if diagnostics.iter().any(|d| d.code == SOURCE_UNREADABLE) {
            2
        } else {
            1
        };
        Failure {
            diagnostics,
            status,
        }
    }
}

type CmdResult = Result<Vec<u8>, Failure>;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let result = run(&cli.command);
    let stderr = std::io::stderr();
    let mut err = stderr.lock();
    match result {
        Ok(out) => {
            let mut stdout = std::io::stdout().lock();
            if stdout
                .write_all(&out)
                .and_then(|()| stdout.flush())
                .is_err()
            {
                return ExitCode::from(2);
            }
            ExitCode::SUCCESS
        }
        Err(f) => {
            for d in &f.diagnostics {
                let _ = match cli.format {
                    Format::Human => writeln!(err, "{d}"),
                    Format::Json => writeln!(err, "{}", d.to_json_line()),
                };
            }
            ExitCode::from(f.status)
        }
    }
}

fn display(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

fn compile(source: &Path, root: &str) -> Result<Schema, Failure> {
    Ok(binding::compile_file(source, &display(source), root)?)
}

fn read_input(path: Option<&Path>) -> Result<Vec<u8>, Failure> {
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

fn read_file(p: &Path) -> Result<Vec<u8>, Failure> {
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

fn run(cmd: &Command) -> CmdResult {
    match cmd {
        Command::Schema {
            source,
            root_type_id,
        } => Ok(compile(source, root_type_id)?
            .document()
            .as_bytes()
            .to_vec()),
        Command::Digest {
            source,
            root_type_id,
        } => {
            let s = compile(source, root_type_id)?;
            Ok(format!(
                "root_type_revision {}\nschema_digest {}\n",
                s.revision(),
                s.digest()
            )
            .into_bytes())
        }
        Command::Verify {
            source,
            root_type_id,
            schema_file,
        } => {
            let doc = read_file(schema_file)?;
            let s = binding::verify_bundle(source, &display(source), root_type_id, &doc)?;
            Ok(format!("ok {} {}\n", s.root_type_id(), s.digest()).into_bytes())
        }
        Command::Check { source } => {
            let snap = binding::Snapshot::take(source, &display(source))?;
            let module = snap.read_module()?;
            snap.recheck()?;
            Ok(check_listing(&module).into_bytes())
        }
        Command::Decode {
            source,
            root_type_id,
            document,
        } => {
            let s = compile(source, root_type_id)?;
            let bytes = read_input(document.as_deref())?;
            let decoded = spx_schema::decode::decode(&s, &bytes)?;
            Ok(decoded.canonical.into_bytes())
        }
        Command::Example {
            source,
            root_type_id,
        } => {
            let s = compile(source, root_type_id)?;
            let value = spx_schema::encode::example(&s);
            Ok(spx_schema::encode::encode(&s, &value)?.into_bytes())
        }
        Command::ProviderSchema {
            dialect,
            losses,
            source,
            root_type_id,
        } => {
            let s = compile(source, root_type_id)?;
            let p = spx_schema::project::project(&s, *dialect)?;
            Ok(if *losses {
                let mut j = p.losses_json();
                if !j.ends_with('\n') {
                    j.push('\n');
                }
                j.into_bytes()
            } else {
                p.document.into_bytes()
            })
        }
        Command::Admit {
            dialect,
            source,
            root_type_id,
            file,
        } => {
            let s = compile(source, root_type_id)?;
            let bytes = read_input(file.as_deref())?;
            Ok(spx_schema::admit::admit(&s, *dialect, &bytes)?
                .canonical
                .into_bytes())
        }
        Command::Gen {
            target,
            source,
            roots,
            out,
        } => Ok(gen::run(*target, source, roots, out)?.into_bytes()),
        Command::Pin { check, package } => {
            let report = spx_build::pin::run(package, *check)
                .map_err(|e| Failure::from(e.diagnostics().to_vec()))?;
            let mut out = String::new();
            for e in &report.entries {
                use spx_build::pin::PinChange;
                let what = match &e.change {
                    PinChange::Unchanged => "unchanged".to_owned(),
                    PinChange::Created => "created".to_owned(),
                    PinChange::Updated { from } => format!("updated (was {from})"),
                    PinChange::Removed => "removed".to_owned(),
                };
                out.push_str(&format!("{} {} {} {what}\n", e.source, e.root, e.digest));
            }
            if *check {
                out.push_str("pins are current\n");
            }
            Ok(out.into_bytes())
        }
    }
}

fn type_text(t: &TypeExpr) -> String {
    match t {
        TypeExpr::Builtin(b) => match b {
            Builtin::Bool => "bool",
            Builtin::I32 => "i32",
            Builtin::I64 => "i64",
            Builtin::U8 => "u8",
            Builtin::Usize => "usize",
            Builtin::String => "string",
            Builtin::Bytes => "Bytes",
            Builtin::Char => "char",
            Builtin::F32 => "f32",
            Builtin::F64 => "f64",
            Builtin::Str => "str",
        }
        .to_owned(),
        TypeExpr::Named { name, args, .. } if args.is_empty() => name.clone(),
        TypeExpr::Named { name, args, .. } => {
            format!(
                "{name}<{}>",
                args.iter().map(type_text).collect::<Vec<_>>().join(", ")
            )
        }
        TypeExpr::Array { elem, len } => format!("[{}; {len}]", type_text(elem)),
        TypeExpr::Slice(e) => format!("Slice<{}>", type_text(e)),
        TypeExpr::Fn { params, ret } => {
            let p = params.iter().map(type_text).collect::<Vec<_>>().join(", ");
            match ret {
                Some(r) => format!("fn({p}) -> {}", type_text(r)),
                None => format!("fn({p})"),
            }
        }
    }
}

fn id_text(id: &str, persistent: bool) -> String {
    let q = spx_schema::quote::quote(id);
    if persistent {
        format!("@id({q})")
    } else {
        format!("{q} (automatic)")
    }
}

/// The `spx check` listing: one line per type, field and case, then the
/// warnings.
fn check_listing(m: &Module) -> String {
    let mut out = format!("module {}\n", m.name);
    for d in m.decls.iter().filter(|d| !d.prelude) {
        let params = if d.params.is_empty() {
            String::new()
        } else {
            format!("<{}>", d.params.join(", "))
        };
        out.push_str(&format!(
            "{} {}{params} {}\n",
            d.kind.keyword(),
            d.name,
            id_text(&d.stable_id, d.persistent)
        ));
        let field_line = |out: &mut String, indent: &str, f: &spx_schema::source::FieldDecl| {
            out.push_str(&format!(
                "{indent}field {}: {} {}\n",
                f.name,
                type_text(&f.ty),
                id_text(&f.stable_id, f.persistent)
            ));
        };
        for f in &d.fields {
            field_line(&mut out, "  ", f);
        }
        if d.kind == DeclKind::Variant {
            for c in &d.cases {
                out.push_str(&format!(
                    "  case {} {}\n",
                    c.name,
                    id_text(&c.stable_id, c.persistent)
                ));
                for f in &c.fields {
                    field_line(&mut out, "    ", f);
                }
            }
        }
    }
    for w in &m.warnings {
        out.push_str(&format!("{w}\n"));
    }
    out
}
