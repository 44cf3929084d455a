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
    pub seldepth: usize,
    pub tt_probes: u64,
    pub tt_hits: u64,
    pub tt_cutoffs: u64,
    pub tt_stores: u64,
    pub tt_overwrites: u64,
    /// Table moves rejected by the legality check (hash collisions).
    pub tt_bad_moves: u64,
    /// Table cutoffs refused because the value rested on a repetition (GHI).
    pub tt_path_refusals: u64,
    /// Nodes whose alpha rose to the draw score: a move repeats a position of the path.
    pub upcoming_repetitions: u64,
    pub beta_cutoffs: u64,
    /// Cutoffs by the first move tried: their share measures ordering quality.
    pub first_move_cutoffs: u64,
    pub null_tries: u64,
    pub null_cutoffs: u64,
    pub null_verifications_failed: u64,
    pub lmr_reductions: u64,
    pub lmr_researches: u64,
    pub reverse_futility_cutoffs: u64,
    pub futility_prunes: u64,
    pub late_move_prunes: u64,
    pub pvs_researches: u64,
    pub aspiration_researches: u64,
    pub presearches: u64,
    pub presearch_reused: u64,
    pub etc_probes: u64,
    pub etc_cutoffs: u64,
    pub ext_check: u64,
    pub ext_single_reply: u64,
    pub ext_recapture: u64,
    pub ext_pawn_seventh: u64,
    pub killer_cutoffs: u64,
    pub countermove_cutoffs: u64,
    /// Nodes (main + quiescence) when each iteration finished, by iteration depth.
    pub iteration_nodes: Vec<(u32, u64)>,
}

impl Default for SearchStats {
    fn default() -> Self {
        SearchStats {
            nodes: 0,
            qnodes: 0,
            seldepth: 0,
            tt_probes: 0,
            tt_hits: 0,
            tt_cutoffs: 0,
            tt_stores: 0,
            tt_overwrites: 0,
            tt_bad_moves: 0,
            tt_path_refusals: 0,
            upcoming_repetitions: 0,
            beta_cutoffs: 0,
            first_move_cutoffs: 0,
            null_tries: 0,
            null_cutoffs: 0,
            null_verifications_failed: 0,
            lmr_reductions: 0,
            lmr_researches: 0,
            reverse_futility_cutoffs: 0,
            futility_prunes: 0,
            late_move_prunes: 0,
            pvs_researches: 0,
            aspiration_researches: 0,
            presearches: 0,
            presearch_reused: 0,
            etc_probes: 0,
            etc_cutoffs: 0,
            ext_check: 0,
            ext_single_reply: 0,
            ext_recapture: 0,
            ext_pawn_seventh: 0,
            killer_cutoffs: 0,
            countermove_cutoffs: 0,
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
        self.seldepth = self.seldepth.max(o.seldepth);
        self.tt_probes += o.tt_probes;
        self.tt_hits += o.tt_hits;
        self.tt_cutoffs += o.tt_cutoffs;
        self.tt_stores += o.tt_stores;
        self.tt_overwrites += o.tt_overwrites;
        self.tt_bad_moves += o.tt_bad_moves;
        self.tt_path_refusals += o.tt_path_refusals;
        self.upcoming_repetitions += o.upcoming_repetitions;
        self.beta_cutoffs += o.beta_cutoffs;
        self.first_move_cutoffs += o.first_move_cutoffs;
        self.null_tries += o.null_tries;
        self.null_cutoffs += o.null_cutoffs;
        self.null_verifications_failed += o.null_verifications_failed;
        self.lmr_reductions += o.lmr_reductions;
        self.lmr_researches += o.lmr_researches;
        self.reverse_futility_cutoffs += o.reverse_futility_cutoffs;
        self.futility_prunes += o.futility_prunes;
        self.late_move_prunes += o.late_move_prunes;
        self.pvs_researches += o.pvs_researches;
        self.aspiration_researches += o.aspiration_researches;
        self.presearches += o.presearches;
        self.presearch_reused += o.presearch_reused;
        self.etc_probes += o.etc_probes;
        self.etc_cutoffs += o.etc_cutoffs;
        self.ext_check += o.ext_check;
        self.ext_single_reply += o.ext_single_reply;
        self.ext_recapture += o.ext_recapture;
        self.ext_pawn_seventh += o.ext_pawn_seventh;
        self.killer_cutoffs += o.killer_cutoffs;
        self.countermove_cutoffs += o.countermove_cutoffs;
    }
}

impl fmt::Display for SearchStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pct = |a: u64, b: u64| 100.0 * a as f64 / b.max(1) as f64;
        writeln!(
            f,
            "nodes {} (main {}, quiescence {}), seldepth {}",
            self.total_nodes(),
            self.nodes,
            self.qnodes,
            self.seldepth
        )?;
        writeln!(
            f,
            "tt: probes {} hits {} ({:.1}%) cutoffs {} stores {} overwrites {} bad-moves {} path-refusals {}",
            self.tt_probes,
            self.tt_hits,
            pct(self.tt_hits, self.tt_probes),
            self.tt_cutoffs,
            self.tt_stores,
            self.tt_overwrites,
            self.tt_bad_moves,
            self.tt_path_refusals
        )?;
        writeln!(
            f,
            "cutoffs {} first-move {:.1}% killer {} countermove {}",
            self.beta_cutoffs,
            100.0 * self.first_move_cutoff_rate(),
            self.killer_cutoffs,
            self.countermove_cutoffs
        )?;
        writeln!(
            f,
            "null: tries {} cutoffs {} failed-verifications {}; lmr: reductions {} re-searches {}; pvs re-searches {}; aspiration re-searches {}",
            self.null_tries,
            self.null_cutoffs,
            self.null_verifications_failed,
            self.lmr_reductions,
            self.lmr_researches,
            self.pvs_researches,
            self.aspiration_researches
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
            "shallow pruning: reverse-futility cutoffs {} futility-pruned {} late-move-pruned {}",
            self.reverse_futility_cutoffs, self.futility_prunes, self.late_move_prunes
        )?;
        write!(
            f,
            "extensions: check {} single-reply {} recapture {} pawn-7th {}",
            self.ext_check, self.ext_single_reply, self.ext_recapture, self.ext_pawn_seventh
        )
    }
}
