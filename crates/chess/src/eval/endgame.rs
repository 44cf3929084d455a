//! Endgame knowledge that is not linear in the weights: drawish endings scale the endgame
//! half towards 0, and KBN against K is scored directly, driving the lone king to a corner
//! of the bishop's colour. (Insufficient material is scored 0 before any term runs.)

use shakmaty::{Chess, Color, Position as _};

use super::bits::{DARK_SQUARES, FILE_A, FILE_H, distance};
use super::{Context, MAX_PHASE, SCALE_NORMAL, kpk, material, phase};

/// Value of a known win of KBN against K before the mating-net bonus.
const KBN_WIN: i32 = 800;

/// Non-pawn material in "minor" units: knight and bishop 3, rook 5, queen 9.
fn piece_units(pieces: &[[u64; 6]; 2], s: usize) -> i32 {
    let p = &pieces[s];
    3 * (p[1] | p[2]).count_ones() as i32
        + 5 * p[3].count_ones() as i32
        + 9 * p[4].count_ones() as i32
}

/// The direct score of KBN against K (White's view), or `None`.
pub(crate) fn direct_score(ctx: &Context) -> Option<i32> {
    for strong in 0..2 {
        let weak = strong ^ 1;
        let p = &ctx.pieces[strong];
        let lone = ctx.by_side[weak].count_ones() == 1;
        if lone
            && p[0] == 0
            && p[3] == 0
            && p[4] == 0
            && p[1].count_ones() == 1
            && p[2].count_ones() == 1
        {
            let dark = p[2] & DARK_SQUARES != 0;
            // a1 (0) and h8 (63) are dark; h1 (7) and a8 (56) light.
            let corners = if dark { [0, 63] } else { [7, 56] };
            let weak_king = ctx.king[weak];
            let corner_distance = corners
                .iter()
                .map(|&c| manhattan(weak_king, c))
                .min()
                .unwrap_or(0);
            let kings = distance(ctx.king[strong], weak_king);
            let score = KBN_WIN + 20 * (14 - corner_distance) + 10 * (7 - kings);
            return Some(if strong == 0 { score } else { -score });
        }
    }
    None
}

fn manhattan(a: usize, b: usize) -> i32 {
    ((a % 8) as i32 - (b % 8) as i32).abs() + ((a / 8) as i32 - (b / 8) as i32).abs()
}

/// Scale of the endgame half, out of [`SCALE_NORMAL`], for the side the endgame half favours.
/// `eg_white` is the unscaled endgame half from White's view: the side it favours is the
/// one whose winning chances are judged. `pieces` and `king` as in [`Context`].
pub(crate) fn scale(pieces: &[[u64; 6]; 2], king: [usize; 2], eg_white: i32) -> i32 {
    let units = [piece_units(pieces, 0), piece_units(pieces, 1)];
    let pawns = [
        pieces[0][0].count_ones() as i32,
        pieces[1][0].count_ones() as i32,
    ];
    let strong = if eg_white >= 0 { 0 } else { 1 };
    let weak = strong ^ 1;
    let sp = &pieces[strong];
    let wp = &pieces[weak];

    // Pawnless: at most a minor piece cannot win; a small edge rarely wins.
    if pawns[strong] == 0 {
        if units[strong] <= 3 {
            return 0;
        }
        // Two knights cannot force mate.
        if units[strong] == 6 && sp[1].count_ones() == 2 && units[weak] == 0 {
            return 0;
        }
        if units[strong] - units[weak] <= 2 {
            return 8;
        }
    }

    // Wrong-coloured bishop with rook pawns only: drawn when the defending king holds the
    // promotion corner.
    if sp[3] == 0 && sp[4] == 0 && sp[1] == 0 && sp[2] != 0 && pawns[strong] > 0 {
        let file = if sp[0] & !FILE_A == 0 {
            Some(0)
        } else if sp[0] & !FILE_H == 0 {
            Some(7)
        } else {
            None
        };
        if let Some(file) = file {
            let corner = if strong == 0 { 56 + file } else { file };
            let corner_dark = (1u64 << corner) & DARK_SQUARES != 0;
            let bishops_dark = sp[2] & DARK_SQUARES != 0;
            let bishops_light = sp[2] & !DARK_SQUARES != 0;
            let covers_corner = if corner_dark {
                bishops_dark
            } else {
                bishops_light
            };
            if !covers_corner && distance(king[weak], corner) <= 1 {
                return 0;
            }
        }
    }

    // Opposite-coloured bishops.
    if sp[2].count_ones() == 1
        && wp[2].count_ones() == 1
        && ((sp[2] & DARK_SQUARES != 0) != (wp[2] & DARK_SQUARES != 0))
    {
        let only_bishops = units[0] == 3 && units[1] == 3;
        if only_bishops {
            return if pawns[strong] - pawns[weak] <= 2 {
                16
            } else {
                32
            };
        }
        return 48;
    }
    SCALE_NORMAL
}

/// Centipawns per step of the defending king away from the centre (Manhattan, 0..=6).
const MOP_UP_EDGE: i32 = 10;
/// Centipawns per step the kings are closer than 7 apart (Chebyshev).
const MOP_UP_KINGS: i32 = 4;

/// Steps (Manhattan, 0..=6) from `square` to the nearest of the four centre squares.
fn steps_from_centre(square: usize) -> i32 {
    let centre = |c: i32| (3 - c).max(c - 4);
    centre((square % 8) as i32) + centre((square / 8) as i32)
}

/// Mop-up (White's view): in a pawnless ending where one side has a rook's worth or more
/// and more material than the other, a gradient towards the defending king on the edge
/// and the attacking king next to it. The drawish scale leaves such endings (KR v KB,
/// KR v KN, KQ v KR ...) a flat score; the gradient lets the search steer into the
/// configurations where the win lies instead of choosing among equal scores. Not applied
/// where [`scale`] says the ending cannot be won (two knights).
pub(crate) fn mop_up(ctx: &Context) -> i32 {
    if ctx.pieces[0][0] | ctx.pieces[1][0] != 0 {
        return 0;
    }
    let units = [piece_units(&ctx.pieces, 0), piece_units(&ctx.pieces, 1)];
    let strong = if units[0] > units[1] { 0 } else { 1 };
    let weak = strong ^ 1;
    if units[strong] <= units[weak] || units[strong] < 5 {
        return 0;
    }
    let weak_king = ctx.king[weak];
    let edge = steps_from_centre(weak_king);
    let kings = distance(ctx.king[strong], weak_king);
    let score = MOP_UP_EDGE * edge + MOP_UP_KINGS * (7 - kings);
    if strong == 0 { score } else { -score }
}

/// A bare king against mating material, before the gradient: clearly won, far below a
/// mate score, and far above the network's flat +6 or so, whose small steps the gradient
/// must outweigh.
const BARE_KING_WIN: i32 = 1_000;
/// Centipawns per step of the bare king from the centre (or, against bishop and knight, per
/// step nearer a corner of the bishop's colour).
const BARE_KING_EDGE: i32 = 20;
/// Centipawns per step the kings are closer than 7 apart.
const BARE_KING_KINGS: i32 = 10;
/// Centipawns per man of the strong side, king included (so that it keeps its material).
const BARE_KING_PIECE: i32 = 50;

/// A king alone against mating material and no pawns (White's view), or `None`: queen or
/// rook, two bishops on both colours, or bishop and knight. The score rises as the bare
/// king nears the edge (against bishop and knight, a corner of the bishop's colour, the
/// only corners it mates in) and as the kings close in, so the search steers to the mate
/// that fifty moves allow; without it the network's flat value let KR v K end drawn by the
/// fifty-move rule in self-play. Knights alone, or bishops on one colour, cannot force mate.
pub(crate) fn bare_king_mate(chess: &Chess) -> Option<i32> {
    let board = chess.board();
    if !board.pawns().is_empty() {
        return None;
    }
    let bare = [Color::White, Color::Black]
        .into_iter()
        .find(|&c| (board.by_color(c) & !board.kings()).is_empty())?;
    let strong = !bare;
    let ours = board.by_color(strong);
    let (queens, rooks) = (
        (ours & board.queens()).count(),
        (ours & board.rooks()).count(),
    );
    let bishops = ours & board.bishops();
    let knights = (ours & board.knights()).count();
    let dark = (bishops.0 & DARK_SQUARES).count_ones();
    let light = bishops.count() as u32 - dark;
    let bishop_and_knight =
        queens + rooks == 0 && !bishops.is_empty() && (dark == 0 || light == 0) && knights > 0;
    let mates = queens + rooks > 0 || (dark > 0 && light > 0) || bishop_and_knight;
    if !mates {
        return None;
    }
    let weak_king = usize::from(board.king_of(bare)?);
    let strong_king = usize::from(board.king_of(strong)?);
    let (file, rank) = ((weak_king % 8) as i32, (weak_king / 8) as i32);
    let from_centre = steps_from_centre(weak_king);
    let edge = if bishop_and_knight {
        // Nearness to a corner of the bishop's colour (a1 and h8 are dark), 0..=7, on top
        // of the edge, so that the score rises along the edge from the wrong corner.
        let corners: [(i32, i32); 2] = if dark > 0 {
            [(0, 0), (7, 7)]
        } else {
            [(7, 0), (0, 7)]
        };
        let near = corners
            .iter()
            .map(|&(f, r)| (file - f).abs().max((rank - r).abs()))
            .min()
            .unwrap_or(7);
        from_centre + 2 * (7 - near)
    } else {
        from_centre
    };
    let kings = distance(strong_king, weak_king);
    let score = BARE_KING_WIN
        + BARE_KING_PIECE * ours.count() as i32
        + BARE_KING_EDGE * edge
        + BARE_KING_KINGS * (7 - kings);
    Some(if strong == Color::White {
        score
    } else {
        -score
    })
}

/// Value of a won king and pawn against king, before the pawn's progress.
const KPK_WIN: i32 = 500;
/// Centipawns per rank the pawn has advanced, so that a won KPK is pushed home.
const KPK_RANK: i32 = 20;

/// King and pawn against king by the bitbase (White's view), or `None` for other material:
/// 0 when drawn, [`KPK_WIN`] plus the pawn's progress when won.
pub(crate) fn kpk_score(chess: &Chess) -> Option<i32> {
    let board = chess.board();
    if board.occupied().count() != 3 || board.pawns().count() != 1 {
        return None;
    }
    let pawn_square = board.pawns().first()?;
    let strong = board.color_at(pawn_square)?;
    let king = |color: Color| board.king_of(color).map(usize::from);
    let (wk, bk) = (king(strong)?, king(!strong)?);
    // Seen from the pawn's side: Black's pieces are flipped to White's ranks.
    let flip = |sq: usize| if strong == Color::White { sq } else { sq ^ 56 };
    let pawn = flip(usize::from(pawn_square));
    let wins = kpk::white_wins(flip(wk), pawn, flip(bk), chess.turn() == strong);
    let score = if wins {
        KPK_WIN + KPK_RANK * (pawn / 8) as i32
    } else {
        0
    };
    Some(if strong == Color::White {
        score
    } else {
        -score
    })
}

/// Most men (kings included) on the board where `NetworkClassicBlend` mixes the classic
/// evaluation into the network's.
pub(crate) const CLASSIC_BLEND_MAX_MEN: u32 = 6;

/// Whether `NetworkClassicBlend` applies to `chess`: an ending of at most
/// [`CLASSIC_BLEND_MAX_MEN`] men.
#[inline]
pub(crate) fn classic_blend_applies(chess: &Chess) -> bool {
    chess.board().occupied().count() as u32 <= CLASSIC_BLEND_MAX_MEN
}

/// `percent` of the classic value and the rest of the network's (both the side to move's
/// view), rounded toward zero. In `i64`: the network's value may be any `i32`.
#[inline]
pub(crate) fn blend_network_value(network: i32, classic: i32, percent: u8) -> i32 {
    let percent = i64::from(percent.min(100));
    ((i64::from(network) * (100 - percent) + i64::from(classic) * percent) / 100) as i32
}

/// The network's `value` (side to move's view) with the classic knowledge of drawish
/// endings (`NetworkEndgameScale`): multiplied by [`scale`], blended by the material phase
/// as the classic evaluation blends its endgame half, so that a full middlegame keeps its
/// value. `scaled` counts the values changed.
pub(crate) fn scale_network_value(chess: &Chess, value: i32, scaled: &mut u64) -> i32 {
    let (pieces, king) = material(chess);
    let white = match chess.turn() {
        Color::White => value,
        Color::Black => -value,
    };
    let scale = scale(&pieces, king, white);
    if scale >= SCALE_NORMAL {
        return value;
    }
    let phase = phase(&pieces);
    let blended = (SCALE_NORMAL * phase + scale * (MAX_PHASE - phase)) / MAX_PHASE;
    // In i64: the network's value may be any i32.
    let result = (i64::from(value) * i64::from(blended) / i64::from(SCALE_NORMAL)) as i32;
    *scaled += u64::from(result != value);
    result
}
