//! `spx`: the command-line door onto the spx-schema engine.
//!
//! Every SOURCE is a `.spx` module or a project's `semaprax.toml` (a file
//! whose name ends in `.toml`): then the modules it lists are read together.
//!
//! Exit status: 0 on success, 1 on a refusal (the first line of stderr is
//! `error[<CODE>]: <message>`), 2 on a usage error or an input that cannot
//! be read.
//!
//! One module per command (`commands/`), the command line in `args`, input
//! reading in `input`, and the output, colour and exit status in `output`.

mod args;
mod commands;
mod input;
mod output;

use args::Cli;
use clap::Parser;
use output::Ctx;
use spx_schema::diag::Sources;
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
    let mut ctx = Ctx {
        format: cli.format,
        quiet: cli.quiet,
        sources: Sources::new(),
    };
    let result = commands::run(&mut ctx, &cli.command);
    let color = output::use_color(cli.color);
    let mut err = std::io::stderr().lock();
    match result {
        Ok(out) => {
            if !ctx.quiet {
                let _ = output::write_diagnostics(&mut err, &out.warnings, &ctx, color);
            }
            let mut stdout = std::io::stdout().lock();
            if stdout
                .write_all(&out.stdout)
                .and_then(|()| stdout.flush())
                .is_err()
            {
                return ExitCode::from(2);
            }
            ExitCode::SUCCESS
        }
        Err(f) => {
            let mut stdout = std::io::stdout().lock();
            let _ = stdout.write_all(&f.stdout).and_then(|()| stdout.flush());
            let _ = output::write_diagnostics(&mut err, &f.diagnostics, &ctx, color);
            ExitCode::from(f.status)
        }
    }
}
