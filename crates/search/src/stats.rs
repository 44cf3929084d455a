//! Counters that show what each enhancement did in one search.

use std::fmt;
use std::ops::AddAssign;

use crate::score::MAX_PLY;

/// Statistics of one search (one thread; threads' counters are added up).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchStats {
    /// Nodes of the main search (interior and horizon nodes).
    pub nodes: u64,
    /// Nodes of the quiescence search.
    pub qnodes: u64,
    /// Quiescence captures skipped by the move limit (`qs_move_limit`).
    pub qs_move_limit_prunes: u64,
    pub seldepth: usize,
    pub tt_probes: u64,
    pub tt_hits: u64,
    pub tt_cutoffs: u64,
    pub tt_stores: u64,
    pub tt_overwrites: u64,
    /// Shallower results dropped to keep another thread's deeper entry (`tt_keep_deeper`).
    pub tt_kept_deeper: u64,
    /// Table moves rejected by the legality check (hash collisions).
    pub tt_bad_moves: u64,
    /// Table cutoffs refused because the value rested on a repetition (GHI).
    pub tt_path_refusals: u64,
    /// Cutoffs (table and ETC) from path-dependent values whose history signature matched
    /// this path (`GHI=exact`).
    pub ghi_exact_reuses: u64,
    /// Children's entries prefetched before the move was made (`tt_early_prefetch`), and
    /// evaluation states prepared while the entry loads (`eager_accumulator`).
    pub tt_early_prefetches: u64,
    pub eager_preparations: u64,
    /// Nodes whose alpha rose to the draw score: a move repeats a position of the path.
    pub upcoming_repetitions: u64,
    pub beta_cutoffs: u64,
    /// Cutoffs by the first move tried: their share measures ordering quality.
    pub first_move_cutoffs: u64,
    pub null_tries: u64,
    pub null_cutoffs: u64,
    pub null_verifications: u64,
    pub null_verifications_failed: u64,
    /// Verifications that only `null_verification_endgame` asked for (few pieces).
    pub null_endgame_verifications: u64,
    /// Null moves not tried because the side to move had fewer pieces than `null_min_pieces`.
    pub null_piece_skips: u64,
    /// Null-move candidates where `null_mobile_pieces` counted fewer pieces (some walled in),
    /// and those of them skipped because none could move.
    pub null_immobile_discounts: u64,
    pub null_immobile_skips: u64,
    /// Null moves not tried because the side's pieces had fewer moves than `null_min_mobility`.
    pub null_mobility_skips: u64,
    /// Reverse futility cutoffs not taken because of `reverse_futility_min_mobility`.
    pub reverse_futility_mobility_skips: u64,
    pub lmr_reductions: u64,
    pub lmr_researches: u64,
    /// LMR re-searches a ply deeper or shallower than the unreduced depth, and re-searches
    /// skipped because the shallower depth was the reduced one (`lmr_research_depth`).
    pub lmr_deeper: u64,
    pub lmr_shallower: u64,
    pub lmr_research_skipped: u64,
    pub reverse_futility_cutoffs: u64,
    pub futility_prunes: u64,
    pub late_move_prunes: u64,
    /// Razoring: quiescence searches tried at a static eval far below alpha, and nodes they
    /// ended (failed low).
    pub razoring_tries: u64,
    pub razoring_cutoffs: u64,
    /// Nodes whose static eval rose against two plies before (with `improving` on).
    pub improving_nodes: u64,
    /// Nodes searched one ply shallower for want of a table move.
    pub iir_reductions: u64,
    pub pvs_researches: u64,
    pub aspiration_researches: u64,
    /// Of those, re-searches with a gradually widened window (`aspiration_growth`).
    pub aspiration_gradual_researches: u64,
    pub presearches: u64,
    pub presearch_reused: u64,
    pub etc_probes: u64,
    pub etc_cutoffs: u64,
    pub ext_check: u64,
    /// Checks left unextended because they lose material (`extend_check_see`).
    pub ext_check_losing: u64,
    pub ext_single_reply: u64,
    pub ext_recapture: u64,
    pub ext_pawn_seventh: u64,
    pub killer_cutoffs: u64,
    pub countermove_cutoffs: u64,
    /// Gravity history: bonuses to cutoff moves and maluses to quiet moves tried before them.
    pub history_bonuses: u64,
    pub history_maluses: u64,
    /// `butterfly_history`: main-history updates (any weight) made in butterfly slots.
    pub butterfly_updates: u64,
    /// Continuation histories: entries updated (bonus or malus), quiet moves pruned, and
    /// late-move reductions changed by the continuation score.
    pub continuation_updates: u64,
    /// Capture history: entries updated (bonus to the capture that cut off, malus to the
    /// captures tried before a cutoff).
    pub capture_history_updates: u64,
    pub continuation_prunes: u64,
    pub continuation_lmr_changes: u64,
    /// Moves skipped by SEE pruning and by history pruning.
    pub see_prunes: u64,
    pub history_prunes: u64,
    /// `see_check_spare`: checking moves below their class's SEE threshold that the
    /// check margin kept.
    pub see_checks_spared: u64,
    /// `see_quiet_quadratic`: quiet moves SEE-pruned below the quadratic threshold.
    pub see_quadratic_prunes: u64,
    /// `reduced_depth_pruning`: quiet moves pruned by futility, history or SEE pruning at
    /// a reduced depth below the node's.
    pub reduced_depth_prunes: u64,
    /// Quiet passed-pawn pushes kept out of pruning and reductions (`spare_passed_pushes`).
    pub passed_pushes_spared: u64,
    /// Nodes whose pruning used the table's value instead of the static eval (`tt_value_eval`).
    pub tt_value_evals: u64,
    /// ProbCut: captures tried against the raised beta, and cutoffs.
    pub probcut_tries: u64,
    pub probcut_cutoffs: u64,
    /// ProbCut not tried: the table's deeper value stayed below the raised beta.
    pub probcut_table_skips: u64,
    /// Singular extensions: exclusion searches, single and double extensions, multi-cut cutoffs, negative extensions.
    pub singular_searches: u64,
    pub singular_extensions: u64,
    pub double_extensions: u64,
    pub multicut_cutoffs: u64,
    pub negative_extensions: u64,
    /// Late-move reductions changed by the refinements (history, PV, cut node).
    pub lmr_refined_changes: u64,
    /// `tt_pv`: non-PV nodes marked by their table entry as once on the PV, and late-move
    /// reductions made a ply smaller at marked nodes (PV nodes included).
    pub tt_pv_marked: u64,
    pub tt_pv_reductions_lessened: u64,
    /// Quiet late moves reduced a ply more because the node's table move is a capture or
    /// promotion (`lmr_tt_capture`).
    pub tt_capture_reductions: u64,
    /// Losing captures reduced (`lmr_captures`).
    pub lmr_captures_reduced: u64,
    /// Root moves reduced (`root_lmr`), and those re-searched at full depth.
    pub root_lmr_reductions: u64,
    pub root_lmr_researches: u64,
    /// Correction history: updates, and nodes whose eval it changed.
    pub correction_updates: u64,
    pub corrected_evals: u64,
    /// Evals the non-pawn tables moved (`correction_non_pawn`).
    pub non_pawn_corrections: u64,
    /// Table readings cut to `correction_max`.
    pub corrections_capped: u64,
    /// Table updates toward the residual error rather than the whole (`correction_residual`).
    pub residual_updates: u64,
    /// Endgame tables: positions found in them, and nodes their verdict ended.
    pub tb_hits: u64,
    pub tb_cutoffs: u64,
    /// Lazy SMP: searches whose played line came from a helper thread (`SMPBestThread`).
    pub smp_helper_lines: u64,
    /// Lazy SMP: moves put off because another thread was searching them (`SMPDefer`).
    pub smp_deferred: u64,
    /// Lazy SMP with `SMPHelperSync`: helper iterations started above the next depth
    /// (the main thread had completed it), and iterations abandoned when it did.
    pub smp_helper_jumps: u64,
    pub smp_helper_abandoned: u64,
    /// Root searches a helper made in reverse order (`smp_root_order`).
    pub smp_root_reversed: u64,
    /// Helper searches made with a shifted LMR table (`smp_helper_lmr`).
    pub smp_helper_lmr_searches: u64,
    /// Staged generation: cutoffs after the node's captures were generated and before its
    /// quiet moves were (not counted: cutoffs by the table move, before any generation).
    pub staged_quiet_skips: u64,
    /// The game's evaluation cache (whole evaluations by key): probes and hits during the
    /// search.
    pub eval_cache_probes: u64,
    pub eval_cache_hits: u64,
    /// The game's partial evaluation cache (chess: the pawn hash, probed on the evaluation
    /// cache's misses): probes and hits during the search.
    pub pawn_cache_probes: u64,
    pub pawn_cache_hits: u64,
    /// Evaluations the game's mop-up gradient changed (`MopUp`; chess: won pawnless
    /// endings), cached ones not counted again.
    pub mop_up_evals: u64,
    /// Evaluations the game scored by its KPK bitbase (`KPKBitbase`), cached ones not
    /// counted again.
    pub kpk_evals: u64,
    /// Evaluations of a bare king against mating material (`BareKingMate`).
    pub bare_king_evals: u64,
    /// Network evaluations the classic endgame scale shrank (`NetworkEndgameScale`), cached
    /// ones not counted again.
    pub network_scaled_evals: u64,
    /// Network evaluations blended with the classic one (`NetworkClassicBlend`), cached
    /// ones not counted again.
    pub network_blended_evals: u64,
    /// Nodes (main + quiescence) when each iteration finished, by iteration depth.
    pub iteration_nodes: Vec<(u32, u64)>,
}

impl Default for SearchStats {
    fn default() -> Self {
        SearchStats {
            nodes: 0,
            qnodes: 0,
            qs_move_limit_prunes: 0,
            seldepth: 0,
            tt_probes: 0,
            tt_hits: 0,
            tt_cutoffs: 0,
            tt_stores: 0,
            tt_overwrites: 0,
            tt_kept_deeper: 0,
            tt_bad_moves: 0,
            tt_path_refusals: 0,
            ghi_exact_reuses: 0,
            tt_early_prefetches: 0,
            eager_preparations: 0,
            upcoming_repetitions: 0,
            beta_cutoffs: 0,
            first_move_cutoffs: 0,
            null_tries: 0,
            null_cutoffs: 0,
            null_verifications: 0,
            null_verifications_failed: 0,
            null_endgame_verifications: 0,
            null_piece_skips: 0,
            null_immobile_discounts: 0,
            null_immobile_skips: 0,
            null_mobility_skips: 0,
            reverse_futility_mobility_skips: 0,
            lmr_reductions: 0,
            lmr_researches: 0,
            lmr_deeper: 0,
            lmr_shallower: 0,
            lmr_research_skipped: 0,
            reverse_futility_cutoffs: 0,
            futility_prunes: 0,
            late_move_prunes: 0,
            razoring_tries: 0,
            razoring_cutoffs: 0,
            improving_nodes: 0,
            iir_reductions: 0,
            pvs_researches: 0,
            aspiration_researches: 0,
            aspiration_gradual_researches: 0,
            presearches: 0,
            presearch_reused: 0,
            etc_probes: 0,
            etc_cutoffs: 0,
            ext_check: 0,
            ext_check_losing: 0,
            ext_single_reply: 0,
            ext_recapture: 0,
            ext_pawn_seventh: 0,
            killer_cutoffs: 0,
            countermove_cutoffs: 0,
            history_bonuses: 0,
            history_maluses: 0,
            butterfly_updates: 0,
            continuation_updates: 0,
            capture_history_updates: 0,
            continuation_prunes: 0,
            continuation_lmr_changes: 0,
            see_prunes: 0,
            see_checks_spared: 0,
            see_quadratic_prunes: 0,
            history_prunes: 0,
            reduced_depth_prunes: 0,
            passed_pushes_spared: 0,
            tt_value_evals: 0,
            probcut_tries: 0,
            probcut_cutoffs: 0,
            probcut_table_skips: 0,
            singular_searches: 0,
            singular_extensions: 0,
            double_extensions: 0,
            multicut_cutoffs: 0,
            negative_extensions: 0,
            lmr_refined_changes: 0,
            tt_pv_marked: 0,
            tt_pv_reductions_lessened: 0,
            tt_capture_reductions: 0,
            lmr_captures_reduced: 0,
            root_lmr_reductions: 0,
            root_lmr_researches: 0,
            correction_updates: 0,
            corrected_evals: 0,
            non_pawn_corrections: 0,
            corrections_capped: 0,
            residual_updates: 0,
            tb_hits: 0,
            tb_cutoffs: 0,
            smp_helper_lines: 0,
            smp_deferred: 0,
            smp_helper_jumps: 0,
            smp_helper_abandoned: 0,
            smp_root_reversed: 0,
            smp_helper_lmr_searches: 0,
            staged_quiet_skips: 0,
            eval_cache_probes: 0,
            eval_cache_hits: 0,
            pawn_cache_probes: 0,
            pawn_cache_hits: 0,
            mop_up_evals: 0,
            kpk_evals: 0,
            network_scaled_evals: 0,
            network_blended_evals: 0,
            bare_king_evals: 0,
            iteration_nodes: Vec::with_capacity(MAX_PLY),
        }
    }
}

impl SearchStats {
    /// All nodes, main and quiescence.
    pub fn total_nodes(&self) -> u64 {
        self.nodes + self.qnodes
    }

    /// Share of beta cutoffs produced by the first move tried.
    pub fn first_move_cutoff_rate(&self) -> f64 {
        self.first_move_cutoffs as f64 / self.beta_cutoffs.max(1) as f64
    }

    /// Effective branching factor of each iteration: its own nodes divided by those of the
    /// previous iteration (`iteration_nodes` holds running totals).
    pub fn branching_factors(&self) -> Vec<(u32, f64)> {
        let own: Vec<(u32, u64)> = self
            .iteration_nodes
            .iter()
            .scan(0u64, |before, &(depth, total)| {
                let nodes = total - *before;
                *before = total;
                Some((depth, nodes))
            })
            .collect();
        own.windows(2)
            .map(|w| (w[1].0, w[1].1 as f64 / w[0].1.max(1) as f64))
            .collect()
    }
}

impl AddAssign<&SearchStats> for SearchStats {
    fn add_assign(&mut self, o: &SearchStats) {
        self.nodes += o.nodes;
        self.qnodes += o.qnodes;
        self.qs_move_limit_prunes += o.qs_move_limit_prunes;
        self.seldepth = self.seldepth.max(o.seldepth);
        self.tt_probes += o.tt_probes;
        self.tt_hits += o.tt_hits;
        self.tt_cutoffs += o.tt_cutoffs;
        self.tt_stores += o.tt_stores;
        self.tt_overwrites += o.tt_overwrites;
        self.tt_kept_deeper += o.tt_kept_deeper;
        self.tt_bad_moves += o.tt_bad_moves;
        self.tt_path_refusals += o.tt_path_refusals;
        self.ghi_exact_reuses += o.ghi_exact_reuses;
        self.tt_early_prefetches += o.tt_early_prefetches;
        self.eager_preparations += o.eager_preparations;
        self.upcoming_repetitions += o.upcoming_repetitions;
        self.beta_cutoffs += o.beta_cutoffs;
        self.first_move_cutoffs += o.first_move_cutoffs;
        self.null_tries += o.null_tries;
        self.null_cutoffs += o.null_cutoffs;
        self.null_verifications += o.null_verifications;
        self.null_verifications_failed += o.null_verifications_failed;
        self.null_endgame_verifications += o.null_endgame_verifications;
        self.null_piece_skips += o.null_piece_skips;
        self.null_immobile_discounts += o.null_immobile_discounts;
        self.null_immobile_skips += o.null_immobile_skips;
        self.null_mobility_skips += o.null_mobility_skips;
        self.reverse_futility_mobility_skips += o.reverse_futility_mobility_skips;
        self.lmr_reductions += o.lmr_reductions;
        self.lmr_researches += o.lmr_researches;
        self.lmr_deeper += o.lmr_deeper;
        self.lmr_shallower += o.lmr_shallower;
        self.lmr_research_skipped += o.lmr_research_skipped;
        self.reverse_futility_cutoffs += o.reverse_futility_cutoffs;
        self.futility_prunes += o.futility_prunes;
        self.late_move_prunes += o.late_move_prunes;
        self.razoring_tries += o.razoring_tries;
        self.razoring_cutoffs += o.razoring_cutoffs;
        self.improving_nodes += o.improving_nodes;
        self.iir_reductions += o.iir_reductions;
        self.pvs_researches += o.pvs_researches;
        self.aspiration_researches += o.aspiration_researches;
        self.aspiration_gradual_researches += o.aspiration_gradual_researches;
        self.presearches += o.presearches;
        self.presearch_reused += o.presearch_reused;
        self.etc_probes += o.etc_probes;
        self.etc_cutoffs += o.etc_cutoffs;
        self.ext_check += o.ext_check;
        self.ext_check_losing += o.ext_check_losing;
        self.ext_single_reply += o.ext_single_reply;
        self.ext_recapture += o.ext_recapture;
        self.ext_pawn_seventh += o.ext_pawn_seventh;
        self.killer_cutoffs += o.killer_cutoffs;
        self.countermove_cutoffs += o.countermove_cutoffs;
        self.history_bonuses += o.history_bonuses;
        self.history_maluses += o.history_maluses;
        self.butterfly_updates += o.butterfly_updates;
        self.continuation_updates += o.continuation_updates;
        self.capture_history_updates += o.capture_history_updates;
        self.see_prunes += o.see_prunes;
        self.see_checks_spared += o.see_checks_spared;
        self.see_quadratic_prunes += o.see_quadratic_prunes;
        self.history_prunes += o.history_prunes;
        self.reduced_depth_prunes += o.reduced_depth_prunes;
        self.passed_pushes_spared += o.passed_pushes_spared;
        self.tt_value_evals += o.tt_value_evals;
        self.probcut_tries += o.probcut_tries;
        self.probcut_cutoffs += o.probcut_cutoffs;
        self.probcut_table_skips += o.probcut_table_skips;
        self.singular_searches += o.singular_searches;
        self.singular_extensions += o.singular_extensions;
        self.double_extensions += o.double_extensions;
        self.multicut_cutoffs += o.multicut_cutoffs;
        self.negative_extensions += o.negative_extensions;
        self.lmr_refined_changes += o.lmr_refined_changes;
        self.tt_pv_marked += o.tt_pv_marked;
        self.tt_pv_reductions_lessened += o.tt_pv_reductions_lessened;
        self.tt_capture_reductions += o.tt_capture_reductions;
        self.lmr_captures_reduced += o.lmr_captures_reduced;
        self.root_lmr_reductions += o.root_lmr_reductions;
        self.root_lmr_researches += o.root_lmr_researches;
        self.correction_updates += o.correction_updates;
        self.corrected_evals += o.corrected_evals;
        self.non_pawn_corrections += o.non_pawn_corrections;
        self.corrections_capped += o.corrections_capped;
        self.residual_updates += o.residual_updates;
        self.tb_hits += o.tb_hits;
        self.tb_cutoffs += o.tb_cutoffs;
        self.smp_helper_lines += o.smp_helper_lines;
        self.smp_deferred += o.smp_deferred;
        self.smp_helper_jumps += o.smp_helper_jumps;
        self.smp_helper_abandoned += o.smp_helper_abandoned;
        self.smp_root_reversed += o.smp_root_reversed;
        self.smp_helper_lmr_searches += o.smp_helper_lmr_searches;
        self.staged_quiet_skips += o.staged_quiet_skips;
        self.eval_cache_probes += o.eval_cache_probes;
        self.eval_cache_hits += o.eval_cache_hits;
        self.pawn_cache_probes += o.pawn_cache_probes;
        self.pawn_cache_hits += o.pawn_cache_hits;
        self.mop_up_evals += o.mop_up_evals;
        self.kpk_evals += o.kpk_evals;
        self.network_scaled_evals += o.network_scaled_evals;
        self.network_blended_evals += o.network_blended_evals;
        self.bare_king_evals += o.bare_king_evals;
        self.continuation_prunes += o.continuation_prunes;
        self.continuation_lmr_changes += o.continuation_lmr_changes;
    }
}

impl fmt::Display for SearchStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pct = |a: u64, b: u64| 100.0 * a as f64 / b.max(1) as f64;
        writeln!(
            f,
            "nodes {} (main {}, quiescence {}; quiescence moves over the limit {}), seldepth {}",
            self.total_nodes(),
            self.nodes,
            self.qnodes,
            self.qs_move_limit_prunes,
            self.seldepth
        )?;
        writeln!(
            f,
            "tt: probes {} hits {} ({:.1}%) cutoffs {} stores {} overwrites {} kept-deeper {} bad-moves {} path-refusals {} ghi-exact-reuses {} early-prefetches {} eager-preparations {}",
            self.tt_probes,
            self.tt_hits,
            pct(self.tt_hits, self.tt_probes),
            self.tt_cutoffs,
            self.tt_stores,
            self.tt_overwrites,
            self.tt_kept_deeper,
            self.tt_bad_moves,
            self.tt_path_refusals,
            self.ghi_exact_reuses,
            self.tt_early_prefetches,
            self.eager_preparations
        )?;
        writeln!(
            f,
            "cutoffs {} first-move {:.1}% killer {} countermove {}; history: bonuses {} maluses {} butterfly updates {}",
            self.beta_cutoffs,
            100.0 * self.first_move_cutoff_rate(),
            self.killer_cutoffs,
            self.countermove_cutoffs,
            self.history_bonuses,
            self.history_maluses,
            self.butterfly_updates
        )?;
        writeln!(
            f,
            "null: tries {} cutoffs {} verifications {} (endgame {}) failed {} skipped for few pieces {} walled-in pieces discounted {} (skipped {}) skipped for low mobility {}; lmr: reductions {} re-searches {} (deeper {} shallower {} skipped {}); pvs re-searches {}; aspiration re-searches {} (gradual {})",
            self.null_tries,
            self.null_cutoffs,
            self.null_verifications,
            self.null_endgame_verifications,
            self.null_verifications_failed,
            self.null_piece_skips,
            self.null_immobile_discounts,
            self.null_immobile_skips,
            self.null_mobility_skips,
            self.lmr_reductions,
            self.lmr_researches,
            self.lmr_deeper,
            self.lmr_shallower,
            self.lmr_research_skipped,
            self.pvs_researches,
            self.aspiration_researches,
            self.aspiration_gradual_researches
        )?;
        writeln!(
            f,
            "presearch: started {} reused {}; etc: probes {} cutoffs {}; upcoming repetitions {}",
            self.presearches,
            self.presearch_reused,
            self.etc_probes,
            self.etc_cutoffs,
            self.upcoming_repetitions
        )?;
        writeln!(
            f,
            "shallow pruning: reverse-futility cutoffs {} (spared for low mobility {}) futility-pruned {} late-move-pruned {}; razoring: tries {} cutoffs {}; improving nodes {}; iir reductions {}",
            self.reverse_futility_cutoffs,
            self.reverse_futility_mobility_skips,
            self.futility_prunes,
            self.late_move_prunes,
            self.razoring_tries,
            self.razoring_cutoffs,
            self.improving_nodes,
            self.iir_reductions
        )?;
        writeln!(
            f,
            "continuation history: updates {} pruned {} lmr-changed {}; capture history: updates {}",
            self.continuation_updates,
            self.continuation_prunes,
            self.continuation_lmr_changes,
            self.capture_history_updates
        )?;
        writeln!(
            f,
            "see-pruned {} (quadratic quiet {}) checks spared {} history-pruned {} at reduced depth {} passed pushes spared {}; table values as eval {}; probcut: tries {} cutoffs {} table skips {}; lmr refined {} tt-pv: non-PV nodes marked {} reduced less {} table-capture nodes reduced more {} losing captures reduced {} root moves reduced {} re-searched {}; correction: updates {} corrected {} by non-pawn tables {} capped {} residual updates {}",
            self.see_prunes,
            self.see_quadratic_prunes,
            self.see_checks_spared,
            self.history_prunes,
            self.reduced_depth_prunes,
            self.passed_pushes_spared,
            self.tt_value_evals,
            self.probcut_tries,
            self.probcut_cutoffs,
            self.probcut_table_skips,
            self.lmr_refined_changes,
            self.tt_pv_marked,
            self.tt_pv_reductions_lessened,
            self.tt_capture_reductions,
            self.lmr_captures_reduced,
            self.root_lmr_reductions,
            self.root_lmr_researches,
            self.correction_updates,
            self.corrected_evals,
            self.non_pawn_corrections,
            self.corrections_capped,
            self.residual_updates
        )?;
        writeln!(
            f,
            "singular: searches {} extended {} doubly {} multi-cut {} negative {}",
            self.singular_searches,
            self.singular_extensions,
            self.double_extensions,
            self.multicut_cutoffs,
            self.negative_extensions
        )?;
        writeln!(
            f,
            "extensions: check {} (losing checks not extended {}) single-reply {} recapture {} pawn-7th {}",
            self.ext_check,
            self.ext_check_losing,
            self.ext_single_reply,
            self.ext_recapture,
            self.ext_pawn_seventh
        )?;
        writeln!(
            f,
            "tablebases: hits {} cutoffs {}; smp: helper lines played {} moves deferred {} helper iterations skipped {} abandoned {} root searches reversed {} helper searches with shifted LMR {}",
            self.tb_hits,
            self.tb_cutoffs,
            self.smp_helper_lines,
            self.smp_deferred,
            self.smp_helper_jumps,
            self.smp_helper_abandoned,
            self.smp_root_reversed,
            self.smp_helper_lmr_searches
        )?;
        write!(
            f,
            "eval cache: probes {} hits {} ({:.1}%); pawn cache: probes {} hits {} ({:.1}%); mop-up evaluations {}; KPK bitbase evaluations {}; bare-king evaluations {}; network evaluations scaled {} blended {}; staged generation: cutoffs before quiet generation {}",
            self.eval_cache_probes,
            self.eval_cache_hits,
            pct(self.eval_cache_hits, self.eval_cache_probes),
            self.pawn_cache_probes,
            self.pawn_cache_hits,
            pct(self.pawn_cache_hits, self.pawn_cache_probes),
            self.mop_up_evals,
            self.kpk_evals,
            self.bare_king_evals,
            self.network_scaled_evals,
            self.network_blended_evals,
            self.staged_quiet_skips
        )
    }
}
