//! UCI mode (no subcommand): the protocol on stdin/stdout.

use anyhow::Result;
use horizon_uci::output::Output;

pub fn run() -> Result<()> {
    let stdin = std::io::stdin();
    horizon_uci::run(std::io::BufReader::new(stdin), Output::stdout())?;
    Ok(())
}
