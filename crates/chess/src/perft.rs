//! Perft: counts the leaf nodes of the legal move tree, the standard move-generator test.

use shakmaty::{Chess, Move, MoveList, Position as _};

use crate::Position;

/// Counts leaves at `depth`, walking every node with Horizon's make/unmake and key updates
/// (no bulk counting at the last ply, so it measures the search's own machinery).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.moves();
    let mut nodes = 0;
    for &m in &moves {
        pos.play(m);
        nodes += perft(pos, depth - 1);
        pos.undo();
    }
    nodes
}

/// Perft split by root move: (move, leaves below it), in generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&m| {
            pos.play(m);
            let nodes = perft(pos, depth.saturating_sub(1));
            pos.undo();
            (m, nodes)
        })
        .collect()
}

/// The reference walk for speed comparisons: plain shakmaty, clone and `play_unchecked`,
/// no keys, no history.
pub fn perft_plain(chess: &Chess, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = chess.legal_moves();
    let mut nodes = 0;
    for &m in &moves {
        let mut child = chess.clone();
        child.play_unchecked(m);
        nodes += perft_plain(&child, depth - 1);
    }
    nodes
}
