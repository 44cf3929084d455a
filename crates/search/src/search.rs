//! The interior node: fail-soft (or fail-hard) alpha-beta or NegaScout/PVS, with the table,
//! null move, pre-search, ETC, extensions and late move reductions plugged in.

use crate::config::{Algorithm, GhiMode};
use crate::game::{Game, NoMoves};
use crate::ordering::{Class, Hints, MovePicker};
use crate::score::{self, Bound, DRAW, INFINITY, MAX_PLY};
use crate::searcher::Searcher;
use crate::tt::{EntryFlags, Hit, Store};

/// What the node learnt from the table before searching.
pub(crate) struct Probe<M> {
    pub hit: Option<Hit>,
    pub tt_move: Option<M>,
}

impl<G: Game> Searcher<G> {
    /// Searches a non-root node to `depth` plies with window (alpha, beta).
    /// `follow_pv`: the path so far is the previous iteration's principal variation.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn node(
        &mut self,
        game: &mut G,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        pv_node: bool,
        null_allowed: bool,
        follow_pv: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.quiescence(game, alpha, beta, ply, 0);
        }
        self.pv.clear(ply);
        self.path_dependent = false;
        if self.should_stop() {
            return 0;
        }
        self.stats.nodes += 1;
        self.stats.seldepth = self.stats.seldepth.max(ply);

        if let Some(draw) = game.draw(self.root_ply) {
            self.path_dependent = draw.depends_on_path();
            return DRAW;
        }
        if ply >= MAX_PLY - 1 {
            return score::clamp_eval(game.evaluate());
        }
        if self.config.mate_distance_pruning {
            alpha = alpha.max(score::mated_in(ply));
            beta = beta.min(score::mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }
        // A move that repeats a position of the path guarantees at least a draw.
        if self.config.upcoming_repetition
            && alpha < DRAW
            && game.has_upcoming_repetition(self.root_ply)
        {
            self.stats.upcoming_repetitions += 1;
            alpha = DRAW;
            if alpha >= beta {
                self.path_dependent = true;
                return alpha;
            }
        }
        let alpha_orig = alpha;
        let in_check = game.in_check();

        let probe = match self.probe(game, alpha, beta, depth, ply, pv_node) {
            Ok(probe) => probe,
            Err(cutoff) => return cutoff,
        };

        let eval = if in_check {
            -INFINITY
        } else {
            probe
                .hit
                .as_ref()
                .map_or_else(|| score::clamp_eval(game.evaluate()), |h| h.eval)
        };
        self.static_evals[ply] = eval;

        if let Some(hit) = probe.hit.as_ref()
            && let Some(value) = self.presearch(
                game,
                hit,
                alpha,
                beta,
                depth,
                ply,
                pv_node,
                null_allowed,
                follow_pv,
            )
        {
            return value;
        }

        if let Some(value) = self.reverse_futility(eval, beta, depth, pv_node, in_check) {
            return value;
        }

        if let Some(value) = self.null_move(
            game,
            beta,
            depth,
            ply,
            eval,
            pv_node,
            null_allowed,
            in_check,
        ) {
            return value;
        }

        if let Some(value) = self.enhanced_transposition_cutoff(game, beta, depth, ply) {
            return value;
        }

        let hints = Hints {
            refutation: if follow_pv {
                self.refutation.move_at(ply)
            } else {
                0
            },
            killers: self.killers.get(ply),
            countermove: self.countermoves.get(game.last_move_index()),
        };
        self.killers.clear_ply(ply + 2);
        let mut picker = MovePicker::<G>::new(probe.tt_move, hints);
        let single_reply = self.config.extend_single_reply
            && in_check
            && picker.count(game, &self.config, &self.history) == 1;

        let mut best = -INFINITY;
        let mut best_move = 0u16;
        let mut best_path_dependent = false;
        let mut any_path_dependent = false;
        let mut searched = 0usize;
        while let Some((m, class)) = picker.next(game, &self.config, &self.history) {
            let packed = G::encode(m);
            let tactical = game.is_capture(m) || game.is_promotion(m);
            let recapture = self.config.extend_recapture && game.is_recapture(m);
            let pawn_seventh = self.config.extend_pawn_seventh && game.is_advanced_pawn_push(m);
            let history_index = game.history_index(m);
            let previous = game.last_move_index();
            game.play(m);
            let gives_check = game.in_check();
            let quiet = !tactical
                && !gives_check
                && !matches!(
                    class,
                    Class::Killer | Class::Countermove | Class::Refutation
                );
            if quiet && !pv_node && !in_check && self.prune_quiet(eval, alpha, depth, searched) {
                game.undo();
                continue;
            }
            let extension = self.extension(gives_check, single_reply, recapture, pawn_seventh, ply);
            let new_depth = depth - 1 + extension;
            let child_follows = follow_pv && packed == self.refutation.move_at(ply);

            let value = if searched == 0 {
                -self.node(
                    game,
                    -beta,
                    -alpha,
                    new_depth,
                    ply + 1,
                    pv_node,
                    true,
                    child_follows,
                )
            } else {
                let quiet_late = !in_check
                    && !gives_check
                    && !tactical
                    && extension == 0
                    && !matches!(
                        class,
                        Class::Killer | Class::Countermove | Class::Refutation
                    );
                let reduction = if quiet_late {
                    self.lmr_reduction(depth, searched)
                } else {
                    0
                };
                // Never below one ply, and never negative (that would be an extension).
                let reduction = reduction.min(new_depth - 1).max(0);
                self.late_move(game, alpha, beta, new_depth, reduction, ply, pv_node)
            };
            game.undo();
            if self.stopped {
                return 0;
            }
            searched += 1;
            any_path_dependent |= self.path_dependent;
            if value > best {
                best = value;
                best_path_dependent = self.path_dependent;
                if value > alpha {
                    best_move = packed;
                    if value >= beta {
                        self.record_cutoff(
                            game,
                            packed,
                            history_index,
                            previous,
                            tactical,
                            class,
                            depth,
                            ply,
                            searched,
                        );
                        break;
                    }
                    alpha = value;
                    self.pv.update(ply, packed);
                }
            }
        }

        if searched == 0 {
            best = match game.no_moves() {
                NoMoves::Loss => score::mated_in(ply),
                NoMoves::Draw => DRAW,
                NoMoves::Value(v) => score::clamp_eval(v),
            };
            best_path_dependent = false;
            any_path_dependent = false;
        } else if best_move != 0 && best < beta && self.config.history {
            // The best move of a PV node earns history too (not only cutoff moves).
            if let Some(m) = game.decode(best_move)
                && !(game.is_capture(m) || game.is_promotion(m))
            {
                let index = game.history_index(m);
                self.history
                    .reward(index, depth, self.config.history_weight);
            }
        }
        if !self.config.fail_soft {
            best = best.clamp(alpha_orig, beta);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // GHI: a cutoff rests on the refuting move alone; any other value on every child.
        self.path_dependent = if bound == Bound::Lower {
            best_path_dependent
        } else {
            any_path_dependent
        };
        if self.config.tt {
            let flags = self.entry_flags(ply);
            self.store(
                game,
                &Store {
                    mv: best_move,
                    value: score::to_table(best, ply),
                    eval: if in_check { 0 } else { eval },
                    depth,
                    bound,
                    iteration: self.root_depth as u8,
                    flags,
                },
            );
        }
        best
    }

    /// A move after the first: reduced (LMR) and/or null-window (PVS) searches, re-searched
    /// as the results demand.
    #[allow(clippy::too_many_arguments)]
    fn late_move(
        &mut self,
        game: &mut G,
        alpha: i32,
        beta: i32,
        new_depth: i32,
        reduction: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        if reduction > 0 {
            self.stats.lmr_reductions += 1;
        }
        match self.config.algorithm {
            Algorithm::Pvs => {
                let mut value = -self.node(
                    game,
                    -alpha - 1,
                    -alpha,
                    new_depth - reduction,
                    ply + 1,
                    false,
                    true,
                    false,
                );
                if reduction > 0 && value > alpha && !self.stopped {
                    self.stats.lmr_researches += 1;
                    value = -self.node(
                        game,
                        -alpha - 1,
                        -alpha,
                        new_depth,
                        ply + 1,
                        false,
                        true,
                        false,
                    );
                }
                if value > alpha && value < beta && !self.stopped {
                    self.stats.pvs_researches += 1;
                    value = -self.node(
                        game,
                        -beta,
                        -alpha,
                        new_depth,
                        ply + 1,
                        pv_node,
                        true,
                        false,
                    );
                }
                value
            }
            Algorithm::AlphaBeta => {
                let mut value = -self.node(
                    game,
                    -beta,
                    -alpha,
                    new_depth - reduction,
                    ply + 1,
                    false,
                    true,
                    false,
                );
                if reduction > 0 && value > alpha && !self.stopped {
                    self.stats.lmr_researches += 1;
                    value = -self.node(game, -beta, -alpha, new_depth, ply + 1, false, true, false);
                }
                value
            }
        }
    }

    /// Killers, history and countermove learn from a quiet move's cutoff.
    #[allow(clippy::too_many_arguments)]
    fn record_cutoff(
        &mut self,
        game: &G,
        packed: u16,
        history_index: usize,
        previous: Option<usize>,
        tactical: bool,
        class: Class,
        depth: i32,
        ply: usize,
        searched: usize,
    ) {
        self.stats.beta_cutoffs += 1;
        if searched == 1 {
            self.stats.first_move_cutoffs += 1;
        }
        match class {
            Class::Killer => self.stats.killer_cutoffs += 1,
            Class::Countermove => self.stats.countermove_cutoffs += 1,
            _ => {}
        }
        if tactical {
            return;
        }
        let _ = game;
        if self.config.killers {
            self.killers.record(ply, packed);
        }
        if self.config.history {
            self.history
                .reward(history_index, depth, self.config.history_weight);
        }
        if self.config.countermove {
            self.countermoves.record(previous, packed);
        }
    }

    /// Flags for a table entry stored at `ply` now.
    #[inline]
    pub(crate) fn entry_flags(&self, ply: usize) -> u8 {
        let mut flags = 0;
        if self.path_dependent {
            flags |= EntryFlags::PATH_DEPENDENT;
        }
        if self.in_presearch && ply == self.presearch_ply {
            flags |= EntryFlags::PRESEARCH;
        }
        flags
    }

    /// Probes the table: `Err(value)` is a cutoff, `Ok` what the node can use.
    /// PV nodes of PVS take no cutoff, so the principal variation stays whole.
    #[inline]
    pub(crate) fn probe(
        &mut self,
        game: &G,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        pv_node: bool,
    ) -> Result<Probe<G::Move>, i32> {
        if !self.config.tt {
            return Ok(Probe {
                hit: None,
                tt_move: None,
            });
        }
        self.stats.tt_probes += 1;
        let Some(hit) = self.tt.probe(
            game.key(),
            game.key_extension(),
            self.config.tt_wide_keys,
            self.config.tt_replacement,
        ) else {
            return Ok(Probe {
                hit: None,
                tt_move: None,
            });
        };
        self.stats.tt_hits += 1;
        let pv_guard = pv_node && self.config.algorithm == Algorithm::Pvs;
        if hit.depth >= depth && !pv_guard {
            let value = score::from_table(hit.value, ply);
            let cuts = match hit.bound {
                Bound::Exact => true,
                Bound::Lower => value >= beta,
                Bound::Upper => value <= alpha,
            };
            if cuts && self.trustworthy(game, &hit, value) {
                self.stats.tt_cutoffs += 1;
                if hit.flags & EntryFlags::PRESEARCH != 0 {
                    self.stats.presearch_reused += 1;
                }
                // The cutoff's value rests on a repetition if the entry's did.
                self.path_dependent = hit.flags & EntryFlags::PATH_DEPENDENT != 0;
                return Err(if self.config.fail_soft {
                    value
                } else {
                    value.clamp(alpha, beta)
                });
            }
        }
        let tt_move = if self.config.tt_move && hit.mv != 0 {
            let decoded = game.decode(hit.mv);
            if decoded.is_none() {
                self.stats.tt_bad_moves += 1;
            }
            decoded
        } else {
            None
        };
        Ok(Probe {
            hit: Some(hit),
            tt_move,
        })
    }

    /// Whether a table value may end the node: the GHI and move-rule guards.
    #[inline]
    fn trustworthy(&mut self, game: &G, hit: &Hit, value: i32) -> bool {
        if self.config.ghi == GhiMode::Mark && hit.flags & EntryFlags::PATH_DEPENDENT != 0 {
            self.stats.tt_path_refusals += 1;
            return false;
        }
        if let Some(rule) = G::MOVE_RULE_PLIES {
            let played = game.reversible_plies();
            if played + self.config.fifty_move_guard >= rule {
                return false;
            }
            // A mate further away than the move rule allows may be a draw by then.
            if score::is_mate(value) {
                let distance = (score::MATE - value.abs()) as u32;
                if played + distance >= rule {
                    return false;
                }
            }
        }
        true
    }
}
