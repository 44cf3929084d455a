//! Iterative deepening and the root: depth steps of 1 or 2, aspiration windows, root moves
//! re-ordered by the previous iteration, MultiPV, limits, and a safe best move when time
//! runs out mid-iteration (only root moves searched completely count).

use std::time::{Duration, Instant};

use crate::aspiration::Window;
use crate::config::{Algorithm, EvalKnowledgeCounts};
use crate::game::{Game, NoMoves};
use crate::pruning::{LmrNode, LmrTable, MoveScores};
use crate::score::{self, Bound, DRAW, INFINITY, MAX_PLY};
use crate::searcher::{Control, Iteration, Line, Observer, RootMove, SearchResult, Searcher};
use crate::stats::SearchStats;

/// Deepest nominal iteration: extensions may double it, and plies stay below `MAX_PLY`.
pub const MAX_DEPTH: u32 = (MAX_PLY as u32 - 8) / 2;

/// `currmove` reports start after this long, as GUIs expect.
const CURRMOVE_DELAY: Duration = Duration::from_secs(1);

impl<G: Game> Searcher<G> {
    /// Searches `game` within `limits` on this thread, reporting to `observer`.
    pub fn search<O: Observer<G::Move>>(
        &mut self,
        game: &mut G,
        limits: &crate::limits::Limits,
        observer: &mut O,
    ) -> SearchResult<G::Move> {
        // No helpers here: a count left by an earlier `search_smp` must not be reported.
        self.control.clear_helper_nodes();
        self.run(game, limits, observer, 0)
    }

    pub(crate) fn run<O: Observer<G::Move>>(
        &mut self,
        game: &mut G,
        limits: &crate::limits::Limits,
        observer: &mut O,
        depth_offset: u32,
    ) -> SearchResult<G::Move> {
        self.start = Instant::now();
        self.limits = limits.clone();
        self.deadline = limits.hard_time.map(|t| self.start + t);
        self.stats = SearchStats::default();
        self.published_nodes = 0;
        self.stopped = false;
        self.abandoned = false;
        self.in_presearch = false;
        self.root_ply = game.ply();
        game.set_eval_knowledge(self.config.eval_knowledge());
        let eval_cache_start = (game.eval_cache_counters(), game.eval_knowledge_counts());
        // The root's static eval, for `improving` two plies down.
        self.static_evals[0] = if game.in_check() {
            -INFINITY
        } else {
            score::clamp_eval(game.evaluate())
        };
        game.set_wide_keys(self.config.tt_wide_keys);
        if !self
            .lmr
            .built_for(self.config.lmr_base, self.config.lmr_divisor)
        {
            self.lmr = LmrTable::new(self.config.lmr_base, self.config.lmr_divisor);
        }
        if self.config.history_aging {
            self.history.age();
            // A switched-off technique's table is neither read nor written: not worth a pass
            // over it each search (the continuation tables are 2.4 MB).
            if self.config.continuation_history {
                self.continuation.age();
            }
            if self.config.capture_history {
                self.capture_history.age();
            }
        }
        self.killers.clear();
        self.refutation.clear();

        let mut root = self.root_moves(game, limits);
        if root.is_empty() {
            let mut moves = G::Moves::default();
            game.generate(&mut moves);
            let score = if moves.as_ref().is_empty() {
                match game.no_moves() {
                    NoMoves::Loss => score::mated_in(0),
                    NoMoves::Draw => DRAW,
                    NoMoves::Value(v) => v,
                }
            } else {
                DRAW
            };
            self.count_eval_cache(game, eval_cache_start);
            return self.result(None, None, score, 0, Vec::new());
        }

        let step = u32::from(self.config.depth_step.clamp(1, 2));
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let multipv = self.config.multipv.clamp(1, root.len());
        let mut completed: Option<(u32, Vec<Line<G::Move>>)> = None;
        // The iteration cut short whose new best move was kept, if any.
        let mut partial_depth = None;
        let mut previous_best: Option<G::Move> = None;
        let mut depth = (step + depth_offset).min(max_depth);
        let sync = !self.is_main && self.config.smp_helper_sync;
        loop {
            if sync {
                // Never a depth the main thread has completed (`smp_helper_sync`).
                let main_depth = self.control.main_depth();
                if main_depth >= max_depth {
                    break;
                }
                let above = (main_depth + step + depth_offset).min(max_depth);
                if depth < above {
                    depth = above;
                    self.stats.smp_helper_jumps += 1;
                }
            }
            self.root_depth = depth as i32;
            for rm in root.iter_mut() {
                rm.previous_score = rm.score;
                rm.best_at_depth = 0;
                rm.nodes = 0;
            }
            for pv_index in 0..multipv {
                let previous = completed.as_ref().map(|_| root[pv_index].previous_score);
                let mut window = Window::new(
                    self.config.aspiration,
                    previous,
                    self.config.aspiration_t1,
                    self.config.aspiration_t2,
                    self.config.aspiration_growth,
                );
                loop {
                    let value = self.root_search(
                        game,
                        &mut root,
                        pv_index,
                        window.alpha,
                        window.beta,
                        depth,
                        observer,
                    );
                    if self.stopped {
                        break;
                    }
                    let widened = if value <= window.alpha {
                        window.widen_low(value)
                    } else if value >= window.beta {
                        window.widen_high(value)
                    } else {
                        false
                    };
                    if !widened {
                        break;
                    }
                    self.stats.aspiration_researches += 1;
                    self.stats.aspiration_gradual_researches += u64::from(window.gradual());
                }
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                if self.abandoned && !self.control.is_stopped() && !self.control.helpers_stopped() {
                    // The main thread completed this depth first: go on above it.
                    self.stopped = false;
                    self.abandoned = false;
                    self.stats.smp_helper_abandoned += 1;
                    continue;
                }
                // Keep a move of this iteration only if its last complete search raised
                // alpha (the latest such move comes first on equal scores); otherwise the
                // last completed iteration stands.
                if let Some(i) = (0..root.len())
                    .filter(|&i| root[i].best_at_depth == depth)
                    .max_by_key(|&i| (root[i].score, std::cmp::Reverse(i)))
                {
                    let line = Line {
                        score: root[i].score,
                        bound: root[i].bound,
                        moves: root[i].pv.clone(),
                    };
                    match completed.as_mut() {
                        Some((_, lines)) => lines[0] = line,
                        None => completed = Some((0, vec![line])),
                    }
                    partial_depth = Some(depth);
                }
                break;
            }
            root.sort_by_key(|rm| std::cmp::Reverse(rm.score));
            self.stats
                .iteration_nodes
                .push((depth, self.stats.total_nodes()));
            let lines: Vec<Line<G::Move>> = root[..multipv]
                .iter()
                .map(|rm| Line {
                    score: rm.score,
                    bound: rm.bound,
                    moves: rm.pv.clone(),
                })
                .collect();
            let best_move = root[0].mv;
            let best_move_changed = previous_best.is_some_and(|m| m != best_move);
            let best_move_nodes = root[0].nodes;
            let root_nodes = root.iter().map(|rm| rm.nodes).sum();
            previous_best = Some(best_move);
            let packed: Vec<u16> = root[0].pv.iter().map(|&m| G::encode(m)).collect();
            self.refutation.set(&packed);
            let mut control = Control::Continue;
            if self.is_main {
                let hashfull = self.tt.hashfull();
                for (i, line) in lines.iter().enumerate() {
                    let report = Iteration {
                        depth,
                        seldepth: self.stats.seldepth,
                        multipv: i + 1,
                        line,
                        // Every thread's, as UCI's `info nodes` means (each helper's
                        // published count lags by under two stop-check intervals).
                        nodes: self.stats.total_nodes() + self.control.helper_nodes(),
                        tb_hits: self.stats.tb_hits,
                        elapsed: self.start.elapsed(),
                        hashfull,
                        best_move_changed,
                        best_move_nodes,
                        root_nodes,
                    };
                    if observer.iteration(&report) == Control::Stop {
                        control = Control::Stop;
                    }
                }
            }
            let best_score = lines[0].score;
            completed = Some((depth, lines));
            if self.is_main {
                self.control.set_main_depth(depth);
            }
            if control == Control::Stop
                || depth >= max_depth
                || self.done_after_iteration(best_score, root.len())
            {
                break;
            }
            depth = (depth + step).min(max_depth);
        }

        let (depth, lines) = completed.unwrap_or_else(|| {
            // Stopped before depth 1 finished: the first root move is the fallback, valued
            // by the static evaluation after it.
            let mv = root[0].mv;
            game.play(mv);
            let score = score::clamp_eval(-game.evaluate());
            game.undo();
            (
                0,
                vec![Line {
                    score,
                    bound: Bound::Exact,
                    moves: vec![mv],
                }],
            )
        });
        let best = lines[0].moves.first().copied();
        let ponder = match (best, lines[0].moves.get(1)) {
            (_, Some(&reply)) => Some(reply),
            (Some(best), None) => self.table_reply(game, best),
            (None, None) => None,
        };
        let score = lines[0].score;
        self.count_eval_cache(game, eval_cache_start);
        let mut result = self.result(best, ponder, score, depth, lines);
        result.line_depth = partial_depth.unwrap_or(depth);
        result
    }

    /// The evaluation caches' probes and hits, and the evaluations the switchable knowledge
    /// changed, since the search's start (the counters then).
    fn count_eval_cache(
        &mut self,
        game: &G,
        (start, knowledge): ([(u64, u64); 2], EvalKnowledgeCounts),
    ) {
        let [(probes, hits), (pawn_probes, pawn_hits)] = game.eval_cache_counters();
        let changed = game.eval_knowledge_counts().since(knowledge);
        self.stats.mop_up_evals = changed.mop_up;
        self.stats.kpk_evals = changed.kpk;
        self.stats.bare_king_evals = changed.bare_king;
        self.stats.network_scaled_evals = changed.network_scaled;
        self.stats.network_blended_evals = changed.network_blended;
        self.stats.eval_cache_probes = probes - start[0].0;
        self.stats.eval_cache_hits = hits - start[0].1;
        self.stats.pawn_cache_probes = pawn_probes - start[1].0;
        self.stats.pawn_cache_hits = pawn_hits - start[1].1;
    }

    /// The table's move in the position after `best`, if it is legal there: the ponder move
    /// when the principal variation stops after one move.
    fn table_reply(&self, game: &mut G, best: G::Move) -> Option<G::Move> {
        if !self.config.tt {
            return None;
        }
        game.play(best);
        let reply = self
            .tt
            .probe(
                game.key(),
                game.key_extension(),
                self.config.tt_wide_keys,
                self.config.tt_replacement,
            )
            .and_then(|hit| game.decode(hit.mv));
        game.undo();
        reply
    }

    fn result(
        &self,
        best_move: Option<G::Move>,
        ponder_move: Option<G::Move>,
        score: i32,
        depth: u32,
        lines: Vec<Line<G::Move>>,
    ) -> SearchResult<G::Move> {
        SearchResult {
            best_move,
            ponder_move,
            score,
            depth,
            line_depth: depth,
            lines,
            stats: self.stats.clone(),
            elapsed: self.start.elapsed(),
            threads: Vec::new(),
        }
    }

    /// Limits checked between iterations: mate found, soft time, minimum nodes, a single
    /// legal move under time control.
    fn done_after_iteration(&self, best_score: i32, root_moves: usize) -> bool {
        let limits = &self.limits;
        if let (Some(n), Some(moves)) = (limits.mate, score::mate_moves(best_score))
            && moves > 0
            && moves as u32 <= n
        {
            return true;
        }
        if let Some(soft) = limits.soft_time
            && (self.start.elapsed() >= soft || root_moves == 1)
        {
            return true;
        }
        if let Some(min_nodes) = limits.min_nodes
            && self.stats.total_nodes() >= min_nodes
        {
            return true;
        }
        // A forced mate found with room to spare cannot improve with depth.
        limits.soft_time.is_some()
            && limits.depth.is_none()
            && limits.nodes.is_none()
            && score::mate_is_settled(best_score, self.root_depth as u32)
    }

    /// The legal root moves (restricted to `search_moves` if given), table move first,
    /// then captures by MVV-LVA.
    fn root_moves(&mut self, game: &G, limits: &crate::limits::Limits) -> Vec<RootMove<G::Move>> {
        let mut moves = G::Moves::default();
        game.generate(&mut moves);
        let tt_move = if self.config.tt {
            self.tt
                .probe(
                    game.key(),
                    game.key_extension(),
                    self.config.tt_wide_keys,
                    self.config.tt_replacement,
                )
                .map_or(0, |hit| hit.mv)
        } else {
            0
        };
        let mut root: Vec<RootMove<G::Move>> = moves
            .as_ref()
            .iter()
            .filter(|&&m| {
                limits.search_moves.is_empty() || limits.search_moves.contains(&G::encode(m))
            })
            .map(|&m| RootMove {
                mv: m,
                score: -INFINITY,
                previous_score: -INFINITY,
                bound: Bound::Upper,
                pv: vec![m],
                best_at_depth: 0,
                nodes: 0,
            })
            .collect();
        if self.config.tt_move || self.config.knowledge {
            let key = |m: G::Move| {
                let table = if self.config.tt_move && G::encode(m) == tt_move {
                    1 << 20
                } else {
                    0
                };
                let knowledge = if self.config.knowledge {
                    game.mvv_lva(m)
                } else {
                    0
                };
                -(table + knowledge)
            };
            root.sort_by_key(|rm| key(rm.mv));
        }
        root
    }

    /// One pass over the root moves from `pv_index` with window (alpha, beta).
    #[allow(clippy::too_many_arguments)]
    fn root_search<O: Observer<G::Move>>(
        &mut self,
        game: &mut G,
        root: &mut [RootMove<G::Move>],
        pv_index: usize,
        mut alpha: i32,
        beta: i32,
        depth: u32,
        observer: &mut O,
    ) -> i32 {
        self.pv.clear(0);
        self.stats.nodes += 1;
        let depth = depth as i32;
        let mut best = -INFINITY;
        // `smp_root_order`: a helper takes the first move, then the rest from the last. The
        // moves are followed by identity, since a new best move is rotated to the front.
        let reverse = !self.is_main && self.config.smp_root_order && root.len() - pv_index > 2;
        let order: Vec<G::Move> = if reverse {
            self.stats.smp_root_reversed += 1;
            std::iter::once(root[pv_index].mv)
                .chain(root[pv_index + 1..].iter().rev().map(|rm| rm.mv))
                .collect()
        } else {
            Vec::new()
        };
        for k in 0..root.len() - pv_index {
            let i = match order.get(k) {
                Some(&mv) => root.iter().position(|rm| rm.mv == mv).expect("a root move"),
                None => pv_index + k,
            };
            let m = root[i].mv;
            if self.is_main {
                let elapsed = self.start.elapsed();
                if elapsed >= CURRMOVE_DELAY {
                    observer.root_move(depth as u32, m, i + 1, elapsed);
                }
            }
            let packed = G::encode(m);
            let recapture = self.config.extend_recapture && game.is_recapture(m);
            let pawn_seventh = self.config.extend_pawn_seventh && game.is_advanced_pawn_push(m);
            let history_index = game.history_index(m);
            self.move_slots[0] = history_index as u32;
            let nodes_before = self.stats.total_nodes();
            let gives_check = game.gives_check(m);
            let check_extends = self.check_extends(game, m, gives_check);
            let quiet = !(gives_check || game.is_tactical(m));
            game.play(m);
            let extension = self.extension(check_extends, false, recapture, pawn_seventh, 0);
            let new_depth = depth - 1 + extension;
            let follows = self.config.refutation && packed == self.refutation.move_at(0);
            let first = k == 0;
            // Moves after the first are expected to fail low here, so their replies to cut.
            self.expected_cut[1] = !first;
            let value = if first || self.config.algorithm == Algorithm::AlphaBeta {
                -self.node(game, -beta, -alpha, new_depth, 1, true, true, follows)
            } else {
                let reduction = if quiet && extension == 0 {
                    let main_index = self.main_history_index(game, m, history_index);
                    self.root_reduction(depth, new_depth, k, main_index)
                } else {
                    0
                };
                let mut v = -self.node(
                    game,
                    -alpha - 1,
                    -alpha,
                    new_depth - reduction,
                    1,
                    false,
                    true,
                    follows,
                );
                if reduction > 0 && v > alpha && !self.stopped {
                    self.stats.root_lmr_researches += 1;
                    v = -self.node(game, -alpha - 1, -alpha, new_depth, 1, false, true, follows);
                }
                if v > alpha && v < beta && !self.stopped {
                    self.stats.pvs_researches += 1;
                    v = -self.node(game, -beta, -alpha, new_depth, 1, true, true, follows);
                }
                v
            };
            root[i].nodes += self.stats.total_nodes() - nodes_before;
            if self.stopped {
                game.undo();
                break;
            }
            let child_line: Vec<u16> = self.pv.line_from(1).to_vec();
            let pv = if first || value > alpha {
                self.decode_line(game, &child_line)
            } else {
                Vec::new()
            };
            game.undo();
            let rm = &mut root[i];
            rm.score = value;
            best = best.max(value);
            if value <= alpha {
                // A bound, not this move's value: if an earlier window of this depth made
                // it best, a stop must not play it with this score (it may tie the best's).
                rm.best_at_depth = 0;
            }
            if first || value > alpha {
                rm.bound = if value >= beta {
                    Bound::Lower
                } else if value <= alpha {
                    Bound::Upper
                } else {
                    Bound::Exact
                };
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv.extend(pv);
                if value > alpha {
                    rm.best_at_depth = depth as u32;
                    // Move the new best to the front of the window's moves.
                    root[pv_index..=i].rotate_right(1);
                    if value >= beta {
                        break;
                    }
                    alpha = value;
                }
            }
        }
        best
    }

    /// `root_lmr`: plies to reduce the `searched`-th root move (a quiet move, not extended),
    /// as `lmr_reduction` reduces a late move at any PV node. The root has no static eval,
    /// so it counts as improving (no extra ply). Never below one ply; 0 with MultiPV.
    fn root_reduction(
        &mut self,
        depth: i32,
        new_depth: i32,
        searched: usize,
        main_index: usize,
    ) -> i32 {
        if !self.config.root_lmr || self.config.multipv > 1 {
            return 0;
        }
        let scores = MoveScores {
            history: if self.config.history {
                self.history.score(main_index)
            } else {
                0
            },
            continuation: 0,
        };
        let reduction = self
            .lmr_reduction(
                depth,
                searched,
                scores,
                LmrNode {
                    improving: true,
                    pv_node: true,
                    cut_node: false,
                    tt_pv: self.config.tt_pv,
                    tt_capture: false,
                },
            )
            .min(new_depth - 1)
            .max(0);
        self.stats.root_lmr_reductions += u64::from(reduction > 0);
        reduction
    }

    /// Decodes an encoded line in the position after the root move (each move checked legal).
    fn decode_line(&self, game: &mut G, line: &[u16]) -> Vec<G::Move> {
        let mut moves = Vec::with_capacity(line.len());
        for &packed in line {
            match game.decode(packed) {
                Some(m) => {
                    game.play(m);
                    moves.push(m);
                }
                None => break,
            }
        }
        for _ in 0..moves.len() {
            game.undo();
        }
        moves
    }
}
