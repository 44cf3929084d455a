//! Whether a legal move gives check, found from bitboards without playing it: the search
//! decides its move-count and futility pruning, which spare checking moves, before it makes
//! the move (most pruned moves are then never played).

use shakmaty::{Bitboard, CastlingSide, Chess, Move, Position as _, Role, Square, attacks};

/// Whether the legal move `m` checks the opponent's king: exactly what `play(m)` followed by
/// `is_check()` says (tested on random games with every kind of move, Chess960 included).
/// Our pieces are placed as after the move, and the king's square is tested against them
/// with the new occupancy, which finds direct and discovered checks alike (a king never
/// gives check itself).
pub fn gives_check(chess: &Chess, m: Move) -> bool {
    let board = chess.board();
    let us = chess.turn();
    let Some(their_king) = board.king_of(!us) else {
        return false;
    };
    // The squares the move empties, the squares it fills, and the piece it places there.
    let (vacated, filled, placed) = match m {
        Move::Normal {
            role,
            from,
            to,
            promotion,
            ..
        } => (
            Bitboard::from_square(from),
            Bitboard::from_square(to),
            Some((promotion.unwrap_or(role), to)),
        ),
        Move::EnPassant { from, to } => (
            Bitboard::from_square(from)
                | Bitboard::from_square(Square::from_coords(to.file(), from.rank())),
            Bitboard::from_square(to),
            Some((Role::Pawn, to)),
        ),
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(king < rook);
            let rook_to = side.rook_to(us);
            (
                Bitboard::from_square(king) | Bitboard::from_square(rook),
                Bitboard::from_square(side.king_to(us)) | Bitboard::from_square(rook_to),
                Some((Role::Rook, rook_to)),
            )
        }
        Move::Put { .. } => return false,
    };
    let occupied = (board.occupied() & !vacated) | filled;
    let ours = board.by_color(us) & !vacated;
    let mut pawns = board.pawns() & ours;
    let mut knights = board.knights() & ours;
    let mut diagonal = board.bishops_and_queens() & ours;
    let mut straight = board.rooks_and_queens() & ours;
    if let Some((role, to)) = placed {
        let here = Bitboard::from_square(to);
        match role {
            Role::Pawn => pawns |= here,
            Role::Knight => knights |= here,
            Role::Bishop => diagonal |= here,
            Role::Rook => straight |= here,
            Role::Queen => {
                diagonal |= here;
                straight |= here;
            }
            Role::King => {} // a king never gives check
        }
    }
    ((attacks::pawn_attacks(!us, their_king) & pawns)
        | (attacks::knight_attacks(their_king) & knights)
        | (attacks::bishop_attacks(their_king, occupied) & diagonal)
        | (attacks::rook_attacks(their_king, occupied) & straight))
        .any()
}

/// What [`CheckInfo::gives_check`] needs to know about one position, found once and then
/// used for each of its moves (Stockfish's "check squares" and discovered-check
/// candidates): most moves are then decided by two bit tests.
#[derive(Clone, Copy, Debug, Default)]
pub struct CheckInfo {
    their_king: Option<Square>,
    /// `squares[role - 1]`, pawn ..= queen: where a piece of ours of that role would attack
    /// their king, with today's occupancy.
    squares: [Bitboard; 5],
    /// Pieces alone between their king and one of our sliders: moving one off that line
    /// uncovers a check.
    discoverers: Bitboard,
}

impl CheckInfo {
    pub fn new(chess: &Chess) -> CheckInfo {
        let board = chess.board();
        let us = chess.turn();
        let Some(king) = board.king_of(!us) else {
            return CheckInfo::default();
        };
        let occupied = board.occupied();
        let diagonal = attacks::bishop_attacks(king, occupied);
        let straight = attacks::rook_attacks(king, occupied);
        let ours = board.by_color(us);
        let snipers = ((attacks::bishop_attacks(king, Bitboard(0)) & board.bishops_and_queens())
            | (attacks::rook_attacks(king, Bitboard(0)) & board.rooks_and_queens()))
            & ours;
        let mut discoverers = Bitboard(0);
        for sniper in snipers {
            let between = attacks::between(king, sniper) & occupied;
            if between.count() == 1 {
                discoverers |= between;
            }
        }
        CheckInfo {
            their_king: Some(king),
            squares: [
                attacks::pawn_attacks(!us, king),
                attacks::knight_attacks(king),
                diagonal,
                straight,
                diagonal | straight,
            ],
            discoverers,
        }
    }

    /// [`gives_check`] for a legal move of the position this was made for. A plain move
    /// (neither promotion, castling nor en passant) checks directly when it lands on one
    /// of its role's check squares (a slider that leaves the line to their king for a
    /// square on it would have stood checking it before, impossible on our move), and by
    /// discovery when it leaves the line between their king and one of our sliders. The
    /// other moves change the occupancy in more places and take the full test.
    #[inline]
    pub fn gives_check(&self, chess: &Chess, m: Move) -> bool {
        match m {
            Move::Normal {
                role,
                from,
                to,
                promotion: None,
                ..
            } => {
                let Some(king) = self.their_king else {
                    return false;
                };
                (role != Role::King && self.squares[role as usize - 1].contains(to))
                    || (self.discoverers.contains(from) && !attacks::aligned(from, to, king))
            }
            _ => gives_check(chess, m),
        }
    }
}
