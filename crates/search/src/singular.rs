//! Singular extensions (Anantharaman, Campbell & Hsu 1988, in the form of today's engines):
//! when the table says its move holds a lower bound at nearly this depth, search the node
//! without that move, at half depth, against a window just below the table value. If every
//! other move fails low, the table move is singular and is searched one ply deeper (two when
//! the others fall well short, a bounded number of times per path). If the others beat beta
//! too, several moves refute the position and the node is cut (multi-cut). If the table value
//! is at or above beta but the move is not singular, it is searched one ply shallower.
//!
//! The exclusion search runs the same node at the same ply with `excluded[ply]` set: it takes
//! no table cutoff, does no forward pruning and stores nothing, so the real entry stays.

use crate::game::Game;
use crate::score::{self, Bound};
use crate::searcher::Searcher;
use crate::tt::Hit;

/// What the exclusion search decided for the table move.
pub(crate) enum Singular {
    /// Extend (or, negative, reduce) the table move by this many plies.
    Extend(i32),
    /// The node is cut with this value.
    MultiCut(i32),
}

impl<G: Game> Searcher<G> {
    /// Runs the exclusion search when the conditions hold; `None` when it was not run.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn singular(
        &mut self,
        game: &mut G,
        hit: &Hit,
        tt_move: G::Move,
        beta: i32,
        depth: i32,
        ply: usize,
        pv_node: bool,
    ) -> Option<Singular> {
        let config = &self.config;
        if !config.singular
            || depth < config.singular_depth
            || self.excluded[ply] != 0
            || hit.bound == Bound::Upper
            || hit.depth < depth - 3
        {
            return None;
        }
        let tt_value = score::from_table(hit.value, ply);
        if score::is_decisive(tt_value) {
            return None;
        }
        let singular_beta = tt_value - config.singular_margin * depth / 8;
        let double_margin = config.singular_double_margin;
        let double_limit = config.singular_double_limit;
        self.stats.singular_searches += 1;
        self.excluded[ply] = G::encode(tt_move);
        let value = self.node(
            game,
            singular_beta - 1,
            singular_beta,
            (depth - 1) / 2,
            ply,
            false,
            false,
            false,
        );
        self.excluded[ply] = 0;
        if self.stopped {
            return None;
        }
        if value < singular_beta {
            if !pv_node
                && value < singular_beta - double_margin
                && self.double_extensions[ply] < double_limit
            {
                self.stats.double_extensions += 1;
                return Some(Singular::Extend(2));
            }
            self.stats.singular_extensions += 1;
            return Some(Singular::Extend(1));
        }
        if singular_beta >= beta {
            self.stats.multicut_cutoffs += 1;
            return Some(Singular::MultiCut(singular_beta));
        }
        if tt_value >= beta {
            self.stats.negative_extensions += 1;
            return Some(Singular::Extend(-1));
        }
        None
    }
}
