//! King and pawn against king, solved exactly: a bitbase of every position (the pawn's side
//! moved to White and the pawn to files a–d) that says whether the pawn's side wins. Built by
//! retrograde analysis the first time it is asked or [`prepare`]d (196,608 positions, about
//! 50 ms) and kept for the life of the process.
//!
//! The idea is old (bitbases in Thompson's and Edwards' endgame work; most engines carry
//! one for KPK); this generator is Horizon's own and is checked against the Syzygy KPvK
//! table in the tests.

use std::sync::OnceLock;

use shakmaty::attacks::{king_attacks, queen_attacks, rook_attacks};
use shakmaty::{Bitboard, Square};

use super::bits::distance;

/// Pawn squares per side to move: files a–d, ranks 2–7.
const PAWN_SQUARES: usize = 24;
const POSITIONS: usize = 2 * PAWN_SQUARES * 64 * 64;

/// The bitbase: bit `index` set when the pawn's side (White) wins.
struct Bitbase {
    wins: Vec<u64>,
}

static BITBASE: OnceLock<Bitbase> = OnceLock::new();

/// Builds the bitbase now if it is not built yet, so that no search pays for it.
pub fn prepare() {
    BITBASE.get_or_init(generate);
}

/// Whether White, with a king on `wk` and a pawn on `pawn`, wins against the black king on
/// `bk` with `white_to_move`. Squares are 0 (a1) ..= 63 (h8); the pawn is on ranks 2–7.
/// Any file: files e–h are mirrored to a–d here.
pub(crate) fn white_wins(wk: usize, pawn: usize, bk: usize, white_to_move: bool) -> bool {
    let (wk, pawn, bk) = if pawn % 8 > 3 {
        (wk ^ 7, pawn ^ 7, bk ^ 7)
    } else {
        (wk, pawn, bk)
    };
    let bitbase = BITBASE.get_or_init(generate);
    let i = index(white_to_move, pawn, wk, bk);
    bitbase.wins[i / 64] >> (i % 64) & 1 != 0
}

fn index(white_to_move: bool, pawn: usize, wk: usize, bk: usize) -> usize {
    let pawn_index = (pawn / 8 - 1) * 4 + pawn % 8;
    ((usize::from(!white_to_move) * PAWN_SQUARES + pawn_index) * 64 + wk) * 64 + bk
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Invalid,
    Unknown,
    Draw,
    Win,
}

fn pawn_attacks(pawn: usize) -> u64 {
    let file = pawn % 8;
    let mut b = 0;
    if file > 0 {
        b |= 1 << (pawn + 7);
    }
    if file < 7 {
        b |= 1 << (pawn + 9);
    }
    b
}

fn king_moves(sq: usize) -> u64 {
    king_attacks(Square::new(sq as u32)).0
}

/// Black to move after White promotes on `promo` to a queen (`queen`) or a rook: whether
/// White wins, that is whether the new piece cannot be taken and Black is not stalemated
/// (king and queen or rook against king wins from every other such position).
fn promotion_wins(wk: usize, bk: usize, promo: usize, queen: bool) -> bool {
    if distance(bk, promo) == 1 && distance(wk, promo) > 1 {
        return false;
    }
    let occupied = Bitboard((1 << wk) | (1 << promo));
    let attacks = if queen {
        queen_attacks(Square::new(promo as u32), occupied).0
    } else {
        rook_attacks(Square::new(promo as u32), occupied).0
    };
    let in_check = attacks >> bk & 1 != 0;
    let guarded = attacks | king_moves(wk);
    let escapes = king_moves(bk) & !guarded;
    escapes != 0 || in_check
}

/// The state of a position before any move is looked at: invalid, decided at once, or not
/// known yet.
fn initial(white_to_move: bool, pawn: usize, wk: usize, bk: usize) -> State {
    if wk == bk || wk == pawn || bk == pawn || distance(wk, bk) <= 1 {
        return State::Invalid;
    }
    let checked_by_pawn = pawn_attacks(pawn) >> bk & 1 != 0;
    if white_to_move {
        if checked_by_pawn {
            return State::Invalid;
        }
        return State::Unknown;
    }
    let mut moves = king_moves(bk) & !king_moves(wk) & !pawn_attacks(pawn);
    if moves >> pawn & 1 != 0 {
        // The pawn is next to the black king and not guarded: taken, drawn.
        return State::Draw;
    }
    moves &= !(1 << pawn);
    if moves == 0 {
        return if checked_by_pawn {
            State::Win
        } else {
            State::Draw
        };
    }
    State::Unknown
}

fn generate() -> Bitbase {
    let mut states = vec![State::Invalid; POSITIONS];
    let squares = |i: usize| {
        let bk = i % 64;
        let wk = i / 64 % 64;
        let pawn_index = i / (64 * 64) % PAWN_SQUARES;
        let white_to_move = i / (64 * 64 * PAWN_SQUARES) == 0;
        let pawn = (pawn_index / 4 + 1) * 8 + pawn_index % 4;
        (white_to_move, pawn, wk, bk)
    };
    for (i, state) in states.iter_mut().enumerate() {
        let (white_to_move, pawn, wk, bk) = squares(i);
        *state = initial(white_to_move, pawn, wk, bk);
    }
    let mut changed = true;
    while changed {
        changed = false;
        for i in 0..POSITIONS {
            if states[i] != State::Unknown {
                continue;
            }
            let (white_to_move, pawn, wk, bk) = squares(i);
            let next = if white_to_move {
                white_move(&states, pawn, wk, bk)
            } else {
                black_move(&states, pawn, wk, bk)
            };
            if next != State::Unknown {
                states[i] = next;
                changed = true;
            }
        }
    }
    let mut wins = vec![0u64; POSITIONS.div_ceil(64)];
    for (i, &state) in states.iter().enumerate() {
        if state == State::Win {
            wins[i / 64] |= 1 << (i % 64);
        }
    }
    Bitbase { wins }
}

/// White to move: a win if some move wins, a draw if every move draws.
fn white_move(states: &[State], pawn: usize, wk: usize, bk: usize) -> State {
    let mut all_draw = true;
    let mut consider = |state: State| match state {
        State::Win => Some(State::Win),
        State::Unknown => {
            all_draw = false;
            None
        }
        _ => None,
    };
    let mut targets = king_moves(wk) & !king_moves(bk) & !(1 << pawn);
    while targets != 0 {
        let to = targets.trailing_zeros() as usize;
        targets &= targets - 1;
        if let Some(win) = consider(states[index(false, pawn, to, bk)]) {
            return win;
        }
    }
    let push = pawn + 8;
    if push != wk && push != bk {
        if push / 8 == 7 {
            if promotion_wins(wk, bk, push, true) || promotion_wins(wk, bk, push, false) {
                return State::Win;
            }
        } else {
            if let Some(win) = consider(states[index(false, push, wk, bk)]) {
                return win;
            }
            let double = push + 8;
            if pawn / 8 == 1
                && double != wk
                && double != bk
                && let Some(win) = consider(states[index(false, double, wk, bk)])
            {
                return win;
            }
        }
    }
    if all_draw {
        State::Draw
    } else {
        State::Unknown
    }
}

/// Black to move (the pawn cannot be taken here, `initial` saw to that): a draw if some
/// move draws, a win if every move loses.
fn black_move(states: &[State], pawn: usize, wk: usize, bk: usize) -> State {
    let mut all_win = true;
    let mut targets = king_moves(bk) & !king_moves(wk) & !pawn_attacks(pawn) & !(1 << pawn);
    while targets != 0 {
        let to = targets.trailing_zeros() as usize;
        targets &= targets - 1;
        match states[index(true, pawn, wk, to)] {
            State::Draw => return State::Draw,
            State::Unknown => all_win = false,
            _ => {}
        }
    }
    if all_win { State::Win } else { State::Unknown }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn textbook_positions() {
        let sq = |name: &str| {
            let b = name.as_bytes();
            usize::from(b[0] - b'a') + 8 * usize::from(b[1] - b'1')
        };
        // King in front of its pawn on the sixth, opposition: wins whoever moves.
        assert!(white_wins(sq("e6"), sq("e5"), sq("e8"), true));
        assert!(white_wins(sq("e6"), sq("e5"), sq("e8"), false));
        // Rook pawn with the defender in the corner: always drawn.
        assert!(!white_wins(sq("b6"), sq("a6"), sq("a8"), true));
        assert!(!white_wins(sq("h6"), sq("h5"), sq("h8"), false));
        // The pawn outruns a king outside its square.
        assert!(white_wins(sq("a1"), sq("d5"), sq("h5"), true));
        assert!(!white_wins(sq("a1"), sq("d5"), sq("g5"), false));
    }
}
