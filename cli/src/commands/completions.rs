//! `spx completions <shell>`: a completion script (clap_complete).

use crate::args::Cli;
use crate::output::{CmdResult, Output};
use clap::CommandFactory;

pub fn run(shell: clap_complete::Shell) -> CmdResult {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "spx", &mut out);
    Ok(Output::from(out))
}
