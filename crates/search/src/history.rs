//! History heuristic (Schaeffer): quiet moves that caused cutoffs anywhere in the tree,
//! weighted by the depth of the cutoff, and the countermove table.
//!
//! Two kinds of update: Schaeffer's additive 2^d or d² credit (scores only grow, and the
//! table is halved when one gets large), and the gravity form of today's engines, in which
//! the cutoff move gains a bonus, the quiet moves tried before it lose as much, and every
//! update pulls the score toward ±`GRAVITY_LIMIT`: `v += b − v·|b| / LIMIT`. A score near
//! the limit moves little, so it stays a running average of recent outcomes.

use crate::config::{HistoryWeight, SearchConfig};
use crate::game::Game;

/// Additive scores stay below this; reaching it halves the whole table, so they never
/// overflow.
const HISTORY_LIMIT: i32 = 1 << 30;

/// Gravity scores stay within ±this.
pub const GRAVITY_LIMIT: i32 = 16_384;

/// The gravity bonus (and malus) for an outcome at remaining depth `depth`: grows as d²,
/// capped so a single deep cutoff cannot erase what the table knows.
#[inline]
pub fn gravity_bonus(depth: i32) -> i32 {
    let d = depth.clamp(0, 32);
    (16 * d * d + 32 * d + 16).min(1_600)
}

/// The main history's slot of a quiet move: `history_index` (piece and to-square), or
/// with `butterfly_history` the game's butterfly slot (side, from- and to-square).
#[inline]
pub fn main_history_index<G: Game>(
    config: &SearchConfig,
    game: &G,
    m: G::Move,
    history_index: usize,
) -> usize {
    if config.butterfly_history {
        game.butterfly_index(m)
    } else {
        history_index
    }
}

/// `v += b − v·|b| / limit`: the score moves toward the sign of `bonus` and never leaves
/// ±`limit` (for |bonus| ≤ limit).
#[inline]
pub fn apply_gravity(slot: &mut i32, bonus: i32, limit: i32) {
    let bonus = bonus.clamp(-limit, limit);
    *slot += bonus - *slot * bonus.abs() / limit;
}

/// Cutoff scores by move slot (`Game::history_index`).
pub struct History {
    scores: Vec<i32>,
}

impl History {
    /// Allocated once per searcher, never per node.
    pub fn new(size: usize) -> History {
        History {
            scores: vec![0; size],
        }
    }

    #[inline]
    pub fn score(&self, index: usize) -> i32 {
        self.scores[index]
    }

    /// Credits a cutoff at remaining depth `depth`.
    #[inline]
    pub fn reward(&mut self, index: usize, depth: i32, weight: HistoryWeight) {
        let depth = depth.clamp(0, 24);
        let bonus = match weight {
            HistoryWeight::PowerOfTwo => 1i32 << depth,
            HistoryWeight::Squared => depth * depth,
            HistoryWeight::Gravity => {
                apply_gravity(&mut self.scores[index], gravity_bonus(depth), GRAVITY_LIMIT);
                return;
            }
        };
        let slot = &mut self.scores[index];
        *slot = slot.saturating_add(bonus);
        if *slot >= HISTORY_LIMIT {
            self.age();
        }
    }

    /// Debits a quiet move that was tried before the move that cut off (gravity only: the
    /// additive weights never lower a score).
    #[inline]
    pub fn penalize(&mut self, index: usize, depth: i32) {
        apply_gravity(
            &mut self.scores[index],
            -gravity_bonus(depth),
            GRAVITY_LIMIT,
        );
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
    fn gravity_stays_within_its_limit() {
        let mut h = History::new(2);
        h.reward(0, 3, HistoryWeight::Gravity);
        // 16·9 + 32·3 + 16 = 256 from zero.
        assert_eq!(h.score(0), 256);
        h.penalize(0, 3);
        // 256 − 256 − 256·256/16384 = −4.
        assert_eq!(h.score(0), -4);
        for _ in 0..1_000 {
            h.reward(1, 20, HistoryWeight::Gravity);
            assert!(h.score(1) <= GRAVITY_LIMIT);
        }
        assert!(
            h.score(1) > GRAVITY_LIMIT * 9 / 10,
            "saturates near the limit"
        );
        for _ in 0..1_000 {
            h.penalize(1, 20);
            assert!(h.score(1) >= -GRAVITY_LIMIT);
        }
        assert!(h.score(1) < -GRAVITY_LIMIT * 9 / 10);
        assert_eq!(gravity_bonus(40), 1_600, "capped");
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
