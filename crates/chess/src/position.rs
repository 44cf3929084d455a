//! The chess position: shakmaty's `Chess` on a ply stack with incremental keys.
//!
//! Make/unmake is copy-make: `play` pushes a copy of the current frame and plays the move on
//! it, `undo` pops it. The stack holds the game history (from `position ... moves`) and the
//! search path, so repetition detection sees both.

use shakmaty::fen::Fen;
use shakmaty::san::{San, SanError, SanPlus};
use shakmaty::uci::UciMove;
use shakmaty::zobrist::{Zobrist64, Zobrist128};
use shakmaty::{
    CastlingMode, Chess, Color, EnPassantMode, File, FromSetup, Move, MoveList, Position as _,
    PositionError, Role, Setup,
};

use std::sync::Arc;

use horizon_search::{EvalKnowledge, EvalKnowledgeCounts};

use crate::check::CheckInfo;
use crate::error::{MoveParseError, PositionParseError};
use crate::eval::{self, EvalCache, PawnTable};
use crate::key;
use crate::movegen;
use crate::nnue::{Dirty, Network, NnueStack, simd::Simd};
use crate::tablebase::Tablebases;

/// FEN of the standard start position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Plies reserved beyond the game history, so a search never grows the stack.
const SEARCH_RESERVE: usize = 512;

#[derive(Clone, Debug)]
struct Frame {
    chess: Chess,
    key: u64,
    key128: u128,
    /// The en passant file hashed into the keys, if any.
    ep_file: Option<File>,
    /// Plies since the last irreversible move or null move: repetitions lie within them.
    reversible_plies: u32,
    /// The move that led to this frame (`None` at the start and after a null move).
    last_move: Option<Move>,
    /// Material and piece-square sum of the classic evaluation (`eval::psqt`). Kept up to
    /// date only while the classic evaluation is the position's (`Position::psqt`).
    psqt: i32,
}

/// Copies only the generated moves (an assignment would copy the whole fixed-size array).
#[inline]
fn fill(out: &mut MoveList, moves: &MoveList) {
    out.clear();
    // Both lists have the same capacity, so this cannot fail.
    let _ = out.try_extend_from_slice(moves);
}

impl Frame {
    fn new(chess: Chess) -> Frame {
        let ep_file = chess.legal_ep_square().map(|sq| sq.file());
        let key = chess.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0;
        let key128 = chess.zobrist_hash::<Zobrist128>(EnPassantMode::Legal).0;
        let psqt = eval::psqt::from_scratch(&chess);
        Frame {
            chess,
            key,
            key128,
            ep_file,
            reversible_plies: 0,
            last_move: None,
            psqt,
        }
    }
}

/// A chess position with its history, ready for search.
#[derive(Clone, Debug)]
pub struct Position {
    /// `frames[..=top]` is the live stack; slots above `top` are kept for reuse, so a
    /// search writes each ply into an existing slot instead of pushing and popping.
    frames: Vec<Frame>,
    top: usize,
    castling_mode: CastlingMode,
    track_key128: bool,
    /// Pawn-structure cache of the evaluation (per position, so per search thread).
    pawn_table: PawnTable,
    /// Classic evaluations by key (per position, so per search thread).
    eval_cache: EvalCache,
    /// The evaluation's switchable knowledge (`MopUp`, `KPKBitbase`, `NetworkEndgameScale`,
    /// `NetworkClassicBlend`), and how many evaluations each changed.
    knowledge: EvalKnowledge,
    knowledge_counts: EvalKnowledgeCounts,
    /// Endgame tables the search probes (shared by every thread's copy).
    tablebases: Option<Arc<Tablebases>>,
    /// The neural evaluation's network and accumulators, when it replaces the classic one.
    nnue: Option<Box<NnueStack>>,
    /// Check squares of the position whose key is `check_info_key`, for `gives_check`.
    check_info: CheckInfo,
    check_info_key: Option<u64>,
}

impl Default for Position {
    fn default() -> Self {
        Position::from_chess(Chess::default(), CastlingMode::Standard)
    }
}

impl Position {
    /// The standard start position.
    pub fn startpos() -> Position {
        Position::default()
    }

    /// Wraps a shakmaty position. `mode` decides how castling moves are written in UCI.
    pub fn from_chess(chess: Chess, castling_mode: CastlingMode) -> Position {
        let mut frames = Vec::with_capacity(SEARCH_RESERVE);
        frames.push(Frame::new(chess));
        Position {
            frames,
            top: 0,
            castling_mode,
            track_key128: false,
            pawn_table: PawnTable::default(),
            eval_cache: EvalCache::default(),
            knowledge: EvalKnowledge::default(),
            knowledge_counts: EvalKnowledgeCounts::default(),
            tablebases: None,
            nnue: None,
            check_info: CheckInfo::default(),
            check_info_key: None,
        }
    }

    /// Static evaluation (side to move's view): the network's when one is set, otherwise
    /// the classic evaluation with this position's pawn hash. Either is cached by key: a
    /// hit skips the network's output layer, and its accumulator stays unbrought until a
    /// later evaluation above this ply needs it.
    #[inline]
    pub fn evaluate(&mut self) -> i32 {
        let frame = &self.frames[self.top];
        let chess = &frame.chess;
        if self.knowledge.bare_king_mate
            && let Some(white) = eval::bare_king_mate(chess)
        {
            self.knowledge_counts.bare_king += 1;
            return match chess.turn() {
                Color::White => white,
                Color::Black => -white,
            };
        }
        match self.nnue.as_deref_mut() {
            Some(nnue) => {
                let top = self.top;
                let (knowledge, counts) = (self.knowledge, &mut self.knowledge_counts);
                let pawn_table = &mut self.pawn_table;
                self.eval_cache.get_or_insert(frame.key, || {
                    let mut value = nnue.evaluate(top, chess);
                    if knowledge.network_classic_blend > 0 && eval::classic_blend_applies(chess) {
                        // With a network `play` keeps no classic sum (`Position::psqt`).
                        let classic = eval::evaluate_with_psqt(
                            chess,
                            pawn_table,
                            eval::psqt::from_scratch(chess),
                            (knowledge, &mut *counts),
                        );
                        value = eval::blend_network_value(
                            value,
                            classic,
                            knowledge.network_classic_blend,
                        );
                        counts.network_blended += 1;
                    }
                    if knowledge.network_endgame_scale {
                        eval::scale_network_value(chess, value, &mut counts.network_scaled)
                    } else {
                        value
                    }
                })
            }
            None => {
                let pawn_table = &mut self.pawn_table;
                let knowledge = (self.knowledge, &mut self.knowledge_counts);
                self.eval_cache.get_or_insert(frame.key, || {
                    eval::evaluate_with_psqt(chess, pawn_table, frame.psqt, knowledge)
                })
            }
        }
    }

    /// The key after `m` as far as this position tells it without playing it (exact for
    /// most moves; see `key::predict`): for prefetching the child's table entry.
    #[inline]
    pub fn predicted_key(&self, m: Move) -> u64 {
        let top = self.top();
        key::predict(Zobrist64(top.key), &top.chess, m, top.ep_file).0
    }

    /// Brings the network's accumulator of this ply up to date when one incremental update
    /// from the ply below does it (`Game::prepare_evaluation`). Values are unchanged.
    #[inline]
    pub fn prepare_evaluation(&mut self) {
        if let Some(nnue) = self.nnue.as_deref_mut() {
            nnue.update_from_below(self.top, &self.frames[self.top].chess);
        }
    }

    /// The classic evaluation, whichever evaluation the search uses.
    pub fn evaluate_classic(&mut self) -> i32 {
        let frame = &self.frames[self.top];
        let psqt = self.psqt(frame);
        let knowledge = (self.knowledge, &mut self.knowledge_counts);
        eval::evaluate_with_psqt(&frame.chess, &mut self.pawn_table, psqt, knowledge)
    }

    /// Evaluations the switchable knowledge changed so far.
    pub fn eval_knowledge_counts(&self) -> EvalKnowledgeCounts {
        self.knowledge_counts
    }

    /// Sets the classic evaluation's switchable knowledge (`eval/endgame.rs`,
    /// `eval/kpk.rs`); cached evaluations made with other switches are dropped.
    pub fn set_eval_knowledge(&mut self, knowledge: EvalKnowledge) {
        if knowledge != self.knowledge {
            self.knowledge = knowledge;
            self.eval_cache.clear();
        }
    }

    /// Evaluates with `network` (kernels `simd`, or the best available if the processor
    /// lacks them), or with the classic evaluation when `None`.
    ///
    /// Setting the evaluation already set (the same `Arc`, the same kernels) changes
    /// nothing: the accumulators follow the position's moves and the cached values are still
    /// this evaluation's.
    pub fn set_network(&mut self, network: Option<Arc<Network>>, simd: Simd) {
        let unchanged = match (self.nnue.as_deref(), &network) {
            (Some(stack), Some(network)) => {
                Arc::ptr_eq(stack.network(), network) && stack.simd() == simd.checked()
            }
            (None, None) => true,
            _ => false,
        };
        if unchanged {
            return;
        }
        self.nnue = network.map(|network| Box::new(NnueStack::new(network, simd)));
        // The cache holds the previous evaluation's values.
        self.eval_cache.clear();
        self.resum_psqt();
    }

    /// The classic evaluation's material and piece-square sum of `frame`: kept up to date
    /// by `play` for the classic evaluation, summed here with a network (which needs it only
    /// for `NetworkClassicBlend` and `evaluate_classic`).
    #[inline]
    fn psqt(&self, frame: &Frame) -> i32 {
        if self.nnue.is_none() {
            frame.psqt
        } else {
            eval::psqt::from_scratch(&frame.chess)
        }
    }

    /// Sums the live frames' classic sums again where `play` keeps them (classic
    /// evaluation), after frames were made without them.
    fn resum_psqt(&mut self) {
        if self.nnue.is_none() {
            for frame in &mut self.frames[..=self.top] {
                frame.psqt = eval::psqt::from_scratch(&frame.chess);
            }
        }
    }

    /// Takes `other`'s game (its moves so far, castling notation and key width) and keeps
    /// this position's evaluation, caches and tables. The UCI engine searches every `go` in
    /// one such position: a fresh copy would start with cold caches, and cost an allocation,
    /// a copy and a clear of each cache per move (about a millisecond a `go`).
    pub fn copy_game_from(&mut self, other: &Position) {
        self.frames.clear();
        self.frames.extend_from_slice(&other.frames[..=other.top]);
        self.top = other.top;
        self.castling_mode = other.castling_mode;
        self.track_key128 = other.track_key128;
        if let Some(stack) = self.nnue.as_deref_mut() {
            stack.invalidate();
        }
        if other.nnue.is_some() {
            // Its frames carry no classic sums.
            self.resum_psqt();
        }
    }

    /// Whether the legal move `m` gives check. The check squares are found once per
    /// position (cached by key), so asking for each move of a node costs a bit test or two.
    #[inline]
    pub fn gives_check(&mut self, m: Move) -> bool {
        let frame = &self.frames[self.top];
        if self.check_info_key != Some(frame.key) {
            self.check_info = CheckInfo::new(&frame.chess);
            self.check_info_key = Some(frame.key);
        }
        self.check_info.gives_check(&frame.chess, m)
    }

    /// The network and accumulators, when the network evaluates.
    pub fn nnue(&self) -> Option<&NnueStack> {
        self.nnue.as_deref()
    }

    /// The network's accumulator of the current position, brought up to date (tests).
    pub fn nnue_accumulator(&mut self) -> Option<crate::nnue::Accumulator> {
        let chess = &self.frames[self.top].chess;
        let top = self.top;
        self.nnue.as_deref_mut().map(|n| *n.accumulator(top, chess))
    }

    /// Hits and probes of the evaluation cache.
    pub fn eval_cache_counters(&self) -> (u64, u64) {
        self.eval_cache.counters()
    }

    /// Hits and probes of the pawn hash.
    pub fn pawn_table_counters(&self) -> (u64, u64) {
        self.pawn_table.counters()
    }

    /// Parses a FEN. Missing half-move and full-move counters default to `0 1`; X-FEN and
    /// Shredder-FEN castling rights (Chess960) are understood, and Chess960 castling is chosen
    /// when the rights only make sense that way.
    pub fn from_fen(text: &str) -> Result<Position, PositionParseError> {
        Self::parse(text, None)
    }

    /// Parses a FEN in the given castling mode (`Chess960` for `UCI_Chess960`).
    pub fn from_fen_in(text: &str, mode: CastlingMode) -> Result<Position, PositionParseError> {
        Self::parse(text, Some(mode))
    }

    /// Parses the four position fields of an EPD record (board, side, castling, en passant).
    /// Anything after them (operations) is ignored here; see the EPD reader for those.
    pub fn from_epd(text: &str) -> Result<Position, PositionParseError> {
        let fields: Vec<&str> = text.split_ascii_whitespace().take(4).collect();
        if fields.len() < 4 {
            return Err(PositionParseError::MissingFields {
                expected: 4,
                found: fields.len(),
            });
        }
        Self::parse(&fields.join(" "), None)
    }

    fn parse(text: &str, mode: Option<CastlingMode>) -> Result<Position, PositionParseError> {
        let text = text.trim();
        let found = text.split_ascii_whitespace().count();
        if found == 0 {
            return Err(PositionParseError::MissingFields { expected: 1, found });
        }
        let fen = Fen::from_ascii(text.as_bytes()).map_err(|e| PositionParseError::Syntax {
            text: text.to_owned(),
            reason: e.to_string(),
        })?;
        let setup: Setup = fen.into_setup();
        let mode = mode.unwrap_or_else(|| CastlingMode::detect(&setup));
        let chess = Chess::from_setup(setup, mode)
            .or_else(PositionError::ignore_invalid_castling_rights)
            .or_else(PositionError::ignore_invalid_ep_square)
            .or_else(PositionError::ignore_impossible_check)
            .map_err(|e| PositionParseError::Illegal {
                text: text.to_owned(),
                reason: e.to_string(),
            })?;
        Ok(Position::from_chess(chess, mode))
    }

    #[inline]
    fn top(&self) -> &Frame {
        &self.frames[self.top]
    }

    /// Makes `frames[top + 1]` exist and returns (current frame, next slot).
    #[inline]
    fn next_slot(&mut self) -> (&Frame, &mut Frame) {
        let n = self.top + 1;
        if n == self.frames.len() {
            let copy = self.frames[self.top].clone();
            self.frames.push(copy);
        }
        let (head, tail) = self.frames.split_at_mut(n);
        (&head[n - 1], &mut tail[0])
    }

    /// The underlying shakmaty position.
    #[inline]
    pub fn chess(&self) -> &Chess {
        &self.top().chess
    }

    /// How castling moves are written (standard `e1g1` or Chess960 `e1h1`).
    pub fn castling_mode(&self) -> CastlingMode {
        self.castling_mode
    }

    /// Writes castling king-takes-rook (Chess960) or king-two-squares (standard).
    pub fn set_castling_mode(&mut self, mode: CastlingMode) {
        self.castling_mode = mode;
    }

    /// Whether the 128-bit key is kept up to date (off by default: it costs time at every
    /// move and only 128-bit table verification needs it).
    pub fn set_track_key128(&mut self, on: bool) {
        if on && !self.track_key128 {
            for frame in &mut self.frames[..=self.top] {
                frame.key128 = frame
                    .chess
                    .zobrist_hash::<Zobrist128>(EnPassantMode::Legal)
                    .0;
            }
        }
        self.track_key128 = on;
    }

    /// Whether the 128-bit key is kept up to date.
    #[inline]
    pub fn tracks_key128(&self) -> bool {
        self.track_key128
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.chess().turn()
    }

    /// The 64-bit Zobrist key (equal to shakmaty's `zobrist_hash` in `Legal` mode).
    #[inline]
    pub fn key(&self) -> u64 {
        self.top().key
    }

    /// The 128-bit Zobrist key, for verification of table entries.
    #[inline]
    pub fn key128(&self) -> u128 {
        self.top().key128
    }

    /// Plies played since this position was set up (game moves and search moves).
    #[inline]
    pub fn ply(&self) -> usize {
        self.top
    }

    /// The move that led here, if any (not across a null move).
    #[inline]
    pub fn last_move(&self) -> Option<Move> {
        self.top().last_move
    }

    /// Gives the search endgame tables to probe (`None`: none).
    pub fn set_tablebases(&mut self, tablebases: Option<Arc<Tablebases>>) {
        self.tablebases = tablebases;
    }

    /// The endgame tables the search probes.
    pub fn tablebases(&self) -> Option<&Tablebases> {
        self.tablebases.as_deref()
    }

    /// Half-moves since the last capture or pawn move.
    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.chess().halfmoves()
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.chess().is_check()
    }

    /// Plays a legal move. Playing an illegal move corrupts the position (debug builds
    /// assert); moves from user input go through [`Position::play_uci`] or the parsers.
    #[inline]
    pub fn play(&mut self, m: Move) {
        debug_assert!(self.chess().is_legal(m), "illegal move {m:?}");
        if let Some(nnue) = self.nnue.as_deref_mut() {
            nnue.record_move(self.top + 1, &self.frames[self.top].chess, m);
        }
        let track_key128 = self.track_key128;
        let track_psqt = self.nnue.is_none();
        let (before, after) = self.next_slot();
        after.chess.clone_from(&before.chess);
        after.chess.play_unchecked(m);
        let ep_after = key::ep_file_after(&after.chess);
        after.key = key::update(
            Zobrist64(before.key),
            &before.chess,
            m,
            &after.chess,
            before.ep_file,
            ep_after,
        )
        .0;
        if track_key128 {
            after.key128 = key::update(
                Zobrist128(before.key128),
                &before.chess,
                m,
                &after.chess,
                before.ep_file,
                ep_after,
            )
            .0;
        }
        after.ep_file = ep_after;
        // The clock is already reset when the move zeroes it: cheaper than matching on `m`.
        after.reversible_plies = if after.chess.halfmoves() == 0 {
            0
        } else {
            before.reversible_plies + 1
        };
        after.last_move = Some(m);
        // With a network no node reads the classic sum: it is left stale (`Position::psqt`).
        if track_psqt {
            after.psqt = eval::psqt::after_move(before.psqt, &before.chess, m);
        }
        self.top += 1;
    }

    /// Passes the move: side to move flipped, en passant cleared, key updated.
    /// Only when not in check (the caller's rule; shakmaty would reject it).
    pub fn play_null(&mut self) {
        debug_assert!(!self.in_check(), "null move while in check");
        if let Some(nnue) = self.nnue.as_deref_mut() {
            nnue.record(self.top + 1, Dirty::NONE);
        }
        let before = self.top();
        let mut setup = before.chess.to_setup(EnPassantMode::Legal);
        setup.ep_square = None;
        setup.swap_turn();
        // The position's own castling mode (a Chess960 position may be written in standard
        // notation, `castling_mode`, and would lose its rights, and the setup, otherwise).
        let chess = match Chess::from_setup(setup, before.chess.castles().mode()) {
            Ok(chess) => chess,
            Err(e) => e.ignore_impossible_check().unwrap_or_else(|_| {
                unreachable!("the side to move passes out of check: no position to flip")
            }),
        };
        let key = key::pass(Zobrist64(before.key), before.ep_file);
        let key128 = key::pass(Zobrist128(before.key128), before.ep_file);
        let psqt = before.psqt;
        let (_, after) = self.next_slot();
        *after = Frame {
            chess,
            key: key.0,
            key128: key128.0,
            ep_file: None,
            reversible_plies: 0,
            last_move: None,
            psqt,
        };
        self.top += 1;
    }

    /// Takes back the last move or null move. Does nothing at the setup position.
    #[inline]
    pub fn undo(&mut self) {
        self.top = self.top.saturating_sub(1);
    }

    /// All legal moves, in a fixed-capacity list on the stack (no heap allocation).
    #[inline]
    pub fn moves(&self) -> MoveList {
        self.chess().legal_moves()
    }

    /// All legal moves, into a caller-owned fixed-capacity buffer, in shakmaty's order: from
    /// bitboards (`movegen.rs`) unless in check, where shakmaty generates the evasions.
    #[inline]
    pub fn legal_moves(&self, out: &mut MoveList) {
        let chess = self.chess();
        if chess.is_check() {
            fill(out, &chess.legal_moves());
        } else {
            movegen::legal_moves_not_in_check(chess, out);
        }
    }

    /// Captures and promotions for quiescence; all evasions when in check.
    #[inline]
    pub fn tactical_moves(&self, out: &mut MoveList) {
        let chess = self.chess();
        if chess.is_check() {
            fill(out, &chess.legal_moves());
        } else {
            movegen::tactical_moves_not_in_check(chess, out);
        }
    }

    /// The legal moves `tactical_moves` leaves out: quiet moves, none when in check.
    #[inline]
    pub fn quiet_moves(&self, out: &mut MoveList) {
        let chess = self.chess();
        if chess.is_check() {
            out.clear();
        } else {
            movegen::quiet_moves_not_in_check(chess, out);
        }
    }

    /// A signature of the last `plies` positions before this one, for the search's
    /// `GHI=exact`: the multiset of those positions (within the repetition window), each
    /// tagged with whether it lies before `search_root` (where a repetition must happen
    /// twice), plus the fifty-move count when `plies` covers the whole window.
    /// Order-independent (a wrapping sum of mixed keys): a repetition's verdict depends on
    /// which positions lie on the path, not on their order.
    pub fn history_signature(&self, search_root: usize, plies: usize) -> u64 {
        /// SplitMix64's finaliser: spreads a key so sums of keys do not cancel.
        fn mix(mut x: u64) -> u64 {
            x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            x ^ (x >> 31)
        }
        const BEFORE_ROOT: u64 = 0x5851_F42D_4C95_7F2D;
        const CLOCK: u64 = 0x2545_F491_4F6C_DD1D;
        let top = self.top;
        let window = (self.top().reversible_plies as usize).min(top);
        let span = plies.min(window);
        let first = top - span;
        let positions =
            self.frames[first..top]
                .iter()
                .enumerate()
                .fold(0u64, |sum, (offset, frame)| {
                    let tag = if first + offset < search_root {
                        BEFORE_ROOT
                    } else {
                        0
                    };
                    sum.wrapping_add(mix(frame.key ^ tag))
                });
        if plies >= window {
            positions.wrapping_add(mix(u64::from(self.halfmoves()) ^ CLOCK))
        } else {
            positions
        }
    }

    /// Whether the position repeats one earlier in the stack, counted as a draw:
    /// once since `search_root` (a repetition inside the search path), or twice overall
    /// (the threefold rule over the game history).
    pub fn is_repetition(&self, search_root: usize) -> bool {
        self.repetition_distance(search_root).is_some()
    }

    /// For a repetition counted as a draw (see [`Position::is_repetition`]), how many plies
    /// back the earliest occurrence the verdict needs lies.
    pub fn repetition_distance(&self, search_root: usize) -> Option<usize> {
        let top = self.top;
        let window = self.top().reversible_plies as usize;
        let key = self.top().key;
        let mut seen = 0;
        let mut back = 4;
        while back <= window && back <= top {
            let i = top - back;
            if self.frames[i].key == key {
                if i >= search_root {
                    return Some(back);
                }
                seen += 1;
                if seen >= 2 {
                    return Some(back);
                }
            }
            back += 2;
        }
        None
    }

    /// Whether the side to move has a move that repeats a position of the search path (from
    /// `search_root` on): the search may then count on at least a draw. A reversible move
    /// repeats the position three plies back, five, and so on; the boards differ by one piece
    /// of the mover, and the keys confirm it.
    pub fn has_upcoming_repetition(&self, search_root: usize) -> bool {
        let top = self.top;
        let window = self.top().reversible_plies as usize;
        let current = self.chess();
        let board = current.board();
        let us = current.turn();
        let mut back = 3;
        while back <= window && back <= top && top - back >= search_root {
            let earlier = &self.frames[top - back];
            back += 2;
            let other = earlier.chess.board();
            let moved = board.occupied() ^ other.occupied();
            if moved.count() != 2
                || current.castles().castling_rights() != earlier.chess.castles().castling_rights()
            {
                continue;
            }
            let (Some(from), Some(to)) = (
                (moved & board.occupied()).first(),
                (moved & other.occupied()).first(),
            ) else {
                continue;
            };
            let (Some(piece), Some(piece_then)) = (board.piece_at(from), other.piece_at(to)) else {
                continue;
            };
            if piece != piece_then || piece.color != us {
                continue;
            }
            // Everything else must stand where it stood.
            let same = Role::ALL.iter().all(|&role| {
                let mask = !moved;
                (board.by_role(role) & mask) == (other.by_role(role) & mask)
            }) && (board.by_color(us) & !moved) == (other.by_color(us) & !moved);
            if !same {
                continue;
            }
            let m = Move::Normal {
                role: piece.role,
                from,
                capture: None,
                to,
                promotion: None,
            };
            if current.is_legal(m) {
                let key = key::update(
                    Zobrist64(self.top().key),
                    current,
                    m,
                    &{
                        let mut after = current.clone();
                        after.play_unchecked(m);
                        after
                    },
                    self.top().ep_file,
                    None,
                )
                .0;
                if key == earlier.key {
                    return true;
                }
            }
        }
        false
    }

    /// How many times the current position occurred before in the stack (game and search).
    pub fn repetitions(&self) -> usize {
        let top = self.top;
        let window = self.top().reversible_plies as usize;
        let key = self.top().key;
        (4..=window.min(top))
            .step_by(2)
            .filter(|back| self.frames[top - back].key == key)
            .count()
    }

    /// The fifty-move rule: 100 half-moves without capture or pawn move.
    /// (Checkmate on the hundredth half-move still wins; the caller tests for mate first.)
    #[inline]
    pub fn is_fifty_move_draw(&self) -> bool {
        self.halfmoves() >= 100
    }

    /// Neither side can mate by any sequence of legal moves.
    #[inline]
    pub fn is_insufficient_material(&self) -> bool {
        self.chess().is_insufficient_material()
    }

    /// Whether `color` has a piece other than pawns and king (null-move safety).
    #[inline]
    pub fn has_non_pawn_material(&self, color: Color) -> bool {
        self.non_pawn_pieces(color) > 0
    }

    /// How many pieces other than pawns and king `color` has.
    #[inline]
    pub fn non_pawn_pieces(&self, color: Color) -> u32 {
        let board = self.chess().board();
        (board.by_color(color) & !board.pawns() & !board.kings()).count() as u32
    }

    /// How many of `color`'s pieces other than pawns and king attack at least one square
    /// that `color` does not occupy: pieces that could move if pins are ignored.
    pub fn mobile_non_pawn_pieces(&self, color: Color) -> u32 {
        self.non_pawn_targets(color)
            .filter(|targets| targets.any())
            .count() as u32
    }

    /// How many squares `color`'s pieces other than pawns and king attack that `color` does
    /// not occupy, summed over the pieces: their moves if pins are ignored.
    pub fn non_pawn_mobility(&self, color: Color) -> u32 {
        self.non_pawn_targets(color)
            .map(|targets| targets.count() as u32)
            .sum()
    }

    /// For each of `color`'s pieces other than pawns and king, the squares it attacks that
    /// `color` does not occupy.
    fn non_pawn_targets(&self, color: Color) -> impl Iterator<Item = shakmaty::Bitboard> + '_ {
        let board = self.chess().board();
        let ours = board.by_color(color);
        (ours & !board.pawns() & !board.kings())
            .into_iter()
            .map(move |square| board.attacks_from(square) & !ours)
    }

    /// The current position as FEN.
    pub fn fen(&self) -> String {
        Fen::from_position(self.chess(), EnPassantMode::Legal).to_string()
    }

    /// Parses a move in UCI long algebraic notation (`e2e4`, `e7e8q`; castling as `e1g1` or
    /// king-takes-rook `e1h1`).
    pub fn parse_uci(&self, text: &str) -> Result<Move, MoveParseError> {
        let uci = UciMove::from_ascii(text.as_bytes()).map_err(|_| MoveParseError::Syntax {
            text: text.to_owned(),
        })?;
        uci.to_move(self.chess())
            .map_err(|_| MoveParseError::Illegal {
                text: text.to_owned(),
                fen: self.fen(),
            })
    }

    /// Parses and plays a UCI move.
    pub fn play_uci(&mut self, text: &str) -> Result<Move, MoveParseError> {
        let m = self.parse_uci(text)?;
        self.play(m);
        Ok(m)
    }

    /// Writes a move in UCI notation for the current castling mode.
    pub fn uci(&self, m: Move) -> String {
        UciMove::from_move(m, self.castling_mode).to_string()
    }

    /// Parses a move in SAN (`Nf3`, `exd5`, `O-O`, `e8=Q+`); check and mate suffixes allowed.
    pub fn parse_san(&self, text: &str) -> Result<Move, MoveParseError> {
        let san: San = SanPlus::from_ascii(text.as_bytes())
            .map_err(|_| MoveParseError::Syntax {
                text: text.to_owned(),
            })?
            .san;
        san.to_move(self.chess()).map_err(|e| match e {
            SanError::AmbiguousSan => MoveParseError::Ambiguous {
                text: text.to_owned(),
                fen: self.fen(),
            },
            SanError::IllegalSan => MoveParseError::Illegal {
                text: text.to_owned(),
                fen: self.fen(),
            },
        })
    }

    /// Writes a legal move in SAN, with `+` or `#`.
    pub fn san(&self, m: Move) -> String {
        SanPlus::from_move(self.chess().clone(), m).to_string()
    }

    /// The key computed from scratch (for tests of the incremental update).
    pub fn key_from_scratch(&self) -> (u64, u128) {
        let chess = self.chess();
        (
            chess.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0,
            chess.zobrist_hash::<Zobrist128>(EnPassantMode::Legal).0,
        )
    }
}
