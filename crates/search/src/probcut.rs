//! ProbCut (Buro 1995, in the simplified form of today's engines): at a non-PV node deep
//! enough, a capture that beats `beta + margin` in a search `probcut_reduction` plies
//! shallower (four by default) is taken as proof that the full-depth search would beat
//! `beta` too. Captures are first tried with a quiescence search, so most candidates cost
//! little.

use crate::game::Game;
use crate::ordering::MovePicker;
use crate::score::{self, Bound};
use crate::search::Probe;
use crate::searcher::Searcher;
use crate::tt::Store;

/// `probcut_table_guard` trusts a table value searched at least this much shallower than the
/// node: still deeper than the ProbCut search itself.
const GUARD_DEPTH_SLACK: i32 = 3;

impl<G: Game> Searcher<G> {
    /// Tries the node's good captures against the raised beta; `Some(value)` cuts the node.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn probcut(
        &mut self,
        game: &mut G,
        beta: i32,
        depth: i32,
        ply: usize,
        eval: i32,
        pv_node: bool,
        in_check: bool,
        probe: &Probe<G::Move>,
    ) -> Option<i32> {
        let config = &self.config;
        if !config.probcut
            || pv_node
            || in_check
            || depth < config.probcut_depth
            || score::is_decisive(beta)
        {
            return None;
        }
        let raised_beta = beta + config.probcut_margin;
        if config.probcut_table_guard
            && let Some(hit) = &probe.hit
            && hit.depth >= depth - GUARD_DEPTH_SLACK
            && score::from_table(hit.value, ply) < raised_beta
        {
            self.stats.probcut_table_skips += 1;
            return None;
        }
        // Only captures whose exchange alone could bring the eval up to the raised beta.
        let needed = raised_beta - eval;
        let tt_move = probe.tt_move.filter(|&m| game.is_tactical(m));
        let mut picker = MovePicker::<G>::tactical(tt_move);
        let child_cut = !self.expected_cut[ply];
        while let Some((m, _)) = picker.next(game, &self.config, self.ordering_tables()) {
            if !game.see_ge(m, needed) {
                continue;
            }
            self.stats.probcut_tries += 1;
            let packed = G::encode(m);
            self.move_slots[ply] = game.history_index(m) as u32;
            game.play(m);
            let mut value = -self.quiescence(game, -raised_beta, -raised_beta + 1, ply + 1, 0);
            if value >= raised_beta && !self.stopped {
                self.expected_cut[ply + 1] = child_cut;
                value = -self.node(
                    game,
                    -raised_beta,
                    -raised_beta + 1,
                    depth - 1 - self.config.probcut_reduction,
                    ply + 1,
                    false,
                    true,
                    false,
                );
            }
            game.undo();
            if self.stopped {
                return None;
            }
            if value >= raised_beta {
                self.stats.probcut_cutoffs += 1;
                if self.config.tt {
                    let flags = self.entry_flags(ply);
                    self.store(
                        game,
                        &Store {
                            mv: packed,
                            value: score::to_table(value, ply),
                            eval: self.raw_evals[ply],
                            depth: depth - self.config.probcut_reduction,
                            bound: Bound::Lower,
                            iteration: self.root_depth as u8,
                            flags,
                            path_signature: 0,
                        },
                    );
                }
                return Some(if self.config.fail_soft { value } else { beta });
            }
        }
        None
    }
}
