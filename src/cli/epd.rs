//! `horizon epd [FILE ...]`: solve EPD test suites (`bm`, `am`, `dm`) within a limit per
//! position, and report when each solution was found.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::Args;
use horizon_chess::Tablebases;
use horizon_chess::epd::{EpdRecord, EpdSuite, SkipReason, parse_suite, parse_suite_bytes};
use horizon_search::Limits;
use horizon_search::driver::MAX_DEPTH;

use super::bench::config_from;
use super::pool::run_ordered;
use super::progress::Progress;
use super::report::{Json, csv_line, human, millis, thousands, write_file};
use super::solve::{Engine, Outcome, solve};

/// The project's own suite (see `epd/README.md`), built in so `horizon epd` works anywhere.
pub const HORIZON_EPD: &str = include_str!("../../epd/horizon.epd");

/// Per-position limit when none is given.
const DEFAULT_MOVETIME_MS: u64 = 1000;

#[derive(Args, Debug)]
pub struct EpdArgs {
    /// EPD files (default: the built-in suite epd/horizon.epd).
    pub files: Vec<PathBuf>,
    /// Time per position in milliseconds (the default limit: 1000 when no limit is given).
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Node budget per position (exact on one thread).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Depth per position (deterministic on one thread).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Search at least N nodes, then finish the iteration (Hlynka & Schaeffer's method).
    #[arg(long, value_name = "N")]
    pub min_nodes: Option<u64>,
    /// Search threads per position.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table per job in MiB (cleared before each position).
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Positions searched at once, each with its own table (1 for timing).
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Set a search option, e.g. `--set NullMove=false` (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// Start from plain alpha-beta instead of the default configuration.
    #[arg(long)]
    pub bare: bool,
    /// Only positions whose id contains this text.
    #[arg(long)]
    pub only: Option<String>,
    /// Write every position's result as JSON.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write every position's result as CSV.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Print only the summary (and unsolved positions); no progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Syzygy tables to probe (directories separated by `:`, `;` on Windows).
    #[arg(long, value_name = "DIR")]
    pub syzygy: Option<String>,
    #[command(flatten)]
    pub network: super::network::NetworkArgs,
}

/// Opens `--syzygy` tables and says what was found; an error when none is usable.
pub fn open_tablebases(paths: Option<&str>) -> Result<Option<Arc<Tablebases>>> {
    let Some(paths) = paths else {
        return Ok(None);
    };
    let (tables, report) = Tablebases::open(paths);
    for problem in &report.problems {
        eprintln!("syzygy: {problem}");
    }
    let tables = tables.with_context(|| format!("no usable Syzygy tables in {paths}"))?;
    say!("syzygy: {report} in {paths}");
    Ok(Some(Arc::new(tables)))
}

/// A suite to run: its name, where it came from, and what was read.
struct LoadedSuite {
    name: String,
    path: Option<PathBuf>,
    suite: EpdSuite,
}

/// One position's result.
struct Row<'a> {
    suite: usize,
    record: &'a EpdRecord,
    outcome: Outcome,
}

/// Reads the suites named on the command line, or the built-in one; reports unreadable lines
/// on stderr.
fn load(files: &[PathBuf]) -> Result<Vec<LoadedSuite>> {
    if files.is_empty() {
        return Ok(vec![LoadedSuite {
            name: "horizon.epd (built in)".to_owned(),
            path: None,
            suite: parse_suite(HORIZON_EPD),
        }]);
    }
    files
        .iter()
        .map(|path| {
            let bytes =
                std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            Ok(LoadedSuite {
                name: display_name(path),
                path: Some(path.clone()),
                suite: parse_suite_bytes(&bytes),
            })
        })
        .collect()
}

fn display_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into(),
    )
}

/// "300 positions; skipped: 1 blank" for the header and the JSON.
fn load_summary(suite: &EpdSuite) -> String {
    let (blank, comment, error) = suite.skip_counts();
    let mut parts = Vec::new();
    for (n, what) in [
        (blank, "blank"),
        (comment, "comment"),
        (error, "unreadable"),
    ] {
        if n > 0 {
            parts.push(format!("{n} {what}"));
        }
    }
    let skipped = if parts.is_empty() {
        String::new()
    } else {
        format!(", skipped {}", parts.join(", "))
    };
    format!("{} positions{skipped}", suite.records.len())
}

/// The limits from the command line: every one given applies; none given means 1 s.
pub fn limits_from(
    movetime: Option<u64>,
    nodes: Option<u64>,
    depth: Option<u32>,
    min_nodes: Option<u64>,
) -> Result<Limits> {
    let mut limits = Limits::default();
    if let Some(depth) = depth {
        anyhow::ensure!(
            (1..=MAX_DEPTH).contains(&depth),
            "--depth must be 1 to {MAX_DEPTH}"
        );
        limits.depth = Some(depth);
    }
    limits.nodes = nodes;
    limits.min_nodes = min_nodes;
    let movetime = movetime.or_else(|| {
        (depth.is_none() && nodes.is_none() && min_nodes.is_none()).then_some(DEFAULT_MOVETIME_MS)
    });
    if let Some(ms) = movetime {
        anyhow::ensure!(ms > 0, "--movetime must be positive");
        limits.soft_time = Some(Duration::from_millis(ms));
        limits.hard_time = Some(Duration::from_millis(ms));
    }
    Ok(limits)
}

/// The limits as people write them.
pub fn describe_limits(limits: &Limits) -> String {
    let mut parts = Vec::new();
    if let Some(t) = limits.hard_time {
        parts.push(format!("movetime {} ms", t.as_millis()));
    }
    if let Some(n) = limits.nodes {
        parts.push(format!("nodes {n}"));
    }
    if let Some(d) = limits.depth {
        parts.push(format!("depth {d}"));
    }
    if let Some(n) = limits.min_nodes {
        parts.push(format!("min-nodes {n}"));
    }
    parts.join(", ")
}

pub fn run(args: &EpdArgs) -> Result<()> {
    anyhow::ensure!(
        (1..=256).contains(&args.threads),
        "threads must be 1 to 256"
    );
    anyhow::ensure!((1..=256).contains(&args.jobs), "jobs must be 1 to 256");
    anyhow::ensure!(args.hash >= 1, "hash must be at least 1 MiB");
    let config = config_from(args.bare, &args.set)?;
    let limits = limits_from(args.movetime, args.nodes, args.depth, args.min_nodes)?;
    let suites = load(&args.files)?;
    let tablebases = open_tablebases(args.syzygy.as_deref())?;
    let evaluator = args.network.load()?;

    let mut work: Vec<(usize, &EpdRecord)> = Vec::new();
    for (s, loaded) in suites.iter().enumerate() {
        for skipped in &loaded.suite.skipped {
            if let SkipReason::Error(e) = &skipped.reason {
                eprintln!("{}:{}: skipped: {e}", loaded.name, skipped.line);
            }
        }
        for record in &loaded.suite.records {
            for warning in &record.warnings {
                eprintln!("{}:{}: {warning}", loaded.name, record.line);
            }
        }
        let selected = loaded.suite.records.iter().filter(|r| {
            args.only
                .as_ref()
                .is_none_or(|only| r.id.as_deref().unwrap_or("").contains(only.as_str()))
        });
        work.extend(selected.map(|r| (s, r)));
    }
    let setting = if args.set.is_empty() {
        String::new()
    } else {
        format!(" {}", args.set.join(" "))
    };
    say!(
        "{}; {} thread(s), {} MiB hash, {} job(s); {} configuration{setting}",
        describe_limits(&limits),
        args.threads,
        args.hash,
        args.jobs,
        if args.bare { "bare" } else { "default" },
    );
    if let Some(evaluator) = &evaluator {
        say!("evaluation: {}", evaluator.describe());
    }
    for loaded in &suites {
        say!("{}: {}", loaded.name, load_summary(&loaded.suite));
    }
    let id_width = work
        .iter()
        .map(|(_, r)| r.id.as_deref().map_or(9, |id| id.chars().count()))
        .max()
        .unwrap_or(4)
        .clamp(8, 28);
    say!();
    say!(
        "{:<6} {:<id_width$} {:<8} {:<22} {:>14} {:>5} {:>12} {:>9}",
        "result",
        "id",
        "move",
        "expected",
        "found at",
        "depth",
        "nodes",
        "score"
    );

    let progress = Progress::new(work.len(), args.quiet);
    let mut rows: Vec<Row> = Vec::with_capacity(work.len());
    let (mut solved, mut judged) = (0usize, 0usize);
    let started = Instant::now();
    run_ordered(
        work.len(),
        args.jobs,
        || {
            Engine::new(config.clone(), args.hash, args.threads)
                .with_tablebases(tablebases.clone())
                .with_evaluator(evaluator.clone())
        },
        |engine, i| solve(engine, work[i].1, &limits),
        |i, outcome| {
            let (suite, record) = work[i];
            if let Some(ok) = outcome.solved {
                judged += 1;
                solved += usize::from(ok);
            }
            let row = Row {
                suite,
                record,
                outcome,
            };
            if !args.quiet || row.outcome.solved == Some(false) {
                progress.println(&format_row(&row, id_width));
            }
            progress.inc();
            progress.set_message(format!("solved {solved}/{judged}"));
            rows.push(row);
        },
    )?;
    progress.finish();
    let wall = started.elapsed();

    say!();
    for (s, loaded) in suites.iter().enumerate() {
        let mine: Vec<&Row> = rows.iter().filter(|r| r.suite == s).collect();
        say!("{}: {}", loaded.name, Summary::of(&mine).line());
    }
    let all: Vec<&Row> = rows.iter().collect();
    if suites.len() > 1 {
        say!("total: {}", Summary::of(&all).line());
    }
    say!("wall time {}", human(wall));

    if let Some(path) = &args.json {
        write_file(path, &to_json(args, &limits, &suites, &rows).render())?;
    }
    if let Some(path) = &args.csv {
        write_file(path, &to_csv(&suites, &rows))?;
    }
    Ok(())
}

fn format_row(row: &Row, id_width: usize) -> String {
    let o = &row.outcome;
    let result = match o.solved {
        Some(true) => "ok",
        Some(false) => "FAIL",
        None => "-",
    };
    let found = o.found.map_or_else(
        || "-".to_owned(),
        |f| format!("d{} {:.0} ms", f.depth, millis(f.time)),
    );
    let mut expected = row.record.expected();
    if expected.chars().count() > 22 {
        expected = expected.chars().take(21).collect::<String>() + "…";
    }
    // Suites without ids (endgames-tb.epd) are named by line.
    let id = row
        .record
        .id
        .clone()
        .unwrap_or_else(|| format!("line {}", row.record.line));
    let id = if id.chars().count() > id_width {
        id.chars().take(id_width - 1).collect::<String>() + "…"
    } else {
        id
    };
    format!(
        "{result:<6} {id:<id_width$} {:<8} {expected:<22} {found:>14} {:>5} {:>12} {:>9}",
        o.best_move.as_deref().unwrap_or("(none)"),
        o.depth,
        o.nodes,
        o.score_text(),
    )
}

/// Solved count, mean time to solution and nodes over some rows.
struct Summary {
    positions: usize,
    judged: usize,
    solved: usize,
    mean_time: Option<Duration>,
    mean_depth: Option<f64>,
    nodes: u64,
    time: Duration,
    tb_hits: u64,
    tb_roots: usize,
}

impl Summary {
    fn of(rows: &[&Row]) -> Summary {
        let found: Vec<_> = rows.iter().filter_map(|r| r.outcome.found).collect();
        let n = found.len() as u32;
        Summary {
            positions: rows.len(),
            judged: rows.iter().filter(|r| r.outcome.solved.is_some()).count(),
            solved: rows
                .iter()
                .filter(|r| r.outcome.solved == Some(true))
                .count(),
            mean_time: (n > 0).then(|| found.iter().map(|f| f.time).sum::<Duration>() / n),
            mean_depth: (n > 0)
                .then(|| found.iter().map(|f| f64::from(f.depth)).sum::<f64>() / f64::from(n)),
            nodes: rows.iter().map(|r| r.outcome.nodes).sum(),
            time: rows.iter().map(|r| r.outcome.elapsed).sum(),
            tb_hits: rows.iter().map(|r| r.outcome.tb_hits).sum(),
            tb_roots: rows.iter().filter(|r| r.outcome.tb_root).count(),
        }
    }

    fn line(&self) -> String {
        let pct = 100.0 * self.solved as f64 / self.judged.max(1) as f64;
        let unjudged = self.positions - self.judged;
        let unjudged = if unjudged > 0 {
            format!(" ({unjudged} without bm/am/dm)")
        } else {
            String::new()
        };
        let mean = self
            .mean_time
            .map_or_else(|| "-".to_owned(), |t| format!("{:.0} ms", millis(t)));
        let depth = self
            .mean_depth
            .map_or_else(|| "-".to_owned(), |d| format!("{d:.1}"));
        let tables = if self.tb_hits + self.tb_roots as u64 > 0 {
            format!(
                ", tablebase hits {} (roots in the tables {})",
                thousands(self.tb_hits),
                self.tb_roots
            )
        } else {
            String::new()
        };
        format!(
            "solved {}/{} ({pct:.1}%){unjudged}, mean time to solution {mean} (depth {depth}), \
             total nodes {}, search time {}{tables}",
            self.solved,
            self.judged,
            thousands(self.nodes),
            human(self.time)
        )
    }

    fn json(&self) -> Vec<(&'static str, Json)> {
        vec![
            ("positions", Json::UInt(self.positions as u64)),
            ("judged", Json::UInt(self.judged as u64)),
            ("solved", Json::UInt(self.solved as u64)),
            (
                "mean_time_to_solution_ms",
                Json::opt(self.mean_time, |t| Json::Float(millis(t))),
            ),
            (
                "mean_depth_to_solution",
                Json::opt(self.mean_depth, Json::Float),
            ),
            ("total_nodes", Json::UInt(self.nodes)),
            ("search_time_ms", Json::Float(millis(self.time))),
            ("tablebase_hits", Json::UInt(self.tb_hits)),
            ("tablebase_roots", Json::UInt(self.tb_roots as u64)),
        ]
    }
}

/// The per-position fields of JSON and CSV, in order.
const FIELDS: [&str; 15] = [
    "file",
    "line",
    "id",
    "fen",
    "expected",
    "solved",
    "move",
    "found_depth",
    "found_time_ms",
    "found_nodes",
    "depth",
    "nodes",
    "time_ms",
    "score_cp",
    "mate",
];

/// The per-position fields, named as in [`FIELDS`].
fn fields(suites: &[LoadedSuite], row: &Row) -> Vec<(&'static str, Json)> {
    let o = &row.outcome;
    let values = [
        Json::str(suites[row.suite].name.clone()),
        Json::UInt(row.record.line as u64),
        Json::opt(row.record.id.clone(), Json::Str),
        Json::str(row.record.fen.clone()),
        Json::str(row.record.expected()),
        Json::opt(o.solved, Json::Bool),
        Json::opt(o.best_move.clone(), Json::Str),
        Json::opt(o.found, |f| Json::UInt(f.depth.into())),
        Json::opt(o.found, |f| Json::Float(millis(f.time))),
        Json::opt(o.found, |f| Json::UInt(f.nodes)),
        Json::UInt(o.depth.into()),
        Json::UInt(o.nodes),
        Json::Float(millis(o.elapsed)),
        Json::Int(o.score.into()),
        Json::opt(o.mate, |m| Json::Int(m.into())),
    ];
    FIELDS.into_iter().zip(values).collect()
}

fn to_json(args: &EpdArgs, limits: &Limits, suites: &[LoadedSuite], rows: &[Row]) -> Json {
    let files = suites
        .iter()
        .enumerate()
        .map(|(s, loaded)| {
            let mine: Vec<&Row> = rows.iter().filter(|r| r.suite == s).collect();
            let skipped = loaded
                .suite
                .skipped
                .iter()
                .map(|k| {
                    Json::Object(vec![
                        ("line", Json::UInt(k.line as u64)),
                        ("reason", Json::str(k.reason.to_string())),
                    ])
                })
                .collect();
            let mut fields = vec![
                ("file", Json::str(loaded.name.clone())),
                (
                    "path",
                    Json::opt(loaded.path.as_ref(), |p| Json::str(p.display().to_string())),
                ),
                ("records", Json::UInt(loaded.suite.records.len() as u64)),
                ("skipped", Json::Array(skipped)),
            ];
            fields.extend(Summary::of(&mine).json());
            Json::Object(fields)
        })
        .collect();
    let all: Vec<&Row> = rows.iter().collect();
    let limit = |d: Option<Duration>| Json::opt(d, |d| Json::UInt(d.as_millis() as u64));
    Json::Object(vec![
        (
            "limits",
            Json::Object(vec![
                ("movetime_ms", limit(limits.hard_time)),
                ("nodes", Json::opt(limits.nodes, Json::UInt)),
                ("depth", Json::opt(limits.depth, |d| Json::UInt(d.into()))),
                ("min_nodes", Json::opt(limits.min_nodes, Json::UInt)),
            ]),
        ),
        ("threads", Json::UInt(args.threads as u64)),
        ("hash_mib", Json::UInt(args.hash as u64)),
        ("jobs", Json::UInt(args.jobs as u64)),
        ("bare", Json::Bool(args.bare)),
        (
            "set",
            Json::Array(args.set.iter().cloned().map(Json::Str).collect()),
        ),
        ("summary", Json::Object(Summary::of(&all).json())),
        ("files", Json::Array(files)),
        (
            "positions",
            Json::Array(
                rows.iter()
                    .map(|r| Json::Object(fields(suites, r)))
                    .collect(),
            ),
        ),
    ])
}

fn to_csv(suites: &[LoadedSuite], rows: &[Row]) -> String {
    let mut out = csv_line(&FIELDS);
    for row in rows {
        let cells: Vec<String> = fields(suites, row)
            .into_iter()
            .map(|(_, v)| match v {
                Json::Null => String::new(),
                Json::Str(s) => s,
                other => other.render().trim_end().to_owned(),
            })
            .collect();
        out.push_str(&csv_line(&cells));
    }
    out
}
