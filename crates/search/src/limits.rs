//! What bounds a search, and the shared control the front-end stops it with.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

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
#[derive(Debug, Default)]
pub struct SearchControl {
    stop: AtomicBool,
    /// Set by the main thread when it is done, to stop Lazy SMP helpers.
    helpers_stop: AtomicBool,
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

    /// Clears the stop flags before a search.
    pub fn reset(&self) {
        self.stop.store(false, Ordering::Relaxed);
        self.helpers_stop.store(false, Ordering::Relaxed);
    }
}
