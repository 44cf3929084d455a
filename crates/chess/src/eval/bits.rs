//! Bitboard helpers and compile-time masks for the evaluation (raw `u64`, a1 = bit 0).

use shakmaty::Color;

pub const FILE_A: u64 = 0x0101_0101_0101_0101;
pub const FILE_H: u64 = FILE_A << 7;
pub const RANK_1: u64 = 0xff;
pub const DARK_SQUARES: u64 = 0xaa55_aa55_aa55_aa55;

#[inline(always)]
pub const fn side(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

/// Squares attacked by the pawns `b` of side `s` (0 = White).
#[inline(always)]
pub const fn pawn_attacks(s: usize, b: u64) -> u64 {
    if s == 0 {
        ((b & !FILE_A) << 7) | ((b & !FILE_H) << 9)
    } else {
        ((b & !FILE_A) >> 9) | ((b & !FILE_H) >> 7)
    }
}

/// Square index as seen from side `s` (Black's board flipped vertically).
#[inline(always)]
pub const fn relative(s: usize, sq: usize) -> usize {
    if s == 0 { sq } else { sq ^ 56 }
}

/// Rank 0..=7 of `sq` as seen from side `s`.
#[inline(always)]
pub const fn relative_rank(s: usize, sq: usize) -> usize {
    relative(s, sq) / 8
}

/// The square one step forward from `sq` for side `s` (must not be on the last rank).
#[inline(always)]
pub const fn forward(s: usize, sq: usize) -> usize {
    if s == 0 { sq + 8 } else { sq - 8 }
}

pub const fn file_mask(file: usize) -> u64 {
    FILE_A << file
}

pub const fn adjacent_files(file: usize) -> u64 {
    let mut m = 0;
    if file > 0 {
        m |= file_mask(file - 1);
    }
    if file < 7 {
        m |= file_mask(file + 1);
    }
    m
}

/// Ranks strictly in front of rank `rank` for side `s`.
const fn ranks_ahead(s: usize, rank: usize) -> u64 {
    let mut m = 0;
    let mut r = 0;
    while r < 8 {
        if (s == 0 && r > rank) || (s == 1 && r < rank) {
            m |= RANK_1 << (8 * r);
        }
        r += 1;
    }
    m
}

/// Per side and square: squares in front on the same file.
pub static FRONT_SPAN: [[u64; 64]; 2] = build(0);
/// Per side and square: squares in front on the adjacent files (where enemy pawns could
/// later attack it from, or stop it).
pub static ATTACK_SPAN: [[u64; 64]; 2] = build(1);
/// Per side and square: the passed-pawn mask (front span plus attack span).
pub static PASSED_SPAN: [[u64; 64]; 2] = build(2);
/// Per side and square: adjacent files at the same rank or behind (own pawns there can
/// still support it).
pub static SUPPORT_SPAN: [[u64; 64]; 2] = build(3);

const fn build(kind: u8) -> [[u64; 64]; 2] {
    let mut t = [[0u64; 64]; 2];
    let mut s = 0;
    while s < 2 {
        let mut sq = 0;
        while sq < 64 {
            let (file, rank) = (sq % 8, sq / 8);
            let ahead = ranks_ahead(s, rank);
            t[s][sq] = match kind {
                0 => ahead & file_mask(file),
                1 => ahead & adjacent_files(file),
                2 => ahead & (file_mask(file) | adjacent_files(file)),
                _ => !ahead & adjacent_files(file),
            };
            sq += 1;
        }
        s += 1;
    }
    t
}

/// Chebyshev distance between two squares.
#[inline(always)]
pub const fn distance(a: usize, b: usize) -> i32 {
    let df = (a % 8) as i32 - (b % 8) as i32;
    let dr = (a / 8) as i32 - (b / 8) as i32;
    let df = if df < 0 { -df } else { df };
    let dr = if dr < 0 { -dr } else { dr };
    if df > dr { df } else { dr }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans() {
        // e4 (28) for White: passed span is d5..f8.
        assert_eq!(FRONT_SPAN[0][28].count_ones(), 4);
        assert_eq!(ATTACK_SPAN[0][28].count_ones(), 8);
        assert_eq!(PASSED_SPAN[0][28], FRONT_SPAN[0][28] | ATTACK_SPAN[0][28]);
        // a7 for Black: front span a6..a1.
        assert_eq!(FRONT_SPAN[1][48], FILE_A & ((1 << 48) - 1));
        assert_eq!(SUPPORT_SPAN[0][28].count_ones(), 8);
        assert_eq!(pawn_attacks(0, 1 << 8), 1 << 17);
        assert_eq!(pawn_attacks(1, 1 << 55), 1 << 46);
        assert_eq!(distance(0, 63), 7);
        assert_eq!(relative_rank(1, 48), 1);
    }
}
