//! The principal variation (triangular PV table) and the refutation table: the previous
//! iteration's principal variation, tried first along the path that follows it.

use crate::score::MAX_PLY;

/// Triangular PV table: `lines[ply]` is the best line found from `ply` downwards.
pub struct PvTable {
    lines: Vec<[u16; MAX_PLY + 1]>,
    lengths: [usize; MAX_PLY + 1],
}

impl Default for PvTable {
    fn default() -> Self {
        PvTable {
            lines: vec![[0; MAX_PLY + 1]; MAX_PLY + 1],
            lengths: [0; MAX_PLY + 1],
        }
    }
}

impl PvTable {
    #[inline]
    pub fn clear(&mut self, ply: usize) {
        self.lengths[ply] = ply;
    }

    /// `m` is the best move at `ply`: the line becomes `m` followed by the child's line.
    #[inline]
    pub fn update(&mut self, ply: usize, m: u16) {
        let child_len = if ply < MAX_PLY {
            self.lengths[ply + 1].max(ply + 1)
        } else {
            ply + 1
        };
        let (head, tail) = self.lines.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line[ply] = m;
        if ply < MAX_PLY {
            let child = &tail[0];
            line[ply + 1..child_len].copy_from_slice(&child[ply + 1..child_len]);
        }
        self.lengths[ply] = child_len.min(MAX_PLY);
    }

    /// The line from the root (encoded moves).
    pub fn root_line(&self) -> &[u16] {
        self.line_from(0)
    }

    /// The best line found from `ply` downwards.
    pub fn line_from(&self, ply: usize) -> &[u16] {
        &self.lines[ply][ply..self.lengths[ply].max(ply)]
    }
}

/// The previous iteration's principal variation.
#[derive(Default)]
pub struct RefutationTable {
    line: Vec<u16>,
}

impl RefutationTable {
    pub fn set(&mut self, line: &[u16]) {
        self.line.clear();
        self.line.extend_from_slice(line);
    }

    /// The move to try first at `ply` when the path so far follows the stored line.
    #[inline]
    pub fn move_at(&self, ply: usize) -> u16 {
        self.line.get(ply).copied().unwrap_or(0)
    }

    pub fn clear(&mut self) {
        self.line.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_grow_from_the_leaves() {
        let mut pv = PvTable::default();
        for ply in 0..4 {
            pv.clear(ply);
        }
        pv.update(2, 30);
        pv.update(1, 20);
        pv.update(0, 10);
        assert_eq!(pv.root_line(), &[10, 20, 30]);
        pv.clear(1);
        pv.clear(2);
        pv.update(1, 21);
        pv.update(0, 11);
        assert_eq!(
            pv.root_line(),
            &[11, 21],
            "a cleared child line is not reused"
        );
    }
}
