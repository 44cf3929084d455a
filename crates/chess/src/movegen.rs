//! Move generation straight from bitboards, whole or in two parts, captures and promotions
//! apart from quiet moves: quiescence needs only the first part, and a staged move picker asks
//! for the quiet moves only when no capture cut off (shakmaty's `capture_moves` is
//! `legal_moves` filtered, so it saves nothing). The whole list is written into the caller's
//! buffer, where shakmaty's `legal_moves` returns it by value.
//!
//! Each part's moves come out in exactly the order in which they appear in shakmaty's
//! `legal_moves()`, so move ordering, which breaks score ties by generation order, and
//! hence every search, stay the same node for node. Legality uses shakmaty's own rule
//! for a position not in check: a piece pinned to its king may move only along the pin
//! line, and the king may not step onto an attacked square. En passant, whose legality
//! needs the board after two pieces leave, is left to shakmaty.

use shakmaty::{
    Bitboard, CastlingSide, Chess, Color, Move, MoveList, Position as _, Role, Square, attacks,
};

const FILE_A: u64 = 0x0101_0101_0101_0101;

/// Captures and promotions of a position whose side to move is not in check, in
/// `legal_moves()` order. (In check the caller wants every evasion.)
pub fn tactical_moves_not_in_check(chess: &Chess, out: &mut MoveList) {
    generate(chess, out, true, false);
}

/// Quiet moves (neither captures nor promotions) of a position whose side to move is not in
/// check, in `legal_moves()` order: with [`tactical_moves_not_in_check`], every legal move.
pub fn quiet_moves_not_in_check(chess: &Chess, out: &mut MoveList) {
    generate(chess, out, false, true);
}

/// Every legal move of a position whose side to move is not in check, in `legal_moves()`
/// order, written into `out` (shakmaty's `legal_moves` returns its list by value, a copy).
pub fn legal_moves_not_in_check(chess: &Chess, out: &mut MoveList) {
    generate(chess, out, true, true);
}

/// The legal moves of a position not in check that are `tactical` (captures and promotions)
/// or `quiet` (the others), in `legal_moves()` order: shakmaty's sequence of en passant, pawn
/// captures, pawn advances, knight, bishop, rook, queen and king moves, castling.
#[inline(always)]
fn generate(chess: &Chess, out: &mut MoveList, tactical: bool, quiet: bool) {
    debug_assert!(!chess.is_check());
    out.clear();
    let Some(king) = chess.board().king_of(chess.turn()) else {
        return;
    };
    // shakmaty returns its lists by value (a copy each): ask only when there may be one.
    if tactical && chess.maybe_ep_square().is_some() {
        out.extend(chess.en_passant_moves());
    }
    if tactical {
        push_pawn_captures(chess, out);
    }
    push_pawn_advances(chess, out, quiet, tactical);
    let target = match (tactical, quiet) {
        (true, true) => !chess.us(),
        (true, false) => chess.them(),
        _ => !chess.board().occupied(),
    };
    push_piece_moves(chess, king, target, out);
    if quiet {
        push_castling(chess, out);
    }
    keep_legal(chess, king, out);
}

/// Pawn captures towards the west and then the east, each plain and then promoting.
#[inline]
fn push_pawn_captures(chess: &Chess, out: &mut MoveList) {
    let board = chess.board();
    let turn = chess.turn();
    let pawns = chess.our(Role::Pawn).0;
    let (west, east) = match turn {
        Color::White => ((pawns & !FILE_A) << 7, (pawns << 9) & !FILE_A),
        Color::Black => ((pawns & !FILE_A) >> 9, (pawns >> 7) & !FILE_A),
    };
    let (west_offset, east_offset) = turn.fold_wb((7, 9), (-9, -7));
    for (targets, offset) in [(west, west_offset), (east, east_offset)] {
        let captures = Bitboard(targets) & chess.them();
        for to in captures & !Bitboard::BACKRANKS {
            out.push(Move::Normal {
                role: Role::Pawn,
                from: from_square(to, offset),
                capture: board.role_at(to),
                to,
                promotion: None,
            });
        }
        for to in captures & Bitboard::BACKRANKS {
            push_promotions(out, from_square(to, offset), to, board.role_at(to));
        }
    }
}

/// Pawn advances: single steps that do not promote and double steps (`quiet`), and single
/// steps that promote (`promotions`), in shakmaty's order (single, promoting, double).
#[inline]
fn push_pawn_advances(chess: &Chess, out: &mut MoveList, quiet: bool, promotions: bool) {
    let turn = chess.turn();
    let empty = !chess.board().occupied();
    let push = turn.fold_wb(8, -8);
    let single = chess.our(Role::Pawn).shift(push) & empty;
    if quiet {
        for to in single & !Bitboard::BACKRANKS {
            out.push(Move::Normal {
                role: Role::Pawn,
                from: from_square(to, push),
                capture: None,
                to,
                promotion: None,
            });
        }
    }
    if promotions {
        for to in single & Bitboard::BACKRANKS {
            push_promotions(out, from_square(to, push), to, None);
        }
    }
    if quiet {
        let double = single.shift(push) & turn.fold_wb(Bitboard::SOUTH, Bitboard::NORTH) & empty;
        for to in double {
            out.push(Move::Normal {
                role: Role::Pawn,
                from: from_square(to, 2 * push),
                capture: None,
                to,
                promotion: None,
            });
        }
    }
}

/// Castling, king side first, asked of shakmaty only where the right is held and nothing
/// stands between king and rook: shakmaty's `castling_moves` builds and returns a whole
/// move list, which cost about 2% of the search's instructions in the opening, where the
/// path is usually still blocked. It tests the path first too, so the moves are the same.
#[inline]
fn push_castling(chess: &Chess, out: &mut MoveList) {
    let (castles, us) = (chess.castles(), chess.turn());
    let occupied = chess.board().occupied();
    for side in [CastlingSide::KingSide, CastlingSide::QueenSide] {
        if castles.has(us, side) && (castles.path(us, side) & occupied).is_empty() {
            out.extend(chess.castling_moves(side));
        }
    }
}

/// Knight, bishop, rook, queen and then king moves onto `target`, each piece's in square
/// order (the king only onto squares the opponent does not attack).
#[inline]
fn push_piece_moves(chess: &Chess, king: Square, target: Bitboard, out: &mut MoveList) {
    let board = chess.board();
    let occupied = board.occupied();
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for from in chess.our(role) {
            let reach = match role {
                Role::Knight => attacks::knight_attacks(from),
                Role::Bishop => attacks::bishop_attacks(from, occupied),
                Role::Rook => attacks::rook_attacks(from, occupied),
                _ => attacks::queen_attacks(from, occupied),
            };
            for to in reach & target {
                out.push(Move::Normal {
                    role,
                    from,
                    capture: board.role_at(to),
                    to,
                    promotion: None,
                });
            }
        }
    }
    for to in attacks::king_attacks(king) & target {
        if board.attacks_to(to, !chess.turn(), occupied).is_empty() {
            out.push(Move::Normal {
                role: Role::King,
                from: king,
                capture: board.role_at(to),
                to,
                promotion: None,
            });
        }
    }
}

/// Drops the moves of pinned pieces that leave their pin line.
#[inline]
fn keep_legal(chess: &Chess, king: Square, out: &mut MoveList) {
    let pinned = pinned_candidates(chess, king);
    if pinned.any() {
        out.retain(|m| match *m {
            Move::Normal { from, to, .. } => {
                !pinned.contains(from) || attacks::aligned(from, to, king)
            }
            _ => true,
        });
    }
}

/// The square a pawn reached `to` from by moving `offset` squares.
#[inline]
fn from_square(to: Square, offset: i32) -> Square {
    // `to` was produced by shifting a pawn's square by `offset` inside the board.
    Square::new((to as i32 - offset) as u32)
}

fn push_promotions(out: &mut MoveList, from: Square, to: Square, capture: Option<Role>) {
    for promotion in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
        out.push(Move::Normal {
            role: Role::Pawn,
            from,
            capture,
            to,
            promotion: Some(promotion),
        });
    }
}

/// Pieces that stand alone between `king` and an enemy slider aiming at it: the only
/// pieces whose moves may expose the king (shakmaty's slider blockers).
fn pinned_candidates(chess: &Chess, king: Square) -> Bitboard {
    let board = chess.board();
    let snipers = (attacks::rook_attacks(king, Bitboard(0)) & board.rooks_and_queens())
        | (attacks::bishop_attacks(king, Bitboard(0)) & board.bishops_and_queens());
    let mut blockers = Bitboard(0);
    for sniper in snipers & chess.them() {
        let between = attacks::between(king, sniper) & board.occupied();
        if !between.more_than_one() {
            blockers |= between;
        }
    }
    blockers
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    /// The reference: shakmaty's full legal list, filtered.
    fn filtered(chess: &Chess) -> Vec<Move> {
        chess
            .legal_moves()
            .into_iter()
            .filter(|m| m.is_capture() || m.is_promotion())
            .collect()
    }

    /// Both parts against the filtered legal list; the number of tactical moves.
    fn check(chess: &Chess) -> usize {
        let fen = Fen::from_position(chess, shakmaty::EnPassantMode::Legal);
        let mut tactical = MoveList::new();
        tactical_moves_not_in_check(chess, &mut tactical);
        assert_eq!(tactical.to_vec(), filtered(chess), "{fen}");
        let mut quiet = MoveList::new();
        quiet_moves_not_in_check(chess, &mut quiet);
        let expected: Vec<Move> = chess
            .legal_moves()
            .into_iter()
            .filter(|m| !m.is_capture() && !m.is_promotion())
            .collect();
        assert_eq!(quiet.to_vec(), expected, "{fen}");
        let mut all = MoveList::new();
        legal_moves_not_in_check(chess, &mut all);
        assert_eq!(all, chess.legal_moves(), "{fen}");
        tactical.len()
    }

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("legal")
    }

    #[test]
    fn same_moves_in_the_same_order_as_the_filtered_legal_list() {
        // Pins along ranks, files and diagonals, en passant into and out of a pin,
        // promotions with and without capture, a king that may not capture a guarded piece,
        // castling with the path free, blocked and attacked.
        let fens = [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/8/3k4/2pP4/8/8/8/3K4 w - c6 0 2",
            "8/8/8/K1pP3r/8/8/8/7k w - c6 0 2",
            "4k3/8/8/q2Pp2K/8/8/8/8 w - e6 0 2",
            "3r2k1/1P6/8/8/8/8/8/3RK3 w - - 0 1",
            "4k3/8/8/8/8/5q2/4B3/4K3 w - - 0 1",
            "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1",
            "1k6/8/8/8/8/8/6p1/4K2R b K - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1",
            "r3k2r/8/8/8/8/8/5r2/R3K2R b KQkq - 0 1",
        ];
        let mut tactical = 0;
        for fen in fens {
            tactical += check(&position(fen));
        }
        assert!(tactical > 40, "the positions have captures: {tactical}");
    }

    #[test]
    fn random_games_agree_everywhere() {
        let mut rng = StdRng::seed_from_u64(17);
        let mut positions = 0;
        for _ in 0..300 {
            let mut chess = Chess::default();
            for _ in 0..120 {
                if !chess.is_check() {
                    check(&chess);
                    positions += 1;
                }
                let moves = chess.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // Prefer captures and promotions so games reach sparse, open positions.
                let tactical: Vec<&Move> = moves
                    .iter()
                    .filter(|m| m.is_capture() || m.is_promotion())
                    .collect();
                let m = if !tactical.is_empty() && rng.random_bool(0.5) {
                    *tactical[rng.random_range(0..tactical.len())]
                } else {
                    moves[rng.random_range(0..moves.len())]
                };
                chess.play_unchecked(m);
            }
        }
        assert!(positions > 20_000, "{positions} positions checked");
    }
}
