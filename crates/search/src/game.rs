//! The trait a two-player, zero-sum, perfect-information game implements to be searched.
//!
//! Everything is monomorphised: the search is generic over `G: Game`, so no call here is
//! dynamically dispatched, and move lists are fixed-capacity buffers on the stack.

use std::fmt::Debug;

use crate::config::{EvalKnowledge, EvalKnowledgeCounts};

/// Why a position is drawn without searching it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Draw {
    /// The position repeats one on the path (search path or game history); `plies_back`
    /// reaches the earliest occurrence the verdict needs.
    Repetition { plies_back: usize },
    /// A rule counting reversible moves (chess: fifty moves).
    MoveRule,
    /// Neither side can win any more (chess: insufficient material).
    Material,
}

/// The value of a position in which the side to move has no legal move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NoMoves {
    /// The side to move has lost (chess: checkmate). Scored as a mate at this ply.
    Loss,
    /// A draw (chess: stalemate).
    Draw,
    /// A game-specific value for the side to move (artificial trees: the leaf value).
    Value(i32),
}

/// What an endgame table (chess: Syzygy) proves about a position, for the side to move,
/// under the game's move rule as the game's settings apply it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TableOutcome {
    Win,
    Draw,
    Loss,
}

/// A game the search can play through.
pub trait Game: Clone + Send + 'static {
    /// A move. Cheap to copy.
    type Move: Copy + Eq + Debug + Send + Sync + 'static;
    /// A fixed-capacity move buffer (no heap allocation), e.g. an `ArrayVec`. `extend`
    /// appends (the staged picker adds the quiet moves behind the captures).
    type Moves: Default + AsRef<[Self::Move]> + AsMut<[Self::Move]> + Extend<Self::Move>;
    /// The number of distinct history-table slots `history_index` can return.
    const HISTORY_SIZE: usize;
    /// Slots per move in the continuation histories (which hold this many squared entries);
    /// `history_index` is folded into it. Chess: every (piece, square), like the history.
    const CONTINUATION_SIZE: usize = 64;
    /// The number of distinct slots `butterfly_index` can return.
    const BUTTERFLY_SIZE: usize = Self::HISTORY_SIZE;
    /// The number of distinct capture-history slots `capture_history_index` can return.
    const CAPTURE_HISTORY_SIZE: usize = Self::HISTORY_SIZE;
    /// Plies after which a rule draws a game without progress (chess: 100, the fifty-move
    /// rule), if the game has one. Guards table cutoffs near it.
    const MOVE_RULE_PLIES: Option<u32> = None;

    /// The position's 64-bit hash key.
    fn key(&self) -> u64;
    /// 64 more key bits for 128-bit verification of table entries; 0 whenever they are not
    /// tracked (`set_wide_keys(false)`), so entries compare equal on them.
    fn key_extension(&self) -> u64;
    /// The key `play(m)` will most likely lead to, known before the move is made, so the
    /// search can prefetch the child's table entry earlier (a hint: a wrong guess only costs
    /// the prefetch). `None`: the game cannot tell cheaply.
    #[inline]
    fn predicted_key(&self, _m: Self::Move) -> Option<u64> {
        None
    }
    /// Asks the game to maintain `key_extension` (128-bit keys on) or not.
    fn set_wide_keys(&mut self, on: bool);
    /// Sets the evaluation's switchable knowledge (`SearchConfig::eval_knowledge`); a game
    /// without such knowledge ignores it.
    fn set_eval_knowledge(&mut self, _knowledge: EvalKnowledge) {}
    /// Evaluations the knowledge has changed so far (running counts).
    fn eval_knowledge_counts(&self) -> EvalKnowledgeCounts {
        EvalKnowledgeCounts::default()
    }
    /// Plies played since the game object was set up (game history plus search path).
    fn ply(&self) -> usize;
    /// Moves since the last irreversible move (for guarding TT cutoffs near a move rule).
    fn reversible_plies(&self) -> u32;

    /// All legal moves.
    fn generate(&self, out: &mut Self::Moves);
    /// The moves quiescence search looks at: captures and promotions, or every evasion
    /// when in check.
    fn generate_tactical(&self, out: &mut Self::Moves);
    /// The legal moves `generate_tactical` leaves out (none in check), so that the two lists
    /// together hold `generate`'s moves: a staged picker asks for these only when needed.
    fn generate_quiet(&self, out: &mut Self::Moves);
    /// Plays a legal move.
    fn play(&mut self, m: Self::Move);
    /// Takes back the last move.
    fn undo(&mut self);
    /// Whether passing is allowed here by the rules (chess: not in check).
    fn null_move_allowed(&self) -> bool;
    /// Passes the move.
    fn play_null(&mut self);
    /// Takes back a pass.
    fn undo_null(&mut self);
    /// How many pieces the side to move has that make zugzwang unlikely (chess: pieces
    /// other than pawns and king). With none the null move is never tried;
    /// `null_min_pieces` and `null_verification_endgame` ask for more. A game without
    /// zugzwang returns `u32::MAX`.
    fn non_pawn_pieces(&self) -> u32;
    /// Of those pieces, how many can move at all (chess: attack a square not held by their
    /// own side; pins ignored). A side whose pieces are all walled in is as prone to
    /// zugzwang as one with none (`null_mobile_pieces`). By default every piece counts.
    fn mobile_non_pawn_pieces(&self) -> u32 {
        self.non_pawn_pieces()
    }
    /// How many moves those pieces have together (chess: squares they attack that their own
    /// side does not occupy; pins ignored). A side with only a move or two besides its
    /// king and pawns is close to zugzwang (`null_min_mobility`). By default unbounded.
    fn non_pawn_mobility(&self) -> u32 {
        u32::MAX
    }

    /// Static evaluation from the side to move's point of view. Mutable so a game may keep
    /// evaluation caches (chess: evaluations by key, the pawn hash).
    fn evaluate(&mut self) -> i32;
    /// Work the next evaluation will need, done now: the search calls it right after it
    /// prefetches the table entry of a position just entered, so the work hides the load's
    /// latency. Must not change any value. This default does nothing.
    #[inline]
    fn prepare_evaluation(&mut self) {}
    /// Whether the side to move is in check.
    fn in_check(&self) -> bool;
    /// Whether the legal move `m` gives check: what `in_check` says after it. The search
    /// asks before it makes a move, so that the late quiet moves it prunes are never played;
    /// this default plays the move, and a game that can tell from its board should say so.
    fn gives_check(&mut self, m: Self::Move) -> bool {
        self.play(m);
        let check = self.in_check();
        self.undo();
        check
    }
    /// A draw by rule at this point of the path; `search_root_ply` is `ply()` at the root,
    /// so repetitions inside the search can be told from those in the game history.
    fn draw(&self, search_root_ply: usize) -> Option<Draw>;
    /// A signature of the last `plies` positions before this one (those since the last
    /// irreversible move, when `plies` reaches further, and then the move-rule count too),
    /// each with whether it lies before `search_root_ply`, where repetitions count
    /// differently. Two paths to a position with equal signatures over the distance a
    /// value's draws reached give that value the same draws (`GHI=exact`). `None`: not
    /// tracked (then `exact` acts as `mark`).
    fn history_signature(&self, _search_root_ply: usize, _plies: usize) -> Option<u64> {
        None
    }
    /// Probes and hits of the game's evaluation caches since the game object was made, for
    /// statistics: `[0]` whole evaluations by position key, `[1]` a partial cache (chess:
    /// the pawn hash, probed when `[0]` misses); `(0, 0)` for a cache the game lacks.
    fn eval_cache_counters(&self) -> [(u64, u64); 2] {
        [(0, 0); 2]
    }
    /// The value when the side to move has no legal move.
    fn no_moves(&self) -> NoMoves;
    /// Whether the side to move can repeat a position of the search path (from
    /// `search_root_ply` on) with one move, so it can count on a draw. Optional.
    fn has_upcoming_repetition(&self, _search_root_ply: usize) -> bool {
        false
    }

    /// Captures (including en passant).
    fn is_capture(&self, m: Self::Move) -> bool;
    /// Promotions.
    fn is_promotion(&self, m: Self::Move) -> bool;
    /// Captures and promotions, the moves the search treats as tactical. A game whose moves
    /// answer both in one test overrides it (asked for every scored and searched move).
    #[inline]
    fn is_tactical(&self, m: Self::Move) -> bool {
        self.is_capture(m) || self.is_promotion(m)
    }
    /// Most valuable victim, least valuable attacker; 0 for quiet moves.
    fn mvv_lva(&self, m: Self::Move) -> i32;
    /// Static exchange evaluation of the move, in evaluation units.
    fn see(&self, m: Self::Move) -> i32;
    /// Whether `see(m) >= threshold`; games may answer faster than computing it.
    fn see_ge(&self, m: Self::Move, threshold: i32) -> bool {
        self.see(m) >= threshold
    }
    /// The value of the piece a capture removes (delta pruning); 0 for quiet moves.
    fn captured_value(&self, m: Self::Move) -> i32;
    /// Whether the move captures on the square where the opponent's last move landed.
    fn is_recapture(&self, m: Self::Move) -> bool;
    /// Whether the move pushes a pawn to the seventh rank (or the game's equivalent).
    fn is_advanced_pawn_push(&self, m: Self::Move) -> bool;
    /// Whether the move pushes a passed pawn (no enemy pawn ahead on its own or an adjacent
    /// file) to the sixth or seventh rank, or the game's equivalent: the quiet moves that
    /// `spare_passed_pushes` keeps out of pruning and reductions. Games without pawns keep
    /// the default.
    fn is_passed_pawn_push(&self, _m: Self::Move) -> bool {
        false
    }

    /// The 16-bit encoding a transposition table stores. Never 0 for a real move.
    fn encode(m: Self::Move) -> u16;
    /// Rebuilds an encoded move and returns it only if it is legal here (the sanity check
    /// against hash collisions and stale killers).
    fn decode(&self, packed: u16) -> Option<Self::Move>;
    /// The history-table slot of a move, below `HISTORY_SIZE`.
    fn history_index(&self, m: Self::Move) -> usize;
    /// The main history's slot of a quiet move with `butterfly_history`, below
    /// `BUTTERFLY_SIZE` (chess: side, from- and to-square). This default reuses
    /// `history_index`.
    fn butterfly_index(&self, m: Self::Move) -> usize {
        self.history_index(m)
    }
    /// A key of the features the static evaluation errs on alike, for correction history
    /// (chess: the pawn structure and the side to move). 0: one shared slot.
    fn correction_key(&self) -> u64 {
        0
    }
    /// Keys of the side to move's pieces other than pawns and of the other side's, for the
    /// non-pawn correction tables (`correction_non_pawn`). 0: one shared slot.
    fn correction_keys_non_pawn(&self) -> [u64; 2] {
        [0, 0]
    }
    /// The capture-history slot of a capture or promotion, below `CAPTURE_HISTORY_SIZE`
    /// (chess: moving piece, target square and captured piece type).
    fn capture_history_index(&self, m: Self::Move) -> usize {
        self.history_index(m)
    }
    /// The proven outcome from an endgame table, when the position is in one and was just
    /// reached by an irreversible move (chess: a capture or pawn move, so the table's
    /// move-rule verdict is exact). Games without tables answer `None`.
    fn table_outcome(&self) -> Option<TableOutcome> {
        None
    }
    /// The history-table slot of the opponent's last move (for the countermove table).
    fn last_move_index(&self) -> Option<usize>;
}
