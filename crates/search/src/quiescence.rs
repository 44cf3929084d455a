//! Quiescence search: beyond the horizon, only captures and promotions (all evasions when
//! in check), so the static evaluation is taken in quiet positions. Stand pat, SEE filter,
//! optional checks at the first quiescence ply, optional delta pruning and move-count
//! pruning, table probing.

use crate::game::{Game, NoMoves};
use crate::ghi::Dependence;
use crate::ordering::{Class, MovePicker};
use crate::score::{self, DRAW, INFINITY, MAX_PLY};
use crate::searcher::Searcher;
use crate::tt::Store;

impl<G: Game> Searcher<G> {
    /// `qply` counts plies below the horizon (checks are tried only at the first).
    pub(crate) fn quiescence(
        &mut self,
        game: &mut G,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: u32,
    ) -> i32 {
        self.pv.clear(ply);
        self.dependence = Dependence::NONE;
        if self.should_stop() {
            return 0;
        }
        self.stats.qnodes += 1;
        self.stats.seldepth = self.stats.seldepth.max(ply);
        if let Some(draw) = game.draw(self.root_ply) {
            self.dependence = Dependence::of_draw(draw, game.ply());
            return DRAW;
        }
        if !self.config.quiescence || ply >= MAX_PLY - 1 {
            return score::clamp_eval(game.evaluate());
        }
        let alpha_orig = alpha;
        let in_check = game.in_check();
        let use_tt = self.config.tt && self.config.qs_tt;
        let (hit, tt_move) = if use_tt {
            match self.probe(game, alpha, beta, 0, ply, false) {
                Ok(probe) => (probe.hit, probe.tt_move),
                Err(cutoff) => return cutoff,
            }
        } else {
            (None, None)
        };
        // Only tactical table moves belong here (or any evasion in check).
        let tt_move = tt_move.filter(|&m| in_check || game.is_tactical(m));

        let mut best = -INFINITY;
        // The raw eval is what the table keeps; stand pat and delta pruning use the
        // corrected one (with `CorrectionHistory`, as the main search's pruning does).
        let mut raw_eval = -INFINITY;
        let mut eval = -INFINITY;
        if !in_check {
            raw_eval = hit
                .as_ref()
                .map_or_else(|| score::clamp_eval(game.evaluate()), |h| h.eval);
            eval = self.corrected_eval(game, raw_eval);
            if eval >= beta {
                return if self.config.fail_soft { eval } else { beta };
            }
            alpha = alpha.max(eval);
            best = eval;
        }

        let mut best_move = 0u16;
        let mut best_dependence = Dependence::NONE;
        let mut any_dependence = Dependence::NONE;
        let mut searched = 0usize;
        let mut picker = MovePicker::<G>::tactical(tt_move);
        // The picker already sorted losing captures out by SEE when the knowledge heuristic
        // uses it; otherwise ask SEE here.
        let picker_knows_see = self.config.knowledge && self.config.knowledge_see;
        // (the picker orders by MVV-LVA here whatever the knowledge switch says)
        while let Some((m, class)) = picker.next(game, &self.config, self.ordering_tables()) {
            if !in_check {
                if self.config.qs_see_filter {
                    if picker_knows_see {
                        if class == Class::BadTactical {
                            break; // losing captures come last: the rest lose too
                        }
                    } else if !game.see_ge(m, 0) {
                        continue;
                    }
                }
                if self.config.qs_delta_pruning
                    && !game.is_promotion(m)
                    && eval + game.captured_value(m) + self.config.qs_delta_margin < alpha
                {
                    continue;
                }
                if self.config.qs_move_limit > 0
                    && searched >= self.config.qs_move_limit as usize
                    && !game.is_promotion(m)
                    && !game.is_recapture(m)
                {
                    self.stats.qs_move_limit_prunes += 1;
                    continue;
                }
            }
            let packed = G::encode(m);
            self.play_prefetched(game, m, self.config.tt && self.config.qs_tt);
            let value = -self.quiescence(game, -beta, -alpha, ply + 1, qply + 1);
            game.undo();
            if self.stopped {
                return 0;
            }
            searched += 1;
            any_dependence = any_dependence.merge(self.dependence);
            if value > best {
                best = value;
                best_dependence = self.dependence;
                if value > alpha {
                    best_move = packed;
                    if value >= beta {
                        break;
                    }
                    alpha = value;
                    self.pv.update(ply, packed);
                }
            }
        }
        if best < beta && !in_check && qply == 0 && self.config.qs_checks {
            best = self.quiet_checks(
                game,
                alpha,
                beta,
                ply,
                qply,
                best,
                &mut best_move,
                &mut best_dependence,
                &mut any_dependence,
            );
        }
        if in_check && searched == 0 {
            // Every evasion was generated: none means the game is over here.
            best = match game.no_moves() {
                NoMoves::Loss => score::mated_in(ply),
                NoMoves::Draw => DRAW,
                NoMoves::Value(v) => score::clamp_eval(v),
            };
        }
        let (best, bound) =
            self.close_node(best, (alpha_orig, beta), best_dependence, any_dependence);
        if use_tt {
            let flags = self.entry_flags(ply);
            self.store(
                game,
                &Store {
                    mv: best_move,
                    value: score::to_table(best, ply),
                    eval: if in_check { 0 } else { raw_eval },
                    depth: 0,
                    bound,
                    iteration: self.root_depth as u8,
                    flags,
                    path_signature: 0,
                },
            );
        }
        best
    }

    /// Quiet moves that give check, at the first quiescence ply (optional).
    #[allow(clippy::too_many_arguments)]
    fn quiet_checks(
        &mut self,
        game: &mut G,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: u32,
        mut best: i32,
        best_move: &mut u16,
        best_dependence: &mut Dependence,
        any_dependence: &mut Dependence,
    ) -> i32 {
        let mut moves = G::Moves::default();
        game.generate(&mut moves);
        for &m in moves.as_ref() {
            if game.is_tactical(m) {
                continue;
            }
            if !game.gives_check(m) {
                continue;
            }
            game.play(m);
            let value = -self.quiescence(game, -beta, -alpha, ply + 1, qply + 1);
            game.undo();
            if self.stopped {
                return best;
            }
            *any_dependence = any_dependence.merge(self.dependence);
            if value > best {
                best = value;
                *best_dependence = self.dependence;
                if value > alpha {
                    *best_move = G::encode(m);
                    if value >= beta {
                        break;
                    }
                    alpha = value;
                    self.pv.update(ply, *best_move);
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use crate::config::SearchConfig;
    use crate::game::Game;
    use crate::random_tree::{RandomTree, TreeConfig};
    use crate::score;
    use crate::searcher::Searcher;

    /// With `CorrectionHistory`, standing pat uses the corrected eval: at a node with no
    /// tactical move, quiescence returns the eval plus the learnt correction (and the eval
    /// alone when the switch is off), cut to `CorrectionMax` (and counted) where it is lower.
    #[test]
    fn stand_pat_uses_the_corrected_eval() {
        let tree = TreeConfig {
            tactical_rate: 0.0,
            ..TreeConfig::default()
        };
        // (switch, CorrectionMax, the correction expected, capped readings expected)
        for (correction_history, correction_max, added, capped) in
            [(false, 128, 0, 0), (true, 128, 79, 0), (true, 32, 32, 1)]
        {
            let config = SearchConfig {
                tt: false,
                quiescence: true,
                correction_history,
                correction_max,
                ..SearchConfig::default()
            };
            let mut searcher = Searcher::<RandomTree>::standalone(config, 1);
            // The random tree's key is 0 everywhere: one slot, taught an error of +80.
            for _ in 0..500 {
                searcher.correction.update(0, 0, 80, 15);
            }
            assert_eq!(searcher.correction.correction(0), 79);
            let mut game = RandomTree::new(tree.clone());
            let raw = score::clamp_eval(game.evaluate());
            let value = searcher.quiescence(&mut game, -score::INFINITY, score::INFINITY, 0, 0);
            assert_eq!(
                value,
                raw + added,
                "correction history {correction_history}, max {correction_max}"
            );
            assert_eq!(searcher.stats.corrections_capped, capped);
        }
    }
}
