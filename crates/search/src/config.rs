//! One configuration struct holds every enhancement's switch and parameters.
//!
//! `SearchConfig::default()` is the strongest setting measured; `SearchConfig::bare()` is plain
//! fail-hard alpha-beta with iterative deepening and nothing else, the baseline of every
//! ablation. The UCI front-end exposes each field as an option (see `OPTIONS`).

use crate::tt::Replacement;

/// The core algorithm.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Every child with the full window.
    AlphaBeta,
    /// NegaScout / principal variation search: first child with the full window, the rest
    /// with a null window, re-searched when they beat alpha.
    Pvs,
}

/// How the null-move depth reduction R is chosen.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NullReduction {
    Two,
    Three,
    /// Heinz's adaptive null move: R = 3 above `null_adaptive_depth`, else 2.
    Adaptive,
    /// Grows with depth and with the margin over beta, as Stockfish and Ethereal do:
    /// R = 3 + depth / 4 + min((eval - beta) / 200, 3).
    Dynamic,
}

/// History weight per cutoff at remaining depth d.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum HistoryWeight {
    /// 2^d, as Schaeffer found best.
    PowerOfTwo,
    /// d².
    Squared,
    /// Gravity: bonus to the cutoff move, malus to the quiet moves tried before it, scores
    /// pulled toward a bound (`v += b − v·|b|/MAX`); see `history.rs`.
    Gravity,
}

/// What the search does about values that rest on repetition or move-rule draws.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GhiMode {
    /// Store everything as if path-independent (the naive table, for comparison).
    Ignore,
    /// Mark path-dependent values in the table and never take a cutoff from them.
    Mark,
    /// Kishimoto & Müller's general solution ("A General Solution to the Graph History
    /// Interaction Problem", AAAI 2004), adapted to alpha-beta: a path-dependent value is
    /// stored with a signature of the history it was searched under (the positions a search
    /// from there could repeat, and the move-rule count), and cuts off only where the
    /// current path has the same signature, so it is reused exactly along compatible paths.
    Exact,
}

impl GhiMode {
    /// Every mode, for option lists.
    pub const ALL: [GhiMode; 3] = [GhiMode::Mark, GhiMode::Ignore, GhiMode::Exact];

    /// The mode's name in options and reports.
    pub fn name(self) -> &'static str {
        match self {
            GhiMode::Ignore => "ignore",
            GhiMode::Mark => "mark",
            GhiMode::Exact => "exact",
        }
    }

    /// The mode called `name` (as [`GhiMode::name`] spells it).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|mode| mode.name() == name)
    }
}

/// Every enhancement's switch and parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchConfig {
    // Core algorithm.
    pub algorithm: Algorithm,
    /// Return the best value found even outside the window (fail-soft) or clamp it.
    pub fail_soft: bool,
    /// Iterative-deepening depth step (1 or 2).
    pub depth_step: u8,
    /// Mate-distance pruning.
    pub mate_distance_pruning: bool,

    // Transposition table.
    pub tt: bool,
    pub tt_replacement: Replacement,
    /// Verify entries with 128 key bits instead of 64.
    pub tt_wide_keys: bool,
    /// Lazy SMP: keep a key's entry that another thread stored in a deeper iteration of
    /// this search against a shallower, inexact result (`TranspositionTable::store_with`),
    /// so the main thread stops overwriting a helper's deeper work. One thread: no change.
    pub tt_keep_deeper: bool,
    /// Also prefetch a child's table entry before the move is made, with the key the game
    /// predicts (`Game::predicted_key`), so the load overlaps making the move. Speed only:
    /// the tree is the same.
    pub tt_early_prefetch: bool,
    /// Bring the child's evaluation state up to date right after the prefetch
    /// (`Game::prepare_evaluation`; chess: the network's accumulator), so that work overlaps
    /// the table load instead of following it. Speed only: the tree is the same.
    pub eager_accumulator: bool,
    /// Use the table's best move first.
    pub tt_move: bool,

    // Evaluation knowledge the search hands to the game (`Game::set_eval_knowledge`).
    /// Mop-up: in won pawnless endings the evaluation drives the defending king to the
    /// edge (chess: `eval/endgame.rs`).
    pub mop_up: bool,
    /// King and pawn against king scored exactly by a bitbase (chess: `eval/kpk.rs`).
    pub kpk_bitbase: bool,
    /// A bare king against mating material scored as a win with a gradient towards the
    /// mate, by either evaluation (chess: `eval/endgame.rs`, `bare_king_mate`).
    pub bare_king_mate: bool,
    /// The network's evaluation multiplied by the classic evaluation's endgame scale in
    /// drawish endings (chess: `eval/endgame.rs`, `scale`): the network learned few of them.
    pub network_endgame_scale: bool,
    /// Percent of the classic evaluation blended into the network's in endings of at most
    /// six men (0: the network alone; chess: `Position::evaluate`). Each evaluation reads
    /// endgames the other misjudges (`docs/strength.md`).
    pub network_classic_blend: i32,

    // Move ordering.
    /// Knowledge heuristic: winning/equal captures by SEE and MVV-LVA first, promotions,
    /// losing captures last.
    pub knowledge: bool,
    /// Order captures by SEE (otherwise MVV-LVA only).
    pub knowledge_see: bool,
    pub killers: bool,
    pub history: bool,
    pub history_weight: HistoryWeight,
    /// Halve history scores between searches.
    pub history_aging: bool,
    /// Refutation (PV) table: the previous iteration's principal variation first.
    pub refutation: bool,
    pub countermove: bool,
    /// Staged generation: captures and promotions are generated and tried before the quiet
    /// moves are generated at all (`Game::generate_quiet`), so a node that a capture cuts
    /// off never generates its quiet moves. Tied scores may then be picked in another order
    /// than from the full list, so the tree is not the same node for node.
    pub staged_generation: bool,
    /// The main history indexed by side, from- and to-square (the butterfly board of
    /// Schaeffer's history heuristic, as Stockfish and Ethereal index it) instead of by
    /// piece and to-square, which the continuation histories keep.
    pub butterfly_history: bool,
    /// Capture history (moving piece, target, captured type) orders captures within their
    /// SEE class, with gravity updates.
    pub capture_history: bool,
    /// The capture-history score is divided by this before it is added to MVV-LVA.
    pub capture_history_divisor: i32,
    /// Continuation histories (the quiet move as an answer to the moves 1 and 2 plies
    /// before) in quiet-move ordering, LMR and quiet-move pruning.
    pub continuation_history: bool,
    /// LMR reduces by −(continuation score) / divisor plies more, at most ±2 (0: unused).
    pub continuation_lmr_divisor: i32,
    /// Quiet moves at depth ≤ 3 of non-PV nodes whose continuation score is below
    /// −margin × depth are pruned (0: never).
    pub continuation_prune_margin: i32,

    // Windows.
    pub aspiration: bool,
    /// First aspiration half-width (t1), then the second (t2), then an open window.
    pub aspiration_t1: i32,
    pub aspiration_t2: i32,
    /// Gradual widening instead of t1/t2/open: each fail moves the failing bound past the
    /// value returned by the current half-width (from t1), which then grows by this
    /// percent; a fail low also draws beta halfway down (0: staged widening).
    pub aspiration_growth: i32,

    // Null move.
    pub null_move: bool,
    pub null_reduction: NullReduction,
    pub null_adaptive_depth: i32,
    pub null_min_depth: i32,
    /// Null move only where the side to move has at least this many pieces besides pawns
    /// and king (`Game::non_pawn_pieces`): 1 is the classic rule (any piece); 2 also spares
    /// a lone piece, where zugzwang is common.
    pub null_min_pieces: u32,
    /// Count for the piece rules above (and `null_verification_endgame`) only the pieces
    /// that can move (`Game::mobile_non_pawn_pieces`): walled-in pieces do not make
    /// zugzwang less likely.
    pub null_mobile_pieces: bool,
    /// No null move where the side to move's pieces besides pawns and king have fewer moves
    /// than this together (`Game::non_pawn_mobility`; 0: no limit): a side with one or two
    /// piece moves is often in zugzwang whatever its material.
    pub null_min_mobility: u32,
    /// Verify a null-move cutoff at depth >= `null_verification_depth` with a search of the
    /// null move's depth in which the side to move may not pass for the next 3/4 of it.
    pub null_verification: bool,
    pub null_verification_depth: i32,
    /// Verify every null-move cutoff where the side to move has at most two pieces besides
    /// pawns and king (`Game::non_pawn_pieces`; Toga II's endgame threshold) and the reduced
    /// depth is above zero. The same search as `null_verification`, nested when it must be.
    pub null_verification_endgame: bool,
    /// Store null-move cutoffs in the table (the course notes advise against it).
    pub null_store_tt: bool,

    // Late move reductions.
    pub lmr: bool,
    /// Moves searched at full depth before reductions start (K).
    pub lmr_full_depth_moves: usize,
    pub lmr_min_depth: i32,
    /// Reduce by a log(depth)·log(move number) table instead of one ply.
    pub lmr_log_table: bool,
    /// The table's formula in hundredths of a ply: base + ln(d)·ln(n) · 100 / divisor.
    pub lmr_base: i32,
    pub lmr_divisor: i32,

    // Shallow-depth pruning (Heinz, "Extended futility pruning"; reverse futility is also
    // known as static null move).
    /// Return the static eval at non-PV nodes when it beats beta by `margin × depth`.
    pub reverse_futility: bool,
    pub reverse_futility_margin: i32,
    pub reverse_futility_depth: i32,
    /// No reverse futility where the side to move's pieces besides pawns and king have
    /// fewer moves than this together (`Game::non_pawn_mobility`; 0: no limit): like the
    /// null move, it trusts the side to move to find a move that keeps its eval.
    pub reverse_futility_min_mobility: u32,
    /// Skip quiet moves at non-PV nodes when the static eval plus `margin × depth` cannot
    /// reach alpha.
    pub futility: bool,
    pub futility_margin: i32,
    pub futility_depth: i32,
    /// Skip quiet moves at non-PV nodes after `3 + depth²` moves (late move pruning).
    pub late_move_pruning: bool,
    pub late_move_pruning_depth: i32,
    /// Razoring: at a non-PV node of depth ≤ `razoring_depth` whose static eval plus
    /// `razoring_margin × depth` is still below alpha, a quiescence search decides; when it
    /// fails low too, so does the node, without searching a move.
    pub razoring: bool,
    pub razoring_depth: i32,
    pub razoring_margin: i32,
    /// Whether the static eval rose against two plies before feeds the shallow pruning
    /// margins, late move pruning's move count and LMR.
    pub improving: bool,

    /// SEE pruning at depth ≤ `see_pruning_depth` (after the first move, not in check):
    /// quiet moves whose SEE is below −`see_quiet_margin`·depth, captures below
    /// −`see_capture_margin`·depth².
    pub see_pruning: bool,
    pub see_pruning_depth: i32,
    pub see_quiet_margin: i32,
    pub see_capture_margin: i32,
    /// `SEECheckSpare`: a move that gives check is SEE-pruned only below
    /// −`see_check_margin`·depth (or its class's threshold, whichever is lower), so a
    /// checking sacrifice (WAC's Bf7+, Qxg7+, Rxh2+) survives to be searched at the
    /// depths where the plain thresholds would skip it. Stockfish, too, judges checks by
    /// a threshold linear in depth, the one of its captures.
    pub see_check_spare: bool,
    pub see_check_margin: i32,
    /// `SEEQuietQuadratic` (0: off): quiet moves are SEE-pruned below
    /// −`see_quiet_quadratic`·depth² instead of −`see_quiet_margin`·depth. A quadratic
    /// threshold is stricter at depths 1–2 and far looser deeper (−1,600 at depth 8 for 25,
    /// against −480), so a quiet piece sacrifice survives where it is searched deep enough
    /// to be seen through (WAC's Qe5, h3); Stockfish's quiet threshold grows with the
    /// square of the depth for this reason.
    pub see_quiet_quadratic: i32,
    /// History pruning: quiet moves at non-PV nodes of depth ≤ `history_pruning_depth` whose
    /// history plus continuation score is below −`history_pruning_margin`·depth (gravity
    /// scores: with 2^d or d² history, scores are never negative).
    pub history_pruning: bool,
    pub history_pruning_depth: i32,
    pub history_pruning_margin: i32,
    /// Futility, history and SEE pruning of a quiet move ask at a reduced depth (the node's
    /// depth less the LMR table's reduction for the move's number, at least one ply)
    /// instead of the node's depth, in their depth limits and margins: a late move at
    /// depth 5-7 is judged as the 2-4-ply search a reduction would give it.
    /// Late move pruning keeps the node's depth. Stockfish's `lmrDepth` pruning.
    pub reduced_depth_pruning: bool,
    /// Quiet pushes of a passed pawn to the sixth or seventh rank are never pruned
    /// (move count, futility, history, SEE) nor reduced: the "dangerous" pawn moves that
    /// Fruit and Glaurung spare, for pawn races against pieces (`endgames-tb.epd`'s rook
    /// against pawns).
    pub spare_passed_pushes: bool,
    /// The table's value stands in for the static eval in pruning (reverse futility,
    /// razoring, null move, ProbCut, futility) when its bound says the true score lies on
    /// the far side of the eval: a lower bound above it, an upper bound below it, or an
    /// exact value (a refinement of the eval by a search already made, as Stockfish does).
    /// `improving` and the correction history keep the static eval.
    pub tt_value_eval: bool,
    /// ProbCut: at non-PV nodes of depth ≥ `probcut_depth`, captures that beat
    /// beta + `probcut_margin` in a search `probcut_reduction` plies shallower cut the node.
    pub probcut: bool,
    pub probcut_depth: i32,
    pub probcut_margin: i32,
    /// How many plies shallower than the node the verifying search is (its child is searched
    /// at `depth - 1 - probcut_reduction`); the table entry a cutoff stores is this much
    /// shallower than the node.
    pub probcut_reduction: i32,
    /// No ProbCut where the table already holds a search of at least `depth − 3` whose
    /// value stayed below the raised beta (Stockfish's guard): the table has looked deeper
    /// than the ProbCut search would and found no such gain.
    pub probcut_table_guard: bool,
    /// Singular extensions: at depth ≥ `singular_depth`, a table move whose lower bound
    /// nothing else reaches within `singular_margin`·depth / 8 is extended (twice when short
    /// by `singular_double_margin` more, at most `singular_double_limit` times per path);
    /// multi-cut when the others beat beta too; one ply less when the table value ≥ beta.
    pub singular: bool,
    pub singular_depth: i32,
    pub singular_margin: i32,
    pub singular_double_margin: i32,
    pub singular_double_limit: u8,
    /// LMR refinements: the reduction also follows the move's history (gravity) score, is
    /// `lmr_pv_less` plies less at PV nodes and `lmr_cut_more` more at expected cut nodes.
    pub lmr_refined: bool,
    pub lmr_history_divisor: i32,
    pub lmr_pv_less: i32,
    pub lmr_cut_more: i32,
    /// LMR's re-search depth follows the reduced result (Stockfish's deeper and shallower
    /// re-searches, 2022): a reduced search that beat the node's best value so far by more
    /// than `lmr_deeper_margin` is repeated a ply deeper than the unreduced depth, one that
    /// beat it by less than `lmr_shallower_margin` a ply shallower (and not at all when that
    /// is the reduced depth itself).
    pub lmr_research_depth: bool,
    pub lmr_deeper_margin: i32,
    pub lmr_shallower_margin: i32,
    /// PV memory in the table (Stockfish's `ttPv`, 2019): a node is marked when it is a PV
    /// node or its table entry was stored by a marked node; the mark goes into its own entry,
    /// and late moves at marked nodes are reduced one ply less. A position once on the
    /// principal variation is likely to return to it when the line changes, so its
    /// alternatives get a deeper look than an ordinary cut or all node's.
    pub tt_pv: bool,
    /// Quiet late moves reduced one ply more where the node's table move is a capture or
    /// promotion (Stockfish's `ttCapture`): where the best move found so far is tactical, a
    /// quiet alternative is less likely to be better.
    pub lmr_tt_capture: bool,
    /// LMR of losing captures: a capture or promotion the picker ranked below the quiet
    /// moves (SEE < 0) is reduced as a quiet move would be, instead of searched at full
    /// depth (Stockfish reduces late captures too, by less). Checks and extended moves stay
    /// unreduced, as for quiet moves.
    pub lmr_captures: bool,
    /// LMR at the root: the root's late quiet moves (not checks, not extended) get the
    /// reduction of any PV node's, with a full-depth null-window re-search when one beats
    /// alpha; without it every root move after the first is searched to full depth. PVS and
    /// MultiPV 1 only (several lines are each searched at full depth).
    pub root_lmr: bool,
    /// Correction history: a table keyed by pawn structure learns search value minus static
    /// eval and corrects the eval the pruning decisions use.
    pub correction_history: bool,
    /// Two more correction tables, keyed by the side to move's and the other side's pieces
    /// other than pawns (`Game::correction_keys_non_pawn`): half their sum is added to the
    /// pawn table's correction, and they learn the same errors. Needs `correction_history`.
    /// Stockfish's non-pawn correction history (2024) is the model.
    pub correction_non_pawn: bool,
    /// With `correction_non_pawn`: every table learns the error the corrections together
    /// leave (its own reading plus search value minus the corrected eval) instead of the whole
    /// error of the raw eval, so that their sum, not each, converges to the error. Stockfish
    /// updates its correction tables this way.
    pub correction_residual: bool,
    /// The largest correction one table's reading may give, in evaluation units (the tables
    /// learn up to 128, the default: no cut). Weiss's first correction history to pass was
    /// capped at about a quarter of that.
    pub correction_max: i32,
    /// Internal iterative reduction: one ply less at depth ≥ `iir_min_depth` without a
    /// table move.
    pub iir: bool,
    pub iir_min_depth: i32,
    /// Endgame tables: probe the game's tables (`Game::table_outcome`) at nodes at least
    /// `syzygy_probe_depth` plies from the horizon; a proven result ends the node. Has no
    /// effect while the game has no tables loaded.
    pub syzygy: bool,
    pub syzygy_probe_depth: i32,

    // Extensions.
    pub extend_check: bool,
    /// The check extension only for checks whose exchange holds (SEE ≥ 0).
    pub extend_check_see: bool,
    pub extend_single_reply: bool,
    pub extend_recapture: bool,
    pub extend_pawn_seventh: bool,
    /// Extensions stop beyond this many times the iteration depth in plies, so the search
    /// always terminates.
    pub extension_ply_factor: u8,

    // Quiescence.
    pub quiescence: bool,
    /// Skip captures that lose material by SEE.
    pub qs_see_filter: bool,
    /// Also try quiet checking moves at the first quiescence ply.
    pub qs_checks: bool,
    pub qs_delta_pruning: bool,
    pub qs_delta_margin: i32,
    /// Move-count pruning in quiescence (0: off): once this many moves were searched at a
    /// node not in check, a further capture is skipped unless it promotes or recaptures
    /// (takes on the square where the last move captured; Stockfish's quiescence skips its
    /// late captures likewise).
    pub qs_move_limit: u32,
    pub qs_tt: bool,

    // Pre-searching (Hlynka & Schaeffer).
    pub presearch: bool,
    /// Largest pre-search extension d2 - d1 (Risk).
    pub presearch_risk: i32,
    /// Pre-search only within this many plies of the root (None: unlimited) (NearRoot).
    pub presearch_near_root: Option<u32>,
    /// Pre-search only within this many plies of the horizon (NearLeaf).
    pub presearch_near_leaf: i32,

    // Enhanced transposition cutoffs (Plaat et al.).
    pub etc: bool,
    pub etc_min_depth: i32,

    // Repetition and GHI.
    pub ghi: GhiMode,
    /// Raise alpha to the draw score when the side to move can repeat a position of the
    /// search path with one move.
    pub upcoming_repetition: bool,
    /// No table cutoffs within this many plies of the game's move rule (chess: the
    /// fifty-move rule), nor mate scores the rule could turn into draws.
    pub fifty_move_guard: u32,

    /// Principal variations to report (MultiPV).
    pub multipv: usize,

    // Lazy SMP.
    /// Play the line of the thread with the deepest completed iteration (equal depths: the
    /// higher score, then the main thread) instead of always the main thread's. One line
    /// (MultiPV 1) only.
    pub smp_best_thread: bool,
    /// Helpers 1, 3, 5, ... search every other depth (2, 4, 6, ...), so they run ahead of
    /// the main thread and leave deeper entries in the shared table for it (the depth
    /// skipping of Stockfish 7-10's Lazy SMP, in its simplest form).
    pub smp_helper_skip: bool,
    /// Helpers 1, 3, 5, ... build their LMR table with this many hundredths of a ply added
    /// to `lmr_base` (0: off; negative: they reduce less, the base no lower than 0), so
    /// that they search a tree of another shape than the main thread's and bring it other
    /// entries (a source of diversity besides depth, which issue 21 suggests trying).
    pub smp_helper_lmr: i32,
    /// Threads put off a move another thread is searching until the node's other moves
    /// are done (simplified ABDADA, `abdada.rs`), so they split nodes instead of
    /// searching the same subtree side by side.
    pub smp_defer: bool,
    /// Helpers never search a depth the main thread has completed: an iteration starts
    /// above the main thread's deepest completed one (plus the helper's offset), and an
    /// iteration the main thread completes first is abandoned for the next. Its entries
    /// would mostly arrive in the table after the main thread needed them.
    pub smp_helper_sync: bool,
    /// Helpers search the root moves after the first in the reverse of the usual order
    /// (MultiPV 1): the main thread goes down the list while a helper comes up it, so each
    /// finds the other's entries for the moves it reaches last instead of both searching the
    /// same moves side by side.
    pub smp_root_order: bool,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            algorithm: Algorithm::Pvs,
            fail_soft: true,
            depth_step: 1,
            mate_distance_pruning: true,
            tt: true,
            tt_replacement: Replacement::Bucket,
            tt_wide_keys: false,
            tt_keep_deeper: false,
            tt_early_prefetch: true,
            eager_accumulator: true,
            tt_move: true,
            mop_up: false,
            kpk_bitbase: false,
            // On since its non-regression SPRT passed (docs/strength.md, bare kings).
            bare_king_mate: true,
            network_endgame_scale: false,
            network_classic_blend: 0,
            knowledge: true,
            knowledge_see: true,
            killers: true,
            history: true,
            history_weight: HistoryWeight::Gravity,
            history_aging: true,
            refutation: true,
            countermove: true,
            staged_generation: false,
            butterfly_history: false,
            capture_history: false,
            capture_history_divisor: 8,
            continuation_history: false,
            continuation_lmr_divisor: 8192,
            continuation_prune_margin: 2048,
            aspiration: true,
            // The static-evaluation margins (aspiration, reverse futility, futility, delta)
            // are the classic evaluation's ×1.25, the network's wider scale (SPRT passed,
            // docs/strength.md, "Search margins for the network").
            aspiration_t1: 31,
            aspiration_t2: 188,
            aspiration_growth: 0,
            null_move: true,
            null_reduction: NullReduction::Dynamic,
            null_adaptive_depth: 6,
            null_min_depth: 2,
            null_min_pieces: 1,
            null_verification: false,
            null_verification_depth: 12,
            null_verification_endgame: false,
            null_mobile_pieces: false,
            null_min_mobility: 0,
            null_store_tt: false,
            lmr: true,
            lmr_full_depth_moves: 3,
            lmr_min_depth: 3,
            lmr_log_table: true,
            lmr_base: 75,
            lmr_divisor: 225,
            reverse_futility: true,
            reverse_futility_margin: 94,
            reverse_futility_depth: 6,
            reverse_futility_min_mobility: 0,
            futility: true,
            futility_margin: 125,
            futility_depth: 3,
            late_move_pruning: true,
            late_move_pruning_depth: 3,
            razoring: false,
            razoring_depth: 3,
            razoring_margin: 250,
            improving: true,
            see_pruning: true,
            see_pruning_depth: 8,
            see_quiet_margin: 60,
            see_capture_margin: 20,
            see_check_spare: false,
            see_check_margin: 200,
            see_quiet_quadratic: 0,
            history_pruning: false,
            history_pruning_depth: 3,
            history_pruning_margin: 2048,
            reduced_depth_pruning: false,
            spare_passed_pushes: false,
            tt_value_eval: false,
            probcut: true,
            probcut_depth: 5,
            probcut_margin: 200,
            probcut_reduction: 4,
            probcut_table_guard: false,
            singular: true,
            singular_depth: 8,
            singular_margin: 16,
            singular_double_margin: 20,
            singular_double_limit: 6,
            lmr_refined: false,
            tt_pv: false,
            lmr_tt_capture: false,
            lmr_history_divisor: 8192,
            lmr_pv_less: 1,
            lmr_cut_more: 1,
            lmr_research_depth: false,
            lmr_deeper_margin: 50,
            lmr_shallower_margin: 8,
            lmr_captures: false,
            root_lmr: false,
            correction_history: false,
            correction_non_pawn: false,
            correction_residual: false,
            correction_max: crate::correction::MAX_CORRECTION,
            iir: true,
            iir_min_depth: 4,
            syzygy: true,
            syzygy_probe_depth: 1,
            extend_check: true,
            extend_check_see: false,
            extend_single_reply: true,
            extend_recapture: false,
            extend_pawn_seventh: true,
            extension_ply_factor: 2,
            quiescence: true,
            qs_see_filter: true,
            qs_checks: false,
            qs_delta_pruning: true,
            qs_delta_margin: 250,
            qs_move_limit: 0,
            qs_tt: true,
            presearch: false,
            presearch_risk: 2,
            presearch_near_root: None,
            presearch_near_leaf: 3,
            etc: false,
            etc_min_depth: 4,
            ghi: GhiMode::Mark,
            upcoming_repetition: true,
            fifty_move_guard: 10,
            multipv: 1,
            smp_best_thread: false,
            smp_helper_skip: false,
            smp_helper_lmr: 0,
            smp_defer: false,
            smp_helper_sync: false,
            smp_root_order: false,
        }
    }
}

/// The switches of the game's evaluation, handed to the game at the start of each search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EvalKnowledge {
    pub mop_up: bool,
    pub kpk_bitbase: bool,
    pub bare_king_mate: bool,
    pub network_endgame_scale: bool,
    /// `SearchConfig::network_classic_blend`, 0..=100.
    pub network_classic_blend: u8,
}

/// Evaluations the switchable knowledge changed (running counts kept by the game,
/// `Game::eval_knowledge_counts`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EvalKnowledgeCounts {
    /// Classic evaluations the mop-up gradient changed.
    pub mop_up: u64,
    /// Positions scored by the KPK bitbase.
    pub kpk: u64,
    /// Bare-king endings scored by `bare_king_mate`.
    pub bare_king: u64,
    /// Network values scaled down in drawish endings (`network_endgame_scale`).
    pub network_scaled: u64,
    /// Network values blended with the classic evaluation (`network_classic_blend`).
    pub network_blended: u64,
}

impl EvalKnowledgeCounts {
    /// The counts gained since `start` (an earlier reading of the same counters).
    pub fn since(self, start: EvalKnowledgeCounts) -> EvalKnowledgeCounts {
        EvalKnowledgeCounts {
            mop_up: self.mop_up - start.mop_up,
            kpk: self.kpk - start.kpk,
            bare_king: self.bare_king - start.bare_king,
            network_scaled: self.network_scaled - start.network_scaled,
            network_blended: self.network_blended - start.network_blended,
        }
    }
}

impl SearchConfig {
    /// The evaluation's switches of this configuration.
    pub fn eval_knowledge(&self) -> EvalKnowledge {
        EvalKnowledge {
            mop_up: self.mop_up,
            kpk_bitbase: self.kpk_bitbase,
            bare_king_mate: self.bare_king_mate,
            network_endgame_scale: self.network_endgame_scale,
            network_classic_blend: self.network_classic_blend.clamp(0, 100) as u8,
        }
    }

    /// Plain alpha-beta (fail-hard) with iterative deepening, a quiescence search and
    /// mate scores, and no other enhancement: the baseline of ablations.
    pub fn bare() -> Self {
        SearchConfig {
            algorithm: Algorithm::AlphaBeta,
            fail_soft: false,
            depth_step: 1,
            mate_distance_pruning: false,
            tt: false,
            tt_replacement: Replacement::Always,
            tt_wide_keys: false,
            tt_keep_deeper: false,
            tt_early_prefetch: false,
            eager_accumulator: false,
            tt_move: false,
            mop_up: false,
            kpk_bitbase: false,
            bare_king_mate: false,
            network_endgame_scale: false,
            network_classic_blend: 0,
            knowledge: false,
            knowledge_see: false,
            killers: false,
            history: false,
            history_weight: HistoryWeight::PowerOfTwo,
            history_aging: false,
            refutation: false,
            countermove: false,
            staged_generation: false,
            butterfly_history: false,
            capture_history: false,
            continuation_history: false,
            aspiration: false,
            null_move: false,
            null_verification: false,
            null_verification_endgame: false,
            null_mobile_pieces: false,
            null_min_mobility: 0,
            null_store_tt: false,
            lmr: false,
            lmr_log_table: false,
            reverse_futility: false,
            futility: false,
            late_move_pruning: false,
            razoring: false,
            improving: false,
            see_pruning: false,
            see_check_spare: false,
            see_quiet_quadratic: 0,
            history_pruning: false,
            reduced_depth_pruning: false,
            spare_passed_pushes: false,
            tt_value_eval: false,
            probcut: false,
            probcut_table_guard: false,
            singular: false,
            lmr_refined: false,
            lmr_research_depth: false,
            tt_pv: false,
            lmr_tt_capture: false,
            lmr_captures: false,
            root_lmr: false,
            correction_history: false,
            correction_non_pawn: false,
            correction_residual: false,
            correction_max: crate::correction::MAX_CORRECTION,
            iir: false,
            syzygy: false,
            extend_check: false,
            extend_check_see: false,
            extend_single_reply: false,
            extend_recapture: false,
            extend_pawn_seventh: false,
            qs_see_filter: false,
            qs_checks: false,
            qs_delta_pruning: false,
            qs_tt: false,
            presearch: false,
            etc: false,
            ghi: GhiMode::Mark,
            upcoming_repetition: false,
            ..SearchConfig::default()
        }
    }

    /// Plain alpha-beta without quiescence: the value equals negamax at the nominal depth,
    /// which the exactness tests rely on.
    pub fn exact_bare() -> Self {
        SearchConfig {
            quiescence: false,
            ..SearchConfig::bare()
        }
    }
}
