//! Material, piece-square tables, mobility, bishops, rooks and outposts. The piece pass also
//! fills the attack maps the king-safety and threat terms read.

use shakmaty::attacks;

use super::bits::{self, ATTACK_SPAN, DARK_SQUARES, relative, relative_rank};
use super::layout::*;
use super::{Context, Sink, sq};

/// Material and piece-square terms.
#[inline(always)]
pub(crate) fn material_and_squares<S: Sink>(ctx: &Context, sink: &mut S) {
    for s in 0..2 {
        for r in 0..6 {
            let mut b = ctx.pieces[s][r];
            if r < 5 {
                sink.add(s, MATERIAL + r, b.count_ones() as i32);
            }
            while b != 0 {
                let from = b.trailing_zeros() as usize;
                b &= b - 1;
                sink.add(s, PST + r * 32 + pst_square(relative(s, from)), 1);
            }
        }
    }
}

/// Mobility, king-zone attacks, bishop pair and colour, rook files and 7th rank, outposts.
#[allow(clippy::needless_range_loop)] // side and role index several tables at once
#[inline(always)]
pub(crate) fn evaluate<S: Sink>(ctx: &mut Context, sink: &mut S) {
    let occupied = shakmaty::Bitboard(ctx.occupied);
    for s in 0..2 {
        let them = s ^ 1;
        let own = ctx.by_side[s];
        let area = !own & !ctx.pawn_attacks[them];
        let enemy_zone = ctx.king_zone[them];
        let own_pawns = ctx.pieces[s][0];
        let their_pawns = ctx.pieces[them][0];
        let mut attackers = 0;
        for r in 1..5 {
            let (mobility, zone_weight) = match r {
                1 => (MOBILITY_KNIGHT, KING_ZONE_ATTACK),
                2 => (MOBILITY_BISHOP, KING_ZONE_ATTACK + 1),
                3 => (MOBILITY_ROOK, KING_ZONE_ATTACK + 2),
                _ => (MOBILITY_QUEEN, KING_ZONE_ATTACK + 3),
            };
            let max = match r {
                1 => 8,
                2 => 13,
                3 => 14,
                _ => 27,
            };
            let mut b = ctx.pieces[s][r];
            while b != 0 {
                let from = b.trailing_zeros() as usize;
                b &= b - 1;
                let square = sq(from);
                let reach = match r {
                    1 => attacks::knight_attacks(square).0,
                    2 => attacks::bishop_attacks(square, occupied).0,
                    3 => attacks::rook_attacks(square, occupied).0,
                    _ => attacks::queen_attacks(square, occupied).0,
                };
                ctx.record_attacks(s, r, reach);
                let count = ((reach & area).count_ones() as usize).min(max);
                sink.add(s, mobility + count, 1);
                let zone = (reach & enemy_zone).count_ones() as i32;
                if zone > 0 {
                    attackers += 1;
                    sink.add(s, zone_weight, zone);
                }
                let from_bb = 1u64 << from;
                match r {
                    1 | 2 => {
                        let rank = relative_rank(s, from);
                        if (3..=5).contains(&rank)
                            && ctx.pawn_attacks[s] & from_bb != 0
                            && ATTACK_SPAN[s][from] & their_pawns == 0
                        {
                            sink.add(s, OUTPOST + r - 1, 1);
                        }
                        if r == 2 {
                            let colour = if from_bb & DARK_SQUARES != 0 {
                                DARK_SQUARES
                            } else {
                                !DARK_SQUARES
                            };
                            sink.add(s, BAD_BISHOP, (own_pawns & colour).count_ones() as i32);
                        }
                    }
                    3 => {
                        let file = bits::file_mask(from % 8);
                        if file & own_pawns == 0 {
                            if file & their_pawns == 0 {
                                sink.add(s, ROOK_OPEN_FILE, 1);
                            } else {
                                sink.add(s, ROOK_SEMIOPEN_FILE, 1);
                            }
                        }
                        if relative_rank(s, from) == 6 {
                            let seventh = if s == 0 {
                                bits::RANK_1 << 48
                            } else {
                                bits::RANK_1 << 8
                            };
                            let king_on_eighth = relative_rank(s, ctx.king[them]) == 7;
                            if their_pawns & seventh != 0 || king_on_eighth {
                                sink.add(s, ROOK_SEVENTH, 1);
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        ctx.king_attackers[s] = attackers;
        if ctx.pieces[s][2].count_ones() >= 2
            && ctx.pieces[s][2] & DARK_SQUARES != 0
            && ctx.pieces[s][2] & !DARK_SQUARES != 0
        {
            sink.add(s, BISHOP_PAIR, 1);
        }
    }
}
