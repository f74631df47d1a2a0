//! What a command returns and how it reaches the terminal: the output
//! bytes on success, the diagnostics and the exit status on failure.

use spx_schema::binding::SOURCE_UNREADABLE;
use spx_schema::Diagnostic;

/// A failed command: the diagnostics and the exit status.
pub struct Failure {
    pub diagnostics: Vec<Diagnostic>,
    pub status: u8,
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

/// What every command returns: its stdout bytes, or a failure.
pub type CmdResult = Result<Vec<u8>, Failure>;
