//! Correction history: the static evaluation errs in the same direction across positions
//! that share a feature it judges badly (chess: the pawn structure). A table keyed by that
//! feature (`Game::correction_key`) keeps a running average of search value minus static
//! eval, and the eval the pruning decisions use is corrected by it. The idea appeared in
//! Caissa and Stockfish around 2023.

/// Entries (a power of two).
const ENTRIES: usize = 16_384;
/// Stored values are in 1/GRAIN centipawns, so small updates accumulate.
const GRAIN: i32 = 256;
/// The largest correction, in evaluation units.
pub const MAX_CORRECTION: i32 = 128;
/// Update weights are out of this.
const WEIGHT_SCALE: i32 = 256;

/// One table per searcher, allocated once.
pub struct CorrectionHistory {
    table: Vec<i32>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory {
            table: vec![0; ENTRIES],
        }
    }
}

impl CorrectionHistory {
    #[inline]
    fn slot(key: u64) -> usize {
        (key as usize) & (ENTRIES - 1)
    }

    /// The correction to add to the static eval of a position with this key.
    #[inline]
    pub fn correction(&self, key: u64) -> i32 {
        self.table[Self::slot(key)] / GRAIN
    }

    /// Learns that a search to `depth` found `search_value` where the eval said `eval`:
    /// deeper searches weigh more.
    #[inline]
    pub fn update(&mut self, key: u64, eval: i32, search_value: i32, depth: i32) {
        let error = (search_value - eval).clamp(-2 * MAX_CORRECTION, 2 * MAX_CORRECTION);
        let weight = (depth + 1).clamp(1, 16);
        let entry = &mut self.table[Self::slot(key)];
        let blended = (i64::from(*entry) * i64::from(WEIGHT_SCALE - weight)
            + i64::from(error * GRAIN) * i64::from(weight))
            / i64::from(WEIGHT_SCALE);
        *entry = (blended as i32).clamp(-MAX_CORRECTION * GRAIN, MAX_CORRECTION * GRAIN);
    }

    pub fn clear(&mut self) {
        self.table.fill(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learns_the_average_error_within_its_bound() {
        let mut c = CorrectionHistory::default();
        assert_eq!(c.correction(7), 0);
        // One update at depth 15 (weight 16/256): 80 · 16/256 = 5.
        c.update(7, 0, 80, 15);
        assert_eq!(c.correction(7), 5);
        for _ in 0..500 {
            c.update(7, 0, 80, 15);
        }
        assert_eq!(c.correction(7), 79, "converges toward the error");
        assert_eq!(c.correction(8), 0, "other keys untouched");
        for _ in 0..500 {
            c.update(9, 0, -10_000, 15);
        }
        assert_eq!(c.correction(9), -MAX_CORRECTION, "bounded");
        // Keys fold into the table.
        assert_eq!(c.correction(7 + ENTRIES as u64), c.correction(7));
        c.clear();
        assert_eq!(c.correction(7), 0);
    }
}
