//! What bounds a search, and the shared control the front-end stops it with.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Search limits. Several may be set; the first one reached stops the search.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Node budget (main and quiescence nodes), obeyed exactly with one thread.
    pub nodes: Option<u64>,
    /// Stop once an iteration ends after this long (no new iteration starts).
    pub soft_time: Option<Duration>,
    /// Abort the search at this time, mid-iteration if need be.
    pub hard_time: Option<Duration>,
    /// Stop when a mate in at most this many moves is found.
    pub mate: Option<u32>,
    /// Search the root moves with these encodings only (empty: all).
    pub search_moves: Vec<u16>,
    /// Pre-searching's `--min-nodes`: search at least this many nodes, then finish the
    /// iteration under way.
    pub min_nodes: Option<u64>,
}

impl Limits {
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// A fixed time per move: the search aborts when it is over.
    pub fn movetime(time: Duration) -> Limits {
        Limits {
            hard_time: Some(time),
            soft_time: Some(time),
            ..Limits::default()
        }
    }
}

/// Shared by the front-end and every search thread.
#[derive(Debug)]
pub struct SearchControl {
    stop: AtomicBool,
    /// Set by the main thread when it is done, to stop Lazy SMP helpers.
    helpers_stop: AtomicBool,
    /// The main thread's deepest completed iteration in the search under way (Lazy SMP
    /// helpers with `smp_helper_sync` read it).
    main_depth: AtomicU32,
    /// A deadline the front-end may set or move during the search (pondering turns into
    /// a timed search at `ponderhit`), in microseconds since `epoch` (milliseconds would stop
    /// a `go movetime` up to 1 ms early); `u64::MAX`: none.
    deadline_us: AtomicU64,
    epoch: Instant,
    /// Nodes the Lazy SMP helpers have searched in the search under way, published every
    /// `CHECK_INTERVAL` nodes (not per node), so that the main thread's `info` lines count
    /// every thread's nodes, as UCI asks.
    helper_nodes: AtomicU64,
}

impl Default for SearchControl {
    fn default() -> Self {
        SearchControl {
            stop: AtomicBool::new(false),
            helpers_stop: AtomicBool::new(false),
            main_depth: AtomicU32::new(0),
            deadline_us: AtomicU64::new(u64::MAX),
            epoch: Instant::now(),
            helper_nodes: AtomicU64::new(0),
        }
    }
}

impl SearchControl {
    /// Asks every thread to stop as soon as possible (within a few milliseconds).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    pub(crate) fn stop_helpers(&self, on: bool) {
        self.helpers_stop.store(on, Ordering::Relaxed);
    }

    pub(crate) fn helpers_stopped(&self) -> bool {
        self.helpers_stop.load(Ordering::Relaxed)
    }

    /// Records the main thread's completed iteration (0 at the start of a search).
    pub(crate) fn set_main_depth(&self, depth: u32) {
        self.main_depth.store(depth, Ordering::Relaxed);
    }

    pub(crate) fn main_depth(&self) -> u32 {
        self.main_depth.load(Ordering::Relaxed)
    }

    /// Zero at the start of each search.
    pub(crate) fn clear_helper_nodes(&self) {
        self.helper_nodes.store(0, Ordering::Relaxed);
    }

    pub(crate) fn add_helper_nodes(&self, nodes: u64) {
        self.helper_nodes.fetch_add(nodes, Ordering::Relaxed);
    }

    /// The helpers' nodes published so far in this search.
    pub(crate) fn helper_nodes(&self) -> u64 {
        self.helper_nodes.load(Ordering::Relaxed)
    }

    /// Clears the stop flags and the deadline before a search.
    pub fn reset(&self) {
        self.stop.store(false, Ordering::Relaxed);
        self.helpers_stop.store(false, Ordering::Relaxed);
        self.deadline_us.store(u64::MAX, Ordering::Relaxed);
    }

    /// Sets (or moves) the time at which the main search thread aborts.
    pub fn set_deadline(&self, deadline: Option<Instant>) {
        let us = deadline.map_or(u64::MAX, |d| {
            // Rounded up: the search never stops before the deadline.
            let since = d.saturating_duration_since(self.epoch);
            let us = since.as_micros() + u128::from(since.subsec_nanos() % 1000 != 0);
            us.min(u128::from(u64::MAX - 1)) as u64
        });
        self.deadline_us.store(us, Ordering::Relaxed);
    }

    /// Whether the front-end's deadline has passed.
    pub fn deadline_passed(&self, now: Instant) -> bool {
        let us = self.deadline_us.load(Ordering::Relaxed);
        us != u64::MAX && now.saturating_duration_since(self.epoch).as_micros() >= u128::from(us)
    }
}
