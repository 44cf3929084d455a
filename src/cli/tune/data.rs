//! Labelled positions for tuning: reading `<FEN> | <result>` lines, keeping the quiet ones
//! (quiescence search finds nothing better than the static evaluation), and storing their
//! evaluation features compactly (a weight index and an 8-bit count per term, about 3
//! bytes per non-zero count), split into training and validation sets.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;

use anyhow::{Context, Result};
use horizon_chess::eval::{self, Features};
use horizon_chess::see::mvv_lva;
use horizon_chess::shakmaty::fen::Fen;
use horizon_chess::shakmaty::{
    CastlingMode, Chess, FromSetup, Position as _, PositionError, Setup,
};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::cli::selfplay::SplitMix64;

/// Features of many positions, flattened.
#[derive(Default)]
pub struct Dataset {
    /// Position `i`'s counts are `starts[i]..starts[i + 1]` of `indices` and `counts`.
    starts: Vec<usize>,
    indices: Vec<u16>,
    /// Counts beyond ±127 are split over several entries of the same index.
    counts: Vec<i8>,
    /// (middlegame, endgame) factors of [`Features::factors`].
    pub factors: Vec<[f64; 2]>,
    /// White's result: 1, 0.5 or 0.
    pub results: Vec<f32>,
}

impl Dataset {
    pub fn len(&self) -> usize {
        self.results.len()
    }

    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    pub fn push(&mut self, features: &Features, result: f32) {
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        for &(index, count) in &features.coeffs {
            let mut rest = i32::from(count);
            while rest != 0 {
                let piece = rest.clamp(-127, 127);
                self.indices.push(index);
                self.counts.push(piece as i8);
                rest -= piece;
            }
        }
        self.starts.push(self.indices.len());
        let (mg, eg) = features.factors();
        self.factors.push([mg, eg]);
        self.results.push(result);
    }

    /// Appends every position of `other`.
    pub fn append(&mut self, other: Dataset) {
        if other.is_empty() {
            return;
        }
        if self.starts.is_empty() {
            self.starts.push(0);
        }
        let base = self.indices.len();
        self.starts
            .extend(other.starts[1..].iter().map(|&s| s + base));
        self.indices.extend(other.indices);
        self.counts.extend(other.counts);
        self.factors.extend(other.factors);
        self.results.extend(other.results);
    }

    /// (weight index, count) of position `i`.
    #[inline]
    pub fn coefficients(&self, i: usize) -> impl Iterator<Item = (usize, i8)> + '_ {
        let range = self.starts[i]..self.starts[i + 1];
        self.indices[range.clone()]
            .iter()
            .zip(&self.counts[range])
            .map(|(&index, &count)| (usize::from(index), count))
    }

    /// Σ count · weight for the middlegame and the endgame halves (flat weights).
    #[inline]
    pub fn sums(&self, i: usize, weights: &[f64]) -> (f64, f64) {
        let (mut mg, mut eg) = (0.0, 0.0);
        for (index, count) in self.coefficients(i) {
            let c = f64::from(count);
            mg += c * weights[2 * index];
            eg += c * weights[2 * index + 1];
        }
        (mg, eg)
    }

    /// White's evaluation of position `i` (as [`Features::white_eval`]).
    #[inline]
    pub fn eval(&self, i: usize, weights: &[f64]) -> f64 {
        let (mg, eg) = self.sums(i, weights);
        let [fm, fe] = self.factors[i];
        mg * fm + eg * fe
    }

    /// For every flat weight, how many positions depend on it (a non-zero count and
    /// factor).
    pub fn occurrences(&self, len: usize) -> Vec<usize> {
        let mut seen = vec![0usize; len];
        for i in 0..self.len() {
            let [fm, fe] = self.factors[i];
            for (index, count) in self.coefficients(i) {
                if count != 0 {
                    seen[2 * index] += usize::from(fm != 0.0);
                    seen[2 * index + 1] += usize::from(fe != 0.0);
                }
            }
        }
        seen
    }

    /// Bytes held (for the report).
    pub fn bytes(&self) -> usize {
        self.starts.len() * size_of::<usize>()
            + self.indices.len() * 3
            + self.factors.len() * size_of::<[f64; 2]>()
            + self.results.len() * size_of::<f32>()
    }
}

/// A result as written by `horizon selfplay` (`1.0`, `0.5`, `0.0`) or as PGN writes it.
pub fn parse_result(text: &str) -> Option<f32> {
    match text
        .trim()
        .trim_matches(|c| c == '[' || c == ']' || c == '"')
    {
        "1.0" | "1" | "1-0" => Some(1.0),
        "0.5" | "1/2-1/2" | "1/2" => Some(0.5),
        "0.0" | "0" | "0-1" => Some(0.0),
        _ => None,
    }
}

/// Splits `<FEN> | <result>` (or `<FEN> [<result>]`) into FEN and result; `None` for blank
/// lines and `#` comments.
pub fn parse_line(line: &str) -> Option<Result<(&str, f32), String>> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    let split = line.rsplit_once('|').or_else(|| {
        let open = line.rfind('[')?;
        Some((&line[..open], &line[open..]))
    });
    Some(match split {
        Some((fen, result)) => match parse_result(result) {
            Some(r) => Ok((fen.trim(), r)),
            None => Err(format!("unknown result {:?}", result.trim())),
        },
        None => Err("no `| result`".to_owned()),
    })
}

/// A FEN read leniently (impossible castling rights or en passant squares dropped).
pub fn parse_fen(fen: &str) -> Option<Chess> {
    let setup: Setup = Fen::from_ascii(fen.as_bytes()).ok()?.into_setup();
    Chess::from_setup(setup, CastlingMode::Standard)
        .or_else(PositionError::ignore_invalid_castling_rights)
        .or_else(PositionError::ignore_invalid_ep_square)
        .ok()
}

/// Scores beyond any evaluation.
const INFINITE: i32 = 32_000;
/// Quiescence nodes per position before it is given up as not quiet.
const NODE_BUDGET: u32 = 50_000;
/// Deepest quiescence ply (captures run out long before).
const MAX_QPLY: u32 = 48;

/// Quiescence search without pruning or table: stand pat, then every capture and promotion
/// in MVV-LVA order (every evasion when in check). `None` when the node budget ran out.
fn quiescence(chess: &Chess, mut alpha: i32, beta: i32, ply: u32, nodes: &mut u32) -> Option<i32> {
    *nodes += 1;
    if *nodes > NODE_BUDGET {
        return None;
    }
    let in_check = chess.is_check();
    let mut moves = chess.legal_moves();
    let mut best = -INFINITE;
    if in_check {
        if moves.is_empty() {
            return Some(-INFINITE + ply as i32);
        }
    } else {
        let stand = eval::evaluate(chess);
        if stand >= beta || ply >= MAX_QPLY {
            return Some(stand);
        }
        alpha = alpha.max(stand);
        best = stand;
        moves.retain(|m| m.is_capture() || m.is_promotion());
    }
    moves.sort_by_key(|m| std::cmp::Reverse(mvv_lva(*m)));
    for m in moves {
        let mut child = chess.clone();
        child.play_unchecked(m);
        let value = -quiescence(&child, -beta, -alpha, ply + 1, nodes)?;
        if value > best {
            best = value;
            if value >= beta {
                break;
            }
            alpha = alpha.max(value);
        }
    }
    Some(best)
}

/// Why a position was not kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Quiet,
    InCheck,
    /// Quiescence search finds a capture or promotion that gains.
    Tactical,
}

/// Whether `chess` is quiet: not in check, and quiescence search finds nothing better
/// than the static evaluation.
pub fn verdict(chess: &Chess) -> Verdict {
    if chess.is_check() {
        return Verdict::InCheck;
    }
    let stand = eval::evaluate(chess);
    let mut nodes = 0;
    // A null window above the static evaluation: only a gaining capture fails high.
    match quiescence(chess, stand, stand + 1, 0, &mut nodes) {
        Some(value) if value <= stand => Verdict::Quiet,
        _ => Verdict::Tactical,
    }
}

/// What loading found.
#[derive(Clone, Debug, Default)]
pub struct LoadStats {
    pub lines: usize,
    pub unreadable: usize,
    pub in_check: usize,
    pub tactical: usize,
    pub by_rule: usize,
    pub train: usize,
    pub validation: usize,
}

impl LoadStats {
    fn add(&mut self, other: &LoadStats) {
        self.lines += other.lines;
        self.unreadable += other.unreadable;
        self.in_check += other.in_check;
        self.tactical += other.tactical;
        self.by_rule += other.by_rule;
        self.train += other.train;
        self.validation += other.validation;
    }

    pub fn kept(&self) -> usize {
        self.train + self.validation
    }
}

/// A line to examine and whether it belongs to the validation set.
struct Pending {
    line: String,
    validation: bool,
}

/// Assigns lines to training or validation: the lines of one game (consecutive lines with
/// the same result and non-decreasing move numbers) go together, and one game in ten,
/// chosen by a hash of the file and game number, is held out. The split depends only on
/// the files.
struct Splitter {
    file: u64,
    game: u64,
    last: Option<(f32, u32)>,
}

impl Splitter {
    fn validation(&mut self, fen: &str, result: f32) -> bool {
        let fullmove = fen
            .split_ascii_whitespace()
            .nth(5)
            .and_then(|n| n.parse::<u32>().ok())
            .unwrap_or(0);
        if let Some((r, m)) = self.last
            && (r != result || fullmove < m)
        {
            self.game += 1;
        }
        self.last = Some((result, fullmove));
        SplitMix64::new((self.file << 40) ^ self.game)
            .next_u64()
            .is_multiple_of(10)
    }
}

/// Examines a batch: quiet positions' features into the training or validation set.
fn examine(batch: &[Pending]) -> (Dataset, Dataset, LoadStats) {
    let mut train = Dataset::default();
    let mut valid = Dataset::default();
    let mut stats = LoadStats::default();
    for pending in batch {
        let Some(Ok((fen, result))) = parse_line(&pending.line) else {
            stats.unreadable += 1;
            continue;
        };
        let Some(chess) = parse_fen(fen) else {
            stats.unreadable += 1;
            continue;
        };
        match verdict(&chess) {
            Verdict::InCheck => stats.in_check += 1,
            Verdict::Tactical => stats.tactical += 1,
            Verdict::Quiet => match eval::features(&chess) {
                None => stats.by_rule += 1,
                Some(features) if pending.validation => {
                    valid.push(&features, result);
                    stats.validation += 1;
                }
                Some(features) => {
                    train.push(&features, result);
                    stats.train += 1;
                }
            },
        }
    }
    (train, valid, stats)
}

/// Lines examined at once (split over the threads).
const BATCH: usize = 1 << 16;

/// Reads every file (at most `max_positions` positions in all), keeps the quiet positions,
/// and returns the training set, the validation set and what was found.
pub fn load(
    paths: &[PathBuf],
    max_positions: Option<usize>,
    threads: usize,
    quiet: bool,
) -> Result<(Dataset, Dataset, LoadStats)> {
    let total_bytes: u64 = paths
        .iter()
        .map(|p| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0))
        .sum();
    let bar = ProgressBar::with_draw_target(
        Some(total_bytes),
        if quiet {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        },
    );
    if let Ok(style) = ProgressStyle::with_template(
        "{elapsed_precise} [{bar:30}] {bytes}/{total_bytes} {msg} ETA {eta_precise}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    let mut train = Dataset::default();
    let mut valid = Dataset::default();
    let mut stats = LoadStats::default();
    let limit = max_positions.unwrap_or(usize::MAX);
    let mut batch: Vec<Pending> = Vec::with_capacity(BATCH);
    let flush = |batch: &mut Vec<Pending>,
                 train: &mut Dataset,
                 valid: &mut Dataset,
                 stats: &mut LoadStats| {
        let chunk = batch.len().div_ceil(threads.max(1)).max(1);
        let parts: Vec<(Dataset, Dataset, LoadStats)> = std::thread::scope(|scope| {
            let handles: Vec<_> = batch
                .chunks(chunk)
                .map(|part| scope.spawn(move || examine(part)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("loader thread"))
                .collect()
        });
        for (t, v, s) in parts {
            train.append(t);
            valid.append(v);
            stats.add(&s);
        }
        batch.clear();
        bar.set_message(format!("{} quiet", stats.kept()));
    };
    'files: for (f, path) in paths.iter().enumerate() {
        let file = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
        let mut splitter = Splitter {
            file: f as u64,
            game: 0,
            last: None,
        };
        let mut reader = BufReader::new(file);
        let mut line = String::new();
        loop {
            line.clear();
            let read = reader
                .read_line(&mut line)
                .with_context(|| format!("cannot read {}", path.display()))?;
            if read == 0 {
                break;
            }
            bar.inc(read as u64);
            let validation = match parse_line(&line) {
                None => continue,
                Some(Err(e)) => {
                    if stats.unreadable < 5 {
                        bar.suspend(|| {
                            eprintln!("{}: skipped: {e}: {}", path.display(), line.trim())
                        });
                    }
                    stats.unreadable += 1;
                    continue;
                }
                Some(Ok((fen, result))) => splitter.validation(fen, result),
            };
            stats.lines += 1;
            batch.push(Pending {
                line: line.clone(),
                validation,
            });
            if batch.len() == BATCH {
                flush(&mut batch, &mut train, &mut valid, &mut stats);
            }
            if stats.lines >= limit {
                break 'files;
            }
        }
    }
    flush(&mut batch, &mut train, &mut valid, &mut stats);
    bar.finish_and_clear();
    Ok((train, valid, stats))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_results_parse() {
        let fen = "8/8/8/8/8/8/8/K6k w - - 0 1";
        assert_eq!(parse_line(&format!("{fen} | 1.0")), Some(Ok((fen, 1.0))));
        assert_eq!(parse_line(&format!("{fen} [0.5]")), Some(Ok((fen, 0.5))));
        assert_eq!(parse_line(&format!("{fen} | 0-1")), Some(Ok((fen, 0.0))));
        assert!(matches!(parse_line(&format!("{fen} | 2")), Some(Err(_))));
        assert_eq!(parse_line("  "), None);
        assert_eq!(parse_line("# comment"), None);
    }

    #[test]
    fn quiet_and_tactical_positions_are_told_apart() {
        let quiet = parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
        assert_eq!(verdict(&quiet.expect("fen")), Verdict::Quiet);
        // White's queen can take an undefended rook.
        let hanging = parse_fen("4k3/8/8/3r4/8/8/3Q4/4K3 w - - 0 1").expect("fen");
        assert_eq!(verdict(&hanging), Verdict::Tactical);
        let check = parse_fen("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1").expect("fen");
        assert_eq!(verdict(&check), Verdict::InCheck);
    }

    #[test]
    fn compact_storage_matches_white_eval() {
        let weights = eval::trace::current_weights();
        let flat: Vec<f64> = weights.iter().flat_map(|&(m, e)| [m, e]).collect();
        let mut data = Dataset::default();
        let fens = [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9",
            "8/5pk1/6p1/8/3R4/6P1/5PK1/3r4 w - - 0 40",
            // Counts beyond ±127 do not occur, but many pawns on one side do.
            "4k3/8/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
        ];
        let mut features = Vec::new();
        for fen in fens {
            let chess = parse_fen(fen).expect("fen");
            let f = eval::features(&chess).expect("linear");
            // The real-valued evaluation is the engine's, up to its integer rounding.
            let sign = if chess.turn().is_white() { 1.0 } else { -1.0 };
            let engine = sign * f64::from(eval::evaluate(&chess));
            assert!((f.white_eval(&weights) - engine).abs() <= 2.0, "{fen}");
            data.push(&f, 0.5);
            features.push(f);
        }
        let mut other = Dataset::default();
        other.push(&features[0], 1.0);
        data.append(other);
        for (i, f) in features.iter().enumerate() {
            assert!((data.eval(i, &flat) - f.white_eval(&weights)).abs() < 1e-9);
        }
        assert!((data.eval(4, &flat) - features[0].white_eval(&weights)).abs() < 1e-9);
        assert_eq!(data.len(), 5);
    }
}
