//! The piece-dependent half of passed pawns: a free stop square and the distances of both
//! kings to it (which matter most in the endgame). The pure-pawn half is in `pawns.rs`.

use super::bits::{distance, forward, relative_rank};
use super::layout::*;
use super::{Context, Sink};

#[inline(always)]
pub(crate) fn evaluate<S: Sink>(ctx: &Context, sink: &mut S) {
    for s in 0..2 {
        let mut b = ctx.passed & ctx.pieces[s][0];
        while b != 0 {
            let from = b.trailing_zeros() as usize;
            b &= b - 1;
            let rank = relative_rank(s, from);
            let stop = forward(s, from);
            if ctx.occupied & (1u64 << stop) == 0 {
                sink.add(s, PASSED_FREE + rank, 1);
            }
            sink.add(s, PASSED_OWN_KING + rank, distance(ctx.king[s], stop));
            sink.add(s, PASSED_THEIR_KING + rank, distance(ctx.king[s ^ 1], stop));
        }
    }
}
