//! `horizon data`: the training positions' toolbox. Reads files of bullet `ChessBoard`
//! records (`horizon selfplay --format bullet`), optionally removes repeated positions,
//! shuffles and splits them, writes them as records or as text, and prints a summary
//! (result balance, phase and score histograms) of what it read and of what it wrote.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, ensure};
use clap::{Args, ValueEnum};
use horizon_chess::packed::{PackedBoard, RECORD_BYTES};

use super::network::read_network;
use super::report::thousands;
use super::train::rng::Rng;
use super::train::{data, quantise};

/// The random stream of `--shuffle` (apart from the trainer's streams of the same seed).
const SHUFFLE_STREAM: u64 = 7;

#[derive(Args, Debug)]
#[command(after_help = "\
Steps, in this order: read every --in file (each record checked as `horizon train` checks \
it); --loss-of prints each network's loss on the positions read; --dedup keeps the first \
record of each board (the pieces and their squares from the side to move's view; score and \
result may differ); --shuffle SEED orders them by a seeded \
Fisher-Yates shuffle; --val-out F with --val-fraction moves that share of the positions (the \
first ones, after the shuffle) to F; --out writes the rest. Without --out, only the summary.

Formats: `bullet` writes the 32-byte records unchanged. `text` writes `<FEN> | <result>` lines \
that `horizon tune` reads: the board from the side to move's view with White to move (a record \
keeps no colour, castling rights or en-passant square, so the FEN has none), the result of the \
side to move (1.0, 0.5, 0.0); `--score` adds ` | <score>` (centipawns, side to move).

Example: `horizon data --in out/nnue/d1.bin,out/nnue/d2.bin --dedup --shuffle 1 \
--val-fraction 0.02 --val-out out/nnue/val.bin --out out/nnue/train.bin`.")]
pub struct DataArgs {
    /// Files of records; several separated by commas.
    #[arg(
        long = "in",
        value_name = "FILE[,FILE...]",
        value_delimiter = ',',
        required = true
    )]
    pub inputs: Vec<PathBuf>,
    /// Write the positions (after --dedup, --shuffle and the split) here.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// How --out and --val-out are written.
    #[arg(long, value_enum, default_value_t = DataFormat::Bullet)]
    pub format: DataFormat,
    /// With --format text: add the score after the result.
    #[arg(long)]
    pub score: bool,
    /// Keep only the first record of each board.
    #[arg(long)]
    pub dedup: bool,
    /// Shuffle the positions with this seed.
    #[arg(long, value_name = "SEED")]
    pub shuffle: Option<u64>,
    /// Write --val-fraction of the positions here instead of to --out.
    #[arg(long, value_name = "FILE")]
    pub val_out: Option<PathBuf>,
    /// The share of the positions that --val-out gets.
    #[arg(long, default_value_t = 0.02)]
    pub val_fraction: f64,
    /// Print each network's loss on the positions read: the engine's evaluation as
    /// `sigmoid(cp / 400)` against `horizon train`'s target with --lambda; the same at the
    /// network's best scale (`sigmoid(f · cp / 400)` with the factor f that fits best, which
    /// compares networks of different scales by how well they rank positions); and its mean
    /// absolute evaluation against the searches' scores. Networks trained on other data
    /// compare on the same held-out games.
    #[arg(long, value_name = "NET[,NET...]", value_delimiter = ',')]
    pub loss_of: Vec<PathBuf>,
    /// The search score's weight in the target of --loss-of (as `horizon train --lambda`).
    #[arg(long, default_value_t = 0.75, requires = "loss_of")]
    pub lambda: f64,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum DataFormat {
    /// 32-byte records in bullet's ChessBoard layout.
    Bullet,
    /// `<FEN> | <result>` lines, as `horizon tune` reads them.
    Text,
}

/// Score histogram bounds (centipawns, side to move): a bin is `[bound[i-1], bound[i])`.
const SCORE_BOUNDS: [i32; 8] = [-1000, -500, -200, -50, 50, 200, 500, 1000];

/// What a set of positions holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    pub positions: u64,
    /// Results from the side to move's view: loss, draw, win.
    pub results: [u64; 3],
    /// Positions by pieces on the board (index = piece count, 2..=32).
    pub pieces: [u64; 33],
    /// Positions by score bin (see `SCORE_BOUNDS`).
    pub scores: [u64; SCORE_BOUNDS.len() + 1],
    pub abs_score_sum: u64,
}

impl Default for Summary {
    fn default() -> Summary {
        Summary {
            positions: 0,
            results: [0; 3],
            pieces: [0; 33],
            scores: [0; SCORE_BOUNDS.len() + 1],
            abs_score_sum: 0,
        }
    }
}

impl Summary {
    pub fn of(records: &[PackedBoard]) -> Summary {
        let mut s = Summary::default();
        for r in records {
            s.positions += 1;
            s.results[usize::from(r.result().min(2))] += 1;
            let pieces = r.pieces().count().min(32);
            s.pieces[pieces] += 1;
            let score = i32::from(r.score());
            let bin = SCORE_BOUNDS.iter().take_while(|&&b| score >= b).count();
            s.scores[bin] += 1;
            s.abs_score_sum += u64::from(score.unsigned_abs());
        }
        s
    }

    fn share(&self, n: u64) -> f64 {
        100.0 * n as f64 / self.positions.max(1) as f64
    }

    /// The summary as lines of text.
    pub fn report(&self) -> String {
        let mut out = String::new();
        let [loss, draw, win] = self.results;
        let _ = writeln!(
            out,
            "  positions {}; results for the side to move: win {} ({:.1}%), draw {} ({:.1}%), \
             loss {} ({:.1}%); mean |score| {:.0} cp",
            thousands(self.positions),
            thousands(win),
            self.share(win),
            thousands(draw),
            self.share(draw),
            thousands(loss),
            self.share(loss),
            self.abs_score_sum as f64 / self.positions.max(1) as f64
        );
        let _ = write!(out, "  pieces on the board:");
        for low in (2..=32).step_by(6) {
            let high = (low + 5).min(32);
            let n: u64 = self.pieces[low..=high].iter().sum();
            let _ = write!(out, " {low}-{high}: {:.1}%", self.share(n));
        }
        let _ = writeln!(out);
        let _ = write!(out, "  score (cp):");
        for (i, &n) in self.scores.iter().enumerate() {
            let label = match i {
                0 => format!("< {}", SCORE_BOUNDS[0]),
                i if i == SCORE_BOUNDS.len() => format!(">= {}", SCORE_BOUNDS[i - 1]),
                i => format!("{}..{}", SCORE_BOUNDS[i - 1], SCORE_BOUNDS[i]),
            };
            let _ = write!(out, " [{label}] {:.1}%", self.share(n));
        }
        let _ = writeln!(out);
        out
    }
}

/// Keeps the first record of each board (occupancy and piece codes).
pub fn dedup(records: &mut Vec<PackedBoard>) -> usize {
    let before = records.len();
    let mut seen: HashSet<[u8; 24]> = HashSet::with_capacity(records.len());
    records.retain(|r| {
        let bytes = r.to_bytes();
        let board: [u8; 24] = bytes[..24].try_into().expect("24 of 32 bytes");
        seen.insert(board)
    });
    before - records.len()
}

/// The record as a FEN with the side to move as White, and its result for that side.
pub fn to_text(record: &PackedBoard, with_score: bool) -> String {
    let mut board = [None; 64];
    for (sq, theirs, role) in record.pieces() {
        board[usize::from(sq)] = Some((theirs, role));
    }
    let mut fen = String::with_capacity(90);
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                None => empty += 1,
                Some((theirs, role)) => {
                    if empty > 0 {
                        fen.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    let c = role.char();
                    fen.push(if theirs { c } else { c.to_ascii_uppercase() });
                }
            }
        }
        if empty > 0 {
            fen.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    let result = match record.result() {
        0 => "0.0",
        1 => "0.5",
        _ => "1.0",
    };
    fen.push_str(" w - - 0 1 | ");
    fen.push_str(result);
    if with_score {
        let _ = write!(fen, " | {}", record.score());
    }
    fen
}

fn write_records(
    path: &Path,
    records: &[PackedBoard],
    format: DataFormat,
    score: bool,
) -> Result<()> {
    let file = File::create(path).with_context(|| format!("cannot write {}", path.display()))?;
    let mut out = BufWriter::new(file);
    for r in records {
        match format {
            DataFormat::Bullet => out.write_all(&r.to_bytes()),
            DataFormat::Text => writeln!(out, "{}", to_text(r, score)),
        }
        .with_context(|| format!("cannot write {}", path.display()))?;
    }
    out.flush()
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

pub fn run(args: &DataArgs) -> Result<()> {
    ensure!(
        (0.0..1.0).contains(&args.val_fraction),
        "--val-fraction must be at least 0 and below 1"
    );
    ensure!(
        args.val_out.is_none() || args.out.is_some(),
        "--val-out needs --out (where the other positions go)"
    );
    ensure!(
        !args.score || args.format == DataFormat::Text,
        "--score is for --format text"
    );
    ensure!(
        (0.0..=1.0).contains(&args.lambda),
        "--lambda must be between 0 and 1"
    );
    let dataset = data::load(&args.inputs)?;
    let mut records = dataset.records;
    let names: Vec<String> = args
        .inputs
        .iter()
        .map(|p| p.display().to_string())
        .collect();
    say!(
        "read {} positions ({} bytes each) from {}",
        thousands(records.len() as u64),
        RECORD_BYTES,
        names.join(", ")
    );
    say!("{}", Summary::of(&records).report().trim_end());
    for path in &args.loss_of {
        let network = read_network(path)?;
        let fit = quantise::engine_fit(&network, &records, args.lambda as f32);
        say!(
            "loss of {} (network {:016x}, lambda {}): {:.6}; at its best scale (x{:.3}): \
             {:.6}; mean |eval| {:.0} cp against the searches' mean |score| {:.0} cp, \
             least-squares eval/score {:.3}",
            path.display(),
            network.hash(),
            args.lambda,
            fit.loss,
            fit.fitted_factor,
            fit.fitted_loss,
            fit.mean_abs_eval,
            fit.mean_abs_score,
            fit.slope
        );
    }
    if args.dedup {
        let removed = dedup(&mut records);
        say!(
            "dedup: {} repeated boards removed, {} positions left",
            thousands(removed as u64),
            thousands(records.len() as u64)
        );
    }
    if let Some(seed) = args.shuffle {
        Rng::new(seed, SHUFFLE_STREAM).shuffle(&mut records);
        say!("shuffled with seed {seed}");
    }
    let Some(out) = &args.out else {
        return Ok(());
    };
    let (validation, train) = match &args.val_out {
        Some(_) => records.split_at(data::validation_count(records.len(), args.val_fraction)),
        None => (&records[..0], &records[..]),
    };
    if let Some(val_out) = &args.val_out {
        write_records(val_out, validation, args.format, args.score)?;
        say!(
            "wrote {} positions to {}",
            thousands(validation.len() as u64),
            val_out.display()
        );
        say!("{}", Summary::of(validation).report().trim_end());
    }
    write_records(out, train, args.format, args.score)?;
    say!(
        "wrote {} positions to {}",
        thousands(train.len() as u64),
        out.display()
    );
    say!("{}", Summary::of(train).report().trim_end());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use horizon_chess::packed::Outcome;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position as _};

    fn chess(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .expect("test FEN")
            .into_position(CastlingMode::Standard)
            .expect("legal test position")
    }

    fn record(fen: &str, score: i32, outcome: Outcome) -> PackedBoard {
        PackedBoard::new(&chess(fen), score, outcome).expect("packs")
    }

    #[test]
    fn text_is_the_board_from_the_movers_view_with_its_result() {
        let white = record(
            "r3k2r/pp3ppp/2n5/3q4/8/2N5/PP3PPP/R2QK2R w KQkq - 0 1",
            35,
            Outcome::Win,
        );
        assert_eq!(
            to_text(&white, true),
            "r3k2r/pp3ppp/2n5/3q4/8/2N5/PP3PPP/R2QK2R w - - 0 1 | 1.0 | 35"
        );
        // Black to move: mirrored vertically with the colours swapped, so Black's pieces
        // become the upper-case side at the bottom.
        let black = record("4k3/8/8/8/8/8/q7/4K3 b - - 0 1", -20, Outcome::Loss);
        assert_eq!(
            to_text(&black, false),
            "4k3/Q7/8/8/8/8/8/4K3 w - - 0 1 | 0.0"
        );
        // The text parses back as a legal position.
        let fen = to_text(&black, false);
        let board = fen.split(" | ").next().expect("FEN part");
        assert_eq!(chess(board).board().occupied().count(), 3);
    }

    #[test]
    fn dedup_keeps_the_first_record_of_each_board() {
        let a = record("4k3/8/8/8/8/8/q7/4K3 b - - 0 1", -20, Outcome::Loss);
        let a_again = record("4k3/8/8/8/8/8/q7/4K3 b - - 0 1", 50, Outcome::Draw);
        // The same board seen from White's side to move is another board (colours swap).
        let b = record("4k3/8/8/8/8/8/q7/4K3 w - - 0 1", 10, Outcome::Win);
        let mut records = vec![a, a_again, b, a];
        assert_eq!(dedup(&mut records), 2);
        assert_eq!(records, vec![a, b]);
    }

    #[test]
    fn summary_counts_results_phases_and_scores() {
        let records = [
            record("4k3/8/8/8/8/8/q7/4K3 b - - 0 1", -1200, Outcome::Loss),
            record("4k3/8/8/8/8/8/q7/4K3 w - - 0 1", 0, Outcome::Draw),
            record(
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                30,
                Outcome::Win,
            ),
            record(
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                1000,
                Outcome::Win,
            ),
        ];
        let s = Summary::of(&records);
        assert_eq!(s.positions, 4);
        assert_eq!(s.results, [1, 1, 2]);
        assert_eq!(s.pieces[3], 2);
        assert_eq!(s.pieces[32], 2);
        // Bins: < -1000, ..., [-50, 50) twice (0 and 30), >= 1000.
        assert_eq!(s.scores[0], 1);
        assert_eq!(s.scores[4], 2);
        assert_eq!(s.scores[8], 1);
        assert_eq!(s.abs_score_sum, 2230);
        let report = s.report();
        assert!(report.contains("win 2 (50.0%)"), "{report}");
        assert!(report.contains("[>= 1000] 25.0%"), "{report}");
    }
}
