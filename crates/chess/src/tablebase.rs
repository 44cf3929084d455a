//! Syzygy endgame tables, read by `shakmaty-syzygy`: opening directories with a report of
//! what was found and refused, WDL probes for the search, and the root filter that keeps only
//! the moves that preserve the table's best outcome under the fifty-move rule.
//!
//! Tables are opened once and shared by every search thread (`Arc<Tablebases>`); a file is
//! read when first probed, small ones into memory (`table_files.rs`). Opening checks each
//! file with a few probes (milliseconds for the 3-4-piece set).

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use horizon_search::TableOutcome;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Move, Position as _};
use shakmaty_syzygy::{AmbiguousWdl, SyzygyError, Tablebase, Wdl};

use crate::encoding::PackedMove;
use crate::position::Position;
use crate::table_files::TableFiles;

/// How many plies past the least DTZ a winning root move may be right after a zeroing
/// move; the allowance shrinks ply by ply with the halfmove clock.
pub const WIN_SLACK_PLIES: u32 = 20;

/// The largest piece count Syzygy tables exist for.
pub const MAX_TABLE_PIECES: usize = 7;

/// What opening a `SyzygyPath` found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TableReport {
    /// WDL (`.rtbw`) and DTZ (`.rtbz`) files accepted.
    pub wdl: usize,
    pub dtz: usize,
    /// The largest piece count among the accepted tables (0: none).
    pub max_pieces: usize,
    /// Directories and files refused, each with the reason.
    pub problems: Vec<String>,
}

impl fmt::Display for TableReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} tables ({} WDL, {} DTZ), up to {} pieces",
            self.wdl + self.dtz,
            self.wdl,
            self.dtz,
            self.max_pieces
        )
    }
}

/// A set of Syzygy tables and the settings that govern probing them.
pub struct Tablebases {
    tables: Tablebase<Chess>,
    max_pieces: usize,
    /// `SyzygyProbeLimit`: the largest piece count probed.
    probe_limit: AtomicUsize,
    /// `Syzygy50MoveRule`: cursed wins and blessed losses count as draws.
    rule50: AtomicBool,
    /// Probes that failed (an unreadable or corrupt table met during a search).
    failures: AtomicU64,
}

impl fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tablebases(up to {} pieces)", self.max_pieces)
    }
}

/// The table verdict on the root position and the moves that keep it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootFilter {
    /// The outcome with best play, under the fifty-move rule when it is on.
    pub outcome: TableOutcome,
    /// The legal moves that keep that outcome (all of them when every move loses); in a
    /// won position, those of them within the slack of the least DTZ.
    pub keep: Vec<Move>,
    /// In a won position the DTZ-optimal winning moves (the fallback when every kept move
    /// allows a repetition); empty otherwise.
    pub nearest: Vec<Move>,
}

impl Tablebases {
    /// Opens every table file in the directories of `paths` (separated by `:`, or `;` on
    /// Windows). Files whose name, size or contents are wrong are refused and reported;
    /// `None` when no table was accepted.
    pub fn open(paths: &str) -> (Option<Tablebases>, TableReport) {
        let mut report = TableReport::default();
        let mut candidates = Vec::new();
        for dir in std::env::split_paths(paths).filter(|d| !d.as_os_str().is_empty()) {
            match table_files(&dir) {
                Ok(files) => candidates.extend(files),
                Err(e) => report
                    .problems
                    .push(format!("cannot read directory {}: {e}", dir.display())),
            }
        }
        // Files the reader refuses by name or size, then tables that fail a probe; each is
        // checked on its own, so no more than two files are open at a time.
        let mut tables = Tablebase::<Chess>::with_filesystem(Arc::new(TableFiles::new()));
        for file in &candidates {
            if let Err(e) = Tablebase::<Chess>::new().add_file(file) {
                report.problems.push(format!("{}: {e}", file.display()));
                continue;
            }
            if !table_is_readable(file) {
                report
                    .problems
                    .push(format!("{}: unreadable or corrupt table", file.display()));
                continue;
            }
            if tables.add_file(file).is_ok() {
                if table_key(file).1 == "wdl" {
                    report.wdl += 1;
                } else {
                    report.dtz += 1;
                }
            }
        }
        report.max_pieces = tables.max_pieces();
        if report.wdl + report.dtz == 0 {
            return (None, report);
        }
        let tablebases = Tablebases {
            max_pieces: tables.max_pieces(),
            tables,
            probe_limit: AtomicUsize::new(MAX_TABLE_PIECES),
            rule50: AtomicBool::new(true),
            failures: AtomicU64::new(0),
        };
        (Some(tablebases), report)
    }

    /// The largest piece count among the tables.
    pub fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    pub fn set_probe_limit(&self, pieces: usize) {
        self.probe_limit.store(pieces, Ordering::Relaxed);
    }

    pub fn set_rule50(&self, on: bool) {
        self.rule50.store(on, Ordering::Relaxed);
    }

    /// Probes that failed on an unreadable table since the tables were opened (missing
    /// tables do not count).
    pub fn failures(&self) -> u64 {
        self.failures.load(Ordering::Relaxed)
    }

    /// Whether the position is one the tables cover: few enough pieces, no castling rights.
    #[inline]
    pub fn covers(&self, position: &Chess) -> bool {
        let pieces = position.board().occupied().count();
        pieces <= self.max_pieces
            && pieces <= self.probe_limit.load(Ordering::Relaxed)
            && position.castles().castling_rights().is_empty()
    }

    /// The outcome of a position reached by a capture or pawn move (halfmove clock 0), for
    /// the side to move; `None` when the tables do not cover it.
    pub fn probe_after_zeroing(&self, position: &Chess) -> Option<TableOutcome> {
        if !self.covers(position) {
            return None;
        }
        match self.tables.probe_wdl_after_zeroing(position) {
            Ok(wdl) => Some(self.outcome(wdl)),
            // A table that fails to read (a set without some tables is not a failure).
            Err(SyzygyError::ProbeFailed { .. }) => {
                self.failures.fetch_add(1, Ordering::Relaxed);
                None
            }
            Err(_) => None,
        }
    }

    /// The WDL of any covered position considering its halfmove clock (needs DTZ tables).
    pub fn probe_wdl(&self, position: &Chess) -> Result<AmbiguousWdl, SyzygyError> {
        if !position.castles().castling_rights().is_empty() {
            return Err(SyzygyError::Castling);
        }
        self.tables.probe_wdl(position)
    }

    /// Distance to zeroing (plies to the next capture or pawn move with best play), signed
    /// like the outcome for the side to move.
    pub fn probe_dtz(&self, position: &Chess) -> Result<i32, SyzygyError> {
        if !position.castles().castling_rights().is_empty() {
            return Err(SyzygyError::Castling);
        }
        self.tables
            .probe_dtz(position)
            .map(|dtz| dtz.ignore_rounding().0)
    }

    fn outcome(&self, wdl: Wdl) -> TableOutcome {
        let rule50 = self.rule50.load(Ordering::Relaxed);
        match wdl {
            Wdl::Win => TableOutcome::Win,
            Wdl::CursedWin if !rule50 => TableOutcome::Win,
            Wdl::BlessedLoss if !rule50 => TableOutcome::Loss,
            Wdl::CursedWin | Wdl::Draw | Wdl::BlessedLoss => TableOutcome::Draw,
            Wdl::Loss => TableOutcome::Loss,
        }
    }

    /// The root filter: each legal move is ranked by the outcome it leaves (DTZ tables and
    /// the position's halfmove clock decide whether a win still comes within the fifty-move
    /// rule), and only the best-ranked moves are kept. A won position keeps the winning moves
    /// whose distance to the next capture or pawn move (DTZ) is within
    /// [`WIN_SLACK_PLIES`] − clock of the least: right after a zeroing move the search may
    /// pick a faster mate than DTZ-optimal play, but after a few moves without progress
    /// only DTZ-optimal moves remain (Ethereal plays those alone), so the clock never runs
    /// out. `None` when the tables do not cover the position or a probe fails.
    pub fn root_filter(&self, position: &Chess) -> Option<RootFilter> {
        if !self.covers(position) {
            return None;
        }
        let rule50 = self.rule50.load(Ordering::Relaxed);
        // (move, rank, plies to the next zeroing move after it)
        let mut ranked = Vec::new();
        for m in position.legal_moves() {
            let mut after = position.clone();
            after.play_unchecked(m);
            let (rank, distance) = if after.is_checkmate() {
                (4, 0)
            } else if after.is_stalemate() || after.is_insufficient_material() {
                (0, 0)
            } else {
                // The opponent's view, negated.
                let rank = -rank_of(self.tables.probe_wdl(&after).ok()?, rule50);
                let distance = if rank < 2 || m.is_zeroing() {
                    0
                } else {
                    self.probe_dtz(&after).ok()?.abs()
                };
                (rank, distance)
            };
            ranked.push((m, rank, distance));
        }
        let best = ranked.iter().map(|&(_, r, _)| r).max()?;
        let outcome = match best {
            r if r >= 2 => TableOutcome::Win,
            r if r <= -2 => TableOutcome::Loss,
            _ => TableOutcome::Draw,
        };
        let (keep, nearest) = match outcome {
            TableOutcome::Win => {
                let least = ranked
                    .iter()
                    .filter(|&&(_, r, _)| r == best)
                    .map(|&(_, _, d)| d)
                    .min()?;
                let slack = WIN_SLACK_PLIES.saturating_sub(position.halfmoves()) as i32;
                let within = |limit: i32| -> Vec<Move> {
                    ranked
                        .iter()
                        .filter(|&&(_, r, d)| r == best && d <= limit)
                        .map(|&(m, _, _)| m)
                        .collect()
                };
                (within(least + slack), within(least))
            }
            // Every move that keeps the draw (cursed wins and blessed losses are draws).
            TableOutcome::Draw => {
                let keep = ranked
                    .iter()
                    .filter(|&&(_, r, _)| r >= -1)
                    .map(|&(m, _, _)| m)
                    .collect();
                (keep, Vec::new())
            }
            // Every move when all lose alike; only the doubtful losses (DTZ rounding may
            // leave a fifty-move draw) when some are.
            TableOutcome::Loss => {
                let keep = ranked
                    .iter()
                    .filter(|&&(_, r, _)| r == best)
                    .map(|&(m, _, _)| m)
                    .collect();
                (keep, Vec::new())
            }
        };
        Some(RootFilter {
            outcome,
            keep,
            nearest,
        })
    }

    /// Applies the root filter to a search's root moves (`search_moves`, packed; empty for
    /// every legal move): they become the kept moves, or those of them the caller allowed.
    /// A caller's choice of only non-kept moves stays as it is. In a won position, moves
    /// after which the position repeats, or the opponent can repeat one, are dropped too
    /// (unless that drops every DTZ-optimal one): a repetition is the one way to let a
    /// table win slip when the search cannot see the mate. Returns the table outcome.
    pub fn restrict_root(
        &self,
        position: &Position,
        search_moves: &mut Vec<u16>,
    ) -> Option<TableOutcome> {
        let filter = self.root_filter(position.chess())?;
        let mut kept = filter.keep;
        if filter.outcome == TableOutcome::Win {
            let mut probe = position.clone();
            let mut repeats = |m: Move| {
                probe.play(m);
                let repeats = probe.repetitions() > 0 || probe.has_upcoming_repetition(0);
                probe.undo();
                repeats
            };
            kept.retain(|&m| !repeats(m));
            if kept.is_empty() {
                kept = filter.nearest;
            }
        }
        let kept: Vec<u16> = kept.iter().map(|&m| PackedMove::new(m).0).collect();
        if search_moves.is_empty() {
            *search_moves = kept;
        } else if search_moves.iter().any(|m| kept.contains(m)) {
            search_moves.retain(|m| kept.contains(m));
        }
        Some(filter.outcome)
    }
}

/// The rank of a WDL for the side it belongs to: 3 win, 2 a win the rounding of DTZ leaves
/// in doubt, 1 cursed win, 0 draw, and the negatives alike. Without the fifty-move rule a
/// cursed win is a win and a blessed loss a loss.
fn rank_of(wdl: AmbiguousWdl, rule50: bool) -> i32 {
    let rank = match wdl {
        AmbiguousWdl::Win => 3,
        AmbiguousWdl::MaybeWin => 2,
        AmbiguousWdl::CursedWin => 1,
        AmbiguousWdl::Draw => 0,
        AmbiguousWdl::BlessedLoss => -1,
        AmbiguousWdl::MaybeLoss => -2,
        AmbiguousWdl::Loss => -3,
    };
    if rule50 || rank == 0 {
        rank
    } else {
        3 * rank.signum()
    }
}

/// The `.rtbw` and `.rtbz` files of a directory, sorted.
fn table_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| {
            path.extension()
                .is_some_and(|ext| ext == "rtbw" || ext == "rtbz")
        })
        .collect();
    files.sort();
    Ok(files)
}

/// (material, metric) of a table file, as the reader's errors name them: `("KQvK", "wdl")`.
fn table_key(file: &Path) -> (String, &'static str) {
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let metric = if file.extension().is_some_and(|e| e == "rtbz") {
        "dtz"
    } else {
        "wdl"
    };
    (stem, metric)
}

/// Whether a table file opens and decodes: sample positions of its material are probed
/// (WDL for `.rtbw`; DTZ for `.rtbz`, with the WDL file beside it when there is one), which
/// checks the header against the material its name claims (a renamed table fails here) and
/// decodes entries. Only a failure of this file counts; a missing other table does not.
fn table_is_readable(file: &Path) -> bool {
    let (material, metric) = table_key(file);
    let mut tables = Tablebase::<Chess>::new();
    if tables.add_file(file).is_err() {
        return false;
    }
    if metric == "dtz" {
        let _ = tables.add_file(file.with_extension("rtbw"));
    }
    for position in sample_positions(&material).take(4) {
        let result = if metric == "wdl" {
            tables.probe_wdl_after_zeroing(&position).map(|_| ())
        } else {
            tables.probe_dtz(&position).map(|_| ())
        };
        if let Err(SyzygyError::ProbeFailed {
            metric: failed,
            material: failed_material,
            ..
        }) = result
            && failed.to_string() == metric
            && failed_material.to_string() == material
        {
            return false;
        }
    }
    true
}

/// Legal positions (white to move, no castling) with the material of a table name such as
/// `KQvKR`, in which the side to move has no capture (so probing needs only this table).
fn sample_positions(material: &str) -> impl Iterator<Item = Chess> + '_ {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    (0..400).filter_map(move |_| {
        let (white, black) = material.split_once('v')?;
        let mut board = [None::<char>; 64];
        let pieces = white
            .chars()
            .map(|c| c.to_ascii_uppercase())
            .chain(black.chars().map(|c| c.to_ascii_lowercase()));
        for piece in pieces {
            // A pseudo-random free square; pawns stay off the first and last ranks.
            let square = loop {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let square = (seed % 64) as usize;
                let rank = square / 8;
                let pawn = piece.eq_ignore_ascii_case(&'p');
                if board[square].is_none() && !(pawn && (rank == 0 || rank == 7)) {
                    break square;
                }
            };
            board[square] = Some(piece);
        }
        let fen = format!("{} w - - 0 1", board_fen(&board));
        let position: Chess = Fen::from_ascii(fen.as_bytes())
            .ok()?
            .into_position(CastlingMode::Standard)
            .ok()?;
        let captures = position.capture_moves();
        (captures.is_empty() && !position.is_game_over()).then_some(position)
    })
}

/// The piece-placement field of a FEN for squares a1..h8.
fn board_fen(board: &[Option<char>; 64]) -> String {
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                Some(piece) => {
                    if empty > 0 {
                        fen.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    fen.push(piece);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            fen.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    fen
}
