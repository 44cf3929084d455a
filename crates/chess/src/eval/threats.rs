//! Threats: enemy pieces attacked by pawns, minor pieces and rooks, and hanging pieces.

use super::layout::*;
use super::{Context, Sink};

#[allow(clippy::needless_range_loop)] // side and role index several tables at once
#[inline(always)]
pub(crate) fn evaluate<S: Sink>(ctx: &Context, sink: &mut S) {
    for s in 0..2 {
        let them = s ^ 1;
        let enemy = &ctx.pieces[them];
        let defended_by_pawn = ctx.pawn_attacks[them];
        let defended = ctx.attacked[them];
        let by_pawn = ctx.pawn_attacks[s];
        let by_minor = ctx.attacked_by[s][1] | ctx.attacked_by[s][2];
        let by_rook = ctx.attacked_by[s][3];
        for r in 0..5 {
            let victims = enemy[r];
            if victims == 0 {
                continue;
            }
            if r >= 1 {
                add_count(sink, s, THREAT_BY_PAWN + r - 1, victims & by_pawn);
            }
            let minor_targets = if r <= 2 {
                victims & !defended_by_pawn
            } else {
                victims
            };
            add_count(sink, s, THREAT_BY_MINOR + r, minor_targets & by_minor);
            let rook_targets = if r == 4 { victims } else { victims & !defended };
            add_count(sink, s, THREAT_BY_ROOK + r, rook_targets & by_rook);
        }
        let pieces = enemy[1] | enemy[2] | enemy[3] | enemy[4];
        add_count(sink, s, HANGING, pieces & ctx.attacked[s] & !defended);
    }
}

#[inline(always)]
fn add_count<S: Sink>(sink: &mut S, s: usize, index: usize, b: u64) {
    if b != 0 {
        sink.add(s, index, b.count_ones() as i32);
    }
}
