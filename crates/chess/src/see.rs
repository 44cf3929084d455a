//! Capture evaluation for move ordering: static exchange evaluation (SEE) with x-ray
//! attackers, and MVV-LVA (most valuable victim, least valuable attacker).

use shakmaty::{Bitboard, Color, Move, Position as _, Role, Square, attacks};

use crate::Position;

/// Piece values used by SEE and MVV-LVA (centipawns; the king outweighs everything).
#[inline]
pub const fn see_value(role: Role) -> i32 {
    match role {
        Role::Pawn => 100,
        Role::Knight => 320,
        Role::Bishop => 330,
        Role::Rook => 500,
        Role::Queen => 950,
        Role::King => 20_000,
    }
}

/// The square the captured piece stands on, and its role (en passant included).
#[inline]
fn victim(m: Move) -> Option<(Square, Role)> {
    match m {
        Move::Normal {
            capture: Some(role),
            to,
            ..
        } => Some((to, role)),
        Move::EnPassant { from, to } => {
            Some((Square::from_coords(to.file(), from.rank()), Role::Pawn))
        }
        _ => None,
    }
}

/// MVV-LVA score: victims by value first, then cheaper attackers first. Promotions count
/// as gaining the promoted piece. Quiet moves score 0.
#[inline]
pub fn mvv_lva(m: Move) -> i32 {
    let victim_value = victim(m).map_or(0, |(_, role)| see_value(role));
    let promotion_value = m
        .promotion()
        .map_or(0, |role| see_value(role) - see_value(Role::Pawn));
    if victim_value == 0 && promotion_value == 0 {
        return 0;
    }
    let attacker = m.role() as i32; // Pawn = 1 .. King = 6
    (victim_value + promotion_value) * 8 - attacker
}

/// The least valuable piece of `side` among `attackers`.
#[inline]
fn least_valuable(pos: &shakmaty::Chess, attackers: Bitboard) -> Option<(Square, Role)> {
    let board = pos.board();
    for role in Role::ALL {
        if let Some(sq) = (attackers & board.by_role(role)).first() {
            return Some((sq, role));
        }
    }
    None
}

/// Static exchange evaluation: the material the side to move wins (or loses, negative) by
/// playing `m` followed by the best sequence of captures on its destination square, each
/// side free to stop. X-ray attackers behind sliders join as the pieces in front leave.
/// Pins are ignored, as usual. Non-captures score the exchange their destination invites.
///
/// Both sides' attackers are found once; a capture then only reopens the line through the
/// capturer's square (a diagonal for pawns and bishops, a rank or file for rooks, either for
/// queens and kings; never for knights, which stand on no line to the square).
pub fn see(pos: &Position, m: Move) -> i32 {
    let chess = pos.chess();
    let board = chess.board();
    let (from, to) = match m {
        Move::Normal { from, to, .. } | Move::EnPassant { from, to } => (from, to),
        Move::Castle { .. } | Move::Put { .. } => return 0,
    };
    let mut occupied = board.occupied() ^ Bitboard::from_square(from);
    let mut gain = [0i32; 34];
    gain[0] = victim(m).map_or(0, |(_, role)| see_value(role));
    if let Some((sq, _)) = victim(m).filter(|_| m.is_en_passant()) {
        occupied ^= Bitboard::from_square(sq);
    }
    let mut on_square = see_value(m.role());
    if let Some(promoted) = m.promotion() {
        gain[0] += see_value(promoted) - see_value(Role::Pawn);
        on_square = see_value(promoted);
    }
    let diagonal_sliders = board.bishops_and_queens();
    let straight_sliders = board.rooks_and_queens();
    let mut side: Color = !chess.turn();
    // Most moves land where nothing can take back (every quiet move SEE pruning asks about).
    let recapturers = board.attacks_to(to, side, occupied) & occupied;
    if recapturers.is_empty() {
        return gain[0];
    }
    let mut attackers = recapturers | (board.attacks_to(to, !side, occupied) & occupied);
    let mut depth = 0;
    loop {
        depth += 1;
        // Speculative: what the exchange stands at if `side` takes the piece on the square.
        gain[depth] = on_square - gain[depth - 1];
        if depth + 1 >= gain.len() {
            break;
        }
        let Some((sq, role)) = least_valuable(chess, attackers & board.by_color(side)) else {
            break;
        };
        if role == Role::King && (attackers & board.by_color(!side)).any() {
            break; // the king may not capture into a defended square
        }
        occupied ^= Bitboard::from_square(sq);
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen | Role::King) {
            attackers |= attacks::bishop_attacks(to, occupied) & diagonal_sliders;
        }
        if matches!(role, Role::Rook | Role::Queen | Role::King) {
            attackers |= attacks::rook_attacks(to, occupied) & straight_sliders;
        }
        attackers &= occupied;
        on_square = see_value(role);
        side = !side;
    }
    while depth > 1 {
        depth -= 1;
        gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
    }
    gain[0]
}

/// Whether `see(pos, m) >= threshold`, the form the search asks, decided without playing
/// the exchange out further than the answer needs. Taking a piece worth at least the
/// capturer (or taking with the king, which only legal moves do) never loses material, so
/// for `threshold <= 0` that needs no exchange at all.
///
/// The exchange is followed as a running balance against the threshold: after each capture
/// the side that just captured may stop, so once its balance can no longer fall below what
/// it needs, or the other side's can no longer reach what it needs, the answer is known
/// (the boolean form of SEE that Stockfish's `see_ge` popularised). The same rules as
/// [`see`]: x-rays join, pins are ignored, a king does not take into a defended square.
#[inline]
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    if threshold <= 0
        && let Some((_, victim)) = victim(m)
        && (m.role() == Role::King || see_value(victim) >= see_value(m.role()))
    {
        return true;
    }
    let (from, to) = match m {
        Move::Normal { from, to, .. } | Move::EnPassant { from, to } => (from, to),
        Move::Castle { .. } | Move::Put { .. } => return 0 >= threshold,
    };
    let mut won = victim(m).map_or(0, |(_, role)| see_value(role));
    let mut at_risk = see_value(m.role());
    if let Some(promoted) = m.promotion() {
        won += see_value(promoted) - see_value(Role::Pawn);
        at_risk = see_value(promoted);
    }
    // The mover's margin over the threshold if the opponent does not take back.
    let margin = won - threshold;
    if margin < 0 {
        return false;
    }
    // What the opponent's recapture must win for the mover to fall below the threshold.
    let mut swap = at_risk - margin;
    if swap <= 0 {
        return true; // even losing the piece keeps the mover at or above the threshold
    }
    let chess = pos.chess();
    let board = chess.board();
    let mut occupied = board.occupied() ^ Bitboard::from_square(from);
    if let Some((sq, _)) = victim(m).filter(|_| m.is_en_passant()) {
        occupied ^= Bitboard::from_square(sq);
    }
    let diagonal_sliders = board.bishops_and_queens();
    let straight_sliders = board.rooks_and_queens();
    let mut side = !chess.turn();
    // Most moves SEE pruning asks about are not attacked at all: then the mover keeps the
    // gain, and its own defenders need not be found.
    let their_attackers = board.attacks_to(to, side, occupied) & occupied;
    if their_attackers.is_empty() {
        return true;
    }
    let mut attackers = their_attackers | (board.attacks_to(to, chess.turn(), occupied) & occupied);
    // Whether the mover ends at or above the threshold if `side` cannot or does not capture.
    let mut mover_holds = true;
    while let Some((sq, role)) = least_valuable(chess, attackers & board.by_color(side)) {
        if role == Role::King && (attackers & board.by_color(!side)).any() {
            break; // the king may not capture into a defended square
        }
        // `side` captures: now it is the one that holds unless answered.
        mover_holds = !mover_holds;
        // `swap` becomes what the answer must win to overturn this capture; the side that
        // just captured keeps the result if even losing its capturer cannot overturn it
        // (ties go to the mover, whose test is `>=`).
        swap = see_value(role) - swap;
        if swap < i32::from(mover_holds) {
            break;
        }
        occupied ^= Bitboard::from_square(sq);
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen | Role::King) {
            attackers |= attacks::bishop_attacks(to, occupied) & diagonal_sliders;
        }
        if matches!(role, Role::Rook | Role::Queen | Role::King) {
            attackers |= attacks::rook_attacks(to, occupied) & straight_sliders;
        }
        attackers &= occupied;
        side = !side;
    }
    mover_holds
}
