//! The interior node: fail-soft (or fail-hard) alpha-beta or NegaScout/PVS, with the table,
//! null move, pre-search, ETC, extensions and late move reductions plugged in.

use crate::abdada::{self, Deferred};
use crate::config::{Algorithm, GhiMode, HistoryWeight};
use crate::continuation::ContinuationKeys;
use crate::game::{Game, NoMoves};
use crate::ghi::Dependence;
use crate::history::gravity_bonus;
use crate::ordering::{Class, Hints, MovePicker};
use crate::pruning::{LmrNode, MoveScores, table_value_refines};
use crate::score::{self, Bound, DRAW, INFINITY, MAX_PLY};
use crate::searcher::Searcher;
use crate::singular::Singular;
use crate::tablebase::TableProbe;
use crate::tt::{EntryFlags, Hit, Store};

/// Quiet moves remembered per node for history maluses (later ones get none).
const MAX_QUIETS_TRIED: usize = 64;

/// Captures and promotions remembered per node for capture-history maluses.
const MAX_TACTICALS_TRIED: usize = 32;

/// A quiet move tried, packed for the maluses: its main-history slot (`main_history_index`)
/// in the high 16 bits, its history slot (continuation histories) in the low 16. Both
/// tables are below 2^16 slots (`Searcher::new` checks).
#[inline]
fn pack_quiet(main_index: usize, history_index: usize) -> u32 {
    ((main_index as u32) << 16) | history_index as u32
}

#[inline]
fn quiet_main_slot(tried: u32) -> usize {
    (tried >> 16) as usize
}

#[inline]
fn quiet_slot(tried: u32) -> usize {
    (tried & 0xFFFF) as usize
}

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
        self.dependence = Dependence::NONE;
        if self.should_stop() {
            return 0;
        }
        self.stats.nodes += 1;
        self.stats.seldepth = self.stats.seldepth.max(ply);

        if let Some(draw) = game.draw(self.root_ply) {
            self.dependence = Dependence::of_draw(draw, game.ply());
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
                // Which earlier position the move repeats is not known: all of them.
                self.dependence = Dependence::WHOLE_HISTORY;
                return alpha;
            }
        }
        let alpha_orig = alpha;
        let in_check = game.in_check();
        // A singular-extension exclusion search of this node (`singular.rs`): the same
        // position without the table move, which must neither use nor overwrite the entry.
        let excluded = self.excluded[ply];
        let cut_node = !pv_node && self.expected_cut[ply];

        let probe = if excluded != 0 {
            Probe {
                hit: None,
                tt_move: None,
            }
        } else {
            match self.probe(game, alpha, beta, depth, ply, pv_node) {
                Ok(probe) => probe,
                Err(cutoff) => return cutoff,
            }
        };
        // `tt_pv`: the node is on the principal variation or its entry was stored by a
        // marked node (once on it).
        let tt_pv = self.config.tt_pv
            && (pv_node
                || probe
                    .hit
                    .as_ref()
                    .is_some_and(|h| h.flags & EntryFlags::PV != 0));
        self.stats.tt_pv_marked += u64::from(tt_pv && !pv_node);
        // `lmr_tt_capture`: the table move is a capture or promotion, so quiet late moves
        // reduce more.
        let tt_capture =
            self.config.lmr_tt_capture && probe.tt_move.is_some_and(|m| game.is_tactical(m));
        // Endgame tables: a proven result ends the node or, at PV nodes, bounds its value.
        let (mut table_floor, mut table_ceiling) = (-INFINITY, INFINITY);
        if excluded == 0 && self.config.syzygy && depth >= self.config.syzygy_probe_depth {
            match self.table_probe(game, alpha, beta, depth, ply) {
                TableProbe::Cut(value) => return value,
                TableProbe::Floor(value) if pv_node => {
                    table_floor = value;
                    alpha = alpha.max(value);
                }
                TableProbe::Ceiling(value) if pv_node => table_ceiling = value,
                _ => {}
            }
        }

        // The static eval as the evaluation gives it (stored in the table), and as pruning
        // uses it (with the correction history's correction).
        let (raw_eval, eval) = if in_check {
            (-INFINITY, -INFINITY)
        } else if excluded != 0 {
            (self.raw_evals[ply], self.static_evals[ply])
        } else {
            let raw = probe
                .hit
                .as_ref()
                .map_or_else(|| score::clamp_eval(game.evaluate()), |h| h.eval);
            (raw, self.corrected_eval(game, raw))
        };
        self.raw_evals[ply] = raw_eval;
        self.static_evals[ply] = eval;
        let improving = self.config.improving && self.is_improving(ply, eval);
        let prune_eval = self.table_value_eval(game, &probe, eval, ply);

        // Internal iterative reduction: with no table move the ordering is poor and the node
        // is probably new to the search, so search it one ply shallower (Ed Schröder's idea
        // in Rebel, a cheap stand-in for internal iterative deepening).
        let depth = if self.config.iir
            && excluded == 0
            && depth >= self.config.iir_min_depth
            && probe.tt_move.is_none()
        {
            self.stats.iir_reductions += 1;
            depth - 1
        } else {
            depth
        };

        if let Some(value) = self.forward_prune(
            game,
            &probe,
            alpha,
            beta,
            depth,
            ply,
            prune_eval,
            pv_node,
            null_allowed,
            in_check,
            follow_pv,
            improving,
        ) {
            return value;
        }

        // Singular extension of the table move, or a multi-cut of the whole node.
        let mut tt_move_extension = 0;
        if let (Some(hit), Some(tt_move)) = (probe.hit.as_ref(), probe.tt_move)
            && let Some(verdict) = self.singular(game, hit, tt_move, beta, depth, ply, pv_node)
        {
            match verdict {
                Singular::Extend(plies) => tt_move_extension = plies,
                Singular::MultiCut(value) => {
                    return if self.config.fail_soft { value } else { beta };
                }
            }
        }
        if self.stopped {
            return 0;
        }

        let continuation_keys = if self.config.continuation_history {
            self.continuation.keys(self.earlier_slots(ply))
        } else {
            ContinuationKeys::NONE
        };
        let hints = Hints {
            refutation: if follow_pv {
                self.refutation.move_at(ply)
            } else {
                0
            },
            killers: self.killers.get(ply),
            countermove: self.countermoves.get(game.last_move_index()),
            continuation: continuation_keys,
        };
        self.killers.clear_ply(ply + 2);
        let mut picker = MovePicker::<G>::new(probe.tt_move, hints);
        let single_reply = self.config.extend_single_reply
            && in_check
            && picker.count(game, &self.config, self.ordering_tables()) == 1;

        let mut best = -INFINITY;
        let mut best_move = 0u16;
        let mut best_dependence = Dependence::NONE;
        let mut any_dependence = Dependence::NONE;
        let mut searched = 0usize;
        // History slots of the quiet moves searched so far (gravity maluses on a cutoff).
        let mut quiets_tried = [0u32; MAX_QUIETS_TRIED];
        let mut quiets_count = 0usize;
        // Capture-history slots of the captures and promotions searched so far.
        let mut tacticals_tried = [0u32; MAX_TACTICALS_TRIED];
        let mut tacticals_count = 0usize;
        // Lazy SMP deferral (`abdada.rs`): moves another thread is searching, put off.
        let defer = depth >= abdada::DEFER_MIN_DEPTH && self.busy.is_some();
        let node_key = game.key();
        let mut deferred: Option<Deferred<G::Move, Class>> = None;
        loop {
            let (m, class, was_deferred) =
                match picker.next(game, &self.config, self.ordering_tables()) {
                    Some((m, class)) => (m, class, false),
                    None => match deferred.as_mut().and_then(Deferred::pop) {
                        Some((m, class)) => (m, class, true),
                        None => break,
                    },
                };
            let packed = G::encode(m);
            if packed == excluded {
                continue;
            }
            if defer
                && searched > 0
                && !was_deferred
                && self.busy_elsewhere(node_key, packed)
                && deferred
                    .get_or_insert_with(Deferred::default)
                    .push(m, class)
            {
                self.stats.smp_deferred += 1;
                continue;
            }
            let tactical = game.is_tactical(m);
            let recapture = self.config.extend_recapture && game.is_recapture(m);
            let pawn_seventh = self.config.extend_pawn_seventh && game.is_advanced_pawn_push(m);
            let history_index = game.history_index(m);
            // The main history ranks quiet moves only.
            let main_index = if tactical {
                history_index
            } else {
                self.main_history_index(game, m, history_index)
            };
            let capture_index = if tactical && self.config.capture_history {
                game.capture_history_index(m)
            } else {
                0
            };
            let previous = game.last_move_index();
            let scores = MoveScores {
                history: if tactical || !self.config.history {
                    0
                } else {
                    self.history.score(main_index)
                },
                continuation: if self.config.continuation_history && !tactical {
                    self.continuation.score(&continuation_keys, history_index)
                } else {
                    0
                },
            };
            // Decided before the move is made: most late quiet moves are pruned unplayed.
            let gives_check = game.gives_check(m);
            // `SparePassedPushes`: neither pruned nor reduced.
            let spared = self.config.spare_passed_pushes
                && !tactical
                && searched > 0
                && game.is_passed_pawn_push(m);
            self.stats.passed_pushes_spared += u64::from(spared);
            let quiet = !tactical
                && !gives_check
                && !spared
                && !matches!(
                    class,
                    Class::Killer | Class::Countermove | Class::Refutation
                );
            // `ReducedDepthPruning`: quiet moves are judged at their LMR depth.
            let prune_depth = if quiet {
                self.reduced_depth(depth, searched)
            } else {
                depth
            };
            // The move-count and margin tests first: they cost nothing, SEE does.
            if quiet
                && !pv_node
                && !in_check
                && self.prune_quiet(
                    prune_eval,
                    alpha,
                    depth,
                    prune_depth,
                    searched,
                    scores,
                    improving,
                )
            {
                continue;
            }
            if searched > 0
                && !spared
                && !in_check
                && best > -score::TB_WIN_BOUND
                && self.see_prunes(game, m, tactical, gives_check, depth, prune_depth)
            {
                continue;
            }
            let check_extends = self.check_extends(game, m, gives_check);
            self.move_slots[ply] = history_index as u32;
            self.play_prefetched(game, m, self.config.tt);
            debug_assert_eq!(gives_check, game.in_check(), "Game::gives_check");
            let mut extension =
                self.extension(check_extends, single_reply, recapture, pawn_seventh, ply);
            if class == Class::TableMove && tt_move_extension != 0 {
                extension = if tt_move_extension > 0 {
                    extension.max(tt_move_extension)
                } else {
                    extension + tt_move_extension
                };
            }
            self.double_extensions[ply + 1] =
                self.double_extensions[ply] + u8::from(extension >= 2);
            let new_depth = depth - 1 + extension;
            let child_follows = follow_pv && packed == self.refutation.move_at(ply);

            if defer {
                self.mark_busy(node_key, packed, true);
            }
            let value = if searched == 0 {
                self.expected_cut[ply + 1] = !pv_node && !cut_node;
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
                // `LMRCaptures`: losing captures are reduced as quiet moves are.
                let losing_capture =
                    self.config.lmr_captures && class == Class::BadTactical && !gives_check;
                let reduction = if (quiet || losing_capture) && !in_check && extension == 0 {
                    let node = LmrNode {
                        improving,
                        pv_node,
                        cut_node,
                        tt_pv,
                        tt_capture: tt_capture && quiet,
                    };
                    let plies = self.lmr_reduction(depth, searched, scores, node);
                    self.stats.lmr_captures_reduced += u64::from(losing_capture && plies > 0);
                    plies
                } else {
                    0
                };
                // Never below one ply, and never negative (that would be an extension).
                let reduction = reduction.min(new_depth - 1).max(0);
                self.expected_cut[ply + 1] = true;
                self.late_move(game, alpha, beta, best, new_depth, reduction, ply, pv_node)
            };
            if defer {
                self.mark_busy(node_key, packed, false);
            }
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
                        if self.config.capture_history {
                            self.update_capture_history(
                                tactical.then_some(capture_index),
                                &tacticals_tried[..tacticals_count],
                                depth,
                            );
                        }
                        self.record_cutoff(
                            packed,
                            history_index,
                            main_index,
                            previous,
                            tactical,
                            class,
                            depth,
                            ply,
                            searched,
                            &quiets_tried[..quiets_count],
                            &continuation_keys,
                        );
                        if picker.quiets_skipped() && !in_check {
                            self.stats.staged_quiet_skips += 1;
                        }
                        break;
                    }
                    alpha = value;
                    self.pv.update(ply, packed);
                }
            }
            if !tactical && quiets_count < MAX_QUIETS_TRIED {
                quiets_tried[quiets_count] = pack_quiet(main_index, history_index);
                quiets_count += 1;
            } else if tactical && tacticals_count < MAX_TACTICALS_TRIED {
                tacticals_tried[tacticals_count] = capture_index as u32;
                tacticals_count += 1;
            }
        }

        if excluded != 0 {
            // Every other move failed low or there was none: the caller only compares the
            // value with its window, and nothing is stored.
            return if searched == 0 { alpha_orig } else { best };
        }
        if searched == 0 {
            best = match game.no_moves() {
                NoMoves::Loss => score::mated_in(ply),
                NoMoves::Draw => DRAW,
                NoMoves::Value(v) => score::clamp_eval(v),
            };
            best_dependence = Dependence::NONE;
            any_dependence = Dependence::NONE;
        } else if best_move != 0 && best < beta && self.config.history {
            // The best move of a PV node earns history too (not only cutoff moves).
            if let Some(m) = game.decode(best_move)
                && !game.is_tactical(m)
            {
                let index = self.main_history_index(game, m, game.history_index(m));
                self.history
                    .reward(index, depth, self.config.history_weight);
            }
        }
        best = best.max(table_floor).min(table_ceiling);
        let (best, bound) =
            self.close_node(best, (alpha_orig, beta), best_dependence, any_dependence);
        if self.config.correction_history
            && !in_check
            && !score::is_decisive(best)
            && game.decode(best_move).is_none_or(|m| !game.is_tactical(m))
            && match bound {
                Bound::Exact => true,
                Bound::Lower => best > eval,
                Bound::Upper => best < eval,
            }
        {
            self.stats.correction_updates += 1;
            self.update_corrections(game, raw_eval, best, depth);
        }
        if self.config.tt {
            let mut flags = self.entry_flags(ply);
            if tt_pv {
                flags |= EntryFlags::PV;
            }
            self.store(
                game,
                &Store {
                    mv: best_move,
                    value: score::to_table(best, ply),
                    eval: if in_check { 0 } else { raw_eval },
                    depth,
                    bound,
                    iteration: self.root_depth as u8,
                    flags,
                    path_signature: 0,
                },
            );
        }
        best
    }

    /// The pruning tried before any move is searched: pre-search, reverse futility,
    /// razoring, null move, ProbCut, ETC (none in an exclusion search). `Some(value)` ends
    /// the node.
    #[allow(clippy::too_many_arguments)]
    fn forward_prune(
        &mut self,
        game: &mut G,
        probe: &Probe<G::Move>,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        eval: i32,
        pv_node: bool,
        null_allowed: bool,
        in_check: bool,
        follow_pv: bool,
        improving: bool,
    ) -> Option<i32> {
        if self.excluded[ply] != 0 {
            return None;
        }
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
            return Some(value);
        }
        if let Some(value) =
            self.reverse_futility(game, eval, beta, depth, pv_node, in_check, improving)
        {
            return Some(value);
        }
        if let Some(value) = self.razor(game, alpha, depth, ply, eval, pv_node, in_check) {
            return Some(value);
        }
        self.expected_cut[ply + 1] = !self.expected_cut[ply];
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
            return Some(value);
        }
        if let Some(value) = self.probcut(game, beta, depth, ply, eval, pv_node, in_check, probe) {
            return Some(value);
        }
        self.enhanced_transposition_cutoff(game, beta, depth, ply)
    }

    /// Makes `m`, loading the child's table entry (when `probed`: the child will probe it)
    /// as early as the switches allow: before the move under the key the game predicts
    /// (`tt_early_prefetch`; the prefetch after the move covers a wrong guess), and with the
    /// child's evaluation state prepared while it loads (`eager_accumulator`).
    #[inline]
    pub(crate) fn play_prefetched(&mut self, game: &mut G, m: G::Move, probed: bool) {
        if probed
            && self.config.tt_early_prefetch
            && let Some(key) = game.predicted_key(m)
        {
            self.tt.prefetch(key, self.config.tt_replacement);
            self.stats.tt_early_prefetches += 1;
        }
        game.play(m);
        if probed {
            self.tt.prefetch(game.key(), self.config.tt_replacement);
        }
        if self.config.eager_accumulator {
            game.prepare_evaluation();
            self.stats.eager_preparations += 1;
        }
    }

    /// The eval that pruning compares with its margins: with `tt_value_eval`, the table's
    /// value where its bound puts the true score on the far side of the static eval (a lower
    /// bound above it, an upper bound below it, or an exact value), else the static eval.
    /// Not in check (no eval), not for decisive values, and only from an entry the node
    /// could have cut with (`trustworthy`).
    #[inline]
    fn table_value_eval(&mut self, game: &G, probe: &Probe<G::Move>, eval: i32, ply: usize) -> i32 {
        if !self.config.tt_value_eval || eval == -INFINITY {
            return eval;
        }
        let Some(hit) = probe.hit.as_ref() else {
            return eval;
        };
        let value = score::from_table(hit.value, ply);
        if !table_value_refines(hit.bound, value, eval)
            || score::is_decisive(value)
            || !self.trustworthy(game, hit, value)
        {
            return eval;
        }
        self.stats.tt_value_evals += 1;
        value
    }

    /// The correction tables' readings for this position, uncapped: the pawn table's and the
    /// non-pawn tables' (side to move's, other side's; zero when `correction_non_pawn` is off).
    #[inline]
    fn correction_readings(&self, game: &G) -> (i32, [i32; 2]) {
        let pawn = self.correction.correction(game.correction_key());
        if !self.config.correction_non_pawn {
            return (pawn, [0, 0]);
        }
        let [us, them] = game.correction_keys_non_pawn();
        let non_pawn = [
            self.correction_non_pawn[0].correction(us),
            self.correction_non_pawn[1].correction(them),
        ];
        (pawn, non_pawn)
    }

    /// Teaches the correction tables that a search to `depth` found `best` where the raw
    /// static eval said `raw`: each table the whole error, or with `correction_residual` (and
    /// non-pawn tables) its own reading plus the error the corrected eval left.
    fn update_corrections(&mut self, game: &G, raw: i32, best: i32, depth: i32) {
        let residual = self.config.correction_residual && self.config.correction_non_pawn;
        // The eval each table is measured against: the raw eval, or the corrected eval
        // without the table's own reading.
        let (mut pawn_base, mut non_pawn_base) = (raw, [raw, raw]);
        if residual {
            let max = self.config.correction_max;
            let cap = |value: i32| value.clamp(-max, max);
            let (pawn, [us, them]) = self.correction_readings(game);
            let (pawn, us, them) = (cap(pawn), cap(us), cap(them));
            let corrected = raw + pawn + (us + them) / 2;
            pawn_base = corrected - pawn;
            non_pawn_base = [corrected - us, corrected - them];
            self.stats.residual_updates += 1;
        }
        self.correction
            .update(game.correction_key(), pawn_base, best, depth);
        if self.config.correction_non_pawn {
            let keys = game.correction_keys_non_pawn();
            for ((table, key), base) in self
                .correction_non_pawn
                .iter_mut()
                .zip(keys)
                .zip(non_pawn_base)
            {
                table.update(key, base, best, depth);
            }
        }
    }

    /// The static eval plus the correction history's correction (when on).
    #[inline]
    pub(crate) fn corrected_eval(&mut self, game: &G, raw: i32) -> i32 {
        if !self.config.correction_history {
            return raw;
        }
        let max = self.config.correction_max;
        let (pawn, [us, them]) = self.correction_readings(game);
        let mut capped = |value: i32| {
            let cut = value.clamp(-max, max);
            if cut != value {
                self.stats.corrections_capped += 1;
            }
            cut
        };
        let mut correction = capped(pawn);
        if self.config.correction_non_pawn {
            let non_pawn = (capped(us) + capped(them)) / 2;
            if non_pawn != 0 {
                self.stats.non_pawn_corrections += 1;
            }
            correction += non_pawn;
        }
        if correction != 0 {
            self.stats.corrected_evals += 1;
        }
        score::clamp_eval(raw + correction)
    }

    /// A move after the first: reduced (LMR) and/or null-window (PVS) searches, re-searched
    /// as the results demand.
    #[allow(clippy::too_many_arguments)]
    fn late_move(
        &mut self,
        game: &mut G,
        alpha: i32,
        beta: i32,
        best: i32,
        new_depth: i32,
        reduction: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        if reduction > 0 {
            self.stats.lmr_reductions += 1;
        }
        let reduced = new_depth - reduction;
        match self.config.algorithm {
            Algorithm::Pvs => {
                let mut value = -self.node(
                    game,
                    -alpha - 1,
                    -alpha,
                    reduced,
                    ply + 1,
                    false,
                    true,
                    false,
                );
                let mut depth = new_depth;
                if reduction > 0 && value > alpha && !self.stopped {
                    depth = self.lmr_research_depth(value, best, new_depth, reduced);
                    if depth > reduced {
                        self.stats.lmr_researches += 1;
                        value = -self.node(
                            game,
                            -alpha - 1,
                            -alpha,
                            depth,
                            ply + 1,
                            false,
                            true,
                            false,
                        );
                    }
                }
                if value > alpha && value < beta && !self.stopped {
                    self.stats.pvs_researches += 1;
                    value = -self.node(game, -beta, -alpha, depth, ply + 1, pv_node, true, false);
                }
                value
            }
            Algorithm::AlphaBeta => {
                let mut value =
                    -self.node(game, -beta, -alpha, reduced, ply + 1, false, true, false);
                if reduction > 0 && value > alpha && !self.stopped {
                    let depth = self.lmr_research_depth(value, best, new_depth, reduced);
                    if depth > reduced {
                        self.stats.lmr_researches += 1;
                        value = -self.node(game, -beta, -alpha, depth, ply + 1, false, true, false);
                    }
                }
                value
            }
        }
    }

    /// Killers, history and countermove learn from a quiet move's cutoff; with gravity
    /// history, the quiet moves tried before it (`quiets_tried`) lose what it gains.
    #[allow(clippy::too_many_arguments)]
    fn record_cutoff(
        &mut self,
        packed: u16,
        history_index: usize,
        main_index: usize,
        previous: Option<usize>,
        tactical: bool,
        class: Class,
        depth: i32,
        ply: usize,
        searched: usize,
        quiets_tried: &[u32],
        continuation_keys: &ContinuationKeys,
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
        if self.config.killers {
            self.killers.record(ply, packed);
        }
        if self.config.history {
            self.history
                .reward(main_index, depth, self.config.history_weight);
            let mut updates = 1;
            if self.config.history_weight == HistoryWeight::Gravity {
                self.stats.history_bonuses += 1;
                for &tried in quiets_tried {
                    self.history.penalize(quiet_main_slot(tried), depth);
                }
                self.stats.history_maluses += quiets_tried.len() as u64;
                updates += quiets_tried.len() as u64;
            }
            if self.config.butterfly_history {
                self.stats.butterfly_updates += updates;
            }
        }
        if self.config.countermove {
            self.countermoves.record(previous, packed);
        }
        if self.config.continuation_history {
            let bonus = gravity_bonus(depth);
            self.continuation
                .update(continuation_keys, history_index, bonus);
            for &tried in quiets_tried {
                self.continuation
                    .update(continuation_keys, quiet_slot(tried), -bonus);
            }
            self.stats.continuation_updates += 1 + quiets_tried.len() as u64;
        }
    }

    /// Capture history learns from a cutoff: a bonus to the capture or promotion that cut
    /// off (`cutoff`), a malus to those tried before it, whatever kind of move cut off.
    fn update_capture_history(&mut self, cutoff: Option<usize>, tried: &[u32], depth: i32) {
        if let Some(index) = cutoff {
            self.capture_history
                .reward(index, depth, HistoryWeight::Gravity);
        }
        for &index in tried {
            self.capture_history.penalize(index as usize, depth);
        }
        self.stats.capture_history_updates += u64::from(cutoff.is_some()) + tried.len() as u64;
    }

    /// Whether the static eval rose against the side to move's previous node, two plies up
    /// (four when that one was in check; not improving when both were, or at the root).
    #[inline]
    fn is_improving(&mut self, ply: usize, eval: i32) -> bool {
        if eval == -INFINITY {
            return false;
        }
        let earlier = [2, 4]
            .into_iter()
            .filter(|&back| ply >= back)
            .map(|back| self.static_evals[ply - back])
            .find(|&e| e != -INFINITY);
        let improving = earlier.is_some_and(|e| eval > e);
        if improving {
            self.stats.improving_nodes += 1;
        }
        improving
    }

    /// Closes a node: its value (clamped to the window when fail-hard), the bound the
    /// value is, and what draws by rule it rests on (GHI: a cutoff on the refuting move
    /// alone, any other value on every child), left in `self.dependence`.
    #[inline]
    pub(crate) fn close_node(
        &mut self,
        best: i32,
        (alpha_orig, beta): (i32, i32),
        best_dependence: Dependence,
        any_dependence: Dependence,
    ) -> (i32, Bound) {
        let best = if self.config.fail_soft {
            best
        } else {
            best.clamp(alpha_orig, beta)
        };
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.dependence = if bound == Bound::Lower {
            best_dependence
        } else {
            any_dependence
        };
        (best, bound)
    }

    /// Flags for a table entry stored at `ply` now.
    #[inline]
    pub(crate) fn entry_flags(&self, ply: usize) -> u8 {
        let mut flags = 0;
        if self.dependence.is_some() {
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
                // The cutoff's value rests on what the entry's did.
                self.dependence = self.entry_dependence(game, &hit);
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
        let path_dependent = hit.flags & EntryFlags::PATH_DEPENDENT != 0;
        if path_dependent && !self.path_compatible(game, hit) {
            self.stats.tt_path_refusals += 1;
            return false;
        }
        if let Some(rule) = G::MOVE_RULE_PLIES {
            let played = game.reversible_plies();
            if played + self.config.fifty_move_guard >= rule {
                return false;
            }
            // A mate or table result further away than the move rule allows (a table result
            // lies that far from the zeroing move where the table was probed) may be a draw by
            // then.
            if score::is_decisive(value) {
                let distance = if score::is_mate(value) {
                    (score::MATE - value.abs()) as u32
                } else {
                    (score::TB_WIN - value.abs()) as u32
                };
                if played + distance >= rule {
                    return false;
                }
            }
        }
        if path_dependent && self.config.ghi == GhiMode::Exact {
            self.stats.ghi_exact_reuses += 1;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use crate::config::SearchConfig;
    use crate::random_tree::{RandomTree, TreeConfig};
    use crate::searcher::Searcher;

    /// With non-pawn tables, whole-error updates teach each table the full error, so the
    /// corrections together give about twice it; residual updates teach them the error left
    /// after all corrections, so their sum converges to it.
    #[test]
    fn residual_updates_make_the_corrections_sum_to_the_error() {
        let game = RandomTree::new(TreeConfig::default());
        // The random tree's keys are 0 everywhere: one slot per table, taught an error of +80.
        let taught = |config: SearchConfig| {
            let mut searcher = Searcher::<RandomTree>::standalone(config, 1);
            for _ in 0..2_000 {
                searcher.update_corrections(&game, 0, 80, 15);
            }
            searcher
        };
        // (residual, the total correction expected, as a range)
        for (residual, expected) in [(false, 156..=158), (true, 76..=80)] {
            let mut searcher = taught(SearchConfig {
                correction_history: true,
                correction_non_pawn: true,
                correction_residual: residual,
                ..SearchConfig::default()
            });
            let total = searcher.corrected_eval(&game, 0);
            assert!(
                expected.contains(&total),
                "residual {residual}: total correction {total}"
            );
            let updates = if residual { 2_000 } else { 0 };
            assert_eq!(searcher.stats.residual_updates, updates);
        }
        // Without non-pawn tables the switch changes nothing: the pawn table alone learns.
        let mut searcher = taught(SearchConfig {
            correction_history: true,
            correction_residual: true,
            ..SearchConfig::default()
        });
        assert_eq!(searcher.corrected_eval(&game, 0), 79);
        assert_eq!(searcher.stats.residual_updates, 0);
    }
}
