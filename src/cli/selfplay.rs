//! `horizon selfplay`: fast games of Horizon against itself (a fixed node count per move),
//! several at once, written as labelled positions for `horizon tune`.
//!
//! Each game starts from a line of an openings file or from a few random legal moves, then
//! both sides search a fixed number of nodes per move on one thread with the game's own
//! table (cleared before the game). Games end by the rules or by adjudication. The positions
//! the engine searched are written with the game result, except the first plies after the
//! opening, positions in check, positions whose best move was a capture or promotion, and
//! positions with a mate score: what remains is mostly quiet, as Texel tuning wants it.
//!
//! With `--syzygy` the searches probe the tables, and a game whose capture or pawn move
//! enters them ends there with the tables' result: endings the evaluation misjudges (rook
//! against knight after an underpromotion, say) are labelled with their true outcome instead of
//! a score adjudication.
//!
//! With `--play-in-tables N` such a game goes on for up to N plies inside the tables, its
//! moves chosen by searches that do not probe them, and each position written there carries
//! its own result from the tables (and a score of ±1000 cp or 0 to match): the endings of 3
//! and 4 men that a search without tables meets after a capture, labelled with the truth
//! (the network's training games otherwise stop where these positions begin).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use horizon_chess::packed::{Outcome, PackedBoard};
use horizon_chess::search::search_one;
use horizon_chess::wdl::material;
use horizon_chess::{Color, Move, Position, Tablebases};
use horizon_search::Game as _;
use horizon_search::score::{is_decisive, is_mate};
use horizon_search::{Limits, SearchConfig, Searcher, Silent, TableOutcome};

use super::network::Evaluator;
use super::pool::run_ordered;
use super::progress::Progress;
use super::report::{human, thousands};

/// Searched plies after the opening that are played but not written.
const SKIP_PLIES: usize = 8;
/// Resign adjudication: this score (centipawns, or a mate) ...
const RESIGN_SCORE: i32 = 1000;
/// ... for this many consecutive plies, agreed by both sides.
const RESIGN_PLIES: usize = 4;
/// Draw adjudication: from this game ply on ...
const DRAW_FROM_PLY: usize = 80;
/// ... scores within this many centipawns of zero ...
const DRAW_SCORE: i32 = 10;
/// ... for this many consecutive plies.
const DRAW_PLIES: usize = 10;
/// Longest game (plies from the start position of the game): then a draw.
const MAX_PLIES: usize = 400;
/// The score written with a position labelled by the tables (`--play-in-tables`): a won
/// position +1000 cp for the side to move, a lost one -1000, a draw 0, so that the score's
/// share of a trainer's target says what the result says.
const TABLE_LABEL_SCORE: i32 = 1000;

#[derive(Args, Debug)]
#[command(after_help = "\
Output (--format text): one position per line, `<FEN> | <result>`, the result of the game from \
White's view: 1.0 White won, 0.5 draw, 0.0 Black won. With --format bullet: 32-byte records \
in bullet's `ChessBoard` layout (bulletformat), each with the search's score and the result \
from the side to move's view, for network trainers. Positions are written after the opening and the \
8 plies that follow it, and only where the side to move is not in check, the search's best \
move is neither a capture nor a promotion, and the score is not a mate.

Games end by checkmate, stalemate, threefold repetition, the fifty-move rule or insufficient \
material; by adjudication when both sides see at least 1000 cp (or a mate) for the same side \
for 4 consecutive plies (a win), or when every score is within 10 cp of zero for 10 \
consecutive plies after ply 80 (a draw); and as a draw at ply 400. With --syzygy, a capture or \
pawn move into positions the tables cover ends the game with the tables' result (the \
fifty-move rule applied: a cursed win is a draw), and positions whose score is a table result \
are not written. With --play-in-tables N the game goes on inside the tables for up to N plies \
(no adjudication there), searched without them, and each position written there carries its \
own result by the tables (as if its halfmove clock were 0) and a score of +-1000 cp or 0 to \
match, in check and tactical positions still left out.

Each game uses its own table and random stream (from --seed and the game number), so a run \
is the same for a given seed whatever the number of threads.")]
pub struct SelfplayArgs {
    /// Number of games.
    #[arg(long)]
    pub games: usize,
    /// Nodes per move (a fixed-node search on one thread).
    #[arg(long)]
    pub nodes: u64,
    /// Games played at once, each on its own thread with its own table.
    #[arg(long, default_value_t = 2)]
    pub threads: usize,
    /// Start positions, one FEN or EPD per line (e.g. ../shared/openings/noob-3moves-sample.epd),
    /// taken in an order shuffled by the seed; each is used once before any is used again.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Random legal moves that open each game: from the start position (8 when not given),
    /// or with --openings after each opening (none when not given). Fixed-node games are
    /// deterministic, so an opening used twice repeats its game unless random plies follow.
    #[arg(long, value_name = "N")]
    pub random_plies: Option<usize>,
    /// Seed of the opening order and the random moves.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Transposition table per game thread in MiB (cleared before each game).
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Where the positions go (overwritten).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// `text` (FEN and result per line, for `horizon tune`) or `bullet` (32-byte records with
    /// score and result, for network trainers; see `crates/chess/src/packed.rs`).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Also write every searched position's score for fitting the win/draw/loss model
    /// (`horizon wdl-fit`): CSV `game,ply,material,score,result`, the score (centipawns) and
    /// the result (1, 0.5, 0) from the side to move's view; mate and table scores left out.
    #[arg(long, value_name = "FILE")]
    pub wdl_out: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
    /// Syzygy tables (directories separated by `:`, `;` on Windows): probed by the searches,
    /// and they end a game that enters them with their result.
    #[arg(long, value_name = "DIR")]
    pub syzygy: Option<String>,
    /// With --syzygy: a game that enters the tables goes on for up to this many plies inside
    /// them, its moves searched without the tables, and the positions written there are
    /// labelled by the tables (each its own result, a score of +-1000 cp or 0). The game's
    /// earlier positions keep the result it entered the tables with. 0: the game ends there.
    #[arg(long, value_name = "PLIES", default_value_t = 0)]
    pub play_in_tables: usize,
    #[command(flatten)]
    pub network: super::network::NetworkArgs,
}

/// How `--out` is written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Bullet,
}

/// SplitMix64: a small, fast, seedable generator (the games need no more).
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// Uniform in `[0, 1)`.
    #[cfg(test)]
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Ending {
    Checkmate,
    Stalemate,
    Repetition,
    FiftyMoves,
    InsufficientMaterial,
    ResignAdjudicated,
    DrawAdjudicated,
    /// A capture or pawn move entered the Syzygy tables: their result.
    TableAdjudicated,
    MaxPlies,
}

impl Ending {
    const ALL: [Ending; 9] = [
        Ending::Checkmate,
        Ending::ResignAdjudicated,
        Ending::TableAdjudicated,
        Ending::Stalemate,
        Ending::Repetition,
        Ending::FiftyMoves,
        Ending::InsufficientMaterial,
        Ending::DrawAdjudicated,
        Ending::MaxPlies,
    ];

    fn name(self) -> &'static str {
        match self {
            Ending::Checkmate => "mate",
            Ending::Stalemate => "stalemate",
            Ending::Repetition => "repetition",
            Ending::FiftyMoves => "50 moves",
            Ending::InsufficientMaterial => "material",
            Ending::ResignAdjudicated => "win adjudicated",
            Ending::DrawAdjudicated => "draw adjudicated",
            Ending::TableAdjudicated => "tables",
            Ending::MaxPlies => "ply cap",
        }
    }
}

/// One finished game.
pub struct Game {
    /// White's score: 1.0, 0.5 or 0.0.
    pub result: f64,
    pub ending: Ending,
    pub plies: usize,
    /// FENs to write, each with White's result by the tables where the tables labelled it
    /// (`--play-in-tables`; else the game's result is written).
    pub positions: Vec<(String, Option<f64>)>,
    /// The same positions packed with their scores, the side to move (the record keeps no
    /// side to move; its result is set when written) and the tables' label.
    pub records: Vec<(PackedBoard, Color, Option<f64>)>,
    /// Every searched position with a score that is not a mate or table result.
    pub scored: Vec<ScoredPly>,
}

/// A searched position of a game, for the win/draw/loss model.
#[derive(Clone, Copy, Debug)]
pub struct ScoredPly {
    /// Plies from the game's start position.
    pub ply: usize,
    pub material: u32,
    /// The search's score, side to move.
    pub score: i32,
    pub white_to_move: bool,
}

/// A result as written: `1.0`, `0.5`, `0.0`.
pub fn result_text(result: f64) -> &'static str {
    if result > 0.75 {
        "1.0"
    } else if result < 0.25 {
        "0.0"
    } else {
        "0.5"
    }
}

/// Reads an openings file: one FEN (with or without move counters) or EPD per line; blank
/// lines and `#` comments are skipped. Returns the positions as FENs (a `Position` holds a
/// pawn hash and an evaluation cache, 600 KiB: thousands of them would take GiBs).
pub fn read_openings(path: &Path) -> Result<Vec<String>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut openings = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let position = Position::from_fen(line)
            .or_else(|_| Position::from_epd(line))
            .with_context(|| format!("{}:{}: not a FEN or EPD", path.display(), n + 1))?;
        openings.push(position.fen());
    }
    anyhow::ensure!(!openings.is_empty(), "{}: no positions", path.display());
    Ok(openings)
}

/// A game thread's engine: one searcher with its own table.
pub struct Player {
    searcher: Searcher<Position>,
    limits: Limits,
    /// The network that evaluates instead of the classic evaluation, if any.
    evaluator: Option<Evaluator>,
    /// Syzygy tables: probed by the search and adjudicating the games that enter them.
    tablebases: Option<Arc<Tablebases>>,
    /// Plies played on inside the tables, their positions labelled by them (0: none).
    table_plies: usize,
}

impl Player {
    pub fn new(config: SearchConfig, hash_mib: usize, nodes: u64) -> Player {
        Player {
            searcher: Searcher::standalone(config, hash_mib),
            limits: Limits::nodes(nodes),
            evaluator: None,
            tablebases: None,
            table_plies: 0,
        }
    }

    /// Plays on for up to `plies` inside the tables instead of ending the game there.
    pub fn with_play_in_tables(mut self, plies: usize) -> Player {
        self.table_plies = plies;
        self
    }

    /// Probes `tablebases` in the searches and ends games with their result.
    pub fn with_tablebases(mut self, tablebases: Option<Arc<Tablebases>>) -> Player {
        self.tablebases = tablebases;
        self
    }

    /// Evaluates with `evaluator`'s network (or the classic evaluation with `None`).
    pub fn with_evaluator(mut self, evaluator: Option<Evaluator>) -> Player {
        self.evaluator = evaluator;
        self
    }

    /// Plays one game from `start` (already after the opening).
    pub fn play(&mut self, start: &Position) -> Game {
        self.searcher.table().clear();
        self.searcher.control().reset();
        self.searcher.clear();
        let mut pos = start.clone();
        if let Some(evaluator) = &self.evaluator {
            evaluator.install(&mut pos);
        }
        pos.set_tablebases(self.tablebases.clone());
        let mut positions = Vec::new();
        let mut records = Vec::new();
        let mut scored = Vec::new();
        let mut searched = 0usize;
        let (mut white_winning, mut black_winning, mut level) = (0usize, 0usize, 0usize);
        let mut plies = 0usize;
        // White's result where the game entered the tables and played on inside them, and
        // the plies played there.
        let mut entered: Option<f64> = None;
        let mut table_plies = 0usize;
        let (result, ending) = loop {
            if let Some(end) = rules_ending(&pos) {
                break entered.map_or(end, |r| (r, Ending::TableAdjudicated));
            }
            if entered.is_none()
                && let Some(white_result) = table_result(&pos)
            {
                if self.table_plies == 0 {
                    break (white_result, Ending::TableAdjudicated);
                }
                entered = Some(white_result);
                // The searches inside play without the tables, as a search meets these
                // endings when it has none.
                pos.set_tablebases(None);
            }
            if let Some(white_result) = entered
                && table_plies >= self.table_plies
            {
                break (white_result, Ending::TableAdjudicated);
            }
            if plies >= MAX_PLIES {
                break entered.map_or((0.5, Ending::MaxPlies), |r| (r, Ending::TableAdjudicated));
            }
            let outcome = search_one(&mut self.searcher, &mut pos, &self.limits, &mut Silent);
            let Some(best) = outcome.best_move else {
                // Only when there is no legal move, which the rules caught above.
                break (0.5, Ending::Stalemate);
            };
            let score = outcome.score;
            let mate = is_mate(score);
            let white_score = if pos.turn() == Color::White {
                score
            } else {
                -score
            };
            if entered.is_some() {
                // Inside the tables: the position's own result labels it, whatever the search
                // without them thought.
                if !pos.in_check()
                    && !is_tactical(best)
                    && let Some(label) = self.label_by_tables(&pos)
                {
                    positions.push((pos.fen(), Some(label.white_result)));
                    if let Ok(record) = PackedBoard::new(pos.chess(), label.score, Outcome::Draw) {
                        records.push((record, pos.turn(), Some(label.white_result)));
                    }
                }
            } else if searched >= SKIP_PLIES
                && !pos.in_check()
                && !is_tactical(best)
                && !is_decisive(score)
            {
                // Table results are left out like mates: their scores are not evaluations.
                positions.push((pos.fen(), None));
                // A legal position always packs (32 pieces at most, both kings).
                if let Ok(record) = PackedBoard::new(pos.chess(), score, Outcome::Draw) {
                    records.push((record, pos.turn(), None));
                }
            }
            // Inside the tables the game's result need not be the position's: not for the fit.
            if !is_decisive(score) && entered.is_none() {
                scored.push(ScoredPly {
                    ply: plies,
                    material: material(pos.chess()),
                    score,
                    white_to_move: pos.turn() == Color::White,
                });
            }
            searched += 1;
            // Resignation needs both sides' searches to agree: consecutive plies.
            if white_score >= RESIGN_SCORE || (mate && white_score > 0) {
                white_winning += 1;
                black_winning = 0;
            } else if white_score <= -RESIGN_SCORE || (mate && white_score < 0) {
                black_winning += 1;
                white_winning = 0;
            } else {
                white_winning = 0;
                black_winning = 0;
            }
            level = if white_score.abs() <= DRAW_SCORE {
                level + 1
            } else {
                0
            };
            pos.play(best);
            plies += 1;
            if entered.is_some() {
                // No adjudication inside the tables: their result is known.
                table_plies += 1;
                continue;
            }
            if white_winning >= RESIGN_PLIES {
                break (1.0, Ending::ResignAdjudicated);
            }
            if black_winning >= RESIGN_PLIES {
                break (0.0, Ending::ResignAdjudicated);
            }
            if plies >= DRAW_FROM_PLY && level >= DRAW_PLIES {
                break (0.5, Ending::DrawAdjudicated);
            }
        };
        Game {
            result,
            ending,
            plies,
            positions,
            records,
            scored,
        }
    }
}

/// A position's label by the tables (`--play-in-tables`).
struct TableLabel {
    /// White's result: 1.0, 0.5 or 0.0.
    white_result: f64,
    /// Side to move's score to write: [`TABLE_LABEL_SCORE`], 0 or its negation.
    score: i32,
}

impl Player {
    /// The tables' result of `pos` as if its halfmove clock were 0 (the evaluation does not
    /// see the clock; a cursed win is a draw, as the fifty-move rule makes it); `None` when
    /// the tables do not cover it.
    fn label_by_tables(&self, pos: &Position) -> Option<TableLabel> {
        let outcome = self.tablebases.as_ref()?.probe_after_zeroing(pos.chess())?;
        let (mover, score) = match outcome {
            TableOutcome::Win => (1.0, TABLE_LABEL_SCORE),
            TableOutcome::Draw => (0.5, 0),
            TableOutcome::Loss => (0.0, -TABLE_LABEL_SCORE),
        };
        let white_result = if pos.turn() == Color::White {
            mover
        } else {
            1.0 - mover
        };
        Some(TableLabel {
            white_result,
            score,
        })
    }
}

/// White's result by the tables the position carries (only with `--syzygy`), when a capture
/// or pawn move (or the start) has just brought the game into them: the search's own probe,
/// exact under the fifty-move rule because the clock is 0.
fn table_result(pos: &Position) -> Option<f64> {
    let mover = match pos.table_outcome()? {
        TableOutcome::Win => 1.0,
        TableOutcome::Draw => 0.5,
        TableOutcome::Loss => 0.0,
    };
    Some(if pos.turn() == Color::White {
        mover
    } else {
        1.0 - mover
    })
}

/// The game's scored positions as `game,ply,material,score,result` lines.
fn write_scored(out: &mut impl Write, number: usize, game: &Game) -> std::io::Result<()> {
    for p in &game.scored {
        let result = if p.white_to_move {
            game.result
        } else {
            1.0 - game.result
        };
        writeln!(
            out,
            "{number},{},{},{},{}",
            p.ply,
            p.material,
            p.score,
            result_text(result).trim_end_matches(".0")
        )?;
    }
    Ok(())
}

/// The game's result (White's score) for `mover`.
fn outcome_for_mover(white_result: f64, mover: Color) -> Outcome {
    let mover_score = if mover == Color::White {
        white_result
    } else {
        1.0 - white_result
    };
    if mover_score > 0.75 {
        Outcome::Win
    } else if mover_score < 0.25 {
        Outcome::Loss
    } else {
        Outcome::Draw
    }
}

fn is_tactical(m: Move) -> bool {
    m.is_capture() || m.is_promotion()
}

/// The game's end by the rules, if it is over: (White's score, why).
pub fn rules_ending(pos: &Position) -> Option<(f64, Ending)> {
    if pos.moves().is_empty() {
        return Some(if pos.in_check() {
            let white_mated = pos.turn() == Color::White;
            (if white_mated { 0.0 } else { 1.0 }, Ending::Checkmate)
        } else {
            (0.5, Ending::Stalemate)
        });
    }
    if pos.is_insufficient_material() {
        return Some((0.5, Ending::InsufficientMaterial));
    }
    if pos.is_fifty_move_draw() {
        return Some((0.5, Ending::FiftyMoves));
    }
    // Two earlier occurrences: the third time.
    if pos.repetitions() >= 2 {
        return Some((0.5, Ending::Repetition));
    }
    None
}

/// `plies` random legal moves from the start position, not ending the game; retried with
/// the next random numbers when they do.
pub fn random_opening(rng: &mut SplitMix64, plies: usize) -> Position {
    random_plies_from(&Position::startpos(), rng, plies)
}

/// `plies` random legal moves from `start`, not ending the game; retried with the next
/// random numbers when they do (`start` itself when every try does, or after 100 tries).
pub fn random_plies_from(start: &Position, rng: &mut SplitMix64, plies: usize) -> Position {
    if plies == 0 {
        return start.clone();
    }
    for _ in 0..100 {
        let mut pos = start.clone();
        let mut ended = false;
        for _ in 0..plies {
            let moves = pos.moves();
            if moves.is_empty() {
                ended = true;
                break;
            }
            let m = moves[rng.below(moves.len())];
            pos.play(m);
        }
        if !ended && rules_ending(&pos).is_none() {
            // A fresh position: the game's history starts here.
            let fresh = Position::from_fen(&pos.fen());
            return fresh.unwrap_or(pos);
        }
    }
    start.clone()
}

/// Random plies from the start position when neither --openings nor --random-plies is given.
const DEFAULT_RANDOM_PLIES: usize = 8;

/// Mixes the seed and the game number into a game's random stream.
fn game_rng(seed: u64, game: usize) -> SplitMix64 {
    let mut mix = SplitMix64::new(seed ^ (game as u64).wrapping_mul(0xD1B5_4A32_D192_ED03));
    SplitMix64::new(mix.next_u64())
}

pub fn run(args: &SelfplayArgs) -> Result<()> {
    anyhow::ensure!(args.games >= 1, "--games must be at least 1");
    anyhow::ensure!(args.nodes >= 1, "--nodes must be at least 1");
    anyhow::ensure!(
        (1..=256).contains(&args.threads),
        "--threads must be 1 to 256"
    );
    anyhow::ensure!(args.hash >= 1, "--hash must be at least 1 MiB");
    anyhow::ensure!(
        args.play_in_tables == 0 || args.syzygy.is_some(),
        "--play-in-tables needs --syzygy (the tables label the positions)"
    );
    let evaluator = args.network.load()?;
    let tablebases = super::epd::open_tablebases(args.syzygy.as_deref())?;
    let openings = match &args.openings {
        Some(path) => Some(read_openings(path)?),
        None => None,
    };
    // The order in which openings are used: shuffled by the seed.
    let order: Vec<usize> = openings.as_ref().map_or_else(Vec::new, |o| {
        let mut order: Vec<usize> = (0..o.len()).collect();
        let mut rng = SplitMix64::new(args.seed);
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        order
    });
    let start_of = |game: usize| -> Position {
        match &openings {
            // The FEN was written from a parsed position, so it parses again.
            Some(o) => {
                let opening = Position::from_fen(&o[order[game % order.len()]])
                    .unwrap_or_else(|_| Position::startpos());
                let plies = args.random_plies.unwrap_or(0);
                random_plies_from(&opening, &mut game_rng(args.seed, game), plies)
            }
            None => random_opening(
                &mut game_rng(args.seed, game),
                args.random_plies.unwrap_or(DEFAULT_RANDOM_PLIES),
            ),
        }
    };

    let file =
        File::create(&args.out).with_context(|| format!("cannot write {}", args.out.display()))?;
    let mut out = BufWriter::new(file);
    let mut wdl_out = match &args.wdl_out {
        Some(path) => {
            let file =
                File::create(path).with_context(|| format!("cannot write {}", path.display()))?;
            let mut writer = BufWriter::new(file);
            writeln!(writer, "game,ply,material,score,result")
                .with_context(|| format!("cannot write {}", path.display()))?;
            Some(writer)
        }
        None => None,
    };
    let mut wdl_error: Option<std::io::Error> = None;
    let source = match (&args.openings, &openings) {
        (Some(path), Some(o)) => format!(
            "{} openings from {} and {} random plies",
            o.len(),
            path.display(),
            args.random_plies.unwrap_or(0)
        ),
        _ => format!(
            "{} random plies",
            args.random_plies.unwrap_or(DEFAULT_RANDOM_PLIES)
        ),
    };
    say!(
        "selfplay: {} games, {} nodes per move, {} thread(s), {} MiB hash each, {source}, seed {}",
        args.games,
        args.nodes,
        args.threads,
        args.hash,
        args.seed
    );
    say!(
        "evaluation: {}",
        evaluator
            .as_ref()
            .map_or_else(|| "classic".to_owned(), Evaluator::describe)
    );

    let config = SearchConfig::default();
    let progress = Progress::new(args.games, args.quiet);
    let started = Instant::now();
    let (mut wins, mut draws, mut losses) = (0usize, 0usize, 0usize);
    let mut written = 0usize;
    let mut total_plies = 0usize;
    let mut endings = [0usize; Ending::ALL.len()];
    let mut write_error: Option<std::io::Error> = None;
    run_ordered(
        args.games,
        args.threads,
        || {
            Player::new(config.clone(), args.hash, args.nodes)
                .with_evaluator(evaluator.clone())
                .with_tablebases(tablebases.clone())
                .with_play_in_tables(args.play_in_tables)
        },
        |player, game| player.play(&start_of(game)),
        |number, game| {
            if let Some(writer) = wdl_out.as_mut()
                && wdl_error.is_none()
                && let Err(e) = write_scored(writer, number, &game)
            {
                wdl_error = Some(e);
            }
            match result_text(game.result) {
                "1.0" => wins += 1,
                "0.0" => losses += 1,
                _ => draws += 1,
            }
            total_plies += game.plies;
            if let Some(i) = Ending::ALL.iter().position(|&e| e == game.ending) {
                endings[i] += 1;
            }
            let written_now = match args.format {
                Format::Text => game.positions.iter().try_for_each(|(fen, label)| {
                    let result = result_text(label.unwrap_or(game.result));
                    writeln!(out, "{fen} | {result}")
                }),
                Format::Bullet => game.records.iter().try_for_each(|(record, mover, label)| {
                    let outcome = outcome_for_mover(label.unwrap_or(game.result), *mover);
                    out.write_all(&record.with_outcome(outcome).to_bytes())
                }),
            };
            if write_error.is_none()
                && let Err(e) = written_now
            {
                write_error = Some(e);
            }
            written += game.positions.len();
            progress.inc();
            progress.set_message(format!("+{wins} ={draws} -{losses}, {written} positions"));
        },
    )?;
    progress.finish();
    if let Some(e) = write_error {
        return Err(e).with_context(|| format!("cannot write {}", args.out.display()));
    }
    out.flush()
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    if let (Some(path), Some(writer)) = (&args.wdl_out, wdl_out.as_mut()) {
        if let Some(e) = wdl_error {
            return Err(e).with_context(|| format!("cannot write {}", path.display()));
        }
        writer
            .flush()
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let elapsed = started.elapsed();
    let endings: Vec<String> = Ending::ALL
        .iter()
        .zip(endings)
        .filter(|&(_, n)| n > 0)
        .map(|(e, n)| format!("{} {n}", e.name()))
        .collect();
    say!("endings: {}", endings.join(", "));
    say!(
        "games {}: +{wins} ={draws} -{losses} (White's view), {:.1} plies per game, {} positions \
         written to {}, {:.2} games/s, {}",
        args.games,
        total_plies as f64 / args.games as f64,
        thousands(written as u64),
        args.out.display(),
        args.games as f64 / elapsed.as_secs_f64().max(1e-9),
        human(elapsed)
    );
    Ok(())
}
