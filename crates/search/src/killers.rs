//! Killer heuristic: quiet moves that caused a cutoff at the same ply elsewhere in the tree.
//!
//! Two slots per ply. Update rule (as in the course notes): a new killer enters slot 0 and
//! the old slot 0 moves to slot 1, unless the move is already slot 0.

use crate::score::MAX_PLY;

/// Killer moves by ply, stored in their 16-bit encoding.
pub struct Killers {
    slots: [[u16; 2]; MAX_PLY + 2],
}

impl Default for Killers {
    fn default() -> Self {
        Killers {
            slots: [[0; 2]; MAX_PLY + 2],
        }
    }
}

impl Killers {
    #[inline]
    pub fn get(&self, ply: usize) -> [u16; 2] {
        self.slots[ply]
    }

    #[inline]
    pub fn is_killer(&self, ply: usize, packed: u16) -> bool {
        let [a, b] = self.slots[ply];
        packed != 0 && (packed == a || packed == b)
    }

    #[inline]
    pub fn record(&mut self, ply: usize, packed: u16) {
        let slot = &mut self.slots[ply];
        if slot[0] != packed {
            slot[1] = slot[0];
            slot[0] = packed;
        }
    }

    /// A node clears its grandchildren's killers: those of other subtrees are stale.
    #[inline]
    pub fn clear_ply(&mut self, ply: usize) {
        self.slots[ply] = [0; 2];
    }

    pub fn clear(&mut self) {
        *self = Killers::default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_killers_push_the_old_one_down() {
        let mut k = Killers::default();
        k.record(3, 10);
        k.record(3, 20);
        assert_eq!(k.get(3), [20, 10]);
        k.record(3, 20);
        assert_eq!(k.get(3), [20, 10], "repeating slot 0 does not erase slot 1");
        k.record(3, 30);
        assert_eq!(k.get(3), [30, 20]);
        assert!(k.is_killer(3, 20) && !k.is_killer(3, 10) && !k.is_killer(4, 30));
        assert!(!k.is_killer(5, 0), "the empty move is never a killer");
    }
}
