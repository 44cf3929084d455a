//! Whether one given move is legal, from bitboards: the test a table move passes before it
//! is played (`PackedMove::to_legal_move`). shakmaty's `is_legal` builds the list of every
//! legal move to the destination square and searches it (about 600 instructions a call); a
//! plain move needs its piece's reach and one attack test on the king's square.

use shakmaty::{Bitboard, Chess, Move, Piece, Position as _, Role, attacks};

/// The answer of `chess.is_legal(m)` for every move, computed directly for plain moves and
/// promotions; castling and en passant (rare in a table) ask shakmaty.
#[inline]
pub fn is_legal(chess: &Chess, m: Move) -> bool {
    let Move::Normal {
        role,
        from,
        capture,
        to,
        promotion,
    } = m
    else {
        return chess.is_legal(m);
    };
    let board = chess.board();
    let us = chess.turn();
    if board.piece_at(from) != Some(Piece { color: us, role })
        || board.role_at(to) != capture
        || chess.us().contains(to)
        || capture == Some(Role::King)
    {
        return false;
    }
    let occupied = board.occupied();
    let reaches = if role == Role::Pawn {
        let last_rank = to.rank() == (!us).backrank();
        if last_rank != promotion.is_some() || matches!(promotion, Some(Role::Pawn | Role::King)) {
            return false;
        }
        if capture.is_some() {
            attacks::pawn_attacks(us, from).contains(to)
        } else {
            let forward = us.fold_wb(8, -8);
            let single = from.offset(forward);
            single == Some(to)
                || (from.rank() == us.relative_rank(shakmaty::Rank::Second)
                    && single.is_some_and(|mid| !occupied.contains(mid))
                    && from.offset(2 * forward) == Some(to))
        }
    } else {
        promotion.is_none()
            && attacks::attacks(from, Piece { color: us, role }, occupied).contains(to)
    };
    // (`capture` matched the board above, so a push without one goes to an empty square.)
    if !reaches {
        return false;
    }
    let Some(king) = board.king_of(us) else {
        return chess.is_legal(m);
    };
    let moved = Bitboard::from(from);
    let target = Bitboard::from(to);
    if role == Role::King {
        board.attacks_to(to, !us, occupied ^ moved).is_empty()
    } else {
        // The king stays: after the move, no piece of theirs but the captured one reaches it.
        let after = (occupied ^ moved) | target;
        (board.attacks_to(king, !us, after) & !target).is_empty()
    }
}
