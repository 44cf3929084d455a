//! Solving one EPD record: a search with a fresh table, watched iteration by iteration to
//! find when the solution was first found and then kept to the end.

use std::sync::Arc;
use std::time::Duration;

use horizon_chess::epd::EpdRecord;
use horizon_chess::search::search_threads;
use horizon_chess::{Move, Position, Tablebases};
use horizon_search::score::mate_moves;
use horizon_search::{
    Control, Iteration, Limits, Observer, SearchConfig, SearchControl, SearchResult, Searcher,
    TranspositionTable,
};

use super::network::Evaluator;

/// One search thread set with its own table: a `--jobs` worker.
pub struct Engine {
    main: Searcher<Position>,
    helpers: Vec<Searcher<Position>>,
    tt: Arc<TranspositionTable>,
    control: Arc<SearchControl>,
    tablebases: Option<Arc<Tablebases>>,
    /// The network that evaluates, or `None` for the classic evaluation.
    evaluator: Option<Evaluator>,
    /// Whether the last search's root was in the tables.
    root_in_tables: bool,
}

impl Engine {
    pub fn new(config: SearchConfig, hash_mib: usize, threads: usize) -> Engine {
        let tt = Arc::new(TranspositionTable::new(hash_mib));
        let control = Arc::new(SearchControl::default());
        let main = Searcher::new(config.clone(), tt.clone(), control.clone());
        let helpers = (1..threads.max(1))
            .map(|_| Searcher::new(config.clone(), tt.clone(), control.clone()))
            .collect();
        Engine {
            main,
            helpers,
            tt,
            control,
            tablebases: None,
            evaluator: None,
            root_in_tables: false,
        }
    }

    /// Evaluates with `evaluator`'s network (`None`: the classic evaluation).
    pub fn with_evaluator(mut self, evaluator: Option<Evaluator>) -> Engine {
        self.evaluator = evaluator;
        self
    }

    /// Endgame tables to probe (when the configuration's `Syzygy` switch is on).
    pub fn with_tablebases(mut self, tablebases: Option<Arc<Tablebases>>) -> Engine {
        self.tablebases = tablebases;
        self
    }

    /// Replaces the configuration (helpers take the main thread's at each search).
    pub fn set_config(&mut self, config: SearchConfig) {
        self.main.config = config;
    }

    /// Searches `position` as if it were the first: empty table, empty ordering tables, so
    /// each result is independent of the positions before it (and deterministic on one
    /// thread). With tables (and the `Syzygy` switch on) the search probes them and a root
    /// in the tables searches only the moves that keep its outcome.
    pub fn search_fresh<O: Observer<Move>>(
        &mut self,
        position: &Position,
        limits: &Limits,
        observer: &mut O,
    ) -> SearchResult<Move> {
        self.tt.clear();
        self.main.clear();
        self.helpers.iter_mut().for_each(Searcher::clear);
        self.control.reset();
        self.root_in_tables = false;
        // The search's own copy of the root, with the network and tables it is to use.
        let mut position = position.clone();
        if let Some(evaluator) = &self.evaluator {
            evaluator.install(&mut position);
        }
        let mut limits = limits.clone();
        if self.main.config.syzygy
            && let Some(tables) = &self.tablebases
        {
            position.set_tablebases(Some(tables.clone()));
            self.root_in_tables = tables
                .restrict_root(&position, &mut limits.search_moves)
                .is_some();
        }
        search_threads(
            &mut self.main,
            &mut self.helpers,
            &mut position,
            &limits,
            observer,
        )
    }
}

/// When the solution was first found and then kept to the end of the search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    /// The iteration (nominal depth) that first returned it.
    pub depth: u32,
    pub time: Duration,
    pub nodes: u64,
}

/// The outcome of one record's search.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// `Some(true)` solved, `Some(false)` not, `None` when the record has no bm/am/dm.
    pub solved: Option<bool>,
    /// Horizon's move in SAN (`None` when there is no legal move).
    pub best_move: Option<String>,
    pub score: i32,
    /// Mate announced, in moves (positive when the side to move mates).
    pub mate: Option<i32>,
    /// Deepest completed iteration.
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    /// Set only when solved.
    pub found: Option<Found>,
    /// Positions the search found in the endgame tables.
    pub tb_hits: u64,
    /// Whether the root was in the tables (its moves filtered by them).
    pub tb_root: bool,
}

impl Outcome {
    /// The score as UCI writes it: `cp 35` or `mate -3`.
    pub fn score_text(&self) -> String {
        match self.mate {
            Some(n) => format!("mate {n}"),
            None => format!("cp {}", self.score),
        }
    }
}

/// Follows the iterations: the solution counts as found at the first iteration of the final
/// unbroken run of iterations that all chose a solving move.
struct Tracker<'a> {
    record: &'a EpdRecord,
    found: Option<Found>,
    last_move: Option<Move>,
    last_depth: u32,
}

impl Observer<Move> for Tracker<'_> {
    fn iteration(&mut self, report: &Iteration<'_, Move>) -> Control {
        if report.multipv != 1 {
            return Control::Continue;
        }
        let best = report.line.moves.first().copied();
        let solves = best.is_some_and(|m| {
            self.record.is_solved_by(&m, mate_moves(report.line.score)) == Some(true)
        });
        if !solves {
            self.found = None;
        } else if self.found.is_none() {
            self.found = Some(Found {
                depth: report.depth,
                time: report.elapsed,
                nodes: report.nodes,
            });
        }
        self.last_move = best;
        self.last_depth = report.depth;
        Control::Continue
    }
}

/// Searches `record` on `engine` within `limits` and judges the answer.
pub fn solve(engine: &mut Engine, record: &EpdRecord, limits: &Limits) -> Outcome {
    let position = record.position();
    let mut tracker = Tracker {
        record,
        found: None,
        last_move: None,
        last_depth: 0,
    };
    let result = engine.search_fresh(&position, limits, &mut tracker);
    let mate = mate_moves(result.score);
    let nodes = result.stats.total_nodes();
    let solved = result.best_move.map_or_else(
        || record.has_solution().then_some(false),
        |m| record.is_solved_by(&m, mate),
    );
    let found = match tracker.found {
        _ if solved != Some(true) => None,
        Some(found) if result.best_move == tracker.last_move => Some(found),
        // The final answer comes from an iteration cut short by the limit (the driver keeps
        // a move of it only when that move was searched completely and became best).
        _ => Some(Found {
            depth: tracker.last_depth + 1,
            time: result.elapsed,
            nodes,
        }),
    };
    Outcome {
        solved,
        best_move: result.best_move.map(|m| position.san(m)),
        score: result.score,
        mate,
        depth: result.depth,
        nodes,
        elapsed: result.elapsed,
        found,
        tb_hits: result.stats.tb_hits,
        tb_root: engine.root_in_tables,
    }
}
