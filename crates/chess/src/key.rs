//! Incremental Zobrist keys.
//!
//! The key tables are shakmaty's (`ZobristValue`), so a key computed here always equals
//! `Chess::zobrist_hash(EnPassantMode::Legal)`: the en passant file is hashed only when an
//! en passant capture is really legal, which is what the repetition rule asks for.
//! shakmaty's own `update_zobrist_hash` declines (returns `None`) on king moves, castling,
//! double pawn pushes and whenever an en passant square is set; the update below covers every
//! move, so a full recompute happens only when a position is set up.

use shakmaty::zobrist::ZobristValue;
use shakmaty::{CastlingSide, Chess, Color, File, Move, Position, Role, Square};

/// XORs the difference between `before` and `after` (the position after playing `m`) into
/// `key`. `ep_before`/`ep_after` are the en passant files hashed into each position's key.
#[inline]
pub(crate) fn update<V: ZobristValue>(
    mut key: V,
    before: &Chess,
    m: Move,
    after: &Chess,
    ep_before: Option<File>,
    ep_after: Option<File>,
) -> V {
    // The side to move, the old en passant file and a normal move's pieces: `predict`.
    key = predict(key, before, m, ep_before);
    let us = before.turn();
    if let Some(file) = ep_after {
        key ^= V::zobrist_for_en_passant_file(file);
    }
    match m {
        Move::Normal { .. } | Move::Put { .. } => {}
        Move::EnPassant { from, to } => {
            key ^= V::zobrist_for_piece(from, Role::Pawn.of(us));
            key ^= V::zobrist_for_piece(to, Role::Pawn.of(us));
            let captured = Square::from_coords(to.file(), from.rank());
            key ^= V::zobrist_for_piece(captured, Role::Pawn.of(!us));
        }
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(king < rook);
            key ^= V::zobrist_for_piece(king, Role::King.of(us));
            key ^= V::zobrist_for_piece(rook, Role::Rook.of(us));
            key ^= V::zobrist_for_piece(side.king_to(us), Role::King.of(us));
            key ^= V::zobrist_for_piece(side.rook_to(us), Role::Rook.of(us));
        }
    }
    let (old, new) = (before.castles(), after.castles());
    if old.castling_rights() != new.castling_rights() {
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if old.has(color, side) != new.has(color, side) {
                    key ^= V::zobrist_for_castling_right(color, side);
                }
            }
        }
    }
    key
}

/// The key after `m` as far as `before` tells it, without playing the move: the side to
/// move, the old en passant file and a normal move's pieces. Exact unless the move castles,
/// takes en passant, creates an en passant file or changes castling rights (`update` adds
/// those); good enough to prefetch the child's table entry before the move is made.
#[inline]
pub(crate) fn predict<V: ZobristValue>(
    mut key: V,
    before: &Chess,
    m: Move,
    ep_before: Option<File>,
) -> V {
    let us = before.turn();
    key ^= V::zobrist_for_white_turn();
    if let Some(file) = ep_before {
        key ^= V::zobrist_for_en_passant_file(file);
    }
    match m {
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            key ^= V::zobrist_for_piece(from, role.of(us));
            key ^= V::zobrist_for_piece(to, promotion.unwrap_or(role).of(us));
            if let Some(captured) = capture {
                key ^= V::zobrist_for_piece(to, captured.of(!us));
            }
        }
        // Rare: `update` adds them, and the prefetch after the move covers them.
        Move::EnPassant { .. } | Move::Castle { .. } | Move::Put { .. } => {}
    }
    key
}

/// The en passant file that belongs in the key of `after`: only a double pawn push creates
/// one, and it counts only if an en passant capture is legal.
#[inline]
pub(crate) fn ep_file_after(after: &Chess) -> Option<File> {
    // shakmaty sets the en passant square after every double push and clears it otherwise.
    after.maybe_ep_square()?;
    after.legal_ep_square().map(Square::file)
}

/// The key after a null move: side to move flipped, en passant file (if hashed) removed.
#[inline]
pub(crate) fn pass<V: ZobristValue>(mut key: V, ep_before: Option<File>) -> V {
    key ^= V::zobrist_for_white_turn();
    if let Some(file) = ep_before {
        key ^= V::zobrist_for_en_passant_file(file);
    }
    key
}
