//! Lazy SMP move deferral, after Tom Kerrigan's "simplified ABDADA" (ABDADA itself:
//! Weill, 1996). Threads mark the (position, move) pairs they are searching in a small
//! shared table; a thread that meets a move another thread is searching (not the node's
//! first move) puts it off until the node's other moves are done, when the other thread's
//! result is likely in the transposition table. Threads then split a node's moves between
//! them instead of searching the same subtree side by side.
//!
//! Only nodes at least [`DEFER_MIN_DEPTH`] deep take part, so the shared table is written a
//! few thousand times a second, not at every node. Marks are direct-mapped and lossy: a
//! collision only loses or invents a deferral, never a move.

use std::sync::atomic::{AtomicU32, Ordering};

use crate::game::Game;
use crate::searcher::Searcher;

/// Remaining depth from which nodes mark and defer their moves.
pub const DEFER_MIN_DEPTH: i32 = 3;

/// Moves a node can put off; later busy moves are searched at once.
pub const MAX_DEFERRED: usize = 32;

const SLOTS: usize = 1 << 15;

/// The shared table of moves being searched.
pub struct BusyMoves {
    slots: Box<[AtomicU32]>,
    /// Tests: every move with an odd encoding reads as busy.
    #[cfg(test)]
    odd_moves_busy: bool,
}

impl Default for BusyMoves {
    fn default() -> Self {
        BusyMoves {
            slots: (0..SLOTS).map(|_| AtomicU32::new(0)).collect(),
            #[cfg(test)]
            odd_moves_busy: false,
        }
    }
}

/// Where a (position, move) pair is marked, and its tag (never 0, the empty mark).
#[inline]
fn slot_and_tag(key: u64, mv: u16) -> (usize, u32) {
    let h = key ^ u64::from(mv).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    ((h as usize) & (SLOTS - 1), (h >> 32) as u32 | 1)
}

impl BusyMoves {
    /// Whether some thread is searching `mv` from the position `key`.
    #[inline]
    pub fn is_busy(&self, key: u64, mv: u16) -> bool {
        #[cfg(test)]
        if self.odd_moves_busy {
            return mv % 2 == 1;
        }
        let (slot, tag) = slot_and_tag(key, mv);
        self.slots[slot].load(Ordering::Relaxed) == tag
    }

    /// Marks `mv` from `key` as being searched.
    #[inline]
    pub fn start(&self, key: u64, mv: u16) {
        let (slot, tag) = slot_and_tag(key, mv);
        self.slots[slot].store(tag, Ordering::Relaxed);
    }

    /// Removes the mark, unless another pair has taken the slot since.
    #[inline]
    pub fn finish(&self, key: u64, mv: u16) {
        let (slot, tag) = slot_and_tag(key, mv);
        let _ = self.slots[slot].compare_exchange(tag, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

impl<G: Game> Searcher<G> {
    /// Whether another thread is searching `mv` from the position `key` (false without a
    /// table of busy moves).
    #[inline]
    pub(crate) fn busy_elsewhere(&self, key: u64, mv: u16) -> bool {
        self.busy
            .as_deref()
            .is_some_and(|busy| busy.is_busy(key, mv))
    }

    /// Marks (`on`) or unmarks `mv` from `key` as searched by this thread.
    #[inline]
    pub(crate) fn mark_busy(&self, key: u64, mv: u16, on: bool) {
        if let Some(busy) = self.busy.as_deref() {
            if on {
                busy.start(key, mv);
            } else {
                busy.finish(key, mv);
            }
        }
    }
}

/// The moves one node has put off, searched after its other moves in the order deferred.
pub struct Deferred<M: Copy, C: Copy> {
    moves: [Option<(M, C)>; MAX_DEFERRED],
    len: usize,
    next: usize,
}

impl<M: Copy, C: Copy> Default for Deferred<M, C> {
    fn default() -> Self {
        Deferred {
            moves: [None; MAX_DEFERRED],
            len: 0,
            next: 0,
        }
    }
}

impl<M: Copy, C: Copy> Deferred<M, C> {
    /// Puts a move off; false when the list is full (then it is searched now).
    #[inline]
    pub fn push(&mut self, mv: M, class: C) -> bool {
        if self.len == MAX_DEFERRED {
            return false;
        }
        self.moves[self.len] = Some((mv, class));
        self.len += 1;
        true
    }

    /// The next move put off, once.
    #[inline]
    pub fn pop(&mut self) -> Option<(M, C)> {
        if self.next == self.len {
            return None;
        }
        self.next += 1;
        self.moves[self.next - 1]
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::random_tree::{RandomTree, TreeConfig, negamax};
    use crate::{Limits, SearchConfig, Searcher, Silent};

    #[test]
    fn deferring_moves_keeps_the_negamax_value() {
        let config = SearchConfig {
            tt: true,
            tt_move: true,
            history: true,
            killers: true,
            ..SearchConfig::exact_bare()
        };
        let mut trees_differ = false;
        for seed in 1..=4 {
            for depth in [4u32, 5, 6] {
                let tree = || {
                    RandomTree::new(TreeConfig {
                        seed,
                        depth: depth as usize + 2,
                        ..TreeConfig::default()
                    })
                };
                let expected = negamax(&mut tree(), depth);
                let mut plain = Searcher::<RandomTree>::standalone(config.clone(), 4);
                let mut deferring = Searcher::<RandomTree>::standalone(config.clone(), 4);
                deferring.busy = Some(Arc::new(BusyMoves {
                    odd_moves_busy: true,
                    ..BusyMoves::default()
                }));
                let limits = Limits::depth(depth);
                let a = plain.search(&mut tree(), &limits, &mut Silent);
                let b = deferring.search(&mut tree(), &limits, &mut Silent);
                assert_eq!(
                    (a.score, b.score),
                    (expected, expected),
                    "seed {seed} depth {depth}"
                );
                assert_eq!(a.stats.smp_deferred, 0);
                assert!(b.stats.smp_deferred > 0, "seed {seed} depth {depth}");
                // Deferred moves come last: another order, another tree.
                trees_differ |= a.stats.nodes != b.stats.nodes;
            }
        }
        assert!(trees_differ, "deferral never changed the tree searched");
    }

    #[test]
    fn a_mark_is_seen_until_finished_and_only_for_its_pair() {
        let busy = BusyMoves::default();
        let key = 0x0123_4567_89AB_CDEF;
        assert!(!busy.is_busy(key, 77));
        busy.start(key, 77);
        assert!(busy.is_busy(key, 77));
        assert!(!busy.is_busy(key, 78));
        assert!(!busy.is_busy(key ^ 1 << 40, 77));
        busy.finish(key, 77);
        assert!(!busy.is_busy(key, 77));
    }

    #[test]
    fn finishing_does_not_erase_a_newer_mark_in_the_same_slot() {
        let busy = BusyMoves::default();
        let key = 0x0123_4567_89AB_CDEF;
        // Same low bits (slot), different high bits (tag).
        let other = key ^ 1 << 50;
        assert_eq!(slot_and_tag(key, 5).0, slot_and_tag(other, 5).0);
        assert_ne!(slot_and_tag(key, 5).1, slot_and_tag(other, 5).1);
        busy.start(key, 5);
        busy.start(other, 5);
        busy.finish(key, 5);
        assert!(busy.is_busy(other, 5));
    }

    #[test]
    fn deferred_moves_come_back_once_in_order_and_the_list_is_bounded() {
        let mut deferred = Deferred::<u16, u8>::default();
        for m in 0..MAX_DEFERRED as u16 {
            assert!(deferred.push(m, 1));
        }
        assert!(!deferred.push(999, 1));
        let back: Vec<u16> = std::iter::from_fn(|| deferred.pop())
            .map(|(m, _)| m)
            .collect();
        assert_eq!(back, (0..MAX_DEFERRED as u16).collect::<Vec<_>>());
        assert_eq!(deferred.pop(), None);
    }
}
