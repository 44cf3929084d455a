//! `horizon ablate`: what each search enhancement buys, measured as in Schaeffer's study of
//! combined enhancements (every combination at fixed depths, nodes and time against plain
//! alpha-beta), and `--presearch`: pre-search on against off (Hlynka & Schaeffer).

use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use horizon_chess::epd::{EpdRecord, SkipReason, parse_suite, parse_suite_bytes};
use horizon_chess::{Move, Tablebases};
use horizon_search::driver::MAX_DEPTH;
use horizon_search::{Control, Iteration, Limits, Observer, SearchConfig};
use horizon_uci::options::{self, Kind};

use super::bench::{BENCH_EPD, config_from};
use super::chart::{self, Emphasis, Series};
use super::pool::run_ordered;
use super::progress::Progress;
use super::report::{MarkdownTable, csv_line, human, millis, thousands, write_file};
use super::solve::{Engine, Outcome, solve};

/// Schaeffer's six: transposition table, knowledge heuristic, aspiration, refutation table,
/// killer heuristic, history heuristic.
const SCHAEFFER: &str = "tt,knowledge,aspiration,refutation,killers,history";

/// More than this many enhancements would mean thousands of combinations.
const MAX_ENHANCEMENTS: usize = 10;

/// Where the combinations start from.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Base {
    /// `SearchConfig::bare()`: plain alpha-beta with quiescence.
    Bare,
    /// `SearchConfig::default()` with the chosen enhancements switched off.
    Default,
}

#[derive(Args, Debug)]
pub struct AblateArgs {
    /// EPD suites to search (default: the 48 bench positions).
    pub files: Vec<PathBuf>,
    /// Enhancements to combine, comma-separated: tt (TranspositionTable+TTMove), knowledge,
    /// aspiration, refutation, killers, history, gravity (HistoryWeight gravity against
    /// pow2), any on/off search option (NullMove, LMR, ETC, ...), or `Option=value` for a
    /// numeric or multi-valued one (QSearchMoveLimit=2: 2 against its default); `A+B`
    /// switches on/off options together.
    #[arg(long, value_delimiter = ',', default_value = SCHAEFFER)]
    pub enhancements: Vec<String>,
    /// Depths: a range (`2..6`, `2..=6`) or a list (`2,4,6`).
    #[arg(long, default_value = "2..6")]
    pub depths: String,
    /// Configuration the enhancements are switched on top of (they start off).
    #[arg(long, value_enum)]
    pub base: Option<Base>,
    /// Set a search option in the base, e.g. `--set Quiescence=false` (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
    /// Transposition table in MiB (cleared before each position).
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Searches run at once (node counts do not change; times get noisier).
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Only positions whose id contains this text.
    #[arg(long)]
    pub only: Option<String>,
    /// How many of the best combinations to list and highlight.
    #[arg(long, default_value_t = 3)]
    pub top: usize,
    /// Also write the Markdown report here.
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// Write the measurements as CSV.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Draw nodes against depth per combination as SVG.
    #[arg(long, value_name = "FILE.svg")]
    pub chart: Option<PathBuf>,
    /// Pre-search study instead: each position with pre-search off and on (base: default).
    #[arg(long)]
    pub presearch: bool,
    /// Pre-search study limit: at least N nodes, then finish the iteration.
    #[arg(long, value_name = "N", default_value_t = 200_000)]
    pub min_nodes: u64,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Syzygy tables to probe (directories separated by `:`), e.g. to ablate `Syzygy`.
    #[arg(long, value_name = "DIR")]
    pub syzygy: Option<String>,
}

/// One enhancement: a short code and the on/off options it switches.
#[derive(Clone, Debug)]
struct Enhancement {
    code: String,
    name: String,
    options: Vec<&'static str>,
    /// For a mode of a multi-valued option (`HistoryWeight=gravity`) or a value of a
    /// numeric one (`QSearchMoveLimit=2`): the values that mean on and off. `None`: the
    /// options are on/off checks.
    values: Option<(String, String)>,
}

/// Reads `tt`, `knowledge`, ... or `Option+Option`.
fn enhancement(spec: &str) -> Result<Enhancement> {
    let known: Option<(&str, &str, &[&'static str])> =
        match spec.trim().to_ascii_lowercase().as_str() {
            "tt" | "transpositiontable" => Some((
                "TT",
                "transposition table",
                &["TranspositionTable", "TTMove"],
            )),
            "knowledge" => Some(("KH", "knowledge heuristic", &["Knowledge"])),
            "aspiration" => Some(("AW", "aspiration windows", &["Aspiration"])),
            "refutation" => Some(("RT", "refutation table", &["Refutation"])),
            "killers" | "killer" => Some(("KM", "killer moves", &["Killers"])),
            "history" => Some(("HH", "history heuristic", &["History"])),
            _ => None,
        };
    if let Some((code, name, options)) = known {
        return Ok(Enhancement {
            code: code.to_owned(),
            name: name.to_owned(),
            options: options.to_vec(),
            values: None,
        });
    }
    // Modes of multi-valued options, against the default's value.
    let mode: Option<(&str, &str, &'static str, &'static str, &'static str)> =
        match spec.trim().to_ascii_lowercase().as_str() {
            "gravity" | "historygravity" => Some((
                "HG",
                "history with gravity (bonus and malus)",
                "HistoryWeight",
                "gravity",
                "pow2",
            )),
            _ => None,
        };
    if let Some((code, name, option, on, off)) = mode {
        return Ok(Enhancement {
            code: code.to_owned(),
            name: name.to_owned(),
            options: vec![option],
            values: Some((on.to_owned(), off.to_owned())),
        });
    }
    // `Option=value`: that value against the option's default (0 is off for the numeric
    // switches: `AspirationGrowth`, `QSearchMoveLimit`, `SEEQuietQuadratic`, ...).
    if let Some((name, value)) = spec.split_once('=') {
        let option = options::find(name.trim())
            .with_context(|| format!("unknown option '{}'", name.trim()))?;
        let value = value.trim();
        let default = option.get(&SearchConfig::default());
        option
            .set(&mut SearchConfig::default(), value)
            .map_err(|e| anyhow::anyhow!("{spec}: {e}"))?;
        anyhow::ensure!(
            !value.eq_ignore_ascii_case(&default),
            "{spec}: {value} is already {}'s default",
            option.name
        );
        return Ok(Enhancement {
            code: format!("{}={value}", option.name),
            name: format!("{}: {value} against the default {default}", option.help),
            options: vec![option.name],
            values: Some((value.to_owned(), default)),
        });
    }
    let options = spec
        .split('+')
        .map(|name| {
            let option = options::find(name)
                .with_context(|| format!("unknown enhancement or option '{name}'"))?;
            anyhow::ensure!(
                option.kind == Kind::Check,
                "'{}' is not an on/off option",
                option.name
            );
            Ok(option.name)
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Enhancement {
        code: options.join("+"),
        name: options
            .iter()
            .filter_map(|o| options::find(o).map(|o| o.help))
            .collect::<Vec<_>>()
            .join(" + "),
        options,
        values: None,
    })
}

/// `2..6`, `2..=6` (both inclusive) or `2,4,6`.
fn parse_depths(text: &str) -> Result<Vec<u32>> {
    let bad = || format!("--depths '{text}': expected 2..6 or 2,4,6");
    let mut depths: Vec<u32> = if let Some((a, b)) = text.split_once("..") {
        let a: u32 = a.trim().parse().with_context(bad)?;
        let b: u32 = b.trim().trim_start_matches('=').parse().with_context(bad)?;
        (a..=b).collect()
    } else {
        text.split(',')
            .map(|d| d.trim().parse().with_context(bad))
            .collect::<Result<_>>()?
    };
    depths.sort_unstable();
    depths.dedup();
    anyhow::ensure!(!depths.is_empty(), "{}", bad());
    anyhow::ensure!(
        depths.iter().all(|d| (1..=MAX_DEPTH).contains(d)),
        "depths must be 1 to {MAX_DEPTH}"
    );
    Ok(depths)
}

/// The suite: EPD files, or the bench positions; reports unreadable lines on stderr.
fn load_suite(files: &[PathBuf], only: Option<&str>) -> Result<(String, Vec<EpdRecord>)> {
    let mut records = Vec::new();
    let mut names = Vec::new();
    if files.is_empty() {
        names.push("the bench positions".to_owned());
        records = parse_suite(BENCH_EPD).records;
    }
    for path in files {
        let bytes =
            std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        let suite = parse_suite_bytes(&bytes);
        for skipped in &suite.skipped {
            if let SkipReason::Error(e) = &skipped.reason {
                eprintln!("{}:{}: skipped: {e}", path.display(), skipped.line);
            }
        }
        names.push(path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into(),
        ));
        records.extend(suite.records);
    }
    records.retain(|r| only.is_none_or(|o| r.id.as_deref().unwrap_or("").contains(o)));
    anyhow::ensure!(!records.is_empty(), "no positions to search");
    Ok((names.join(", "), records))
}

pub fn run(args: &AblateArgs) -> Result<()> {
    anyhow::ensure!((1..=256).contains(&args.jobs), "jobs must be 1 to 256");
    anyhow::ensure!(args.hash >= 1, "hash must be at least 1 MiB");
    let (suite_name, records) = load_suite(&args.files, args.only.as_deref())?;
    let tablebases = super::epd::open_tablebases(args.syzygy.as_deref())?;
    if args.presearch {
        presearch_study(args, &suite_name, &records, tablebases)
    } else {
        combinations_study(args, &suite_name, &records, tablebases)
    }
}

/// Totals over the suite for one combination at one depth.
#[derive(Clone, Copy, Debug, Default)]
struct Cell {
    nodes: u64,
    time: Duration,
}

/// Records when each iteration ended and the nodes by then.
#[derive(Default)]
struct DepthClock {
    ends: Vec<(u32, u64, Duration)>,
}

impl Observer<Move> for DepthClock {
    fn iteration(&mut self, report: &Iteration<'_, Move>) -> Control {
        if report.multipv == 1 {
            self.ends.push((report.depth, report.nodes, report.elapsed));
        }
        Control::Continue
    }
}

/// One combination: which enhancements are on (bit i: enhancement i).
struct Combination {
    mask: u32,
    label: String,
    cells: Vec<Cell>,
}

fn combination_label(mask: u32, enhancements: &[Enhancement]) -> String {
    if mask == 0 {
        return "none".to_owned();
    }
    enhancements
        .iter()
        .enumerate()
        .filter(|(i, _)| mask & (1 << i) != 0)
        .map(|(_, e)| e.code.as_str())
        .collect::<Vec<_>>()
        .join("+")
}

/// The base with every enhancement of the study off, then those of `mask` on.
fn combination_config(
    base: &SearchConfig,
    enhancements: &[Enhancement],
    mask: u32,
) -> Result<SearchConfig> {
    let mut config = base.clone();
    for (i, e) in enhancements.iter().enumerate() {
        let on = mask & (1 << i) != 0;
        for option in &e.options {
            let value = match &e.values {
                Some((on_value, off_value)) => (if on { on_value } else { off_value }).clone(),
                None => on.to_string(),
            };
            options::apply_assignment(&mut config, &format!("{option}={value}"))?;
        }
    }
    Ok(config)
}

fn combinations_study(
    args: &AblateArgs,
    suite_name: &str,
    records: &[EpdRecord],
    tablebases: Option<Arc<Tablebases>>,
) -> Result<()> {
    let enhancements = args
        .enhancements
        .iter()
        .map(|s| enhancement(s))
        .collect::<Result<Vec<_>>>()?;
    anyhow::ensure!(
        (1..=MAX_ENHANCEMENTS).contains(&enhancements.len()),
        "choose 1 to {MAX_ENHANCEMENTS} enhancements"
    );
    let depths = parse_depths(&args.depths)?;
    let max_depth = depths.iter().copied().max().unwrap_or(1);
    let base_kind = args.base.unwrap_or(Base::Bare);
    let base = config_from(base_kind == Base::Bare, &args.set)?;
    // Ordered by the number of enhancements on, then as listed, so the table reads from
    // plain alpha-beta down to everything on.
    let mut masks: Vec<u32> = (0..1u32 << enhancements.len()).collect();
    masks.sort_by_key(|m| (m.count_ones(), std::cmp::Reverse(m.reverse_bits())));
    let configs = masks
        .iter()
        .map(|&m| combination_config(&base, &enhancements, m))
        .collect::<Result<Vec<_>>>()?;

    let positions: Vec<_> = records.iter().map(EpdRecord::position).collect();
    let per_combination = positions.len();
    let units = masks.len() * per_combination;
    let progress = Progress::new(units, args.quiet);
    let limits = Limits::depth(max_depth);
    let mut combinations: Vec<Combination> = masks
        .iter()
        .map(|&mask| Combination {
            mask,
            label: combination_label(mask, &enhancements),
            cells: vec![Cell::default(); depths.len()],
        })
        .collect();
    run_ordered(
        units,
        args.jobs,
        || Engine::new(base.clone(), args.hash, 1).with_tablebases(tablebases.clone()),
        |engine, i| {
            engine.set_config(configs[i / per_combination].clone());
            let mut clock = DepthClock::default();
            let result = engine.search_fresh(&positions[i % per_combination], &limits, &mut clock);
            let final_end = (result.depth, result.stats.total_nodes(), result.elapsed);
            // Nodes and time when each asked depth was complete: the first iteration that
            // reached it (a search that ended sooner, e.g. with no legal move, counts its
            // final figures).
            depths
                .iter()
                .map(|&d| {
                    let (_, nodes, time) = clock
                        .ends
                        .iter()
                        .find(|(depth, _, _)| *depth >= d)
                        .copied()
                        .unwrap_or(final_end);
                    Cell { nodes, time }
                })
                .collect::<Vec<_>>()
        },
        |i, cells| {
            let combination = &mut combinations[i / per_combination];
            for (total, cell) in combination.cells.iter_mut().zip(cells) {
                total.nodes += cell.nodes;
                total.time += cell.time;
            }
            progress.inc();
            progress.set_message(combination.label.clone());
        },
    )?;
    progress.finish();

    let study = Study {
        suite_name,
        positions: per_combination,
        base: base_kind,
        set: &args.set,
        hash: args.hash,
        enhancements: &enhancements,
        depths: &depths,
        combinations: &combinations,
        top: args.top,
    };
    let markdown = study.markdown();
    print!("{markdown}");
    if let Some(path) = &args.markdown {
        write_file(path, &markdown)?;
    }
    if let Some(path) = &args.csv {
        write_file(path, &study.csv())?;
    }
    if let Some(path) = &args.chart {
        study.chart(path)?;
    }
    Ok(())
}

/// The measurements of a combinations study and how they are reported.
struct Study<'a> {
    suite_name: &'a str,
    positions: usize,
    base: Base,
    set: &'a [String],
    hash: usize,
    enhancements: &'a [Enhancement],
    depths: &'a [u32],
    combinations: &'a [Combination],
    top: usize,
}

impl Study<'_> {
    fn baseline(&self) -> &Combination {
        // Mask 0 sorts first.
        &self.combinations[0]
    }

    fn all_on(&self) -> Option<&Combination> {
        let all = (1u32 << self.enhancements.len()) - 1;
        self.combinations.iter().find(|c| c.mask == all)
    }

    /// Combinations by nodes at the deepest depth, fewest first (baseline excluded).
    fn ranking(&self) -> Vec<&Combination> {
        let last = self.depths.len() - 1;
        let mut ranked: Vec<&Combination> =
            self.combinations.iter().filter(|c| c.mask != 0).collect();
        ranked.sort_by_key(|c| (c.cells[last].nodes, c.mask));
        ranked
    }

    fn base_text(&self) -> String {
        let base = match self.base {
            Base::Bare => "plain alpha-beta (`SearchConfig::bare()`)",
            Base::Default => "the default configuration with these enhancements off",
        };
        if self.set.is_empty() {
            base.to_owned()
        } else {
            format!("{base} with {}", self.set.join(" "))
        }
    }

    fn markdown(&self) -> String {
        let mut out = String::new();
        let last = self.depths.len() - 1;
        let deepest = self.depths[last];
        let base = self.baseline();
        let _ = writeln!(
            out,
            "## Ablation: {} combinations\n",
            self.combinations.len()
        );
        let _ = writeln!(
            out,
            "Suite: {} ({} positions). Base: {}. Depths {}; one thread, {} MiB table cleared \
             before each position, deterministic. Each cell: nodes to complete the depth (main \
             and quiescence, iterative deepening included), summed over the suite, and in \
             brackets the percentage of the baseline's nodes.\n",
            self.suite_name,
            self.positions,
            self.base_text(),
            depth_list(self.depths),
            self.hash
        );
        let legend: Vec<String> = self
            .enhancements
            .iter()
            .map(|e| format!("{} = {} ({})", e.code, e.name, e.options.join(", ")))
            .collect();
        let _ = writeln!(out, "Codes: {}.\n", legend.join("; "));

        let mut columns: Vec<(String, bool)> = vec![("combination".into(), false)];
        columns.extend(self.depths.iter().map(|d| (format!("depth {d}"), true)));
        columns.push((format!("node speedup d{deepest}"), true));
        let titles: Vec<(&str, bool)> = columns.iter().map(|(t, r)| (t.as_str(), *r)).collect();
        let mut table = MarkdownTable::new(&titles);
        for c in self.combinations {
            let mut row = vec![row_label(c)];
            for (i, cell) in c.cells.iter().enumerate() {
                if c.mask == 0 {
                    row.push(thousands(cell.nodes));
                } else {
                    row.push(format!(
                        "{} ({})",
                        thousands(cell.nodes),
                        percent(cell.nodes, base.cells[i].nodes)
                    ));
                }
            }
            row.push(format!(
                "{:.2}x",
                base.cells[last].nodes as f64 / c.cells[last].nodes.max(1) as f64
            ));
            table.row(row);
        }
        out.push_str(&table.render());

        let _ = writeln!(
            out,
            "\n### Time per depth\n\nSearch time to complete each depth, summed over the suite, \
             and in brackets the speedup over the baseline (its time divided by this one's). \
             Times vary from run to run and with the machine's load; node counts do not.\n"
        );
        let mut columns: Vec<(String, bool)> = vec![("combination".into(), false)];
        columns.extend(self.depths.iter().map(|d| (format!("depth {d}"), true)));
        let titles: Vec<(&str, bool)> = columns.iter().map(|(t, r)| (t.as_str(), *r)).collect();
        let mut times = MarkdownTable::new(&titles);
        for c in self.combinations {
            let mut row = vec![row_label(c)];
            for (i, cell) in c.cells.iter().enumerate() {
                if c.mask == 0 {
                    row.push(human(cell.time));
                } else {
                    row.push(format!(
                        "{} ({:.2}x)",
                        human(cell.time),
                        base.cells[i].time.as_secs_f64() / cell.time.as_secs_f64().max(1e-9)
                    ));
                }
            }
            times.row(row);
        }
        out.push_str(&times.render());

        let _ = writeln!(out, "\n### Best combinations at depth {deepest}\n");
        let mut best = MarkdownTable::new(&[
            ("rank", true),
            ("combination", false),
            ("nodes", true),
            ("node reduction", true),
            ("time", true),
            ("time speedup", true),
        ]);
        for (rank, c) in self.ranking().iter().take(self.top.max(1)).enumerate() {
            let (nodes, base_nodes) = (c.cells[last].nodes, base.cells[last].nodes);
            best.row(vec![
                (rank + 1).to_string(),
                c.label.clone(),
                thousands(nodes),
                format!(
                    "{:.1}% ({:.1}x fewer)",
                    100.0 * (1.0 - nodes as f64 / base_nodes.max(1) as f64),
                    base_nodes as f64 / nodes.max(1) as f64
                ),
                human(c.cells[last].time),
                format!(
                    "{:.2}x",
                    base.cells[last].time.as_secs_f64()
                        / c.cells[last].time.as_secs_f64().max(1e-9)
                ),
            ]);
        }
        out.push_str(&best.render());

        if self.enhancements.len() > 1 {
            let _ = writeln!(
                out,
                "\n### Each enhancement at depth {deepest}: alone, and removed from all\n"
            );
            let mut each = MarkdownTable::new(&[
                ("enhancement", false),
                ("alone: % of alpha-beta", true),
                ("all on but this: % of all on", true),
            ]);
            let all = self.all_on();
            for (i, e) in self.enhancements.iter().enumerate() {
                let alone = self.combinations.iter().find(|c| c.mask == 1 << i);
                let without = all.and_then(|a| {
                    self.combinations
                        .iter()
                        .find(|c| c.mask == a.mask & !(1 << i))
                });
                each.row(vec![
                    e.code.clone(),
                    alone.map_or("-".into(), |c| {
                        percent(c.cells[last].nodes, base.cells[last].nodes)
                    }),
                    match (without, all) {
                        (Some(w), Some(a)) => percent(w.cells[last].nodes, a.cells[last].nodes),
                        _ => "-".into(),
                    },
                ]);
            }
            out.push_str(&each.render());
        }
        out
    }

    fn csv(&self) -> String {
        let base = self.baseline();
        let mut header = vec!["combination".to_owned(), "mask".to_owned()];
        header.extend(self.enhancements.iter().map(|e| e.code.clone()));
        header.extend(
            [
                "depth",
                "nodes",
                "time_ms",
                "nodes_pct_of_baseline",
                "node_speedup",
                "time_speedup",
            ]
            .map(str::to_owned),
        );
        let mut out = csv_line(&header);
        for c in self.combinations {
            for (i, (&depth, cell)) in self.depths.iter().zip(&c.cells).enumerate() {
                let mut row = vec![c.label.clone(), c.mask.to_string()];
                row.extend((0..self.enhancements.len()).map(|b| ((c.mask >> b) & 1).to_string()));
                let b = base.cells[i];
                row.extend([
                    depth.to_string(),
                    cell.nodes.to_string(),
                    format!("{:.3}", millis(cell.time)),
                    format!("{:.3}", 100.0 * cell.nodes as f64 / b.nodes.max(1) as f64),
                    format!("{:.4}", b.nodes as f64 / cell.nodes.max(1) as f64),
                    format!(
                        "{:.4}",
                        b.time.as_secs_f64() / cell.time.as_secs_f64().max(1e-9)
                    ),
                ]);
                out.push_str(&csv_line(&row));
            }
        }
        out
    }

    fn chart(&self, path: &std::path::Path) -> Result<()> {
        let ranking = self.ranking();
        let best: Vec<u32> = ranking.iter().take(self.top).map(|c| c.mask).collect();
        let all = self.all_on().map(|c| c.mask);
        let series: Vec<Series> = self
            .combinations
            .iter()
            .map(|c| {
                let emphasis = if c.mask == 0 {
                    Emphasis::Baseline
                } else if let Some(rank) = best.iter().position(|&m| m == c.mask) {
                    Emphasis::Best(rank)
                } else if Some(c.mask) == all {
                    Emphasis::All
                } else {
                    Emphasis::Other
                };
                let label = match emphasis {
                    Emphasis::Baseline => "none (plain alpha-beta)".to_owned(),
                    Emphasis::Best(rank) => format!("#{} {}", rank + 1, c.label),
                    Emphasis::All => format!("all: {}", c.label),
                    Emphasis::Other => c.label.clone(),
                };
                Series {
                    label,
                    points: self
                        .depths
                        .iter()
                        .zip(&c.cells)
                        .map(|(&d, cell)| (d, cell.nodes))
                        .collect(),
                    emphasis,
                }
            })
            .collect();
        let title = format!(
            "Nodes to depth, {} combinations, {} ({} positions)",
            self.combinations.len(),
            self.suite_name,
            self.positions
        );
        chart::nodes_by_depth(path, &title, &series)
    }
}

/// The first column of the tables.
fn row_label(c: &Combination) -> String {
    if c.mask == 0 {
        "none (alpha-beta)".to_owned()
    } else {
        c.label.clone()
    }
}

/// `a` as a percentage of `b`.
fn percent(a: u64, b: u64) -> String {
    format!("{:.1}%", 100.0 * a as f64 / b.max(1) as f64)
}

fn depth_list(depths: &[u32]) -> String {
    let contiguous = depths.windows(2).all(|w| w[1] == w[0] + 1);
    match (depths.first(), depths.last()) {
        (Some(a), Some(b)) if contiguous && a != b => format!("{a}..{b}"),
        _ => depths
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// One position searched with pre-search off and on.
struct Pair<'a> {
    record: &'a EpdRecord,
    off: Outcome,
    on: Outcome,
}

fn presearch_study(
    args: &AblateArgs,
    suite_name: &str,
    records: &[EpdRecord],
    tablebases: Option<Arc<Tablebases>>,
) -> Result<()> {
    let base_kind = args.base.unwrap_or(Base::Default);
    let base = config_from(base_kind == Base::Bare, &args.set)?;
    let off = SearchConfig {
        presearch: false,
        ..base.clone()
    };
    let on = SearchConfig {
        presearch: true,
        ..base.clone()
    };
    let limits = Limits {
        min_nodes: Some(args.min_nodes),
        ..Limits::default()
    };
    let progress = Progress::new(records.len(), args.quiet);
    let mut pairs: Vec<Pair> = Vec::with_capacity(records.len());
    let mut tally = (0usize, 0usize, 0usize);
    run_ordered(
        records.len(),
        args.jobs,
        || Engine::new(off.clone(), args.hash, 1).with_tablebases(tablebases.clone()),
        |engine, i| {
            engine.set_config(off.clone());
            let a = solve(engine, &records[i], &limits);
            engine.set_config(on.clone());
            let b = solve(engine, &records[i], &limits);
            (a, b)
        },
        |i, (a, b)| {
            tally.0 += usize::from(a.solved == Some(true));
            tally.1 += usize::from(b.solved == Some(true));
            tally.2 += usize::from(b.nodes < a.nodes);
            progress.inc();
            progress.set_message(format!(
                "solved off {} on {}, fewer nodes {}/{}",
                tally.0,
                tally.1,
                tally.2,
                i + 1
            ));
            pairs.push(Pair {
                record: &records[i],
                off: a,
                on: b,
            });
        },
    )?;
    progress.finish();

    let settings = format!(
        "PreSearchRisk {}, PreSearchNearRoot {}, PreSearchNearLeaf {}",
        on.presearch_risk,
        on.presearch_near_root
            .map_or_else(|| "unlimited".to_owned(), |n| n.to_string()),
        on.presearch_near_leaf
    );
    let base_text = match base_kind {
        Base::Bare => "plain alpha-beta",
        Base::Default => "the default configuration",
    };
    let sets = if args.set.is_empty() {
        String::new()
    } else {
        format!(" with {}", args.set.join(" "))
    };
    let mut out = String::new();
    let _ = writeln!(out, "## Pre-search on against off\n");
    let _ = writeln!(
        out,
        "Suite: {suite_name} ({} positions). Limit: at least {} nodes, then the iteration is \
         finished (`--min-nodes`). Base: {base_text}{sets}; pre-search: {settings}. One \
         thread, {} MiB table cleared before each search.\n",
        records.len(),
        thousands(args.min_nodes),
        args.hash
    );
    out.push_str(&presearch_markdown(&pairs));
    print!("{out}");
    if let Some(path) = &args.markdown {
        write_file(path, &out)?;
    }
    if let Some(path) = &args.csv {
        write_file(path, &presearch_csv(&pairs))?;
    }
    if args.chart.is_some() {
        eprintln!("--chart draws the combinations study; the pre-search study has no chart");
    }
    Ok(())
}

/// One side of a pair: pre-search on or off.
fn side<'a>(pair: &'a Pair, on: bool) -> &'a Outcome {
    if on { &pair.on } else { &pair.off }
}

fn presearch_markdown(pairs: &[Pair]) -> String {
    let mut out = String::new();
    let sum = |f: fn(&Pair) -> u64| pairs.iter().map(f).sum::<u64>();
    let (off_nodes, on_nodes) = (sum(|p| p.off.nodes), sum(|p| p.on.nodes));
    let solved = |on: bool| {
        pairs
            .iter()
            .filter(|p| side(p, on).solved == Some(true))
            .count()
    };
    let judged = pairs.iter().filter(|p| p.off.solved.is_some()).count();
    let mean_depth = |on: bool| {
        pairs
            .iter()
            .map(|p| f64::from(side(p, on).depth))
            .sum::<f64>()
            / pairs.len().max(1) as f64
    };
    let time = |on: bool| pairs.iter().map(|p| side(p, on).elapsed).sum::<Duration>();
    let mut totals = MarkdownTable::new(&[
        ("", false),
        ("pre-search off", true),
        ("pre-search on", true),
        ("change", true),
    ]);
    totals.row(vec![
        "total nodes".into(),
        thousands(off_nodes),
        thousands(on_nodes),
        signed_percent(on_nodes as f64 / off_nodes.max(1) as f64 - 1.0),
    ]);
    totals.row(vec![
        format!("problems solved (of {judged})"),
        solved(false).to_string(),
        solved(true).to_string(),
        format!("{:+}", solved(true) as i64 - solved(false) as i64),
    ]);
    totals.row(vec![
        "mean final depth".into(),
        format!("{:.2}", mean_depth(false)),
        format!("{:.2}", mean_depth(true)),
        format!("{:+.2}", mean_depth(true) - mean_depth(false)),
    ]);
    totals.row(vec![
        "search time".into(),
        human(time(false)),
        human(time(true)),
        signed_percent(time(true).as_secs_f64() / time(false).as_secs_f64().max(1e-9) - 1.0),
    ]);
    out.push_str(&totals.render());

    // Per position: the change in nodes, as the paper reports it.
    let change = |p: &Pair| p.on.nodes as f64 / p.off.nodes.max(1) as f64 - 1.0;
    let fewer: Vec<f64> = pairs
        .iter()
        .filter(|p| p.on.nodes < p.off.nodes)
        .map(change)
        .collect();
    let more: Vec<f64> = pairs
        .iter()
        .filter(|p| p.on.nodes > p.off.nodes)
        .map(change)
        .collect();
    let same = pairs.len() - fewer.len() - more.len();
    let _ = writeln!(out, "\nNodes per position with pre-search:\n");
    let mut nodes = MarkdownTable::new(&[
        ("", false),
        ("positions", true),
        ("mean change", true),
        ("median change", true),
        ("extreme", true),
    ]);
    for (name, changes, extreme) in [
        (
            "fewer nodes",
            &fewer,
            fewer.iter().copied().fold(0.0, f64::min),
        ),
        (
            "more nodes",
            &more,
            more.iter().copied().fold(0.0, f64::max),
        ),
    ] {
        nodes.row(vec![
            name.into(),
            changes.len().to_string(),
            mean(changes).map_or("-".into(), signed_percent),
            median(changes).map_or("-".into(), signed_percent),
            if changes.is_empty() {
                "-".into()
            } else {
                signed_percent(extreme)
            },
        ]);
    }
    nodes.row(vec![
        "same nodes".into(),
        same.to_string(),
        "-".into(),
        "-".into(),
        "-".into(),
    ]);
    out.push_str(&nodes.render());

    if judged > 0 {
        let ok = |o: &Outcome| o.solved == Some(true);
        let both: Vec<&Pair> = pairs.iter().filter(|p| ok(&p.off) && ok(&p.on)).collect();
        let depth = |o: &Outcome| o.found.map_or(0, |f| f.depth);
        let earlier = both.iter().filter(|p| depth(&p.on) < depth(&p.off)).count();
        let later = both.iter().filter(|p| depth(&p.on) > depth(&p.off)).count();
        let only_on = pairs.iter().filter(|p| ok(&p.on) && !ok(&p.off)).count();
        let only_off = pairs.iter().filter(|p| ok(&p.off) && !ok(&p.on)).count();
        let neither = pairs
            .iter()
            .filter(|p| p.off.solved == Some(false) && p.on.solved == Some(false))
            .count();
        let _ = writeln!(
            out,
            "\nSolutions (the iteration at which the solution was first found and then kept):\n"
        );
        let mut table = MarkdownTable::new(&[("", false), ("positions", true)]);
        for (name, n) in [
            ("solved by both", both.len()),
            ("of which at an earlier iteration with pre-search", earlier),
            ("of which at a later iteration with pre-search", later),
            (
                "of which at the same iteration",
                both.len() - earlier - later,
            ),
            ("solved only with pre-search", only_on),
            ("solved only without pre-search", only_off),
            ("solved by neither", neither),
        ] {
            table.row(vec![name.into(), n.to_string()]);
        }
        out.push_str(&table.render());
    }
    out
}

fn presearch_csv(pairs: &[Pair]) -> String {
    let mut out = csv_line(&[
        "line",
        "id",
        "expected",
        "off_nodes",
        "on_nodes",
        "nodes_change_pct",
        "off_depth",
        "on_depth",
        "off_solved",
        "on_solved",
        "off_found_depth",
        "on_found_depth",
        "off_move",
        "on_move",
        "off_time_ms",
        "on_time_ms",
    ]);
    let opt = |v: Option<String>| v.unwrap_or_default();
    for p in pairs {
        out.push_str(&csv_line(&[
            p.record.line.to_string(),
            opt(p.record.id.clone()),
            p.record.expected(),
            p.off.nodes.to_string(),
            p.on.nodes.to_string(),
            format!(
                "{:.3}",
                100.0 * (p.on.nodes as f64 / p.off.nodes.max(1) as f64 - 1.0)
            ),
            p.off.depth.to_string(),
            p.on.depth.to_string(),
            opt(p.off.solved.map(|s| s.to_string())),
            opt(p.on.solved.map(|s| s.to_string())),
            opt(p.off.found.map(|f| f.depth.to_string())),
            opt(p.on.found.map(|f| f.depth.to_string())),
            opt(p.off.best_move.clone()),
            opt(p.on.best_move.clone()),
            format!("{:.3}", millis(p.off.elapsed)),
            format!("{:.3}", millis(p.on.elapsed)),
        ]));
    }
    out
}

fn signed_percent(x: f64) -> String {
    format!("{:+.1}%", 100.0 * x)
}

fn mean(values: &[f64]) -> Option<f64> {
    (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
}

fn median(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    Some(if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_ranges_and_lists() {
        assert_eq!(parse_depths("2..6").ok(), Some(vec![2, 3, 4, 5, 6]));
        assert_eq!(parse_depths("2..=4").ok(), Some(vec![2, 3, 4]));
        assert_eq!(parse_depths("6,2,4,4").ok(), Some(vec![2, 4, 6]));
        assert!(parse_depths("0..3").is_err());
        assert!(parse_depths("x").is_err());
        assert!(parse_depths("5..2").is_err());
    }

    #[test]
    fn enhancements_by_name_or_option() {
        let tt = enhancement("tt").expect("known");
        assert_eq!(tt.options, ["TranspositionTable", "TTMove"]);
        let pair = enhancement("nullmove+LMR").expect("options");
        assert_eq!(pair.code, "NullMove+LMR");
        assert!(enhancement("AspirationT1").is_err(), "not on/off");
        assert!(enhancement("nonsense").is_err());
    }

    #[test]
    fn numeric_options_switch_between_a_value_and_their_default() {
        let list = [enhancement("qsearchmovelimit=2").expect("a spin option")];
        assert_eq!(list[0].code, "QSearchMoveLimit=2");
        let base = SearchConfig::default();
        let off = combination_config(&base, &list, 0).expect("valid");
        let on = combination_config(&base, &list, 1).expect("valid");
        assert_eq!((off.qs_move_limit, on.qs_move_limit), (0, 2));
        assert!(enhancement("QSearchMoveLimit=0").is_err(), "the default");
        assert!(enhancement("QSearchMoveLimit=x").is_err(), "not a number");
        assert!(
            enhancement("QSearchMoveLimit=100000").is_err(),
            "out of range"
        );
        assert!(enhancement("Nonsense=2").is_err());
        let mode = enhancement("HistoryWeight=pow2").expect("a combo option");
        assert_eq!(mode.values, Some(("pow2".into(), "gravity".into())));
    }

    #[test]
    fn combinations_switch_exactly_their_options() {
        let list: Vec<Enhancement> = ["tt", "killers"]
            .iter()
            .map(|s| enhancement(s).expect("known"))
            .collect();
        let base = SearchConfig::default();
        let none = combination_config(&base, &list, 0).expect("valid");
        assert!(!none.tt && !none.tt_move && !none.killers && none.history);
        let both = combination_config(&SearchConfig::bare(), &list, 0b11).expect("valid");
        assert!(both.tt && both.tt_move && both.killers && !both.history);
        assert_eq!(combination_label(0b10, &list), "KM");
    }

    #[test]
    fn modes_switch_between_their_values() {
        use horizon_search::config::HistoryWeight;
        let list = [enhancement("gravity").expect("known mode")];
        let base = SearchConfig::default();
        let off = combination_config(&base, &list, 0).expect("valid");
        let on = combination_config(&base, &list, 1).expect("valid");
        assert_eq!(off.history_weight, HistoryWeight::PowerOfTwo);
        assert_eq!(on.history_weight, HistoryWeight::Gravity);
        assert_eq!(combination_label(1, &list), "HG");
    }
}
