//! Forward pruning and reductions: null-move pruning, late move reductions (with their
//! history, PV and cut-node refinements), reverse futility, razoring, futility, late move
//! pruning, SEE pruning and history pruning.

use crate::config::NullReduction;
use crate::game::Game;
use crate::score::{self, Bound, MAX_PLY};
use crate::searcher::Searcher;
use crate::tt::{EntryFlags, Store};

/// What the history tables say about a quiet move (0 for captures and promotions).
#[derive(Copy, Clone, Debug, Default)]
pub struct MoveScores {
    /// The history table's score (gravity scores can be negative).
    pub history: i32,
    /// The sum of the continuation histories' scores.
    pub continuation: i32,
}

/// What late-move reduction reads about the node a move is searched from.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct LmrNode {
    /// The static eval rose against two plies before (`improving`).
    pub improving: bool,
    pub pv_node: bool,
    pub cut_node: bool,
    /// The node's mark as on or once on the PV (`tt_pv`).
    pub tt_pv: bool,
    /// The move is quiet and the node's table move a capture or promotion
    /// (`lmr_tt_capture`).
    pub tt_capture: bool,
}

/// Late-move reductions by (depth, move number): `base + ln(d)·ln(n) / divisor` plies, base and
/// divisor in hundredths (default 0.75 and 2.25).
pub struct LmrTable {
    table: [[u8; 64]; 64],
    base: i32,
    divisor: i32,
}

impl LmrTable {
    /// `divisor` must be positive (the UCI option's range sees to that).
    pub fn new(base: i32, divisor: i32) -> LmrTable {
        let mut table = [[0u8; 64]; 64];
        for (depth, row) in table.iter_mut().enumerate().skip(1) {
            for (number, cell) in row.iter_mut().enumerate().skip(1) {
                let r = f64::from(base) / 100.0
                    + (depth as f64).ln() * (number as f64).ln() * 100.0
                        / f64::from(divisor.max(1));
                *cell = r.clamp(0.0, 63.0) as u8;
            }
        }
        LmrTable {
            table,
            base,
            divisor,
        }
    }

    /// Whether the table was built for these formula parameters.
    pub fn built_for(&self, base: i32, divisor: i32) -> bool {
        self.base == base && self.divisor == divisor
    }

    #[inline]
    pub fn get(&self, depth: i32, number: usize) -> i32 {
        i32::from(self.table[depth.clamp(0, 63) as usize][number.min(63)])
    }
}

/// The null-move depth reduction R for a node of remaining `depth` whose static eval beats
/// `beta` (the caller checks eval >= beta).
pub fn null_reduction(
    kind: NullReduction,
    adaptive_depth: i32,
    depth: i32,
    eval: i32,
    beta: i32,
) -> i32 {
    match kind {
        NullReduction::Two => 2,
        NullReduction::Three => 3,
        NullReduction::Adaptive => {
            if depth > adaptive_depth {
                3
            } else {
                2
            }
        }
        NullReduction::Dynamic => 3 + depth / 4 + ((eval - beta) / 200).clamp(0, 3),
    }
}

/// `null_verification_endgame` verifies where the side to move has at most this many pieces
/// besides pawns and king (Toga II's endgame condition; Fruit 2.1 verifies a lone piece).
const ENDGAME_VERIFICATION_PIECES: u32 = 2;

/// Whether a table value with `bound` says more about the node's score than the static
/// `eval` (`tt_value_eval`): an exact value that differs from it, a lower bound above it, or
/// an upper bound below it. A lower bound below the eval (or an upper bound above it) is
/// consistent with the eval and adds nothing.
#[inline]
pub(crate) fn table_value_refines(bound: Bound, value: i32, eval: i32) -> bool {
    match bound {
        Bound::Exact => value != eval,
        Bound::Lower => value > eval,
        Bound::Upper => value < eval,
    }
}

impl<G: Game> Searcher<G> {
    /// Null-move pruning: if passing still fails high at reduced depth, so will a move.
    /// Not in check, not twice in a row, not in PV nodes, not when the side to move has
    /// only pawns and king (zugzwang) or fewer pieces than `null_min_pieces` (with
    /// `null_mobile_pieces`, counting only pieces that can move), not at shallow
    /// depth, not for a side a verification search has locked. Optional verification search;
    /// storing null-move cutoffs in the table is an option, off by default as the notes
    /// advise.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn null_move(
        &mut self,
        game: &mut G,
        beta: i32,
        depth: i32,
        ply: usize,
        eval: i32,
        pv_node: bool,
        null_allowed: bool,
        in_check: bool,
    ) -> Option<i32> {
        let config = &self.config;
        if !config.null_move
            || pv_node
            || !null_allowed
            || in_check
            || depth < config.null_min_depth
            || eval < beta
            || score::is_decisive(beta)
            || !game.null_move_allowed()
            || ply < self.null_lock_until[ply % 2]
        {
            return None;
        }
        let mut pieces = game.non_pawn_pieces();
        if pieces == 0 {
            return None;
        }
        if config.null_mobile_pieces {
            let mobile = game.mobile_non_pawn_pieces();
            if mobile < pieces {
                self.stats.null_immobile_discounts += 1;
                pieces = mobile;
            }
            if pieces == 0 {
                self.stats.null_immobile_skips += 1;
                return None;
            }
        }
        if pieces < config.null_min_pieces {
            self.stats.null_piece_skips += 1;
            return None;
        }
        if config.null_min_mobility > 0 && game.non_pawn_mobility() < config.null_min_mobility {
            self.stats.null_mobility_skips += 1;
            return None;
        }
        let r = null_reduction(
            config.null_reduction,
            config.null_adaptive_depth,
            depth,
            eval,
            beta,
        );
        self.stats.null_tries += 1;
        self.move_slots[ply] = crate::continuation::NO_SLOT;
        game.play_null();
        let value = -self.node(
            game,
            -beta,
            -beta + 1,
            depth - 1 - r,
            ply + 1,
            false,
            false,
            false,
        );
        game.undo_null();
        if self.stopped || value < beta {
            return None;
        }
        let dependence = self.dependence;
        // A null-move "mate" is not a proven mate.
        let value = if score::is_decisive(value) {
            beta
        } else {
            value
        };
        // Verification in Stockfish's form (after Tabibi and Netanyahu's verified null
        // move): at high depth, one verification at a time, the same reduced depth without
        // the null move for this side over the first 3/4 of it, so a zugzwang the pass hid
        // shows up as a fail low. With `null_verification_endgame`, every cutoff where the
        // side to move has at most two pieces (Toga II's endgame threshold; Fruit's is one)
        // is verified whenever the reduced depth is above zero, nested in another side's
        // verification if need be.
        let verify_depth = depth - 1 - r;
        let none_under_way = self.null_lock_until == [0; 2];
        let by_depth = self.config.null_verification
            && depth >= self.config.null_verification_depth
            && none_under_way;
        let thin = self.config.null_verification_endgame
            && verify_depth > 0
            && pieces <= ENDGAME_VERIFICATION_PIECES;
        if by_depth || thin {
            if !by_depth {
                self.stats.null_endgame_verifications += 1;
            }
            let side = ply % 2;
            let outer_lock = self.null_lock_until[side];
            let lock = ply + (3 * verify_depth.max(0) as usize) / 4;
            self.null_lock_until[side] = outer_lock.max(lock);
            self.stats.null_verifications += 1;
            let verified = self.node(game, beta - 1, beta, verify_depth, ply, false, false, false);
            self.null_lock_until[side] = outer_lock;
            if self.stopped {
                return None;
            }
            if verified < beta {
                self.stats.null_verifications_failed += 1;
                return None;
            }
        }
        self.stats.null_cutoffs += 1;
        self.dependence = dependence;
        if self.config.tt && self.config.null_store_tt {
            let flags = self.entry_flags(ply) | EntryFlags::NULL_MOVE;
            self.store(
                game,
                &Store {
                    mv: 0,
                    value: score::to_table(value, ply),
                    eval,
                    depth,
                    bound: Bound::Lower,
                    iteration: self.root_depth as u8,
                    flags,
                    path_signature: 0,
                },
            );
        }
        Some(if self.config.fail_soft { value } else { beta })
    }

    /// Reverse futility pruning (static null move): near the leaves, a static eval far above
    /// beta is trusted to hold. Not in PV nodes, in check, or against mate scores; with
    /// `reverse_futility_min_mobility`, not where the side to move has too few piece moves
    /// to be trusted to keep its eval (zugzwang).
    /// With `improving`, the margin counts one ply less when the eval is rising.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn reverse_futility(
        &mut self,
        game: &G,
        eval: i32,
        beta: i32,
        depth: i32,
        pv_node: bool,
        in_check: bool,
        improving: bool,
    ) -> Option<i32> {
        let config = &self.config;
        let margin_plies = depth - i32::from(config.improving && improving);
        if !config.reverse_futility
            || pv_node
            || in_check
            || depth > config.reverse_futility_depth
            || score::is_decisive(beta)
            || eval - config.reverse_futility_margin * margin_plies < beta
        {
            return None;
        }
        if config.reverse_futility_min_mobility > 0
            && game.non_pawn_mobility() < config.reverse_futility_min_mobility
        {
            self.stats.reverse_futility_mobility_skips += 1;
            return None;
        }
        self.stats.reverse_futility_cutoffs += 1;
        Some(if config.fail_soft { eval } else { beta })
    }

    /// Razoring (Birmingham and Kent's 1977 idea, in the quiescence form Heinz describes in
    /// "Scalable Search in Computer Chess"): near the leaves of a non-PV node, a static eval
    /// so far below alpha that no quiet move is expected to recover asks the quiescence search
    /// with the null window at alpha; when that fails low as well, the node fails low without
    /// searching a move. Not in check, not against mate scores.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn razor(
        &mut self,
        game: &mut G,
        alpha: i32,
        depth: i32,
        ply: usize,
        eval: i32,
        pv_node: bool,
        in_check: bool,
    ) -> Option<i32> {
        let config = &self.config;
        if !config.razoring
            || pv_node
            || in_check
            || depth > config.razoring_depth
            || score::is_decisive(alpha)
            || eval + config.razoring_margin * depth >= alpha
        {
            return None;
        }
        self.stats.razoring_tries += 1;
        let value = self.quiescence(game, alpha, alpha + 1, ply, 0);
        if value > alpha {
            return None;
        }
        self.stats.razoring_cutoffs += 1;
        Some(if self.config.fail_soft { value } else { alpha })
    }

    /// Whether a quiet move (no capture, promotion or check, not a killer) may be skipped at
    /// a non-PV node not in check, after `searched` moves: futility pruning (the eval plus a
    /// margin cannot reach alpha) or late move pruning (too far down the ordering).
    /// With continuation histories, also a move whose continuation score is very bad at
    /// low depth; with history pruning, one whose history plus continuation score is. With
    /// `improving`, a node whose eval is not rising keeps half the moves from late move
    /// pruning, and futility allows one ply more margin to a rising one. Futility and
    /// history pruning ask at `prune_depth` (`reduced_depth`), late move pruning at `depth`.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn prune_quiet(
        &mut self,
        eval: i32,
        alpha: i32,
        depth: i32,
        prune_depth: i32,
        searched: usize,
        scores: MoveScores,
        improving: bool,
    ) -> bool {
        let config = &self.config;
        if searched == 0 || score::is_decisive(alpha) {
            return false;
        }
        if config.continuation_history
            && config.continuation_prune_margin > 0
            && depth <= 3
            && scores.continuation < -config.continuation_prune_margin * depth
        {
            self.stats.continuation_prunes += 1;
            return true;
        }
        let reduced = prune_depth < depth;
        if config.history_pruning
            && prune_depth <= config.history_pruning_depth
            && scores.history + scores.continuation < -config.history_pruning_margin * prune_depth
        {
            self.stats.history_prunes += 1;
            self.stats.reduced_depth_prunes += u64::from(reduced);
            return true;
        }
        let mut move_limit = 3 + depth * depth;
        if config.improving && !improving {
            move_limit /= 2;
        }
        if config.late_move_pruning
            && depth <= config.late_move_pruning_depth
            && searched >= move_limit as usize
        {
            self.stats.late_move_prunes += 1;
            return true;
        }
        let futility_plies = prune_depth + i32::from(config.improving && improving);
        if config.futility
            && prune_depth <= config.futility_depth
            && eval + config.futility_margin * futility_plies <= alpha
        {
            self.stats.futility_prunes += 1;
            self.stats.reduced_depth_prunes += u64::from(reduced);
            return true;
        }
        false
    }

    /// The depth that futility, history and SEE pruning judge the `searched`-th quiet move
    /// at: with `reduced_depth_pruning`, the node's depth less the LMR table's reduction for
    /// the move's number (never below one ply); otherwise the node's depth.
    #[inline]
    pub(crate) fn reduced_depth(&self, depth: i32, searched: usize) -> i32 {
        if self.config.reduced_depth_pruning {
            (depth - self.lmr.get(depth, searched + 1)).max(1)
        } else {
            depth
        }
    }

    /// Plies to reduce the `searched`-th move (0-based count of moves already searched).
    /// With continuation histories, a move that answered the earlier moves well is reduced
    /// less and one that answered them badly more; with `improving`, a node whose eval is
    /// not rising reduces one ply more. The refinements (`lmr_refined`) add the history
    /// score, `lmr_pv_less` plies less at PV nodes and `lmr_cut_more` more at expected cut
    /// nodes (one each by default); `tt_capture`
    /// adds a ply where the table move is a capture (`lmr_tt_capture`); `tt_pv` takes a
    /// ply off at nodes on or once on the PV (`tt_pv` is the node's mark).
    ///
    /// Re-search rules (`late_move` in search.rs): a reduced null-window search that beats
    /// alpha is repeated at full depth with the null window (with `lmr_research_depth`, at
    /// the depth `lmr_research_depth` chooses, and not at all when that is the reduced
    /// depth); in PVS, a null-window result at that depth strictly inside (alpha, beta) is
    /// searched again with the full window. The reduction never takes the child below one
    /// ply.
    #[inline]
    pub(crate) fn lmr_reduction(
        &mut self,
        depth: i32,
        searched: usize,
        scores: MoveScores,
        node: LmrNode,
    ) -> i32 {
        let LmrNode {
            improving,
            pv_node,
            cut_node,
            tt_pv,
            tt_capture,
        } = node;
        let config = &self.config;
        if !config.lmr || searched < config.lmr_full_depth_moves || depth < config.lmr_min_depth {
            return 0;
        }
        let mut reduction = if config.lmr_log_table {
            self.lmr.get(depth, searched + 1).max(1)
        } else {
            1
        };
        if config.continuation_history && config.continuation_lmr_divisor > 0 {
            let change = (scores.continuation / config.continuation_lmr_divisor).clamp(-2, 2);
            if change != 0 {
                self.stats.continuation_lmr_changes += 1;
                reduction = (reduction - change).max(1);
            }
        }
        if config.improving && !improving {
            reduction += 1;
        }
        if config.lmr_refined {
            let before = reduction;
            if config.lmr_history_divisor > 0 {
                reduction -= (scores.history / config.lmr_history_divisor).clamp(-2, 2);
            }
            if pv_node {
                reduction -= config.lmr_pv_less;
            }
            if cut_node {
                reduction += config.lmr_cut_more;
            }
            reduction = reduction.max(1);
            if reduction != before {
                self.stats.lmr_refined_changes += 1;
            }
        }
        if tt_capture {
            reduction += 1;
            self.stats.tt_capture_reductions += 1;
        }
        // Every path above leaves at least one ply, so this never goes below zero.
        if tt_pv {
            reduction -= 1;
            self.stats.tt_pv_reductions_lessened += 1;
        }
        reduction
    }

    /// The depth an LMR re-search goes to, after the reduced null-window search of a move
    /// returned `value` above alpha: the unreduced `new_depth`, or with
    /// `lmr_research_depth` one ply more when `value` beat the node's `best` value so far by
    /// more than `lmr_deeper_margin` (the move looks much better than what came before, so
    /// it earns the depth an extension would give) and one ply less when it beat it by less
    /// than `lmr_shallower_margin` (barely better: the full depth is likely wasted). The
    /// caller skips the re-search when the answer is the reduced depth itself. Stockfish's
    /// `doDeeperSearch` and `doShallowerSearch` (2022) are the model.
    pub(crate) fn lmr_research_depth(
        &mut self,
        value: i32,
        best: i32,
        new_depth: i32,
        reduced_depth: i32,
    ) -> i32 {
        if !self.config.lmr_research_depth {
            return new_depth;
        }
        // `best` is a searched move's value (the first move is never reduced); saturating
        // arithmetic keeps mate scores from overflowing.
        let gain = value.saturating_sub(best);
        if gain > self.config.lmr_deeper_margin {
            self.stats.lmr_deeper += 1;
            new_depth + 1
        } else if gain < self.config.lmr_shallower_margin {
            let shallower = new_depth - 1;
            if shallower <= reduced_depth {
                self.stats.lmr_research_skipped += 1;
            } else {
                self.stats.lmr_shallower += 1;
            }
            shallower
        } else {
            new_depth
        }
    }

    /// SEE pruning in the main search: at low depth, a quiet move that loses material on
    /// its square by more than a depth-scaled margin, or a capture that loses by more than
    /// a margin growing with depth², is skipped. Asked before the move is played, after the
    /// first move, not in check, and after `prune_quiet` (so its counter holds only the
    /// moves that the move-count and margin tests kept). `prune_depth` is `depth` for
    /// tacticals and `reduced_depth`'s for quiet moves. With `see_quiet_quadratic`, the
    /// quiet margin grows with depth² too. With `see_check_spare`, a move that gives check
    /// gets a second chance against −`see_check_margin`·depth.
    #[inline]
    pub(crate) fn see_prunes(
        &mut self,
        game: &G,
        m: G::Move,
        tactical: bool,
        gives_check: bool,
        depth: i32,
        prune_depth: i32,
    ) -> bool {
        let config = &self.config;
        if !config.see_pruning || prune_depth > config.see_pruning_depth {
            return false;
        }
        let quadratic = !tactical && config.see_quiet_quadratic > 0;
        let threshold = if tactical {
            -config.see_capture_margin * prune_depth * prune_depth
        } else if quadratic {
            -config.see_quiet_quadratic * prune_depth * prune_depth
        } else {
            -config.see_quiet_margin * prune_depth
        };
        if game.see_ge(m, threshold) {
            return false;
        }
        let check_threshold = -config.see_check_margin * prune_depth;
        if config.see_check_spare
            && gives_check
            && check_threshold < threshold
            && game.see_ge(m, check_threshold)
        {
            self.stats.see_checks_spared += 1;
            return false;
        }
        self.stats.see_prunes += 1;
        self.stats.see_quadratic_prunes += u64::from(quadratic);
        self.stats.reduced_depth_prunes += u64::from(prune_depth < depth);
        true
    }
}

const _: () = assert!(MAX_PLY >= 64);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lmr_table_follows_its_formula() {
        let table = LmrTable::new(75, 225);
        // 0.75 + ln(8)·ln(10)/2.25 = 0.75 + 2.0794·2.3026/2.25 = 2.878 -> 2
        assert_eq!(table.get(8, 10), 2);
        // 0.75 + ln(20)·ln(30)/2.25 = 0.75 + 2.9957·3.4012/2.25 = 5.278 -> 5
        assert_eq!(table.get(20, 30), 5);
        assert_eq!(table.get(1, 40), 0); // ln(1) = 0: only the base, truncated
        assert!(table.built_for(75, 225) && !table.built_for(75, 200));
        // A smaller divisor reduces more: 0.5 + 2.0794·2.3026/1.5 = 3.69 -> 3
        assert_eq!(LmrTable::new(50, 150).get(8, 10), 3);
        // Out-of-range indices clamp instead of panicking.
        assert_eq!(table.get(200, 500), table.get(63, 63));
        assert_eq!(table.get(-5, 3), 0);
    }

    /// The node's flags move the table's reduction by exactly their plies: the table
    /// capture adds one and the PV mark takes one off (their switches decide where the
    /// node sets them, in search.rs), each counted.
    #[test]
    fn lmr_node_flags_move_the_reduction_by_one_ply() {
        use crate::config::SearchConfig;
        use crate::random_tree::RandomTree;
        use crate::tt::TranspositionTable;
        use std::sync::Arc;
        let mut searcher = Searcher::<RandomTree>::new(
            SearchConfig::default(),
            Arc::new(TranspositionTable::new(0)),
            Arc::default(),
        );
        let (depth, searched) = (8, 9); // the table's 2 plies (8, 10): see above
        let improving = LmrNode {
            improving: true,
            ..LmrNode::default()
        };
        let scores = MoveScores::default();
        let plain = searcher.lmr_reduction(depth, searched, scores, improving);
        assert_eq!(plain, 2);
        let capture = LmrNode {
            tt_capture: true,
            ..improving
        };
        assert_eq!(searcher.lmr_reduction(depth, searched, scores, capture), 3);
        assert_eq!(searcher.stats.tt_capture_reductions, 1);
        let marked = LmrNode {
            tt_pv: true,
            ..capture
        };
        assert_eq!(searcher.lmr_reduction(depth, searched, scores, marked), 2);
        assert_eq!(searcher.stats.tt_capture_reductions, 2);
        assert_eq!(searcher.stats.tt_pv_reductions_lessened, 1);
    }

    /// `LMRResearchDepth` re-searches a ply deeper above `best + lmr_deeper_margin`, a ply
    /// shallower below `best + lmr_shallower_margin` (skipped when that is the reduced depth),
    /// at the full depth in between and always when off; each case counted.
    #[test]
    fn lmr_research_depth_follows_the_margins() {
        use crate::config::SearchConfig;
        use crate::random_tree::RandomTree;
        let config = SearchConfig {
            lmr_research_depth: true,
            lmr_deeper_margin: 50,
            lmr_shallower_margin: 8,
            ..SearchConfig::default()
        };
        let mut searcher = Searcher::<RandomTree>::standalone(config, 0);
        let (new_depth, reduced) = (6, 4);
        assert_eq!(searcher.lmr_research_depth(71, 20, new_depth, reduced), 7);
        assert_eq!(searcher.lmr_research_depth(70, 20, new_depth, reduced), 6);
        assert_eq!(searcher.lmr_research_depth(28, 20, new_depth, reduced), 6);
        assert_eq!(searcher.lmr_research_depth(27, 20, new_depth, reduced), 5);
        assert_eq!(searcher.lmr_research_depth(27, 20, new_depth, 5), 5);
        let stats = &searcher.stats;
        let counts = (
            stats.lmr_deeper,
            stats.lmr_shallower,
            stats.lmr_research_skipped,
        );
        assert_eq!(counts, (1, 1, 1));
        // Mate scores at the extremes do not overflow.
        assert_eq!(searcher.lmr_research_depth(i32::MAX, i32::MIN + 1, 6, 4), 7);
        assert_eq!(searcher.lmr_research_depth(i32::MIN + 1, i32::MAX, 6, 4), 5);
        searcher.config.lmr_research_depth = false;
        assert_eq!(searcher.lmr_research_depth(71, 20, new_depth, reduced), 6);
        assert_eq!(searcher.lmr_research_depth(27, 20, new_depth, 5), 6);
        assert_eq!(searcher.stats.lmr_deeper, 2);
    }

    /// `LMRRefined` moves the reduction by `lmr_pv_less` at PV nodes and `lmr_cut_more` at
    /// expected cut nodes, never below one ply, and counts each change.
    #[test]
    fn refined_lmr_takes_its_plies_from_the_options() {
        use crate::config::SearchConfig;
        use crate::random_tree::RandomTree;
        let config = SearchConfig {
            lmr_refined: true,
            lmr_history_divisor: 0,
            lmr_pv_less: 1,
            lmr_cut_more: 2,
            ..SearchConfig::default()
        };
        let mut searcher = Searcher::<RandomTree>::standalone(config, 0);
        let (depth, searched) = (8, 9); // the table's 2 plies
        let scores = MoveScores::default();
        let node = LmrNode {
            improving: true,
            ..LmrNode::default()
        };
        assert_eq!(searcher.lmr_reduction(depth, searched, scores, node), 2);
        assert_eq!(searcher.stats.lmr_refined_changes, 0);
        let cut = LmrNode {
            cut_node: true,
            ..node
        };
        assert_eq!(searcher.lmr_reduction(depth, searched, scores, cut), 4);
        let pv = LmrNode {
            pv_node: true,
            ..node
        };
        assert_eq!(searcher.lmr_reduction(depth, searched, scores, pv), 1);
        assert_eq!(searcher.stats.lmr_refined_changes, 2);
        searcher.config.lmr_pv_less = 4; // floored at one ply
        assert_eq!(searcher.lmr_reduction(depth, searched, scores, pv), 1);
        searcher.config.lmr_cut_more = 0;
        searcher.config.lmr_pv_less = 0;
        assert_eq!(searcher.lmr_reduction(depth, searched, scores, cut), 2);
        assert_eq!(searcher.stats.lmr_refined_changes, 3);
    }

    #[test]
    fn null_reductions() {
        use NullReduction::*;
        assert_eq!(null_reduction(Two, 6, 10, 500, 0), 2);
        assert_eq!(null_reduction(Three, 6, 3, 0, 0), 3);
        assert_eq!(null_reduction(Adaptive, 6, 6, 0, 0), 2);
        assert_eq!(null_reduction(Adaptive, 6, 7, 0, 0), 3);
        // 3 + 8/4 + min(250/200, 3) = 3 + 2 + 1
        assert_eq!(null_reduction(Dynamic, 6, 8, 250, 0), 6);
        // the margin term is capped at 3 and never negative
        assert_eq!(null_reduction(Dynamic, 6, 4, 5000, 0), 7);
        assert_eq!(null_reduction(Dynamic, 6, 4, -10, 0), 4);
    }

    #[test]
    fn table_values_refine_the_eval_only_past_it() {
        use Bound::*;
        // A fail high above the eval, a fail low below it, an exact score: used.
        assert!(table_value_refines(Lower, 120, 100));
        assert!(table_value_refines(Upper, 80, 100));
        assert!(table_value_refines(Exact, 80, 100) && table_value_refines(Exact, 120, 100));
        // Bounds on the eval's own side, or equal to it, say nothing new.
        assert!(!table_value_refines(Lower, 80, 100));
        assert!(!table_value_refines(Upper, 120, 100));
        assert!(!table_value_refines(Lower, 100, 100) && !table_value_refines(Upper, 100, 100));
        assert!(!table_value_refines(Exact, 100, 100));
    }
}
