//! History heuristic (Schaeffer): quiet moves that caused cutoffs anywhere in the tree,
//! weighted by the depth of the cutoff, and the countermove table.

use crate::config::HistoryWeight;

/// Scores stay below this; reaching it halves the whole table, so they never overflow.
const HISTORY_LIMIT: u32 = 1 << 30;

/// Cutoff counts by move slot (`Game::history_index`).
pub struct History {
    scores: Vec<u32>,
}

impl History {
    /// Allocated once per searcher, never per node.
    pub fn new(size: usize) -> History {
        History {
            scores: vec![0; size],
        }
    }

    #[inline]
    pub fn score(&self, index: usize) -> u32 {
        self.scores[index]
    }

    /// Credits a cutoff at remaining depth `depth`.
    #[inline]
    pub fn reward(&mut self, index: usize, depth: i32, weight: HistoryWeight) {
        let depth = depth.clamp(0, 24) as u32;
        let bonus = match weight {
            HistoryWeight::PowerOfTwo => 1u32 << depth,
            HistoryWeight::Squared => depth * depth,
        };
        let slot = &mut self.scores[index];
        *slot = slot.saturating_add(bonus);
        if *slot >= HISTORY_LIMIT {
            self.age();
        }
    }

    /// Halves every score: old knowledge fades (between searches, and on overflow).
    pub fn age(&mut self) {
        for s in &mut self.scores {
            *s /= 2;
        }
    }

    pub fn clear(&mut self) {
        self.scores.fill(0);
    }
}

/// The reply that refuted a move last time, by the refuted move's history slot.
pub struct CounterMoves {
    replies: Vec<u16>,
}

impl CounterMoves {
    pub fn new(size: usize) -> CounterMoves {
        CounterMoves {
            replies: vec![0; size],
        }
    }

    #[inline]
    pub fn get(&self, previous: Option<usize>) -> u16 {
        previous.map_or(0, |i| self.replies[i])
    }

    #[inline]
    pub fn record(&mut self, previous: Option<usize>, reply: u16) {
        if let Some(i) = previous {
            self.replies[i] = reply;
        }
    }

    pub fn clear(&mut self) {
        self.replies.fill(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_and_aging() {
        let mut h = History::new(8);
        h.reward(1, 5, HistoryWeight::PowerOfTwo);
        assert_eq!(h.score(1), 32);
        h.reward(2, 5, HistoryWeight::Squared);
        assert_eq!(h.score(2), 25);
        h.age();
        assert_eq!((h.score(1), h.score(2)), (16, 12));
    }

    #[test]
    fn never_overflows() {
        let mut h = History::new(2);
        for _ in 0..10_000 {
            h.reward(0, 24, HistoryWeight::PowerOfTwo);
            assert!(h.score(0) < HISTORY_LIMIT);
        }
        assert!(h.score(0) >= HISTORY_LIMIT / 4, "still large after halving");
    }

    #[test]
    fn countermoves_by_previous_move() {
        let mut c = CounterMoves::new(4);
        c.record(Some(3), 77);
        assert_eq!(c.get(Some(3)), 77);
        assert_eq!(c.get(None), 0);
        c.record(None, 5);
        assert_eq!(c.get(Some(2)), 0);
    }
}
