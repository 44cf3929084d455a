//! Pawn structure: doubled, isolated, backward, connected and passed pawns, cached in a
//! pawn hash table keyed by the two pawn bitboards (the structure term depends on pawns only).

use super::bits::{self, FRONT_SPAN, PASSED_SPAN, SUPPORT_SPAN, forward, relative_rank};
use super::layout::*;
use super::{Context, Scorer, Sink};

/// Entries of the pawn hash (a power of two). Small: pawn structures repeat a lot in a
/// search, and the table is cloned with the position.
const PAWN_TABLE_ENTRIES: usize = 4096;

#[derive(Clone, Copy, Default)]
struct PawnEntry {
    /// Key of the pawn bitboards; 0 marks an empty slot (a real key of 0 simply misses).
    key: u64,
    /// Packed structure score, White minus Black.
    score: i32,
    /// Passed pawns of both sides.
    passed: u64,
}

/// The pawn hash table, owned by a [`crate::Position`] (one per search thread).
#[derive(Clone)]
pub struct PawnTable {
    entries: Box<[PawnEntry]>,
    hits: u64,
    probes: u64,
}

impl Default for PawnTable {
    fn default() -> Self {
        PawnTable {
            entries: vec![PawnEntry::default(); PAWN_TABLE_ENTRIES].into_boxed_slice(),
            hits: 0,
            probes: 0,
        }
    }
}

impl std::fmt::Debug for PawnTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PawnTable({} hits of {} probes)", self.hits, self.probes)
    }
}

impl PawnTable {
    /// (hits, probes) since creation.
    pub fn counters(&self) -> (u64, u64) {
        (self.hits, self.probes)
    }
}

/// splitmix64's finaliser: every output bit depends on every input bit, so the low bits a
/// table indexes by see every square.
#[inline(always)]
fn finalise(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A mixing hash of the two pawn bitboards.
#[inline(always)]
pub(crate) fn pawn_key(white: u64, black: u64) -> u64 {
    finalise(
        white.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29)
            ^ black.wrapping_mul(0xc2b2_ae3d_27d4_eb4f),
    ) | 1
}

/// A hash of one side's pieces other than pawns (kings included), for the non-pawn
/// correction tables of the search: each role's squares weighted by its own odd constant and
/// rotation, then finalised.
pub(crate) fn non_pawn_key(board: &shakmaty::Board, color: shakmaty::Color) -> u64 {
    use shakmaty::Role;
    const WEIGHTS: [(Role, u64, u32); 5] = [
        (Role::Knight, 0x9e37_79b9_7f4a_7c15, 0),
        (Role::Bishop, 0xc2b2_ae3d_27d4_eb4f, 13),
        (Role::Rook, 0x1656_67b1_9e37_79f9, 29),
        (Role::Queen, 0x85eb_ca77_c2b2_ae63, 41),
        (Role::King, 0x27d4_eb2f_1656_67c5, 53),
    ];
    let own = board.by_color(color);
    finalise(WEIGHTS.iter().fold(0, |z, &(role, weight, rotation)| {
        z ^ (board.by_role(role) & own)
            .0
            .wrapping_mul(weight)
            .rotate_left(rotation)
    }))
}

/// Adds the pawn-structure terms to `sink` and stores the passed pawns in `ctx`.
#[inline(always)]
pub(crate) fn evaluate<S: Sink>(ctx: &mut Context, sink: &mut S, table: Option<&mut PawnTable>) {
    match table {
        Some(table) if !S::TRACE => {
            let key = pawn_key(ctx.pieces[0][0], ctx.pieces[1][0]);
            let slot = (key as usize) & (PAWN_TABLE_ENTRIES - 1);
            table.probes += 1;
            let entry = &mut table.entries[slot];
            if entry.key == key {
                table.hits += 1;
            } else {
                let mut scorer = Scorer::default();
                let passed = structure(ctx, &mut scorer);
                *entry = PawnEntry {
                    key,
                    score: scorer.white(),
                    passed,
                };
            }
            ctx.passed = entry.passed;
            sink.add_packed_white(entry.score);
        }
        _ => ctx.passed = structure(ctx, sink),
    }
}

/// The pure-pawn terms; returns the passed pawns of both sides.
fn structure<S: Sink>(ctx: &Context, sink: &mut S) -> u64 {
    let mut passed = 0;
    for s in 0..2 {
        let them = s ^ 1;
        let own = ctx.pieces[s][0];
        let their = ctx.pieces[them][0];
        let mut b = own;
        while b != 0 {
            let from = b.trailing_zeros() as usize;
            b &= b - 1;
            let file = from % 8;
            let rank = relative_rank(s, from);
            let from_bb = 1u64 << from;
            if FRONT_SPAN[s][from] & own != 0 {
                sink.add(s, PAWN_DOUBLED, 1);
            }
            let neighbours = bits::adjacent_files(file) & own;
            if neighbours == 0 {
                sink.add(s, PAWN_ISOLATED, 1);
            } else {
                let supported = bits::pawn_attacks(them, from_bb) & own != 0;
                let phalanx =
                    ((from_bb << 1) & !bits::FILE_A | (from_bb >> 1) & !bits::FILE_H) & own != 0;
                if supported || phalanx {
                    sink.add(s, PAWN_CONNECTED + rank, 1);
                } else if SUPPORT_SPAN[s][from] & own == 0
                    && rank < 7
                    && bits::pawn_attacks(them, their) & (1u64 << forward(s, from)) != 0
                {
                    sink.add(s, PAWN_BACKWARD, 1);
                }
            }
            // Passed: no enemy pawn ahead on this or the adjacent files; the rearmost of
            // doubled pawns is not.
            if PASSED_SPAN[s][from] & their == 0 && FRONT_SPAN[s][from] & own == 0 {
                passed |= from_bb;
                sink.add(s, PASSED + rank, 1);
            }
        }
    }
    passed
}
