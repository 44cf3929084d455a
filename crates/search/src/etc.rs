//! Enhanced transposition cutoffs (Plaat, Schaeffer, Pijls & de Bruin, "Nearly optimal
//! minimax tree search?", 1994): before searching a node's children, look them up in the
//! table; a child whose stored upper bound already refutes this node (−upper >= beta)
//! ends the node without searching anything. Costly (every child is played and probed),
//! so only at nodes at least `etc_min_depth` plies from the horizon, as Plaat et al. advise.

use crate::config::GhiMode;
use crate::game::Game;
use crate::score::{self, Bound};
use crate::searcher::Searcher;
use crate::tt::EntryFlags;

impl<G: Game> Searcher<G> {
    #[inline]
    pub(crate) fn enhanced_transposition_cutoff(
        &mut self,
        game: &mut G,
        beta: i32,
        depth: i32,
        ply: usize,
    ) -> Option<i32> {
        if !self.config.etc || !self.config.tt || depth < self.config.etc_min_depth {
            return None;
        }
        let mut moves = G::Moves::default();
        game.generate(&mut moves);
        for &m in moves.as_ref() {
            game.play(m);
            if game.draw(self.root_ply).is_some() {
                game.undo(); // the table knows nothing of this path's draws
                continue;
            }
            self.stats.etc_probes += 1;
            let hit = self.tt.probe(
                game.key(),
                game.key_extension(),
                self.config.tt_wide_keys,
                self.config.tt_replacement,
            );
            // The child's history is this path plus the move, so it is checked while played.
            let usable = hit.is_some_and(|h| {
                h.flags & EntryFlags::PATH_DEPENDENT == 0 || self.path_compatible(game, &h)
            });
            let dependence = hit.map(|h| self.entry_dependence(game, &h));
            game.undo();
            let (Some(hit), Some(dependence)) = (hit, dependence) else {
                continue;
            };
            if hit.depth < depth - 1 || hit.bound == Bound::Lower || !usable {
                continue;
            }
            let value = -score::from_table(hit.value, ply + 1);
            if value >= beta {
                self.stats.etc_cutoffs += 1;
                if dependence.is_some() && self.config.ghi == GhiMode::Exact {
                    self.stats.ghi_exact_reuses += 1;
                }
                self.dependence = dependence;
                return Some(if self.config.fail_soft { value } else { beta });
            }
        }
        None
    }
}
