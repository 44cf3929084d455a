//! The `horizon` binary: a UCI engine when started without arguments (as every GUI starts
//! it), and the project's tools as subcommands.

mod cli;

use anyhow::Result;
use clap::Parser;

fn main() -> Result<()> {
    let args = cli::Cli::parse();
    match args.command {
        None => cli::uci::run(),
        Some(command) => command.run(),
    }
}
