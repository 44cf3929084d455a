//! `horizon bench [depth]`: a fixed-depth search of the bundled positions, single thread and
//! deterministic; the last line is `<nodes> nodes <nps> nps` (OpenBench's convention).

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::Args;
use horizon_chess::Position;
use horizon_chess::search::search_threads;
use horizon_search::{Limits, SearchConfig, SearchControl, Searcher, Silent, TranspositionTable};
use horizon_uci::options;

/// The bench positions: 12 openings, 24 middlegames, 12 endgames (see `epd/README.md`).
pub const BENCH_EPD: &str = include_str!("../../epd/bench.epd");

/// Depth of `horizon bench` without arguments.
pub const DEFAULT_DEPTH: u32 = 10;

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Search depth per position.
    #[arg(default_value_t = DEFAULT_DEPTH)]
    pub depth: u32,
    /// Transposition table size in MiB (cleared before each position).
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Search threads (1 keeps the node count deterministic).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Start from plain alpha-beta instead of the default configuration.
    #[arg(long)]
    pub bare: bool,
    /// Set a search option, e.g. `--set NullMove=false` (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// Only positions whose id contains this text (e.g. `middlegame`).
    #[arg(long)]
    pub only: Option<String>,
    /// Print the search statistics and the effective branching factor per iteration.
    #[arg(long)]
    pub stats: bool,
    /// Search through the UCI front-end, as games do (`ucinewgame`, `position`, `go depth`):
    /// the same node count, and the speed games get. One thread.
    #[arg(long, conflicts_with_all = ["bare", "stats", "threads"])]
    pub uci: bool,
    #[command(flatten)]
    pub network: super::network::NetworkArgs,
}

/// One thread's sums over the bench positions (Lazy SMP).
#[derive(Clone, Default)]
struct ThreadTotals {
    depth: u64,
    nodes: u64,
    time: Duration,
    chosen: u32,
}

/// A bench position: its id and FEN.
pub struct BenchPosition {
    pub id: String,
    pub position: Position,
}

/// Reads the bundled bench positions.
pub fn positions() -> Result<Vec<BenchPosition>> {
    BENCH_EPD
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            let position =
                Position::from_epd(line).with_context(|| format!("bench line: {line}"))?;
            let id = line
                .split_once("id \"")
                .and_then(|(_, rest)| rest.split_once('"'))
                .map_or_else(|| "?".to_owned(), |(id, _)| id.to_owned());
            Ok(BenchPosition { id, position })
        })
        .collect()
}

/// The bench positions whose id contains `only` (all without it).
pub fn selected_positions(only: Option<&str>) -> Result<Vec<BenchPosition>> {
    let mut positions = positions()?;
    if let Some(only) = only {
        positions.retain(|bench| bench.id.contains(only));
    }
    Ok(positions)
}

/// The configuration from `--bare` and `--set`.
pub fn config_from(bare: bool, assignments: &[String]) -> Result<SearchConfig> {
    let mut config = if bare {
        SearchConfig::bare()
    } else {
        SearchConfig::default()
    };
    for assignment in assignments {
        options::apply_assignment(&mut config, assignment)?;
    }
    if config.kpk_bitbase {
        // Built before any search is timed.
        horizon_chess::eval::kpk::prepare();
    }
    Ok(config)
}

pub fn run(args: &BenchArgs) -> Result<()> {
    anyhow::ensure!((1..=60).contains(&args.depth), "depth must be 1 to 60");
    anyhow::ensure!(
        (1..=256).contains(&args.threads),
        "threads must be 1 to 256"
    );
    if args.uci {
        return super::bench_uci::run(args);
    }
    let config = config_from(args.bare, &args.set)?;
    let evaluator = args.network.load()?;
    if let Some(evaluator) = &evaluator {
        say!("evaluation: {}", evaluator.describe());
    }
    let tt = Arc::new(TranspositionTable::new(args.hash));
    let control = Arc::new(SearchControl::default());
    let mut main = Searcher::<Position>::new(config.clone(), tt.clone(), control.clone());
    let mut helpers: Vec<Searcher<Position>> = (1..args.threads)
        .map(|_| Searcher::new(config.clone(), tt.clone(), control.clone()))
        .collect();
    let limits = Limits::depth(args.depth);
    let mut total_nodes = 0u64;
    let mut total_time = Duration::ZERO;
    let mut stats = horizon_search::SearchStats::default();
    let mut iteration_nodes: Vec<u64> = Vec::new();
    let mut per_thread = vec![ThreadTotals::default(); args.threads];
    let mut positions_searched = 0u32;
    for bench in selected_positions(args.only.as_deref())? {
        tt.clear();
        main.clear();
        helpers.iter_mut().for_each(Searcher::clear);
        control.reset();
        let mut position = bench.position;
        if let Some(evaluator) = &evaluator {
            evaluator.install(&mut position);
        }
        let start = Instant::now();
        let result = search_threads(&mut main, &mut helpers, &mut position, &limits, &mut Silent);
        let elapsed = start.elapsed();
        let nodes = result.stats.total_nodes();
        total_nodes += nodes;
        total_time += elapsed;
        stats += &result.stats;
        positions_searched += 1;
        for (totals, report) in per_thread.iter_mut().zip(&result.threads) {
            totals.depth += u64::from(report.depth);
            totals.nodes += report.nodes;
            totals.time += report.elapsed;
            totals.chosen += u32::from(report.chosen);
        }
        for (i, &(_, n)) in result.stats.iteration_nodes.iter().enumerate() {
            if iteration_nodes.len() <= i {
                iteration_nodes.push(0);
            }
            iteration_nodes[i] += n;
        }
        let best = result
            .best_move
            .map_or_else(|| "(none)".to_owned(), |m| position.uci(m));
        say!(
            "{:<24} {:>6} {:>11} nodes {:>8.0} ms {:>9.0} nps  bestmove {best}",
            bench.id,
            result.score,
            nodes,
            elapsed.as_secs_f64() * 1000.0,
            nodes as f64 / elapsed.as_secs_f64().max(1e-9)
        );
    }
    if args.stats {
        say!("{stats}");
        say!(
            "first-move cutoff rate {:.3}",
            stats.first_move_cutoff_rate()
        );
        // Running totals per iteration, summed over positions: each iteration's own nodes.
        let mut before = 0;
        let mut previous_own = 0u64;
        for (i, &total) in iteration_nodes.iter().enumerate() {
            let own = total - before;
            before = total;
            let ebf = if previous_own > 0 {
                own as f64 / previous_own as f64
            } else {
                0.0
            };
            say!("iteration {:>2}: {:>12} nodes  ebf {:.2}", i + 1, own, ebf);
            previous_own = own;
        }
    }
    if args.threads > 1 {
        for (index, totals) in per_thread.iter().enumerate() {
            say!(
                "thread {index}: mean depth {:.2} nodes {} nps {:.0} line played {}/{positions_searched}",
                totals.depth as f64 / f64::from(positions_searched.max(1)),
                totals.nodes,
                totals.nodes as f64 / totals.time.as_secs_f64().max(1e-9),
                totals.chosen
            );
        }
    }
    let nps = total_nodes as f64 / total_time.as_secs_f64().max(1e-9);
    say!("{total_nodes} nodes {nps:.0} nps");
    Ok(())
}
