//! The searcher: one search thread's state (ordering tables, statistics, limits) around
//! the node functions in `search.rs`, `quiescence.rs` and the enhancement modules.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::abdada::BusyMoves;
use crate::config::SearchConfig;
use crate::continuation::{CONTINUATION_PLIES, ContinuationHistory, NO_SLOT};
use crate::correction::CorrectionHistory;
use crate::game::Game;
use crate::ghi::Dependence;
use crate::history::{CounterMoves, History};
use crate::killers::Killers;
use crate::limits::{Limits, SearchControl};
use crate::ordering::OrderingTables;
use crate::pruning::LmrTable;
use crate::pv::{PvTable, RefutationTable};
use crate::score::{Bound, MAX_PLY};
use crate::stats::SearchStats;
use crate::tt::{Store, StoreOutcome, TranspositionTable};

/// How often (in nodes) the clock and the shared stop flag are read.
const CHECK_INTERVAL: u64 = 1024;

/// One principal variation at the end of an iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line<M> {
    pub score: i32,
    pub bound: Bound,
    pub moves: Vec<M>,
}

/// What a finished iteration reports (the front-end prints it as `info`).
#[derive(Clone, Debug)]
pub struct Iteration<'a, M> {
    pub depth: u32,
    pub seldepth: usize,
    /// 1-based index of the line (MultiPV).
    pub multipv: usize,
    pub line: &'a Line<M>,
    pub nodes: u64,
    /// Positions found in the endgame tables.
    pub tb_hits: u64,
    pub elapsed: Duration,
    pub hashfull: u32,
    /// Whether the best move differs from the previous iteration's.
    pub best_move_changed: bool,
    /// Nodes the iteration spent under its best move, and under all root moves: time
    /// management reads a small share as "the choice is not settled".
    pub best_move_nodes: u64,
    pub root_nodes: u64,
}

/// The observer's verdict after an iteration.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Control {
    Continue,
    Stop,
}

/// Receives what the search finds, per iteration and per root move (never per node).
pub trait Observer<M> {
    /// A finished iteration, once per MultiPV line. `Control::Stop` ends the search
    /// (time management decides here).
    fn iteration(&mut self, _report: &Iteration<'_, M>) -> Control {
        Control::Continue
    }
    /// The root move about to be searched (for `currmove`).
    fn root_move(&mut self, _depth: u32, _m: M, _number: usize, _elapsed: Duration) {}
}

/// An observer that ignores everything.
pub struct Silent;

impl<M> Observer<M> for Silent {}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult<M> {
    /// `None` only when the root has no legal move.
    pub best_move: Option<M>,
    pub ponder_move: Option<M>,
    pub score: i32,
    /// Deepest completed iteration (0 if stopped before depth 1 completed).
    pub depth: u32,
    /// The iteration `lines[0]` comes from: `depth`, or the next iteration when it was cut
    /// short after a new best move had been searched completely (that move is kept).
    pub line_depth: u32,
    pub lines: Vec<Line<M>>,
    pub stats: SearchStats,
    pub elapsed: Duration,
    /// Lazy SMP: what each thread reached, the main thread first (empty for one thread).
    pub threads: Vec<ThreadReport>,
}

/// What one thread of a Lazy SMP search reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreadReport {
    /// Deepest completed iteration.
    pub depth: u32,
    pub score: i32,
    pub nodes: u64,
    pub elapsed: Duration,
    /// Whether the line played came from this thread.
    pub chosen: bool,
}

/// A root move with what the iterations found about it.
#[derive(Clone, Debug)]
pub(crate) struct RootMove<M> {
    pub mv: M,
    pub score: i32,
    pub previous_score: i32,
    pub bound: Bound,
    pub pv: Vec<M>,
    /// The iteration in which this move's last complete search raised alpha (0 once a later
    /// search of the same iteration failed low on it).
    pub best_at_depth: u32,
    /// Nodes searched under this move in the current iteration (re-searches included).
    pub nodes: u64,
}

/// One search thread.
pub struct Searcher<G: Game> {
    pub config: SearchConfig,
    pub(crate) tt: Arc<TranspositionTable>,
    pub(crate) control: Arc<SearchControl>,
    pub(crate) killers: Killers,
    pub(crate) history: History,
    pub(crate) countermoves: CounterMoves,
    pub(crate) continuation: ContinuationHistory,
    pub(crate) capture_history: History,
    /// History slot of the move played at each ply of the path (`NO_SLOT`: null move).
    pub(crate) move_slots: [u32; MAX_PLY + 2],
    pub(crate) pv: PvTable,
    pub(crate) refutation: RefutationTable,
    pub(crate) lmr: LmrTable,
    pub(crate) stats: SearchStats,
    /// A helper's nodes already added to the control's count of helper nodes.
    pub(crate) published_nodes: u64,
    pub(crate) limits: Limits,
    pub(crate) start: Instant,
    pub(crate) deadline: Option<Instant>,
    pub(crate) root_ply: usize,
    /// Nominal depth of the iteration under way (also stored in table entries).
    pub(crate) root_depth: i32,
    pub(crate) in_presearch: bool,
    pub(crate) presearch_ply: usize,
    pub(crate) stopped: bool,
    /// A helper's iteration stopped because the main thread completed its depth
    /// (`smp_helper_sync`): the helper goes on with a deeper one.
    pub(crate) abandoned: bool,
    /// Set by every node before it returns: what draws by rule its value rests on (GHI).
    pub(crate) dependence: Dependence,
    /// Static evals by ply as pruning uses them (corrected), and as evaluated (raw).
    pub(crate) static_evals: [i32; MAX_PLY + 2],
    pub(crate) raw_evals: [i32; MAX_PLY + 2],
    /// The table move a singular-extension exclusion search leaves out, by ply (0: none).
    pub(crate) excluded: [u16; MAX_PLY + 2],
    /// Double extensions on the path to each ply.
    pub(crate) double_extensions: [u8; MAX_PLY + 2],
    /// Whether the node at each ply is expected to fail high (set by its parent).
    pub(crate) expected_cut: [bool; MAX_PLY + 2],
    /// Null-move verification, per parity of the ply: the side to move at plies of that
    /// parity may not pass before this ply (both 0: no verification under way). One per
    /// side, so that a nested verification of one side keeps the other's lock.
    pub(crate) null_lock_until: [usize; 2],
    pub(crate) correction: CorrectionHistory,
    /// The side to move's and the other side's non-pawn tables (`correction_non_pawn`).
    pub(crate) correction_non_pawn: [CorrectionHistory; 2],
    /// Main thread: reports, ages the table, obeys limits; helpers only search.
    pub(crate) is_main: bool,
    /// Lazy SMP with `smp_defer`: the moves the threads are searching (`abdada.rs`).
    pub(crate) busy: Option<Arc<BusyMoves>>,
    pub(crate) _game: std::marker::PhantomData<G>,
}

impl<G: Game> Searcher<G> {
    /// The quiet moves a node tried pack their main-history and history slots into one
    /// `u32` (search.rs, `pack_quiet`): both tables must stay below 2^16 slots.
    const SLOTS_FIT_16_BITS: () =
        assert!(G::HISTORY_SIZE <= 1 << 16 && G::BUTTERFLY_SIZE <= 1 << 16);

    /// A searcher sharing `tt` and `control` with the front-end and other threads.
    pub fn new(
        config: SearchConfig,
        tt: Arc<TranspositionTable>,
        control: Arc<SearchControl>,
    ) -> Self {
        let lmr = LmrTable::new(config.lmr_base, config.lmr_divisor);
        let () = Self::SLOTS_FIT_16_BITS;
        Searcher {
            config,
            tt,
            control,
            killers: Killers::default(),
            history: History::new(G::HISTORY_SIZE.max(G::BUTTERFLY_SIZE)),
            countermoves: CounterMoves::new(G::HISTORY_SIZE),
            continuation: ContinuationHistory::new(G::CONTINUATION_SIZE),
            capture_history: History::new(G::CAPTURE_HISTORY_SIZE),
            move_slots: [NO_SLOT; MAX_PLY + 2],
            pv: PvTable::default(),
            refutation: RefutationTable::default(),
            lmr,
            stats: SearchStats::default(),
            published_nodes: 0,
            limits: Limits::default(),
            start: Instant::now(),
            deadline: None,
            root_ply: 0,
            root_depth: 0,
            in_presearch: false,
            presearch_ply: 0,
            stopped: false,
            abandoned: false,
            dependence: Dependence::NONE,
            static_evals: [0; MAX_PLY + 2],
            raw_evals: [0; MAX_PLY + 2],
            excluded: [0; MAX_PLY + 2],
            double_extensions: [0; MAX_PLY + 2],
            expected_cut: [false; MAX_PLY + 2],
            null_lock_until: [0; 2],
            correction: CorrectionHistory::default(),
            correction_non_pawn: Default::default(),
            is_main: true,
            busy: None,
            _game: std::marker::PhantomData,
        }
    }

    /// A standalone searcher with its own table of `tt_mib` MiB (tests, tools).
    pub fn standalone(config: SearchConfig, tt_mib: usize) -> Self {
        Self::new(
            config,
            Arc::new(TranspositionTable::new(tt_mib)),
            Arc::new(SearchControl::default()),
        )
    }

    /// The shared table.
    pub fn table(&self) -> &Arc<TranspositionTable> {
        &self.tt
    }

    /// The shared stop control.
    pub fn control(&self) -> &Arc<SearchControl> {
        &self.control
    }

    /// Statistics of the last search.
    pub fn stats(&self) -> &SearchStats {
        &self.stats
    }

    /// Forgets everything learnt (new game): ordering tables. The table is the caller's.
    pub fn clear(&mut self) {
        self.killers.clear();
        self.history.clear();
        self.countermoves.clear();
        self.continuation.clear();
        self.capture_history.clear();
        self.correction.clear();
        for table in &mut self.correction_non_pawn {
            table.clear();
        }
        self.refutation.clear();
    }

    /// What quiet moves are ordered by.
    #[inline]
    pub(crate) fn ordering_tables(&self) -> OrderingTables<'_> {
        OrderingTables {
            history: &self.history,
            continuation: &self.continuation,
            capture: &self.capture_history,
        }
    }

    /// `history::main_history_index` under this searcher's configuration.
    #[inline]
    pub(crate) fn main_history_index(&self, game: &G, m: G::Move, history_index: usize) -> usize {
        crate::history::main_history_index(&self.config, game, m, history_index)
    }

    /// The history slots of the moves played 1 and 2 plies before `ply` on the path.
    #[inline]
    pub(crate) fn earlier_slots(&self, ply: usize) -> [u32; CONTINUATION_PLIES] {
        std::array::from_fn(|back| {
            let distance = back + 1;
            if ply >= distance {
                self.move_slots[ply - distance]
            } else {
                NO_SLOT
            }
        })
    }

    /// Whether the search must stop now: node budget every node, the clock and the shared
    /// stop flag every `CHECK_INTERVAL` nodes (well under a millisecond).
    #[inline]
    pub(crate) fn should_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        let nodes = self.stats.nodes + self.stats.qnodes;
        if let Some(limit) = self.limits.nodes
            && self.is_main
            && nodes >= limit
        {
            self.stopped = true;
            return true;
        }
        if nodes.is_multiple_of(CHECK_INTERVAL) {
            if !self.is_main {
                self.control
                    .add_helper_nodes(nodes.saturating_sub(self.published_nodes));
                self.published_nodes = nodes;
            }
            if self.control.is_stopped() || (!self.is_main && self.control.helpers_stopped()) {
                self.stopped = true;
            } else if !self.is_main
                && self.config.smp_helper_sync
                && self.control.main_depth() >= self.root_depth as u32
            {
                self.stopped = true;
                self.abandoned = true;
            } else {
                // Helpers watch the front-end's deadline too: with more threads than cores
                // the main thread runs a small share of the time, and a helper that stops
                // at the deadline gives its core back at once.
                let now = Instant::now();
                if (self.is_main && self.deadline.is_some_and(|d| now >= d))
                    || self.control.deadline_passed(now)
                {
                    self.stopped = true;
                }
            }
        }
        self.stopped
    }

    /// Stores a node's result, counting what happened.
    #[inline]
    pub(crate) fn store(&mut self, game: &G, entry: &Store) {
        let signed;
        let entry = if let Some(with_path) = self.with_path_information(game, entry) {
            signed = with_path;
            &signed
        } else {
            entry
        };
        let outcome = self.tt.store_with(
            game.key(),
            game.key_extension(),
            self.config.tt_replacement,
            self.config.tt_keep_deeper,
            entry,
        );
        match outcome {
            StoreOutcome::Skipped => {}
            StoreOutcome::KeptDeeper => self.stats.tt_kept_deeper += 1,
            StoreOutcome::Overwrite => {
                self.stats.tt_stores += 1;
                self.stats.tt_overwrites += 1;
            }
            StoreOutcome::New | StoreOutcome::SameKey => self.stats.tt_stores += 1,
        }
    }
}
