//! Static evaluation, tapered between middlegame and endgame by the material phase.
//!
//! The score is linear in the weights of [`weights`] (laid out in [`layout`]): every term
//! adds `weight × count` for one side. The same code runs with two sinks, monomorphised:
//! [`Scorer`] sums packed (middlegame, endgame) scores for the search, and the tracer of
//! [`trace`] records the counts per weight, which `horizon tune` fits by Texel's method and
//! the UCI `eval` command prints per term. Endgame knowledge ([`endgame`]) is not linear: it
//! scales the endgame half or, for KBN against K, replaces the score.
//!
//! Files: `cache.rs` (evaluations by Zobrist key), `pawns.rs` (structure, pawn hash), `pieces.rs` (material, squares, mobility,
//! rooks, outposts, bishops), `king.rs` (shelter, storm, attacks), `threats.rs`,
//! `passed.rs` (the piece-dependent half of passed pawns), `endgame.rs`, `trace.rs`,
//! `psqt.rs` (material and piece-square sums kept up to date by `Position::play`).

pub(crate) mod bits;
mod cache;
mod endgame;
mod king;
pub mod kpk;
pub mod layout;
mod passed;
mod pawns;
mod pieces;
pub(crate) mod psqt;
mod threats;
pub mod trace;
pub mod weights;

use horizon_search::{EvalKnowledge, EvalKnowledgeCounts};
use shakmaty::{Chess, Color, Position as _, Role};

pub use cache::EvalCache;
pub use pawns::PawnTable;
pub(crate) use pawns::{non_pawn_key, pawn_key};
pub use trace::{EvalBreakdown, Features, breakdown, breakdown_with, features};

use bits::side;
pub(crate) use endgame::{
    bare_king_mate, blend_network_value, classic_blend_applies, scale_network_value,
};
use layout::NUM_WEIGHTS;

/// Phase of a full set of pieces (and the cap for positions with promoted material).
pub const MAX_PHASE: i32 = 24;

/// Full endgame scale: the endgame half counts fully.
pub const SCALE_NORMAL: i32 = 64;

/// Packs a middlegame and an endgame score into one `i32` (endgame in the high half), so
/// one addition or multiplication updates both. Each half must stay within `i16`.
#[inline(always)]
pub(crate) const fn pack(mg: i32, eg: i32) -> i32 {
    (eg << 16).wrapping_add(mg)
}

#[inline(always)]
pub(crate) const fn unpack_mg(s: i32) -> i32 {
    s as i16 as i32
}

#[inline(always)]
pub(crate) const fn unpack_eg(s: i32) -> i32 {
    ((s.wrapping_add(0x8000)) >> 16) as i16 as i32
}

const fn build_packed() -> [i32; NUM_WEIGHTS] {
    let mut t = [0; NUM_WEIGHTS];
    let mut i = 0;
    while i < NUM_WEIGHTS {
        let (mg, eg) = weights::WEIGHTS[i];
        t[i] = pack(mg as i32, eg as i32);
        i += 1;
    }
    t
}

/// The weights packed for the search's evaluation.
static PACKED: [i32; NUM_WEIGHTS] = build_packed();

/// Where the terms go: summed for the search, or recorded for tuning and display.
pub(crate) trait Sink {
    /// Whether the sink needs every term computed from scratch (no pawn hash).
    const TRACE: bool;
    /// Adds `count` times weight `index` for side `s` (0 = White).
    fn add(&mut self, s: usize, index: usize, count: i32);
    /// Adds a pawn-structure score already packed (from the pawn hash), White minus Black.
    fn add_packed_white(&mut self, packed: i32);
}

/// The search's sink: one packed sum per side.
#[derive(Default)]
pub(crate) struct Scorer {
    sum: [i32; 2],
}

impl Sink for Scorer {
    const TRACE: bool = false;

    #[inline(always)]
    fn add(&mut self, s: usize, index: usize, count: i32) {
        self.sum[s] = self.sum[s].wrapping_add(PACKED[index].wrapping_mul(count));
    }

    #[inline(always)]
    fn add_packed_white(&mut self, packed: i32) {
        self.sum[0] = self.sum[0].wrapping_add(packed);
    }
}

impl Scorer {
    #[inline(always)]
    fn white(&self) -> i32 {
        self.sum[0].wrapping_sub(self.sum[1])
    }
}

/// Bitboards shared by the terms (raw `u64`, index 0 = White).
pub(crate) struct Context {
    pub occupied: u64,
    pub by_side: [u64; 2],
    /// `[side][role - 1]`, pawn .. king.
    pub pieces: [[u64; 6]; 2],
    pub king: [usize; 2],
    pub pawn_attacks: [u64; 2],
    /// Filled by the piece pass: squares attacked per side and role, and in all.
    pub attacked_by: [[u64; 6]; 2],
    pub attacked: [u64; 2],
    /// King zone: the king's square, its neighbours and one more rank towards the enemy.
    pub king_zone: [u64; 2],
    /// Passed pawns of both sides (from the pawn pass).
    pub passed: u64,
    /// Pieces of each side attacking the enemy king zone (from the piece pass).
    pub king_attackers: [i32; 2],
}

/// Each side's pieces by role ([`ROLES`] order), White's first, and each side's king square.
pub(crate) fn material(chess: &Chess) -> ([[u64; 6]; 2], [usize; 2]) {
    let board = chess.board();
    let mut pieces = [[0u64; 6]; 2];
    for color in [Color::White, Color::Black] {
        for (r, role) in ROLES.into_iter().enumerate() {
            pieces[side(color)][r] = board.by_piece(role.of(color)).0;
        }
    }
    let king = [0, 1].map(|s| pieces[s][5].trailing_zeros() as usize & 63);
    (pieces, king)
}

impl Context {
    fn new(chess: &Chess) -> Context {
        let board = chess.board();
        let (pieces, king) = material(chess);
        let by_side = [Color::White, Color::Black].map(|color| board.by_color(color).0);
        let pawn_attacks = [
            bits::pawn_attacks(0, pieces[0][0]),
            bits::pawn_attacks(1, pieces[1][0]),
        ];
        let mut king_zone = [0u64; 2];
        for s in 0..2 {
            let ring = shakmaty::attacks::king_attacks(sq(king[s])).0 | (1u64 << king[s]);
            let ahead = if s == 0 { ring << 8 } else { ring >> 8 };
            king_zone[s] = ring | ahead;
        }
        let kings = [
            shakmaty::attacks::king_attacks(sq(king[0])).0,
            shakmaty::attacks::king_attacks(sq(king[1])).0,
        ];
        let mut attacked_by = [[0u64; 6]; 2];
        for s in 0..2 {
            attacked_by[s][0] = pawn_attacks[s];
            attacked_by[s][5] = kings[s];
        }
        Context {
            occupied: by_side[0] | by_side[1],
            by_side,
            pieces,
            king,
            pawn_attacks,
            attacked_by,
            attacked: [pawn_attacks[0] | kings[0], pawn_attacks[1] | kings[1]],
            king_zone,
            passed: 0,
            king_attackers: [0; 2],
        }
    }

    /// Records the attacks of one piece of side `s` and role index `r`.
    #[inline(always)]
    pub fn record_attacks(&mut self, s: usize, r: usize, attacks: u64) {
        self.attacked[s] |= attacks;
        self.attacked_by[s][r] |= attacks;
    }
}

/// Square from an index known to be below 64.
#[inline(always)]
pub(crate) fn sq(index: usize) -> shakmaty::Square {
    shakmaty::Square::new((index & 63) as u32)
}

/// The roles in table order.
pub(crate) const ROLES: [Role; 6] = [
    Role::Pawn,
    Role::Knight,
    Role::Bishop,
    Role::Rook,
    Role::Queen,
    Role::King,
];

/// Material phase, 0 (kings and pawns) ..= [`MAX_PHASE`].
#[inline(always)]
pub(crate) fn phase(pieces: &[[u64; 6]; 2]) -> i32 {
    let count = |r: usize| (pieces[0][r] | pieces[1][r]).count_ones() as i32;
    (count(1) + count(2) + 2 * count(3) + 4 * count(4)).min(MAX_PHASE)
}

/// Blends middlegame and endgame by phase; `scale` (out of [`SCALE_NORMAL`]) shrinks the
/// endgame half in drawish endings.
#[inline(always)]
pub(crate) fn taper(mg: i32, eg: i32, phase: i32, scale: i32) -> i32 {
    let eg = eg * scale / SCALE_NORMAL;
    (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE
}

/// How a position is scored.
pub(crate) enum Special {
    /// Linear terms, tapered, endgame half scaled by [`endgame::scale`].
    Linear { phase: i32 },
    /// Scored directly, White's view (insufficient material, KBN against K).
    Direct(i32),
}

/// Runs every linear term into `sink`, with `ctx` made by `Context::new(chess)` (the
/// caller's, so that it is not copied out); returns how to finish the score.
#[inline(always)]
pub(crate) fn compute<S: Sink>(
    chess: &Chess,
    ctx: &mut Context,
    sink: &mut S,
    pawn_table: Option<&mut PawnTable>,
    psqt: Option<i32>,
) -> Special {
    if chess.is_insufficient_material() {
        return Special::Direct(0);
    }
    if let Some(score) = endgame::direct_score(ctx) {
        return Special::Direct(score);
    }
    match psqt {
        Some(sum) if !S::TRACE => sink.add_packed_white(sum),
        _ => pieces::material_and_squares(ctx, sink),
    }
    pawns::evaluate(ctx, sink, pawn_table);
    pieces::evaluate(ctx, sink);
    passed::evaluate(ctx, sink);
    king::evaluate(ctx, sink);
    threats::evaluate(ctx, sink);
    sink.add(side(chess.turn()), layout::TEMPO, 1);
    Special::Linear {
        phase: phase(&ctx.pieces),
    }
}

/// Static evaluation in centipawns from the side to move's point of view, with a pawn hash.
#[inline]
pub fn evaluate_with(chess: &Chess, pawn_table: &mut PawnTable) -> i32 {
    finish(
        chess,
        Some(pawn_table),
        None,
        (
            EvalKnowledge::default(),
            &mut EvalKnowledgeCounts::default(),
        ),
    )
}

/// [`evaluate_with`] given the position's material and piece-square sum
/// ([`psqt::from_scratch`], kept up to date by [`psqt::after_move`]), with the knowledge
/// switched on in `knowledge`, whose counts go up by the evaluations each piece changed
/// (mop-up, KPK bitbase).
#[inline]
pub(crate) fn evaluate_with_psqt(
    chess: &Chess,
    pawn_table: &mut PawnTable,
    psqt: i32,
    knowledge: (EvalKnowledge, &mut EvalKnowledgeCounts),
) -> i32 {
    finish(chess, Some(pawn_table), Some(psqt), knowledge)
}

/// Static evaluation without a pawn hash (tests, tools).
pub fn evaluate(chess: &Chess) -> i32 {
    finish(
        chess,
        None,
        None,
        (
            EvalKnowledge::default(),
            &mut EvalKnowledgeCounts::default(),
        ),
    )
}

#[inline(always)]
fn finish(
    chess: &Chess,
    pawn_table: Option<&mut PawnTable>,
    psqt: Option<i32>,
    (knowledge, counts): (EvalKnowledge, &mut EvalKnowledgeCounts),
) -> i32 {
    if knowledge.kpk_bitbase
        && let Some(white) = endgame::kpk_score(chess)
    {
        counts.kpk += 1;
        return match chess.turn() {
            Color::White => white,
            Color::Black => -white,
        };
    }
    let mut scorer = Scorer::default();
    let mut ctx = Context::new(chess);
    let special = compute(chess, &mut ctx, &mut scorer, pawn_table, psqt);
    let white = match special {
        Special::Direct(score) => score,
        Special::Linear { phase } => {
            let w = scorer.white();
            let (mg, eg) = (unpack_mg(w), unpack_eg(w));
            let scale = endgame::scale(&ctx.pieces, ctx.king, eg);
            let mut gradient = 0;
            if knowledge.mop_up && scale != 0 {
                gradient = endgame::mop_up(&ctx);
                counts.mop_up += u64::from(gradient != 0);
            }
            taper(mg, eg, phase, scale) + gradient
        }
    };
    match chess.turn() {
        Color::White => white,
        Color::Black => -white,
    }
}

/// Middlegame and endgame value of a piece of this role (0 for the king), from the weights.
#[inline]
pub fn piece_value(role: Role) -> (i32, i32) {
    if role == Role::King {
        return (0, 0);
    }
    let (mg, eg) = weights::WEIGHTS[layout::MATERIAL + role as usize - 1];
    (i32::from(mg), i32::from(eg))
}

#[cfg(test)]
mod tests;
