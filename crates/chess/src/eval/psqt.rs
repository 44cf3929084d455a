//! Material and piece-square terms kept up to date move by move: the search's evaluation
//! adds the position's running sum instead of visiting every piece. The sum is the
//! packed (middlegame, endgame) value of White's pieces minus Black's, with the same
//! wrapping arithmetic as the full pass, so both give the same bits.

use shakmaty::{Chess, Color, Move, Position as _, Role, Square};

use crate::nnue::{Dirty, Inputs};

use super::bits::{relative, side};
use super::build_packed;
use super::layout::{MATERIAL, PST, pst_square};

/// `VALUES[side][role - 1][square]`: one piece's material and square weight, packed,
/// negated for Black.
static VALUES: [[[i32; 64]; 6]; 2] = build_values();

const fn build_values() -> [[[i32; 64]; 6]; 2] {
    let packed = build_packed();
    let mut t = [[[0; 64]; 6]; 2];
    let mut s = 0;
    while s < 2 {
        let mut r = 0;
        while r < 6 {
            let mut sq = 0;
            while sq < 64 {
                let mut v = packed[PST + r * 32 + pst_square(relative(s, sq))];
                if r < 5 {
                    v = v.wrapping_add(packed[MATERIAL + r]);
                }
                t[s][r][sq] = if s == 0 { v } else { v.wrapping_neg() };
                sq += 1;
            }
            r += 1;
        }
        s += 1;
    }
    t
}

#[inline(always)]
fn value(color: Color, role: Role, square: Square) -> i32 {
    VALUES[side(color)][role as usize - 1][square as usize]
}

/// The sum over every piece of `chess`.
pub fn from_scratch(chess: &Chess) -> i32 {
    chess.board().iter().fold(0i32, |sum, (square, piece)| {
        sum.wrapping_add(value(piece.color, piece.role, square))
    })
}

/// The sum after `m`, legal in `before` (whose sum is `sum`): the pieces the move adds and
/// removes, as the network's accumulator sees them.
#[inline]
pub fn after_move(sum: i32, before: &Chess, m: Move) -> i32 {
    let dirty = Dirty::of_move(before, m, Inputs::Plain);
    let (added, removed) = dirty.changes();
    let sum = added.fold(sum, |sum, (color, role, square)| {
        sum.wrapping_add(value(color, role, square))
    });
    removed.fold(sum, |sum, (color, role, square)| {
        sum.wrapping_sub(value(color, role, square))
    })
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    use shakmaty::{CastlingMode, MoveList};

    use super::*;
    use crate::Position;
    use crate::eval::{self, PawnTable};

    /// Starts with castling both ways (standard and Chess960), en passant and promotions.
    const STARTS: [(&str, CastlingMode); 5] = [
        (crate::position::START_FEN, CastlingMode::Standard),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            CastlingMode::Standard,
        ),
        (
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            CastlingMode::Chess960,
        ),
        (
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            CastlingMode::Standard,
        ),
        (
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            CastlingMode::Standard,
        ),
    ];

    /// Random games from every start; after each move (and each null move) `visit` sees the
    /// position. Returns how many moves of each kind were played.
    fn random_games(games_per_start: u64, mut visit: impl FnMut(&mut Position)) -> [usize; 4] {
        let mut kinds = [0usize; 4]; // moves, castles, en passant, promotions
        for (index, &(fen, mode)) in STARTS.iter().enumerate() {
            for game in 0..games_per_start {
                let mut rng = StdRng::seed_from_u64(index as u64 * 1_000 + game);
                let mut pos = Position::from_fen_in(fen, mode).expect("test position");
                let mut moves = MoveList::new();
                for _ in 0..160 {
                    if !pos.in_check() && rng.random_range(0..20) == 0 {
                        pos.play_null();
                        visit(&mut pos);
                        continue;
                    }
                    pos.legal_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    // Special moves whenever there are any, so that each kind is common.
                    let special: Vec<Move> = moves
                        .iter()
                        .copied()
                        .filter(|m| m.is_castle() || m.is_en_passant() || m.is_promotion())
                        .collect();
                    let m = if !special.is_empty() && rng.random_range(0..2) == 0 {
                        special[rng.random_range(0..special.len())]
                    } else {
                        moves[rng.random_range(0..moves.len())]
                    };
                    kinds[0] += 1;
                    kinds[1] += usize::from(m.is_castle());
                    kinds[2] += usize::from(m.is_en_passant());
                    kinds[3] += usize::from(m.is_promotion());
                    pos.play(m);
                    visit(&mut pos);
                }
            }
        }
        kinds
    }

    #[test]
    fn running_sum_equals_a_fresh_sum_after_every_move() {
        let mut checked = 0;
        let kinds = random_games(100, |pos| {
            let chess = pos.chess().clone();
            let fresh = from_scratch(&chess);
            // The search's evaluation (with its running sum) against the full pass.
            assert_eq!(
                pos.evaluate(),
                eval::evaluate(&chess),
                "{}",
                shakmaty::fen::Fen::from_position(&chess, shakmaty::EnPassantMode::Legal)
            );
            let mut table = PawnTable::default();
            assert_eq!(
                eval::evaluate_with_psqt(
                    &chess,
                    &mut table,
                    fresh,
                    (Default::default(), &mut Default::default())
                ),
                eval::evaluate(&chess)
            );
            checked += 1;
        });
        assert!(checked > 50_000, "{checked} positions");
        assert!(
            kinds[1] > 200 && kinds[2] > 60 && kinds[3] > 600,
            "castles, en passant, promotions: {kinds:?}"
        );
    }

    #[test]
    fn after_move_matches_from_scratch_for_every_legal_move() {
        random_games(4, |pos| {
            let chess = pos.chess().clone();
            let sum = from_scratch(&chess);
            for m in chess.legal_moves() {
                let mut after = chess.clone();
                after.play_unchecked(m);
                assert_eq!(after_move(sum, &chess, m), from_scratch(&after), "{m:?}");
            }
        });
    }
}
