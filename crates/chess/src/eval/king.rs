//! King safety: pawn shelter and storm on the king's and the neighbouring files, open files
//! there, the number of pieces attacking the king zone (their attacked squares are counted
//! in the piece pass) and safe checking squares.

use shakmaty::{Bitboard, attacks};

use super::bits::{file_mask, relative_rank};
use super::layout::*;
use super::{Context, Sink, sq};

#[inline(always)]
pub(crate) fn evaluate<S: Sink>(ctx: &Context, sink: &mut S) {
    for s in 0..2 {
        let them = s ^ 1;
        let king = ctx.king[s];
        let king_rank = relative_rank(s, king);
        let king_file = king % 8;
        let own_pawns = ctx.pieces[s][0];
        let their_pawns = ctx.pieces[them][0];
        for file in king_file.saturating_sub(1)..=(king_file + 1).min(7) {
            let mask = file_mask(file);
            // Nearest own pawn on the file at or in front of the king (0 = none).
            let shelter = nearest_rank(s, own_pawns & mask, king_rank);
            let storm = nearest_rank(s, their_pawns & mask, king_rank);
            if file == king_file {
                sink.add(s, SHELTER_KING_FILE + shelter, 1);
            } else {
                sink.add(s, SHELTER_SIDE_FILE + shelter, 1);
            }
            sink.add(s, STORM + storm, 1);
            if mask & own_pawns == 0 {
                if mask & their_pawns == 0 {
                    sink.add(them, KING_OPEN_FILE, 1);
                } else {
                    sink.add(them, KING_SEMIOPEN_FILE, 1);
                }
            }
        }
        // Attacks on this king by the other side.
        sink.add(
            them,
            KING_ATTACKERS + (ctx.king_attackers[them] as usize).min(7),
            1,
        );
        let occupied = Bitboard(ctx.occupied);
        let king_sq = sq(king);
        let safe = !ctx.attacked[s] & !ctx.by_side[them];
        let knight_checks = attacks::knight_attacks(king_sq).0;
        let bishop_checks = attacks::bishop_attacks(king_sq, occupied).0;
        let rook_checks = attacks::rook_attacks(king_sq, occupied).0;
        let checks = [
            knight_checks & ctx.attacked_by[them][1],
            bishop_checks & ctx.attacked_by[them][2],
            rook_checks & ctx.attacked_by[them][3],
            (bishop_checks | rook_checks) & ctx.attacked_by[them][4],
        ];
        for (i, c) in checks.into_iter().enumerate() {
            let n = (c & safe).count_ones() as i32;
            if n > 0 {
                sink.add(them, SAFE_CHECK + i, n);
            }
        }
    }
}

/// Relative rank of the pawn in `pawns` nearest to the king from rank `from` forwards, for
/// side `s`; 0 when there is none (no pawn stands on its side's first rank). The pawns on
/// those ranks are masked at once and the nearest is the lowest bit for White, the highest
/// for Black.
#[inline(always)]
fn nearest_rank(s: usize, pawns: u64, from: usize) -> usize {
    let ahead = if s == 0 {
        pawns & (u64::MAX << (8 * from))
    } else {
        pawns & (u64::MAX >> (8 * from))
    };
    if ahead == 0 {
        return 0;
    }
    let square = if s == 0 {
        ahead.trailing_zeros()
    } else {
        63 - ahead.leading_zeros()
    };
    relative_rank(s, square as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The masked form against a scan of every pawn, on random pawn sets.
    #[test]
    fn nearest_rank_matches_a_scan() {
        let scan = |s: usize, pawns: u64, from: usize| {
            (0..64)
                .filter(|&p| pawns & (1u64 << p) != 0)
                .map(|p| relative_rank(s, p))
                .filter(|&r| r >= from)
                .min()
                .unwrap_or(0)
        };
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Sparse sets on ranks 2 to 7, as pawns stand.
            let pawns = x & (x >> 9) & (x >> 23) & 0x00FF_FFFF_FFFF_FF00;
            for s in 0..2 {
                for from in 0..8 {
                    assert_eq!(nearest_rank(s, pawns, from), scan(s, pawns, from));
                }
            }
        }
    }
}
