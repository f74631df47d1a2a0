//! What a command returns and how it reaches the terminal: the output
//! bytes and warnings on success, the diagnostics and the exit status on
//! failure, rendered per `--format`, `--color` and `--quiet`.

use crate::args::{Color, Format};
use spx_schema::binding::SOURCE_UNREADABLE;
use spx_schema::diag::{Renderer, Sources};
use spx_schema::lock::LOCK_IO;
use spx_schema::Diagnostic;
use std::io::{IsTerminal, Write};

/// What every command is run with: the chosen format, and the texts its
/// diagnostics point into (recorded as the inputs are read).
pub struct Ctx {
    pub format: Format,
    pub quiet: bool,
    pub sources: Sources,
}

impl Ctx {
    pub fn json(&self) -> bool {
        self.format == Format::Json
    }
}

/// A command's success: its stdout and the warnings for stderr.
#[derive(Default)]
pub struct Output {
    pub stdout: Vec<u8>,
    pub warnings: Vec<Diagnostic>,
}

impl From<Vec<u8>> for Output {
    fn from(stdout: Vec<u8>) -> Self {
        Output {
            stdout,
            warnings: Vec::new(),
        }
    }
}

impl From<String> for Output {
    fn from(stdout: String) -> Self {
        Output::from(stdout.into_bytes())
    }
}

/// A failed command: the diagnostics and the exit status, and what it
/// had written for stdout before it failed (a stream's events).
pub struct Failure {
    pub diagnostics: Vec<Diagnostic>,
    pub status: u8,
    pub stdout: Vec<u8>,
}

impl From<Diagnostic> for Failure {
    fn from(d: Diagnostic) -> Self {
        Failure::from(vec![d])
    }
}

impl From<Vec<Diagnostic>> for Failure {
    fn from(diagnostics: Vec<Diagnostic>) -> Self {
        // An input that cannot be read (a file, stdin, spx.lock) is an
        // environment problem, not a refusal.
        let status = if diagnostics
            .iter()
            .any(|d| d.code == SOURCE_UNREADABLE || d.code == LOCK_IO)
        {
            2
        } else {
            1
        };
        Failure {
            diagnostics,
            status,
            stdout: Vec::new(),
        }
    }
}

impl Failure {
    /// A usage problem (exit 2), in the form of a diagnostic.
    pub fn usage(d: Diagnostic) -> Failure {
        Failure {
            diagnostics: vec![d],
            status: 2,
            stdout: Vec::new(),
        }
    }
}

/// What every command returns.
pub type CmdResult = Result<Output, Failure>;

/// Whether diagnostics on stderr are coloured.
pub fn use_color(choice: Color) -> bool {
    match choice {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => {
            let set = |v: &str| std::env::var_os(v).is_some_and(|x| !x.is_empty());
            if set("NO_COLOR") {
                false
            } else if set("CLICOLOR_FORCE")
                && std::env::var_os("CLICOLOR_FORCE") != Some("0".into())
            {
                true
            } else {
                std::io::stderr().is_terminal()
                    && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
            }
        }
    }
}

/// Writes `diagnostics` to `err`: rendered with their source lines, or one
/// JSON object per line.
pub fn write_diagnostics(
    err: &mut impl Write,
    diagnostics: &[Diagnostic],
    ctx: &Ctx,
    color: bool,
) -> std::io::Result<()> {
    let renderer = Renderer::colored(color);
    for d in diagnostics {
        match ctx.format {
            Format::Human => writeln!(err, "{}", renderer.render(d, &ctx.sources))?,
            Format::Json => writeln!(err, "{}", d.to_json_line())?,
        }
    }
    Ok(())
}

/// A JSON string.
pub fn q(s: &str) -> String {
    spx_schema::quote::quote(s)
}
