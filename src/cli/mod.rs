//! Command-line interface: one module per subcommand.

/// `println!` for the tools' reports, ending the program quietly when the reader has gone
/// (`horizon bench | head`), as command-line tools do, instead of panicking.
macro_rules! say {
    () => {
        $crate::cli::print_line(format_args!(""))
    };
    ($($arg:tt)*) => {
        $crate::cli::print_line(format_args!($($arg)*))
    };
}

pub mod ablate;
pub mod bench;
pub mod bench_uci;
pub mod chart;
pub mod data;
pub mod epd;
pub mod network;
pub mod perft;
pub mod pool;
pub mod progress;
pub mod report;
pub mod selfplay;
pub mod solve;
pub mod train;
pub mod tune;
pub mod uci;
pub mod wdl;

use anyhow::Result;
use clap::{Parser, Subcommand};

/// Horizon: a UCI chess engine and a laboratory for alpha-beta search enhancements.
/// Without a subcommand it speaks UCI on stdin/stdout.
#[derive(Parser, Debug)]
#[command(name = "horizon", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count leaf nodes of the legal move tree (move generator test and speed measurement).
    Perft(perft::PerftArgs),
    /// Fixed-depth search of the bundled bench positions; last line `<nodes> nodes <nps> nps`.
    Bench(bench::BenchArgs),
    /// Solve EPD test suites (bm/am/dm) and report when each solution was found.
    Epd(epd::EpdArgs),
    /// Measure what search enhancements buy: every combination at fixed depths, or pre-search
    /// on and off (--presearch).
    Ablate(ablate::AblateArgs),
    /// Play fast fixed-node games against itself and write positions labelled with the
    /// game result (`<FEN> | <result>`), the data `horizon tune` fits.
    Selfplay(selfplay::SelfplayArgs),
    /// Fit the evaluation weights to labelled positions by Texel's method; `--write` them
    /// as the source the build uses.
    Tune(tune::TuneArgs),
    /// Count, de-duplicate, shuffle, split and convert training positions
    /// (`horizon selfplay --format bullet`), with a summary of what they hold.
    Data(data::DataArgs),
    /// Train the neural evaluation (NNUE) on self-play positions
    /// (`horizon selfplay --format bullet`) on all cores, and write it for `--eval-file`.
    Train(train::TrainArgs),
    /// Fit the win/draw/loss model of UCI_ShowWDL to self-play scores
    /// (`horizon selfplay --wdl-out`) and report its log-loss on held-out games.
    WdlFit(wdl::WdlFitArgs),
}

impl Command {
    pub fn run(self) -> Result<()> {
        match self {
            Command::Perft(args) => perft::run(&args),
            Command::Bench(args) => bench::run(&args),
            Command::Epd(args) => epd::run(&args),
            Command::Ablate(args) => ablate::run(&args),
            Command::Selfplay(args) => selfplay::run(&args),
            Command::Tune(args) => tune::run(&args),
            Command::Data(args) => data::run(&args),
            Command::Train(args) => train::run(&args),
            Command::WdlFit(args) => wdl::run(&args),
        }
    }
}

/// Writes one line to stdout for `say!`; a closed pipe ends the program with success, any
/// other write error with a message and failure.
pub fn print_line(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    if let Err(e) = writeln!(out, "{args}") {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("horizon: cannot write to stdout: {e}");
        std::process::exit(1);
    }
}
