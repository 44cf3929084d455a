//! Endgame tables inside the search: a node whose position the game's tables cover (right
//! after an irreversible move) takes the table's proven outcome instead of a search.
//!
//! The outcome becomes a bound, as in Stockfish's and Ethereal's use of Syzygy WDL tables: a
//! table win is only known to be at least [`score::tb_win_in`] (a mate the search finds is
//! worth more), a loss at most [`score::tb_loss_in`], a draw exactly [`score::DRAW`]. The node
//! ends when the bound settles it against the window; otherwise it is searched as usual.

use crate::game::{Game, TableOutcome};
use crate::ghi::Dependence;
use crate::score::{self, Bound, DRAW, MAX_PLY};
use crate::searcher::Searcher;
use crate::tt::Store;

/// Extra draft given to a stored table result, so ordinary entries do not displace it
/// (the result holds at any depth).
const TABLE_DRAFT_BONUS: i32 = 6;

/// What a table probe tells the node.
pub(crate) enum TableProbe {
    /// The position is not in the tables.
    Unknown,
    /// The result settles the node: return this value.
    Cut(i32),
    /// A table win the window does not settle: the node's value is at least this.
    Floor(i32),
    /// A table loss the window does not settle: the node's value is at most this.
    Ceiling(i32),
}

impl<G: Game> Searcher<G> {
    /// Probes the game's tables at this node. A result that settles the node against
    /// (alpha, beta) is stored and returned as [`TableProbe::Cut`]; otherwise a win or loss
    /// still bounds the value the node's search may return (PV nodes use it, as Stockfish
    /// does, so an open window never trades a proven result for an evaluation).
    pub(crate) fn table_probe(
        &mut self,
        game: &mut G,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
    ) -> TableProbe {
        let Some(outcome) = game.table_outcome() else {
            return TableProbe::Unknown;
        };
        self.stats.tb_hits += 1;
        let (value, bound) = match outcome {
            TableOutcome::Win => (score::tb_win_in(ply), Bound::Lower),
            TableOutcome::Loss => (score::tb_loss_in(ply), Bound::Upper),
            TableOutcome::Draw => (DRAW, Bound::Exact),
        };
        let settled = match bound {
            Bound::Exact => true,
            Bound::Lower => value >= beta,
            Bound::Upper => value <= alpha,
        };
        if !settled {
            return if bound == Bound::Lower {
                TableProbe::Floor(value)
            } else {
                TableProbe::Ceiling(value)
            };
        }
        self.stats.tb_cutoffs += 1;
        // Right after an irreversible move the verdict does not depend on the path.
        self.dependence = Dependence::NONE;
        if self.config.tt {
            let flags = self.entry_flags(ply);
            let eval = score::clamp_eval(game.evaluate());
            self.store(
                game,
                &Store {
                    mv: 0,
                    value: score::to_table(value, ply),
                    eval,
                    depth: (depth + TABLE_DRAFT_BONUS).min(MAX_PLY as i32 - 1),
                    bound,
                    iteration: self.root_depth as u8,
                    flags,
                    path_signature: 0,
                },
            );
        }
        TableProbe::Cut(if self.config.fail_soft {
            value
        } else {
            value.clamp(alpha, beta)
        })
    }
}
