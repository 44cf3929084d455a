//! Pre-searching (Hlynka & Schaeffer, "Pre-searching", ICGA Journal 27(4), 2004).
//!
//! A node met in this iteration at remaining depth d1 whose table entry was stored
//! `k` iterations ago at depth d_tt will probably be reached again in this iteration through
//! the path it had then, at depth d2 = d_tt + k (iterations here are nominal root depths, so
//! k counts plies even with a depth step of 2). If d2 > d1 the node is searched now to d2,
//! speculatively; its result, deeper than needed, answers this visit and, through the table,
//! the later one.
//!
//! The paper's filter decides where the gamble is taken:
//! - never inside a pre-search;
//! - Risk: the extension d2 - d1 is at most `presearch_risk` (default 2);
//! - NearRoot: only within `presearch_near_root` plies of the root (default unlimited);
//! - NearLeaf: only within `presearch_near_leaf` plies of the horizon (d1 <= NearLeaf,
//!   default 3).
//!
//! Our reading of NearRoot/NearLeaf as "allowed only within N plies of" follows the names and
//! their defaults (an unlimited NearRoot must allow everything); the ablation tool measures
//! each setting.

use crate::game::Game;
use crate::searcher::Searcher;
use crate::tt::Hit;

impl<G: Game> Searcher<G> {
    /// Runs a pre-search when the table entry and the filter call for one; its value then
    /// answers this node.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(crate) fn presearch(
        &mut self,
        game: &mut G,
        hit: &Hit,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        pv_node: bool,
        null_allowed: bool,
        follow_pv: bool,
    ) -> Option<i32> {
        let config = &self.config;
        if !config.presearch || self.in_presearch || ply == 0 {
            return None;
        }
        let iterations_ago = i32::from((self.root_depth as u8).wrapping_sub(hit.iteration));
        if iterations_ago <= 0 || iterations_ago > 64 {
            return None; // stored in this iteration (or garbage from another search)
        }
        let target = hit.depth + iterations_ago;
        let extension = target - depth;
        if extension <= 0
            || extension > config.presearch_risk
            || depth > config.presearch_near_leaf
            || config.presearch_near_root.is_some_and(|n| ply > n as usize)
        {
            return None;
        }
        self.stats.presearches += 1;
        self.in_presearch = true;
        self.presearch_ply = ply;
        let value = self.node(
            game,
            alpha,
            beta,
            target,
            ply,
            pv_node,
            null_allowed,
            follow_pv,
        );
        self.in_presearch = false;
        Some(value)
    }
}
