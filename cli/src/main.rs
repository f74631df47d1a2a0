//! `spx`: the command-line door onto the spx-schema engine.
//!
//! Exit status: 0 on success, 1 on a refusal (the first line of stderr is
//! `error[<CODE>]: <message>`), 2 on a usage error or an unreadable file.
//!
//! One module per command (`commands/`), the command line in `args`, input
//! reading in `input`, and the output and exit status in `output`.

mod args;
mod commands;
mod input;
mod output;

use args::{Cli, Format};
use clap::Parser;
use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let result = commands::run(&cli.command);
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
