//! A compact 16-bit move, as a transposition table stores it, and its legality check.
//!
//! Layout: bits 0–5 origin, 6–11 destination, 12–15 kind. Castling is stored king-to-rook
//! (shakmaty's `Move::Castle`), which is unambiguous in Chess960 too. Zero means "no move"
//! (a1a1 is never a move).

use shakmaty::{Move, Position as _, Role, Square};

use crate::Position;

const KIND_NORMAL: u16 = 0;
const KIND_PROMOTE_KNIGHT: u16 = 1;
const KIND_PROMOTE_BISHOP: u16 = 2;
const KIND_PROMOTE_ROOK: u16 = 3;
const KIND_PROMOTE_QUEEN: u16 = 4;
const KIND_CASTLE: u16 = 5;
const KIND_EN_PASSANT: u16 = 6;

/// The kind of a normal move by its promotion, indexed by the role's number (shakmaty's
/// `Role` counts from 1, so 0 stands for no promotion): a table load instead of a match, since
/// every searched and every scored quiet move is encoded. Pawn and king (never promotions in
/// chess) read as queen, as the match they replace did.
const PROMOTION_KIND: [u16; 8] = [
    KIND_NORMAL,
    KIND_PROMOTE_QUEEN,
    KIND_PROMOTE_KNIGHT,
    KIND_PROMOTE_BISHOP,
    KIND_PROMOTE_ROOK,
    KIND_PROMOTE_QUEEN,
    KIND_PROMOTE_QUEEN,
    KIND_PROMOTE_QUEEN,
];
const _: () = assert!(
    Role::Knight as usize == 2
        && Role::Bishop as usize == 3
        && Role::Rook as usize == 4
        && Role::Queen as usize == 5
);

#[inline]
fn promotion_kind(promotion: Option<Role>) -> u16 {
    PROMOTION_KIND[promotion.map_or(0, |role| role as usize) & 7]
}

/// A move in 16 bits. Decoding needs the position it was encoded in.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PackedMove(pub u16);

impl PackedMove {
    /// The empty move.
    pub const NONE: PackedMove = PackedMove(0);

    /// Encodes a chess move (drops, absent in chess, encode as `NONE`).
    #[inline]
    pub fn new(m: Move) -> PackedMove {
        let (from, to, kind) = match m {
            Move::Normal {
                from,
                to,
                promotion,
                ..
            } => (from, to, promotion_kind(promotion)),
            Move::EnPassant { from, to } => (from, to, KIND_EN_PASSANT),
            Move::Castle { king, rook } => (king, rook, KIND_CASTLE),
            Move::Put { .. } => return PackedMove::NONE,
        };
        PackedMove(u16::from(from) | (u16::from(to) << 6) | (kind << 12))
    }

    #[inline]
    pub fn is_none(self) -> bool {
        self.0 == 0
    }

    #[inline]
    fn origin(self) -> Square {
        Square::new(u32::from(self.0 & 63))
    }

    #[inline]
    fn destination(self) -> Square {
        Square::new(u32::from((self.0 >> 6) & 63))
    }

    /// Rebuilds the move in `pos` and returns it only if it is legal there: the sanity check
    /// that keeps a hash collision from playing a move of another position.
    #[inline]
    pub fn to_legal_move(self, pos: &Position) -> Option<Move> {
        if self.is_none() {
            return None;
        }
        let chess = pos.chess();
        let board = chess.board();
        let (from, to) = (self.origin(), self.destination());
        let piece = board.piece_at(from)?;
        if piece.color != chess.turn() {
            return None;
        }
        let m = match self.0 >> 12 {
            KIND_NORMAL => Move::Normal {
                role: piece.role,
                from,
                capture: board.role_at(to),
                to,
                promotion: None,
            },
            kind @ KIND_PROMOTE_KNIGHT..=KIND_PROMOTE_QUEEN => Move::Normal {
                role: piece.role,
                from,
                capture: board.role_at(to),
                to,
                promotion: Some(match kind {
                    KIND_PROMOTE_KNIGHT => Role::Knight,
                    KIND_PROMOTE_BISHOP => Role::Bishop,
                    KIND_PROMOTE_ROOK => Role::Rook,
                    _ => Role::Queen,
                }),
            },
            KIND_CASTLE => Move::Castle {
                king: from,
                rook: to,
            },
            KIND_EN_PASSANT => Move::EnPassant { from, to },
            _ => return None,
        };
        crate::legal::is_legal(chess, m).then_some(m)
    }
}

impl From<Move> for PackedMove {
    fn from(m: Move) -> PackedMove {
        PackedMove::new(m)
    }
}
