//! `horizon perft <depth> [--fen FEN] [--compare]`.

use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use horizon_chess::perft::{divide, perft_plain};
use horizon_chess::{Position, START_FEN};

#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Depth in plies.
    pub depth: u32,
    /// Position to start from (default: the start position).
    #[arg(long, default_value = START_FEN)]
    pub fen: String,
    /// Also time a plain shakmaty walk of the same tree (clone, play_unchecked, no keys)
    /// and print the speed ratio.
    #[arg(long)]
    pub compare: bool,
}

fn mnps(nodes: u64, seconds: f64) -> f64 {
    nodes as f64 / seconds.max(1e-9) / 1e6
}

pub fn run(args: &PerftArgs) -> Result<()> {
    let mut pos = Position::from_fen(&args.fen).context("cannot read --fen")?;
    let start = Instant::now();
    let split = divide(&mut pos, args.depth);
    let seconds = start.elapsed().as_secs_f64();
    for (m, nodes) in &split {
        say!("{}: {nodes}", pos.uci(*m));
    }
    let total: u64 = if args.depth == 0 {
        1
    } else {
        split.iter().map(|(_, n)| n).sum()
    };
    // Interior nodes are walked too; the speed counts leaves, as perft figures usually do.
    let horizon_mnps = mnps(total, seconds);
    say!();
    say!("Nodes searched: {total}");
    say!("Time: {seconds:.3} s, {horizon_mnps:.2} Mnps");
    if args.compare {
        let start = Instant::now();
        let plain_total = perft_plain(pos.chess(), args.depth);
        let plain_seconds = start.elapsed().as_secs_f64();
        let plain_mnps = mnps(plain_total, plain_seconds);
        anyhow::ensure!(
            plain_total == total,
            "plain walk counted {plain_total}, not {total}"
        );
        say!("Plain shakmaty walk: {plain_seconds:.3} s, {plain_mnps:.2} Mnps");
        say!("Horizon / plain: {:.2}", horizon_mnps / plain_mnps);
    }
    Ok(())
}
