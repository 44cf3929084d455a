//! Continuation histories: how good a quiet move has been as an answer to the move played one
//! ply before (the opponent's last move) and two plies before (our own previous move).
//!
//! Each table is indexed by (earlier move's slot, this move's slot), where a slot is the
//! game's `history_index` (chess: piece and target square) folded to
//! `Game::CONTINUATION_SIZE`. Updates use gravity, like `HistoryWeight::Gravity`. The idea is
//! the counter-move history of Stockfish (2016), generalised in later engines to more plies.

use crate::history::{GRAVITY_LIMIT, apply_gravity};

/// No move at that ply (the root's past, or a null move).
pub const NO_SLOT: u32 = u32::MAX;

/// How many earlier plies the tables look back.
pub const CONTINUATION_PLIES: usize = 2;

/// The tables for 1 and 2 plies back, allocated once per searcher.
pub struct ContinuationHistory {
    size: usize,
    tables: [Vec<i16>; CONTINUATION_PLIES],
}

/// The earlier moves' rows for one node, found once and used for every move there.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ContinuationKeys {
    /// Row offsets into the tables (`NO_SLOT`: no earlier move at that distance).
    rows: [u32; CONTINUATION_PLIES],
}

impl ContinuationKeys {
    pub const NONE: ContinuationKeys = ContinuationKeys {
        rows: [NO_SLOT; CONTINUATION_PLIES],
    };
}

impl ContinuationHistory {
    /// `size` slots per move (the tables hold size² entries each).
    pub fn new(size: usize) -> ContinuationHistory {
        let size = size.max(1);
        ContinuationHistory {
            size,
            tables: std::array::from_fn(|_| vec![0; size * size]),
        }
    }

    /// The rows for the moves played 1 and 2 plies before (history slots or `NO_SLOT`).
    #[inline]
    pub fn keys(&self, earlier: [u32; CONTINUATION_PLIES]) -> ContinuationKeys {
        ContinuationKeys {
            rows: earlier.map(|slot| {
                if slot == NO_SLOT {
                    NO_SLOT
                } else {
                    ((slot as usize % self.size) * self.size) as u32
                }
            }),
        }
    }

    /// The sum of both tables' scores for a move with history slot `index`.
    #[inline]
    pub fn score(&self, keys: &ContinuationKeys, index: usize) -> i32 {
        let column = index % self.size;
        let mut sum = 0;
        for (table, &row) in self.tables.iter().zip(&keys.rows) {
            if row != NO_SLOT {
                sum += i32::from(table[row as usize + column]);
            }
        }
        sum
    }

    /// Adds `bonus` (negative: a malus) with gravity to both tables' entries of the move.
    #[inline]
    pub fn update(&mut self, keys: &ContinuationKeys, index: usize, bonus: i32) {
        let column = index % self.size;
        for (table, &row) in self.tables.iter_mut().zip(&keys.rows) {
            if row != NO_SLOT {
                let slot = &mut table[row as usize + column];
                let mut value = i32::from(*slot);
                apply_gravity(&mut value, bonus, GRAVITY_LIMIT);
                *slot = value as i16;
            }
        }
    }

    /// Halves every score (between searches, with history aging).
    pub fn age(&mut self) {
        for table in &mut self.tables {
            for s in table.iter_mut() {
                *s /= 2;
            }
        }
    }

    pub fn clear(&mut self) {
        for table in &mut self.tables {
            table.fill(0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_follow_the_earlier_moves() {
        let mut c = ContinuationHistory::new(8);
        let after_3_then_5 = c.keys([3, 5]);
        c.update(&after_3_then_5, 2, 1_000);
        // 1,000 in each table.
        assert_eq!(c.score(&after_3_then_5, 2), 2_000);
        // Same previous move, another move two plies back: only the first table matches.
        assert_eq!(c.score(&c.keys([3, 6]), 2), 1_000);
        assert_eq!(c.score(&c.keys([NO_SLOT, 5]), 2), 1_000);
        assert_eq!(c.score(&ContinuationKeys::NONE, 2), 0);
        assert_eq!(c.score(&after_3_then_5, 1), 0);
        // Slots fold into the table size.
        assert_eq!(c.score(&c.keys([11, 13]), 10), 2_000);
        c.update(&after_3_then_5, 2, -1_000);
        // 1000 − 1000 − 1000·1000/16384 = −61 in each table.
        assert_eq!(c.score(&after_3_then_5, 2), -122);
        for _ in 0..1_000 {
            c.update(&after_3_then_5, 2, 1_600);
        }
        assert!(c.score(&after_3_then_5, 2) <= 2 * GRAVITY_LIMIT);
        c.age();
        assert!(c.score(&after_3_then_5, 2) <= GRAVITY_LIMIT);
        c.clear();
        assert_eq!(c.score(&after_3_then_5, 2), 0);
    }
}
