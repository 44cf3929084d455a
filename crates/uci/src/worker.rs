//! The search worker: runs iterative deepening on its own thread, prints `info` lines as
//! iterations finish, and `bestmove` when done. In `go infinite` and `go ponder` the
//! `bestmove` waits for `stop` or `ponderhit`, which arrive through a crossbeam channel.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};
use horizon_chess::search::search_threads;
use horizon_chess::{CastlingMode, Move, PackedMove, Position};
use horizon_search::threads::SEARCH_STACK_BYTES;
use horizon_search::{
    Control, Iteration, Limits, Line, Observer, SearchControl, SearchResult, Searcher,
};
use shakmaty::uci::UciMove;

use crate::output::{Output, currmove_line, info_line};
use crate::strength::StrengthLimit;
use crate::time::{Finished, TimeManager, TimePlan};
use horizon_chess::wdl::{WdlModel, material};

/// Messages to a running search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Signal {
    Stop,
    PonderHit,
}

/// The search threads' state, kept between searches (ordering tables, table handle).
pub struct Searchers {
    pub main: Searcher<Position>,
    pub helpers: Vec<Searcher<Position>>,
}

/// Shared between the protocol loop and a pondering search.
#[derive(Default)]
pub struct PonderState {
    pondering: AtomicBool,
    /// When `ponderhit` arrived, in ms after the search started (`u64::MAX`: not yet).
    hit_ms: AtomicU64,
}

impl PonderState {
    pub fn new(pondering: bool) -> PonderState {
        PonderState {
            pondering: AtomicBool::new(pondering),
            hit_ms: AtomicU64::new(u64::MAX),
        }
    }

    /// `ponderhit`: the search now plays for real, on the clock from `now`.
    pub fn hit(&self, since_start: Duration) {
        self.hit_ms
            .store(since_start.as_millis() as u64, Ordering::Relaxed);
        self.pondering.store(false, Ordering::Relaxed);
    }

    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }
}

/// What one `go` asks for.
pub struct Job {
    /// Set just before `bestmove` is printed: the thread is about to hand its state back.
    pub finished: Arc<AtomicBool>,
    pub position: Position,
    pub limits: Limits,
    pub plan: Option<TimePlan>,
    pub infinite: bool,
    pub ponder: Arc<PonderState>,
    pub control: Arc<SearchControl>,
    pub signals: Receiver<Signal>,
    pub out: Output,
    pub start: Instant,
    /// `UCI_ShowWDL`.
    pub show_wdl: bool,
    /// `UCI_LimitStrength` with its `UCI_Elo`: the move is chosen among the lines.
    pub strength: Option<StrengthLimit>,
    /// `TimeNodeShare` (see `time.rs`).
    pub node_share: bool,
    /// Never sent on: dropped with the job when the thread ends, which wakes whoever waits
    /// on its receiver (the protocol loop, holding a command for after this search).
    pub done: Sender<()>,
}

/// Prints iterations and decides, with the time manager, when to stop.
struct UciObserver {
    out: Output,
    mode: CastlingMode,
    time: Option<TimeManager>,
    infinite: bool,
    ponder: Arc<PonderState>,
    start: Instant,
    /// The last `multipv 1` line printed: what a GUI shows as the engine's choice.
    last_printed: Option<Line<Move>>,
    /// The nodes that line reported (every thread's, as far as the helpers had published).
    last_nodes: u64,
    /// Test hook: panic when the iteration of this depth ends ([`PANIC_HOOK_VARIABLE`]).
    panic_at_depth: Option<u32>,
    /// The root's material when `UCI_ShowWDL` is on (the model's second input).
    wdl_material: Option<u32>,
}

impl UciObserver {
    fn uci(&self, m: Move) -> String {
        UciMove::from_move(m, self.mode).to_string()
    }

    fn wdl(&self, score: i32) -> Option<[u32; 3]> {
        self.wdl_material
            .map(|material| WdlModel::FITTED.per_mille(score, material))
    }
}

impl Observer<Move> for UciObserver {
    fn iteration(&mut self, report: &Iteration<'_, Move>) -> Control {
        if self.panic_at_depth == Some(report.depth) {
            panic!(
                "injected by {PANIC_HOOK_VARIABLE} at depth {}",
                report.depth
            );
        }
        let pv: Vec<String> = report.line.moves.iter().map(|&m| self.uci(m)).collect();
        self.out
            .line(&info_line(report, &pv, self.wdl(report.line.score)));
        if report.multipv == 1 {
            self.last_printed = Some(report.line.clone());
            self.last_nodes = report.nodes;
        }
        // Time decisions are taken once per iteration, on the first line.
        if self.infinite || report.multipv != 1 {
            return Control::Continue;
        }
        let Some(time) = self.time.as_mut() else {
            return Control::Continue;
        };
        if self.ponder.is_pondering() {
            return Control::Continue;
        }
        // After a ponderhit the clock runs from the hit.
        let hit = self.ponder.hit_ms.load(Ordering::Relaxed);
        let elapsed = if hit == u64::MAX {
            self.start.elapsed()
        } else {
            self.start
                .elapsed()
                .saturating_sub(Duration::from_millis(hit))
        };
        let best = pv.first().cloned().unwrap_or_default();
        let done = Finished {
            depth: report.depth,
            best: &best,
            score: report.line.score,
            best_move_nodes: report.best_move_nodes,
            root_nodes: report.root_nodes,
        };
        if time.stop_after_iteration(elapsed, &done) {
            Control::Stop
        } else {
            Control::Continue
        }
    }

    fn root_move(&mut self, depth: u32, m: Move, number: usize, elapsed: Duration) {
        let uci = self.uci(m);
        self.out.line(&currmove_line(depth, &uci, number, elapsed));
    }
}

impl UciObserver {
    /// The move played must be the first of the last printed PV, and the ponder move its
    /// second: when the search's final line is not the one printed last (an iteration cut
    /// short whose new best move was kept, a stop before any iteration ended), print it.
    fn print_final_line(&self, result: &SearchResult<Move>, hashfull: u32) {
        let Some(line) = result.lines.first() else {
            return;
        };
        // Printed again when only the count moved (a cut-short iteration, the helpers'
        // unpublished nodes): the GUI's last `info nodes` is then the search's total.
        if self.last_printed.as_ref() == Some(line) && self.last_nodes == result.stats.total_nodes()
        {
            return;
        }
        let pv: Vec<String> = line.moves.iter().map(|&m| self.uci(m)).collect();
        let report = Iteration {
            depth: result.line_depth.max(1),
            seldepth: result.stats.seldepth,
            multipv: 1,
            line,
            nodes: result.stats.total_nodes(),
            tb_hits: result.stats.tb_hits,
            elapsed: self.start.elapsed(),
            hashfull,
            best_move_changed: false,
            best_move_nodes: 0,
            root_nodes: 0,
        };
        self.out
            .line(&info_line(&report, &pv, self.wdl(line.score)));
    }
}

/// The moves the search chooses from: the legal moves, or those of `searchmoves`.
fn root_move_count(position: &Position, limits: &Limits) -> usize {
    let moves = position.moves();
    if limits.search_moves.is_empty() {
        moves.len()
    } else {
        moves
            .iter()
            .filter(|&&m| limits.search_moves.contains(&PackedMove::new(m).0))
            .count()
    }
}

/// The environment variable that makes the first search of the process panic when its
/// iteration of this depth ends: the test hook for failure isolation.
pub const PANIC_HOOK_VARIABLE: &str = "HORIZON_TEST_PANIC_AT_DEPTH";

/// The depth at which the first search panics, when the test hook asks for it.
fn injected_panic_depth() -> Option<u32> {
    static FIRED: AtomicBool = AtomicBool::new(false);
    let depth = std::env::var(PANIC_HOOK_VARIABLE).ok()?.parse().ok()?;
    (!FIRED.swap(true, Ordering::Relaxed)).then_some(depth)
}

/// Starts a search thread; it hands the searchers and the job's position back when
/// `bestmove` has been printed (the engine searches the next `go` in that position).
///
/// A panic inside the search (any thread) does not leave the GUI waiting: the thread still
/// prints a legal `bestmove` (the last PV's first move, or any legal move), reports the
/// panic in an `info string` (the panic message itself goes to stderr), and then ends with
/// the panic, so the engine rebuilds its search state (`Engine::join`).
pub fn spawn(
    mut searchers: Searchers,
    mut job: Job,
) -> std::io::Result<JoinHandle<(Searchers, Position)>> {
    std::thread::Builder::new()
        .name("horizon-search".into())
        .stack_size(SEARCH_STACK_BYTES)
        .spawn(move || {
            // Held to the end of the thread (closures capture only the fields they use).
            let _done = job.done;
            let mode = job.position.castling_mode();
            let root_moves = root_move_count(&job.position, &job.limits);
            let mut observer = UciObserver {
                out: job.out.clone(),
                mode,
                time: job
                    .plan
                    .map(|plan| TimeManager::new(plan, root_moves, job.node_share)),
                infinite: job.infinite,
                ponder: job.ponder.clone(),
                start: job.start,
                last_printed: None,
                last_nodes: 0,
                panic_at_depth: injected_panic_depth(),
                wdl_material: job.show_wdl.then(|| material(job.position.chess())),
            };
            let root_ply = job.position.ply();
            let searched = std::panic::catch_unwind(AssertUnwindSafe(|| {
                let Searchers { main, helpers } = &mut searchers;
                let result =
                    search_threads(main, helpers, &mut job.position, &job.limits, &mut observer);
                observer.print_final_line(&result, main.table().hashfull());
                result
            }));
            let (best, ponder) = match &searched {
                Ok(result) => match job
                    .strength
                    .and_then(|limit| limit.choose(&result.lines, rand::random::<f64>()))
                    .filter(|line| !line.moves.is_empty())
                {
                    Some(line) => (line.moves.first().copied(), line.moves.get(1).copied()),
                    None => (result.best_move, result.ponder_move),
                },
                Err(payload) => {
                    // The main thread searched the job's position itself: a panic deep in
                    // the tree left its moves on the stack.
                    while job.position.ply() > root_ply {
                        job.position.undo();
                    }
                    job.control.stop();
                    job.out.info_string(&format!(
                        "error: the search failed ({}); playing the best move found so far",
                        panic_text(payload.as_ref())
                    ));
                    let last_pv = observer
                        .last_printed
                        .as_ref()
                        .and_then(|line| line.moves.first().copied());
                    (
                        last_pv.or_else(|| any_root_move(&job.position, &job.limits)),
                        None,
                    )
                }
            };
            // The spec: in infinite and ponder mode, bestmove only after stop or ponderhit.
            if (job.infinite || job.ponder.is_pondering()) && !job.control.is_stopped() {
                let _ = job.signals.recv();
            }
            let line = match best {
                None => "bestmove (none)".to_owned(),
                Some(best) => {
                    let best_text = UciMove::from_move(best, mode).to_string();
                    match ponder {
                        Some(p) => format!(
                            "bestmove {best_text} ponder {}",
                            UciMove::from_move(p, mode)
                        ),
                        None => format!("bestmove {best_text}"),
                    }
                }
            };
            job.finished.store(true, Ordering::Release);
            job.out.line(&line);
            match searched {
                Ok(_) => (searchers, job.position),
                Err(payload) => std::panic::resume_unwind(payload),
            }
        })
}

/// A legal root move (of `searchmoves` when given): the move of last resort.
fn any_root_move(position: &Position, limits: &Limits) -> Option<Move> {
    let moves = position.moves();
    moves
        .iter()
        .find(|&&m| {
            limits.search_moves.is_empty() || limits.search_moves.contains(&PackedMove::new(m).0)
        })
        .or_else(|| moves.first())
        .copied()
}

/// The message a panic carried.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".to_owned())
}
