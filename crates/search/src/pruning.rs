//! Forward pruning and reductions: null-move pruning, late move reductions, reverse
//! futility, futility and late move pruning.

use crate::config::NullReduction;
use crate::game::Game;
use crate::score::{self, Bound, MAX_PLY};
use crate::searcher::Searcher;
use crate::tt::{EntryFlags, Store};

/// Late-move reductions by (depth, move number): `0.75 + ln(d)·ln(n) / 2.25` plies.
pub struct LmrTable {
    table: [[u8; 64]; 64],
}

impl LmrTable {
    pub fn new() -> LmrTable {
        let mut table = [[0u8; 64]; 64];
        for (depth, row) in table.iter_mut().enumerate().skip(1) {
            for (number, cell) in row.iter_mut().enumerate().skip(1) {
                let r = 0.75 + (depth as f64).ln() * (number as f64).ln() / 2.25;
                *cell = r.max(0.0) as u8;
            }
        }
        LmrTable { table }
    }

    #[inline]
    pub fn get(&self, depth: i32, number: usize) -> i32 {
        i32::from(self.table[depth.clamp(0, 63) as usize][number.min(63)])
    }
}

impl Default for LmrTable {
    fn default() -> Self {
        LmrTable::new()
    }
}

impl<G: Game> Searcher<G> {
    /// Null-move pruning: if passing still fails high at reduced depth, so will a move.
    /// Not in check, not twice in a row, not in PV nodes, not when the side to move has
    /// only pawns and king (zugzwang), not at shallow depth. Optional verification search;
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
            || score::is_mate(beta)
            || !game.null_move_allowed()
            || !game.zugzwang_unlikely()
        {
            return None;
        }
        let r = match config.null_reduction {
            NullReduction::Two => 2,
            NullReduction::Three => 3,
            NullReduction::Adaptive => {
                if depth > config.null_adaptive_depth {
                    3
                } else {
                    2
                }
            }
        };
        self.stats.null_tries += 1;
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
        let path_dependent = self.path_dependent;
        // A null-move "mate" is not a proven mate.
        let value = if score::is_mate(value) { beta } else { value };
        if self.config.null_verification {
            let verified = self.node(
                game,
                beta - 1,
                beta,
                depth - 1 - r,
                ply,
                false,
                false,
                false,
            );
            if self.stopped {
                return None;
            }
            if verified < beta {
                self.stats.null_verifications_failed += 1;
                return None;
            }
        }
        self.stats.null_cutoffs += 1;
        self.path_dependent = path_dependent;
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
                },
            );
        }
        Some(if self.config.fail_soft { value } else { beta })
    }

    /// Reverse futility pruning (static null move): near the leaves, a static eval far above
    /// beta is trusted to hold. Not in PV nodes, in check, or against mate scores.
    #[inline]
    pub(crate) fn reverse_futility(
        &mut self,
        eval: i32,
        beta: i32,
        depth: i32,
        pv_node: bool,
        in_check: bool,
    ) -> Option<i32> {
        let config = &self.config;
        if !config.reverse_futility
            || pv_node
            || in_check
            || depth > config.reverse_futility_depth
            || score::is_mate(beta)
            || eval - config.reverse_futility_margin * depth < beta
        {
            return None;
        }
        self.stats.reverse_futility_cutoffs += 1;
        Some(if config.fail_soft { eval } else { beta })
    }

    /// Whether a quiet move (no capture, promotion or check, not a killer) may be skipped at
    /// a non-PV node not in check, after `searched` moves: futility pruning (the eval plus a
    /// margin cannot reach alpha) or late move pruning (too far down the ordering).
    #[inline]
    pub(crate) fn prune_quiet(
        &mut self,
        eval: i32,
        alpha: i32,
        depth: i32,
        searched: usize,
    ) -> bool {
        let config = &self.config;
        if searched == 0 || score::is_mate(alpha) {
            return false;
        }
        if config.late_move_pruning
            && depth <= config.late_move_pruning_depth
            && searched >= (3 + depth * depth) as usize
        {
            self.stats.late_move_prunes += 1;
            return true;
        }
        if config.futility
            && depth <= config.futility_depth
            && eval + config.futility_margin * depth <= alpha
        {
            self.stats.futility_prunes += 1;
            return true;
        }
        false
    }

    /// Plies to reduce the `searched`-th move (0-based count of moves already searched).
    #[inline]
    pub(crate) fn lmr_reduction(&self, depth: i32, searched: usize) -> i32 {
        let config = &self.config;
        if !config.lmr || searched < config.lmr_full_depth_moves || depth < config.lmr_min_depth {
            return 0;
        }
        if config.lmr_log_table {
            self.lmr.get(depth, searched + 1).max(1)
        } else {
            1
        }
    }
}

const _: () = assert!(MAX_PLY >= 64);
