//! UCI mode (no subcommand).

use anyhow::Result;

pub fn run() -> Result<()> {
    anyhow::bail!("UCI mode is not built yet (issue 4); try `horizon --help`")
}
